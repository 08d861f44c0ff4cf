// DoCSA, the Double-Output Carry-Save Adder (Yeh et al. Fig. 1, Fig. 4): the accumulator of the
// serial multiplication, a row of adder4_2 cells.
//
// Per iteration i:   T = acc + pp0 + pp1              (acc = acc_sum + acc_carry + acc_cy)
//                    digit_o = T mod 4 = c_{2i+1} c_{2i}   (exactly digit i of A * B)
//                    acc'    = floor(T / 4)
// acc stays in carry-save form: the 4:2 row gives T = s + 2c; T mod 4 = s0 + 2 (s1 ^ c0), the
// carry out of those two bits (s1 & c0) is the 1-bit term acc_cy that enters the next row at
// bit 0 (cin), and acc' = s >> 2 + c >> 1 + acc_cy. After L/2 iterations acc holds
// C1 = floor(A * B / 2^L) (< 2^L), which the +1 clock adds to P[L].
// Bounds: acc < 2^L, pp0 < 1.25 * 2^(L), pp1 < 2.5 * 2^L: T < 2^(L+3), so AccW = NBits + 3.
module yeh_docsa #(
  parameter  int unsigned NBits = 1024,
  localparam int unsigned AccW  = NBits + 3
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,   // SETLEN / WIPE, and the set-up of a BSR4: acc = 0
  input  logic            step_i,
  input  logic [NBits:0]  pp0_i,
  input  logic [NBits+1:0] pp1_i,
  output logic [1:0]      digit_o,   // c_{2i+1} c_{2i}
  output logic [AccW-1:0] acc_sum_o,
  output logic [AccW-1:0] acc_carry_o,
  output logic            acc_cy_o
);
  logic [AccW-1:0] acc_sum_q, acc_carry_q;
  logic            acc_cy_q;
  logic [AccW-1:0] row_sum, row_carry;

  yeh_adder4_2 #(.Width(AccW)) u_row (
    .a_i    (acc_sum_q),
    .b_i    (acc_carry_q),
    .c_i    (AccW'(pp0_i)),
    .d_i    (AccW'(pp1_i)),
    .cin_i  (acc_cy_q),
    .sum_o  (row_sum),
    .carry_o(row_carry)
  );

  assign digit_o = {row_sum[1] ^ row_carry[0], row_sum[0]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_sum_q   <= '0;
      acc_carry_q <= '0;
      acc_cy_q    <= 1'b0;
    end else if (clear_i) begin
      acc_sum_q   <= '0;
      acc_carry_q <= '0;
      acc_cy_q    <= 1'b0;
    end else if (step_i) begin
      acc_sum_q   <= {2'b00, row_sum[AccW-1:2]};
      acc_carry_q <= {1'b0, row_carry[AccW-1:1]};
      acc_cy_q    <= row_sum[1] & row_carry[0];
    end
  end

  assign acc_sum_o   = acc_sum_q;
  assign acc_carry_o = acc_carry_q;
  assign acc_cy_o    = acc_cy_q;
endmodule
