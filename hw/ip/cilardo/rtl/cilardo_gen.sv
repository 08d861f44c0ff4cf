// Fig. 5 of cilardo2008: a Partial Product Generator (PPG; the Montgomery Modulus Generator,
// MMG, is the same circuit fed with N and a quotient digit).
//
// From the encoder's (inv, trp, shl) it forms the (w+2)-bit two's-complement multiple
//   GF(N)   (fsel = 1):  mult + one = +-(trp*X + shl*2X)    (trp and shl are never both 1)
//   GF(2^n) (fsel = 0):  mult = trp*X xor shl*x*X, one = 0  (eqs. 1-2 never raise inv)
// A negative multiple is the bitwise complement `mult` plus the "+1" bit `one` (the paper's
// ca / cn), which the word unit adds in a free slot of a later row (Fig. 6) instead of here.
module cilardo_gen #(
  parameter int unsigned Word = 64
) (
  input  logic [Word-1:0] x_i,      // A_i (PPG) or N_i (MMG)
  input  logic            inv_i,
  input  logic            trp_i,
  input  logic            shl_i,
  input  logic            fsel_i,
  output logic [Word+1:0] mult_o,   // two's complement, without the +1 of a negation
  output logic            one_o     // ca (PPG) / cn (MMG)
);
  logic [Word+1:0] pass, shifted, mag;
  logic            neg;

  assign pass    = trp_i ? {2'b00, x_i} : '0;
  assign shifted = shl_i ? {1'b0, x_i, 1'b0} : '0;
  // one multiplexer level: in GF(N) at most one of trp, shl is set, so xor = or = sum
  assign mag     = pass ^ shifted;
  assign neg     = inv_i & fsel_i;
  assign mult_o  = neg ? ~mag : mag;
  assign one_o   = neg;
endmodule
