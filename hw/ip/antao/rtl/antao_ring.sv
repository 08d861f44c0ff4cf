// The ring of P processing elements (Antão & Sousa, Fig. 2): one microinstruction drives every
// PE (SIMD); PE e receives R of PE e-1, PE 0 receives R of PE P-1 (HOP: the ring closes) or the
// input FIFO's word (SHIN: per-PE values enter one hop at a time).
module antao_ring
  import antao_ucode_pkg::*;
#(
  parameter int unsigned W         = 64,
  parameter int unsigned P         = 4,
  parameter int unsigned Depth     = 256,
  parameter int unsigned MulStages = 2,
  parameter int unsigned MulShare  = 1,
  localparam int unsigned AW       = $clog2(Depth)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               step_i,       // the run datapath's clock enable
  input  logic [3:0]         phase_i,      // the clock of the step (MulShare > 1)
  input  logic               clear_i,
  input  logic               wipe_we_i,
  input  logic [AW-1:0]      wipe_addr_i,
  input  logic [AW-1:0]      ra_i,
  input  logic [AW-1:0]      rb_i,
  input  logic               s1_valid_i,
  input  logic [1:0]         s1_xsel_i,
  input  logic [1:0]         s1_ysel_i,
  input  logic [2:0]         s1_zsel_i,
  input  logic               s1_accin_i,
  input  logic               s1_accwr_i,
  input  logic [1:0]         s1_wr_i,
  input  logic               s1_base_i,
  input  logic [2:0]         s1_ring_i,
  input  logic [AW-1:0]      s1_d_i,
  input  logic [W-1:0]       in_i,
  input  logic [7:0]         alpha_i,
  output logic [2*W-1:0]     r_last_o,     // R of PE P-1 (alpha and output accumulators)
  output logic [P-1:0]       red_valid_o,
  output logic [P-1:0][W-1:0] res_o,
  output logic [P-1:0][W:0]  m_o
);
  logic [P-1:0][2*W-1:0] r, r_prev;

  assign r_prev[0] = (s1_ring_i == RingShin) ? (2*W)'(in_i) : r[P-1];
  for (genvar e = 1; e < int'(P); e++) begin : g_ring
    assign r_prev[e] = r[e-1];
  end

  for (genvar e = 0; e < int'(P); e++) begin : g_pe
    antao_pe #(.W(W), .Depth(Depth), .MulStages(MulStages), .MulShare(MulShare)) u_pe (
      .clk_i, .rst_ni, .step_i, .phase_i, .clear_i, .wipe_we_i, .wipe_addr_i,
      .ra_i, .rb_i,
      .s1_valid_i, .s1_xsel_i, .s1_ysel_i, .s1_zsel_i, .s1_accin_i, .s1_accwr_i, .s1_wr_i,
      .s1_base_i, .s1_ring_i, .s1_d_i, .in_i, .alpha_i,
      .r_prev_i   (r_prev[e]),
      .r_o        (r[e]),
      .red_valid_o(red_valid_o[e]),
      .res_o      (res_o[e]),
      .m_o        (m_o[e])
    );
  end

  assign r_last_o = r[P-1];
endmodule
