// An AW x BW product (BW <= 18) on the MULT18X18D of a's 18-bit limbs, whose input registers
// hold the operands (montu_mul_reg, InReg without OutReg): p_o is a_i * b_i as they were at the
// last clock edge with en_i, formed after it. A top limb of one bit is an AND in the fabric. The partial products of the 18-bit limbs of a, 36 bits
// apart for even and for odd limbs, do not overlap: their sum is one add.
module antao_fold_dsp #(
  parameter int unsigned AW = 72,
  parameter int unsigned BW = 16
) (
  input  logic             clk_i,
  input  logic             en_i,
  input  logic [AW-1:0]    a_i,
  input  logic [BW-1:0]    b_i,
  output logic [AW+BW-1:0] p_o
);
  localparam int unsigned Limbs = (AW + 17) / 18;
  localparam int unsigned PW    = 18 * Limbs + BW;   // the limbs' sum before truncation

  if ((BW < 1) || (BW > 18)) begin : g_bad_bw
    $error("antao_fold_dsp: BW must be 1 .. 18");
  end

  logic [18*Limbs-1:0]          a_ext;
  logic [Limbs-1:0][18+BW-1:0]  part;
  logic [PW-1:0]                even, odd, sum;

  assign a_ext = (18*Limbs)'(a_i);
  for (genvar k = 0; k < int'(Limbs); k++) begin : g_limb
    if ((k == int'(Limbs) - 1) && (AW - 18 * k == 1)) begin : g_bit
      // a last limb of one bit is an AND, as Yosys's mul2dsp leaves it to logic (the block
      // count stays that of a `*`: AntaoParams.mult18x18d)
      logic          a_bit_q;
      logic [BW-1:0] b_q;
      always_ff @(posedge clk_i) begin
        if (en_i) begin
          a_bit_q <= a_ext[18*k];
          b_q     <= b_i;
        end
      end
      assign part[k] = (18+BW)'(a_bit_q ? b_q : '0);
      logic unused_a;
      assign unused_a = ^a_ext[18*k+1 +: 17];
    end else begin : g_dsp
      montu_mul_reg #(.AW(18), .BW(BW), .InReg(1'b1), .OutReg(1'b0)) u_part (
        .clk_i, .en_i, .a_i(a_ext[18*k +: 18]), .b_i, .p_o(part[k])
      );
    end
  end

  always_comb begin
    even = '0;
    odd  = '0;
    for (int k = 0; k < int'(Limbs); k += 2) even[18*k +: 18+BW] = part[k];
    for (int k = 1; k < int'(Limbs); k += 2) odd[18*k +: 18+BW]  = part[k];
  end
  assign sum = even + odd;
  assign p_o = sum[AW+BW-1:0];

  if (PW > AW + BW) begin : g_unused_top
    logic unused_top;   // 0: a_i < 2^AW
    assign unused_top = ^sum[PW-1:AW+BW];
  end
endmodule
