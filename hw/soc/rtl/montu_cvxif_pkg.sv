// GENERATED from src/montu/isa/soc.yaml by `python3 -m montu.isa.generate`; do not edit.
package montu_cvxif_pkg;

  localparam logic [6:0] MxOpcode = 7'h5B;
  localparam logic [6:0] MxFunct7 = 7'h00;

  localparam logic [2:0] MxCmd = 3'd0;  // Send rs1[31:0] (a Montu instruction word) with the data word rs2 to the unit, when the instruction retires.
  localparam logic [2:0] MxRd = 3'd1;  // rd = the response data of command number rs1, at once (0 unless ST says it is answered).
  localparam logic [2:0] MxSt = 3'd2;  // rd = the status word of command number rs1, at once (ADAPTER_ERR = PENDING until it is answered).
  localparam logic [2:0] MxCnt = 3'd3;  // rd = counter rs1 (see counters).
  localparam logic [2:0] MxClr = 3'd4;  // Clear the sticky error once every earlier command is answered; its response data is the status word before (error fields only).

  localparam logic [3:0] MxOk = 4'd0;  // answered; RD returns its data
  localparam logic [3:0] MxStale = 4'd1;  // the command is older than the last ring_depth answers
  localparam logic [3:0] MxPending = 4'd2;  // the command is not answered yet (or not retired yet)
  localparam logic [3:0] MxNoCounter = 4'd3;  // CNT: no counter with that index

  localparam int unsigned MxRingDepth = 16;
  localparam int unsigned MxFifoDepth = 32;

  // The status word of ST: err [3:0], flags [7:4], adapter_err [11:8], sticky_err [15:12], cycles [63:32]
  function automatic logic [63:0] status_word(logic [3:0] err, logic [3:0] flags, logic [3:0] adapter_err, logic [3:0] sticky_err, logic [31:0] cycles);
    return {cycles, 16'd0, sticky_err, adapter_err, flags, err};
  endfunction

endpackage
