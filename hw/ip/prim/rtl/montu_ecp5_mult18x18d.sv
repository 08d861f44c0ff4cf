// The ECP5's MULT18X18D as Yosys's synth_ecp5 and nextpnr know it, declared for synthesis only:
// read_slang elaborates the design before synth_ecp5 loads its cell library, so a design that
// instantiates the block with its register parameters (montu_mul_reg) needs the declaration in
// time. The ports and parameters are those of Yosys's lattice/cells_bb_ecp5.v that Montu uses;
// synth_ecp5 replaces this blackbox with its own. Simulation and lint never see it.
`ifdef SYNTHESIS
(* blackbox *)
module MULT18X18D #(
  parameter REG_INPUTA_CLK   = "NONE",
  parameter REG_INPUTA_CE    = "CE0",
  parameter REG_INPUTA_RST   = "RST0",
  parameter REG_INPUTB_CLK   = "NONE",
  parameter REG_INPUTB_CE    = "CE0",
  parameter REG_INPUTB_RST   = "RST0",
  parameter REG_PIPELINE_CLK = "NONE",
  parameter REG_OUTPUT_CLK   = "NONE",
  parameter REG_OUTPUT_CE    = "CE0",
  parameter REG_OUTPUT_RST   = "RST0",
  parameter GSR              = "ENABLED",
  parameter RESETMODE        = "SYNC"
) (
  input  A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17,
  input  B0, B1, B2, B3, B4, B5, B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17,
  input  SIGNEDA, SIGNEDB, SOURCEA, SOURCEB, CLK0, CE0, RST0,
  output P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17,
  output P18, P19, P20, P21, P22, P23, P24, P25, P26, P27, P28, P29, P30, P31, P32, P33, P34,
  output P35
);
endmodule
`endif
