// A "right" module of Fig. 8 (cilardo2008): the (w/4 x w/4)-bit block of the word unit for
// digit rows t = Group*Digits .. Group*Digits + Digits - 1 (w = 64: a 16x16 module, 8 rows),
// i.e. the parallel unit of Section 4 restricted to the word's columns [16k, 16k+16) of those
// rows. Per row t, in the order of Fig. 6:
//   booth encoder (Table 1) on (b_{2t+1}, b_{2t}, b_{2t-1}) -> PPG -> CSA:  (S, C) += AA_t
//   first word:  sp = digit t of the running sum (read in carry-save form, see below)
//                -> Montgomery encoder (Table 2, with n_1) -> quotient digit Q_t, stored
//   later words: Q_t = the digit stored when the row's first word passed (first_word = 0)
//   MMG -> CSA:  (S, C) += NN_t
// Only the columns [16k, 16k+16) of AA_t and NN_t are added here; the left module of the next
// stage adds their other columns with the digits this module hands it (bd_o, qd_o).
//
// Two's complement without sign extension: a multiple enters as its w+2 bits with the sign bit
// inverted (Burgess); the constant K of the inverted sign bits is in the pair the word unit
// starts from. The "+1" of a negative multiple (ca_t, cn_t) goes to column 2t of row t+1's
// vectors, a free slot since that row starts at column 2t+2 (Fig. 6).
//
// First word (Alg. 2 step 4 merged into the array): the columns below the current digit are
// not added up. Instead, after row t the two columns of digit t are "retired": their carry-save
// bits, ca_t, cn_t and the carry gam from the digits below are summed in a 4-bit adder (the sum
// is 0 mod 4 by construction of Q_t), the bits are cleared and the carry (0..2) goes to digit
// t+1, whose sp is then (s + c + gam + ca_{t}) mod 4 -- the paper's "MMG selection network with
// more inputs" that postpones the sum of the least significant bits {s1, s0, c0}. On a first
// word ca_t/cn_t therefore do not go to the free slots (they are in the retirement sum). In
// GF(2^n) c, gam, ca and cn are all 0 and the same logic reduces to sp = s (a GF(2) sum).
module cilardo_right
  import cilardo_pkg::*;
