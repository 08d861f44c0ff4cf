// One lane of the dual-field multiply-accumulate:
//   {hi, lo} = a * b + c + d
// where "*" is integer multiplication and "+" integer addition in GF(p) mode, and "*" is
// carry-less (GF(2)[x]) multiplication and "+" is XOR in GF(2^m) mode (carry chain off).
// The sum never overflows 2*Word bits: (2^Word-1)^2 + 2*(2^Word-1) = 2^(2*Word) - 1.
// Combinational; the datapath registers the result.
module montu_mac #(
  parameter int unsigned Word = 64
) (
  input  logic              gf2m_i,   // 1: carry-less (GF(2^m)), 0: integer (GF(p))
  input  logic [Word-1:0]   a_i,
  input  logic [Word-1:0]   b_i,
  input  logic [Word-1:0]   c_i,
  input  logic [Word-1:0]   d_i,
  output logic [2*Word-1:0] sum_o
);
  logic [2*Word-1:0] prod_int, prod_clmul;

  montu_clmul #(.Word(Word)) u_clmul (.a_i, .b_i, .p_o(prod_clmul));

  always_comb begin
    prod_int   = {{Word{1'b0}}, a_i} * {{Word{1'b0}}, b_i};
    if (gf2m_i) begin
      sum_o = prod_clmul ^ {{Word{1'b0}}, c_i} ^ {{Word{1'b0}}, d_i};
    end else begin
      sum_o = prod_int + {{Word{1'b0}}, c_i} + {{Word{1'b0}}, d_i};
    end
  end
endmodule
