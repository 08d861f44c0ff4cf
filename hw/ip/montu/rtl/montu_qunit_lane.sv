// The Montgomery quotient digit of a row, the one contract of the engine's two builds:
//   t = u_0 * w mod 2^Word   (GF(2^m): u_0(x) * w(x) mod x^Word)
// load_i marks u_i as u_0 of a row; t_o holds u_0 * w from LatQ cycles later
// (montu_lane_pkg::qunit_lat) until LatQ cycles after the next load, so the lane b multiplier
// reads it for the whole row:
//   Pipelined = 0  montu_qunit (one Word x Word low product) and a loaded register:   LatQ = 1
//   Pipelined = 1  montu_qunit_pipe (16 x 16 products, rows, sum), its last register
//                  loaded:                                                            LatQ = 3
// No reset: t is loaded before a row reads it.
module montu_qunit_lane #(
  parameter int unsigned Word      = 64,
  parameter bit          Pipelined = 1'b0
) (
  input  logic            clk_i,
  input  logic            gf2m_i,   // held for the whole command
  input  logic            load_i,   // u_i is u_0 of a row
  input  logic [Word-1:0] u_i,
  input  logic [Word-1:0] w_i,      // held for the whole command
  output logic [Word-1:0] t_o
);
  if (Pipelined && (Word % 16) != 0) begin : g_bad_word
    $error("montu_qunit_lane: the pipelined q unit needs Word to be a multiple of 16");
  end

  if (Pipelined) begin : g_pipe
    montu_qunit_pipe #(.Word(Word)) u_qunit (.clk_i, .gf2m_i, .load_i, .u_i, .w_i, .t_o);
  end else begin : g_single
    logic [Word-1:0] t_d, t_q;
    montu_qunit #(.Word(Word)) u_qunit (.gf2m_i, .u_i, .w_i, .t_o(t_d));
    always_ff @(posedge clk_i) begin
      if (load_i) t_q <= t_d;
    end
    assign t_o = t_q;
  end
endmodule
