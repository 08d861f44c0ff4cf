// A product formed over the Share clocks of one step (MulShare > 1): P = A * B with
// G = ceil(Q / Share) multipliers instead of Q. A and B are cut into LimbA- and LimbB-bit limbs
// (KA and KB of them, Q = KA * KB limb products a_i * b_j, q = i * KB + j; a limb product of at
// most 18 x 18 bits is one MULT18X18D). In the clock of phase g (0 .. Share-1) multiplier u forms
// product q = g * G + u (none when q >= Q), at its weight 2^(LimbA * i + LimbB * j), and the
// clock's products are added to the partial sum of the step's earlier clocks:
//   SUM_g = (g == 0 ? 0 : SUM_(g-1)) + sum_u a_i(q) * b_j(q) * 2^(LimbA * i + LimbB * j)
// so p_o = A * B in the step's last clock (phase Share-1). a_i and b_i must hold for the whole
// step (they are registers of the run datapath, which change only at the end of a step).
module antao_mul_share #(
  parameter int unsigned AW    = 64,
  parameter int unsigned BW    = 64,
  parameter int unsigned LimbA = 16,
  parameter int unsigned LimbB = 16,
  parameter int unsigned Share = 2,
  localparam int unsigned PW   = AW + BW
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [3:0]    phase_i,   // the clock of the step, 0 .. Share-1
  input  logic [AW-1:0] a_i,
  input  logic [BW-1:0] b_i,
  output logic [PW-1:0] p_o        // a_i * b_i in the clock of phase Share-1
);
  localparam int unsigned LA = (LimbA < AW) ? LimbA : AW;   // limb widths
  localparam int unsigned LB = (LimbB < BW) ? LimbB : BW;
  localparam int unsigned KA = (AW + LA - 1) / LA;
  localparam int unsigned KB = (BW + LB - 1) / LB;
  localparam int unsigned Q  = KA * KB;                     // limb products
  localparam int unsigned G  = (Q + Share - 1) / Share;     // multipliers
  localparam int unsigned LW = LA + LB;

  logic [LA*KA-1:0] a_ext;
  logic [LB*KB-1:0] b_ext;
  logic [LA-1:0]    op_a   [G];
  logic [LB-1:0]    op_b   [G];
  logic [LW-1:0]    prod   [G];
  logic [PW-1:0]    placed [G];
  logic [PW-1:0]    group, sum_d, sum_q;

  assign a_ext = (LA*KA)'(a_i);
  assign b_ext = (LB*KB)'(b_i);

  // the operands of multiplier u in this clock: the limbs of product q = phase * G + u
  always_comb begin
    for (int unsigned u = 0; u < G; u++) begin
      op_a[u] = '0;
      op_b[u] = '0;
      for (int unsigned g = 0; g < Share; g++) begin
        if ((g * G + u < Q) && (32'(phase_i) == g)) begin
          op_a[u] = a_ext[LA * ((g * G + u) / KB) +: LA];
          op_b[u] = b_ext[LB * ((g * G + u) % KB) +: LB];
        end
      end
    end
  end

  for (genvar u = 0; u < int'(G); u++) begin : g_mult
    assign prod[u] = LW'(op_a[u]) * LW'(op_b[u]);
  end

  // each product at its weight, added to the partial sum of the step
  always_comb begin
    group = '0;
    for (int unsigned u = 0; u < G; u++) begin
      placed[u] = '0;
      for (int unsigned g = 0; g < Share; g++) begin
        if ((g * G + u < Q) && (32'(phase_i) == g)) begin
          placed[u] = PW'(prod[u]) << (LA * ((g * G + u) / KB) + LB * ((g * G + u) % KB));
        end
      end
      group = group + placed[u];
    end
    sum_d = ((phase_i == 4'd0) ? '0 : sum_q) + group;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sum_q <= '0;
    else         sum_q <= sum_d;
  end

  assign p_o = sum_d;

`ifndef SYNTHESIS
  // the operands hold for the whole step: they change only in a step's first clock (phase 0)
  /* verilator lint_off SYNCASYNCNET */
  OperandsHoldForTheStep: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (phase_i != 4'd0) |-> ($stable(a_i) && $stable(b_i)))
    else $error("antao_mul_share: an operand changed in the middle of a step");
  PhaseInRange: assert property (@(posedge clk_i) disable iff (!rst_ni)
      32'(phase_i) < Share)
    else $error("antao_mul_share: phase_i beyond the step");
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
