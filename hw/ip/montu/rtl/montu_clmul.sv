// Carry-less product p = a·b in GF(2)[x]: the XOR of a << k over the set bits k of b
// (combinational; the GF(2^m) half of the MAC lanes and of the inversion lanes).
module montu_clmul #(
  parameter int unsigned Word = 64
) (
  input  logic [Word-1:0]   a_i,
  input  logic [Word-1:0]   b_i,
  output logic [2*Word-1:0] p_o
);
  always_comb begin
    p_o = '0;
    for (int unsigned k = 0; k < Word; k++) begin
      if (b_i[k]) p_o = p_o ^ ({{Word{1'b0}}, a_i} << k);
    end
  end
endmodule
