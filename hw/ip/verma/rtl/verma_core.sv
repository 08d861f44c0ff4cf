// The EWBR4CMMM multiplier of Verma et al. (§4.2): one pass computes, from the common
// multiplicand P and the multiplier R (both < 2^(2D)),
//   X = P*R*F^-1,  Y = P*P*F^-1  (mod n, unreduced, < 2^(2D)),  F = 4^I,
// bit-exact with montu.arith.verma.ewbr4cmmm, in I + m + 1 clocks.
//
//   load clock    the source MUXes (t_src: P, X, Y, O; r_src: R, C, O, X, Y, ONE) put P into the
//                 reduction PEs' T words and the P-digit register, R into the R-digit register;
//                 X = Y = 0 (steps 1-2)
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
  input  t_src_e              t_src_i,     // where P comes from
  input  r_src_e              r_src_i,     // where R comes from
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
  logic [M-1:0][W-1:0] t_words, x_words, y_words, p_src;
  logic [2*Digits-1:0] r_src;          // R's D(K) digits (R < 2^(2D))
  always_comb begin
    unique case (t_src_i)
      TSrcX:   p_src = x_words;
      TSrcY:   p_src = y_words;
      TSrcO:   p_src = o_i;
      default: p_src = p_i;
    endcase
    unique case (r_src_i)
      RSrcC:   r_src = c_i;
      RSrcO:   r_src = (2 * Digits)'(o_i);
      RSrcX:   r_src = (2 * Digits)'(x_words);
      RSrcY:   r_src = (2 * Digits)'(y_words);
      RSrcOne: r_src = (2 * Digits)'(1);
      default: r_src = r_i;
    endcase
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
    .p_i      ((2 * Digits)'(p_src)),
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
