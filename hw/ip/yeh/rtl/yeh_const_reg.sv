// C, the Constant Register (R^2 mod N; Yeh et al. §4.1: an SRAM, since it never changes during
// an exponentiation and gives only two bits per clock). A 64-bit-word RAM (montu_ram_1r1w) and a
// 64-bit shift register in front of it that hands the MSPG one radix-4 digit per clock:
//   load_i   (set-up of a BSR4 with A = C): sh = word 0, already on the RAM's output
//   shift_i  (an iteration): digit_o = sh[1:0] is consumed; sh >>= 2; in the first iteration of
//            word j the RAM reads word j + 1, which refills sh after the word's 32nd digit
// The host side (WR, RD, the operand check, SETLEN/WIPE clearing) uses the RAM's ports directly;
// it never overlaps a stream.
module yeh_const_reg #(
  parameter  int unsigned NBits  = 1024,
  localparam int unsigned NWords = NBits / 64,
  localparam int unsigned Aw     = (NWords > 1) ? $clog2(NWords) : 1,
  localparam int unsigned Jw     = $clog2(NWords + 1)
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
  input  logic          load_i,
  input  logic          shift_i,
  output logic [1:0]    digit_o
);
  logic [63:0]   sh_q, sh_d;
  logic [4:0]    sub_q, sub_d;     // digits of the current word consumed
  logic [Jw-1:0] next_q, next_d;   // the word the stream reads next
  logic          stream_re;

  assign stream_re = shift_i && (sub_q == 5'd0) && (next_q < Jw'(NWords));

  montu_ram_1r1w #(.Width(64), .Depth(NWords)) u_ram (
    .clk_i,
    .we_i   (we_i),
    .waddr_i(waddr_i),
    .wdata_i(wdata_i),
    .re_i   (re_i || stream_re),
    .raddr_i(stream_re ? Aw'(next_q) : raddr_i),
    .rdata_o(rdata_o)
  );

  always_comb begin
    sh_d   = sh_q;
    sub_d  = sub_q;
    next_d = next_q;
    if (clear_i) begin
      sh_d   = '0;
      sub_d  = '0;
      next_d = '0;
    end else if (load_i) begin
      sh_d   = rdata_o;
      sub_d  = '0;
      next_d = Jw'(1);
    end else if (shift_i) begin
      sub_d = sub_q + 5'd1;
      sh_d  = (sub_q == 5'd31) ? rdata_o : {2'b00, sh_q[63:2]};
      if (stream_re) next_d = next_q + Jw'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sh_q   <= '0;
      sub_q  <= '0;
      next_q <= '0;
    end else begin
      sh_q   <= sh_d;
      sub_q  <= sub_d;
      next_q <= next_d;
    end
  end

  assign digit_o = sh_q[1:0];
endmodule
