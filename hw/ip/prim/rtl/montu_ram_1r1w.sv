// Simple dual-port memory: one synchronous write port and one synchronous read port.
//
// rdata_o = mem[raddr_i] as of the clock edge where re_i was high (one cycle of latency; the
// output holds while re_i is low). No reset on the contents (the unit's WIPE clears them).
// Written in the form Yosys maps to block RAM (DP16KD on ECP5).
//
// WriteFirst = 0 (default): a read of the address being written in the same cycle is undefined,
// as in the block RAM; callers never use such a read. The array carries (* no_rw_check *): without
// it Yosys emulates "old word" reads with a register on every write input (data, address,
// enable) and a bypass multiplexer behind the block RAM's output, 141 flip-flops and ~100 LUTs
// per 2048 x 64 memory on the slowest paths of the unit. Simulation returns the old word
// inverted for such a read, so a caller that used one fails its tests. WriteFirst = 1: such a
// read returns the word being written (transparent read, so a pass may read a word in the cycle
// its predecessor writes it), an address compare and a multiplexer written here.
// OutReg = 1 adds one flip-flop stage after the read (two cycles of latency): the block RAM's
// slow clock-to-output then ends in a register instead of starting a logic path.
module montu_ram_1r1w #(
  parameter  int unsigned Width      = 64,
  parameter  int unsigned Depth      = 512,
  parameter  bit          WriteFirst = 1'b0,
  parameter  bit          OutReg     = 1'b0,
  localparam int unsigned Aw         = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [Aw-1:0]    waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             re_i,
  input  logic [Aw-1:0]    raddr_i,
  output logic [Width-1:0] rdata_o
);
  (* no_rw_check *) logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin
    if (re_i) begin
      if (WriteFirst && we_i && (waddr_i == raddr_i)) rdata_q <= wdata_i;
`ifndef SYNTHESIS
      else if (we_i && (waddr_i == raddr_i))          rdata_q <= ~mem_q[raddr_i];  // undefined
`endif
      else                                            rdata_q <= mem_q[raddr_i];
    end
  end

  montu_stage_reg #(.T(logic [Width-1:0]), .Stages(int'(OutReg)), .Reset(1'b0)) u_out_reg (
    .clk_i, .rst_ni(1'b1), .en_i(1'b1), .d_i(rdata_q), .q_o(rdata_o)
  );
endmodule
