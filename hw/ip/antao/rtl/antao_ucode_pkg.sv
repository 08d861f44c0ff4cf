// GENERATED from src/montu/isa/antao_ucode.yaml by `python3 -m montu.isa.generate`.
// Do not edit by hand: change the table and regenerate.

package antao_ucode_pkg;

  // A module uses only some of these (Verilator -Wall would flag the others)
  /* verilator lint_off UNUSEDPARAM */

  // The microinstruction word and how the shell moves it (UCW parts of PartBits data bits)
  localparam int unsigned UcodeWidth = 80;
  localparam int unsigned UcodePartBits = 64;
  localparam int unsigned UcodeParts = 2;

  // Fields: bits [Lsb + Bits - 1 : Lsb]
  localparam int unsigned UcDLsb = 0;
  localparam int unsigned UcDBits = 10;
  localparam int unsigned UcALsb = 10;
  localparam int unsigned UcABits = 10;
  localparam int unsigned UcBLsb = 20;
  localparam int unsigned UcBBits = 10;
  localparam int unsigned UcDiLsb = 30;
  localparam int unsigned UcDiBits = 1;
  localparam int unsigned UcAiLsb = 31;
  localparam int unsigned UcAiBits = 1;
  localparam int unsigned UcBiLsb = 32;
  localparam int unsigned UcBiBits = 1;
  localparam int unsigned UcXselLsb = 33;
  localparam int unsigned UcXselBits = 2;
  localparam int unsigned UcYselLsb = 35;
  localparam int unsigned UcYselBits = 2;
  localparam int unsigned UcZselLsb = 37;
  localparam int unsigned UcZselBits = 3;
  localparam int unsigned UcAccinLsb = 40;
  localparam int unsigned UcAccinBits = 1;
  localparam int unsigned UcAccwrLsb = 41;
  localparam int unsigned UcAccwrBits = 1;
  localparam int unsigned UcWrLsb = 42;
  localparam int unsigned UcWrBits = 2;
  localparam int unsigned UcBaseLsb = 44;
  localparam int unsigned UcBaseBits = 1;
  localparam int unsigned UcRingLsb = 45;
  localparam int unsigned UcRingBits = 3;
  localparam int unsigned UcAlphaLsb = 48;
  localparam int unsigned UcAlphaBits = 2;
  localparam int unsigned UcOaccLsb = 50;
  localparam int unsigned UcOaccBits = 4;
  localparam int unsigned UcPopLsb = 54;
  localparam int unsigned UcPopBits = 1;
  localparam int unsigned UcSeqLsb = 55;
  localparam int unsigned UcSeqBits = 3;
  localparam int unsigned UcImmLsb = 58;
  localparam int unsigned UcImmBits = 16;
  localparam int unsigned UcLenxLsb = 74;
  localparam int unsigned UcLenxBits = 6;

  // The microinstruction word, most significant field first
  typedef struct packed {
    logic [5:0] lenx;     // [79:74] LOOP: len[13:8] (bodies up to 16383 words); ignored by other instructions
    logic [15:0] imm;     // [73:58] LOOP: count[15:8] len[7:0]; BIT: polarity[12] offset[11:0]; JMP: offset[11:0]
    logic [2:0] seq;      // [57:55] sequencer
    logic pop;            // [54] pop the input FIFO (stage 1)
    logic [3:0] oacc;     // [53:50] output accumulator (stage 1)
    logic [1:0] alpha;    // [49:48] alpha accumulator (stage 1)
    logic [2:0] ring;     // [47:45] ring register R (stage 1)
    logic base;           // [44] the channel modulus of this instruction's reduction
    logic [1:0] wr;       // [43:42] RAM write at stage S+2
    logic accwr;          // [41] ACC <= SUM (stage S)
    logic accin;          // [40] add ACC into SUM (stage S)
    logic [2:0] zsel;     // [39:37] addend Z
    logic [1:0] ysel;     // [36:35] multiplier operand Y
    logic [1:0] xsel;     // [34:33] multiplier operand X
    logic bi;             // [32] add the loop index to b
    logic ai;             // [31] add the loop index to a
    logic di;             // [30] add the loop index to d
    logic [9:0] b;        // [29:20] RAM read address, port b (taken mod Depth)
    logic [9:0] a;        // [19:10] RAM read address, port a (taken mod Depth)
    logic [9:0] d;        // [9:0] RAM write address (taken mod Depth)
  } uinsn_t;

  // xsel: multiplier operand X (any other value is reserved: E_UCODE)
  localparam logic [1:0] XselA = 2'd0;
  localparam logic [1:0] XselR = 2'd1;
  localparam logic [1:0] XselIn = 2'd2;
  localparam logic [1:0] XselAlpha = 2'd3;

  // ysel: multiplier operand Y (any other value is reserved: E_UCODE)
  localparam logic [1:0] YselB = 2'd0;
  localparam logic [1:0] YselOne = 2'd1;
  localparam logic [1:0] YselZero = 2'd2;
  localparam logic [1:0] YselIn = 2'd3;

  // zsel: addend Z (any other value is reserved: E_UCODE)
  localparam logic [2:0] ZselZero = 3'd0;
  localparam logic [2:0] ZselA = 3'd1;
  localparam logic [2:0] ZselB = 3'd2;
  localparam logic [2:0] ZselNegb = 3'd3;
  localparam logic [2:0] ZselIn = 3'd4;
  localparam logic [2:0] ZselNega = 3'd5;

  // wr: RAM write at stage S+2 (any other value is reserved: E_UCODE)
  localparam logic [1:0] WrNone = 2'd0;
  localparam logic [1:0] WrRed = 2'd1;
  localparam logic [1:0] WrRaw = 2'd2;

  // base: the channel modulus of this instruction's reduction (any other value is reserved: E_UCODE)
  localparam logic [0:0] BaseB1 = 1'd0;
  localparam logic [0:0] BaseB2 = 1'd1;

  // ring: ring register R (stage 1) (any other value is reserved: E_UCODE)
  localparam logic [2:0] RingHold = 3'd0;
  localparam logic [2:0] RingLoad = 3'd1;
  localparam logic [2:0] RingHop = 3'd2;
  localparam logic [2:0] RingAcc = 3'd3;
  localparam logic [2:0] RingShin = 3'd4;
  localparam logic [2:0] RingStorec = 3'd5;

  // alpha: alpha accumulator (stage 1) (any other value is reserved: E_UCODE)
  localparam logic [1:0] AlphaHold = 2'd0;
  localparam logic [1:0] AlphaClr = 2'd1;
  localparam logic [1:0] AlphaHalf = 2'd2;
  localparam logic [1:0] AlphaAcc = 2'd3;

  // oacc: output accumulator (stage 1) (any other value is reserved: E_UCODE)
  localparam logic [3:0] OaccNone = 4'd0;
  localparam logic [3:0] OaccClr = 4'd1;
  localparam logic [3:0] OaccAdd = 4'd2;
  localparam logic [3:0] OaccLimb = 4'd3;
  localparam logic [3:0] OaccSub = 4'd4;
  localparam logic [3:0] OaccCommit = 4'd5;
  localparam logic [3:0] OaccOut = 4'd6;
  localparam logic [3:0] OaccLdn = 4'd7;
  localparam logic [3:0] OaccLdd = 4'd8;
  localparam logic [3:0] OaccRst = 4'd9;

  // seq: sequencer (any other value is reserved: E_UCODE)
  localparam logic [2:0] SeqNext = 3'd0;
  localparam logic [2:0] SeqLoop = 3'd1;
  localparam logic [2:0] SeqBit = 3'd2;
  localparam logic [2:0] SeqJmp = 3'd3;
  localparam logic [2:0] SeqEld = 3'd4;
  localparam logic [2:0] SeqLcld = 3'd5;
  localparam logic [2:0] SeqHalt = 3'd6;

  /* verilator lint_on UNUSEDPARAM */

endpackage
