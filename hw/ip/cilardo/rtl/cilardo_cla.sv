// Fig. 7 of cilardo2008: the Dual-Field Carry-Look-Ahead adder that turns a carry-save pair
// back into binary: sum_o = a_i + b_i mod 2^Width (fsel = 1), a_i xor b_i (fsel = 0: every
// carry is killed).
//
// The carry look-ahead is the FPGA's dedicated carry chain (on the ECP5 a `+` maps to CCU2C
// cells, whose hardwired carry logic is much faster than a LUT prefix network). The carries
// are killed by masking the operands instead of the generate terms: in GF(2^n) the adder is
// fed (a xor b, 0), which raises no carry and sums to a xor b.
module cilardo_cla #(
  parameter int unsigned Width = 132
) (
  input  logic             fsel_i,
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  output logic [Width-1:0] sum_o
);
  logic [Width-1:0] x, y;

  assign x     = fsel_i ? a_i : (a_i ^ b_i);
  assign y     = fsel_i ? b_i : '0;
  assign sum_o = x + y;
endmodule
