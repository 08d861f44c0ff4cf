// The BSR4 core (Yeh et al. Fig. 1): MSPG -> DoCSA -> R4MR, then the +1 clock.
//
// One BSR4 is exactly L/2 + 1 clocks. The set-up (start_i) happens in the clock before
// iteration 0: the instruction's decide cycle, or the +1 clock of the BSR4 before it (EXP runs
// its BSR4s back to back). Then, with it_q = i:
//   i = 0 .. L/2 - 1   iteration: digit a_i (from X or C) -> MSPG partial products -> DoCSA
//                      emits c_{2i+1}c_{2i} -> Quotient Unit picks k -> Mux-Adder row gives
//                      P[2i+2]; all in one clock (iter_valid, k)
//   i = L/2            the +1 clock (plus1): R = P[L] + C1 and, with f = 1, R - N when R >= N
//                      (yeh_final_add); the Carry/Sum registers X load the carry-save result
// No pipeline register sits at the Quotient Unit's input (the paper's optional Fig. 2b stage),
// so the digit reaches R4MR in the clock the DoCSA makes it and the count stays L/2 + 1.
//
// For the bench (dv/yeh_tb.py): after the last BSR4 of an instruction, P[L] = p_sum + p_carry +
// p_cy and C1 = c1_sum + c1_carry + c1_cy hold until the next BSR4 is set up; k and iter_valid
// give the multiple of N of every iteration; ge_n is s of the +1 clock.
module yeh_core
  import yeh_core_pkg::*;
#(
  parameter  int unsigned NBits   = 1024,
  localparam int unsigned NDigits = NBits / 2,
  localparam int unsigned Hw      = $clog2(NDigits + 1),
  localparam int unsigned PW      = NBits + 3,
  localparam int unsigned AccW    = NBits + 3,
  localparam int unsigned XW      = NBits + 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               clear_i,     // SETLEN / WIPE
  input  logic               start_i,     // set up a BSR4 (iteration 0 is the next clock)
  input  bsr4_mode_t         mode_i,      // its operands (sampled with start_i)
  input  logic [Hw-1:0]      half_i,      // L / 2
  input  logic [1:0]         digit_x_i,   // a_i from the Carry/Sum registers' 2-bit adder
  input  logic [1:0]         digit_c_i,   // a_i from the Constant Register's shift register
  input  logic [NBits-1:0]   m_i,
  input  logic [NBits-1:0]   n_i,
  input  logic [NBits+1:0]   n3_i,
  output logic               shift_x_o,   // X gave its digit this clock
  output logic               shift_c_o,   // C gave its digit this clock
  output logic               capture_o,   // M takes digit_o at pos_o (EXP's first squaring)
  output logic [1:0]         digit_o,
  output logic [NBits-1:0]   pos_o,       // bits 2i+1 .. 2i of digit i (M's capture)
  output logic               plus1_o,     // the +1 clock: X loads xs_o / xc_o
  output logic [XW-1:0]      xs_o,
  output logic [XW-1:0]      xc_o,
  output logic               busy_o
);
  // ---------------------------------------------------------------------------------------
  // Control: the iteration counter
  // ---------------------------------------------------------------------------------------
  logic          running_q;
  logic [Hw-1:0] it_q;
  bsr4_mode_t    mode_q;
  logic          iter_valid, plus1;

  assign iter_valid = running_q && (it_q != half_i);
  assign plus1      = running_q && (it_q == half_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      it_q      <= '0;
      mode_q    <= '0;
    end else if (clear_i) begin
      running_q <= 1'b0;
      it_q      <= '0;
      mode_q    <= '0;
    end else if (start_i) begin
      running_q <= 1'b1;
      it_q      <= '0;
      mode_q    <= mode_i;
    end else if (iter_valid) begin
      it_q      <= it_q + Hw'(1);
    end else if (plus1) begin
      running_q <= 1'b0;
    end
  end

  logic [1:0] digit;   // a_i
  assign digit     = mode_q.a_from_x ? digit_x_i : digit_c_i;
  assign shift_x_o = iter_valid && mode_q.a_from_x;
  assign shift_c_o = iter_valid && !mode_q.a_from_x;
  assign capture_o = iter_valid && mode_q.capture_m;
  assign digit_o   = digit;
  assign plus1_o   = plus1;
  assign busy_o    = running_q;

  // ---------------------------------------------------------------------------------------
  // MSPG -> DoCSA -> R4MR
  // ---------------------------------------------------------------------------------------
  logic [NBits:0]   pp0;
  logic [NBits+1:0] pp1;
  logic             restart;   // clear the accumulators: global clear or the set-up of a BSR4
  assign restart = clear_i || start_i;

  yeh_mspg #(.NBits(NBits)) u_mspg (
    .clk_i,
    .rst_ni,
    .clear_i (clear_i),
    .start_i (start_i),
    .step_i  (iter_valid),
    .square_i(mode_q.b_square),
    .one_i   (mode_q.b_one),
    .m_i     (m_i),
    .digit_i (digit),
    .pp0_o   (pp0),
    .pp1_o   (pp1),
    .pos_o   (pos_o)
  );

  logic [1:0]      c_digit;
  logic [AccW-1:0] c1_sum, c1_carry;
  logic            c1_cy;
  yeh_docsa #(.NBits(NBits)) u_docsa (
    .clk_i,
    .rst_ni,
    .clear_i    (restart),
    .step_i     (iter_valid),
    .pp0_i      (pp0),
    .pp1_i      (pp1),
    .digit_o    (c_digit),
    .acc_sum_o  (c1_sum),
    .acc_carry_o(c1_carry),
    .acc_cy_o   (c1_cy)
  );

  logic [1:0]    k;
  logic [PW-1:0] p_sum, p_carry;
  logic          p_cy;
  yeh_r4mr #(.NBits(NBits)) u_r4mr (
    .clk_i,
    .rst_ni,
    .clear_i  (restart),
    .step_i   (iter_valid),
    .c_digit_i(c_digit),
    .n_i      (n_i),
    .n3_i     (n3_i),
    .k_o      (k),
    .p_sum_o  (p_sum),
    .p_carry_o(p_carry),
    .p_cy_o   (p_cy)
  );

  // ---------------------------------------------------------------------------------------
  // The +1 clock
  // ---------------------------------------------------------------------------------------
  logic ge_n;
  yeh_final_add #(.NBits(NBits)) u_final (
    .p_sum_i   (p_sum),
    .p_carry_i (p_carry),
    .p_cy_i    (p_cy),
    .c1_sum_i  (c1_sum),
    .c1_carry_i(c1_carry),
    .c1_cy_i   (c1_cy),
    .n_i       (n_i),
    .reduce_i  (mode_q.reduce),
    .xs_o      (xs_o),
    .xc_o      (xc_o),
    .ge_n_o    (ge_n)
  );

  logic unused_observed;   // k and ge_n are read by the bench only
  assign unused_observed = ^{k, ge_n};
endmodule
