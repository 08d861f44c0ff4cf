// AC_j, the ADD and CONCATENATE unit of the early-word approach (Verma et al. §4.1-4.2, Fig. 5,
// EWBR4CMMM step 17): the two least significant bits of word j+1 of S[i], which become the two
// most significant bits of T[i]^j, computed in the same clock as word j instead of waiting for
// PE j+1's next iteration:
//   d_j = S[i-1]^{j+1}_{3..2} + bt_j + c_{j+1}   (mod 4)
// where S[i-1]^{j+1}_{3..2} = T[i-1]^{j+1}_{1..0} comes from PE j+1 (S[0]^{j+1}_{1..0} = P's bits
// when i = 1), bt_j = bits 1..0 of word j+1 of the selected multiple q*n, and c_{j+1} is PE j's
// carry out. A 2-bit adder with a carry in (the "2 bit addition" of the critical path).
module verma_early_word (
  input  logic [1:0] prev_i,    // S[i-1]^{j+1} bits 3..2, from PE j+1
  input  logic [1:0] bt_i,      // (q*n)^{j+1} bits 1..0
  input  logic       c_i,       // c_{j+1}, PE j's carry out
  output logic [1:0] d_o        // T[i]^j bits W-1..W-2
);
  assign d_o = prev_i + bt_i + {1'b0, c_i};
endmodule
