// The reduction PEs' multiples of the modulus (Verma et al. EWBR4CMMM: "twn = 2n, thn = 3n ...
// precomputed so that each reduction iteration requires w bit addition"), formed by SETMOD one
// W-bit word per clock, LSB first (step_i with word idx_i = j = 0 .. m-1):
//   twn^j = {n^j_{W-2..0}, n^{j-1}_{W-1}}          (2n: a shift, the msb handed on)
//   c, thn^j = n^j + twn^j + c                     (3n = n + 2n with the carry handed on)
// The words stay in flip-flops: every reduction PE's 4:1 MUX reads its word (and the two low
// bits of the word above) in every clock of a pass. 3n < 2^(k+2) <= 2^(2D) fits the m words.
module verma_multiples #(
  parameter  int unsigned W  = 48,
  parameter  int unsigned M  = 22,
  localparam int unsigned JW = $clog2(M + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                clear_i,     // SETLEN, WIPE
  input  logic                step_i,      // form word idx_i
  input  logic [JW-1:0]       idx_i,
  input  logic [M-1:0][W-1:0] n_i,
  output logic [M-1:0][W-1:0] twn_o,
  output logic [M-1:0][W-1:0] thn_o
);
  logic [M-1:0][W-1:0] twn_q, thn_q;
  logic                msb_q, c_q;     // n^{j-1}_{W-1} and the carry of 3n into word j

  // word j of n, and what enters it from word j-1 (nothing for word 0)
  logic [W-1:0] n_word;
  logic         first;
  always_comb begin
    n_word = '0;
    for (int unsigned j = 0; j < M; j++) begin
      if (idx_i == JW'(j)) n_word = n_i[j];
    end
  end
  assign first = (idx_i == '0);

  logic [W-1:0] twn_word;
  logic [W:0]   thn_sum;
  assign twn_word = {n_word[W-2:0], msb_q && !first};
  assign thn_sum  = {1'b0, n_word} + {1'b0, twn_word} + {{W{1'b0}}, c_q && !first};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      twn_q <= '0;
      thn_q <= '0;
      msb_q <= 1'b0;
      c_q   <= 1'b0;
    end else if (clear_i) begin
      twn_q <= '0;
      thn_q <= '0;
      msb_q <= 1'b0;
      c_q   <= 1'b0;
    end else if (step_i) begin
      for (int unsigned j = 0; j < M; j++) begin
        if (idx_i == JW'(j)) begin
          twn_q[j] <= twn_word;
          thn_q[j] <= thn_sum[W-1:0];
        end
      end
      msb_q <= n_word[W-1];
      c_q   <= thn_sum[W];
    end
  end

  assign twn_o = twn_q;
  assign thn_o = thn_q;
endmodule
