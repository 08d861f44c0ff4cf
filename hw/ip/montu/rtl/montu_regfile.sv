// The big-number register file: NumRegs x MaxWords words of Word bits, one write port and three
// synchronous read ports (a: ra stream, b: rb stream, n: modulus stream).
//
// Word address = register * MaxWords + word index (computed by the caller). Three copies of a
// 1R1W memory are written together, so each copy maps to plain simple-dual-port block RAM.
module montu_regfile #(
  parameter int unsigned Word  = 64,
  parameter int unsigned Depth = 2048,
  localparam int unsigned Aw   = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic            clk_i,
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
  montu_ram_1r1w #(.Width(Word), .Depth(Depth)) u_copy_a (
    .clk_i, .we_i, .waddr_i, .wdata_i, .re_i, .raddr_i(raddr_a_i), .rdata_o(rdata_a_o)
  );
  montu_ram_1r1w #(.Width(Word), .Depth(Depth)) u_copy_b (
    .clk_i, .we_i, .waddr_i, .wdata_i, .re_i, .raddr_i(raddr_b_i), .rdata_o(rdata_b_o)
  );
  montu_ram_1r1w #(.Width(Word), .Depth(Depth)) u_copy_n (
    .clk_i, .we_i, .waddr_i, .wdata_i, .re_i, .raddr_i(raddr_n_i), .rdata_o(rdata_n_o)
  );
endmodule
