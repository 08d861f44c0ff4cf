// A "right" module of Fig. 8 (cilardo2008): the (w/4 x w/4)-bit block of the word unit for
// digit rows t = Group*Digits .. Group*Digits + Digits - 1 (w = 64: a 16x16 module, 8 rows),
// i.e. the parallel unit of Section 4 restricted to the word's columns [16k, 16k+16) (the
// module's window) of those rows. It adds, as rows of dual-field CSAs (Figs. 4 and 6):
//   PPG rows:  booth encoder (Table 1) on (b_{2t+1}, b_{2t}, b_{2t-1}) -> PPG:  (S, C) += AA_t
//   MMG rows:  quotient digit Q_t -> MMG:                                      (S, C) += NN_t
//     first word:  Q_t = Montgomery encoder (Table 2, with n_1) of sp_t, the digit t of
//                  SP = P + AA; the digits are stored
//     later words: Q_t = the digit stored when the row's first word passed (first_word = 0)
// Only the window columns of AA_t and NN_t are added here; the left module of the next stage
// adds their other columns with the digits this module hands it (bd_o, qd_o).
//
// Timing (FPGA build): Fig. 6 interleaves the PPG and MMG row of each t and reads sp_t from the
// carry-save pair, which makes the digits a chain of eight (CSA, 2-bit add, encoder, MMG, CSA)
// steps. Here the eight PPG rows come first (they do not depend on Q), then a look-ahead
// generates the eight digits, then the MMG rows add NN_t (the last row's window columns are
// left to the left module of the next stage, see below); the sum is the same.
//   Look-ahead: V = the window's sum of everything but the MMG rows (mod 2^16, in binary; a
//   multi-operand adder beside the PPG rows). With H_0 = V,
//     sp_u = H_u mod 4,   H_{u+1} = (H_u + Q_u N) / 4 = H_u / 4 + D(sp_u)   (dual field)
//   where D(v) = (v + M_v) / 4 and M_v the multiple of N Table 2 selects for sp = v (mod 2^16;
//   it depends on N only). Each step computes the three sums H_u / 4 + D(v), v = 1..3, while
//   sp_u is being selected, and sp_u picks one (carry select): a step is an adder on the
//   carry chain and a 4:1 multiplexer (GF(2^n) runs a second chain of xors).
//
// Two's complement without sign extension: a multiple enters as its w+2 bits with the sign bit
// inverted (Burgess); the constant K of the inverted sign bits is in the pair the word unit
// starts from. The "+1" of a negative multiple (ca_t, cn_t) goes to column 2t of row t+1's
// vector, a free slot since that row starts at column 2t+2 (Fig. 6); the last row's +1 bits
// (and the MMG row's cn of the row before, with the last MMG row's window columns) are added by
// the left module: in its free slots (later words) or in the retirement (first word).
//
// First word (Alg. 2 step 4 merged into the array): the digits make the window's sum, with
// gam_i (the carry of the windows below) and the last row's ca, cn, 0 mod 2^16. The window is
// retired by the left module of the next stage (cilardo_left: the columns are summed, cleared,
// and the carry goes to the next window), which keeps the 16-bit adder off this stage. In
// GF(2^n) c, gam, ca and cn are all 0 and the window's columns are simply 0.
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
  input  logic [Word-1:0]        la_a_i,    // A_i, N_i for the look-ahead: as a_i, n_i, except
  input  logic [Word-1:0]        la_n_i,    // on a carry slot (no digits generated there)
  input  logic [Word-1:0]        b_i,       // B_j
  input  logic                   bprev_i,   // b_{jw-1}: top bit of B_{j-1} (0 in row 0)
  input  logic [SumW-1:0]        s_i,
  input  logic [SumW-1:0]        c_i,
  input  logic [1:0]             gam_i,     // first word: carry into the window (retired below)
  output logic [SumW-1:0]        s_o,
  output logic [SumW-1:0]        c_o,
  output digit_t [Digits-1:0]    bd_o,      // the rows' Booth digits
  output digit_t [Digits-1:0]    qd_o       // the rows' quotient digits (generated or stored)
);
  localparam int unsigned Lo = Group * Cols;
  localparam logic [SumW-1:0] Win_mask = ((SumW'(1) << Cols) - SumW'(1)) << Lo;

  digit_t [Digits-1:0] qst_q;

  // ---------------------------------------------------------------------------------------
  // PPG rows: (S, C) += AA_t, ca_{t-1} in the free slot (a chain of CSA rows)
  // ---------------------------------------------------------------------------------------
  for (genvar u = 0; u < Digits; u++) begin : g_ppg
    localparam int unsigned T     = Group * Digits + u;          // digit row of the word unit
    localparam int unsigned RowLo = (u == 0) ? 2 * T : 2 * T - 2;  // its lowest addend column

    logic            blow, ca;
    digit_t          bd;
    logic [Word+1:0] mult_a;
    logic [SumW-1:0] s_in, c_in, aa_v, slot_a, s_out, c_out;

    if (u == 0) begin : g_chain_in
      assign s_in   = s_i;
      assign c_in   = c_i;
      assign slot_a = '0;   // row t-1's +1 bit is in the previous left module's free slot
    end else begin : g_chain_next
      assign s_in   = g_ppg[u-1].s_out;
      assign c_in   = g_ppg[u-1].c_out;
      assign slot_a = SumW'(g_ppg[u-1].ca) << (2 * T - 2);
    end

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

    // Burgess: the sign bit inverted (GF(N) only; a GF(2^n) multiple has no sign bit)
    assign aa_v = ((SumW'({mult_a[Word+1] ^ fsel_i, mult_a[Word:0]}) << (2 * T)) & Win_mask)
                | slot_a;
    cilardo_csa #(.Width(SumW), .Lo(RowLo)) u_csa_a (
      .fsel_i, .s_i(s_in), .c_i(c_in), .x_i(aa_v), .s_o(s_out), .c_o(c_out)
    );
  end

  logic [SumW-1:0] s_p, c_p;
  logic [Cols-1:0] mult_win [Digits];   // the PPG rows' low bits, for the look-ahead
  logic            ca_win   [Digits];
  for (genvar u = 0; u < Digits; u++) begin : g_ppg_win
    logic [Word+1:0] mult;
    cilardo_gen #(.Word(Word)) u_ppg_la (
      .x_i(la_a_i), .inv_i(g_ppg[u].bd.inv), .trp_i(g_ppg[u].bd.trp), .shl_i(g_ppg[u].bd.shl),
      .fsel_i, .mult_o(mult), .one_o(ca_win[u])
    );
    assign mult_win[u] = mult[Cols-1:0];

    logic unused_mult;
    assign unused_mult = ^mult[Word+1:Cols];
  end
  assign s_p = g_ppg[Digits-1].s_out;
  assign c_p = g_ppg[Digits-1].c_out;

  // ---------------------------------------------------------------------------------------
  // Look-ahead of the quotient digits (used on a first word)
  // ---------------------------------------------------------------------------------------
  // V = the window of everything but the MMG rows, mod 2^Cols: (s_i, c_i), gam_i and the PPG
  // rows with their +1 bits ca_t at column 2t -- the same sum as the window of (s_p, c_p) +
  // gam_i + the last row's ca, but as a multi-operand adder (a CSA tree and the carry chain),
  // and its GF(2^n) counterpart, the xor of the rows (c_i, gam_i and ca_t are 0 there).
  logic [Cols-1:0] win_p, win_x;

  always_comb begin
    win_p = s_i[Lo +: Cols] + c_i[Lo +: Cols] + Cols'(gam_i);
    win_x = s_i[Lo +: Cols];
    for (int unsigned u = 0; u < Digits; u++) begin
      win_p = win_p + (Cols'(mult_win[u]) << (2 * u)) + (Cols'(ca_win[u]) << (2 * u));
      win_x = win_x ^ (Cols'(mult_win[u]) << (2 * u));
    end
  end

  // D(v) = (v + M_v) / 4 (GF(N): integer sum; GF(2^n): xor), M_v = the multiple of N that
  // Table 2 selects for sp = v, mod 2^Cols; v + M_v = 0 mod 4. D(0) = 0 (sp = 0: Q = 0).
  logic [Cols-3:0] dig_d [1:3];
  for (genvar v = 1; v < 4; v++) begin : g_dmult
    localparam logic [1:0] Sp = 2'(v);

    digit_t          qv;
    logic [Word+1:0] mult_v;
    logic            one_v;
    logic [Cols-1:0] full;

    cilardo_mont_enc u_menc_v (
      .sp1_i(Sp[1]), .sp0_i(Sp[0]), .n1_i(la_n_i[1]), .fsel_i,
      .inv_o(qv.inv), .trp_o(qv.trp), .shl_o(qv.shl)
    );
    cilardo_gen #(.Word(Word)) u_gen_v (
      .x_i(la_n_i), .inv_i(qv.inv), .trp_i(qv.trp), .shl_i(qv.shl), .fsel_i,
      .mult_o(mult_v), .one_o(one_v)
    );
    assign full = fsel_i ? (Cols'(Sp) + mult_v[Cols-1:0] + Cols'(one_v))
                         : (Cols'(Sp) ^ mult_v[Cols-1:0]);
    assign dig_d[v] = full[Cols-1:2];

    logic unused_mult;
    assign unused_mult = ^mult_v[Word+1:Cols] ^ full[0] ^ full[1];
  end

  // H_0 = V; sp_u = H_u mod 4; H_{u+1} = H_u / 4 + D(sp_u), selected among the four sums. The
  // two fields run as two chains (GF(N): sums on the carry chain; GF(2^n): xors), so that no
  // field logic sits between the carry chain and the 4:1 multiplexer; fsel picks the digit.
  for (genvar u = 0; u < Digits; u++) begin : g_dig
    localparam int unsigned Hw = Cols - 2 * u;   // the bits of H_u the later digits need

    logic [Hw-1:0] hp, hx;   // H_u in GF(N), in GF(2^n)
    logic [1:0]    sp;

    if (u == 0) begin : g_h_first
      assign hp = win_p;
      assign hx = win_x;
    end else begin : g_h_next
      assign hp = g_dig[u-1].g_step.hp_next;
      assign hx = g_dig[u-1].g_step.hx_next;
    end
    assign sp = fsel_i ? hp[1:0] : hx[1:0];

    if (u < Digits - 1) begin : g_step
      logic [Hw-3:0] cand_p [4];   // H_u / 4 + D(v)
      logic [Hw-3:0] cand_x [4];   // H_u / 4 xor D(v)
      logic [Hw-3:0] hp_next, hx_next;

      assign cand_p[0] = hp[Hw-1:2];
      assign cand_x[0] = hx[Hw-1:2];
      for (genvar v = 1; v < 4; v++) begin : g_cand
        assign cand_p[v] = hp[Hw-1:2] + dig_d[v][Hw-3:0];
        assign cand_x[v] = hx[Hw-1:2] ^ dig_d[v][Hw-3:0];
      end
      assign hp_next = cand_p[hp[1:0]];
      assign hx_next = cand_x[hx[1:0]];
    end
  end

  // ---------------------------------------------------------------------------------------
  // MMG rows: (S, C) += NN_t, cn_{t-1} in the free slot. The last row's window columns (and
  // cn of the row before, in its slot) are added by the left module of the next stage (with
  // the row's other columns), which keeps the MMG and CSA off the end of the digit chain.
  // ---------------------------------------------------------------------------------------
  for (genvar u = 0; u < Digits; u++) begin : g_mmg
    localparam int unsigned T     = Group * Digits + u;
    localparam int unsigned RowLo = (u == 0) ? 2 * T : 2 * T - 2;

    digit_t          qd_gen, qd;
    logic [SumW-1:0] s_in, c_in, s_out, c_out;

    if (u == 0) begin : g_chain_in
      assign s_in = s_p;
      assign c_in = c_p;
    end else begin : g_chain_next
      assign s_in = g_mmg[u-1].s_out;
      assign c_in = g_mmg[u-1].c_out;
    end

    cilardo_mont_enc u_menc (
      .sp1_i(g_dig[u].sp[1]), .sp0_i(g_dig[u].sp[0]), .n1_i(la_n_i[1]), .fsel_i,
      .inv_o(qd_gen.inv), .trp_o(qd_gen.trp), .shl_o(qd_gen.shl)
    );
    assign qd = first_i ? qd_gen : qst_q[u];

    if (u < Digits - 1) begin : g_add
      logic            cn;
      logic [Word+1:0] mult_n;
      logic [SumW-1:0] nn_v, slot_n;

      if (u == 0) begin : g_slot_none
        assign slot_n = '0;
      end else begin : g_slot
        assign slot_n = SumW'(g_mmg[u-1].g_add.cn) << (2 * T - 2);
      end
      cilardo_gen #(.Word(Word)) u_mmg (
        .x_i(n_i), .inv_i(qd.inv), .trp_i(qd.trp), .shl_i(qd.shl), .fsel_i,
        .mult_o(mult_n), .one_o(cn)
      );
      assign nn_v = ((SumW'({mult_n[Word+1] ^ fsel_i, mult_n[Word:0]}) << (2 * T)) & Win_mask)
                  | slot_n;
      cilardo_csa #(.Width(SumW), .Lo(RowLo)) u_csa_n (
        .fsel_i, .s_i(s_in), .c_i(c_in), .x_i(nn_v), .s_o(s_out), .c_o(c_out)
      );
    end else begin : g_last
      assign s_out = s_in;
      assign c_out = c_in;
    end
  end

  // quotient digits of the row, stored on its first word and reused by its later words
  for (genvar u = 0; u < Digits; u++) begin : g_store
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        qst_q[u] <= '0;
      end else if (v_i && first_i) begin
        qst_q[u] <= g_mmg[u].qd_gen;
      end
    end
    assign bd_o[u] = g_ppg[u].bd;
    assign qd_o[u] = g_mmg[u].qd;
  end

  if (Group != 0) begin : g_no_bprev
    logic unused_bprev;
    assign unused_bprev = bprev_i;   // b_{jw-1} is read by digit 0 only
  end

  assign s_o = g_mmg[Digits-1].s_out;
  assign c_o = g_mmg[Digits-1].c_out;

  // the last rows' +1 bits are placed by the left module (the look-ahead has its own ca)
  logic unused_one;
  assign unused_one = g_mmg[Digits-2].g_add.cn ^ g_ppg[Digits-1].ca;
endmodule
