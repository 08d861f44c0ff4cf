// The reduction PEs' multiples of the modulus (Verma et al. EWBR4CMMM: "twn = 2n, thn = 3n ...
// precomputed so that each reduction iteration requires w bit addition"), formed by SETMOD one
// W-bit word per clock, LSB first (step_i with word idx_i = j = 0 .. m-1):
//   twn^j = {n^j_{W-2..0}, n^{j-1}_{W-1}}          (2n: a shift, the msb of the word below)
//   c_j, thn^j = n^j + twn^j + c_{j-1}             (3n = n + 2n, the carry handed up)
// Column j forms its own words from its own word of n, the msb of the word below and the carry
// that column j-1 registered in the step before, so no multiplexer gathers n's words in one
// place and no bus carries the result to every column (#20: the central 22:1 MUX of n's words
// and the broadcast of its sum were among the K = 1024 build's congested nets). The words stay
// in flip-flops: every reduction PE's 4:1 MUX reads its word (and the two low bits of the word
// above) in every clock of a pass. 3n < 2^(k+2) <= 2^(2D) fits the m words.
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
  logic [M-1:0]        c_q;       // column j's carry out of 3n, for column j + 1

  for (genvar j = 0; j < int'(M); j++) begin : g_col
    logic         msb_in, c_in, here;
    logic [W-1:0] twn_word;
    logic [W:0]   thn_sum;
    if (j == 0) begin : g_first
      assign msb_in = 1'b0;
      assign c_in   = 1'b0;
    end else begin : g_next
      assign msb_in = n_i[j-1][W-1];
      assign c_in   = c_q[j-1];
    end
    assign here     = step_i && (idx_i == JW'(j));
    assign twn_word = {n_i[j][W-2:0], msb_in};
    assign thn_sum  = {1'b0, n_i[j]} + {1'b0, twn_word} + {{W{1'b0}}, c_in};

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        twn_q[j] <= '0;
        thn_q[j] <= '0;
        c_q[j]   <= 1'b0;
      end else if (clear_i) begin
        twn_q[j] <= '0;
        thn_q[j] <= '0;
        c_q[j]   <= 1'b0;
      end else if (here) begin
        twn_q[j] <= twn_word;
        thn_q[j] <= thn_sum[W-1:0];
        c_q[j]   <= thn_sum[W];
      end
    end
  end

  logic unused_top;   // the carry out of the top word (3n fits the m words)
  assign unused_top = c_q[M-1];

  assign twn_o = twn_q;
  assign thn_o = thn_q;
endmodule
