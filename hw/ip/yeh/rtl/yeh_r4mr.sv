// R4MR, Radix-4 Modular Reduction (Yeh et al. Fig. 2, Fig. 5): phase P2 of BSR4, one radix-4
// step per clock on the product digits the DoCSA streams.
//
//   (q1, q0) = (P[2i] + c_{2i+1}c_{2i}) mod 4,  k from (q1, q0, n1)       (yeh_quotient_unit)
//   P[2i+2]  = (P[2i] + c_{2i+1}c_{2i} + {0, N, 2N, 3N}[k]) / 4           (Mux-Adder row)
//
// P is kept in carry-save form P = p_sum + p_carry + p_cy. The Mux-Adder row is a row of
// adder4_2 cells over (p_sum, p_carry, kN, c_digit) with p_cy at bit 0's cin: its result
// s + 2c is = 0 (mod 4) by the choice of k, so s0 = 0 and s1 = c0, and the carry out of the two
// zeroed low bits is the single bit s1 (the paper's "5-input OR"), kept as p_cy. Dividing by 4 is
// wiring: p_sum' = s >> 2, p_carry' = c >> 1. The cells of bits 2 and up see c_digit = 0, so
// they are the paper's 3:2 Mux-Adders (plus the cell-to-cell cout, one position, no chain).
// Bound: P <= N throughout, P + c + kN < 2^(L+3): PW = NBits + 3 bits.
// After L/2 steps P = P[L] (<= N), held here until the next BSR4 is set up.
module yeh_r4mr #(
  parameter  int unsigned NBits = 1024,
  localparam int unsigned PW    = NBits + 3
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,     // SETLEN / WIPE, and the set-up of a BSR4: P[0] = 0
  input  logic             step_i,
  input  logic [1:0]       c_digit_i,   // c_{2i+1} c_{2i}
  input  logic [NBits-1:0] n_i,         // Modulus Register
  input  logic [NBits+1:0] n3_i,        // 3N register
  output logic [1:0]       k_o,         // the multiple of N of this step
  output logic [PW-1:0]    p_sum_o,
  output logic [PW-1:0]    p_carry_o,
  output logic             p_cy_o
);
  logic [PW-1:0] p_sum_q, p_carry_q;
  logic          p_cy_q;

  // Quotient Unit
  logic [1:0] q;
  yeh_quotient_unit u_qu (
    .p_sum_i  (p_sum_q[1:0]),
    .p_carry_i(p_carry_q[1:0]),
    .p_cy_i   (p_cy_q),
    .c_digit_i(c_digit_i),
    .n1_i     (n_i[1]),
    .q_o      (q),
    .k_o      (k_o)
  );

  // Mux-Adder row: the multiplexer picks k*N, the adder4_2 row adds it
  logic [PW-1:0] kn, digit_row, row_sum, row_carry;
  always_comb begin
    unique case (k_o)
      2'd0:    kn = '0;
      2'd1:    kn = PW'(n_i);
      2'd2:    kn = PW'({n_i, 1'b0});
      2'd3:    kn = PW'(n3_i);
      default: kn = '0;
    endcase
  end
  assign digit_row = PW'(c_digit_i);

  yeh_adder4_2 #(.Width(PW)) u_mux_adder (
    .a_i    (p_sum_q),
    .b_i    (p_carry_q),
    .c_i    (kn),
    .d_i    (digit_row),
    .cin_i  (p_cy_q),
    .sum_o  (row_sum),
    .carry_o(row_carry)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_sum_q   <= '0;
      p_carry_q <= '0;
      p_cy_q    <= 1'b0;
    end else if (clear_i) begin
      p_sum_q   <= '0;
      p_carry_q <= '0;
      p_cy_q    <= 1'b0;
    end else if (step_i) begin
      p_sum_q   <= {2'b00, row_sum[PW-1:2]};
      p_carry_q <= {1'b0, row_carry[PW-1:1]};
      p_cy_q    <= row_sum[1];
    end
  end

  assign p_sum_o   = p_sum_q;
  assign p_carry_o = p_carry_q;
  assign p_cy_o    = p_cy_q;

  logic unused_q;
  assign unused_q = ^q;

`ifndef SYNTHESIS
  // the two low bits of P + c + kN are 0 (k was chosen so), so the carry out of them is s1 = c0
  /* verilator lint_off SYNCASYNCNET */
  LowBitsCleared: assert property (@(posedge clk_i) disable iff (!rst_ni)
      step_i |-> (row_sum[0] == 1'b0 && row_sum[1] == row_carry[0]))
    else $error("yeh_r4mr: P + c + kN is not a multiple of 4");
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
