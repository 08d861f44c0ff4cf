// Fig. 7 of cilardo2008: the Dual-Field Carry-Look-Ahead adder that turns the word unit's
// carry-save pair back into binary at the end of the pipeline: sum_o = a_i + b_i mod 2^Width
// (fsel = 1), a_i xor b_i (fsel = 0: every generate term is killed, so every carry is 0 and
// the sum bits are the propagate signals p_i = a_i xor b_i).
//
// The look-ahead is a parallel-prefix (Kogge-Stone) carry network over (g, p), log2(Width)
// levels; no carry in.
module cilardo_cla #(
  parameter int unsigned Width = 132
) (
  input  logic             fsel_i,
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  output logic [Width-1:0] sum_o
);
  logic [Width-1:0] p0, g, p;

  assign p0 = a_i ^ b_i;

  always_comb begin
    g = a_i & b_i & {Width{fsel_i}};   // generate, disabled in GF(2^n)
    p = p0;                            // propagate
    for (int unsigned d = 1; d < Width; d = d << 1) begin
      // (g, p)[k] <- (g, p)[k] o (g, p)[k - d]; columns k < d already reach column 0
      g = g | (p & (g << d));
      p = p & (p << d);
    end
  end

  assign sum_o = p0 ^ {g[Width-2:0], 1'b0};   // carry into column k = group generate of [0, k)

  logic unused_prefix;
  assign unused_prefix = g[Width-1] ^ (^p);
endmodule
