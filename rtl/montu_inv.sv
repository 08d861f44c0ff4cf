// Inversion engine of MINV: y^-1 mod x for any modulus x (even ones included), GF(p) or GF(2^m).
//
// Algorithm (bie2021 Alg. 3 with multi-bit halving; reference model and pass schedule:
// src/montu/sim/inversion.py, run_inversion). Invariants, over Z (GF(p)) or GF(2)[x] (GF(2^m)):
//     u = A·x + B·y        v = C·x + D·y        start: u = x, v = y, (A, B, C, D) = (1, 0, 0, 1)
// Each reduction pass picks, in this order of priority,
//     u even         : (w, a, b) = (u, A, B)             -> result to (u, A, B)
//     v even         : (w, a, b) = (v, C, D)             -> result to (v, C, D)
//     u >= v         : (w, a, b) = (u-v, A-C, B-D)       -> result to (u, A, B)
//     else           : (w, a, b) = (v-u, C-A, D-B)       -> result to (v, C, D)
// ("-" is XOR in GF(2^m); ">=" is the unsigned integer compare in both fields) and writes
//     w' = w / 2^t,  a' = (a + m·y) / 2^t,  b' = (b - m·x) / 2^t     (floor, i.e. arithmetic >>)
// with t = min(tz(w), Word-1) (Word-1 when w = 0), m = (-a·yinv) mod 2^t if y is odd, else
// m = (b·xinv) mod 2^t, where yinv / xinv = (odd one)^-1 mod 2^Word (mod x^Word in GF(2^m); in
// GF(2^m) there is no minus sign and the products are carry-less). The loop ends when u = 0;
// then v = gcd and, if v = 1, D·y = 1 mod x. D is brought into [0, x) (deg D < deg x) by fix
// passes: GF(p) D += x while D < 0, then D -= x while D >= x; GF(2^m) at most one, D ^= x if
// deg D >= deg x (exactly as the reference). One pass suffices when deg D <= deg x: deg D < deg x
// in > 70,000 random runs, and an exhaustive search over all x, y < 2^9 found deg D = deg x only
// for x = 1 (D = 1, fixed to 0) and never deg D > deg x.
//
// Datapath. u, v, A, B, C, D, x, y live in eight Word-wide scratch memories (montu_inv_ram,
// synchronous read) addressed by word; every pass reads all eight at the same word index, word 0
// first, one word per cycle. Coefficients are two's complement: W words in memory plus ExtBits
// extension bits per coefficient in flip-flops. Pipeline of a pass (cycle c relative to the
// cycle its word 0 is addressed; word j is addressed at c = j):
//   S1 (c = j+1): operand select and subtract (borrow chains); at j = 0 t and m are derived from
//                 word 0 (trailing-zero count; Word x Word low product with the Hensel inverse).
//                 The u/v result needs no multiply: w'_{j-1} = {w_j, w_{j-1}} >> t is written
//                 here, and the flags of the next pass (parity, u >= v on the fly: the most
//                 significant differing word decides, u = 0, v = 1) are complete at c = W.
//   S2 (c = j+2): two multiply-accumulate lanes, integer or carry-less:
//                 a_j + m·y_j + carry and b_j - m·x_j + carry (Word x Word -> 2 Word + 2 bits).
//                 The funnel shift {lo_j, lo_{j-1}} >> t writes word j-1 of a', b'.
//   tail (c = W+2): the extension: {ext + carry, lo_{W-1}} >> t gives word W-1 and the new ext.
//   S4 (c = j+4): a written D word is compared with x (fix flags: D < 0, D >= x, deg D >= deg x).
// The next pass can address its word 0 as soon as its branch flags exist, so passes follow
// each other every P = max(W, 3) cycles (the memories are write-first for the W < 4 overlap).
//
// Coefficient growth bound: over 49,570 random runs of an instrumented copy of run_inversion
// (Word = 8/32/64, W = 1..32, odd, even and RSA-style moduli, y even, extreme/short operands,
// plus 300 runs per size/kind for Word = 32/64, W = 1..32) the largest |A|, |B|, |C|, |D| and
// the largest pre-shift difference |A - C|, |B - D| were < 2^(L+2), L = W·Word; in GF(2^m) all
// degrees were < L. ExtBits = 8 holds [-2^(L+7), 2^(L+7)): 5 bits of margin.
//
// Interface / timing (cycle 0 = the cycle start_i is high; passes = reduction passes and
// fixes = fix passes as counted by run_inversion, P = max(W, 3)):
//   start_i      pulse, accepted when idle (from the cycle done_o is high on); words_i
//                (W, 1..MaxWords) and gf2m_i are sampled. Ignored while busy.
//   ld_valid_i   from cycle 1 on: word j of x (modulus) and y, j = 0..W-1 in order, one per
//                valid cycle. Gaps are allowed; the bit-serial Hensel lifting (Word - 1 cycles
//                from word 0) runs in parallel, so only a load longer than Word cycles counts.
//   res_valid_o  word j of y^-1 mod x, j = 0..W-1 on consecutive cycles; done_o follows.
//   done_o       one-cycle pulse. With the words on cycles 1..W, done_o is high in cycle
//                  no inverse found at load (x = 0, y = 0, both even): W + 1
//                  gcd != 1 (after the passes):                        max(W, Word) + 4 + passes·P
//                  success:      max(W, Word) + W + 6 + passes·P + fixes·(W + 3)
//                (setup max(W, Word) + 2; the first fix decision waits 3 cycles for the D flags;
//                a fix pass is W + 3 because its D >= x flag is registered once more; the result
//                stream is W + 1 with done_o.)
//   no_inverse_o with done_o: there is no inverse (no result stream was sent).
module montu_inv #(
  parameter  int unsigned Word     = 64,
  parameter  int unsigned MaxWords = 64,
  localparam int unsigned Cw       = $clog2(MaxWords + 1),
  localparam int unsigned ClrW     = (MaxWords > 1) ? $clog2(MaxWords) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic            one_bit_i,    // sampled with start_i: 1 = one halving per pass, exactly
                                        //   bie2021 Alg. 3's step (t = 1), for comparison
  input  logic            clear_i,      // WIPE: write 0 to word clear_addr_i of every scratch memory
  input  logic [ClrW-1:0] clear_addr_i, //   (only while idle; the top holds the engine in reset)
  input  logic            gf2m_i,
  input  logic [Cw-1:0]   words_i,
  input  logic            ld_valid_i,
  input  logic [Word-1:0] ld_x_i,
  input  logic [Word-1:0] ld_y_i,
  output logic            res_valid_o,
  output logic [Word-1:0] res_word_o,
  output logic            done_o,
  output logic            no_inverse_o
);
  localparam int unsigned Aw      = (MaxWords > 1) ? $clog2(MaxWords) : 1;
  localparam int unsigned Tw      = $clog2(Word);           // t <= Word - 1
  localparam int unsigned Pw      = $clog2(MaxWords + 4);   // pass period counter, <= W + 2
  localparam int unsigned ExtBits = 8;                      // see the growth bound above
  localparam int unsigned Cy      = Word + 2;               // signed carry between words
  localparam int unsigned Sw      = 2 * Word + 2;           // signed word sum a + m·z + carry
  localparam int unsigned Ew      = Word + 3;               // signed extension sum

  // t = 0 .. Word-1 must fit Tw = log2(Word) bits, and the extension must fit below a word.
  if (Word < 16 || (Word & (Word - 1)) != 0) begin : g_bad_word
    $error("montu_inv: Word must be a power of two >= 16");
  end
  if (MaxWords < 1) begin : g_bad_max_words
    $error("montu_inv: MaxWords must be >= 1");
  end

  // Memories.
  localparam int unsigned MemU = 0, MemV = 1, MemA = 2, MemB = 3, MemC = 4, MemD = 5,
                          MemX = 6, MemY = 7, NumMems = 8;

  typedef enum logic [2:0] {
    StIdle, StLoad, StWait, StRun, StFix, StOut
  } state_e;

  typedef enum logic [1:0] {
    KindNone,   // no pass (stopped)
    KindRed,    // reduction pass
    KindFix,    // D <- D ± x (GF(2^m): D ^ x)
    KindOut     // result stream of D
  } kind_e;

  // What a pass does; fixed at its word 0 and carried down the pipeline with every word.
  typedef struct packed {
    kind_e           kind;
    logic            side;   // result to (u, A, B) when 0, to (v, C, D) when 1
    logic            diff;   // operands are this side minus the other side (XOR in GF(2^m))
    logic [Tw-1:0]   t;      // shift: divide by 2^t
    logic [Word-1:0] m;      // multiplier, m < 2^t (1 in a fix pass)
    logic            sub2;   // lane 2: b - m·x when 1, b + m·x when 0
  } pass_t;

  typedef struct packed {
    logic          valid;
    logic          last;     // j = W - 1
    logic [Aw-1:0] j;
    pass_t         pass;
  } ctl_t;

  // Running state of the on-the-fly u/v flags of the value a pass writes.
  typedef struct packed {
    logic ge;      // u >= v over the words seen so far (ascending)
    logic nz_hi;   // some word above word 0 is non-zero
    logic r0_nz;   // word 0 is non-zero
    logic r0_odd;  // bit 0
    logic r0_one;  // word 0 == 1
  } cmp_t;

  // Carry-less product a·b in GF(2)[x].
  function automatic logic [2*Word-1:0] clmul(logic [Word-1:0] a, logic [Word-1:0] b);
    logic [2*Word-1:0] acc;
    acc = '0;
    for (int unsigned k = 0; k < Word; k++) begin
      if (b[k]) acc = acc ^ ({{Word{1'b0}}, a} << k);
    end
    return acc;
  endfunction

  // min(trailing zeros of a, Word - 1); Word - 1 for a = 0.
  function automatic logic [Tw-1:0] trailing_zeros(logic [Word-1:0] a);
    logic [Tw-1:0] tz;
    tz = Tw'(Word - 1);
    for (int k = Word - 2; k >= 0; k--) begin
      if (a[k]) tz = Tw'(k);
    end
    return tz;
  endfunction

  // Fold word r of the new value (and word o of the unchanged other one) into the flags.
  function automatic cmp_t absorb(cmp_t c, logic [Word-1:0] r, logic [Word-1:0] o, logic side,
                                  logic word0);
    logic [Word-1:0] uw, vw;
    cmp_t n;
    uw = side ? o : r;
    vw = side ? r : o;
    n = c;
    n.ge = (uw > vw) | ((uw == vw) & c.ge);
    if (word0) begin
      n.r0_nz  = |r;
      n.r0_odd = r[0];
      n.r0_one = (r == Word'(1));
    end else begin
      n.nz_hi = c.nz_hi | (|r);
    end
    return n;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------------------------
  state_e            state_d, state_q;
  logic              gf_d, gf_q;               // GF(2^m) mode
  logic              one_bit_d, one_bit_q;     // t = 1 on every pass (Alg. 3 as printed)
  logic [Cw-1:0]     words_d, words_q;         // W
  logic [Aw-1:0]     ld_j_d, ld_j_q;
  logic              done_d, done_q, noinv_d, noinv_q;

  // Load-time facts about x and y.
  logic              x_nz_d, x_nz_q, y_nz_d, y_nz_q;            // x != 0, y != 0
  logic              x_hi_nz_d, x_hi_nz_q, y_hi_nz_d, y_hi_nz_q; // some word above 0 non-zero
  logic              x_lo_one_d, x_lo_one_q, y_lo_one_d, y_lo_one_q;
  logic              xy_ge_d, xy_ge_q;                          // x >= y so far
  logic              y_odd_d, y_odd_q;

  // Hensel lifting: inv = odd^-1 mod 2^Word (x^Word), one bit per cycle; prod = odd·inv.
  logic              hen_busy_d, hen_busy_q;
  logic [Tw-1:0]     hen_bit_d, hen_bit_q;
  logic [Word-1:0]   hen_odd_d, hen_odd_q, inv_d, inv_q, hen_prod_d, hen_prod_q;

  // Branch flags of the current u, v and the fix flags of D.
  logic              u_odd_d, u_odd_q, v_odd_d, v_odd_q, u_ge_v_d, u_ge_v_q;
  logic              u_zero_d, u_zero_q, v_one_d, v_one_q;
  logic              d_fix_d, d_fix_q, d_neg_d, d_neg_q;
  logic              gf_fixed_d, gf_fixed_q;   // GF(2^m): the one fix pass has been made

  // Coefficient extensions (bits L .. L+ExtBits-1, two's complement).
  logic [ExtBits-1:0] ext_a_d, ext_a_q, ext_b_d, ext_b_q, ext_c_d, ext_c_q, ext_d_d, ext_d_q;

  // S0: word addressing.
  logic              s0_on_d, s0_on_q;
  logic [Pw-1:0]     s0_cnt_d, s0_cnt_q;
  logic              s0_issue;

  // S1 input (address stage registered) and per-pass state.
  logic              s1_valid_d, s1_valid_q;
  logic [Aw-1:0]     s1_j_d, s1_j_q;
  pass_t             pc_d, pc_q;               // the current pass, held from its word 0
  logic              bw_d, bw_q, bp_d, bp_q, bq_d, bq_q;   // borrows of w, a, b
  logic [Word-1:0]   w1_d, w1_q, o1_d, o1_q;   // previous word of w and of the other operand
  cmp_t              cmp_d, cmp_q;
  logic              wl_valid_d, wl_valid_q, wl_side_d, wl_side_q;  // late write of w' word W-1
  logic [Aw-1:0]     wl_j_d, wl_j_q;
  logic [Word-1:0]   wl_data_d, wl_data_q;
  logic [ExtBits:0]  pe_d, pe_q, qe_d, qe_q;   // extension of a, b (one bit wider: a difference)

  // S2 (multiply-accumulate) and S3 (previous word, for the funnel shift and the tail).
  ctl_t              c2_d, c2_q, c3_d, c3_q;
  logic [Word-1:0]   p2_d, p2_q, q2_d, q2_q, y2_d, y2_q, x2_d, x2_q;
  logic [Word-1:0]   lo1_d, lo1_q, lo2_d, lo2_q, x3_d, x3_q;
  logic [Cy-1:0]     cy1_d, cy1_q, cy2_d, cy2_q;

  // S4: the D >= x / deg D >= deg x compare of a written D word.
  logic              dc_valid_d, dc_valid_q, dc_first_d, dc_first_q, dc_last_d, dc_last_q;
  logic [Word-1:0]   dc_word_d, dc_word_q, dc_x_d, dc_x_q;
  logic [ExtBits-1:0] dc_ext_d, dc_ext_q;
  logic              dge_d, dge_q, dxlt_d, dxlt_q;

  // Memory ports.
  logic [Word-1:0]   rdata [NumMems];
  logic              we    [NumMems];
  logic [Aw-1:0]     waddr [NumMems];
  logic [Word-1:0]   wdata [NumMems];
  logic [Aw-1:0]     raddr;

  for (genvar k = 0; k < NumMems; k++) begin : g_mem
    montu_inv_ram #(.Width(Word), .Depth(MaxWords)) u_ram (
      .clk_i,
      .we_i    (we[k]),
      .waddr_i (waddr[k]),
      .wdata_i (wdata[k]),
      .raddr_i (raddr),
      .rdata_o (rdata[k])
    );
  end

  // ---------------------------------------------------------------------------------------------
  // Shared combinational signals
  // ---------------------------------------------------------------------------------------------
  logic [Aw-1:0]   w_last;        // W - 1
  logic [Pw-1:0]   period_red, period_fix;
  logic            s1_first, s1_last;
  pass_t           dec;           // the pass decided at word 0
  pass_t           p1;            // the pass of the word in S1
  logic            v1;            // S1 holds a word of a live pass
  logic            kill_fail, kill_fix, go_out, out_last;
  logic [Word-1:0] w_f, w_s, p_f, p_s, q_f, q_s, w_cur, p_cur, q_cur;
  logic [ExtBits-1:0] pe_f, pe_s, qe_f, qe_s;
  logic [Word:0]   w_sub, p_sub, q_sub;
  logic [Tw-1:0]   t_new;
  logic [Word-1:0] m_new, m_full, mask_t;
  logic [Word-1:0] r_prev, r_last;
  cmp_t            cmp_a, cmp_b;

  assign w_last     = Aw'(words_q - Cw'(1));
  assign period_red = (words_q < Cw'(3)) ? Pw'(3) : Pw'(words_q);
  assign period_fix = Pw'(words_q) + Pw'(3);
  assign s1_first   = (s1_j_q == '0);
  assign s1_last    = (s1_j_q == w_last);
  assign raddr      = s0_cnt_q[Aw-1:0];
  assign s0_issue   = s0_on_q && (s0_cnt_q < Pw'(words_q));

  // ---------------------------------------------------------------------------------------------
  // S1: pass decision at word 0, operand select and subtract, t and m, the u/v result and flags.
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    dec       = '0;
    kill_fail = 1'b0;
    kill_fix  = 1'b0;
    go_out    = 1'b0;
    if (s1_valid_q && s1_first) begin
      unique case (state_q)
        StRun: begin
          if (u_zero_q) begin
            // u = 0: v is the gcd.
            dec.kind = KindNone;
            kill_fix  = v_one_q;
            kill_fail = !v_one_q;
          end else begin
            dec.kind = KindRed;
            dec.sub2 = 1'b1;
            if (!u_odd_q)      begin dec.side = 1'b0; dec.diff = 1'b0; end
            else if (!v_odd_q) begin dec.side = 1'b1; dec.diff = 1'b0; end
            else if (u_ge_v_q) begin dec.side = 1'b0; dec.diff = 1'b1; end
            else               begin dec.side = 1'b1; dec.diff = 1'b1; end
          end
        end
        StFix: begin
          dec.side = 1'b1;
          if (d_fix_q && !(gf_q && gf_fixed_q)) begin
            dec.kind = KindFix;
            dec.m    = Word'(1);
            dec.sub2 = !d_neg_q;     // D < 0: D + x, else D - x
          end else begin
            dec.kind = KindOut;
            go_out   = 1'b1;
          end
        end
        default: dec.kind = KindNone;
      endcase
    end
    p1 = s1_first ? dec : pc_q;

    // Operands: "f" = the side the result goes to, "s" = the other side.
    w_f  = p1.side ? rdata[MemV] : rdata[MemU];
    w_s  = p1.side ? rdata[MemU] : rdata[MemV];
    p_f  = p1.side ? rdata[MemC] : rdata[MemA];
    p_s  = p1.side ? rdata[MemA] : rdata[MemC];
    q_f  = p1.side ? rdata[MemD] : rdata[MemB];
    q_s  = p1.side ? rdata[MemB] : rdata[MemD];
    pe_f = p1.side ? ext_c_q : ext_a_q;
    pe_s = p1.side ? ext_a_q : ext_c_q;
    qe_f = p1.side ? ext_d_q : ext_b_q;
    qe_s = p1.side ? ext_b_q : ext_d_q;

    // Word j of f - s - borrow (the borrow chain restarts at word 0).
    w_sub = {1'b0, w_f} - {1'b0, w_s} - {{Word{1'b0}}, (s1_first ? 1'b0 : bw_q)};
    p_sub = {1'b0, p_f} - {1'b0, p_s} - {{Word{1'b0}}, (s1_first ? 1'b0 : bp_q)};
    q_sub = {1'b0, q_f} - {1'b0, q_s} - {{Word{1'b0}}, (s1_first ? 1'b0 : bq_q)};
    if (!p1.diff) begin
      w_cur = w_f;
      p_cur = p_f;
      q_cur = q_f;
    end else if (gf_q) begin
      w_cur = w_f ^ w_s;
      p_cur = p_f ^ p_s;
      q_cur = q_f ^ q_s;
    end else begin
      w_cur = w_sub[Word-1:0];
      p_cur = p_sub[Word-1:0];
      q_cur = q_sub[Word-1:0];
    end

    // Extensions of a and b (taken at word W-1, with its borrow out).
    if (!p1.diff) begin
      pe_d = {pe_f[ExtBits-1], pe_f};
      qe_d = {qe_f[ExtBits-1], qe_f};
    end else if (gf_q) begin
      pe_d = {1'b0, pe_f ^ pe_s};
      qe_d = {1'b0, qe_f ^ qe_s};
    end else begin
      pe_d = {pe_f[ExtBits-1], pe_f} - {pe_s[ExtBits-1], pe_s} - {{ExtBits{1'b0}}, p_sub[Word]};
      qe_d = {qe_f[ExtBits-1], qe_f} - {qe_s[ExtBits-1], qe_s} - {{ExtBits{1'b0}}, q_sub[Word]};
    end
    if (!(s1_valid_q && s1_last)) begin
      pe_d = pe_q;
      qe_d = qe_q;
    end

    // t = min(tz(w), Word-1); m = -a·yinv (y odd) or b·xinv (y even), mod 2^t.
    t_new  = one_bit_q ? Tw'(1) : trailing_zeros(w_cur);
    mask_t = (Word'(1) << t_new) - Word'(1);
    if (gf_q) begin
      m_full = y_odd_q ? clmul(p_cur, inv_q)[Word-1:0] : clmul(q_cur, inv_q)[Word-1:0];
    end else begin
      m_full = y_odd_q ? Word'(-(p_cur * inv_q)) : Word'(q_cur * inv_q);
    end
    m_new = m_full & mask_t;
    if (s1_first && (dec.kind == KindRed)) begin
      p1.t = t_new;
      p1.m = m_new;
    end
    v1   = s1_valid_q && (p1.kind != KindNone);
    pc_d = (s1_valid_q && s1_first) ? p1 : pc_q;

    // New u/v words: w' word j-1 = {w_j, w_{j-1}} >> t, and at the last word w' word W-1 = w >> t.
    r_prev = Word'({w_cur, w1_q} >> p1.t);
    r_last = w_cur >> p1.t;
    cmp_a  = s1_first ? cmp_t'{ge: 1'b1, default: 1'b0} : cmp_q;
    if (!s1_first) cmp_a = absorb(cmp_a, r_prev, o1_q, p1.side, (s1_j_q == Aw'(1)));
    cmp_b  = s1_last ? absorb(cmp_a, r_last, w_s, p1.side, s1_first) : cmp_a;
  end

  assign out_last    = s1_valid_q && s1_last && (p1.kind == KindOut);
  assign res_valid_o = s1_valid_q && (p1.kind == KindOut);
  assign res_word_o  = rdata[MemD];

  always_comb begin
    w1_d = w_cur;
    o1_d = w_s;
    bw_d = w_sub[Word];
    bp_d = p_sub[Word];
    bq_d = q_sub[Word];
    cmp_d = cmp_b;
    wl_valid_d = v1 && (p1.kind == KindRed) && s1_last;
    wl_side_d  = p1.side;
    wl_j_d     = s1_j_q;
    wl_data_d  = r_last;
    // To S2: only reduction and fix passes use the lanes.
    c2_d.valid = v1 && ((p1.kind == KindRed) || (p1.kind == KindFix));
    c2_d.last  = s1_last;
    c2_d.j     = s1_j_q;
    c2_d.pass  = p1;
    p2_d = p_cur;
    q2_d = q_cur;
    y2_d = rdata[MemY];
    x2_d = rdata[MemX];
  end

  // ---------------------------------------------------------------------------------------------
  // S2: the lanes. Lane 1: a + m·y + carry; lane 2: b -/+ m·x + carry (GF(2^m): XOR, carry-less,
  // the "carry" is the high half of the previous product). S3 / tail: extension word.
  // ---------------------------------------------------------------------------------------------
  logic [Sw-1:0]   s_lane1, s_lane2;
  logic [Cy-1:0]   cin1, cin2;
  logic [2*Word-1:0] prod1, prod2;
  logic [Word-1:0] r2_lane1, r2_lane2;
  logic            s2_first, s2_write, tail;
  logic [Ew-1:0]   e_lane1, e_lane2;
  logic [ExtBits-1:0] e_sh1, e_sh2;   // the new extensions
  logic [Word-1:0] rt_lane1, rt_lane2;

  assign s2_first = (c2_q.j == '0);
  assign s2_write = c2_q.valid && !s2_first;
  assign tail     = c3_q.valid && c3_q.last;

  always_comb begin
    cin1 = s2_first ? '0 : cy1_q;
    cin2 = s2_first ? '0 : cy2_q;
    if (gf_q) begin
      prod1   = clmul(c2_q.pass.m, y2_q);
      prod2   = clmul(c2_q.pass.m, x2_q);
      s_lane1 = {2'b00, prod1} ^ {{(Word + 2){1'b0}}, p2_q ^ cin1[Word-1:0]};
      s_lane2 = {2'b00, prod2} ^ {{(Word + 2){1'b0}}, q2_q ^ cin2[Word-1:0]};
    end else begin
      prod1   = {{Word{1'b0}}, c2_q.pass.m} * {{Word{1'b0}}, y2_q};
      prod2   = {{Word{1'b0}}, c2_q.pass.m} * {{Word{1'b0}}, x2_q};
      s_lane1 = {{(Word + 2){1'b0}}, p2_q} + {2'b00, prod1} + {{Word{cin1[Cy-1]}}, cin1};
      s_lane2 = {{(Word + 2){1'b0}}, q2_q} + {{Word{cin2[Cy-1]}}, cin2}
              + (c2_q.pass.sub2 ? -{2'b00, prod2} : {2'b00, prod2});
    end
    lo1_d = c2_q.valid ? s_lane1[Word-1:0] : lo1_q;
    lo2_d = c2_q.valid ? s_lane2[Word-1:0] : lo2_q;
    cy1_d = c2_q.valid ? s_lane1[Sw-1:Word] : cy1_q;
    cy2_d = c2_q.valid ? s_lane2[Sw-1:Word] : cy2_q;
    x3_d  = c2_q.valid ? x2_q : x3_q;
    c3_d  = c2_q;
    // Word j-1 of a', b' = {lo_j, lo_{j-1}} >> t.
    r2_lane1 = Word'({s_lane1[Word-1:0], lo1_q} >> c2_q.pass.t);
    r2_lane2 = Word'({s_lane2[Word-1:0], lo2_q} >> c2_q.pass.t);
    // Tail: e = ext + carry out of word W-1; word W-1 = {e, lo_{W-1}} >> t, ext' = e >> t.
    if (gf_q) begin
      e_lane1 = {{(Ew - ExtBits - 1){1'b0}}, pe_q} ^ {1'b0, cy1_q};
      e_lane2 = {{(Ew - ExtBits - 1){1'b0}}, qe_q} ^ {1'b0, cy2_q};
    end else begin
      e_lane1 = {{(Ew - ExtBits - 1){pe_q[ExtBits]}}, pe_q} + {cy1_q[Cy-1], cy1_q};
      e_lane2 = {{(Ew - ExtBits - 1){qe_q[ExtBits]}}, qe_q} + {cy2_q[Cy-1], cy2_q};
    end
    rt_lane1 = Word'({e_lane1[Word-1:0], lo1_q} >> c3_q.pass.t);
    rt_lane2 = Word'({e_lane2[Word-1:0], lo2_q} >> c3_q.pass.t);
    e_sh1    = ExtBits'($signed(e_lane1) >>> c3_q.pass.t);
    e_sh2    = ExtBits'($signed(e_lane2) >>> c3_q.pass.t);
  end

  // ---------------------------------------------------------------------------------------------
  // Memory writes: the load, the u/v result (S1 and the late word W-1), the lanes (S2, tail).
  // These never collide: word j >= 1 of a pass in S1/S2 excludes word W-1 of the previous one in
  // the next stage, and the load runs only with the pipeline empty.
  // ---------------------------------------------------------------------------------------------
  logic ld_fire;
  assign ld_fire = (state_q == StLoad) && ld_valid_i;

  always_comb begin
    for (int k = 0; k < NumMems; k++) begin
      we[k]    = 1'b0;
      waddr[k] = '0;
      wdata[k] = '0;
    end
    ext_a_d = ext_a_q;
    ext_b_d = ext_b_q;
    ext_c_d = ext_c_q;
    ext_d_d = ext_d_q;
    dc_valid_d = 1'b0;
    dc_first_d = 1'b0;
    dc_last_d  = 1'b0;
    dc_word_d  = rt_lane2;
    dc_x_d     = x3_q;
    dc_ext_d   = e_sh2;

    if (ld_fire) begin
      // u = x, v = y, A = D = 1, B = C = 0.
      for (int k = 0; k < NumMems; k++) begin
        we[k]    = 1'b1;
        waddr[k] = ld_j_q;
      end
      wdata[MemU] = ld_x_i;
      wdata[MemX] = ld_x_i;
      wdata[MemV] = ld_y_i;
      wdata[MemY] = ld_y_i;
      wdata[MemA] = Word'(ld_j_q == '0);
      wdata[MemD] = Word'(ld_j_q == '0);
      ext_a_d = '0;
      ext_b_d = '0;
      ext_c_d = '0;
      ext_d_d = '0;
    end

    // u/v: late word W-1 of the previous pass, or word j-1 of this one.
    if (wl_valid_q) begin
      we[wl_side_q ? MemV : MemU]    = 1'b1;
      waddr[wl_side_q ? MemV : MemU] = wl_j_q;
      wdata[wl_side_q ? MemV : MemU] = wl_data_q;
    end
    if (v1 && (p1.kind == KindRed) && !s1_first) begin
      we[p1.side ? MemV : MemU]    = 1'b1;
      waddr[p1.side ? MemV : MemU] = s1_j_q - Aw'(1);
      wdata[p1.side ? MemV : MemU] = r_prev;
    end

    // Lanes: word j-1 from S2, or word W-1 and the extension in the tail.
    if (s2_write) begin
      if (c2_q.pass.kind == KindRed) begin
        we[c2_q.pass.side ? MemC : MemA]    = 1'b1;
        waddr[c2_q.pass.side ? MemC : MemA] = c2_q.j - Aw'(1);
        wdata[c2_q.pass.side ? MemC : MemA] = r2_lane1;
      end
      we[c2_q.pass.side ? MemD : MemB]    = 1'b1;
      waddr[c2_q.pass.side ? MemD : MemB] = c2_q.j - Aw'(1);
      wdata[c2_q.pass.side ? MemD : MemB] = r2_lane2;
      dc_valid_d = c2_q.pass.side;
      dc_first_d = (c2_q.j == Aw'(1));
      dc_word_d  = r2_lane2;
    end
    if (tail) begin
      if (c3_q.pass.kind == KindRed) begin
        we[c3_q.pass.side ? MemC : MemA]    = 1'b1;
        waddr[c3_q.pass.side ? MemC : MemA] = c3_q.j;
        wdata[c3_q.pass.side ? MemC : MemA] = rt_lane1;
        if (c3_q.pass.side) ext_c_d = e_sh1;
        else                ext_a_d = e_sh1;
      end
      we[c3_q.pass.side ? MemD : MemB]    = 1'b1;
      waddr[c3_q.pass.side ? MemD : MemB] = c3_q.j;
      wdata[c3_q.pass.side ? MemD : MemB] = rt_lane2;
      if (c3_q.pass.side) ext_d_d = e_sh2;
      else                ext_b_d = e_sh2;
      dc_valid_d = c3_q.pass.side;
      dc_first_d = (c3_q.j == '0);
      dc_last_d  = 1'b1;
      dc_word_d  = rt_lane2;
    end
    // WIPE clears every scratch memory, one word per cycle, over the idle engine.
    if (clear_i) begin
      for (int k = 0; k < NumMems; k++) begin
        we[k]    = 1'b1;
        waddr[k] = clear_addr_i;
        wdata[k] = '0;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // S4: fix flags of a new D. GF(p): D < 0 (add x), D >= x (subtract x). GF(2^m):
  // deg D >= deg x  <=>  ext != 0, or D >= x, or (D ^ x) < D (D has the leading term of x).
  // ---------------------------------------------------------------------------------------------
  logic dge_in, dxlt_in, dge_now, dxlt_now;
  always_comb begin
    dge_in   = dc_first_q ? 1'b1 : dge_q;
    dxlt_in  = dc_first_q ? 1'b0 : dxlt_q;
    dge_now  = (dc_word_q > dc_x_q) | ((dc_word_q == dc_x_q) & dge_in);
    dxlt_now = ((dc_word_q ^ dc_x_q) < dc_word_q) | ((dc_word_q ^ dc_x_q) == dc_word_q & dxlt_in);
    dge_d    = dc_valid_q ? dge_now : dge_q;
    dxlt_d   = dc_valid_q ? dxlt_now : dxlt_q;
  end

  // ---------------------------------------------------------------------------------------------
  // Control: load, Hensel lifting, pass sequencing, flags.
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    state_d    = state_q;
    gf_d       = gf_q;
    one_bit_d = one_bit_q;
    words_d    = words_q;
    ld_j_d     = ld_j_q;
    done_d     = 1'b0;
    noinv_d    = 1'b0;
    x_nz_d     = x_nz_q;
    y_nz_d     = y_nz_q;
    x_hi_nz_d  = x_hi_nz_q;
    y_hi_nz_d  = y_hi_nz_q;
    x_lo_one_d = x_lo_one_q;
    y_lo_one_d = y_lo_one_q;
    xy_ge_d    = xy_ge_q;
    y_odd_d    = y_odd_q;
    hen_busy_d = hen_busy_q;
    hen_bit_d  = hen_bit_q;
    hen_odd_d  = hen_odd_q;
    inv_d      = inv_q;
    hen_prod_d = hen_prod_q;
    u_odd_d    = u_odd_q;
    v_odd_d    = v_odd_q;
    u_ge_v_d   = u_ge_v_q;
    u_zero_d   = u_zero_q;
    v_one_d    = v_one_q;
    d_fix_d    = d_fix_q;
    d_neg_d    = d_neg_q;
    gf_fixed_d = gf_fixed_q || (s1_valid_q && s1_first && (dec.kind == KindFix));
    s0_on_d    = s0_on_q;
    s0_cnt_d   = s0_cnt_q;

    // Hensel step k = 1 .. Word-1: if bit k of odd·inv is set, set bit k of inv
    // (odd·inv += odd·2^k, or ^= in GF(2)[x]); afterwards odd·inv = 1 mod 2^Word.
    if (hen_busy_q) begin
      if (hen_prod_q[hen_bit_q]) begin
        inv_d[hen_bit_q] = 1'b1;
        hen_prod_d = gf_q ? (hen_prod_q ^ (hen_odd_q << hen_bit_q))
                          : (hen_prod_q + (hen_odd_q << hen_bit_q));
      end
      hen_bit_d  = hen_bit_q + Tw'(1);
      hen_busy_d = (hen_bit_q != Tw'(Word - 1));
    end

    // S0: address words 0..W-1 of a pass every period cycles.
    if (s0_on_q) begin
      s0_cnt_d = (s0_cnt_q >= ((state_q == StFix) ? period_fix : period_red) - Pw'(1))
               ? '0 : s0_cnt_q + Pw'(1);
    end

    // D flags from S4.
    if (dc_valid_q && dc_last_q) begin
      d_neg_d = !gf_q && dc_ext_q[ExtBits-1];
      d_fix_d = gf_q ? ((dc_ext_q != '0) | dge_now | dxlt_now)
                     : ((dc_ext_q != '0) | dge_now);
    end

    // u/v flags at the last word of a reduction pass.
    if (v1 && (p1.kind == KindRed) && s1_last) begin
      u_ge_v_d = cmp_b.ge;
      if (!p1.side) begin
        u_odd_d  = cmp_b.r0_odd;
        u_zero_d = !cmp_b.r0_nz && !cmp_b.nz_hi;
      end else begin
        v_odd_d  = cmp_b.r0_odd;
        v_one_d  = cmp_b.r0_one && !cmp_b.nz_hi;
      end
    end

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d    = StLoad;
          gf_d       = gf2m_i;
          one_bit_d  = one_bit_i;
          words_d    = words_i;
          ld_j_d     = '0;
          xy_ge_d    = 1'b1;
          gf_fixed_d = 1'b0;
          x_hi_nz_d  = 1'b0;
          y_hi_nz_d  = 1'b0;
        end
      end
      StLoad: begin
        if (ld_valid_i) begin
          ld_j_d  = ld_j_q + Aw'(1);
          xy_ge_d = (ld_x_i > ld_y_i) | ((ld_x_i == ld_y_i) & xy_ge_q);
          if (ld_j_q == '0) begin
            x_nz_d     = |ld_x_i;
            y_nz_d     = |ld_y_i;
            x_lo_one_d = (ld_x_i == Word'(1));
            y_lo_one_d = (ld_y_i == Word'(1));
            y_odd_d    = ld_y_i[0];
            u_odd_d    = ld_x_i[0];
            v_odd_d    = ld_y_i[0];
            hen_odd_d  = ld_y_i[0] ? ld_y_i : ld_x_i;
            hen_prod_d = ld_y_i[0] ? ld_y_i : ld_x_i;   // odd·inv with inv = 1
            inv_d      = Word'(1);
            hen_bit_d  = Tw'(1);
            hen_busy_d = 1'b1;
          end else begin
            x_nz_d    = x_nz_q | (|ld_x_i);
            y_nz_d    = y_nz_q | (|ld_y_i);
            x_hi_nz_d = x_hi_nz_q | (|ld_x_i);
            y_hi_nz_d = y_hi_nz_q | (|ld_y_i);
          end
          if (ld_j_q == w_last) begin
            // x = 0, y = 0 or both even: no inverse, before any pass.
            if (!x_nz_d || !y_nz_d || !(u_odd_d || v_odd_d)) begin
              state_d = StIdle;
              done_d  = 1'b1;
              noinv_d = 1'b1;
            end else begin
              state_d  = StWait;
              u_ge_v_d = xy_ge_d;
              u_zero_d = 1'b0;
              v_one_d  = y_lo_one_d && !y_hi_nz_d;
              d_neg_d  = 1'b0;
              d_fix_d  = x_lo_one_d && !x_hi_nz_d;   // D = 1 needs a fix only when x = 1
            end
          end
        end
      end
      StWait: begin
        if (!hen_busy_q) begin
          state_d  = StRun;
          s0_on_d  = 1'b1;
          s0_cnt_d = '0;
        end
      end
      StRun: begin
        if (kill_fail) begin
          state_d = StIdle;
          s0_on_d = 1'b0;
          done_d  = 1'b1;
          noinv_d = 1'b1;
        end else if (kill_fix) begin
          // Let the last pass's D flags settle: the first fix pass addresses word 0 in 2 cycles.
          state_d  = StFix;
          s0_cnt_d = period_fix - Pw'(1);
        end
      end
      StFix: begin
        if (go_out) begin
          if (s0_cnt_q >= Pw'(w_last)) s0_on_d = 1'b0;
          if (out_last) begin     // W = 1: word 0 is the whole result
            state_d = StIdle;
            done_d  = 1'b1;
          end else begin
            state_d = StOut;
          end
        end
      end
      StOut: begin
        if (s0_cnt_q >= Pw'(w_last)) s0_on_d = 1'b0;
        if (out_last) begin
          state_d = StIdle;
          done_d  = 1'b1;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_comb begin
    s1_valid_d = s0_issue;
    s1_j_d     = raddr;
  end

  // ---------------------------------------------------------------------------------------------
  // Flip-flops
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      gf_q       <= 1'b0;
      one_bit_q  <= 1'b0;
      words_q    <= Cw'(1);
      ld_j_q     <= '0;
      done_q     <= 1'b0;
      noinv_q    <= 1'b0;
      x_nz_q     <= 1'b0;
      y_nz_q     <= 1'b0;
      x_hi_nz_q  <= 1'b0;
      y_hi_nz_q  <= 1'b0;
      x_lo_one_q <= 1'b0;
      y_lo_one_q <= 1'b0;
      xy_ge_q    <= 1'b0;
      y_odd_q    <= 1'b0;
      hen_busy_q <= 1'b0;
      hen_bit_q  <= '0;
      hen_odd_q  <= '0;
      inv_q      <= '0;
      hen_prod_q <= '0;
      u_odd_q    <= 1'b0;
      v_odd_q    <= 1'b0;
      u_ge_v_q   <= 1'b0;
      u_zero_q   <= 1'b0;
      v_one_q    <= 1'b0;
      d_fix_q    <= 1'b0;
      d_neg_q    <= 1'b0;
      gf_fixed_q <= 1'b0;
      ext_a_q    <= '0;
      ext_b_q    <= '0;
      ext_c_q    <= '0;
      ext_d_q    <= '0;
      s0_on_q    <= 1'b0;
      s0_cnt_q   <= '0;
      s1_valid_q <= 1'b0;
      s1_j_q     <= '0;
      pc_q       <= '0;
      bw_q       <= 1'b0;
      bp_q       <= 1'b0;
      bq_q       <= 1'b0;
      w1_q       <= '0;
      o1_q       <= '0;
      cmp_q      <= '0;
      wl_valid_q <= 1'b0;
      wl_side_q  <= 1'b0;
      wl_j_q     <= '0;
      wl_data_q  <= '0;
      pe_q       <= '0;
      qe_q       <= '0;
      c2_q       <= '0;
      c3_q       <= '0;
      p2_q       <= '0;
      q2_q       <= '0;
      y2_q       <= '0;
      x2_q       <= '0;
      lo1_q      <= '0;
      lo2_q      <= '0;
      x3_q       <= '0;
      cy1_q      <= '0;
      cy2_q      <= '0;
      dc_valid_q <= 1'b0;
      dc_first_q <= 1'b0;
      dc_last_q  <= 1'b0;
      dc_word_q  <= '0;
      dc_x_q     <= '0;
      dc_ext_q   <= '0;
      dge_q      <= 1'b0;
      dxlt_q     <= 1'b0;
    end else begin
      state_q    <= state_d;
      gf_q       <= gf_d;
      one_bit_q  <= one_bit_d;
      words_q    <= words_d;
      ld_j_q     <= ld_j_d;
      done_q     <= done_d;
      noinv_q    <= noinv_d;
      x_nz_q     <= x_nz_d;
      y_nz_q     <= y_nz_d;
      x_hi_nz_q  <= x_hi_nz_d;
      y_hi_nz_q  <= y_hi_nz_d;
      x_lo_one_q <= x_lo_one_d;
      y_lo_one_q <= y_lo_one_d;
      xy_ge_q    <= xy_ge_d;
      y_odd_q    <= y_odd_d;
      hen_busy_q <= hen_busy_d;
      hen_bit_q  <= hen_bit_d;
      hen_odd_q  <= hen_odd_d;
      inv_q      <= inv_d;
      hen_prod_q <= hen_prod_d;
      u_odd_q    <= u_odd_d;
      v_odd_q    <= v_odd_d;
      u_ge_v_q   <= u_ge_v_d;
      u_zero_q   <= u_zero_d;
      v_one_q    <= v_one_d;
      d_fix_q    <= d_fix_d;
      d_neg_q    <= d_neg_d;
      gf_fixed_q <= gf_fixed_d;
      ext_a_q    <= ext_a_d;
      ext_b_q    <= ext_b_d;
      ext_c_q    <= ext_c_d;
      ext_d_q    <= ext_d_d;
      s0_on_q    <= s0_on_d;
      s0_cnt_q   <= s0_cnt_d;
      s1_valid_q <= s1_valid_d;
      s1_j_q     <= s1_j_d;
      pc_q       <= pc_d;
      bw_q       <= bw_d;
      bp_q       <= bp_d;
      bq_q       <= bq_d;
      w1_q       <= w1_d;
      o1_q       <= o1_d;
      cmp_q      <= cmp_d;
      wl_valid_q <= wl_valid_d;
      wl_side_q  <= wl_side_d;
      wl_j_q     <= wl_j_d;
      wl_data_q  <= wl_data_d;
      pe_q       <= pe_d;
      qe_q       <= qe_d;
      c2_q       <= c2_d;
      c3_q       <= c3_d;
      p2_q       <= p2_d;
      q2_q       <= q2_d;
      y2_q       <= y2_d;
      x2_q       <= x2_d;
      lo1_q      <= lo1_d;
      lo2_q      <= lo2_d;
      x3_q       <= x3_d;
      cy1_q      <= cy1_d;
      cy2_q      <= cy2_d;
      dc_valid_q <= dc_valid_d;
      dc_first_q <= dc_first_d;
      dc_last_q  <= dc_last_d;
      dc_word_q  <= dc_word_d;
      dc_x_q     <= dc_x_d;
      dc_ext_q   <= dc_ext_d;
      dge_q      <= dge_d;
      dxlt_q     <= dxlt_d;
    end
  end

  assign done_o       = done_q;
  assign no_inverse_o = noinv_q;
endmodule
