// A "left" module of Fig. 8 (cilardo2008): the (3w/4 x w/4)-bit block (w = 64: 48x16) of
// digit rows t = Group*Digits .. Group*Digits + Digits - 1. It only adds multiples: the
// columns >= 16(k+1) of AA_t = B_t*A_i and NN_t = Q_t*N_i, with the digits the right module
// of the stage before determined (Booth digits of B_j; quotient digits generated on the row's
// first word or stored). Its PPGs/MMGs are the generators of Fig. 5 driven by those digits.
// Row Group*Digits's vectors start at column 16(k+1), so their columns 16(k+1)-2 hold the +1
// bits (ca, cn) of the right module's last row (Fig. 6's free slots; not on a first word,
// whose +1 bits are retired).
//
// It also adds what the right module left of its last MMG row (t = 8k+7): the window columns
// 16k+14, 16k+15 of NN_t and the cn of row t-1 (column 16k+12) -- on a later word in its last
// NN row, on a first word in the retirement below.
//
// First word: it also retires the right module's window [16k, 16k+16) (the right module's
// quotient digits made its sum 0 mod 2^16): the window's columns, the carry gam_i from the
// windows below, the last right row's ca, cn and the rest of its MMG row (above) are summed by
// a 16-bit adder beside the CSA rows, the columns are cleared and the carry gam_o (0 .. 3)
// goes to the next right module (or to the carry row of stage 8).
module cilardo_left
  import cilardo_pkg::*;
