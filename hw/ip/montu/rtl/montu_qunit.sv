// The Montgomery quotient-digit unit (bie2021 Alg. 2 line 6):
//   t = u * w mod 2^Word   (GF(p): low half of the integer product)
//   t = u(x) * w(x) mod x^Word   (GF(2^m): low half of the carry-less product)
// Only the low Word bits of the product are built. Combinational.
module montu_qunit #(
  parameter int unsigned Word = 64
) (
  input  logic            gf2m_i,
  input  logic [Word-1:0] u_i,
  input  logic [Word-1:0] w_i,
  output logic [Word-1:0] t_o
);
  // Low half of the carry-less product: bit k of w contributes u << k.
  function automatic logic [Word-1:0] clmul_lo(logic [Word-1:0] a, logic [Word-1:0] b);
    logic [Word-1:0] acc;
    acc = '0;
    for (int unsigned k = 0; k < Word; k++) begin
      if (b[k]) acc = acc ^ (a << k);
    end
    return acc;
  endfunction

  always_comb begin
    t_o = gf2m_i ? clmul_lo(u_i, w_i) : (u_i * w_i);
  end
endmodule
