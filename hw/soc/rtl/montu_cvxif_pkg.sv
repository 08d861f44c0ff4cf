// The Montu SoC's custom instructions (CV-X-IF): encodings, adapter errors, the status word.
package montu_cvxif_pkg;

  localparam logic [6:0] MxOpcode = 7'h5B;   // CUSTOM_2
  localparam logic [6:0] MxFunct7 = 7'h00;

  localparam logic [2:0] MxCmd = 3'd0;
  localparam logic [2:0] MxRd  = 3'd1;
  localparam logic [2:0] MxSt  = 3'd2;
  localparam logic [2:0] MxCnt = 3'd3;
  localparam logic [2:0] MxClr = 3'd4;

  localparam logic [3:0] MxOk             = 4'd0;
  localparam logic [3:0] MxStale          = 4'd1;
  localparam logic [3:0] MxNeverCommitted = 4'd2;
  localparam logic [3:0] MxNoCounter      = 4'd3;

  function automatic logic [63:0] status_word(logic [3:0] err, logic [3:0] flags,
                                              logic [3:0] sticky_err, logic sticky_adapter,
                                              logic [3:0] adapter_err, logic [31:0] cycles);
    return {cycles, 15'd0, sticky_adapter, sticky_err, adapter_err, flags, err};
  endfunction

endpackage
