// The operand check of BSR4 and EXP: A < N and B < N, compared word by word, LSB first, as the
// words stream past (one 64-bit word per clock):
//   lt' = (a_j < n_j) | ((a_j == n_j) & lt)       (lt = 0 before word 0: equal is not less)
// After word W - 1, a_lt_o = [A < N] and b_lt_o = [B < N].
module yeh_range_check (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic        step_i,
  input  logic [63:0] a_word_i,
  input  logic [63:0] b_word_i,
  input  logic [63:0] n_word_i,
  output logic        a_lt_o,
  output logic        b_lt_o
);
  logic a_lt_q, b_lt_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_lt_q <= 1'b0;
      b_lt_q <= 1'b0;
    end else if (start_i) begin
      a_lt_q <= 1'b0;
      b_lt_q <= 1'b0;
    end else if (step_i) begin
      a_lt_q <= (a_word_i < n_word_i) || ((a_word_i == n_word_i) && a_lt_q);
      b_lt_q <= (b_word_i < n_word_i) || ((b_word_i == n_word_i) && b_lt_q);
    end
  end

  assign a_lt_o = a_lt_q;
  assign b_lt_o = b_lt_q;
endmodule
