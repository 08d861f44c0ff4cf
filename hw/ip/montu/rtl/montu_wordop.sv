// Word-serial engine: every instruction that walks the W words of its operands once or twice,
// least significant word first, one word per cycle.
//
// Cycle c issues reads of word j; the words come out of the register file in cycle c+1 and go
// through four compute stages, each with its own carry chains:
//   A  the words of the operands
//   B  V and every one-pass result (one adder: a +- b, 3a, 3b, 3N, 5N; shifts; compare)
//   C  D = V -+ N (MADD MSUB MDBL); MLIN's S = +-A +-B and P_i = o*N - i*N
//   D  MLIN's E_i = S + P_i; the word to write
// With Pipelined = 0 the stages are wires: word j is processed and written in cycle c+1.
// With Pipelined = 1 a register ends each stage (A registers the memory's read data, D the
// write data), so every carry chain and every path holds at most one Word-bit adder, and word j
// is written in cycle c+5: each instruction that reads takes 4 cycles more.
// A word of rd is only written after the same word (and, for SHR1/SHRW, the next word) of every
// source was read: rd may equal ra, rb or the modulus register.
//   one pass  (ADD SUB SADD SSUB SHL1 SHR1 SHLW SHRW SHLX CMP MOV):  W + 1 (+ 4) cycles
//     SHLX: rd_j = (a_j << w) | (a_{j-1} >> (Word - w)); the top w bits of the last word go to
//     win_o (the unit's window register X), w = 1 .. 5
//   two passes (MADD MSUB MDBL): pass 1 computes the select bit of the constant-time
//     reduction, pass 2 recomputes and writes rd_j = sel ? D_j : V_j:   2W + 1 (+ 4) cycles
//       MADD  V = a + b,  D = V - N,  sel = carry(V) | no borrow(D)
//       MSUB  V = a - b,  D = V + N,  sel = borrow(V)
//       MDBL  V = 2a,     D = V - N,  sel = carry(V) | no borrow(D)
//             GF(2^m): V = x*a, D = V xor N, sel = (D < V), i.e. bit deg(N) of V is set
//             (V is L+1 bits; its bit L is equal in V and D, so the low L bits decide)
//       (GF(2^m) MADD/MSUB: V = a xor b, sel = 0)
//   MLIN (two passes): rd = ca*a + cb*b mod N, constants ca, cb in -3 .. 3; both passes run
//     seven carry chains E_i = V + (o - i)*N, i = 0 .. 6; pass 1 keeps the signs of E_1 .. E_6,
//     pass 2 writes E_s (below)
//     GF(2^m): rd_j = (ca odd ? a_j : 0) xor (cb odd ? b_j : 0)
//   CSWAP: word j is read once and written twice (ra_j, then rb_j): 2W + 1 (+ 4) cycles
//   LDZ, LDONE: write only, no read, no stages: W cycles
// The select bits (sel, s) are latched where pass 1's last word leaves stage C (sel) or D (s),
// before pass 2's first word needs them one stage later: pass 2 follows pass 1 without a gap.
module montu_wordop
  import montu_pkg::*;
