// Inversion engine of MINV: y^-1 mod x for any modulus x (even ones included), GF(p) or GF(2^m).
//
// Length: about 900 lines, of which 100 are this description. What is left after the lanes
// (montu_inv_lanes) and the Hensel unit (montu_hensel) moved out is one controller: the load,
// the pass sequencing, stage S1 and the memory writes all read the same pass record, branch flags
// and eight memory ports in the same cycle, and a module boundary through them would carry about
// forty signals without making any part simpler to read.
//
// Algorithm (bie2021 Alg. 3 with multi-bit halving; reference model and pass schedule:
// src/montu/backends/sim/inversion.py, run_inversion). Invariants, over Z (GF(p)) or GF(2)[x] (GF(2^m)):
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
// Datapath. u, v, A, B, C, D, x, y live in eight Word-wide scratch memories (montu_ram_1r1w,
// synchronous read) addressed by word; every pass reads all eight at the same word index, word 0
// first, one word per cycle. Coefficients are two's complement: W words in memory plus ExtBits
// extension bits per coefficient in flip-flops. This module is the controller: the load, the
// pass sequencing, S1 (select, subtract, t, the u/v result and its flags), the memory writes and
// S4; the coefficient arithmetic of a pass (M .. tail below) is montu_inv_lanes, and yinv / xinv
// come from montu_hensel. Pipeline of a pass (cycle c relative to the cycle its word 0 is
// addressed; word j is addressed at c = j), at most one multiplier or one wide adder (plus a
// shifter) per stage:
//   S1 (c = j+1): operand select and subtract (borrow chains); at j = 0 the trailing-zero count t
//                 of word 0 is registered. The u/v result needs no multiply: w'_{j-1} =
//                 {w_j, w_{j-1}} >> t (registered t, so j >= 1) is written here, and the flags of
//                 the next pass (parity, u >= v on the fly: the most significant differing word
//                 decides, u = 0, v = 1) are complete at c = W. With W = 1, w'_0 and its flags
//                 follow one cycle later (c = 2), from the registered word 0.
//   M  (c = j+2): at j = 0, m = (a_0·(-yinv)) mod 2^t or (b_0·xinv) mod 2^t: one Word x Word low
//                 product with the factor -yinv / xinv (montu_hensel, taken once it is done).
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
//   the memories' read data is registered once more (montu_ram_1r1w OutReg): block RAM
//   clock-to-output is slow, so it ends in flip-flops, and word j reaches S1 at c = j+2;
//   S1 takes three cycles: S1a (c = j+2) selects and subtracts, S1b (c = j+3) computes t and
//   the shifted u/v word and writes it, S1c (c = j+4) folds that word into the next pass's
//   flags (complete at c = W+3; the compare no longer follows the shift in the same cycle);
//   m is the pipelined low product (montu_qunit_lane, 3 stages) of word 0, ready at c = 6;
//   the lanes are two montu_mac_lane (products on MULT18X18D, row sums, an accumulate stage that
//   keeps the word carry recurrence inside the lane): word j enters at c = j+6, leaves at
//   c = j+10 (L3 writes word j-1 of a', b'); lane 2 in GF(p) adds m·(2^L - x) instead of
//   subtracting m·x and takes m off the extension sum, which the tail (c = W+11) uses
//   (montu_inv_lanes_pipe).
// The memories' write ports are registered as well: a word written "at c" below reaches its
// memory at c+1.
// The next pass decides at its word 0's S1a (c = P+2), after the flags (W+3): P >= W+2; it reads
// a' word j at c = P+j, written at c = j+11 (word W-1: the tail, W+11), and without the
// write-first bypass (an address compare and a multiplexer behind every memory) the read must
// come after the registered write: P >= 14. So P = max(W + 2, 14); a fix pass's D flags come at
// c = W+13: fix passes take W + 11, and at least 14 for the same reason (W <= 2);
// kill to the next pass's word 0 is 7 cycles and a failed inversion's done_o comes 6 cycles
// after the kill, with the last tail. The cycle counts below become: no inverse at load: W + 2,
// gcd != 1: max(W, Word) + 12 + passes·P, success: max(W, Word) + W + 14 + passes·P +
// fixes·max(W + 11, 14).
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
//                valid cycle. Gaps are allowed; the bit-serial Hensel lifting (montu_hensel,
//                Word - 1 cycles from word 0) runs in parallel, so only a load longer than Word
//                cycles counts.
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
  // reduction pass must be, the fix-pass period max(W + FixExtra, FixMin), the cycles from the
  // kill decision of the pass after the last reduction pass to the next pass's word 0, and the
  // drain after a failed inversion (done_o comes with the last pass's last write).
  localparam int unsigned PeriodMin   = Pipelined ? 14 : 6;
  localparam int unsigned PeriodExtra = Pipelined ? 2 : 0;
  localparam int unsigned FixExtra    = Pipelined ? 11 : 6;
  localparam int unsigned FixMin      = Pipelined ? 14 : 7;   // (W >= 1: 7 never binds)
  localparam int unsigned KillLead    = Pipelined ? 6 : 4;
  localparam int unsigned DrainCycles = Pipelined ? 5 : 2;
  localparam int unsigned FixPeriod1  = (1 + FixExtra < FixMin) ? FixMin : 1 + FixExtra;  // W = 1
  localparam int unsigned ExtBits     = 8;                    // see the growth bound above

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

  // Running state of the on-the-fly u/v flags of the value a pass writes.
  typedef struct packed {
    logic ge;      // u >= v over the words seen so far (ascending)
    logic nz_hi;   // some word above word 0 is non-zero
    logic r0_nz;   // word 0 is non-zero
    logic r0_odd;  // bit 0
    logic r0_one;  // word 0 == 1
  } cmp_t;

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
  // Registers, grouped by the block that computes them (each group is reset once, at the end)
  // ---------------------------------------------------------------------------------------------
  // Set at start: the field, the mode, W and the pass timing from W (registered, so no adder sits
  // in front of the S0 counter's compare).
  typedef struct packed {
    logic          gf;        // GF(2^m) mode
    logic          one_bit;   // t = 1 on every pass (Alg. 3 as printed)
    logic [Cw-1:0] words;     // W
    logic [Aw-1:0] w_last;    // W - 1
    logic [Pw-1:0] red_end;   // a reduction pass's period - 1
    logic [Pw-1:0] fix_end;   // a fix pass's period - 1
    logic [Pw-1:0] fix_go;    // the S0 counter after the kill (fix period - KillLead)
  } cfg_t;
  localparam cfg_t CfgReset = '{gf: 1'b0, one_bit: 1'b0, words: Cw'(1), w_last: '0,
                                red_end: Pw'(PeriodMin - 1), fix_end: Pw'(FixPeriod1 - 1),
                                fix_go: Pw'(FixPeriod1 - KillLead)};

  // Load-time facts about x and y.
  typedef struct packed {
    logic [Aw-1:0] j;                  // the next word to load
    logic          x_nz, y_nz;         // x != 0, y != 0
    logic          x_hi_nz, y_hi_nz;   // some word above 0 non-zero
    logic          x_lo_one, y_lo_one; // word 0 is 1
    logic          xy_ge;              // x >= y so far
    logic          xy_cmp;             // the last loaded word pair is still to be folded in:
    logic          xy_gt, xy_eq;       //   x_j > y_j, x_j = y_j
    logic          y_odd;
  } load_t;

  // Branch flags of the current u, v and the fix flags of D.
  typedef struct packed {
    logic u_odd, v_odd, u_ge_v, u_zero, v_one;
    logic d_fix, d_neg;
    logic gf_fixed;                    // GF(2^m): the one fix pass has been made
  } flags_t;

  // The pass sequencer: S0 addresses words 0 .. W-1 of a pass every period cycles.
  typedef struct packed {
    logic          s0_on;
    logic [Pw-1:0] s0_cnt;
    logic [2:0]    drain;              // gcd != 1: cycles until the lanes are idle
    logic          done, noinv;
  } seq_t;

  // Coefficient extensions (bits L .. L+ExtBits-1, two's complement).
  typedef struct packed {
    logic [ExtBits-1:0] a, b, c, d;
  } ext_t;

  // S1a: the borrow chains of the subtract (both directions: [0] u - v, a - c, b - d; [1] the
  // reverse), and the extensions of the operands a, b (taken at word W-1, one bit wider: a
  // difference). A subtracting pass's extension depends on the last word's borrow: both
  // candidates (without / with the borrow, *0 / *1) and the borrow (*_bor) are registered and
  // the borrow picks one after the registers, so no Word-bit carry chain ends in a multiplexer
  // in front of these flip-flops (#23: montu_inv's post-route worst path). In any other pass
  // the borrow is 0 and *0 is the extension.
  typedef struct packed {
    logic [1:0]       bw, bp, bq;
    logic [ExtBits:0] pe0, pe1, qe0, qe1;
    logic             pe_bor, qe_bor;
  } s1a_t;

  // S1b: the pass, the previous words and the late u/v writes.
  typedef struct packed {
    pass_t           pc;           // the current pass, held from its word 0 (t from S1b)
    logic [Word-1:0] w1, o1;       // previous word of w and of the other operand
    logic            wl_valid;     // late write of w' word W-1
    logic            wl_side;
    logic [Aw-1:0]   wl_j;
    logic [Word-1:0] wl_data;
    logic            w1l;          // W = 1: w' word 0 and its flags one cycle late
  } s1s_t;

  // S4: a written D word and its x word, and the compare of D with x so far.
  typedef struct packed {
    logic               valid, first, last;
    logic [Word-1:0]    word, x;
    logic [ExtBits-1:0] ext;
    logic               ge;        // D >= x over the words so far
    logic               xlt;       // (D ^ x) < D over the words so far
  } s4_t;

  state_e          state_d, state_q;
  cfg_t            cfg_d, cfg_q;
  load_t           ld_d, ld_q;
  flags_t          fl_d, fl_q;
  seq_t            seq_d, seq_q;
  logic [Word-1:0] minv_d, minv_q;      // the factor of m: -yinv (y odd) or xinv
  ext_t            ext_d, ext_q;
  s1a_t            s1a_d, s1a_q;
  s1s_t            s1s_d, s1s_q;
  cmp_t            cmp_d, cmp_q;
  s4_t             s4_d, s4_q;

  // ---------------------------------------------------------------------------------------------
  // Memories, load words, Hensel unit
  // ---------------------------------------------------------------------------------------------
  logic [Word-1:0] rdata [NumMems];
  logic            we    [NumMems];
  logic [Aw-1:0]   waddr [NumMems];
  logic [Word-1:0] wdata [NumMems];
  logic [Aw-1:0]   raddr;                // S0's word address (x and y: the lanes' own)
  logic [Aw-1:0]   mem_raddr [NumMems];

  // Pipelined: the write ports are registered too (a write lands one cycle after its source
  // cycle), so the lanes' funnel shift and the source select end in flip-flops instead of at the
  // block RAMs' data inputs (#23). No reset: WIPE holds the engine in reset while it writes.
  typedef struct packed {
    logic            we;
    logic [Aw-1:0]   addr;
    logic [Word-1:0] data;
  } mem_wr_t;

  for (genvar k = 0; k < NumMems; k++) begin : g_mem
    mem_wr_t wr_port;
    montu_stage_reg #(.T(mem_wr_t), .Stages(int'(Pipelined)), .Reset(1'b0)) u_wr_reg (
      .clk_i, .rst_ni, .en_i(1'b1), .d_i('{we: we[k], addr: waddr[k], data: wdata[k]}),
      .q_o(wr_port)
    );
    montu_ram_1r1w #(
      .Width(Word), .Depth(MaxWords), .WriteFirst(!Pipelined), .OutReg(Pipelined)
    ) u_ram (
      .clk_i,
      .we_i    (wr_port.we),
      .waddr_i (wr_port.addr),
      .wdata_i (wr_port.data),
      .re_i    (1'b1),
      .raddr_i (mem_raddr[k]),
      .rdata_o (rdata[k])
    );
  end

  // The load words. Pipelined: registered first, so no logic follows the register file's read
  // in the cycle of the read (one cycle more for every MINV).
  typedef struct packed {
    logic [Word-1:0] x, y;
  } ld_word_t;
  logic            ld_valid;
  logic [Word-1:0] ld_x, ld_y;
  ld_word_t        ld_word;
  montu_stage_reg #(.T(logic), .Stages(int'(Pipelined))) u_ld_valid_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(ld_valid_i), .q_o(ld_valid)
  );
  montu_stage_reg #(.T(ld_word_t), .Stages(int'(Pipelined)), .Reset(1'b0)) u_ld_word_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i('{x: ld_x_i, y: ld_y_i}), .q_o(ld_word)
  );
  assign ld_x = ld_word.x;
  assign ld_y = ld_word.y;

  // The Hensel unit starts on word 0 of the load: (y odd ? y : x)^-1 mod 2^Word, negated for y
  // (m = -a·yinv), ready Word cycles later.
  logic            hen_start, hen_busy;
  logic [Word-1:0] hen_w;
  assign hen_start = (state_q == StLoad) && ld_valid && (ld_q.j == '0);
  montu_hensel #(.Word(Word)) u_hensel (
    .clk_i, .rst_ni,
    .start_i(hen_start),
    .gf2m_i (cfg_q.gf),
    .n_i    (ld_y[0] ? ld_y : ld_x),
    .neg_i  (ld_q.y_odd),
    .busy_o (hen_busy),
    .w_o    (hen_w)
  );

  // ---------------------------------------------------------------------------------------------
  // S0 and the word S1 takes (the word addressed one cycle before; two with the memories'
  // output register)
  // ---------------------------------------------------------------------------------------------
  typedef struct packed {
    logic          valid;
    logic [Aw-1:0] j;
  } s1_in_t;
  s1_in_t s1;
  logic   s0_issue, s1_first, s1_last;

  assign raddr    = seq_q.s0_cnt[Aw-1:0];
  assign s0_issue = seq_q.s0_on && (seq_q.s0_cnt < Pw'(cfg_q.words));
  montu_stage_reg #(.T(s1_in_t), .Stages(1 + int'(Pipelined))) u_s1_in_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i('{valid: s0_issue, j: raddr}), .q_o(s1)
  );
  assign s1_first = (s1.j == '0);
  assign s1_last  = (s1.j == cfg_q.w_last);

  // ---------------------------------------------------------------------------------------------
  // S1 (S1a): pass decision at word 0, operand select and subtract (S1b below: t, the u/v result
  // and its flags).
  // ---------------------------------------------------------------------------------------------
  pass_t              dec;         // the pass decided at word 0
  pass_t              p1;          // the pass of the word in S1
  logic               kill_fail, kill_fix, go_out, out_last;
  logic [Word-1:0]    w_f, w_s, p_f, p_s, q_f, q_s, w_cur, p_cur, q_cur;
  logic [ExtBits-1:0] pe_f, pe_s, qe_f, qe_s;
  logic [ExtBits:0]   pe_b0, pe_b1, qe_b0, qe_b1;   // f - s without / with the word's borrow
  logic [ExtBits:0]   ext_a, ext_b;                 // the extensions of a, b (S1a's registers)
  logic [Word-1:0]    w_sub;
  logic [Word:0]      p_sub, q_sub, w_uv, w_vu, p_ac, p_ca, q_bd, q_db;

  // S1a -> S1b: the words after the subtract.
  typedef struct packed {
    logic            valid, live, first, last;
    logic [Aw-1:0]   j, jm1;
    pass_t           pass;        // t is set in S1b
    logic [Word-1:0] w, ws, p, q; // w (this side or the difference), the other side's u/v word,
  } s1b_t;                        // a, b
  s1b_t s1b_d, s1b_q;

  always_comb begin
    dec       = '0;
    kill_fail = 1'b0;
    kill_fix  = 1'b0;
    go_out    = 1'b0;
    if (s1.valid && s1_first) begin
      unique case (state_q)
        StRun: begin
          if (fl_q.u_zero) begin
            // u = 0: v is the gcd.
            dec.kind  = KindNone;
            kill_fix  = fl_q.v_one;
            kill_fail = !fl_q.v_one;
          end else begin
            dec.kind = KindRed;
            dec.sub2 = 1'b1;
            if (!fl_q.u_odd)      begin dec.side = 1'b0; dec.diff = 1'b0; end
            else if (!fl_q.v_odd) begin dec.side = 1'b1; dec.diff = 1'b0; end
            else if (fl_q.u_ge_v) begin dec.side = 1'b0; dec.diff = 1'b1; end
            else                  begin dec.side = 1'b1; dec.diff = 1'b1; end
          end
        end
        StFix: begin
          dec.side = 1'b1;
          if (fl_q.d_fix && !(cfg_q.gf && fl_q.gf_fixed)) begin
            dec.kind = KindFix;
            dec.sub2 = !fl_q.d_neg;     // D < 0: D + x, else D - x
          end else begin
            dec.kind = KindOut;
            go_out   = 1'b1;
          end
        end
        default: dec.kind = KindNone;
      endcase
    end
    p1 = s1_first ? dec : s1s_q.pc;

    // Operands: "f" = the side the result goes to, "s" = the other side.
    w_f  = p1.side ? rdata[MemV] : rdata[MemU];
    w_s  = p1.side ? rdata[MemU] : rdata[MemV];
    p_f  = p1.side ? rdata[MemC] : rdata[MemA];
    p_s  = p1.side ? rdata[MemA] : rdata[MemC];
    q_f  = p1.side ? rdata[MemD] : rdata[MemB];
    q_s  = p1.side ? rdata[MemB] : rdata[MemD];
    pe_f = p1.side ? ext_q.c : ext_q.a;
    pe_s = p1.side ? ext_q.a : ext_q.c;
    qe_f = p1.side ? ext_q.d : ext_q.b;
    qe_s = p1.side ? ext_q.b : ext_q.d;

    // Word j of f - s - borrow (the borrow chain restarts at word 0). Both directions are
    // subtracted straight from the memories' registered words and the pass's side picks one
    // after the carry chains: the side is decided at word 0 (a few levels of logic from the
    // flags) and selects 6 x Word bits, so it must not sit in front of a Word-bit carry chain.
    w_uv = {1'b0, rdata[MemU]} - {1'b0, rdata[MemV]} - {{Word{1'b0}}, (s1_first ? 1'b0 : s1a_q.bw[0])};
    w_vu = {1'b0, rdata[MemV]} - {1'b0, rdata[MemU]} - {{Word{1'b0}}, (s1_first ? 1'b0 : s1a_q.bw[1])};
    p_ac = {1'b0, rdata[MemA]} - {1'b0, rdata[MemC]} - {{Word{1'b0}}, (s1_first ? 1'b0 : s1a_q.bp[0])};
    p_ca = {1'b0, rdata[MemC]} - {1'b0, rdata[MemA]} - {{Word{1'b0}}, (s1_first ? 1'b0 : s1a_q.bp[1])};
    q_bd = {1'b0, rdata[MemB]} - {1'b0, rdata[MemD]} - {{Word{1'b0}}, (s1_first ? 1'b0 : s1a_q.bq[0])};
    q_db = {1'b0, rdata[MemD]} - {1'b0, rdata[MemB]} - {{Word{1'b0}}, (s1_first ? 1'b0 : s1a_q.bq[1])};
    w_sub = p1.side ? w_vu[Word-1:0] : w_uv[Word-1:0];
    p_sub = p1.side ? p_ca : p_ac;
    q_sub = p1.side ? q_db : q_bd;
    if (!p1.diff) begin
      w_cur = w_f;
      p_cur = p_f;
      q_cur = q_f;
    end else if (cfg_q.gf) begin
      w_cur = w_f ^ w_s;
      p_cur = p_f ^ p_s;
      q_cur = q_f ^ q_s;
    end else begin
      w_cur = w_sub;
      p_cur = p_sub[Word-1:0];
      q_cur = q_sub[Word-1:0];
    end
    s1a_d    = s1a_q;   // the extensions hold between last words
    s1a_d.bw = {w_vu[Word], w_uv[Word]};
    s1a_d.bp = {p_ca[Word], p_ac[Word]};
    s1a_d.bq = {q_db[Word], q_bd[Word]};

    // Extensions of a and b (taken at word W-1, with its borrow out). GF(p): carry select, both
    // differences are ready when the word subtract's borrow picks one.
    pe_b0 = {pe_f[ExtBits-1], pe_f} - {pe_s[ExtBits-1], pe_s};
    pe_b1 = {pe_f[ExtBits-1], pe_f} + ~{pe_s[ExtBits-1], pe_s};
    qe_b0 = {qe_f[ExtBits-1], qe_f} - {qe_s[ExtBits-1], qe_s};
    qe_b1 = {qe_f[ExtBits-1], qe_f} + ~{qe_s[ExtBits-1], qe_s};
    if (s1.valid && s1_last) begin
      s1a_d.pe1    = pe_b1;   // picked only by a borrow, i.e. in a subtracting GF(p) pass
      s1a_d.qe1    = qe_b1;
      s1a_d.pe_bor = 1'b0;
      s1a_d.qe_bor = 1'b0;
      if (!p1.diff) begin
        s1a_d.pe0 = {pe_f[ExtBits-1], pe_f};
        s1a_d.qe0 = {qe_f[ExtBits-1], qe_f};
      end else if (cfg_q.gf) begin
        s1a_d.pe0 = {1'b0, pe_f ^ pe_s};
        s1a_d.qe0 = {1'b0, qe_f ^ qe_s};
      end else begin
        s1a_d.pe0    = pe_b0;
        s1a_d.qe0    = qe_b0;
        s1a_d.pe_bor = p_sub[Word];
        s1a_d.qe_bor = q_sub[Word];
      end
    end
    ext_a = s1a_q.pe_bor ? s1a_q.pe1 : s1a_q.pe0;
    ext_b = s1a_q.qe_bor ? s1a_q.qe1 : s1a_q.qe0;

    s1b_d = '{valid: s1.valid, live: s1.valid && (p1.kind != KindNone), first: s1_first,
              last: s1_last, j: s1.j, jm1: s1.j - Aw'(1), pass: p1,
              w: w_cur, ws: w_s, p: p_cur, q: q_cur};
  end

  assign out_last    = s1.valid && s1_last && (p1.kind == KindOut);
  assign res_valid_o = s1.valid && (p1.kind == KindOut);
  assign res_word_o  = rdata[MemD];

  // ---------------------------------------------------------------------------------------------
  // S1b, the second half of S1 (its own cycle when Pipelined, else the same one): t at word 0,
  // the u/v result and the words handed to the lanes.
  // ---------------------------------------------------------------------------------------------
  montu_stage_reg #(.T(s1b_t), .Stages(int'(Pipelined))) u_s1b_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(s1b_d), .q_o(s1b_q)
  );

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
  pass_t           p1b;         // the pass of the word in S1b (t set)
  logic            red1b;       // S1b holds a word of a live reduction pass
  logic [Tw-1:0]   t_new;
  logic [Word-1:0] r_prev, r_last, r_w1;

  always_comb begin
    // t = min(tz(w), Word-1), registered with the pass (m follows in stage M); words j >= 1
    // carry the registered t.
    t_new = cfg_q.one_bit ? Tw'(1) : trailing_zeros(s1b_q.w);
    p1b   = s1b_q.pass;
    if (!s1b_q.first)                        p1b.t = s1s_q.pc.t;
    else if (s1b_q.pass.kind == KindRed)     p1b.t = t_new;
    red1b = s1b_q.live && (p1b.kind == KindRed);

    // The pass register takes kind, side, diff and sub2 in S1a and t in S1b.
    s1s_d    = s1s_q;
    if (s1.valid && s1_first) begin
      s1s_d.pc   = p1;
      s1s_d.pc.t = s1s_q.pc.t;
    end
    if (s1b_q.valid && s1b_q.first) s1s_d.pc.t = p1b.t;

    // New u/v words: w' word j-1 = {w_j, w_{j-1}} >> t, and at the last word w' word W-1 = w >> t.
    // Both shift by the registered t (j >= 1); with W = 1, word 0 is shifted one cycle later (r_w1).
    r_prev = Word'({s1b_q.w, s1s_q.w1} >> s1s_q.pc.t);
    r_last = s1b_q.w >> s1s_q.pc.t;
    r_w1   = s1s_q.w1 >> s1s_q.pc.t;
    s1s_d.w1       = s1b_q.w;
    s1s_d.o1       = s1b_q.ws;
    s1s_d.wl_valid = red1b && s1b_q.last && !s1b_q.first;
    s1s_d.w1l      = red1b && s1b_q.last && s1b_q.first;
    s1s_d.wl_side  = p1b.side;
    s1s_d.wl_j     = s1b_q.j;
    s1s_d.wl_data  = r_last;

    // To S1c: word j-1 (and at the last word, word W-1) of the new u/v value; with W = 1 the
    // late word 0 (w1l) instead.
    if (s1s_q.w1l) begin
      s1c_d = '{en: 1'b1, init: 1'b1, a_en: 1'b1, a_word0: 1'b1, b_en: 1'b0, flags: 1'b1,
                side: s1s_q.pc.side, a_r: r_w1, a_o: s1s_q.o1, b_r: '0};
    end else begin
      s1c_d = '{en: red1b, init: s1b_q.first, a_en: !s1b_q.first,
                a_word0: (s1b_q.j == Aw'(1)), b_en: s1b_q.last,
                flags: s1b_q.last && !s1b_q.first, side: p1b.side,
                a_r: r_prev, a_o: s1s_q.o1, b_r: r_last};
    end
  end

  // ---------------------------------------------------------------------------------------------
  // S1c, the u/v flags of the next pass (parity, zero / one, u >= v over the words so far): its
  // own cycle when Pipelined (the compare does not follow the shift), else part of S1b.
  // ---------------------------------------------------------------------------------------------
  logic [Word-1:0] s1c_o_last;   // the other side's last word
  cmp_t            cmp_a, cmp_b;
  montu_stage_reg #(.T(s1c_t), .Stages(int'(Pipelined))) u_s1c_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(s1c_d), .q_o(s1c_q)
  );
  // in S1c, o1 holds it; in the same cycle as S1b, the word in S1b
  assign s1c_o_last = Pipelined ? s1s_q.o1 : s1b_q.ws;

  always_comb begin
    cmp_a = s1c_q.init ? cmp_t'{ge: 1'b1, default: 1'b0} : cmp_q;
    if (s1c_q.a_en) cmp_a = absorb(cmp_a, s1c_q.a_r, s1c_q.a_o, s1c_q.side, s1c_q.a_word0);
    cmp_b = s1c_q.b_en ? absorb(cmp_a, s1c_q.b_r, s1c_o_last, s1c_q.side, 1'b0) : cmp_a;
    cmp_d = s1c_q.en ? cmp_b : cmp_q;
  end

  // ---------------------------------------------------------------------------------------------
  // The lanes (montu_inv_lanes): a' = (a + m·y) / 2^t, b' = (b ∓ m·x) / 2^t for the reduction
  // and fix passes; one word of a', b' per write cycle.
  // ---------------------------------------------------------------------------------------------
  logic               wr, wr_last, wr_fix, wr_side;
  logic [Aw-1:0]      wr_idx;
  logic [Word-1:0]    wr_a, wr_b, wr_x;
  logic [ExtBits-1:0] wr_ext_a, wr_ext_b;

  montu_inv_lanes #(
    .Word(Word), .MaxWords(MaxWords), .ExtBits(ExtBits), .Pipelined(Pipelined)
  ) u_lanes (
    .clk_i, .rst_ni,
    .gf2m_i    (cfg_q.gf),
    .y_odd_i   (ld_q.y_odd),
    .factor_i  (minv_q),
    .in_valid_i(s1b_q.live && ((p1b.kind == KindRed) || (p1b.kind == KindFix))),
    .in_last_i (s1b_q.last),
    .in_j_i    (s1b_q.j),
    .in_t_i    (p1b.t),
    .in_fix_i  (p1b.kind == KindFix),
    .in_sub2_i (p1b.sub2),
    .in_side_i (p1b.side),
    .in_a_i    (s1b_q.p),
    .in_b_i    (s1b_q.q),
    .ext_a_i   (ext_a),
    .ext_b_i   (ext_b),
    .raddr_i   (raddr),
    .x_raddr_o (mem_raddr[MemX]),
    .y_raddr_o (mem_raddr[MemY]),
    .x_rdata_i (rdata[MemX]),
    .y_rdata_i (rdata[MemY]),
    .wr_o      (wr),
    .wr_idx_o  (wr_idx),
    .wr_last_o (wr_last),
    .wr_fix_o  (wr_fix),
    .wr_side_o (wr_side),
    .wr_a_o    (wr_a),
    .wr_b_o    (wr_b),
    .wr_ext_a_o(wr_ext_a),
    .wr_ext_b_o(wr_ext_b),
    .wr_x_o    (wr_x)
  );
  logic unused_diff;   // the subtract happened in S1a
  assign unused_diff = p1b.diff;
  for (genvar k = 0; k < NumMems; k++) begin : g_raddr
    if (k != MemX && k != MemY) begin : g_s0
      assign mem_raddr[k] = raddr;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Memory writes: the load, the u/v result (S1b and the late word W-1), the lanes. These never
  // collide: word j >= 1 of a pass in S1b excludes word W-1 of the previous one in the next stage
  // (wl), the W = 1 late word (w1l) is alone, and the load runs only with the pipeline empty.
  // ---------------------------------------------------------------------------------------------
  logic ld_fire;
  assign ld_fire = (state_q == StLoad) && ld_valid;

  // Each memory's write port is an AND-OR of its sources: a select (control only) and a word.
  // The sources never collide (above; checked in simulation below), so this equals a priority
  // chain, without its depth: the chain put 7 LUT levels between the lanes' control registers
  // and the block RAMs' data inputs (#23: montu_inv's post-route worst path). WIPE (clear_i)
  // has the port to itself: the engine is idle in WIPE's decode cycle and held in reset after
  // it, so every other select is off (asserted below, not gated: clear_i comes from the top's
  // decode and stays off the data path), the address is clear_addr_i, the data 0.
  logic ld_w, uv_wl, uv_w1, uv_pr, ln_a, ln_b;
  logic [NumMems-1:0] sel_ld, sel_wl, sel_w1, sel_pr, sel_ln;
  logic [Word-1:0]    ld_src [NumMems];    // the loaded word of each memory
  logic [Word-1:0]    ln_src [NumMems];    // the lanes' word of each memory (A..D)

  function automatic logic [Word-1:0] pick(logic sel, logic [Word-1:0] word);
    return {Word{sel}} & word;
  endfunction
  function automatic logic [Aw-1:0] pick_addr(logic sel, logic [Aw-1:0] addr);
    return {Aw{sel}} & addr;
  endfunction

  always_comb begin
    ld_w  = ld_fire;                             // u = x, v = y, A = D = 1, B = C = 0
    uv_wl = s1s_q.wl_valid;                      // u/v: late word W-1 of the last pass
    uv_w1 = s1s_q.w1l;                           // u/v: the W = 1 late word 0
    uv_pr = red1b && !s1b_q.first;               // u/v: word j-1 of this pass
    ln_b  = wr;                                  // lanes: b' (B or D)
    ln_a  = ln_b && !wr_fix;                     // lanes: a' (A or C; not in a fix pass)

    sel_ld = {NumMems{ld_w}};
    sel_wl = '0;
    sel_w1 = '0;
    sel_pr = '0;
    sel_ln = '0;
    sel_wl[MemU] = uv_wl && !s1s_q.wl_side;
    sel_wl[MemV] = uv_wl &&  s1s_q.wl_side;
    sel_w1[MemU] = uv_w1 && !s1s_q.pc.side;
    sel_w1[MemV] = uv_w1 &&  s1s_q.pc.side;
    sel_pr[MemU] = uv_pr && !p1b.side;
    sel_pr[MemV] = uv_pr &&  p1b.side;
    sel_ln[MemA] = ln_a && !wr_side;
    sel_ln[MemC] = ln_a &&  wr_side;
    sel_ln[MemB] = ln_b && !wr_side;
    sel_ln[MemD] = ln_b &&  wr_side;

    for (int k = 0; k < NumMems; k++) begin
      ld_src[k] = '0;
      ln_src[k] = '0;
    end
    ld_src[MemU] = ld_x;
    ld_src[MemX] = ld_x;
    ld_src[MemV] = ld_y;
    ld_src[MemY] = ld_y;
    ld_src[MemA] = Word'(ld_q.j == '0);
    ld_src[MemD] = Word'(ld_q.j == '0);
    ln_src[MemA] = wr_a;
    ln_src[MemC] = wr_a;
    ln_src[MemB] = wr_b;
    ln_src[MemD] = wr_b;

    for (int k = 0; k < NumMems; k++) begin
      we[k]    = clear_i | sel_ld[k] | sel_wl[k] | sel_w1[k] | sel_pr[k] | sel_ln[k];
      waddr[k] = pick_addr(clear_i, clear_addr_i) | pick_addr(sel_ld[k], ld_q.j)
               | pick_addr(sel_wl[k], s1s_q.wl_j) | pick_addr(sel_pr[k], s1b_q.jm1)
               | pick_addr(sel_ln[k], wr_idx);     // (the W = 1 late word goes to word 0)
      wdata[k] = pick(sel_ld[k], ld_src[k]) | pick(sel_wl[k], s1s_q.wl_data)
               | pick(sel_w1[k], r_w1) | pick(sel_pr[k], r_prev) | pick(sel_ln[k], ln_src[k]);
    end

    // Extensions: cleared by the load, the lanes' with word W-1.
    ext_d = ext_q;
    if (ld_fire) ext_d = '0;
    if (wr && wr_last) begin
      if (!wr_fix) begin
        if (wr_side) ext_d.c = wr_ext_a;
        else         ext_d.a = wr_ext_a;
      end
      if (wr_side) ext_d.d = wr_ext_b;
      else         ext_d.b = wr_ext_b;
    end
  end

`ifndef SYNTHESIS
  // At most one source writes a memory in a cycle (what makes the AND-OR above a priority
  // chain's equal).
  logic chk_q;   // out of reset (a register: rst_ni itself stays an asynchronous reset only)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) chk_q <= 1'b0;
    else         chk_q <= 1'b1;
  end
  for (genvar k = 0; k < NumMems; k++) begin : g_one_source
    assert property (@(posedge clk_i) disable iff (!chk_q)
                     $countones({sel_ld[k], sel_wl[k], sel_w1[k], sel_pr[k], sel_ln[k]}) <= 1)
      else $error("montu_inv: two write sources for scratch memory %0d", k);
    assert property (@(posedge clk_i) disable iff (!chk_q)
                     clear_i |-> !(sel_ld[k] | sel_wl[k] | sel_w1[k] | sel_pr[k] | sel_ln[k]))
      else $error("montu_inv: scratch memory %0d written by the engine during WIPE", k);
  end
`endif

  // ---------------------------------------------------------------------------------------------
  // S4: fix flags of a new D. GF(p): D < 0 (add x), D >= x (subtract x). GF(2^m):
  // deg D >= deg x  <=>  ext != 0, or D >= x, or (D ^ x) < D (D has the leading term of x).
  // ---------------------------------------------------------------------------------------------
  logic dge_now, dxlt_now;
  always_comb begin
    dge_now  = (s4_q.word > s4_q.x) | ((s4_q.word == s4_q.x) & (s4_q.first | s4_q.ge));
    dxlt_now = ((s4_q.word ^ s4_q.x) < s4_q.word)
             | (((s4_q.word ^ s4_q.x) == s4_q.word) & !s4_q.first & s4_q.xlt);
    // the D word the lanes write (D is side 1)
    s4_d = '{valid: wr && wr_side, first: (wr_idx == '0), last: wr_last, word: wr_b, x: wr_x,
             ext: wr_ext_b, ge: s4_q.valid ? dge_now : s4_q.ge,
             xlt: s4_q.valid ? dxlt_now : s4_q.xlt};
  end

  // ---------------------------------------------------------------------------------------------
  // Control: load, pass sequencing, flags.
  // ---------------------------------------------------------------------------------------------
  logic [Pw-1:0] red_end, fix_end;   // the periods - 1 for words_i
  assign red_end = ((Pw'(words_i) + Pw'(PeriodExtra) < Pw'(PeriodMin))
                    ? Pw'(PeriodMin) : Pw'(words_i) + Pw'(PeriodExtra)) - Pw'(1);
  assign fix_end = ((Pw'(words_i) + Pw'(FixExtra) < Pw'(FixMin))
                    ? Pw'(FixMin) : Pw'(words_i) + Pw'(FixExtra)) - Pw'(1);

  always_comb begin
    state_d     = state_q;
    cfg_d       = cfg_q;
    ld_d        = ld_q;
    ld_d.xy_cmp = 1'b0;
    fl_d        = fl_q;
    fl_d.gf_fixed = fl_q.gf_fixed || (s1.valid && s1_first && (dec.kind == KindFix));
    seq_d       = seq_q;
    seq_d.done  = 1'b0;
    seq_d.noinv = 1'b0;
    minv_d      = minv_q;

    // x >= y (the first pass's u >= v), one word behind the load: the compare of the loaded word
    // pair is registered first, so no compare follows the read of the register file. The last
    // word folds in during the cycle after the load, before any pass (StWait lasts >= 1 cycle).
    if (ld_q.xy_cmp) begin
      ld_d.xy_ge  = ld_q.xy_gt | (ld_q.xy_eq & ld_q.xy_ge);
      fl_d.u_ge_v = ld_d.xy_ge;
    end

    // S0: address words 0..W-1 of a pass every period cycles.
    if (seq_q.s0_on) begin
      seq_d.s0_cnt = (seq_q.s0_cnt >= ((state_q == StFix) ? cfg_q.fix_end : cfg_q.red_end))
                   ? '0 : seq_q.s0_cnt + Pw'(1);
    end

    // D flags from S4.
    if (s4_q.valid && s4_q.last) begin
      fl_d.d_neg = !cfg_q.gf && s4_q.ext[ExtBits-1];
      fl_d.d_fix = cfg_q.gf ? ((s4_q.ext != '0) | dge_now | dxlt_now)
                            : ((s4_q.ext != '0) | dge_now);
    end

    // u/v flags in S1c: of the last word of a reduction pass (W >= 2), or one cycle later of the
    // registered word (W = 1, w1l); the two never coincide (W is fixed within a MINV).
    if (s1c_q.en && s1c_q.flags) begin
      fl_d.u_ge_v = cmp_b.ge;
      if (!s1c_q.side) begin
        fl_d.u_odd  = cmp_b.r0_odd;
        fl_d.u_zero = !cmp_b.r0_nz && !cmp_b.nz_hi;
      end else begin
        fl_d.v_odd  = cmp_b.r0_odd;
        fl_d.v_one  = cmp_b.r0_one && !cmp_b.nz_hi;
      end
    end

    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          state_d       = StLoad;
          cfg_d         = '{gf: gf2m_i, one_bit: one_bit_i, words: words_i,
                            w_last: Aw'(words_i - Cw'(1)), red_end: red_end, fix_end: fix_end,
                            fix_go: fix_end + Pw'(1) - Pw'(KillLead)};
          ld_d.j        = '0;
          ld_d.xy_ge    = 1'b1;
          ld_d.x_hi_nz  = 1'b0;
          ld_d.y_hi_nz  = 1'b0;
          fl_d.gf_fixed = 1'b0;
        end
      end
      StLoad: begin
        if (ld_valid) begin
          ld_d.j      = ld_q.j + Aw'(1);
          ld_d.xy_cmp = 1'b1;
          ld_d.xy_gt  = (ld_x > ld_y);
          ld_d.xy_eq  = (ld_x == ld_y);
          if (ld_q.j == '0) begin
            ld_d.x_nz     = |ld_x;
            ld_d.y_nz     = |ld_y;
            ld_d.x_lo_one = (ld_x == Word'(1));
            ld_d.y_lo_one = (ld_y == Word'(1));
            ld_d.y_odd    = ld_y[0];
            fl_d.u_odd    = ld_x[0];
            fl_d.v_odd    = ld_y[0];
          end else begin
            ld_d.x_nz    = ld_q.x_nz | (|ld_x);
            ld_d.y_nz    = ld_q.y_nz | (|ld_y);
            ld_d.x_hi_nz = ld_q.x_hi_nz | (|ld_x);
            ld_d.y_hi_nz = ld_q.y_hi_nz | (|ld_y);
          end
          if (ld_q.j == cfg_q.w_last) begin
            // x = 0, y = 0 or both even: no inverse, before any pass.
            if (!ld_d.x_nz || !ld_d.y_nz || !(fl_d.u_odd || fl_d.v_odd)) begin
              state_d     = StIdle;
              seq_d.done  = 1'b1;
              seq_d.noinv = 1'b1;
            end else begin
              state_d     = StWait;
              fl_d.u_zero = 1'b0;
              fl_d.v_one  = ld_d.y_lo_one && !ld_d.y_hi_nz;
              fl_d.d_neg  = 1'b0;
              fl_d.d_fix  = ld_d.x_lo_one && !ld_d.x_hi_nz;   // D = 1 needs a fix only when x = 1
            end
          end
        end
      end
      StWait: begin
        if (!hen_busy) begin
          state_d      = StRun;
          seq_d.s0_on  = 1'b1;
          seq_d.s0_cnt = '0;
          minv_d       = hen_w;
        end
      end
      StRun: begin
        if (kill_fail) begin
          state_d     = StDrain;
          seq_d.s0_on = 1'b0;
          seq_d.drain = 3'(DrainCycles);
        end else if (kill_fix) begin
          // Let the last pass's D flags settle: the first fix pass addresses word 0 KillLead + 1
          // cycles later (5; 7 when pipelined).
          state_d      = StFix;
          seq_d.s0_cnt = cfg_q.fix_go;
        end
      end
      StDrain: begin
        // The tail of the last pass writes at most DrainCycles + 1 cycles after kill_fail, by
        // done_o.
        seq_d.drain = seq_q.drain - 3'd1;
        if (seq_q.drain == '0) begin
          state_d     = StIdle;
          seq_d.done  = 1'b1;
          seq_d.noinv = 1'b1;
        end
      end
      StFix: begin
        if (go_out) begin
          if (seq_q.s0_cnt >= Pw'(cfg_q.w_last)) seq_d.s0_on = 1'b0;
          if (out_last) begin     // W = 1: word 0 is the whole result
            state_d    = StIdle;
            seq_d.done = 1'b1;
          end else begin
            state_d = StOut;
          end
        end
      end
      StOut: begin
        if (seq_q.s0_cnt >= Pw'(cfg_q.w_last)) seq_d.s0_on = 1'b0;
        if (out_last) begin
          state_d    = StIdle;
          seq_d.done = 1'b1;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  // ---------------------------------------------------------------------------------------------
  // Flip-flops
  // ---------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      cfg_q   <= CfgReset;
      ld_q    <= '0;
      fl_q    <= '0;
      seq_q   <= '0;
      minv_q  <= '0;
      ext_q   <= '0;
      s1a_q   <= '0;
      s1s_q   <= '0;
      cmp_q   <= '0;
      s4_q    <= '0;
    end else begin
      state_q <= state_d;
      cfg_q   <= cfg_d;
      ld_q    <= ld_d;
      fl_q    <= fl_d;
      seq_q   <= seq_d;
      minv_q  <= minv_d;
      ext_q   <= ext_d;
      s1a_q   <= s1a_d;
      s1s_q   <= s1s_d;
      cmp_q   <= cmp_d;
      s4_q    <= s4_d;
    end
  end

  assign done_o       = seq_q.done;
  assign no_inverse_o = seq_q.noinv;
endmodule
