// The EWBR4CMMM multiplier of Verma et al. (§4.2): one pass computes, from the common
// multiplicand P and the multiplier R (both < 2^(2D)),
//   X = P*R*F^-1,  Y = P*P*F^-1  (mod n, unreduced, < 2^(2D)),  F = 4^I,
// bit-exact with montu.arith.verma.ewbr4cmmm, in I + m + 1 clocks.
//
//   load clock    the source MUXes (t_sel: P, X, Y, O; r_sel: R, C, O, X, Y, ONE) put P into the
//                 reduction PEs' T words and the P-digit register, R into the R-digit register;
//                 X = Y = 0 (steps 1-2). The selects are one-hot, one copy per PE column
//                 (verma_src_sel): column j's words and R's bits jW .. jW + W - 1 read copy j.
//   clocks 1..I+m the wavefront of verma_pe_array, scheduled by verma_pass_ctrl
//   fix_i         the f = 1 clock: X == N is registered there, and X = 0 in the next clock
//                 (after a pass by ONE, X <= N)
//
// X and Y stay in the XPE and YPE registers after the pass: they are the next pass's sources
// (the ladder's R0 and R1) and what RD returns.
module verma_core
  import verma_core_pkg::*;
#(
  parameter  int unsigned W      = 48,
  parameter  int unsigned M      = 22,
  parameter  int unsigned Digits = 518,
  parameter  int unsigned CntW   = 10
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                clear_i,     // SETLEN, WIPE
  input  logic                start_i,     // a pass's load clock
  input  logic [M-1:0][TSrcs-1:0] t_sel_i,  // where P comes from (one-hot, per column)
  input  logic [M-1:0][RSrcs-1:0] r_sel_i,  // where R comes from (one-hot, per column)
  input  logic                fix_i,       // the f = 1 clock
  input  logic [CntW-1:0]     iters_i,     // I
  input  logic [CntW-1:0]     pre_i,       // g - t
  input  logic [CntW-1:0]     m_i,         // m
  input  logic [M-1:0]        en_i,        // PE j works (j < m)
  input  logic [M-1:0][W-1:0] n_i,         // n, 2n, 3n (SETMOD)
  input  logic [M-1:0][W-1:0] twn_i,
  input  logic [M-1:0][W-1:0] thn_i,
  input  logic [M-1:0][W-1:0] p_i,         // the registers P and O (multiplicand sources)
  input  logic [M-1:0][W-1:0] o_i,
  input  logic [2*Digits-1:0] r_i,         // the registers R and C (multiplier sources only)
  input  logic [2*Digits-1:0] c_i,
  output logic [M-1:0][W-1:0] t_o,         // the PE words T, X, Y
  output logic [M-1:0][W-1:0] x_o,
  output logic [M-1:0][W-1:0] y_o,
  output logic                last_o,      // the pass's last clock
  output logic                busy_o       // a pass runs (its load clock excluded)
);
  // -------------------------------------------------------------------------------------------
  // Operand MUXes of the load clock
  // -------------------------------------------------------------------------------------------
  localparam int unsigned RBits = 2 * Digits;

  logic [M-1:0][W-1:0] t_words, x_words, y_words, p_src;
  logic [RBits-1:0]    r_src;          // R's D(K) digits (R < 2^(2D))
  logic [RBits-1:0]    r_from_o, r_from_x, r_from_y;
  assign r_from_o = RBits'(o_i);
  assign r_from_x = RBits'(x_words);
  assign r_from_y = RBits'(y_words);

  // the column whose select copy drives R's bit b (bits above the M columns: the last one)
  function automatic int unsigned col_of(int unsigned b);
    return (b / W < M) ? b / W : M - 1;
  endfunction

  always_comb begin
    for (int unsigned j = 0; j < M; j++) begin
      p_src[j] = ({W{t_sel_i[j][TSrcP]}} & p_i[j])
               | ({W{t_sel_i[j][TSrcX]}} & x_words[j])
               | ({W{t_sel_i[j][TSrcY]}} & y_words[j])
               | ({W{t_sel_i[j][TSrcO]}} & o_i[j]);
    end
    for (int unsigned b = 0; b < RBits; b++) begin
      r_src[b] = (r_sel_i[col_of(b)][RSrcR]   & r_i[b])
               | (r_sel_i[col_of(b)][RSrcC]   & c_i[b])
               | (r_sel_i[col_of(b)][RSrcO]   & r_from_o[b])
               | (r_sel_i[col_of(b)][RSrcX]   & r_from_x[b])
               | (r_sel_i[col_of(b)][RSrcY]   & r_from_y[b])
               | (r_sel_i[col_of(b)][RSrcOne] & (b == 0));
    end
  end

  // -------------------------------------------------------------------------------------------
  // Pass controller and the digit registers
  // -------------------------------------------------------------------------------------------
  logic           red_run, acc_run, ctrl_busy, array_busy;
  logic [1:0]     digit_p, digit_r;

  verma_pass_ctrl #(.CntW(CntW)) u_pass (
    .clk_i, .rst_ni,
    .clear_i    (clear_i),
    .start_i    (start_i),
    .iters_i    (iters_i),
    .pre_i      (pre_i),
    .m_i        (m_i),
    .red_run_o  (red_run),
    .acc_run_o  (acc_run),
    .last_o     (last_o),
    .busy_o     (ctrl_busy)
  );

  verma_digit_reg #(.Digits(Digits), .Seg((W >= 2) ? W / 2 : 1), .CntW(CntW)) u_digits (
    .clk_i, .rst_ni,
    .clear_i  (clear_i),
    .load_i   (start_i),
    .iters_i  (iters_i),
    .p_i      (RBits'(p_src)),
    .r_i      (r_src),
    .digit_p_o(digit_p),
    .digit_r_o(digit_r)
  );

  // -------------------------------------------------------------------------------------------
  // The 3M PEs
  // -------------------------------------------------------------------------------------------
  // The f = 1 clock compares X with N and registers the answer; the XPEs clear in the clock after
  // it (the response's first clock, before any command can read X): the K-bit compare gathers
  // every column and the clear reaches every XPE bit, and the two no longer share one clock.
  logic x_fix_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) x_fix_q <= 1'b0;
    else         x_fix_q <= fix_i && (x_words == n_i) && !clear_i;
  end

  verma_pe_array #(.W(W), .M(M)) u_array (
    .clk_i, .rst_ni,
    .clear_i     (clear_i),
    .load_i      (start_i),
    .load_words_i(p_src),
    .en_i        (en_i),
    .red_run_i   (red_run),
    .acc_run_i   (acc_run),
    .digit_x_i   (digit_r),
    .digit_y_i   (digit_p),
    .fix_i       (x_fix_q),
    .n1_i        (n_i[0][1]),
    .n_i         (n_i),
    .twn_i       (twn_i),
    .thn_i       (thn_i),
    .t_o         (t_words),
    .x_o         (x_words),
    .y_o         (y_words),
    .busy_o      (array_busy)
  );

  assign t_o    = t_words;
  assign x_o    = x_words;
  assign y_o    = y_words;
  assign busy_o = ctrl_busy || array_busy;
endmodule
