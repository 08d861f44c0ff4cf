// Protocol and datapath assertions of antao_top, instantiated inside it (simulation only).
//
//   1. One response per accepted command: a response is valid only while a command is
//      outstanding, and a command is accepted only when none is (no command while busy).
//   2. A response, once valid, holds its valid, data, error, flags and cycles until it is taken.
//   3. The sequencer runs only inside RUN.
//   4. No FIFO overflow or underflow: nothing is pushed into a full FIFO or popped from an
//      empty one (the shell's and the run's checks, E_FULL, E_EMPTY, E_IN, E_OUT, hold).
//   5. Every reduced value a PE writes to its RAM is below its channel modulus: RES < m.
//   6. No X on the outputs once reset is released (fires in 4-state simulators; Verilator is
//      2-state).
module antao_top_assert #(
  parameter int unsigned W = 64,
  parameter int unsigned P = 4
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 cmd_valid_i,
  input logic                 cmd_ready_i,
  input logic                 rsp_valid_i,
  input logic                 rsp_ready_i,
  input logic [63:0]          rsp_data_i,
  input logic [3:0]           rsp_err_i,
  input logic [3:0]           rsp_flags_i,
  input logic [31:0]          rsp_cycles_i,
  input logic                 idle_i,
  input logic                 running_i,
  input logic                 seq_running_i,
  input logic                 in_push_i,
  input logic                 in_full_i,
  input logic                 in_pop_i,
  input logic                 in_empty_i,
  input logic                 out_push_i,
  input logic                 out_full_i,
  input logic                 out_pop_i,
  input logic                 out_empty_i,
  input logic [P-1:0]         red_valid_i,
  input logic [P-1:0][W-1:0]  res_i,
  input logic [P-1:0][W:0]    m_i
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

  logic res_ok;
  always_comb begin
    res_ok = 1'b1;
    for (int e = 0; e < int'(P); e++) begin
      if (red_valid_i[e] && ((W+1)'(res_i[e]) >= m_i[e])) res_ok = 1'b0;
    end
  end

  // 1. one response per accepted command; no command accepted while one is outstanding
  OneResponsePerCommand: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rsp_valid_i |-> outstanding_q)
    else $error("antao_top: a response without an outstanding command");
  NoCommandWhileBusy: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (cmd_valid_i && cmd_ready_i) |-> !outstanding_q)
    else $error("antao_top: a command was accepted while one was outstanding");
  ReadyOnlyWhenIdle: assert property (@(posedge clk_i) disable iff (!rst_ni)
      cmd_ready_i |-> (idle_i && !rsp_valid_i))
    else $error("antao_top: cmd_ready_o outside the idle state");

  // 2. a valid response holds until it is taken
  ResponseStable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (rsp_valid_i && !rsp_ready_i) |=>
        (rsp_valid_i && $stable(rsp_data_i) && $stable(rsp_err_i) && $stable(rsp_flags_i) &&
         $stable(rsp_cycles_i)))
    else $error("antao_top: a response changed or vanished before it was taken");
  NoFlags: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rsp_valid_i |-> (rsp_flags_i == 4'd0))
    else $error("antao_top: a response with flags (antao.yaml has none)");

  // 3. the sequencer runs only inside RUN
  SeqOnlyInRun: assert property (@(posedge clk_i) disable iff (!rst_ni)
      seq_running_i |-> running_i)
    else $error("antao_top: the sequencer runs outside RUN");

  // 4. no FIFO overflow or underflow
  NoInOverflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
      in_push_i |-> !in_full_i)
    else $error("antao_top: push into the full input FIFO");
  NoInUnderflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
      in_pop_i |-> !in_empty_i)
    else $error("antao_top: pop from the empty input FIFO");
  NoOutOverflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_push_i |-> !out_full_i)
    else $error("antao_top: push into the full output FIFO");
  NoOutUnderflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_pop_i |-> !out_empty_i)
    else $error("antao_top: pop from the empty output FIFO");

  // 5. RES < m
  ReducedBelowModulus: assert property (@(posedge clk_i) disable iff (!rst_ni)
      res_ok)
    else $error("antao_top: a PE wrote a reduced value >= its modulus");

  // 6. no X on the outputs after reset
  OutputsKnown: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({cmd_ready_i, rsp_valid_i}) &&
      (!rsp_valid_i || !$isunknown({rsp_data_i, rsp_err_i, rsp_flags_i, rsp_cycles_i})))
    else $error("antao_top: an output is X after reset");
  /* verilator lint_on SYNCASYNCNET */
`else
  logic unused_inputs;
  assign unused_inputs = ^{clk_i, rst_ni, cmd_valid_i, cmd_ready_i, rsp_valid_i, rsp_ready_i,
                           rsp_data_i, rsp_err_i, rsp_flags_i, rsp_cycles_i, idle_i, running_i,
                           seq_running_i, in_push_i, in_full_i, in_pop_i, in_empty_i, out_push_i,
                           out_full_i, out_pop_i, out_empty_i, red_valid_i, res_i, m_i};
`endif
endmodule
