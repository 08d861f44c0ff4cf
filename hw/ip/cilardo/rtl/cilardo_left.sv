// A "left" module of Fig. 8 (cilardo2008): the (3w/4 x w/4)-bit block (w = 64: 48x16) of
// digit rows t = Group*Digits .. Group*Digits + Digits - 1. It only adds multiples: the
// columns >= 16(k+1) of AA_t = B_t*A_i and NN_t = Q_t*N_i, with the digits the right module
// of the stage before determined (Booth digits of B_j; quotient digits generated on the row's
// first word or stored). Its PPGs/MMGs are the generators of Fig. 5 driven by those digits.
// Row Group*Digits's vectors start at column 16(k+1), so their columns 16(k+1)-2 hold the +1
// bits (ca, cn) of the right module's last row (Fig. 6's free slots; not on a first word,
// whose +1 bits the right module retired).
module cilardo_left
  import cilardo_pkg::*;
#(
  parameter  int unsigned Word   = 64,
  parameter  int unsigned Group  = 0,             // k = 0 .. 3 (stage 2k+2)
  localparam int unsigned Digits = Word / 8,
  localparam int unsigned Cols   = Word / 4,
  localparam int unsigned SumW   = 2 * Word + 4
) (
  input  logic                first_i,
  input  logic                fsel_i,
  input  logic [Word-1:0]     a_i,
  input  logic [Word-1:0]     n_i,
  input  digit_t [Digits-1:0] bd_i,
  input  digit_t [Digits-1:0] qd_i,
  input  logic [SumW-1:0]     s_i,
  input  logic [SumW-1:0]     c_i,
  output logic [SumW-1:0]     s_o,
  output logic [SumW-1:0]     c_o
);
  localparam int unsigned Lo   = (Group + 1) * Cols - 2;   // the free slot column
  localparam logic [SumW-1:0] Left_mask = {SumW{1'b1}} << ((Group + 1) * Cols);

  logic            ca_last, cn_last;

  // +1 bits of the right module's last row (t = Group*Digits + Digits - 1)
  assign ca_last = bd_i[Digits-1].inv & fsel_i & ~first_i;
  assign cn_last = qd_i[Digits-1].inv & fsel_i & ~first_i;

  for (genvar u = 0; u < Digits; u++) begin : g_row
    localparam int unsigned T = Group * Digits + u;
    logic [Word+1:0] mult_a, mult_n;
    logic            one_a, one_n;
    logic [SumW-1:0] aa_v, nn_v, slot_a, slot_n, s_a, c_a, s_in, c_in, s_out, c_out;

    if (u == 0) begin : g_chain_in
      assign s_in = s_i;
      assign c_in = c_i;
    end else begin : g_chain_next
      assign s_in = g_row[u-1].s_out;
      assign c_in = g_row[u-1].c_out;
    end

    cilardo_gen #(.Word(Word)) u_ppg (
      .x_i(a_i), .inv_i(bd_i[u].inv), .trp_i(bd_i[u].trp), .shl_i(bd_i[u].shl), .fsel_i,
      .mult_o(mult_a), .one_o(one_a)
    );
    cilardo_gen #(.Word(Word)) u_mmg (
      .x_i(n_i), .inv_i(qd_i[u].inv), .trp_i(qd_i[u].trp), .shl_i(qd_i[u].shl), .fsel_i,
      .mult_o(mult_n), .one_o(one_n)
    );

    if (u == 0) begin : g_slot
      assign slot_a = SumW'(ca_last) << Lo;
      assign slot_n = SumW'(cn_last) << Lo;
    end else begin : g_slot_none
      assign slot_a = '0;
      assign slot_n = '0;
    end

    assign aa_v = ((SumW'({mult_a[Word+1] ^ fsel_i, mult_a[Word:0]}) << (2 * T)) & Left_mask)
                | slot_a;
    assign nn_v = ((SumW'({mult_n[Word+1] ^ fsel_i, mult_n[Word:0]}) << (2 * T)) & Left_mask)
                | slot_n;
    cilardo_csa #(.Width(SumW), .Lo(Lo)) u_csa_a (
      .fsel_i, .s_i(s_in), .c_i(c_in), .x_i(aa_v), .s_o(s_a), .c_o(c_a)
    );
    cilardo_csa #(.Width(SumW), .Lo(Lo)) u_csa_n (
      .fsel_i, .s_i(s_a), .c_i(c_a), .x_i(nn_v), .s_o(s_out), .c_o(c_out)
    );

    logic unused_one;
    assign unused_one = one_a ^ one_n;   // the +1 bits were placed by the right module's rows
  end

  assign s_o = g_row[Digits-1].s_out;
  assign c_o = g_row[Digits-1].c_out;
endmodule
