// Protocol and datapath assertions of verma_top, instantiated inside it (simulation only).
//
//   1. One response per accepted command: a response is valid only while a command is
//      outstanding, and a command is accepted only when none is (no command while busy).
//   2. A response, once valid, holds its valid, data, error, flags and cycles until it is taken.
//   3. The PE array runs only inside a pass (StLoad/StRun): whenever no instruction runs, no PE
//      iterates; a pass's last clock comes only in StRun.
//   4. Between instructions T, X and Y are below 2^(2D): T[i] < 2^(2D) for every i, and Walter's
//      bound on X and Y (the paper's 0 <= X, Y < 2^(k+g), no final subtraction).
//   5. No X on the outputs once reset is released (fires in 4-state simulators; Verilator is
//      2-state).
module verma_top_assert #(
  parameter int unsigned MW = 1056,
  parameter int unsigned DW = 11
) (
  input logic          clk_i,
  input logic          rst_ni,
  input logic          cmd_valid_i,
  input logic          cmd_ready_i,
  input logic          rsp_valid_i,
  input logic          rsp_ready_i,
  input logic [63:0]   rsp_data_i,
  input logic [3:0]    rsp_err_i,
  input logic [3:0]    rsp_flags_i,
  input logic [31:0]   rsp_cycles_i,
  input logic          idle_i,
  input logic          running_i,
  input logic          core_busy_i,
  input logic          core_last_i,
  input logic [DW-1:0] twod_i,
  input logic [MW-1:0] t_i,
  input logic [MW-1:0] x_i,
  input logic [MW-1:0] y_i
);
`ifndef SYNTHESIS
  // `disable iff (!rst_ni)` samples the asynchronous reset synchronously, by design
  /* verilator lint_off SYNCASYNCNET */
  logic outstanding_q;   // a command was accepted and its response not yet taken

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      outstanding_q <= 1'b0;
    end else if (cmd_valid_i && cmd_ready_i) begin
      outstanding_q <= 1'b1;
    end else if (rsp_valid_i && rsp_ready_i) begin
      outstanding_q <= 1'b0;
    end
  end

  // the bits at and above 2D of T, X, Y
  logic [MW-1:0] above;
  assign above = ({MW{1'b1}} << twod_i);

  // 1. one response per accepted command; no command accepted while one is outstanding
  OneResponsePerCommand: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rsp_valid_i |-> outstanding_q)
    else $error("verma_top: a response without an outstanding command");
  NoCommandWhileBusy: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (cmd_valid_i && cmd_ready_i) |-> !outstanding_q)
    else $error("verma_top: a command was accepted while one was outstanding");

  // 2. a valid response holds until it is taken
  ResponseStable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (rsp_valid_i && !rsp_ready_i) |=>
        (rsp_valid_i && $stable(rsp_data_i) && $stable(rsp_err_i) && $stable(rsp_flags_i) &&
         $stable(rsp_cycles_i)))
    else $error("verma_top: a response changed or vanished before it was taken");

  // 3. the PEs iterate only inside a pass
  ArrayOnlyInPass: assert property (@(posedge clk_i) disable iff (!rst_ni)
      core_busy_i |-> running_i)
    else $error("verma_top: a PE iterates outside a CMMM/MPL pass");
  LastOnlyInPass: assert property (@(posedge clk_i) disable iff (!rst_ni)
      core_last_i |-> running_i)
    else $error("verma_top: a pass ended outside StRun");

  // 4. T, X, Y < 2^(2D) between instructions
  IdleBounds: assert property (@(posedge clk_i) disable iff (!rst_ni)
      idle_i |-> (((t_i | x_i | y_i) & above) == '0))
    else $error("verma_top: T, X or Y has a bit at or above 2D between instructions");

  // 5. no X on the outputs after reset
  OutputsKnown: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({cmd_ready_i, rsp_valid_i}) &&
      (!rsp_valid_i || !$isunknown({rsp_data_i, rsp_err_i, rsp_flags_i, rsp_cycles_i})))
    else $error("verma_top: an output is X after reset");
  /* verilator lint_on SYNCASYNCNET */
`else
  logic unused_inputs;
  assign unused_inputs = ^{clk_i, rst_ni, cmd_valid_i, cmd_ready_i, rsp_valid_i, rsp_ready_i,
                           rsp_data_i, rsp_err_i, rsp_flags_i, rsp_cycles_i, idle_i, running_i,
                           core_busy_i, core_last_i, twod_i, t_i, x_i, y_i};
`endif
endmodule
