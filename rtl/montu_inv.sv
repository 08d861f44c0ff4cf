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
// cycle its word 0 is addressed; word j is addressed at c = j), at most one multiplier or one
// wide adder (plus a shifter) per stage:
//   S1 (c = j+1): operand select and subtract (borrow chains); at j = 0 the trailing-zero count t
//                 of word 0 is registered. The u/v result needs no multiply: w'_{j-1} =
//                 {w_j, w_{j-1}} >> t (registered t, so j >= 1) is written here, and the flags of
//                 the next pass (parity, u >= v on the fly: the most significant differing word
//                 decides, u = 0, v = 1) are complete at c = W. With W = 1, w'_0 and its flags
//                 follow one cycle later (c = 2), from the registered word 0.
//   M  (c = j+2): at j = 0, m = (a_0·(-yinv)) mod 2^t or (b_0·xinv) mod 2^t: one Word x Word low
//                 product with the factor -yinv / xinv, negated once after the Hensel lifting.
//   L1 (c = j+3): the products m·y_j and m·x_j (integer or carry-less, Word x Word -> 2 Word).
//   L2 (c = j+4): a_j + m·y_j + carry and b_j - m·x_j + carry (2 Word + 2 bits): one carry-save
//                 level, then one adder; GF(2^m): XOR.
//   L3 (c = j+5): the funnel shift {lo_j, lo_{j-1}} >> t writes word j-1 of a', b'; at the last
//                 word the extension sum ext + carry is registered.
//   tail (c = W+5): {ext + carry, lo_{W-1}} >> t gives word W-1 and the new ext.
//   S4 (c = j+7): a written D word is compared with x (fix flags: D < 0, D >= x, deg D >= deg x).
// The next pass can address its word 0 once its branch flags exist (c = W) and the a', b' words
// it reads are written (word 0 at c = 6, word W-1 and ext at c = W+5), so passes follow each other
// every P = max(W, 6) cycles (the memories are write-first for the W < 7 overlap).
//
// Pipelined = 1 (the high-clock build) keeps the passes and their results and moves every
// multiplier and wide adder into stages of their own (c counts from the address, as above):
//   the load words are registered on the way in (every count below one cycle later);
//   the memories' read data is registered once more (montu_inv_ram OutReg): block RAM
//   clock-to-output is slow, so it ends in flip-flops, and word j reaches S1 at c = j+2;
//   S1 takes three cycles: S1a (c = j+2) selects and subtracts, S1b (c = j+3) computes t and
//   the shifted u/v word and writes it, S1c (c = j+4) folds that word into the next pass's
//   flags (complete at c = W+3; the compare no longer follows the shift in the same cycle);
//   m is montu_qunit_pipe's low product (3 stages) of word 0, ready at c = 6;
//   the lanes are two montu_mac_pipe (products on MULT18X18D, row sums, an accumulate stage that
//   keeps the word carry recurrence inside the lane): word j enters at c = j+6, leaves at
//   c = j+10 (L3 writes word j-1 of a', b'); lane 2 in GF(p) adds m·(2^L - x) instead of
//   subtracting m·x and takes m off the extension sum, which the tail (c = W+11) uses.
// The next pass decides at its word 0's S1a (c = P+2), after the flags (W+3): P >= W+2; it reads
// a' word j at c = P+j, written at c = j+11 (word W-1: the tail, W+11), and without the
// write-first bypass (an address compare and a multiplexer behind every memory) the read must
// come after the write: P >= 13. So P = max(W + 2, 13); a fix pass's D flags come at c = W+13:
// fix passes take W + 11, and at least 13 for the same reason (W = 1);
// kill to the next pass's word 0 is 7 cycles and a failed inversion's done_o comes 6 cycles
// after the kill, with the last tail. The cycle counts below become: no inverse at load: W + 2,
// gcd != 1: max(W, Word) + 12 + passes·P, success: max(W, Word) + W + 14 + passes·P +
// fixes·max(W + 11, 13).
//
// Coefficient growth bound: over 49,570 random runs of an instrumented copy of run_inversion
// (Word = 8/32/64, W = 1..32, odd, even and RSA-style moduli, y even, extreme/short operands,
// plus 300 runs per size/kind for Word = 32/64, W = 1..32) the largest |A|, |B|, |C|, |D| and
// the largest pre-shift difference |A - C|, |B - D| were < 2^(L+2), L = W·Word; in GF(2^m) all
// degrees were < L. ExtBits = 8 holds [-2^(L+7), 2^(L+7)): 5 bits of margin.
//
// Interface / timing (cycle 0 = the cycle start_i is high; passes = reduction passes and
// fixes = fix passes as counted by run_inversion, P = max(W, 6)):
//   start_i      pulse, accepted when idle (from the cycle done_o is high on); words_i
//                (W, 1..MaxWords) and gf2m_i are sampled. Ignored while busy.
//   ld_valid_i   from cycle 1 on: word j of x (modulus) and y, j = 0..W-1 in order, one per
//                valid cycle. Gaps are allowed; the bit-serial Hensel lifting (Word - 1 cycles
//                from word 0) runs in parallel, so only a load longer than Word cycles counts.
//   res_valid_o  word j of y^-1 mod x, j = 0..W-1 on consecutive cycles; done_o follows.
//   done_o       one-cycle pulse. With the words on cycles 1..W, done_o is high in cycle
//                  no inverse found at load (x = 0, y = 0, both even): W + 1
//                  gcd != 1 (after the passes):                        max(W, Word) + 7 + passes·P
//                  success:      max(W, Word) + W + 9 + passes·P + fixes·(W + 6)
//                (setup max(W, Word) + 2; gcd != 1 waits 3 cycles for the last pass's tail; the
//                first fix decision waits 6 cycles for the D flags; a fix pass is W + 6 because
//                its D flags come 7 cycles after its last word is in S1; the result stream is
//                W + 1 with done_o.)
//   no_inverse_o with done_o: there is no inverse (no result stream was sent).
module montu_inv #(
  parameter  int unsigned Word      = 64,
  parameter  int unsigned MaxWords  = 64,
  parameter  bit          Pipelined = 1'b0,   // the high-clock build (see "Pipelined = 1" above)
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
  localparam int unsigned Pw      = $clog2(MaxWords + (Pipelined ? 14 : 7));   // period counter
  // Pass timing (see the header): the shortest reduction period and how much longer than W a
  // reduction pass must be, the fix-pass period max(W + FixExtra, FixMin), the cycles from the kill decision
  // of the pass after the last reduction pass to the next pass's word 0, and the drain after a
  // failed inversion (done_o comes with the last pass's last write).
  localparam int unsigned PeriodMin   = Pipelined ? 13 : 6;
  localparam int unsigned PeriodExtra = Pipelined ? 2 : 0;
  localparam int unsigned FixExtra    = Pipelined ? 11 : 6;
  localparam int unsigned FixMin      = Pipelined ? 13 : 7;   // (W >= 1: 7 never binds)
  localparam int unsigned KillLead    = Pipelined ? 6 : 4;
  localparam int unsigned DrainCycles = Pipelined ? 5 : 2;
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
    StIdle, StLoad, StWait, StRun, StFix, StOut,
    StDrain     // gcd != 1: the last pass's lanes finish before done_o
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
    logic            sub2;   // lane 2: b - m·x when 1, b + m·x when 0
  } pass_t;

  typedef struct packed {
    logic          valid;
    logic          last;     // j = W - 1
    logic [Aw-1:0] j;
    logic [Aw-1:0] jm1;      // j - 1, the word a shifted write goes to (computed in S1a)
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

  // min(trailing zeros of a, Word - 1); Word - 1 for a = 0. A tree of log2(Word) levels: each
  // level merges neighbouring groups (any bit set, position of the lowest set bit in the group).
  function automatic logic [Tw-1:0] trailing_zeros(logic [Word-1:0] a);
    logic [Word-1:0]         any;
    logic [Word-1:0][Tw-1:0] pos;
    for (int k = 0; k < Word; k++) begin
      any[k] = a[k];
      pos[k] = '0;
    end
    for (int l = 0; l < Tw; l++) begin
      for (int k = 0; k < (Word >> (l + 1)); k++) begin
        pos[k] = any[2*k] ? pos[2*k] : (pos[2*k+1] | Tw'(1 << l));
        any[k] = any[2*k] | any[2*k+1];
      end
    end
    return any[0] ? pos[0] : Tw'(Word - 1);
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
  logic              xy_cmp_d, xy_cmp_q, xy_gt_d, xy_gt_q, xy_eq_d, xy_eq_q;  // the last loaded
                                                                // word pair: x_j > y_j, x_j = y_j
  logic              y_odd_d, y_odd_q;

  // Hensel lifting: inv = odd^-1 mod 2^Word (x^Word), one bit per cycle; prod = odd·inv.
  logic              hen_busy_d, hen_busy_q;
  logic [Tw-1:0]     hen_bit_d, hen_bit_q;
  logic [Word-1:0]   hen_odd_d, hen_odd_q, inv_d, inv_q, hen_prod_d, hen_prod_q;
  logic [Word-1:0]   hen_sh_d, hen_sh_q;       // odd·2^k for the step at bit k
  logic [Word-1:0]   minv_d, minv_q;           // the factor of m: -yinv (y odd) or xinv

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
  logic              w1l_d, w1l_q;             // W = 1: w' word 0 and its flags one cycle late
  logic [ExtBits:0]  pe_d, pe_q, qe_d, qe_q;   // extension of a, b (one bit wider: a difference)

  // The words a pass hands to the lanes (from S1b), and what the lanes hand back to the memory
  // writes: word j-1 of a', b' in L3 (l3_ctl: the control of word j), word W-1 and the new
  // extensions in the tail (tail_ctl), and the x word of the D word being written (S4).
  ctl_t              ln_ctl;
  logic [Word-1:0]   ln_p, ln_q, ln_y, ln_x;
  ctl_t              l3_ctl, tail_ctl;
  logic              unused_ctl;      // the writes need only some of the two controls' fields
  logic              l3_write, tail;
  logic [Word-1:0]   r3_lane1, r3_lane2, rt_lane1, rt_lane2, x_wr;
  logic [ExtBits-1:0] e_sh1, e_sh2;   // the new extensions
  logic [2:0]        drain_d, drain_q;             // gcd != 1: cycles until the lanes are idle

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
  logic [Aw-1:0]     raddr_x, raddr_y;
  logic [Aw-1:0]     mem_raddr [NumMems];

  for (genvar k = 0; k < NumMems; k++) begin : g_mem
    montu_inv_ram #(
      .Width(Word), .Depth(MaxWords), .OutReg(Pipelined), .WriteFirst(!Pipelined)
    ) u_ram (
      .clk_i,
      .we_i    (we[k]),
      .waddr_i (waddr[k]),
      .wdata_i (wdata[k]),
      .raddr_i (mem_raddr[k]),
      .rdata_o (rdata[k])
    );
  end

  // The load words. Pipelined: registered first, so no logic follows the register file's read
  // in the cycle of the read (one cycle more for every MINV).
  logic            ld_valid;
  logic [Word-1:0] ld_x, ld_y;
  if (Pipelined) begin : g_ld_reg
    logic            ld_valid_q;
    logic [Word-1:0] ld_x_q, ld_y_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ld_valid_q <= 1'b0;
      else         ld_valid_q <= ld_valid_i;
    end
    always_ff @(posedge clk_i) begin
      ld_x_q <= ld_x_i;
      ld_y_q <= ld_y_i;
    end
    assign ld_valid = ld_valid_q;
    assign ld_x     = ld_x_q;
    assign ld_y     = ld_y_q;
  end else begin : g_ld_wire
    assign ld_valid = ld_valid_i;
    assign ld_x     = ld_x_i;
    assign ld_y     = ld_y_i;
  end

  // ---------------------------------------------------------------------------------------------
  // Shared combinational signals
  // ---------------------------------------------------------------------------------------------
  // Pass timing from W, registered at start: no adder sits in front of the S0 counter's compare.
  logic [Aw-1:0]   w_last_d, w_last_q;        // W - 1
  logic [Pw-1:0]   red_end_d, red_end_q;      // a reduction pass's period - 1
  logic [Pw-1:0]   fix_end_d, fix_end_q;      // a fix pass's period - 1
  logic [Pw-1:0]   fix_go_d, fix_go_q;        // the counter after the kill (period_fix - KillLead)
  logic [Aw-1:0]   w_last;
  logic            s1_first, s1_last;
  pass_t           dec;           // the pass decided at word 0
  pass_t           p1;            // the pass of the word in S1
  logic            v1;            // S1 holds a word of a live pass
  logic            kill_fail, kill_fix, go_out, out_last;
  logic [Word-1:0] w_f, w_s, p_f, p_s, q_f, q_s, w_cur, p_cur, q_cur;
  logic [ExtBits-1:0] pe_f, pe_s, qe_f, qe_s;
  logic [ExtBits:0]   pe_b0, pe_b1, qe_b0, qe_b1;   // f - s without / with the word's borrow
  logic [Word:0]   w_sub, p_sub, q_sub;
  logic [Tw-1:0]   t_new;
  pass_t           p1b;           // the pass of the word in S1b (t set)
  logic            v1b;           // S1b holds a word of a live pass

  // S1a -> S1b: the words after the subtract.
  typedef struct packed {
    logic            valid, live, first, last;
    logic [Aw-1:0]   j, jm1;
    pass_t           pass;        // t is set in S1b
    logic [Word-1:0] w, ws, p, q, y, x;   // w (this side or the difference), the other side's
  } s1b_t;                                 // u/v word, a, b, y_j, x_j
  s1b_t            s1b_d, s1b_q;
  logic [Word-1:0] r_prev, r_last, r_w1;
  cmp_t            cmp_a, cmp_b;

  // S1b -> S1c: the new u/v words and the other side's words the flags compare them with.
  typedef struct packed {
    logic            en;        // a reduction pass's word: fold into the flags
    logic            init;      // start the flags (word 0)
    logic            a_en;      // fold (a_r, a_o), word a_word0 ? 0 : > 0
    logic            a_word0;
    logic            b_en;      // then fold (b_r, the other side's last word), the last word
    logic            flags;     // the flags of the next pass are complete
    logic            side;
    logic [Word-1:0] a_r, a_o, b_r;
  } s1c_t;
  s1c_t            s1c_d, s1c_q;
  logic [Word-1:0] s1c_o_last;   // the other side's last word: in S1c, o1_q holds it

  assign w_last     = w_last_q;
  always_comb begin
    w_last_d  = Aw'(words_i - Cw'(1));
    red_end_d = ((Pw'(words_i) + Pw'(PeriodExtra) < Pw'(PeriodMin))
                 ? Pw'(PeriodMin) : Pw'(words_i) + Pw'(PeriodExtra)) - Pw'(1);
    fix_end_d = ((Pw'(words_i) + Pw'(FixExtra) < Pw'(FixMin))
                 ? Pw'(FixMin) : Pw'(words_i) + Pw'(FixExtra)) - Pw'(1);
    fix_go_d  = fix_end_d + Pw'(1) - Pw'(KillLead);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_last_q  <= '0;
      red_end_q <= Pw'(PeriodMin - 1);
      fix_end_q <= Pw'(((1 + FixExtra < FixMin) ? FixMin : 1 + FixExtra) - 1);
      fix_go_q  <= Pw'(((1 + FixExtra < FixMin) ? FixMin : 1 + FixExtra) - KillLead);
    end else if ((state_q == StIdle) && start_i) begin
      w_last_q  <= w_last_d;
      red_end_q <= red_end_d;
      fix_end_q <= fix_end_d;
      fix_go_q  <= fix_go_d;
    end
  end
  assign s1_first   = (s1_j_q == '0);
  assign s1_last    = (s1_j_q == w_last);
  assign raddr      = s0_cnt_q[Aw-1:0];

  // X and Y are never written during the passes. The pipelined build reads their words when the
  // lanes need them (the address delayed) instead of carrying the words along in flip-flops.
  if (Pipelined) begin : g_xy_late
    logic [Aw-1:0] rd_q [4];   // raddr delayed by 1 .. 4 cycles
    always_ff @(posedge clk_i) begin
      rd_q[0] <= raddr;
      for (int k = 1; k < 4; k++) rd_q[k] <= rd_q[k-1];
    end
    assign raddr_x = rd_q[2];   // x_j one cycle before the lane input (2^L - x is made there)
    assign raddr_y = rd_q[3];   // y_j at the lane input
  end else begin : g_xy_with_s1
    assign raddr_x = raddr;
    assign raddr_y = raddr;
  end
  always_comb begin
    for (int k = 0; k < NumMems; k++) mem_raddr[k] = raddr;
    mem_raddr[MemX] = raddr_x;
    mem_raddr[MemY] = raddr_y;
  end
  assign s0_issue   = s0_on_q && (s0_cnt_q < Pw'(words_q));

  // ---------------------------------------------------------------------------------------------
  // S1 (S1a): pass decision at word 0, operand select and subtract (S1b below: t, the u/v result
  // and its flags).
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

    // Extensions of a and b (taken at word W-1, with its borrow out). GF(p): carry select, both
    // differences are ready when the word subtract's borrow picks one.
    pe_b0 = {pe_f[ExtBits-1], pe_f} - {pe_s[ExtBits-1], pe_s};
    pe_b1 = {pe_f[ExtBits-1], pe_f} + ~{pe_s[ExtBits-1], pe_s};
    qe_b0 = {qe_f[ExtBits-1], qe_f} - {qe_s[ExtBits-1], qe_s};
    qe_b1 = {qe_f[ExtBits-1], qe_f} + ~{qe_s[ExtBits-1], qe_s};
    if (!p1.diff) begin
      pe_d = {pe_f[ExtBits-1], pe_f};
      qe_d = {qe_f[ExtBits-1], qe_f};
    end else if (gf_q) begin
      pe_d = {1'b0, pe_f ^ pe_s};
      qe_d = {1'b0, qe_f ^ qe_s};
    end else begin
      pe_d  = p_sub[Word] ? pe_b1 : pe_b0;
      qe_d  = q_sub[Word] ? qe_b1 : qe_b0;
    end
    if (!(s1_valid_q && s1_last)) begin
      pe_d = pe_q;
      qe_d = qe_q;
    end

    v1 = s1_valid_q && (p1.kind != KindNone);

    s1b_d = '{valid: s1_valid_q, live: v1, first: s1_first, last: s1_last, j: s1_j_q,
              jm1: s1_j_q - Aw'(1), pass: p1,
              w: w_cur, ws: w_s, p: p_cur, q: q_cur, y: rdata[MemY], x: rdata[MemX]};
  end

  // S1b, the second half of S1 (its own cycle when Pipelined, else the same one): t at word 0,
  // the u/v result and its flags.
  if (Pipelined) begin : g_s1b_reg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) s1b_q <= '0;
      else         s1b_q <= s1b_d;
    end
  end else begin : g_s1b_wire
    assign s1b_q = s1b_d;
  end

  always_comb begin
    // t = min(tz(w), Word-1), registered with the pass (m follows in stage M); words j >= 1
    // carry the registered t.
    t_new = one_bit_q ? Tw'(1) : trailing_zeros(s1b_q.w);
    p1b   = s1b_q.pass;
    if (!s1b_q.first)                        p1b.t = pc_q.t;
    else if (s1b_q.pass.kind == KindRed)     p1b.t = t_new;
    v1b   = s1b_q.live;
    // The pass register takes kind, side, diff and sub2 in S1a and t in S1b.
    pc_d = pc_q;
    if (s1_valid_q && s1_first) begin
      pc_d   = p1;
      pc_d.t = pc_q.t;
    end
    if (s1b_q.valid && s1b_q.first) pc_d.t = p1b.t;

    // New u/v words: w' word j-1 = {w_j, w_{j-1}} >> t, and at the last word w' word W-1 = w >> t.
    // Both shift by the registered t (j >= 1); with W = 1, word 0 is shifted one cycle later (r_w1).
    r_prev = Word'({s1b_q.w, w1_q} >> pc_q.t);
    r_last = s1b_q.w >> pc_q.t;
    r_w1   = w1_q >> pc_q.t;
    // To S1c: word j-1 (and at the last word, word W-1) of the new u/v value; with W = 1 the
    // late word 0 (w1l_q) instead.
    if (w1l_q) begin
      s1c_d = '{en: 1'b1, init: 1'b1, a_en: 1'b1, a_word0: 1'b1, b_en: 1'b0, flags: 1'b1,
                side: pc_q.side, a_r: r_w1, a_o: o1_q, b_r: '0};
    end else begin
      s1c_d = '{en: v1b && (p1b.kind == KindRed), init: s1b_q.first, a_en: !s1b_q.first,
                a_word0: (s1b_q.j == Aw'(1)), b_en: s1b_q.last,
                flags: s1b_q.last && !s1b_q.first, side: p1b.side,
                a_r: r_prev, a_o: o1_q, b_r: r_last};
    end
  end

  // S1c, the u/v flags of the next pass (parity, zero / one, u >= v over the words so far): its
  // own cycle when Pipelined (the compare does not follow the shift), else part of S1b.
  if (Pipelined) begin : g_s1c_reg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) s1c_q <= '0;
      else         s1c_q <= s1c_d;
    end
    assign s1c_o_last = o1_q;
  end else begin : g_s1c_wire
    assign s1c_q      = s1c_d;
    assign s1c_o_last = s1b_q.ws;
  end

  always_comb begin
    cmp_a = s1c_q.init ? cmp_t'{ge: 1'b1, default: 1'b0} : cmp_q;
    if (s1c_q.a_en) cmp_a = absorb(cmp_a, s1c_q.a_r, s1c_q.a_o, s1c_q.side, s1c_q.a_word0);
    cmp_b = s1c_q.b_en ? absorb(cmp_a, s1c_q.b_r, s1c_o_last, s1c_q.side, 1'b0) : cmp_a;
    cmp_d = s1c_q.en ? cmp_b : cmp_q;
  end

  assign out_last    = s1_valid_q && s1_last && (p1.kind == KindOut);
  assign res_valid_o = s1_valid_q && (p1.kind == KindOut);
  assign res_word_o  = rdata[MemD];

  always_comb begin
    w1_d = s1b_q.w;
    o1_d = s1b_q.ws;
    bw_d = w_sub[Word];
    bp_d = p_sub[Word];
    bq_d = q_sub[Word];
    wl_valid_d = v1b && (p1b.kind == KindRed) && s1b_q.last && !s1b_q.first;
    w1l_d      = v1b && (p1b.kind == KindRed) && s1b_q.last && s1b_q.first;
    wl_side_d  = p1b.side;
    wl_j_d     = s1b_q.j;
    wl_data_d  = r_last;
    // To the lanes: only reduction and fix passes use them.
    ln_ctl.valid = v1b && ((p1b.kind == KindRed) || (p1b.kind == KindFix));
    ln_ctl.last  = s1b_q.last;
    ln_ctl.j     = s1b_q.j;
    ln_ctl.jm1   = s1b_q.jm1;
    ln_ctl.pass  = p1b;
    ln_p = s1b_q.p;
    ln_q = s1b_q.q;
    ln_y = s1b_q.y;
    ln_x = s1b_q.x;
  end

  // ---------------------------------------------------------------------------------------------
  // The lanes. Lane 1: a + m·y + carry; lane 2: b -/+ m·x + carry (GF(2^m): XOR, carry-less, the
  // "carry" is the high half of the previous product). One multiplier or one wide adder per stage.
  // ---------------------------------------------------------------------------------------------
  if (!Pipelined) begin : g_lanes
    // One stage per cycle; cK is the control of the word entering stage K.
    //   M  (c2): m at word 0          L1 (c3): products m·y_j, m·x_j
    //   L2 (c4): sums with the carry  L3 (c5): funnel shift, write word j-1   tail (c6): word W-1
    ctl_t              c2_q, c3_d, c3_q, c4_d, c4_q, c5_d, c5_q, c6_d, c6_q;
    logic [Word-1:0]   m_d, m_q;                 // multiplier of the pass in L1, m < 2^t (fix: 1)
    logic [Word-1:0]   p2_q, q2_q, y2_q, x2_q;
    logic [Word-1:0]   p3_d, p3_q, q3_d, q3_q, y3_d, y3_q, x3_d, x3_q;
    logic [Word-1:0]   p4_d, p4_q, q4_d, q4_q, x4_d, x4_q, x5_d, x5_q, x6_d, x6_q;
    logic [2*Word-1:0] pr1_d, pr1_q, pr2_d, pr2_q;   // m·y_j, m·x_j
    logic [Word-1:0]   lo1_d, lo1_q, lo2_d, lo2_q;   // word j of the sums (L3)
    logic [Word-1:0]   lp1_d, lp1_q, lp2_d, lp2_q;   // word j-1 of the sums (L3, tail)
    logic [Cy-1:0]     cy1_d, cy1_q, cy2_d, cy2_q;
    logic [Ew-1:0]     e1_d, e1_q, e2_d, e2_q;       // extension sums (tail)

    logic [Sw-1:0]     s_lane1, s_lane2, a_lane1, a_lane2, b_lane1, b_lane2, k_lane1, k_lane2;
    logic [Sw-2:0]     mj_lane1, mj_lane2;   // carry-save: majority of the three addends
    logic [Cy-1:0]     cin1, cin2;
    logic [Word-1:0]   m_op, m_full, mask_t;
    logic              l2_first;

    assign l2_first = (c4_q.j == '0);
    assign l3_write = c5_q.valid && (c5_q.j != '0);
    assign tail     = c6_q.valid && c6_q.last;

    always_comb begin
      // M: at word 0, m = (a·(-yinv)) mod 2^t (y odd) or (b·xinv) mod 2^t (y even); fix: m = 1.
      m_op   = y_odd_q ? p2_q : q2_q;
      m_full = gf_q ? clmul(m_op, minv_q)[Word-1:0] : Word'(m_op * minv_q);
      mask_t = (Word'(1) << c2_q.pass.t) - Word'(1);
      m_d    = m_q;
      if (c2_q.valid && (c2_q.j == '0)) begin
        m_d = (c2_q.pass.kind == KindFix) ? Word'(1) : (m_full & mask_t);
      end
      c3_d = c2_q;
      p3_d = p2_q;
      q3_d = q2_q;
      y3_d = y2_q;
      x3_d = x2_q;

      // L1: the products.
      c4_d  = c3_q;
      pr1_d = gf_q ? clmul(m_q, y3_q) : {{Word{1'b0}}, m_q} * {{Word{1'b0}}, y3_q};
      pr2_d = gf_q ? clmul(m_q, x3_q) : {{Word{1'b0}}, m_q} * {{Word{1'b0}}, x3_q};
      p4_d  = p3_q;
      q4_d  = q3_q;
      x4_d  = x3_q;

      // L2: {carry, lo} = a + m·y + carry; lane 2 subtracts as b + ~(m·x) + 1 (the +1 enters as
      // bit 0 of the shifted carry vector). One carry-save level, then one Sw-bit adder.
      cin1 = l2_first ? '0 : cy1_q;
      cin2 = l2_first ? '0 : cy2_q;
      a_lane1 = {{(Word + 2){1'b0}}, p4_q};
      b_lane1 = {{Word{cin1[Cy-1]}}, cin1};
      k_lane1 = {2'b00, pr1_q};
      a_lane2 = {{(Word + 2){1'b0}}, q4_q};
      b_lane2 = {{Word{cin2[Cy-1]}}, cin2};
      k_lane2 = c4_q.pass.sub2 ? ~{2'b00, pr2_q} : {2'b00, pr2_q};
      mj_lane1 = (Sw - 1)'((a_lane1 & b_lane1) | (a_lane1 & k_lane1) | (b_lane1 & k_lane1));
      mj_lane2 = (Sw - 1)'((a_lane2 & b_lane2) | (a_lane2 & k_lane2) | (b_lane2 & k_lane2));
      if (gf_q) begin
        s_lane1 = {2'b00, pr1_q} ^ {{(Word + 2){1'b0}}, p4_q ^ cin1[Word-1:0]};
        s_lane2 = {2'b00, pr2_q} ^ {{(Word + 2){1'b0}}, q4_q ^ cin2[Word-1:0]};
      end else begin
        s_lane1 = (a_lane1 ^ b_lane1 ^ k_lane1) + {mj_lane1, 1'b0};
        s_lane2 = (a_lane2 ^ b_lane2 ^ k_lane2) + {mj_lane2, c4_q.pass.sub2};
      end
      lo1_d = c4_q.valid ? s_lane1[Word-1:0] : lo1_q;
      lo2_d = c4_q.valid ? s_lane2[Word-1:0] : lo2_q;
      cy1_d = c4_q.valid ? s_lane1[Sw-1:Word] : cy1_q;
      cy2_d = c4_q.valid ? s_lane2[Sw-1:Word] : cy2_q;
      x5_d  = x4_q;
      c5_d  = c4_q;

      // L3: word j-1 of a', b' = {lo_j, lo_{j-1}} >> t; at the last word, the extension sums
      // e = ext + carry out of word W-1 for the tail.
      r3_lane1 = Word'({lo1_q, lp1_q} >> c5_q.pass.t);
      r3_lane2 = Word'({lo2_q, lp2_q} >> c5_q.pass.t);
      lp1_d = c5_q.valid ? lo1_q : lp1_q;
      lp2_d = c5_q.valid ? lo2_q : lp2_q;
      x6_d  = c5_q.valid ? x5_q : x6_q;
      c6_d  = c5_q;
      if (gf_q) begin
        e1_d = {{(Ew - ExtBits - 1){1'b0}}, pe_q} ^ {1'b0, cy1_q};
        e2_d = {{(Ew - ExtBits - 1){1'b0}}, qe_q} ^ {1'b0, cy2_q};
      end else begin
        e1_d = {{(Ew - ExtBits - 1){pe_q[ExtBits]}}, pe_q} + {cy1_q[Cy-1], cy1_q};
        e2_d = {{(Ew - ExtBits - 1){qe_q[ExtBits]}}, qe_q} + {cy2_q[Cy-1], cy2_q};
      end
      if (!(c5_q.valid && c5_q.last)) begin
        e1_d = e1_q;
        e2_d = e2_q;
      end

      // Tail: word W-1 = {e, lo_{W-1}} >> t, ext' = e >> t (arithmetic).
      rt_lane1 = Word'({e1_q[Word-1:0], lp1_q} >> c6_q.pass.t);
      rt_lane2 = Word'({e2_q[Word-1:0], lp2_q} >> c6_q.pass.t);
      e_sh1    = ExtBits'($signed(e1_q) >>> c6_q.pass.t);
      e_sh2    = ExtBits'($signed(e2_q) >>> c6_q.pass.t);
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        c2_q <= '0;
        c3_q <= '0;
        c4_q <= '0;
        c5_q <= '0;
        c6_q <= '0;
        m_q <= '0;
        p2_q <= '0;
        q2_q <= '0;
        y2_q <= '0;
        x2_q <= '0;
        p3_q <= '0;
        q3_q <= '0;
        y3_q <= '0;
        x3_q <= '0;
        p4_q <= '0;
        q4_q <= '0;
        x4_q <= '0;
        x5_q <= '0;
        x6_q <= '0;
        pr1_q <= '0;
        pr2_q <= '0;
        lo1_q <= '0;
        lo2_q <= '0;
        lp1_q <= '0;
        lp2_q <= '0;
        cy1_q <= '0;
        cy2_q <= '0;
        e1_q <= '0;
        e2_q <= '0;
      end else begin
        c2_q <= ln_ctl;
        c3_q <= c3_d;
        c4_q <= c4_d;
        c5_q <= c5_d;
        c6_q <= c6_d;
        m_q <= m_d;
        p2_q <= ln_p;
        q2_q <= ln_q;
        y2_q <= ln_y;
        x2_q <= ln_x;
        p3_q <= p3_d;
        q3_q <= q3_d;
        y3_q <= y3_d;
        x3_q <= x3_d;
        p4_q <= p4_d;
        q4_q <= q4_d;
        x4_q <= x4_d;
        x5_q <= x5_d;
        x6_q <= x6_d;
        pr1_q <= pr1_d;
        pr2_q <= pr2_d;
        lo1_q <= lo1_d;
        lo2_q <= lo2_d;
        lp1_q <= lp1_d;
        lp2_q <= lp2_d;
        cy1_q <= cy1_d;
        cy2_q <= cy2_d;
        e1_q <= e1_d;
        e2_q <= e2_d;
      end
    end

    assign l3_ctl   = c5_q;
    assign tail_ctl = c6_q;
    assign x_wr     = x6_q;
  end else begin : g_lanes_pipe
    // The pipelined lanes (Pipelined = 1). A word leaves S1b in cycle j+3 (relative to the
    // pass's word 0 address) and reaches the lanes three cycles later, when m is ready:
    //   j+3  m: the pipelined low product (montu_qunit_pipe) of word 0, 3 stages
    //   j+4  -x_j = ~x_j + carry (GF(p) lane 2 subtracts by adding m·(2^L - x); the missing
    //        -m·2^L goes into the extension sum)
    //   j+6  lane input: montu_mac_pipe computes a_j + m·y_j and b_j + m·x'_j with the word
    //        carry recurrence inside the lane (x' = 2^L - x or x)
    //   j+10 L3: u_j, funnel shift, write word j-1
    //   j+11 the lanes' carry word at the last word: extension sums e = ext + carry (- m)
    //   W+11 tail: word W-1 and the new extensions
    localparam int unsigned InDelay = 3;   // S1b -> lane input
    localparam int unsigned MacLat  = 4;   // lane input -> u

    ctl_t              ctl_q [InDelay + MacLat + 2];   // [k]: the control k+1 cycles after S1b
    logic [Word-1:0]   p_q [InDelay], q_q [InDelay];
    logic [Word-1:0]   x_q [2:InDelay + MacLat - 1];   // x_j after the memory, for lane 2 and the
                                                       // D compare (y_j comes straight from it)
    logic [Word-1:0]   x_in;                           // x_j in the cycle before the lane input
    logic [Word-1:0]   nx_q;                           // 2^L - x, word j (at ctl_q[2])
    logic              nxc_q;                          // its carry
    logic [Word:0]     nx_sum;
    logic [Word-1:0]   qprod, mask_t, m0, m_q, m_cur, xl;
    logic [Ew-1:0]     e1_pre_q, e2_pre_q;   // ext (lane 2 in GF(p) subtracting: ext - m)
    logic [Ew-1:0]     e2_ext_q, e2_m_q;     // its operands, a cycle before
    logic [Word-1:0]   u1, u2, ca1, ca2, lp1_q, lp2_q, xw_q;
    logic [Ew-1:0]     e1_d, e1_q, e2_d, e2_q;
    ctl_t              ctl_in, ctl_ca;

    assign ctl_in   = ctl_q[InDelay - 1];
    assign l3_ctl   = ctl_q[InDelay + MacLat - 1];
    assign ctl_ca   = ctl_q[InDelay + MacLat];
    assign tail_ctl = ctl_q[InDelay + MacLat + 1];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int k = 0; k < InDelay + MacLat + 2; k++) ctl_q[k] <= '0;
      end else begin
        ctl_q[0] <= ln_ctl;
        for (int k = 1; k < InDelay + MacLat + 2; k++) ctl_q[k] <= ctl_q[k-1];
      end
    end

    montu_qunit_pipe #(.Word(Word)) u_m (
      .clk_i,
      .gf2m_i(gf_q),
      .u_i   (y_odd_q ? ln_p : ln_q),
      .w_i   (minv_q),
      .t_o   (qprod)
    );

    always_comb begin
      nx_sum = {1'b0, ~x_in} + {{Word{1'b0}}, (ctl_q[1].j == '0) ? 1'b1 : nxc_q};
      // lane input: m at word 0 from the product (fix passes: 1), held for the other words
      for (int k = 0; k < Word; k++) mask_t[k] = (Tw'(k) < ctl_in.pass.t);   // 2^t - 1
      m0     = (ctl_in.pass.kind == KindFix) ? Word'(1) : (qprod & mask_t);
      m_cur  = (ctl_in.j == '0) ? m0 : m_q;
      xl     = (ctl_in.pass.sub2 && !gf_q) ? nx_q : x_q[InDelay - 1];
    end

    always_ff @(posedge clk_i) begin
      p_q[0] <= ln_p;
      q_q[0] <= ln_q;
      x_q[2] <= x_in;
      for (int k = 1; k < InDelay; k++) begin
        p_q[k] <= p_q[k-1];
        q_q[k] <= q_q[k-1];
      end
      for (int k = 3; k < InDelay + MacLat; k++) x_q[k] <= x_q[k-1];
      // -x is needed at the lane input: word j of 2^L - x is ready one cycle after x_j
      if (ctl_q[1].valid) begin
        nxc_q <= nx_sum[Word];
      end
      nx_q <= nx_sum[Word-1:0];
      if (ctl_in.valid && (ctl_in.j == '0)) m_q <= m0;
      // one and two cycles after the last word's lane input (m is in m_q by then, and stays
      // there until the next pass's word 0 enters the lanes)
      if (ctl_q[InDelay].valid && ctl_q[InDelay].last) begin
        e1_pre_q <= {{(Ew - ExtBits - 1){pe_q[ExtBits] & !gf_q}}, pe_q};
        e2_ext_q <= {{(Ew - ExtBits - 1){qe_q[ExtBits] & !gf_q}}, qe_q};
        e2_m_q   <= (ctl_q[InDelay].pass.sub2 && !gf_q) ? Ew'(m_q) : Ew'(0);
      end
      if (ctl_q[InDelay + 1].valid && ctl_q[InDelay + 1].last) e2_pre_q <= e2_ext_q - e2_m_q;
    end

    montu_mac_pipe #(.Word(Word)) u_lane1 (
      .clk_i, .gf2m_i(gf_q), .first_i(ctl_in.j == '0),
      .a_i(m_cur), .b_i(rdata[MemY]), .c_i(p_q[InDelay - 1]), .u_o(u1), .ca_o(ca1)
    );
    montu_mac_pipe #(.Word(Word)) u_lane2 (
      .clk_i, .gf2m_i(gf_q), .first_i(ctl_in.j == '0),
      .a_i(m_cur), .b_i(xl), .c_i(q_q[InDelay - 1]), .u_o(u2), .ca_o(ca2)
    );

    // L3: word j-1 of a', b' = {u_j, u_{j-1}} >> t; at the last word's carry, e = ext + carry
    // (lane 2 in GF(p) when it subtracts: - m, see above); tail: word W-1 = {e, u_{W-1}} >> t.
    assign l3_write = l3_ctl.valid && (l3_ctl.j != '0);
    assign tail     = tail_ctl.valid && tail_ctl.last;
    always_comb begin
      r3_lane1 = Word'({u1, lp1_q} >> l3_ctl.pass.t);
      r3_lane2 = Word'({u2, lp2_q} >> l3_ctl.pass.t);
      e1_d = e1_q;
      e2_d = e2_q;
      if (ctl_ca.valid && ctl_ca.last) begin
        e1_d = gf_q ? (e1_pre_q ^ Ew'(ca1)) : (e1_pre_q + Ew'(ca1));
        e2_d = gf_q ? (e2_pre_q ^ Ew'(ca2)) : (e2_pre_q + Ew'(ca2));
      end
      rt_lane1 = Word'({e1_q[Word-1:0], lp1_q} >> tail_ctl.pass.t);
      rt_lane2 = Word'({e2_q[Word-1:0], lp2_q} >> tail_ctl.pass.t);
      e_sh1    = ExtBits'($signed(e1_q) >>> tail_ctl.pass.t);
      e_sh2    = ExtBits'($signed(e2_q) >>> tail_ctl.pass.t);
    end

    always_ff @(posedge clk_i) begin
      if (l3_ctl.valid) begin
        lp1_q <= u1;
        lp2_q <= u2;
        xw_q  <= x_q[InDelay + MacLat - 1];
      end
      e1_q <= e1_d;
      e2_q <= e2_d;
    end
    assign x_wr = xw_q;
    assign x_in = rdata[MemX];
    logic unused_ca;
    assign unused_ca = ^{ctl_ca.j, ctl_ca.jm1, ctl_ca.pass, ctl_in.last, ctl_in.jm1, ln_x, ln_y};
  end

  assign unused_ctl = ^{l3_ctl.valid, l3_ctl.last, tail_ctl.valid, tail_ctl.last, tail_ctl.jm1};

  // ---------------------------------------------------------------------------------------------
  // Memory writes: the load, the u/v result (S1 and the late word W-1), the lanes (S2, tail).
  // These never collide: word j >= 1 of a pass in S1/L3 excludes word W-1 of the previous one in
  // the next stage (wl, tail), the W = 1 late word (w1l) is alone, and the load runs only with
  // the pipeline empty.
  // ---------------------------------------------------------------------------------------------
  logic ld_fire;
  assign ld_fire = (state_q == StLoad) && ld_valid;

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
    dc_x_d     = x_wr;
    dc_ext_d   = e_sh2;

    if (ld_fire) begin
      // u = x, v = y, A = D = 1, B = C = 0.
      for (int k = 0; k < NumMems; k++) begin
        we[k]    = 1'b1;
        waddr[k] = ld_j_q;
      end
      wdata[MemU] = ld_x;
      wdata[MemX] = ld_x;
      wdata[MemV] = ld_y;
      wdata[MemY] = ld_y;
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
    if (w1l_q) begin
      we[pc_q.side ? MemV : MemU]    = 1'b1;
      waddr[pc_q.side ? MemV : MemU] = '0;
      wdata[pc_q.side ? MemV : MemU] = r_w1;
    end
    if (v1b && (p1b.kind == KindRed) && !s1b_q.first) begin
      we[p1b.side ? MemV : MemU]    = 1'b1;
      waddr[p1b.side ? MemV : MemU] = s1b_q.jm1;
      wdata[p1b.side ? MemV : MemU] = r_prev;
    end

    // Lanes: word j-1 from L3, or word W-1 and the extension in the tail.
    if (l3_write) begin
      if (l3_ctl.pass.kind == KindRed) begin
        we[l3_ctl.pass.side ? MemC : MemA]    = 1'b1;
        waddr[l3_ctl.pass.side ? MemC : MemA] = l3_ctl.jm1;
        wdata[l3_ctl.pass.side ? MemC : MemA] = r3_lane1;
      end
      we[l3_ctl.pass.side ? MemD : MemB]    = 1'b1;
      waddr[l3_ctl.pass.side ? MemD : MemB] = l3_ctl.jm1;
      wdata[l3_ctl.pass.side ? MemD : MemB] = r3_lane2;
      dc_valid_d = l3_ctl.pass.side;
      dc_first_d = (l3_ctl.j == Aw'(1));
      dc_word_d  = r3_lane2;
    end
    if (tail) begin
      if (tail_ctl.pass.kind == KindRed) begin
        we[tail_ctl.pass.side ? MemC : MemA]    = 1'b1;
        waddr[tail_ctl.pass.side ? MemC : MemA] = tail_ctl.j;
        wdata[tail_ctl.pass.side ? MemC : MemA] = rt_lane1;
        if (tail_ctl.pass.side) ext_c_d = e_sh1;
        else                ext_a_d = e_sh1;
      end
      we[tail_ctl.pass.side ? MemD : MemB]    = 1'b1;
      waddr[tail_ctl.pass.side ? MemD : MemB] = tail_ctl.j;
      wdata[tail_ctl.pass.side ? MemD : MemB] = rt_lane2;
      if (tail_ctl.pass.side) ext_d_d = e_sh2;
      else                ext_b_d = e_sh2;
      dc_valid_d = tail_ctl.pass.side;
      dc_first_d = (tail_ctl.j == '0);
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
    xy_cmp_d   = 1'b0;
    xy_gt_d    = xy_gt_q;
    xy_eq_d    = xy_eq_q;
    y_odd_d    = y_odd_q;
    hen_busy_d = hen_busy_q;
    hen_bit_d  = hen_bit_q;
    hen_odd_d  = hen_odd_q;
    inv_d      = inv_q;
    hen_prod_d = hen_prod_q;
    hen_sh_d   = hen_sh_q;
    minv_d     = minv_q;
    drain_d    = drain_q;
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

    // x >= y (the first pass's u >= v), one word behind the load: the compare of the loaded word
    // pair is registered first, so no compare follows the read of the register file. The last
    // word folds in during the cycle after the load, before any pass (StWait lasts >= 1 cycle).
    if (xy_cmp_q) begin
      xy_ge_d  = xy_gt_q | (xy_eq_q & xy_ge_q);
      u_ge_v_d = xy_ge_d;
    end

    // Hensel step k = 1 .. Word-1: if bit k of odd·inv is set, set bit k of inv
    // (odd·inv += odd·2^k, or ^= in GF(2)[x]); afterwards odd·inv = 1 mod 2^Word.
    if (hen_busy_q) begin
      if (hen_prod_q[hen_bit_q]) begin
        inv_d[hen_bit_q] = 1'b1;
        hen_prod_d = gf_q ? (hen_prod_q ^ hen_sh_q) : (hen_prod_q + hen_sh_q);
      end
      hen_sh_d   = hen_sh_q << 1;
      hen_bit_d  = hen_bit_q + Tw'(1);
      hen_busy_d = (hen_bit_q != Tw'(Word - 1));
    end

    // S0: address words 0..W-1 of a pass every period cycles.
    if (s0_on_q) begin
      s0_cnt_d = (s0_cnt_q >= ((state_q == StFix) ? fix_end_q : red_end_q))
               ? '0 : s0_cnt_q + Pw'(1);
    end

    // D flags from S4.
    if (dc_valid_q && dc_last_q) begin
      d_neg_d = !gf_q && dc_ext_q[ExtBits-1];
      d_fix_d = gf_q ? ((dc_ext_q != '0) | dge_now | dxlt_now)
                     : ((dc_ext_q != '0) | dge_now);
    end

    // u/v flags in S1c: of the last word of a reduction pass (W >= 2), or one cycle later of the
    // registered word (W = 1, w1l_q); the two never coincide (W is fixed within a MINV).
    if (s1c_q.en && s1c_q.flags) begin
      u_ge_v_d = cmp_b.ge;
      if (!s1c_q.side) begin
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
        if (ld_valid) begin
          ld_j_d  = ld_j_q + Aw'(1);
          xy_cmp_d = 1'b1;
          xy_gt_d  = (ld_x > ld_y);
          xy_eq_d  = (ld_x == ld_y);
          if (ld_j_q == '0) begin
            x_nz_d     = |ld_x;
            y_nz_d     = |ld_y;
            x_lo_one_d = (ld_x == Word'(1));
            y_lo_one_d = (ld_y == Word'(1));
            y_odd_d    = ld_y[0];
            u_odd_d    = ld_x[0];
            v_odd_d    = ld_y[0];
            hen_odd_d  = ld_y[0] ? ld_y : ld_x;
            hen_prod_d = ld_y[0] ? ld_y : ld_x;   // odd·inv with inv = 1
            hen_sh_d   = (ld_y[0] ? ld_y : ld_x) << 1;
            inv_d      = Word'(1);
            hen_bit_d  = Tw'(1);
            hen_busy_d = 1'b1;
          end else begin
            x_nz_d    = x_nz_q | (|ld_x);
            y_nz_d    = y_nz_q | (|ld_y);
            x_hi_nz_d = x_hi_nz_q | (|ld_x);
            y_hi_nz_d = y_hi_nz_q | (|ld_y);
          end
          if (ld_j_q == w_last) begin
            // x = 0, y = 0 or both even: no inverse, before any pass.
            if (!x_nz_d || !y_nz_d || !(u_odd_d || v_odd_d)) begin
              state_d = StIdle;
              done_d  = 1'b1;
              noinv_d = 1'b1;
            end else begin
              state_d  = StWait;
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
          minv_d   = (gf_q || !y_odd_q) ? inv_q : -inv_q;
        end
      end
      StRun: begin
        if (kill_fail) begin
          state_d = StDrain;
          s0_on_d = 1'b0;
          drain_d = 3'(DrainCycles);
        end else if (kill_fix) begin
          // Let the last pass's D flags settle: the first fix pass addresses word 0 KillLead + 1
          // cycles later (5; 7 when pipelined).
          state_d  = StFix;
          s0_cnt_d = fix_go_q;
        end
      end
      StDrain: begin
        // The tail of the last pass writes at most DrainCycles + 1 cycles after kill_fail, by
        // done_o.
        drain_d = drain_q - 3'd1;
        if (drain_q == '0) begin
          state_d = StIdle;
          done_d  = 1'b1;
          noinv_d = 1'b1;
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

  // S1 takes the word addressed one cycle before (two with the memories' output register).
  if (Pipelined) begin : g_s1_in_reg
    logic          sr_valid_q;
    logic [Aw-1:0] sr_j_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        sr_valid_q <= 1'b0;
        sr_j_q     <= '0;
      end else begin
        sr_valid_q <= s0_issue;
        sr_j_q     <= raddr;
      end
    end
    assign s1_valid_d = sr_valid_q;
    assign s1_j_d     = sr_j_q;
  end else begin : g_s1_in_wire
    assign s1_valid_d = s0_issue;
    assign s1_j_d     = raddr;
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
      xy_cmp_q   <= 1'b0;
      xy_gt_q    <= 1'b0;
      xy_eq_q    <= 1'b0;
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
      dc_valid_q <= 1'b0;
      dc_first_q <= 1'b0;
      dc_last_q  <= 1'b0;
      dc_word_q  <= '0;
      dc_x_q     <= '0;
      dc_ext_q   <= '0;
      dge_q      <= 1'b0;
      dxlt_q     <= 1'b0;
      hen_sh_q   <= '0;
      minv_q     <= '0;
      w1l_q      <= 1'b0;
      drain_q    <= '0;
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
      xy_cmp_q   <= xy_cmp_d;
      xy_gt_q    <= xy_gt_d;
      xy_eq_q    <= xy_eq_d;
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
      dc_valid_q <= dc_valid_d;
      dc_first_q <= dc_first_d;
      dc_last_q  <= dc_last_d;
      dc_word_q  <= dc_word_d;
      dc_x_q     <= dc_x_d;
      dc_ext_q   <= dc_ext_d;
      dge_q      <= dge_d;
      dxlt_q     <= dxlt_d;
      hen_sh_q   <= hen_sh_d;
      minv_q     <= minv_d;
      w1l_q      <= w1l_d;
      drain_q    <= drain_d;
    end
  end

  assign done_o       = done_q;
  assign no_inverse_o = noinv_q;
endmodule
