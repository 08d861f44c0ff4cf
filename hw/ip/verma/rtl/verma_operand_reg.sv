// One host register of the verma engine (N, C, O, E, P or R): a flat vector of Width bits that WR
// writes one 64-bit word at a time (the gearbox's one-hot word enable) and that the PEs read as
// W-bit words. Bits at or above the register's runtime width are always 0 (WR's E_RANGE), so the
// words above Width are dropped.
module verma_operand_reg #(
  parameter int unsigned Width = 1024,
  parameter int unsigned Words = 17
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,   // SETLEN, WIPE
  input  logic [Words-1:0] we_i,      // write 64-bit word p
  input  logic [63:0]      data_i,
  output logic [Width-1:0] q_o
);
  logic [Width-1:0] q_q;

  // host word p holds bits [64p +: 64] (the last one only up to Width - 1)
  for (genvar p = 0; p < Words; p++) begin : g_word
    localparam int unsigned Lo = 64 * p;
    if (Lo < Width) begin : g_bits
      localparam int unsigned Hi = (Lo + 64 < Width) ? Lo + 63 : Width - 1;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)       q_q[Hi:Lo] <= '0;
        else if (clear_i)  q_q[Hi:Lo] <= '0;
        else if (we_i[p])  q_q[Hi:Lo] <= data_i[Hi-Lo:0];
      end
    end else begin : g_none
      logic unused_we;
      assign unused_we = we_i[p];
    end
  end

  if (Width < 64) begin : g_narrow   // a register narrower than one host word
    logic unused_data;
    assign unused_data = ^data_i[63:Width];
  end

  assign q_o = q_q;
endmodule
