// Carry out of a + b (Width bits each) in log2(Width) levels: a generate/propagate parallel
// prefix (Kogge-Stone). Level 0: g = a & b, p = a | b per bit; level l + 1 combines each group
// with the group 2^l bits below it,
//   (G, P)[k] = (G[k] | P[k] & G[k - 2^l], P[k] & P[k - 2^l])      (0 below bit 0),
// so after clog2(Width) levels G[k] is the carry out of bits k .. 0, and G[Width - 1] the carry
// out of the sum. Only that bit is used: synthesis keeps its cone, a tree of about 2 * Width
// (G, P) cells, log2(Width) deep.
//
// This decides s = [R >= N] in the +1 clock of BSR4 (yeh_final_add); a ripple carry over
// NBits + 1 bits there would be the engine's critical path by far.
module yeh_carry_tree #(
  parameter int unsigned Width = 8   // >= 2
) (
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  output logic             cout_o
);
  localparam int unsigned Levels = $clog2(Width);

  for (genvar l = 0; l <= Levels; l++) begin : g_level
    logic [Width-1:0] g, p;   // (G, P) of the group of 2^l bits ending at each bit
    if (l == 0) begin : g_bits
      assign g = a_i & b_i;
      assign p = a_i | b_i;
    end else begin : g_prefix
      assign g = g_level[l-1].g | (g_level[l-1].p & (g_level[l-1].g << (1 << (l - 1))));
      assign p = g_level[l-1].p & (g_level[l-1].p << (1 << (l - 1)));
    end
  end

  assign cout_o = g_level[Levels].g[Width-1];

  logic unused_prefix;   // the other groups' (G, P): only the top carry is needed
  assign unused_prefix = ^{g_level[Levels].g[Width-2:0], g_level[Levels].p};
endmodule
