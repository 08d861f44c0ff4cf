// Hensel lifting of the inverse of an odd word, one bit per cycle: the Montgomery constant of
// SETMOD and the factor of MINV's halving both come from it.
//   inv = n^-1 mod 2^Word        (GF(2^m): n(x)^-1 mod x^Word)
//   w_o = neg_i ? -inv : inv     (GF(2^m): inv, since -1 = 1)
// SETMOD takes w = -N^-1 mod 2^Word (neg_i = 1); MINV takes -y^-1 or x^-1 (neg_i = y odd).
//
// With inv_k the low k bits of the inverse (inv_1 = 1, n odd), n * inv_k = 1 + 2^k * p_k for an
// integer 0 <= p_k < n. Bit k of the inverse is p_k[0] (it makes n * inv_{k+1} - 1 divisible by
// 2^(k+1)), and then
//   p_{k+1} = (p_k + p_k[0] * n) / 2        (GF(2^m): (p_k xor p_k[0] * n) / x)
// from p_1 = (n - 1) / 2 = n >> 1. start_i loads n, p_1 and the marker inv_q = 2^(Word-1) straight
// from n_i (no logic after the read that feeds it); each of the next Word - 1 cycles shifts bit k
// in at the top of inv_q. The marker's 1 reaches bit 0 after the last one: busy_o = !inv_q[0].
// Timing: start_i in cycle c, busy_o in cycles c+1 .. c+Word-1, w_o valid from cycle c+Word on
// (until the next start_i). Lifting -n^-1 directly takes Word steps from its remainder 1 (or an
// incrementer after the read, to start from (n + 1) / 2); MINV has no cycle to spare for that.
// All registers reset: the inversion engine is held in reset to clear an operand's low word.
module montu_hensel #(
  parameter int unsigned Word = 64
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,   // load n_i
  input  logic            gf2m_i,    // held until w_o is taken
  input  logic [Word-1:0] n_i,       // odd
  input  logic            neg_i,     // w_o = -inv (GF(p))
  output logic            busy_o,
  output logic [Word-1:0] w_o
);
  logic [Word-1:0] n_q, p_d, p_q, inv_d, inv_q;
  logic [Word:0]   sum;
  logic            bit_k;

  always_comb begin
    // one step: bit k = p_k[0], p_{k+1} = (p_k + bit k * n) / 2, bit k in at the top of inv
    bit_k = p_q[0];
    sum   = gf2m_i ? {1'b0, p_q ^ (bit_k ? n_q : '0)}
                   : ({1'b0, p_q} + {1'b0, (bit_k ? n_q : '0)});
    p_d   = sum[Word:1];
    inv_d = {bit_k, inv_q[Word-1:1]};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      n_q   <= '0;
      p_q   <= '0;
      inv_q <= Word'(1);
    end else if (start_i) begin
      n_q   <= n_i;
      p_q   <= n_i >> 1;
      inv_q <= {1'b1, {(Word-1){1'b0}}};
    end else if (busy_o) begin
      p_q   <= p_d;
      inv_q <= inv_d;
    end
  end

  // sum[0] is 0 by construction (p_k[0] = 1 exactly when n, which is odd, is added)
  logic unused_sum0;
  assign unused_sum0 = sum[0];

  // -inv = ~(inv - 1) = {~inv[Word-1:1], 1} for an odd inv: no carry chain
  assign busy_o = !inv_q[0];
  assign w_o    = (neg_i && !gf2m_i) ? {~inv_q[Word-1:1], 1'b1} : inv_q;
endmodule
