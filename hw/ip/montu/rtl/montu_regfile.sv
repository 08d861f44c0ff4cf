// The big-number register file: NumRegs x MaxWords words of Word bits, one write port and three
// synchronous read ports (a: ra stream, b: rb stream, n: modulus stream).
//
// Word address = register * MaxWords + word index (computed by the caller). Three copies of a
// 1R1W memory are written together, so each copy maps to plain simple-dual-port block RAM.
//
// WriteBehind = 1: the write port is registered, and the word reaches the block RAMs one clock
// after the caller presents it. The caller's write selects (engine, register, word index, WIPE)
// then end in ~80 flip-flops instead of driving the enables, addresses and data inputs of the
// block RAMs across the chip. A word written at clock edge t can be read from edge t + 2 on;
// a read at edge t + 1 collides with the delayed write, and montu_ram_1r1w's simulation model
// returns the word inverted for such a read, so a caller that relied on it fails its tests.
module montu_regfile #(
  parameter  int unsigned Word        = 64,
  parameter  int unsigned Depth       = 2048,
  parameter  bit          WriteBehind = 1'b0,
  localparam int unsigned Aw          = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            we_i,
  input  logic [Aw-1:0]   waddr_i,
  input  logic [Word-1:0] wdata_i,
  input  logic            re_i,
  input  logic [Aw-1:0]   raddr_a_i,
  input  logic [Aw-1:0]   raddr_b_i,
  input  logic [Aw-1:0]   raddr_n_i,
  output logic [Word-1:0] rdata_a_o,
  output logic [Word-1:0] rdata_b_o,
  output logic [Word-1:0] rdata_n_o
);
  logic            we;
  logic [Aw-1:0]   waddr;
  logic [Word-1:0] wdata;

  if (WriteBehind) begin : g_write_behind
    logic            we_q;
    logic [Aw-1:0]   waddr_q;
    logic [Word-1:0] wdata_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) we_q <= 1'b0;
      else         we_q <= we_i;
    end
    always_ff @(posedge clk_i) begin
      waddr_q <= waddr_i;
      wdata_q <= wdata_i;
    end
    assign we    = we_q;
    assign waddr = waddr_q;
    assign wdata = wdata_q;
  end else begin : g_write_through
    assign we    = we_i;
    assign waddr = waddr_i;
    assign wdata = wdata_i;
    logic unused_rst;
    assign unused_rst = rst_ni;
  end

  montu_ram_1r1w #(.Width(Word), .Depth(Depth)) u_copy_a (
    .clk_i, .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .re_i, .raddr_i(raddr_a_i),
    .rdata_o(rdata_a_o)
  );
  montu_ram_1r1w #(.Width(Word), .Depth(Depth)) u_copy_b (
    .clk_i, .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .re_i, .raddr_i(raddr_b_i),
    .rdata_o(rdata_b_o)
  );
  montu_ram_1r1w #(.Width(Word), .Depth(Depth)) u_copy_n (
    .clk_i, .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .re_i, .raddr_i(raddr_n_i),
    .rdata_o(rdata_n_o)
  );
endmodule
