// Quotient Unit of R4MR (Yeh et al. Fig. 2): the two quotient bits of iteration i and the
// multiple k of N that clears them.
//
//   (q1, q0) = (P[2i] + c_{2i+1}c_{2i}) mod 4       P = p_sum + p_carry + p_cy (carry-save)
//   k = (q0 == 0) ? (q1 ? 2 : 0) : ((q1 == n1) ? 3 : 1)    (montu.arith.yeh.quotient_multiple)
//
// so that P + c + k*N = 0 (mod 4) (N odd; n1 = bit 1 of N; 3N from its own register). Only the
// two low bits of each carry-save term are read: a 4-operand 2-bit adder and a few gates.
module yeh_quotient_unit (
  input  logic [1:0] p_sum_i,     // bits 1..0 of P's sum row
  input  logic [1:0] p_carry_i,   // bits 1..0 of P's carry row
  input  logic       p_cy_i,      // P's 1-bit term (weight 1)
  input  logic [1:0] c_digit_i,   // c_{2i+1} c_{2i} from the DoCSA
  input  logic       n1_i,
  output logic [1:0] q_o,
  output logic [1:0] k_o
);
  always_comb begin
    q_o = p_sum_i + p_carry_i + {1'b0, p_cy_i} + c_digit_i;   // mod 4
    if (!q_o[0]) k_o = q_o[1] ? 2'd2 : 2'd0;
    else         k_o = (q_o[1] == n1_i) ? 2'd3 : 2'd1;
  end
endmodule
