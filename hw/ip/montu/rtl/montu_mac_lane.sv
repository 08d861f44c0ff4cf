// One multiply-accumulate lane of the Montgomery engine, the one contract of its two builds.
// It takes one word per cycle and computes, for the words j = 0, 1, .. of a row (first_i marks
// j = 0),
//   (ca_j, u_j) = a_j * b_j + c_j + ca_{j-1},   ca_{-1} = 0
// ("*" and "+" over the integers in GF(p); carry-less product and XOR in GF(2^m), where ca_j is
// then the high half of the carry-less product). Operands in cycle t: u_j in cycle
// t + LatU, ca_j in cycle t + LatCa (montu_lane_pkg::mac_lat_u, mac_lat_ca):
//   Pipelined = 0  montu_mac, one 64 x 64 multiply-and-add and a register:   LatU = LatCa = 1
//   Pipelined = 1  montu_mac_pipe, 16 x 16 products, rows, accumulate:       LatU = 4, LatCa = 5
// With LateC = 1, c_j comes montu_lane_pkg::mac_c_late cycles after a_j and b_j (pipelined: 2, at
// the stage that registers it for the accumulate; single-cycle: 0, with the operands).
// The lane moves every cycle; its registers have no reset (every value is written before it is
// read: the carry into j = 0 is 0).
module montu_mac_lane #(
  parameter int unsigned Word      = 64,
  parameter bit          Pipelined = 1'b0,
  parameter bit          LateC     = 1'b0
) (
  input  logic            clk_i,
  input  logic            gf2m_i,   // held for the whole command
  input  logic            first_i,  // this word starts a row (j = 0)
  input  logic [Word-1:0] a_i,
  input  logic [Word-1:0] b_i,
  input  logic [Word-1:0] c_i,
  output logic [Word-1:0] u_o,      // u_j, LatU cycles after the operands
  output logic [Word-1:0] ca_o      // ca_j, LatCa cycles after the operands
);
  if (Pipelined && (Word % 16) != 0) begin : g_bad_word
    $error("montu_mac_lane: the pipelined lane needs Word to be a multiple of 16");
  end

  if (Pipelined) begin : g_pipe
    montu_mac_pipe #(.Word(Word), .LateC(LateC)) u_mac (
      .clk_i, .gf2m_i, .first_i, .a_i, .b_i, .c_i, .u_o, .ca_o
    );
  end else begin : g_single
    logic unused_late_c;
    assign unused_late_c = LateC;   // c comes with the operands (mac_c_late(0) = 0)
    // {ca_j, u_j} = a_j * b_j + c_j + ca_{j-1}: one montu_mac and its result register
    logic [2*Word-1:0] sum_d, sum_q;
    montu_mac #(.Word(Word)) u_mac (
      .gf2m_i, .a_i, .b_i, .c_i,
      .d_i  (first_i ? '0 : sum_q[2*Word-1:Word]),
      .sum_o(sum_d)
    );
    always_ff @(posedge clk_i) begin
      sum_q <= sum_d;
    end
    assign u_o  = sum_q[Word-1:0];
    assign ca_o = sum_q[2*Word-1:Word];
  end
endmodule
