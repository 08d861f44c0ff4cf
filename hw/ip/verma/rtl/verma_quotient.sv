// The quotient logic of PE0 (R4CMMM's Karnaugh map, Verma et al. EWBR4CMMM steps 4-5): the radix-4
// quotient digit q[i] = -T[i-1] * n^-1 mod 4 from the two low bits of T[i-1] and bit 1 of the odd
// modulus n:
//   q0 = T0
//   q1 = ~n1 & ~T1 & T0  |  T1 & (~T0 | n1)
// (the "2 OR + 1 NOT + 1 AND" of the paper's critical path; montu.arith.verma._quotient_digit).
module verma_quotient (
  input  logic [1:0] t_i,    // T[i-1] bits 1..0
  input  logic       n1_i,   // n bit 1
  output logic [1:0] q_o
);
  assign q_o[0] = t_i[0];
  assign q_o[1] = (!n1_i && !t_i[1] && t_i[0]) || (t_i[1] && (!t_i[0] || n1_i));
endmodule
