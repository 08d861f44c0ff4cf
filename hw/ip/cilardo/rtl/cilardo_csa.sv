// One carry-save stage of the cilardo2008 multiplier array (Figs. 4 and 6), built of Dual Field
// Adders (Fig. 2): (s_o, c_o) = s_i + c_i + x_i as a carry-save pair, modulo 2^Width. With
// fsel = 0 every carry is disabled and s_o = s_i xor c_i xor x_i (a GF(2) sum; c stays 0).
//
// Columns below Lo carry no addend bits in this stage (the caller guarantees x_i is 0 there):
// their s and c bits pass unchanged and no full adder is spent on them.
module cilardo_csa #(
  parameter int unsigned Width = 132,
  parameter int unsigned Lo    = 0
) (
  input  logic             fsel_i,
  input  logic [Width-1:0] s_i,
  input  logic [Width-1:0] c_i,
  input  logic [Width-1:0] x_i,
  output logic [Width-1:0] s_o,
  output logic [Width-1:0] c_o
);
  localparam logic [Width-1:0] Active = {Width{1'b1}} << Lo;

  logic [Width-1:0] sum, maj;
  assign sum = s_i ^ c_i ^ x_i;
  assign maj = ((s_i & c_i) | (s_i & x_i) | (c_i & x_i)) & {Width{fsel_i}} & Active;
  assign s_o = (sum & Active) | (s_i & ~Active);
  assign c_o = {maj[Width-2:0], 1'b0} | (c_i & ~Active);

  logic unused_top;
  assign unused_top = maj[Width-1];   // the carry out of the top column: arithmetic mod 2^Width
endmodule
