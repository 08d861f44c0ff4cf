// Table 1 / eq. (1) of cilardo2008: the dual-field Booth encoder of one partial-product row.
//
// Reads (b_{2i+1}, b_{2i}, b_{2i-1}) of the multiplier and drives the PPG (Fig. 5):
//   fsel = 1 (GF(N)):   the modified-Booth digit -2*b_{2i+1} + b_{2i} + b_{2i-1} in {-2..2}
//   fsel = 0 (GF(2^n)): the plain radix-4 digit b_{2i+1}*x + b_{2i} (b_{2i-1} ignored)
//   inv = fsel.b2i+1
//   trp = ~fsel.b2i + b2i.~b2i-1 + fsel.~b2i.b2i-1
//   shl = ~fsel.b2i+1 + b2i+1.~b2i.~b2i-1 + fsel.~b2i+1.b2i.b2i-1
// The printed eq. (1) lost the overline of fsel in the first term of trp and of shl; with it
// restored the equations reproduce all 16 rows of Table 1 (docs/algorithms.md, item 1; golden
// model montu.arith.cilardo_recoding.booth_digit).
module cilardo_booth_enc (
  input  logic b2_i,     // b_{2i+1}
  input  logic b1_i,     // b_{2i}
  input  logic b0_i,     // b_{2i-1}
  input  logic fsel_i,   // 1: GF(N), 0: GF(2^n)
  output logic inv_o,
  output logic trp_o,
  output logic shl_o
);
  assign inv_o = fsel_i & b2_i;
  assign trp_o = (~fsel_i & b1_i) | (b1_i & ~b0_i) | (fsel_i & ~b1_i & b0_i);
  assign shl_o = (~fsel_i & b2_i) | (b2_i & ~b1_i & ~b0_i) | (fsel_i & ~b2_i & b1_i & b0_i);
endmodule
