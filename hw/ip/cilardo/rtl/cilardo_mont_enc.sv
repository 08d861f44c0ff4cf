// Table 2 / eq. (2) of cilardo2008: the dual-field Montgomery (quotient-digit) encoder.
//
// Reads (sp_1, sp_0) of SP = P + AA (the running sum's current radix-4 digit, already holding
// the row's partial product) and n_1 (N is odd: n_0 = 1); drives the MMG so that
// SP + Q*N = 0 mod 4 (GF(N), Q in {-1, 0, 1, 2}) or mod x^2 (GF(2^n), Q in {0, 1, x, x+1}):
//   inv = fsel.~sp1.~n1 + fsel.sp1.sp0.n1
//   trp = sp0
//   shl = sp1.~sp0 + ~fsel.sp1.~n1 + ~fsel.~sp1.sp0.n1
// The printed eq. (2) has one overline too many (~fsel in the second term of inv); as printed
// it would negate in polynomial mode and miss -N in row (1, 1, 1, 1). With fsel it reproduces
// all 16 rows of Table 2 (docs/algorithms.md, item 2; montgomery_digit in the golden model).
module cilardo_mont_enc (
  input  logic sp1_i,
  input  logic sp0_i,
  input  logic n1_i,
  input  logic fsel_i,   // 1: GF(N), 0: GF(2^n)
  output logic inv_o,
  output logic trp_o,
  output logic shl_o
);
  assign inv_o = (fsel_i & ~sp1_i & ~n1_i) | (fsel_i & sp1_i & sp0_i & n1_i);
  assign trp_o = sp0_i;
  assign shl_o = (sp1_i & ~sp0_i) | (~fsel_i & sp1_i & ~n1_i) | (~fsel_i & ~sp1_i & sp0_i & n1_i);
endmodule
