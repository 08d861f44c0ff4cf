// Protocol and structure assertions of montu_top, instantiated inside it (simulation only).
//
//   1. One response per accepted command: a response is valid only while a command is
//      outstanding, and a command is accepted only when none is (no command while busy).
//   2. A response, once valid, holds its valid, data, error, flags and cycles until it is taken.
//   3. The register file's write port has one owner per cycle: at most one engine writes; the
//      engines' registered start condition matches the state and the decoded error; the
//      addresses' registered table entry and word indices are what the instruction names.
//   4. No X on the outputs once reset is released (fires in 4-state simulators; Verilator is
//      2-state, where tests/rtl compare runs with different random initial states instead).
//
// Each rule but the last can be broken on purpose, to show that its assertion fires: a build
// with MONTU_ASSERT_SELFTEST defined breaks one rule per plusarg (+montu_break_one_response,
// +montu_break_rsp_stable, +montu_break_rf_exclusive; see montu_top, tests/rtl/test_assertions.py).
module montu_top_assert #(
  parameter int unsigned Word    = 64,
  parameter int unsigned Engines = 4   // register-file writers: top, mont, wordop, inv
) (
  input logic               clk_i,
  input logic               rst_ni,
  input logic               cmd_valid_i,
  input logic               cmd_ready_i,
  input logic               rsp_valid_i,
  input logic               rsp_ready_i,
  input logic [Word-1:0]    rsp_data_i,
  input logic [3:0]         rsp_err_i,
  input logic [3:0]         rsp_flags_i,
  input logic [31:0]        rsp_cycles_i,
  input logic [Engines-1:0] rf_we_i,      // each engine's register-file write enable
  input logic               dec_ok_i,     // the unit's registered "decode cycle, no error"
  input logic               dec_ok_ref_i, // the same from the state and the error code
  input logic               tab_read_i,   // port b reads an MMX/STARTMMI operand via ytab_q
  input logic [4:0]         ytab_i,       // the registered table entry
  input logic [4:0]         ytab_ref_i,   // rb + (X masked) of the instruction in decode
  input logic               widx_ok_i,    // a write's word index is below MaxWords
  input logic               mm_ridx_ok_i  // the multiplier's read indices are below MaxWords
);
`ifndef SYNTHESIS
  // `disable iff (!checking)` samples the asynchronous reset synchronously, by design
  /* verilator lint_off SYNCASYNCNET */
  logic outstanding_q;   // a command was accepted and its response not yet taken
  // The rules hold from the first reset on: before it the flip-flops hold whatever the simulator
  // started them with (tests/hw/test_assertions.py starts them random), and the first clock
  // edge may come before the bench has driven rst_ni low.
  // (simulation only: the declaration's initial value, then the first reset sets it)
  /* verilator lint_off PROCASSINIT */
  logic reset_seen_q = 1'b0;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) reset_seen_q <= 1'b1;
  end
  /* verilator lint_on PROCASSINIT */
  logic checking;
  assign checking = rst_ni && reset_seen_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      outstanding_q <= 1'b0;
    end else if (cmd_valid_i && cmd_ready_i) begin
      outstanding_q <= 1'b1;
    end else if (rsp_valid_i && rsp_ready_i) begin
      outstanding_q <= 1'b0;
    end
  end

  // 1. one response per accepted command; no command accepted while one is outstanding, except
  //    at the edge that takes its response (back to back)
  OneResponsePerCommand: assert property (@(posedge clk_i) disable iff (!checking)
      rsp_valid_i |-> outstanding_q)
    else $error("montu_top: a response without an outstanding command");
  NoCommandWhileBusy: assert property (@(posedge clk_i) disable iff (!checking)
      (cmd_valid_i && cmd_ready_i) |-> (!outstanding_q || (rsp_valid_i && rsp_ready_i)))
    else $error("montu_top: a command was accepted while one was outstanding");

  // 2. a valid response holds until it is taken
  ResponseStable: assert property (@(posedge clk_i) disable iff (!checking)
      (rsp_valid_i && !rsp_ready_i) |=>
        (rsp_valid_i && $stable(rsp_data_i) && $stable(rsp_err_i) && $stable(rsp_flags_i) &&
         $stable(rsp_cycles_i)))
    else $error("montu_top: a response changed or vanished before it was taken");

  // 3. one register-file writer per cycle
  RegfileWriteExclusive: assert property (@(posedge clk_i) disable iff (!checking)
      $onehot0(rf_we_i))
    else $error("montu_top: two engines wrote the register file in one cycle");

  // 3b. the engines' start (from flip-flops) is exactly "decode cycle and no error"
  DecOkIsDecodeWithoutError: assert property (@(posedge clk_i) disable iff (!checking)
      dec_ok_i == dec_ok_ref_i)
    else $error("montu_top: dec_ok disagrees with the state and the decoded error");

  // 3c. the register file's addresses: MMX's registered table entry is the instruction's own
  //     when port b reads with it; every word index that reaches an address is below MaxWords
  //     (with MaxWords a power of two the address is {register, index's low bits})
  TableEntryRegistered: assert property (@(posedge clk_i) disable iff (!checking)
      tab_read_i |-> (ytab_i == ytab_ref_i))
    else $error("montu_top: ytab_q is not rb + X of the instruction that reads with it");
  WriteIndexInRange: assert property (@(posedge clk_i) disable iff (!checking) widx_ok_i)
    else $error("montu_top: a register-file write with a word index >= MaxWords");
  MulReadIndexInRange: assert property (@(posedge clk_i) disable iff (!checking) mm_ridx_ok_i)
    else $error("montu_top: a multiplier read with a word index >= MaxWords");

  // 4. no X on the outputs after reset
  OutputsKnown: assert property (@(posedge clk_i) disable iff (!checking)
      !$isunknown({cmd_ready_i, rsp_valid_i}) &&
      (!rsp_valid_i || !$isunknown({rsp_data_i, rsp_err_i, rsp_flags_i, rsp_cycles_i})))
    else $error("montu_top: an output is X after reset");
  /* verilator lint_on SYNCASYNCNET */
`else
  logic unused_inputs;
  assign unused_inputs = ^{clk_i, rst_ni, cmd_valid_i, cmd_ready_i, rsp_valid_i, rsp_ready_i,
                           rsp_data_i, rsp_err_i, rsp_flags_i, rsp_cycles_i, rf_we_i,
                           dec_ok_i, dec_ok_ref_i, tab_read_i, ytab_i, ytab_ref_i, widx_ok_i,
                           mm_ridx_ok_i};
`endif
endmodule
