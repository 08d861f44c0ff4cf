// Types shared by the datapath modules of the yeh engine (hand-written; the ISA constants are in
// the generated yeh_pkg).
package yeh_core_pkg;

  // How one BSR4(A, B) takes its operands (Yeh et al. §3, Fig. 1). The multiplier A streams two
  // bits per clock into the MSPG, from the Carry/Sum registers X through their 2-bit adder
  // (a_from_x) or from the Constant Register C's shift register. The multiplicand B is X itself
  // (b_square: the MSPG's square mode, built from the square register), the constant 1 (b_one) or
  // the Plaintext Register M.
  typedef struct packed {
    logic a_from_x;   // A = X (else C)
    logic b_square;   // B = X = A: square mode
    logic b_one;      // B = 1 (else M, unless b_square)
    logic reduce;     // f = 1: X = R - N when R >= N, decided in the +1 clock
    logic capture_m;  // EXP's first squaring: M takes the multiplier stream (M-bar), 2 bits/clock
  } bsr4_mode_t;

endpackage
