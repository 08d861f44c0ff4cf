// GENERATED from src/montu/isa/verma.yaml by `python3 -m montu.isa.generate`.
// Do not edit by hand: change the table and regenerate.

package verma_pkg;

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
  localparam logic [7:0] OpSetlen = 8'h01;  // SETLEN
  localparam logic [7:0] OpWr = 8'h02;  // WR
  localparam logic [7:0] OpRd = 8'h03;  // RD
  localparam logic [7:0] OpSetmod = 8'h04;  // SETMOD
  localparam logic [7:0] OpCmmm = 8'h10;  // CMMM
  localparam logic [7:0] OpMpl = 8'h11;  // MPL
  localparam logic [7:0] OpWipe = 8'h3f;  // WIPE

  // Registers (values of the rd/ra/rb slots)
  localparam logic [4:0] RegN = 5'd0;  // N
  localparam logic [4:0] RegC = 5'd1;  // C
  localparam logic [4:0] RegO = 5'd2;  // O
  localparam logic [4:0] RegE = 5'd3;  // E
  localparam logic [4:0] RegP = 5'd4;  // P
  localparam logic [4:0] RegR = 5'd5;  // R
  localparam logic [4:0] RegX = 5'd6;  // X
  localparam logic [4:0] RegY = 5'd7;  // Y
  localparam logic [4:0] RegOne = 5'd8;  // ONE

  // Error codes (rsp_err_o)
  localparam logic [3:0] ErrOk = 4'd0;
  localparam logic [3:0] ErrBadOpcode = 4'd1;
  localparam logic [3:0] ErrBadReg = 4'd2;
  localparam logic [3:0] ErrBadLength = 4'd3;
  localparam logic [3:0] ErrBadModulus = 4'd4;
  localparam logic [3:0] ErrNoModulus = 4'd5;
  localparam logic [3:0] ErrRange = 4'd6;

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
      OpSetlen:  attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpWr:      attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpRd:      attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpSetmod:  attr = '{known: 1'b1, needs_modulus: 1'b0};
      OpCmmm:    attr = '{known: 1'b1, needs_modulus: 1'b1};
      OpMpl:     attr = '{known: 1'b1, needs_modulus: 1'b1};
      OpWipe:    attr = '{known: 1'b1, needs_modulus: 1'b0};
      default: attr = '0;
    endcase
    return attr;
  endfunction

  // The register fields each instruction allows (`regs` and `pairs`): 0 -> E_BAD_REG
  function automatic logic regs_ok(logic [7:0] op, logic [4:0] rd,
                                   logic [4:0] ra, logic [4:0] rb);
    logic ok;
    unique case (op)
      OpWr:      ok = (rd == RegN || rd == RegC || rd == RegO || rd == RegE || rd == RegP || rd == RegR);
      OpRd:      ok = (ra == RegN || ra == RegC || ra == RegO || ra == RegE || ra == RegP || ra == RegR || ra == RegX || ra == RegY);
      OpCmmm:    ok = (ra == RegP || ra == RegX || ra == RegY) && (rb == RegR || rb == RegC || rb == RegO || rb == RegX || rb == RegY || rb == RegOne);
      default: ok = 1'b1;
    endcase
    return ok;
  endfunction

endpackage