#(
  parameter  int unsigned Word   = 64,
  parameter  int unsigned Group  = 0,             // k = 0 .. 3 (stage 2k+1)
  localparam int unsigned Digits = Word / 8,      // digit rows of one module
  localparam int unsigned Cols   = Word / 4,      // columns of one module
  localparam int unsigned SumW   = 2 * Word + 4
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   v_i,       // a slot is in this stage
  input  logic                   first_i,   // first_word: generate (and store) Q's digits
  input  logic                   fsel_i,    // 1: GF(N), 0: GF(2^n)
  input  logic [Word-1:0]        a_i,
  input  logic [Word-1:0]        n_i,
  input  logic [Word-1:0]        b_i,       // B_j
  input  logic                   bprev_i,   // b_{jw-1}: top bit of B_{j-1} (0 in row 0)
  input  logic [SumW-1:0]        s_i,
  input  logic [SumW-1:0]        c_i,
  input  logic [1:0]             gam_i,     // first word: carry of the retired columns
  output logic [SumW-1:0]        s_o,
  output logic [SumW-1:0]        c_o,
  output logic [1:0]             gam_o,
  output digit_t [Digits-1:0]    bd_o,      // the rows' Booth digits
  output digit_t [Digits-1:0]    qd_o       // the rows' quotient digits (generated or stored)
);
  localparam int unsigned Lo = Group * Cols;
  localparam logic [SumW-1:0] Cols_mask = ((SumW'(1) << Cols) - SumW'(1)) << Lo;

  digit_t [Digits-1:0] qst_q;

  // The rows are a chain: each g_row[u] takes (s, c, gam) and the +1 bits of g_row[u-1].

  for (genvar u = 0; u < Digits; u++) begin : g_row
    localparam int unsigned T = Group * Digits + u;   // digit row of the word unit
    localparam logic [SumW-1:0] Pair = SumW'(3) << (2 * T);

    logic            blow;
    logic [SumW-1:0] s_in, c_in, s_out, c_out;
    logic [1:0]      gam_in, gam_out;
    logic            ca_prev, cn_prev, ca, cn;
    digit_t          bd, qd_gen, qd;
    logic [Word+1:0] mult_a, mult_n;

    if (u == 0) begin : g_chain_in
      assign s_in    = s_i;
      assign c_in    = c_i;
      assign gam_in  = gam_i;
      assign ca_prev = 1'b0;
      assign cn_prev = 1'b0;
    end else begin : g_chain_next
      assign s_in    = g_row[u-1].s_out;
      assign c_in    = g_row[u-1].c_out;
      assign gam_in  = g_row[u-1].gam_out;
      assign ca_prev = g_row[u-1].ca;
      assign cn_prev = g_row[u-1].cn;
    end
    logic [SumW-1:0] aa_v, nn_v, slot_a, slot_n, s_a, c_a, s_n, c_n;
    logic [1:0]      sp;
    logic [3:0]      rsum;

    // ---- PPG row t: Booth encoder (Table 1) and generator (Fig. 5)
    if (T == 0) begin : g_b_first
      assign blow = bprev_i;
    end else begin : g_b_next
      assign blow = b_i[2*T-1];
    end
    cilardo_booth_enc u_benc (
      .b2_i(b_i[2*T+1]), .b1_i(b_i[2*T]), .b0_i(blow), .fsel_i,
      .inv_o(bd.inv), .trp_o(bd.trp), .shl_o(bd.shl)
    );
    cilardo_gen #(.Word(Word)) u_ppg (
      .x_i(a_i), .inv_i(bd.inv), .trp_i(bd.trp), .shl_i(bd.shl), .fsel_i,
      .mult_o(mult_a), .one_o(ca)
    );

    // free slot at column 2t-2: ca/cn of row t-1 (not on a first word: retired instead)
    if (u == 0) begin : g_slot_none
      assign slot_a = '0;   // row t-1's +1 bits are in the previous left module's free slot
      assign slot_n = '0;
      logic unused_prev;
      assign unused_prev = ca_prev ^ cn_prev;
    end else begin : g_slot
      logic one_a, one_n;
      assign one_a  = ca_prev & ~first_i;
      assign one_n  = cn_prev & ~first_i;
      assign slot_a = SumW'(one_a) << (2 * T - 2);
      assign slot_n = SumW'(one_n) << (2 * T - 2);
    end

    // Burgess: the sign bit inverted (GF(N) only; a GF(2^n) multiple has no sign bit)
    assign aa_v = ((SumW'({mult_a[Word+1] ^ fsel_i, mult_a[Word:0]}) << (2 * T)) & Cols_mask)
                | slot_a;
    cilardo_csa #(.Width(SumW), .Lo(Lo)) u_csa_a (
      .fsel_i, .s_i(s_in), .c_i(c_in), .x_i(aa_v), .s_o(s_a), .c_o(c_a)
    );

    // ---- MMG row t: sp from the carry-save digit, Montgomery encoder (Table 2), generator
    // sp = digit t of SP = P + AA (mod 4): carry-save bits + retired carry + ca_t
    assign sp = s_a[2*T+1 -: 2] + c_a[2*T+1 -: 2] + gam_in + {1'b0, ca};
    cilardo_mont_enc u_menc (
      .sp1_i(sp[1]), .sp0_i(sp[0]), .n1_i(n_i[1]), .fsel_i,
      .inv_o(qd_gen.inv), .trp_o(qd_gen.trp), .shl_o(qd_gen.shl)
    );
    assign qd = first_i ? qd_gen : qst_q[u];
    cilardo_gen #(.Word(Word)) u_mmg (
      .x_i(n_i), .inv_i(qd.inv), .trp_i(qd.trp), .shl_i(qd.shl), .fsel_i,
      .mult_o(mult_n), .one_o(cn)
    );
    assign nn_v = ((SumW'({mult_n[Word+1] ^ fsel_i, mult_n[Word:0]}) << (2 * T)) & Cols_mask)
                | slot_n;
    cilardo_csa #(.Width(SumW), .Lo(Lo)) u_csa_n (
      .fsel_i, .s_i(s_a), .c_i(c_a), .x_i(nn_v), .s_o(s_n), .c_o(c_n)
    );

    // ---- first word: retire digit t's two columns (their sum is 0 mod 4)
    assign rsum = 4'(s_n[2*T+1 -: 2]) + 4'(c_n[2*T+1 -: 2]) + 4'(ca) + 4'(cn)
                + 4'(gam_in);
    assign s_out = first_i ? (s_n & ~Pair) : s_n;
    assign c_out = first_i ? (c_n & ~Pair) : c_n;
    assign gam_out   = first_i ? rsum[3:2] : 2'b00;

`ifndef SYNTHESIS
    /* verilator lint_off SYNCASYNCNET */
    // Q_t cleared digit t: the retired columns sum to 0 mod 4
    RetiredDigitIsZero: assert property (@(posedge clk_i) disable iff (!rst_ni)
        (v_i && first_i) |-> (rsum[1:0] == 2'b00))
      else $error("cilardo_right: digit %0d not cleared by its quotient digit", T);
    /* verilator lint_on SYNCASYNCNET */
`endif
  end

  // quotient digits of the row, stored on its first word and reused by its later words
  for (genvar u = 0; u < Digits; u++) begin : g_store
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        qst_q[u] <= '0;
      end else if (v_i && first_i) begin
        qst_q[u] <= g_row[u].qd_gen;
      end
    end
    assign bd_o[u] = g_row[u].bd;
    assign qd_o[u] = g_row[u].qd;
  end

  if (Group != 0) begin : g_no_bprev
    logic unused_bprev;
    assign unused_bprev = bprev_i;   // b_{jw-1} is read by digit 0 only
  end

  assign s_o   = g_row[Digits-1].s_out;
  assign c_o   = g_row[Digits-1].c_out;
  assign gam_o = g_row[Digits-1].gam_out;
endmodule
