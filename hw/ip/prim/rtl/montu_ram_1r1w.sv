// Simple dual-port memory: one synchronous write port and one synchronous read port.
//
// rdata_o = mem[raddr_i] as of the clock edge where re_i was high (one cycle of latency; the
// output holds while re_i is low). A read of the address being written in the same cycle
// returns the old word; Montu never relies on that case. No reset: WIPE clears the contents.
// Written in the form Yosys maps to block RAM (DP16KD on ECP5).
module montu_ram_1r1w #(
  parameter int unsigned Width = 64,
  parameter int unsigned Depth = 512,
  localparam int unsigned Aw   = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [Aw-1:0]    waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             re_i,
  input  logic [Aw-1:0]    raddr_i,
  output logic [Width-1:0] rdata_o
);
  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;
endmodule
