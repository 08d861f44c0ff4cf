// The channel modular reduction of a PE (stages S+1 and S+2): RES = SUM mod m, m = 2^W - c,
// for any SUM < 2^AccBits (AccBits = 2W + 8) and c < 2^CBits (CBits = W/4, W >= 24).
//   stage S+1  fold 1: V1 = hi(SUM) * c + lo(SUM)          < 2^(5W/4 + 9)
//   stage S+2  fold 2: V2 = hi(V1) * c + lo(V1)            < 2^W + 2^(W/2 + 9) < 2m
//              RES = V2 >= m ? V2 - m : V2, without a compare: T = V2 + c is added beside V2
//              (three operands), and V2 >= m exactly when T >= 2^W, where T - 2^W = V2 - m
//              (T < 2m + c = 2^(W+1) - c, so T's bit W is that carry): RES = T[W] ? T[W-1:0] : V2
// (hi = the bits above W, lo = the low W bits; 2^W = c mod m). sum_i and c_i are sampled at the
// end of stage S; res_o is valid in stage S+2 (the RAM write step). The registers advance on
// step_i. With Share = 1 and c of at most 18 bits (W <= 72) each product is ceil(a/18)
// MULT18X18D whose input registers take the operands in place of the fabric registers (hi(SUM)
// and c at the end of stage S, hi(V1) and c at the end of stage S+1: montu_mul_reg, InReg
// without OutReg), so the products are ready when they were and no fabric register or net lies
// between the operands' logic and the blocks; wider c (W > 72) uses Yosys's `*`. With Share > 1
// each product is formed over its step by antao_mul_share (18-bit limbs, InStep: the operands,
// hi(SUM) and c1 of sum_q / c1_q, hi(V1) and c2 of v1_q / c2_q, are registers loaded on step_i,
// so they hold from the step's first clock; the limb products are formed in the first Share - 1
// clocks and registered in their MULT18X18D), and V1 / RES are ready in the step's last clock
// (the one with step_i) through an add of registered limb products, no multiplier.
module antao_chan_reduce #(
  parameter int unsigned W       = 64,
  parameter int unsigned CBits   = W / 4,
  parameter int unsigned AccBits = 2 * W + 8,
  parameter int unsigned Share   = 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               step_i,  // the run datapath's clock enable
  input  logic [3:0]         phase_i, // the clock of the step (Share > 1)
  input  logic [AccBits-1:0] sum_i,   // stage S
  input  logic [CBits-1:0]   c_i,     // stage S
  output logic [W-1:0]       res_o,   // stage S+2
  output logic [W:0]         m_o      // stage S+2: the modulus of res_o
);
  localparam int unsigned HiBits = AccBits - W;             // hi(SUM)
  localparam int unsigned V1Bits = HiBits + CBits + 1;      // V1
  localparam int unsigned Hi2Bits = V1Bits - W;             // hi(V1)

  logic [AccBits-1:0] sum_q;
  logic [CBits-1:0]   c1_q, c2_q;
  logic [V1Bits-1:0]  v1_d, v1_q;
  logic [W:0]         fold2_w;   // hi(V1) * c (< 2^(Hi2Bits + CBits) <= 2^W)
  logic [W-1:0]       v2;        // V2 mod 2^W: RES when V2 < m
  logic [W:0]         t;
  logic [W:0]         m;

  if ((Share == 1) && (CBits <= 18)) begin : g_dsp_in
    // fold 1 from the operands of stage S, fold 2 from V1 and c of stage S+1, each in the input
    // registers of its blocks (loaded on step_i, as sum_q / v1_q / c1_q / c2_q are)
    logic [HiBits+CBits-1:0]  fold1;
    logic [Hi2Bits+CBits-1:0] fold2;

    antao_fold_dsp #(.AW(HiBits), .BW(CBits)) u_fold1 (
      .clk_i, .en_i(step_i), .a_i(sum_i[AccBits-1:W]), .b_i(c_i), .p_o(fold1)
    );
    antao_fold_dsp #(.AW(Hi2Bits), .BW(CBits)) u_fold2 (
      .clk_i, .en_i(step_i), .a_i(v1_d[V1Bits-1:W]), .b_i(c1_q), .p_o(fold2)
    );

    assign v1_d    = V1Bits'(fold1) + V1Bits'(sum_q[W-1:0]);
    assign fold2_w = (W+1)'(fold2);

    logic unused_phase;
    assign unused_phase = ^phase_i;

`ifndef SYNTHESIS
    // the blocks' operand copies equal the fabric registers once a step has loaded them
    logic primed_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni)     primed_q <= 1'b0;
      else if (step_i) primed_q <= 1'b1;
    end
    /* verilator lint_off SYNCASYNCNET */
    FoldOperandsAreCurrent: assert property (@(posedge clk_i) disable iff (!rst_ni)
        primed_q |-> ((fold1 == (HiBits+CBits)'(sum_q[AccBits-1:W]) * (HiBits+CBits)'(c1_q))
                      && (fold2 == (Hi2Bits+CBits)'(v1_q[V1Bits-1:W]) * (Hi2Bits+CBits)'(c2_q))))
      else $error("antao_chan_reduce: the folds' operand copies are stale");
    /* verilator lint_on SYNCASYNCNET */
`endif
  end else if (Share == 1) begin : g_direct
    // stage S+1: fold 1
    assign v1_d = V1Bits'(sum_q[AccBits-1:W]) * V1Bits'(c1_q) + V1Bits'(sum_q[W-1:0]);
    // stage S+2: fold 2
    assign fold2_w = (W+1)'(v1_q[V1Bits-1:W]) * (W+1)'(c2_q);

    logic unused_phase;
    assign unused_phase = ^phase_i;
  end else begin : g_shared
    logic [HiBits+CBits-1:0]  fold1;
    logic [Hi2Bits+CBits-1:0] fold2;

    antao_mul_share #(
      .AW(HiBits), .BW(CBits), .LimbA(18), .LimbB(18), .Share(Share), .InStep(1'b1)
    ) u_fold1 (
      .clk_i, .rst_ni, .phase_i, .a_i(sum_q[AccBits-1:W]), .b_i(c1_q), .p_o(fold1)
    );
    antao_mul_share #(
      .AW(Hi2Bits), .BW(CBits), .LimbA(18), .LimbB(18), .Share(Share), .InStep(1'b1)
    ) u_fold2 (
      .clk_i, .rst_ni, .phase_i, .a_i(v1_q[V1Bits-1:W]), .b_i(c2_q), .p_o(fold2)
    );

    assign v1_d    = V1Bits'(fold1) + V1Bits'(sum_q[W-1:0]);
    assign fold2_w = (W+1)'(fold2);
  end

  // V2 and T = V2 + c side by side; T's bit W is the conditional subtraction's select
  assign v2    = W'(fold2_w) + v1_q[W-1:0];
  assign t     = fold2_w + (W+1)'(v1_q[W-1:0]) + (W+1)'(c2_q);
  assign m     = {1'b1, {W{1'b0}}} - (W+1)'(c2_q);
  assign res_o = t[W] ? t[W-1:0] : v2;
  assign m_o   = m;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sum_q <= '0;
      c1_q  <= '0;
      v1_q  <= '0;
      c2_q  <= '0;
    end else if (step_i) begin
      sum_q <= sum_i;
      c1_q  <= c_i;
      v1_q  <= v1_d;
      c2_q  <= c1_q;
    end
  end
endmodule
