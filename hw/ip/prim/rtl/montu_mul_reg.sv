// An unsigned AW x BW product (AW, BW <= 18) registered where it is formed: p_o is a_i * b_i
// as they were at the last clock edge with en_i (no reset: the datapaths that use it say by
// their own control whether a product is valid). With InReg = 1 the operands are registered
// in the block too: p_o is then the product of a_i and b_i as they were two enabled edges ago
// (the block's input registers, REG_INPUTA/B_CLK = CLK0, take them at the first). With
// OutReg = 0 (and InReg = 1) only the operands are registered: p_o is the product of a_i and
// b_i as they were at the last enabled edge, formed after it (for a product that must be
// ready in the clock after its operands: the operands leave their block registered, so no
// fabric path runs from their logic into the multiplier).
//
// For synthesis (SYNTHESIS, Yosys) it is one ECP5 MULT18X18D with its output register on
// (REG_OUTPUT_CLK = CLK0, enabled by CE0 = en_i): the product leaves the block registered, so
// no fabric flip-flop sits between the multiplier and the logic after it. synth_ecp5 maps a `*`
// to MULT18X18D but never uses the block's registers, and the products' fabric registers and
// their nets crowd the DSP rows (montu synth --congestion). Elsewhere (Verilator, lint) it is
// the same register written out.
module montu_mul_reg #(
  parameter int unsigned AW = 16,
  parameter int unsigned BW = 16,
  parameter bit          InReg = 1'b0,
  parameter bit          OutReg = 1'b1
) (
  input  logic               clk_i,
  input  logic               en_i,
  input  logic [AW-1:0]      a_i,
  input  logic [BW-1:0]      b_i,
  output logic [AW+BW-1:0]   p_o
);
  if ((AW < 1) || (AW > 18) || (BW < 1) || (BW > 18)) begin : g_bad_width
    $error("montu_mul_reg: AW and BW must be 1 .. 18 (one MULT18X18D)");
  end
  if (!InReg && !OutReg) begin : g_no_reg
    $error("montu_mul_reg: at least one of InReg and OutReg (an unregistered product is `*`)");
  end

`ifdef SYNTHESIS
  logic [17:0] a, b;
  logic [35:0] p;
  assign a = 18'(a_i);
  assign b = 18'(b_i);

  MULT18X18D #(
    .REG_INPUTA_CLK(InReg ? "CLK0" : "NONE"),
    .REG_INPUTB_CLK(InReg ? "CLK0" : "NONE"),
    .REG_OUTPUT_CLK(OutReg ? "CLK0" : "NONE"),
    .REG_OUTPUT_CE ("CE0"),
    .REG_OUTPUT_RST("RST0")
  ) u_dsp (
    .A0(a[0]), .A1(a[1]), .A2(a[2]), .A3(a[3]), .A4(a[4]), .A5(a[5]), .A6(a[6]), .A7(a[7]),
    .A8(a[8]), .A9(a[9]), .A10(a[10]), .A11(a[11]), .A12(a[12]), .A13(a[13]), .A14(a[14]),
    .A15(a[15]), .A16(a[16]), .A17(a[17]),
    .B0(b[0]), .B1(b[1]), .B2(b[2]), .B3(b[3]), .B4(b[4]), .B5(b[5]), .B6(b[6]), .B7(b[7]),
    .B8(b[8]), .B9(b[9]), .B10(b[10]), .B11(b[11]), .B12(b[12]), .B13(b[13]), .B14(b[14]),
    .B15(b[15]), .B16(b[16]), .B17(b[17]),
    .SIGNEDA(1'b0), .SIGNEDB(1'b0), .SOURCEA(1'b0), .SOURCEB(1'b0),
    .CLK0(clk_i), .CE0(en_i), .RST0(1'b0),
    .P0(p[0]), .P1(p[1]), .P2(p[2]), .P3(p[3]), .P4(p[4]), .P5(p[5]), .P6(p[6]), .P7(p[7]),
    .P8(p[8]), .P9(p[9]), .P10(p[10]), .P11(p[11]), .P12(p[12]), .P13(p[13]), .P14(p[14]),
    .P15(p[15]), .P16(p[16]), .P17(p[17]), .P18(p[18]), .P19(p[19]), .P20(p[20]),
    .P21(p[21]), .P22(p[22]), .P23(p[23]), .P24(p[24]), .P25(p[25]), .P26(p[26]),
    .P27(p[27]), .P28(p[28]), .P29(p[29]), .P30(p[30]), .P31(p[31]), .P32(p[32]),
    .P33(p[33]), .P34(p[34]), .P35(p[35])
  );
  assign p_o = p[AW+BW-1:0];
`else
  logic [AW-1:0]    a_m;
  logic [BW-1:0]    b_m;
  logic [AW+BW-1:0] prod;
  if (InReg) begin : g_in_reg
    logic [AW-1:0] a_q;
    logic [BW-1:0] b_q;
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        a_q <= a_i;
        b_q <= b_i;
      end
    end
    assign a_m = a_q;
    assign b_m = b_q;
  end else begin : g_no_in_reg
    assign a_m = a_i;
    assign b_m = b_i;
  end
  if (OutReg) begin : g_out_reg
    always_ff @(posedge clk_i) begin
      if (en_i) prod <= (AW+BW)'(a_m) * (AW+BW)'(b_m);
    end
  end else begin : g_no_out_reg
    assign prod = (AW+BW)'(a_m) * (AW+BW)'(b_m);
  end
  assign p_o = prod;
`endif
endmodule
