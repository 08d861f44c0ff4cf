// GENERATED from src/montu/isa/instructions.yaml by `python3 -m montu.isa.generate`.
// Do not edit by hand: change the table and regenerate.

package montu_pkg;

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
  localparam logic [7:0] OpSetmmi = 8'h01;  // SETMMI
  localparam logic [7:0] OpWmmi = 8'h02;  // WMMI
  localparam logic [7:0] OpRmmi = 8'h03;  // RMMI
  localparam logic [7:0] OpSetmod = 8'h04;  // SETMOD
  localparam logic [7:0] OpStartmmi = 8'h10;  // STARTMMI
  localparam logic [7:0] OpMmx = 8'h1e;  // MMX
  localparam logic [7:0] OpMmq = 8'h25;  // MMQ
  localparam logic [7:0] OpMinv = 8'h1d;  // MINV
  localparam logic [7:0] OpMadd = 8'h11;  // MADD
  localparam logic [7:0] OpMsub = 8'h12;  // MSUB
  localparam logic [7:0] OpMdbl = 8'h13;  // MDBL
  localparam logic [7:0] OpMlin = 8'h24;  // MLIN
  localparam logic [7:0] OpAdd = 8'h14;  // ADD
  localparam logic [7:0] OpSub = 8'h15;  // SUB
  localparam logic [7:0] OpSadd = 8'h16;  // SADD
  localparam logic [7:0] OpSsub = 8'h17;  // SSUB
  localparam logic [7:0] OpShl1 = 8'h18;  // SHL1
  localparam logic [7:0] OpShr1 = 8'h19;  // SHR1
  localparam logic [7:0] OpShlw = 8'h1a;  // SHLW
  localparam logic [7:0] OpShrw = 8'h1b;  // SHRW
  localparam logic [7:0] OpShlx = 8'h1f;  // SHLX
  localparam logic [7:0] OpCmp = 8'h1c;  // CMP
  localparam logic [7:0] OpMov = 8'h20;  // MOV
  localparam logic [7:0] OpLdz = 8'h21;  // LDZ
  localparam logic [7:0] OpLdone = 8'h22;  // LDONE
  localparam logic [7:0] OpCswap = 8'h23;  // CSWAP
  localparam logic [7:0] OpWipe = 8'h3f;  // WIPE

  // Error codes (rsp_err_o)
  localparam logic [3:0] ErrOk = 4'd0;
  localparam logic [3:0] ErrBadOpcode = 4'd1;
  localparam logic [3:0] ErrBadReg = 4'd2;
  localparam logic [3:0] ErrBadLength = 4'd3;
  localparam logic [3:0] ErrEvenModulus = 4'd4;
  localparam logic [3:0] ErrNoModulus = 4'd5;
  localparam logic [3:0] ErrNoInverse = 4'd6;
  localparam logic [3:0] ErrBadImm = 4'd7;
  localparam logic [3:0] ErrBadPair = 4'd8;

  // Flag register bits (rsp_flags_o)
  localparam int unsigned FlagC = 0;
  localparam int unsigned FlagEq = 1;
  localparam int unsigned FlagLt = 2;
  localparam int unsigned FlagNeg = 3;

  // Cycles from accept to response for every rejected command
  localparam int unsigned ErrorCycles = 2;

  // Decode attributes of each opcode (from `uses`, `errors`, `imm_rule` and `table`)
  typedef struct packed {
    logic known;               // the opcode names an instruction
    logic uses_rd;             // rd is a register the instruction uses (E_BAD_REG if >= NumRegs)
    logic uses_ra;             // ra likewise
    logic uses_rb;             // rb likewise
    logic needs_modulus;       // runs only after a valid SETMOD (E_NO_MODULUS)
    logic imm_length;          // imm is a length k: 1 .. MaxBits / 64 (E_BAD_LENGTH)
    logic imm_window;          // imm is a window width (E_BAD_IMM outside its range)
    logic imm_small_constants; // imm holds two signed 4-bit constants (E_BAD_IMM outside their range)
    logic rb_table;            // R[rb] .. R[rb + 2^imm - 1] must exist (E_BAD_REG)
  } op_attr_t;

  function automatic op_attr_t op_attr(logic [7:0] op);
    op_attr_t attr;
    attr = '0;
    unique case (op)
      OpNop:        attr = '{known: 1'b1, default: 1'b0};
      OpSetmmi:     attr = '{known: 1'b1, imm_length: 1'b1, default: 1'b0};
      OpWmmi:       attr = '{known: 1'b1, uses_rd: 1'b1, default: 1'b0};
      OpRmmi:       attr = '{known: 1'b1, uses_ra: 1'b1, default: 1'b0};
      OpSetmod:     attr = '{known: 1'b1, uses_ra: 1'b1, default: 1'b0};
      OpStartmmi:   attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, needs_modulus: 1'b1, default: 1'b0};
      OpMmx:        attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, needs_modulus: 1'b1, imm_window: 1'b1, rb_table: 1'b1, default: 1'b0};
      OpMmq:        attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, default: 1'b0};
      OpMinv:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, default: 1'b0};
      OpMadd:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, needs_modulus: 1'b1, default: 1'b0};
      OpMsub:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, needs_modulus: 1'b1, default: 1'b0};
      OpMdbl:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, needs_modulus: 1'b1, default: 1'b0};
      OpMlin:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, needs_modulus: 1'b1, imm_small_constants: 1'b1, default: 1'b0};
      OpAdd:        attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, default: 1'b0};
      OpSub:        attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, default: 1'b0};
      OpSadd:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, default: 1'b0};
      OpSsub:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, default: 1'b0};
      OpShl1:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, default: 1'b0};
      OpShr1:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, default: 1'b0};
      OpShlw:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, default: 1'b0};
      OpShrw:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, default: 1'b0};
      OpShlx:       attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, imm_window: 1'b1, default: 1'b0};
      OpCmp:        attr = '{known: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, default: 1'b0};
      OpMov:        attr = '{known: 1'b1, uses_rd: 1'b1, uses_ra: 1'b1, default: 1'b0};
      OpLdz:        attr = '{known: 1'b1, uses_rd: 1'b1, default: 1'b0};
      OpLdone:      attr = '{known: 1'b1, uses_rd: 1'b1, default: 1'b0};
      OpCswap:      attr = '{known: 1'b1, uses_ra: 1'b1, uses_rb: 1'b1, default: 1'b0};
      OpWipe:       attr = '{known: 1'b1, default: 1'b0};
      default: attr = '0;
    endcase
    return attr;
  endfunction

  // imm rules: the window width imm must be in 1 .. 5; imm[3:0] and imm[7:4], 4-bit two's complement, must each be in -3 .. 3; k = imm must be in 1 .. MaxBits / 64
  localparam int unsigned WindowMin = 1;
  localparam int unsigned WindowMax = 5;
  localparam int SmallConstantMin = -3;
  localparam int SmallConstantMax = 3;
  localparam int unsigned LengthMin = 1;

  function automatic logic window_ok(logic [7:0] imm);
    return (32'(imm) >= WindowMin) && (32'(imm) <= WindowMax);
  endfunction

  function automatic logic small_constants_ok(logic [7:0] imm);
    logic signed [3:0] ca, cb;
    ca = imm[3:0];
    cb = imm[7:4];
    return (int'(ca) >= SmallConstantMin) && (int'(ca) <= SmallConstantMax) &&
           (int'(cb) >= SmallConstantMin) && (int'(cb) <= SmallConstantMax);
  endfunction

  function automatic logic length_ok(logic [7:0] imm, int unsigned max_bits);
    return (32'(imm) >= LengthMin) && (32'(imm) * 64 <= max_bits);
  endfunction

endpackage
