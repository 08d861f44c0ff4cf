// The load MUX selects of a pass (where P and R come from), one-hot, with one registered copy per
// PE column (#20): the 1,024-bit build's worst path was a single 3-bit select register decoded
// and broadcast to the ~2,100 load MUXes of the R digits and the T words (one net, 2,076 loads,
// from the die's centre out to every column). Here each column has its own flip-flops beside
// its MUXes and no decode between them and the AND-OR.
//
// The copies are registered from the selects' next values (the ladder's next state during MPL,
// the instruction's fields otherwise), so in every clock they hold what the selects would hold as
// registers: no clock is added. The keep attribute on the process stops synthesis from merging
// the copies, which have the same input, back into one set of flip-flops (Yosys with read_slang
// keeps flip-flops whose process carries it; on the signal declaration it merges them).
module verma_src_sel
  import verma_core_pkg::*;
#(
  parameter int unsigned M = 22     // copies: one per PE column
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  t_src_e                     t_src_d_i,   // the selects of the next clock
  input  r_src_e                     r_src_d_i,
  output logic [M-1:0][TSrcs-1:0]    t_sel_o,     // column j's copy, one-hot
  output logic [M-1:0][RSrcs-1:0]    r_sel_o
);
  logic [TSrcs-1:0] t_next;
  logic [RSrcs-1:0] r_next;
  assign t_next = t_onehot(t_src_d_i);
  assign r_next = r_onehot(r_src_d_i);

  for (genvar j = 0; j < M; j++) begin : g_col
    logic [TSrcs-1:0] t_sel_q;
    logic [RSrcs-1:0] r_sel_q;

    (* keep *)
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        t_sel_q <= t_onehot(TSrcP);
        r_sel_q <= r_onehot(RSrcR);
      end else begin
        t_sel_q <= t_next;
        r_sel_q <= r_next;
      end
    end

    assign t_sel_o[j] = t_sel_q;
    assign r_sel_o[j] = r_sel_q;
  end

`ifndef SYNTHESIS
  // every copy is one-hot
  /* verilator lint_off SYNCASYNCNET */
  for (genvar j = 0; j < M; j++) begin : g_check
    SelectsOneHot: assert property (@(posedge clk_i) disable iff (!rst_ni)
        $onehot(t_sel_o[j]) && $onehot(r_sel_o[j]))
      else $error("verma_src_sel: column %0d's select is not one-hot", j);
  end
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