#(
  parameter int unsigned Word      = 64,
  parameter int unsigned MaxWords  = 64,
  parameter bit          Pipelined = 1'b0,   // a register after each stage (4 cycles more)
  localparam int unsigned Jw       = $clog2(MaxWords + 5)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,     // first cycle of the command
  input  logic [7:0]      op_i,        // held for the whole command
  input  logic            gf2m_i,
  input  logic [Jw-1:0]   s_i,         // W
  input  logic            cond_i,      // CSWAP: the selected flag
  input  logic [2:0]      shamt_i,     // SHLX: window width w (1 .. 5, checked at decode)
  input  logic [3:0]      ca_i,        // MLIN: constant ca, two's complement (-3 .. 3, checked
  input  logic [3:0]      cb_i,        //   at decode), and cb
  output logic [4:0]      win_o,       // SHLX: the w bits shifted out of the top, valid with done_o
  output logic [Jw-1:0]   idx_o,       // word index read on ports a and b
  output logic [Jw-1:0]   n_idx_o,     // word index read on port n
  output logic            n_from_ra_o, // port n reads ra (SHR1/SHRW read word j+1)
  input  logic [Word-1:0] a_i,
  input  logic [Word-1:0] b_i,
  input  logic [Word-1:0] n_i,
  output logic            we_o,
  output logic [1:0]      wreg_o,      // 0: rd, 1: ra, 2: rb
  output logic [Jw-1:0]   widx_o,
  output logic [Word-1:0] wdata_o,
  output logic            done_o,      // last cycle of the command
  output logic [3:0]      flags_o,     // new flag values, valid with done_o
  output logic [3:0]      flags_we_o   // which flags the instruction sets
);
  // ---------------------------------------------------------------------------------------
  // Instruction classes
  // ---------------------------------------------------------------------------------------
  // Decoded from op_i once, at start, and registered (op_i is held for the command): after the
  // start cycle every select comes from a flip-flop, and stages B and C select by a 4-bit kind
  // (one LUT per compare) instead of the 8-bit opcode (#23: the decode put 7-8 LUT levels
  // between the instruction register and the issue counters and stage B's result register).
  // Only the start cycle itself decodes op_i (start_dec).
  typedef enum logic [3:0] {
    KMov, KAdd, KSub, KShl1, KShr1, KShlw, KShlx, KShrw, KCmp, KMadd, KMsub, KMdbl, KMlin, KCswap
  } kind_e;

  typedef struct packed {
    logic  two_pass;     // MADD MSUB MDBL MLIN
    logic  interleave;   // CSWAP
    logic  direct;       // LDZ LDONE
    logic  writes;       // all but CMP
    logic  ldone;
    logic  signed_fl;    // SADD SSUB: they also set Neg
    logic  mod3;         // MADD, MSUB, MDBL: D or V by the select bit
    kind_e kind;         // what stages B and C compute (ADD/SADD and SUB/SSUB share one)
  } cls_t;

  function automatic cls_t op_class(logic [7:0] op);
    cls_t c;
    c            = '0;
    c.two_pass   = (op == OpMadd) || (op == OpMsub) || (op == OpMdbl) || (op == OpMlin);
    c.interleave = (op == OpCswap);
    c.direct     = (op == OpLdz) || (op == OpLdone);
    c.writes     = (op != OpCmp);
    c.ldone      = (op == OpLdone);
    c.signed_fl  = (op == OpSadd) || (op == OpSsub);
    c.mod3       = (op == OpMadd) || (op == OpMsub) || (op == OpMdbl);
    unique case (op)
      OpAdd, OpSadd: c.kind = KAdd;
      OpSub, OpSsub: c.kind = KSub;
      OpShl1:        c.kind = KShl1;
      OpShr1:        c.kind = KShr1;
      OpShlw:        c.kind = KShlw;
      OpShlx:        c.kind = KShlx;
      OpShrw:        c.kind = KShrw;
      OpCmp:         c.kind = KCmp;
      OpMadd:        c.kind = KMadd;
      OpMsub:        c.kind = KMsub;
      OpMdbl:        c.kind = KMdbl;
      OpMlin:        c.kind = KMlin;
      OpCswap:       c.kind = KCswap;
      default:       c.kind = KMov;   // MOV (LDZ and LDONE never reach the stages)
    endcase
    return c;
  endfunction

  cls_t start_dec, cls_q;
  assign start_dec = op_class(op_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      cls_q <= '0;
    else if (start_i) cls_q <= start_dec;
  end

  // ---------------------------------------------------------------------------------------
  // What travels with each word through the stages
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    logic          v;       // a word of an instruction that reads
    logic          pass;    // second pass (two-pass ops), rb_j's turn (CSWAP)
    logic          first;   // word 0 of its pass: carry chains start
    logic          last;    // word W-1 of its pass
    logic          fin;     // the last word of the command
    logic [Jw-1:0] j;
  } ctl_t;

  typedef struct packed {
    logic [3:0] fl;         // flag values (the last word's are the instruction's)
    logic [3:0] fl_we;
    logic [4:0] win;        // SHLX window
  } status_t;

  localparam int unsigned MlinChains = 6;   // E_1 .. E_6 decide s; E_0 is only written

  typedef struct packed {   // stage A -> B
    ctl_t            ctl;
    logic [Word-1:0] a, b, n;
  } ab_t;

  typedef struct packed {   // stage B -> C
    ctl_t                             ctl;
    status_t                          st;
    logic [Word-1:0]                  x;     // one-pass result; V (MADD MSUB MDBL); GF(2^m) MLIN
    logic                             vc;    // carry of V (MADD MSUB), top bit of a (MDBL)
    logic [MlinChains:1][Word-1:0]    nm;    // digits of k*N, k = 1 .. 6
    logic [MlinChains:2][2:0]         nh;    // overflow of k*N, k = 2 .. 6 (at the last word)
    logic [Word-1:0]                  sa, sb;   // digits of +-A, +-B (ones' complement if -)
    logic [3:0]                       hab;   // overflow of +-A +-B, signed (-6 .. 4)
  } bc_t;

  typedef struct packed {   // stage C -> D
    ctl_t                             ctl;
    status_t                          st;
    logic [Word-1:0]                  x, d, s;
    logic [MlinChains:0][Word-1:0]    p;     // digits of P_i = o*N - i*N
    logic                             cs;    // carry out of S
    logic [MlinChains:1]              cp;    // carries out of P_i
    logic [MlinChains:1][4:0]         base;  // base_i, signed (-12 .. 8)
  } cd_t;

  typedef struct packed {   // stage D -> write
    ctl_t            ctl;
    status_t         st;
    logic [Word-1:0] r;
  } dw_t;

  // ---------------------------------------------------------------------------------------
  // Issue: one read per cycle; the control of word j reaches stage A with its data
  // ---------------------------------------------------------------------------------------
  logic          iss_q, pass_q;
  logic [Jw-1:0] j_q;
  logic          issuing, iss_last_word;
  ctl_t          ctl_a_q;

  // W - 1, registered: s_i changes only with SETMMI, two clocks or more before any start_i, so
  // the last-word test compares two registers (#23: s_i - 1's carry chain led the pipelined
  // unit's worst path, into the response capture)
  logic [Jw-1:0] s_last_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s_last_q <= '0;
    else         s_last_q <= s_i - Jw'(1);
  end

  // w1_q: W = 1, registered like s_last_q
  logic w1_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) w1_q <= 1'b0;
    else         w1_q <= (s_i == Jw'(1));
  end

  // After the start cycle (iss_q) the issue follows the registered classes. In the start cycle
  // j_q = 0 and pass_q = 0 (asserted below), so word 0 of pass 0 issues and the next state
  // depends only on start_dec and W = 1.
  logic iss_last_run, iss_last_start;
  assign issuing        = start_i | iss_q;
  assign iss_last_word  = (j_q == s_last_q);
  assign iss_last_run   = iss_q & iss_last_word & (pass_q | ~(cls_q.two_pass | cls_q.interleave));
  assign iss_last_start = start_i & w1_q & ~(start_dec.two_pass | start_dec.interleave);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iss_q   <= 1'b0;
      pass_q  <= 1'b0;
      j_q     <= '0;
      ctl_a_q <= '0;
    end else begin
      if (start_i) begin
        iss_q  <= ~iss_last_start;
        j_q    <= (w1_q || start_dec.interleave) ? '0 : Jw'(1);
        pass_q <= start_dec.interleave || (w1_q && start_dec.two_pass);
      end else if (iss_q) begin
        if (iss_last_run) begin
          iss_q  <= 1'b0;
          j_q    <= '0;
          pass_q <= 1'b0;
        end else if (cls_q.interleave) begin
          pass_q <= ~pass_q;
          if (pass_q) j_q <= j_q + Jw'(1);
        end else if (iss_last_word) begin
          j_q    <= '0;
          pass_q <= 1'b1;
        end else begin
          j_q <= j_q + Jw'(1);
        end
      end
      ctl_a_q.v     <= start_i ? ~start_dec.direct : (iss_q & ~cls_q.direct);
      ctl_a_q.pass  <= pass_q;
      ctl_a_q.j     <= j_q;
      ctl_a_q.first <= (j_q == '0);
      ctl_a_q.last  <= iss_last_word;
      ctl_a_q.fin   <= start_i ? (iss_last_start & ~start_dec.direct)
                               : (iss_last_run & ~cls_q.direct);
    end
  end

  // ---------------------------------------------------------------------------------------
  // Stage boundaries: a register each with Pipelined = 1, wires otherwise
  // ---------------------------------------------------------------------------------------
  ab_t ab_d, ab_q;
  bc_t bc_d, bc_q;
  cd_t cd_d, cd_q;
  dw_t dw_d, dw_q;

  assign ab_d = '{ctl: ctl_a_q, a: a_i, b: b_i, n: n_i};

  montu_stage_reg #(.T(ab_t), .Stages(int'(Pipelined))) u_ab_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(ab_d), .q_o(ab_q)
  );
  montu_stage_reg #(.T(bc_t), .Stages(int'(Pipelined))) u_bc_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(bc_d), .q_o(bc_q)
  );
  montu_stage_reg #(.T(cd_t), .Stages(int'(Pipelined))) u_cd_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(cd_d), .q_o(cd_q)
  );
  montu_stage_reg #(.T(dw_t), .Stages(int'(Pipelined))) u_dw_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(dw_d), .q_o(dw_q)
  );

  // {carry out, x + y + c}: the carry enters as an extra low bit (1 + c carries c into bit 0),
  // so synthesis sees a two-operand add, one carry chain
  function automatic logic [Word:0] add_ci(logic [Word-1:0] x, logic [Word-1:0] y, logic c);
    logic [Word:0] sum;
    logic          unused_lsb;
    {sum, unused_lsb} = {1'b0, x, 1'b1} + {1'b0, y, c};
    return sum;
  endfunction

  // x + q >= 0 for a 5-bit two's-complement x and q in 0 .. 3, as logic (no carry chain)
  function automatic logic at_least_neg(logic [4:0] x, logic [1:0] q);
    unique case (q)
      2'd0:    return ~x[4];
      2'd1:    return ~x[4] | (&x[3:0]);                  // x >= -1
      2'd2:    return ~x[4] | (&x[3:1]);                  // x >= -2
      default: return ~x[4] | (x[3] & x[2] & (x[1] | x[0]));   // x >= -3
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------
  // MLIN, GF(p): rd = V + (o - s)*N, V = ca*a + cb*b over the integers, o = the sum of the
  // magnitudes of the negative constants (0 .. 6), s = #{i in 1 .. 6 : V + (o - i)*N >= 0}.
  // (For ra, rb < N, V + o*N lies in [0, 6N], so rd = V mod N.)
  // Every number is a stream of Word-bit digits, least significant first, with one-bit carries
  // between words, and an overflow h*2^L that is known after the last word:
  //   k*N, k = 0 .. 6 (stage B), shared: 2N and 4N are the digits shifted left with the top
  //       bits of the previous digit shifted in, 3N = N + 2N and 5N = N + 4N adders, 6N = 2*(3N)
  //   A = |ca|*a: 0, a, 2a or 3a = a + 2a (an adder, stage B); likewise B
  //   S = (+-A) + (+-B) (stage C), where -A = ~A + 1 - 2^L: the +1 of A is the carry into word
  //       0 of S, the +1 of B the carry into word 0 of every E_i
  //   P_i = o*N - i*N, i = 0 .. 6 (stage C): subtractors on the modulus side
  //   E_i = S + P_i = V + (o - i)*N (stage D)
  // After the last word E_i = Elow_i + (q_i + base_i)*2^L with Elow_i in [0, 2^L), q_i the
  // carries out of S, P_i and E_i, base_i = hA + hB + h_o - h_i - 1 from the overflows (hA of
  // +-A, h_k of k*N), so E_i >= 0 iff q_i + base_i >= 0. Pass 1 latches the signs of E_1 .. E_6
  // (s is their number of ones); pass 2 recomputes every chain and writes Elow_s word by word.
  // ---------------------------------------------------------------------------------------
  // The constants' signs, magnitudes and o, decoded from ca_i and cb_i at start and registered
  // (the constants are held for the command, and no word reaches stage B before the cycle after
  // start_i in either build): stages B and C then select from flip-flops (#23: the negate and
  // add that formed o from the instruction register led the pipelined unit's worst path, into
  // the P_i adders of stage C through the 7:1 multiplexer of k*N).
  typedef struct packed {
    logic       neg_a, neg_b;
    logic [1:0] mag_a, mag_b;   // |ca|, |cb|
    logic [2:0] o;
  } lin_cfg_t;

  function automatic lin_cfg_t lin_decode(logic [3:0] ca, logic [3:0] cb);
    lin_cfg_t c;
    c.neg_a = ca[3];
    c.neg_b = cb[3];
    c.mag_a = 2'(c.neg_a ? (4'd0 - ca) : ca);
    c.mag_b = 2'(c.neg_b ? (4'd0 - cb) : cb);
    c.o     = 3'(c.neg_a ? c.mag_a : 2'd0) + 3'(c.neg_b ? c.mag_b : 2'd0);
    return c;
  endfunction

  lin_cfg_t   lin_q;
  logic [1:0] lin_mag_a, lin_mag_b;
  logic       lin_neg_a, lin_neg_b;
  logic [2:0] lin_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      lin_q <= '0;
    else if (start_i) lin_q <= lin_decode(ca_i, cb_i);
  end

  assign lin_neg_a = lin_q.neg_a;
  assign lin_neg_b = lin_q.neg_b;
  assign lin_mag_a = lin_q.mag_a;
  assign lin_mag_b = lin_q.mag_b;
  assign lin_o     = lin_q.o;

  // ---------------------------------------------------------------------------------------
  // Stage B: V, the one-pass results, k*N, |ca|*a and |cb|*b
  // ---------------------------------------------------------------------------------------
  logic            c1_q, eq_q, bit_q, cbit_q;            // carry of a +- b, ==, a's top bit
  logic [Word-1:0] prevw_q, hold_q;                      // previous a word; CSWAP's rb_j
  logic            lin_c3_q, lin_c5_q, lin_ca3_q, lin_cb3_q;
  logic [1:0]      lin_ntop_q;
  logic            lin_btop_q, lin_n3top_q;
  logic            c1_d, eq_d, cbit_d;
  logic            lin_c3_d, lin_c5_d, lin_ca3_d, lin_cb3_d;

  always_comb begin
    logic            first;
    logic [Word-1:0] a, b, n, shl, shr, shx, v, r, lin_a2, lin_b2, lin_a3, lin_b3, da, db;
    logic [Word-1:0] nm2, nm3, nm4;
    logic [Word:0]   sum_ab, dif_ab, add_sub;
    logic [1:0]      ntop_in, ha, hb;
    logic [2:0]      nh3;
    logic [3:0]      fl, fl_we;

    first  = ab_q.ctl.first;
    a      = ab_q.a;
    b      = ab_q.b;
    n      = ab_q.n;
    sum_ab = {1'b0, a} + {1'b0, b} + {{Word{1'b0}}, (first ? 1'b0 : c1_q)};
    dif_ab = {1'b0, a} - {1'b0, b} - {{Word{1'b0}}, (first ? 1'b0 : c1_q)};
    // 2a: shift left, bit in = top bit of the previous word
    shl    = {a[Word-2:0], (first ? 1'b0 : bit_q)};
    // a >> 1: bit out of word j+1 (port n), 0 above the top word
    shr    = {(ab_q.ctl.last ? 1'b0 : n[0]), a[Word-1:1]};
    // a << w with the top w bits of the previous word shifted in (SHLX)
    shx    = (a << shamt_i) | (first ? {Word{1'b0}} : (prevw_q >> (7'(Word) - 7'(shamt_i))));

    // V of the two-pass instructions
    unique case (cls_q.kind)
      KMadd: v = gf2m_i ? (a ^ b) : sum_ab[Word-1:0];
      KMsub: v = gf2m_i ? (a ^ b) : dif_ab[Word-1:0];
      KMdbl: v = shl;
      default: v = a;
    endcase

    c1_d   = c1_q;
    eq_d   = (first ? 1'b1 : eq_q) & (a == b);
    cbit_d = first ? a[0] : cbit_q;
    fl     = '0;
    fl_we  = '0;
    unique case (cls_q.kind)
      KAdd, KSub: begin   // C: carry (ADD) or borrow (SUB)
        add_sub        = (cls_q.kind == KSub) ? dif_ab : sum_ab;
        r              = gf2m_i ? (a ^ b) : add_sub[Word-1:0];
        c1_d           = gf2m_i ? 1'b0 : add_sub[Word];
        fl[FlagC]      = c1_d;
        fl[FlagNeg]    = gf2m_i ? 1'b0 : r[Word-1];
        fl_we[FlagC]   = 1'b1;
        fl_we[FlagNeg] = cls_q.signed_fl;
      end
      KShl1: begin
        r = shl;
        fl[FlagC]    = a[Word-1];
        fl_we[FlagC] = 1'b1;
      end
      KShr1: begin
        r = shr;
        fl[FlagC]    = cbit_d;
        fl_we[FlagC] = 1'b1;
      end
      KShlw: r = first ? '0 : prevw_q;
      KShlx: r = shx;
      KShrw: r = ab_q.ctl.last ? '0 : n;
      KCmp: begin
        r    = a;
        c1_d = dif_ab[Word];
        fl[FlagEq]    = eq_d;
        fl[FlagLt]    = c1_d;
        fl_we[FlagEq] = 1'b1;
        fl_we[FlagLt] = 1'b1;
      end
      KMadd: begin
        r    = v;
        c1_d = gf2m_i ? 1'b0 : sum_ab[Word];
      end
      KMsub: begin
        r    = v;
        c1_d = dif_ab[Word];
      end
      KMdbl:   r = v;
      KMlin:   r = (ca_i[0] ? a : '0) ^ (cb_i[0] ? b : '0);   // GF(2^m); GF(p) writes E_s
      KCswap:  r = ab_q.ctl.pass ? hold_q : (cond_i ? b : a);
      default: r = a;   // MOV (LDZ and LDONE never come here)
    endcase

    // k*N
    ntop_in = first ? 2'b00 : lin_ntop_q;
    nm2     = {n[Word-2:0], ntop_in[1]};
    nm4     = {n[Word-3:0], ntop_in};
    {lin_c3_d, nm3} = add_ci(n, nm2, first ? 1'b0 : lin_c3_q);
    {lin_c5_d, bc_d.nm[5]} = add_ci(n, nm4, first ? 1'b0 : lin_c5_q);
    bc_d.nm[1] = n;
    bc_d.nm[2] = nm2;
    bc_d.nm[3] = nm3;
    bc_d.nm[4] = nm4;
    bc_d.nm[6] = {nm3[Word-2:0], (first ? 1'b0 : lin_n3top_q)};
    nh3        = 3'(lin_c3_d) + {2'b00, n[Word-1]};
    bc_d.nh[2] = {2'b00, n[Word-1]};
    bc_d.nh[3] = nh3;
    bc_d.nh[4] = {1'b0, n[Word-1:Word-2]};
    bc_d.nh[5] = 3'(lin_c5_d) + {1'b0, n[Word-1:Word-2]};
    bc_d.nh[6] = {nh3[1:0], nm3[Word-1]};

    // |ca|*a and |cb|*b (the top bit of the previous a word is bit_q)
    lin_a2 = {a[Word-2:0], (first ? 1'b0 : bit_q)};
    lin_b2 = {b[Word-2:0], (first ? 1'b0 : lin_btop_q)};
    {lin_ca3_d, lin_a3} = add_ci(a, lin_a2, first ? 1'b0 : lin_ca3_q);
    {lin_cb3_d, lin_b3} = add_ci(b, lin_b2, first ? 1'b0 : lin_cb3_q);
    unique case (lin_mag_a)
      2'd1:    begin da = a;      ha = 2'd0; end
      2'd2:    begin da = lin_a2; ha = {1'b0, a[Word-1]}; end
      2'd3:    begin da = lin_a3; ha = 2'(lin_ca3_d) + 2'(a[Word-1]); end
      default: begin da = '0;     ha = 2'd0; end
    endcase
    unique case (lin_mag_b)
      2'd1:    begin db = b;      hb = 2'd0; end
      2'd2:    begin db = lin_b2; hb = {1'b0, b[Word-1]}; end
      2'd3:    begin db = lin_b3; hb = 2'(lin_cb3_d) + 2'(b[Word-1]); end
      default: begin db = '0;     hb = 2'd0; end
    endcase

    bc_d.ctl  = ab_q.ctl;
    bc_d.st   = '{fl: fl, fl_we: fl_we, win: 5'(a >> (7'(Word) - 7'(shamt_i)))};
    bc_d.x    = r;
    bc_d.vc   = (cls_q.kind == KMdbl) ? a[Word-1] : c1_d;
    bc_d.sa   = da ^ {Word{lin_neg_a}};
    bc_d.sb   = db ^ {Word{lin_neg_b}};
    bc_d.hab  = (lin_neg_a ? (4'd15 - 4'(ha)) : 4'(ha))     // -(hA + 1) for -A
              + (lin_neg_b ? (4'd15 - 4'(hb)) : 4'(hb));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c1_q        <= 1'b0;
      eq_q        <= 1'b0;
      bit_q       <= 1'b0;
      cbit_q      <= 1'b0;
      prevw_q     <= '0;
      hold_q      <= '0;
      lin_c3_q    <= 1'b0;
      lin_c5_q    <= 1'b0;
      lin_ca3_q   <= 1'b0;
      lin_cb3_q   <= 1'b0;
      lin_ntop_q  <= '0;
      lin_btop_q  <= 1'b0;
      lin_n3top_q <= 1'b0;
    end else if (ab_q.ctl.v) begin
      c1_q        <= c1_d;
      eq_q        <= eq_d;
      bit_q       <= ab_q.a[Word-1];
      cbit_q      <= cbit_d;
      prevw_q     <= ab_q.a;
      lin_c3_q    <= lin_c3_d;
      lin_c5_q    <= lin_c5_d;
      lin_ca3_q   <= lin_ca3_d;
      lin_cb3_q   <= lin_cb3_d;
      lin_ntop_q  <= ab_q.n[Word-1:Word-2];
      lin_btop_q  <= ab_q.b[Word-1];
      lin_n3top_q <= bc_d.nm[3][Word-1];
      if (!ab_q.ctl.pass) hold_q <= cond_i ? ab_q.a : ab_q.b;   // CSWAP: new rb_j
    end
  end

  // ---------------------------------------------------------------------------------------
  // Stage C: D = V -+ N and the select bit; MLIN's S and P_i
  // ---------------------------------------------------------------------------------------
  logic                c2_q, sel_q, lin_cs_q;
  logic [MlinChains:1] lin_cp_q;
  logic                c2_d, sel_d;

  always_comb begin
    logic                          first;
    logic [Word:0]                 sum_vn, dif_vn, dif_dv;
    logic [7:0][Word-1:0]          nm;   // k*N, k = 0 .. 7 (7: 0)
    logic [7:0][2:0]               nh;

    first  = bc_q.ctl.first;
    sum_vn = {1'b0, bc_q.x} + {1'b0, bc_q.nm[1]} + {{Word{1'b0}}, (first ? 1'b0 : c2_q)};
    dif_vn = {1'b0, bc_q.x} - {1'b0, bc_q.nm[1]} - {{Word{1'b0}}, (first ? 1'b0 : c2_q)};
    // GF(2^m) MDBL: borrow chain of (V xor N) - V decides whether deg(x*a) == deg N
    dif_dv = {1'b0, bc_q.x ^ bc_q.nm[1]} - {1'b0, bc_q.x} - {{Word{1'b0}}, (first ? 1'b0 : c2_q)};

    c2_d  = c2_q;
    sel_d = 1'b0;
    unique case (cls_q.kind)
      KMadd: begin
        c2_d  = dif_vn[Word];
        sel_d = ~gf2m_i & (bc_q.vc | ~c2_d);
      end
      KMsub: begin
        c2_d  = sum_vn[Word];
        sel_d = ~gf2m_i & bc_q.vc;
      end
      KMdbl: begin
        c2_d  = gf2m_i ? dif_dv[Word] : dif_vn[Word];
        // carry out of 2a = top bit of a; GF(2^m): the degree test alone
        sel_d = gf2m_i ? c2_d : (bc_q.vc | ~c2_d);
      end
      default: ;
    endcase

    nm    = '0;
    nh    = '0;
    for (int unsigned k = 1; k <= MlinChains; k++) nm[k] = bc_q.nm[k];
    for (int unsigned k = 2; k <= MlinChains; k++) nh[k] = bc_q.nh[k];

    cd_d.ctl = bc_q.ctl;
    cd_d.st  = bc_q.st;
    cd_d.x   = bc_q.x;
    if (cls_q.kind == KMsub) cd_d.d = sum_vn[Word-1:0];
    else if (gf2m_i)         cd_d.d = bc_q.x ^ bc_q.nm[1];
    else                     cd_d.d = dif_vn[Word-1:0];
    {cd_d.cs, cd_d.s} = add_ci(bc_q.sa, bc_q.sb, first ? lin_neg_a : lin_cs_q);
    cd_d.p[0] = nm[lin_o];
    for (int unsigned i = 1; i <= MlinChains; i++) begin
      {cd_d.cp[i], cd_d.p[i]} = add_ci(nm[lin_o], ~nm[i], first ? 1'b1 : lin_cp_q[i]);
      cd_d.base[i] = 5'({{1{bc_q.hab[3]}}, bc_q.hab}) + 5'(nh[lin_o]) - 5'(nh[i]) - 5'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c2_q     <= 1'b0;
      sel_q    <= 1'b0;
      lin_cs_q <= 1'b0;
      lin_cp_q <= '0;
    end else if (bc_q.ctl.v) begin
      c2_q     <= c2_d;
      lin_cs_q <= cd_d.cs;
      lin_cp_q <= cd_d.cp;
      if (!bc_q.ctl.pass && bc_q.ctl.last) sel_q <= sel_d;   // end of pass 1
    end
  end

  // ---------------------------------------------------------------------------------------
  // Stage D: MLIN's E_i and their signs; the word to write
  // ---------------------------------------------------------------------------------------
  logic [MlinChains:0] lin_ce_q, lin_ce_d;   // carries of E_i
  logic [MlinChains:1] lin_ge_q, lin_ge;     // E_i >= 0 (latched at the end of pass 1)

  always_comb begin
    logic [7:0][Word-1:0] e;      // E_0 .. E_6 (7: 0)
    logic [Word-1:0]      e_s;    // E_s
    logic [MlinChains+1:0] ge;    // 1, lin_ge_q, 0: a thermometer code

    e = '0;
    for (int unsigned i = 0; i <= MlinChains; i++) begin
      {lin_ce_d[i], e[i]} = add_ci(cd_q.s, cd_q.p[i], cd_q.ctl.first ? lin_neg_b : lin_ce_q[i]);
    end
    for (int unsigned i = 1; i <= MlinChains; i++) begin
      // the carry out of E_i comes last
      lin_ge[i] = lin_ce_d[i] ? at_least_neg(cd_q.base[i], 2'(cd_q.cs) + 2'(cd_q.cp[i]) + 2'd1)
                              : at_least_neg(cd_q.base[i], 2'(cd_q.cs) + 2'(cd_q.cp[i]));
    end
    // E_i does not grow with i, so lin_ge_q is 1 .. 1 0 .. 0 and s is the number of ones:
    // E_s is the chain where the ones end (an AND-OR of flip-flop selects, no count to decode)
    ge  = {1'b0, lin_ge_q, 1'b1};
    e_s = '0;
    for (int unsigned i = 0; i <= MlinChains; i++) begin
      e_s = e_s | (e[i] & {Word{ge[i] & ~ge[i+1]}});
    end

    dw_d.ctl = cd_q.ctl;
    dw_d.st  = cd_q.st;
    if (cls_q.mod3)                             dw_d.r = sel_q ? cd_q.d : cd_q.x;
    else if ((cls_q.kind == KMlin) && !gf2m_i)  dw_d.r = e_s;   // written in pass 2: Elow_s
    else                                        dw_d.r = cd_q.x;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lin_ce_q <= '0;
      lin_ge_q <= '0;
    end else if (cd_q.ctl.v) begin
      lin_ce_q <= lin_ce_d;
      if (!cd_q.ctl.pass && cd_q.ctl.last) lin_ge_q <= lin_ge;   // end of pass 1
    end
  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------
  assign idx_o       = j_q;
  assign n_from_ra_o = (op_i == OpShr1) || (op_i == OpShrw);
  assign n_idx_o     = n_from_ra_o ? (j_q + Jw'(1)) : j_q;

  // LDZ and LDONE write from the start cycle on (start_dec), the others from stage D (cls_q)
  logic direct_now, ldone_now;
  assign direct_now = start_i ? start_dec.direct : cls_q.direct;
  assign ldone_now  = start_i ? start_dec.ldone : cls_q.ldone;

  always_comb begin
    if (direct_now) begin
      we_o    = issuing;
      widx_o  = j_q;
      wreg_o  = 2'd0;
      wdata_o = {{(Word-1){1'b0}}, ldone_now && (j_q == '0)};
      done_o  = issuing & iss_last_word;
    end else begin
      // two-pass ops write in pass 2 only; CSWAP writes ra_j in pass 0 and rb_j in pass 1
      we_o    = dw_q.ctl.v & cls_q.writes & (dw_q.ctl.pass | ~cls_q.two_pass);
      widx_o  = dw_q.ctl.j;
      wreg_o  = cls_q.interleave ? (dw_q.ctl.pass ? 2'd2 : 2'd1) : 2'd0;
      wdata_o = dw_q.r;
      done_o  = dw_q.ctl.fin;
    end
    win_o      = dw_q.st.win;
    flags_o    = dw_q.st.fl;
    flags_we_o = (done_o && !direct_now) ? dw_q.st.fl_we : 4'b0;   // LDZ, LDONE: none
  end

`ifndef SYNTHESIS
  // the registered W - 1 is the current one whenever words issue; checked from the first reset
  // on (before it the flip-flops hold whatever the simulator started them with: the declaration's
  // initial value, simulation only, then the first reset sets reset_seen_q)
  /* verilator lint_off SYNCASYNCNET */
  /* verilator lint_off PROCASSINIT */
  logic reset_seen_q = 1'b0;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) reset_seen_q <= 1'b1;
  end
  /* verilator lint_on PROCASSINIT */
  LastWordRegistered: assert property (@(posedge clk_i) disable iff (!(rst_ni && reset_seen_q))
      issuing |-> (s_last_q == s_i - Jw'(1)))
    else $error("montu_wordop: W changed less than a clock before a word instruction");
  // the issue counters rest at word 0 of pass 0: the start cycle's next state relies on it
  IssueRestsAtWordZero: assert property (@(posedge clk_i) disable iff (!(rst_ni && reset_seen_q))
      !iss_q |-> (j_q == '0 && !pass_q))
    else $error("montu_wordop: the issue counters did not return to word 0 of pass 0");
  // the registered classes are the instruction's for the whole command
  ClassRegistered: assert property (@(posedge clk_i) disable iff (!(rst_ni && reset_seen_q))
      (iss_q || ab_q.ctl.v || bc_q.ctl.v || cd_q.ctl.v || dw_q.ctl.v) |-> (cls_q == start_dec))
    else $error("montu_wordop: op_i changed during its command");
  // MLIN's registered constants are the instruction's whenever a word is in stage B or C
  LinConstantsRegistered: assert property (@(posedge clk_i) disable iff (!(rst_ni && reset_seen_q))
      (ab_q.ctl.v || bc_q.ctl.v) |-> (lin_q == lin_decode(ca_i, cb_i)))
    else $error("montu_wordop: MLIN's constants changed while its words were in flight");
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
