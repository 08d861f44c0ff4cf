// GENERATED from src/montu/isa/antao.yaml by `python3 -m montu.isa.generate`.
// Do not edit by hand: change the table and regenerate.

package antao_pkg;

  // Instruction word slots: [msb:lsb]
  localparam int unsigned SlotOpMsb = 31;
  localparam int unsigned SlotOpLsb = 24;
  localparam int unsigned SlotRdMsb = 23;
  localparam int unsigned SlotRdLsb = 19;
  localparam int unsigned SlotRaMsb = 18;
  localparam int unsigned SlotRaLsb = 14;
  localparam int unsigned SlotRbMsb = 13;
  localparam int unsigned SlotRbLsb = 9;
  localparam int unsigned SlotFMsb = 8;
  localparam int unsigned SlotFLsb = 8;
  localparam int unsigned SlotImmMsb = 7;
  localparam int unsigned SlotImmLsb = 0;

  // Opcodes
  localparam logic [7:0] OpNop = 8'h00;  // NOP
  localparam logic [7:0] OpUcaddr = 8'h01;  // UCADDR
  localparam logic [7:0] OpUcw = 8'h02;  // UCW
  localparam logic [7:0] OpPush = 8'h03;  // PUSH
  localparam logic [7:0] OpPop = 8'h04;  // POP
  localparam logic [7:0] OpLimit = 8'h05;  // LIMIT
  localparam logic [7:0] OpStatus = 8'h06;  // STATUS
  localparam logic [7:0] OpRun = 8'h10;  // RUN
  localparam logic [7:0] OpWipe = 8'h3f;  // WIPE

  // Error codes (rsp_err_o)
  localparam logic [3:0] ErrOk = 4'd0;
  localparam logic [3:0] ErrBadOpcode = 4'd1;
  localparam logic [3:0] ErrRange = 4'd2;
  localparam logic [3:0] ErrFull = 4'd3;
  localparam logic [3:0] ErrEmpty = 4'd4;
  localparam logic [3:0] ErrUcode = 4'd5;
  localparam logic [3:0] ErrPc = 4'd6;
  localparam logic [3:0] ErrStack = 4'd7;
  localparam logic [3:0] ErrIn = 4'd8;
  localparam logic [3:0] ErrOut = 4'd9;
  localparam logic [3:0] ErrLimit = 4'd10;

  // Flag bits (rsp_flags_o)

  // Cycles from accept to response for every command decode rejects
  localparam int unsigned ErrorCycles = 2;

  // Decode attributes of each opcode (from `uses` and `errors`)
  typedef struct packed {
    logic known;          // the opcode names an instruction
    logic needs_modulus;  // runs only after a valid SETMOD (E_NO_MODULUS)
  } op_attr_t;

  function automatic op_attr_t op_attr(logic [7:0] op);
    op_attr_t attr;
    attr = '0;
    unique case (op)
      OpNop:     attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpUcaddr:  attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpUcw:     attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpPush:    attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpPop:     attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpLimit:   attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpStatus:  attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpRun:     attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpWipe:    attr = '{known: 1'b1, needs_modulus: 1'b0};
      default: attr = '0;
    endcase
    return attr;
  endfunction

endpackage
