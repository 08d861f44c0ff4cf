// Protocol and datapath assertions of yeh_top, instantiated inside it (simulation only).
//
//   1. One response per accepted command: a response is valid only while a command is
//      outstanding, and a command is accepted only when none is (no command while busy).
//   2. A response, once valid, holds its valid, data, error, flags and cycles until it is taken.
//   3. Whenever no instruction runs, X is binary: the Carry/Sum registers' carry half is 0, and
//      the BSR4 core is stopped.
//   4. No X on the outputs once reset is released (fires in 4-state simulators; Verilator is
//      2-state).
module yeh_top_assert (
  input logic        clk_i,
  input logic        rst_ni,
  input logic        cmd_valid_i,
  input logic        cmd_ready_i,
  input logic        rsp_valid_i,
  input logic        rsp_ready_i,
  input logic [63:0] rsp_data_i,
  input logic [3:0]  rsp_err_i,
  input logic [3:0]  rsp_flags_i,
  input logic [31:0] rsp_cycles_i,
  input logic        idle_i,
  input logic        xc_zero_i,
  input logic        core_busy_i
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

  // 1. one response per accepted command; no command accepted while one is outstanding
  OneResponsePerCommand: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rsp_valid_i |-> outstanding_q)
    else $error("yeh_top: a response without an outstanding command");
  NoCommandWhileBusy: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (cmd_valid_i && cmd_ready_i) |-> !outstanding_q)
    else $error("yeh_top: a command was accepted while one was outstanding");

  // 2. a valid response holds until it is taken
  ResponseStable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (rsp_valid_i && !rsp_ready_i) |=>
        (rsp_valid_i && $stable(rsp_data_i) && $stable(rsp_err_i) && $stable(rsp_flags_i) &&
         $stable(rsp_cycles_i)))
    else $error("yeh_top: a response changed or vanished before it was taken");

  // 3. X is binary and the core stopped between instructions
  IdleBinaryX: assert property (@(posedge clk_i) disable iff (!rst_ni)
      idle_i |-> (xc_zero_i && !core_busy_i))
    else $error("yeh_top: X is in carry-save form, or the core runs, between instructions");

  // 4. no X on the outputs after reset
  OutputsKnown: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({cmd_ready_i, rsp_valid_i}) &&
      (!rsp_valid_i || !$isunknown({rsp_data_i, rsp_err_i, rsp_flags_i, rsp_cycles_i})))
    else $error("yeh_top: an output is X after reset");
  /* verilator lint_on SYNCASYNCNET */
`else
  logic unused_inputs;
  assign unused_inputs = ^{clk_i, rst_ni, cmd_valid_i, cmd_ready_i, rsp_valid_i, rsp_ready_i,
                           rsp_data_i, rsp_err_i, rsp_flags_i, rsp_cycles_i, idle_i, xc_zero_i,
                           core_busy_i};
`endif
endmodule
