// The channel modular reduction of a PE (stages S+1 and S+2): RES = SUM mod m, m = 2^W - c,
// for any SUM < 2^AccBits (AccBits = 2W + 8) and c < 2^CBits (CBits = W/4, W >= 24).
//   stage S+1  fold 1: V1 = hi(SUM) * c + lo(SUM)          < 2^(5W/4 + 9)
//   stage S+2  fold 2: V2 = hi(V1) * c + lo(V1)            < 2^W + 2^(W/2 + 9) < 2m
//              RES = V2 >= m ? V2 - m : V2
// (hi = the bits above W, lo = the low W bits; 2^W = c mod m). sum_i and c_i are sampled at the
// end of stage S; res_o is valid in stage S+2 (the RAM write clock).
module antao_chan_reduce #(
  parameter int unsigned W       = 64,
  parameter int unsigned CBits   = W / 4,
  parameter int unsigned AccBits = 2 * W + 8
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [AccBits-1:0] sum_i,   // stage S
  input  logic [CBits-1:0]   c_i,     // stage S
  output logic [W-1:0]       res_o,   // stage S+2
  output logic [W:0]         m_o      // stage S+2: the modulus of res_o
);
  localparam int unsigned HiBits = AccBits - W;             // hi(SUM)
  localparam int unsigned V1Bits = HiBits + CBits + 1;      // V1

  logic [AccBits-1:0] sum_q;
  logic [CBits-1:0]   c1_q, c2_q;
  logic [V1Bits-1:0]  v1_d, v1_q;
  logic [W:0]         v2, m;

  // stage S+1: fold 1
  assign v1_d = V1Bits'(sum_q[AccBits-1:W]) * V1Bits'(c1_q) + V1Bits'(sum_q[W-1:0]);

  // stage S+2: fold 2 and the conditional subtraction
  assign v2    = (W+1)'(v1_q[V1Bits-1:W]) * (W+1)'(c2_q) + (W+1)'(v1_q[W-1:0]);
  assign m     = {1'b1, {W{1'b0}}} - (W+1)'(c2_q);
  assign res_o = (v2 >= m) ? W'(v2 - m) : W'(v2);
  assign m_o   = m;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sum_q <= '0;
      c1_q  <= '0;
      v1_q  <= '0;
      c2_q  <= '0;
    end else begin
      sum_q <= sum_i;
      c1_q  <= c_i;
      v1_q  <= v1_d;
      c2_q  <= c1_q;
    end
  end
endmodule