#(
  parameter  int unsigned Word   = 64,
  parameter  int unsigned Group  = 0,             // k = 0 .. 3 (stage 2k+2)
  localparam int unsigned Digits = Word / 8,
  localparam int unsigned Cols   = Word / 4,
  localparam int unsigned SumW   = 2 * Word + 4
) (
  input  logic                clk_i,      // for the assertion only
  input  logic                rst_ni,
  input  logic                v_i,
  input  logic                first_i,
  input  logic                fsel_i,
  input  logic [Word-1:0]     a_i,
  input  logic [Word-1:0]     n_i,
  input  digit_t [Digits-1:0] bd_i,
  input  digit_t [Digits-1:0] qd_i,
  input  logic [SumW-1:0]     s_i,
  input  logic [SumW-1:0]     c_i,
  input  logic [1:0]          gam_i,      // first word: carry into the right module's window
  output logic [SumW-1:0]     s_o,
  output logic [SumW-1:0]     c_o,
  output logic [1:0]          gam_o       // first word: carry out of it
);
  localparam int unsigned Lo   = (Group + 1) * Cols - 2;   // the free slot column
  localparam int unsigned WinLo = Group * Cols;             // the right module's window
  localparam logic [SumW-1:0] Left_mask = {SumW{1'b1}} << ((Group + 1) * Cols);
  localparam logic [SumW-1:0] Win_mask  = ((SumW'(1) << Cols) - SumW'(1)) << WinLo;

  logic            ca_last, cn_last, ca_ret, cn_ret, cn_prev_ret;
  logic [1:0]      nn_win;        // the right module's last MMG row in its window (cols 14, 15)
  logic [SumW-1:0] s_kept, c_kept;
  logic [Cols+1:0] retired;

  // first word: retire the window (sum 0 mod 2^Cols); its carry goes on, its columns are cleared
  assign ca_ret      = bd_i[Digits-1].inv & fsel_i;
  assign cn_ret      = qd_i[Digits-1].inv & fsel_i;
  assign cn_prev_ret = qd_i[Digits-2].inv & fsel_i;
  assign nn_win      = g_row[Digits-1].mult_n[1:0];
  assign retired = (Cols+2)'(s_i[WinLo +: Cols]) + (Cols+2)'(c_i[WinLo +: Cols])
                 + (Cols+2)'(gam_i)
                 + (((Cols+2)'(ca_ret) + (Cols+2)'(cn_ret) + (Cols+2)'(nn_win)) << (Cols - 2))
                 + ((Cols+2)'(cn_prev_ret) << (Cols - 4));
  assign gam_o   = (first_i && fsel_i) ? retired[Cols+1:Cols] : 2'b00;
  assign s_kept  = first_i ? (s_i & ~Win_mask) : s_i;
  assign c_kept  = first_i ? (c_i & ~Win_mask) : c_i;

  // +1 bits of the right module's last row (t = Group*Digits + Digits - 1)
  assign ca_last = bd_i[Digits-1].inv & fsel_i & ~first_i;
  assign cn_last = qd_i[Digits-1].inv & fsel_i & ~first_i;

  for (genvar u = 0; u < Digits; u++) begin : g_row
    localparam int unsigned T = Group * Digits + u;
    logic [Word+1:0] mult_a, mult_n;
    logic            one_a, one_n;
    logic [SumW-1:0] aa_v, nn_v, slot_a, slot_n, s_a, c_a, s_in, c_in, s_out, c_out;

    if (u == 0) begin : g_chain_in
      assign s_in = s_kept;
      assign c_in = c_kept;
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

    logic [SumW-1:0] nn_mask;
    if (u == 0) begin : g_slot
      assign slot_a  = SumW'(ca_last) << Lo;
      assign slot_n  = SumW'(cn_last) << Lo;
      assign nn_mask = Left_mask;
    end else if (u == Digits - 1) begin : g_slot_right
      // the right module's last MMG row: its window columns and cn of the row before (column
      // 16k+12), here on a later word (retired on a first word)
      logic cn_prev;
      assign cn_prev = qd_i[u-1].inv & fsel_i & ~first_i;
      assign slot_a  = '0;
      assign slot_n  = SumW'(cn_prev) << (2 * T - 2);
      assign nn_mask = first_i ? Left_mask : (Left_mask | Win_mask);
    end else begin : g_slot_none
      assign slot_a  = '0;
      assign slot_n  = '0;
      assign nn_mask = Left_mask;
    end

    localparam int unsigned LoN = (u == Digits - 1) ? 2 * T - 2 : Lo;   // NN row's first column
    assign aa_v = ((SumW'({mult_a[Word+1] ^ fsel_i, mult_a[Word:0]}) << (2 * T)) & Left_mask)
                | slot_a;
    assign nn_v = ((SumW'({mult_n[Word+1] ^ fsel_i, mult_n[Word:0]}) << (2 * T)) & nn_mask)
                | slot_n;
    cilardo_csa #(.Width(SumW), .Lo(Lo)) u_csa_a (
      .fsel_i, .s_i(s_in), .c_i(c_in), .x_i(aa_v), .s_o(s_a), .c_o(c_a)
    );
    cilardo_csa #(.Width(SumW), .Lo(LoN)) u_csa_n (
      .fsel_i, .s_i(s_a), .c_i(c_a), .x_i(nn_v), .s_o(s_out), .c_o(c_out)
    );

    logic unused_one;
    assign unused_one = one_a ^ one_n;   // the +1 bits were placed by the right module's rows
  end

  assign s_o = g_row[Digits-1].s_out;
  assign c_o = g_row[Digits-1].c_out;

`ifndef SYNTHESIS
  /* verilator lint_off SYNCASYNCNET */
  // the right module's quotient digits cleared its window (GF(2^n): the columns xor to 0)
  WindowCleared: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (v_i && first_i) |->
        (fsel_i ? (retired[Cols-1:0] == '0)
                : ((s_i[WinLo +: Cols] ^ c_i[WinLo +: Cols] ^ (Cols'(nn_win) << (Cols - 2)))
                   == '0)))
    else $error("cilardo_left: window %0d not cleared by its quotient digits", Group);
  /* verilator lint_on SYNCASYNCNET */
`else
  logic unused_check;
  assign unused_check = clk_i ^ rst_ni ^ v_i ^ (^retired[Cols-1:0]);
`endif
endmodule
