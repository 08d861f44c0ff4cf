// E, the Exponent Register (Yeh et al. §4.1: an SRAM, read one bit per exponent step). A
// 64-bit-word RAM (montu_ram_1r1w) with
//   the leading-one search: during EXP's operand check the RAM streams words 0 .. W-1 (scan_i,
//     word scan_idx_i on the output); lead_o = the index of E's most significant 1, zero_o = E = 0
//   the bit select: bit_rd_i reads the word of bit bit_idx_i; bit_o = that bit from the next
//     clock on (the RAM output holds until the next read), MSB first as EXP walks down
// The host side (WR, RD, SETLEN/WIPE clearing) uses the RAM's ports directly.
module yeh_exp_reg #(
  parameter  int unsigned NBits  = 1024,
  localparam int unsigned NWords = NBits / 64,
  localparam int unsigned Aw     = (NWords > 1) ? $clog2(NWords) : 1,
  localparam int unsigned Jw     = $clog2(NWords + 1),
  localparam int unsigned Iw     = $clog2(NBits)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          clear_i,
  input  logic          we_i,
  input  logic [Aw-1:0] waddr_i,
  input  logic [63:0]   wdata_i,
  input  logic          re_i,
  input  logic [Aw-1:0] raddr_i,
  output logic [63:0]   rdata_o,
  input  logic          scan_start_i,
  input  logic          scan_i,
  input  logic [Jw-1:0] scan_idx_i,
  output logic [Iw-1:0] lead_o,
  output logic          zero_o,
  input  logic          bit_rd_i,
  input  logic [Iw-1:0] bit_idx_i,
  output logic          bit_o
);
  logic [Iw-1:0] lead_q, lead_d;
  logic          zero_q, zero_d;
  logic [5:0]    sel_q, sel_d;

  montu_ram_1r1w #(.Width(64), .Depth(NWords)) u_ram (
    .clk_i,
    .we_i   (we_i),
    .waddr_i(waddr_i),
    .wdata_i(wdata_i),
    .re_i   (re_i || bit_rd_i),
    .raddr_i(bit_rd_i ? Aw'(bit_idx_i >> 6) : raddr_i),
    .rdata_o(rdata_o)
  );

  // most significant 1 of the word on the RAM's output
  logic [5:0] msb;
  always_comb begin
    msb = '0;
    for (int unsigned b = 0; b < 64; b++) begin
      if (rdata_o[b]) msb = 6'(b);
    end
  end

  always_comb begin
    lead_d = lead_q;
    zero_d = zero_q;
    sel_d  = sel_q;
    if (clear_i) begin
      lead_d = '0;
      zero_d = 1'b1;
      sel_d  = '0;
    end else if (scan_start_i) begin
      lead_d = '0;
      zero_d = 1'b1;
    end else if (scan_i && (rdata_o != '0)) begin
      lead_d = Iw'({scan_idx_i, msb});
      zero_d = 1'b0;
    end
    if (bit_rd_i) sel_d = bit_idx_i[5:0];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lead_q <= '0;
      zero_q <= 1'b1;
      sel_q  <= '0;
    end else begin
      lead_q <= lead_d;
      zero_q <= zero_d;
      sel_q  <= sel_d;
    end
  end

  assign lead_o = lead_q;
  assign zero_o = zero_q;
  assign bit_o  = rdata_o[sel_q];
endmodule
