// Pipeline stage boundaries: q = d delayed by Stages cycles. Stages = 0 is a wire (q = d in the
// same cycle), so an engine writes an optional stage as Stages = Pipelined: the default build has
// exactly the wires it had and the pipelined build one register per boundary. Stages > 1 is a
// delay line (the operand or control that waits for a multiplier to finish).
//   T       the type carried (a packed struct, a word, a bit)
//   Stages  number of registers in series (0: a wire; clk_i, rst_ni and en_i are then unused)
//   Reset   1: asynchronous reset to '0 (control); 0: no reset (datapath words, written before
//           they are read)
//   en_i    load enable of every register (1'b1 for registers that move every cycle)
module montu_stage_reg #(
  parameter type         T      = logic,
  parameter int unsigned Stages = 1,
  parameter bit          Reset  = 1'b1
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,
  input  T     d_i,
  output T     q_o
);
  if (Stages == 0) begin : g_wire
    assign q_o = d_i;
    logic unused_wire;
    assign unused_wire = ^{clk_i, rst_ni, en_i};
  end else begin : g_regs
    // q_q[k]: d_i k + 1 cycles ago. A packed array, not an unpacked one: synthesis then keeps
    // the flip-flops' names (an unpacked array is a memory to Yosys, mapped to anonymous
    // flip-flops), which montu.synth.depth reports.
    logic [Stages-1:0][$bits(T)-1:0] q_q;
    if (Reset) begin : g_reset
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          for (int unsigned k = 0; k < Stages; k++) q_q[k] <= '0;
        end else if (en_i) begin
          q_q[0] <= $bits(T)'(d_i);
          for (int unsigned k = 1; k < Stages; k++) q_q[k] <= q_q[k-1];
        end
      end
    end else begin : g_no_reset
      always_ff @(posedge clk_i) begin
        if (en_i) begin
          q_q[0] <= $bits(T)'(d_i);
          for (int unsigned k = 1; k < Stages; k++) q_q[k] <= q_q[k-1];
        end
      end
      logic unused_rst;
      assign unused_rst = rst_ni;
    end
    assign q_o = T'(q_q[Stages-1]);
  end
endmodule
