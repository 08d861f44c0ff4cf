// adder4_2 (Yeh et al. Fig. 4): a row of Width 4:2 compressor cells, the adder of the DoCSA, of
// R4MR's Mux-Adder row and of the +1 clock's C1 addition. Cell k:
//
//   a[k] + b[k] + c[k] + d[k] + cin[k] = sum[k] + 2 * (carry[k] + cout[k])
//   t = a ^ b ^ c,  cout = maj(a, b, c),  sum = t ^ d ^ cin,  carry = maj(t, d, cin)
//
// cout[k] feeds cin[k+1]; it depends on a, b, c only (never on cin), so no carry travels more
// than one position: the row has the delay of one cell at any width. For the whole row:
//
//   a + b + c + d + cin_i = sum + 2 * carry        (carry_o[k] has weight 2^(k+1))
//
// cin_i enters the cell of bit 0 (a free slot the callers use for a 1-bit term of their
// carry-save value). The top cell's carry and cout (weight 2^Width) are dropped: every caller
// adds non-negative rows whose total is below 2^Width, so they are 0. The cells are written as
// bitwise vector equations (one equation, Width cells).
module yeh_adder4_2 #(
  parameter int unsigned Width = 8
) (
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  input  logic [Width-1:0] c_i,
  input  logic [Width-1:0] d_i,
  input  logic             cin_i,
  output logic [Width-1:0] sum_o,
  output logic [Width-1:0] carry_o
);
  logic [Width-1:0] t;      // a + b + c = t + 2 * cout, per cell
  logic [Width-1:0] cout;   // cout[k]: from the cell of bit k, weight 2^(k+1)
  logic [Width-1:0] cin;    // cin[k]:  into the cell of bit k

  assign t       = a_i ^ b_i ^ c_i;
  assign cout    = (a_i & b_i) | (c_i & (a_i ^ b_i));
  assign cin     = {cout[Width-2:0], cin_i};
  assign sum_o   = t ^ d_i ^ cin;
  assign carry_o = (t & d_i) | (cin & (t ^ d_i));

  logic unused_top_cout;
  assign unused_top_cout = cout[Width-1];
endmodule
