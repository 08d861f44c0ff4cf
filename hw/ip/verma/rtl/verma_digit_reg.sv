// The multiplier-digit registers of a pass: the radix-4 digits of P (for the YPEs: Y = P*P) and of
// R (for the XPEs: X = P*R), loaded in the pass's load clock, read MSB first one digit per clock
// (index I + 1 - c from the pass controller). P's digits are a copy taken at the load: the T
// words that started as P change every iteration.
module verma_digit_reg #(
  parameter int unsigned Digits = 518,     // D(K)
  parameter int unsigned DiW    = 10
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   clear_i,
  input  logic                   load_i,
  input  logic [Digits-1:0][1:0] p_i,
  input  logic [Digits-1:0][1:0] r_i,
  input  logic [DiW-1:0]         idx_i,
  output logic [1:0]             digit_p_o,
  output logic [1:0]             digit_r_o
);
  logic [Digits-1:0][1:0] p_q, r_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_q <= '0;
      r_q <= '0;
    end else if (clear_i) begin
      p_q <= '0;
      r_q <= '0;
    end else if (load_i) begin
      p_q <= p_i;
      r_q <= r_i;
    end
  end

  // digit idx_i (< D <= Digits while the accumulation runs)
  assign digit_p_o = p_q[idx_i];
  assign digit_r_o = r_q[idx_i];
endmodule
