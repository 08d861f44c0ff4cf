// The two lanes of a MINV pass (montu_inv), the one contract of the engine's two builds. For the
// words j = 0 .. W-1 of a pass, with m formed at word 0 and the carries running from word to
// word (two's complement, ExtBits extension bits above word W-1):
//   lane 1:  a' = (a + m·y) / 2^t                     (the coefficient A or C)
//   lane 2:  b' = (b - m·x) / 2^t  (sub), (b + m·x) / 2^t  (add)   (the coefficient B or D)
//   m = (a_0·f) mod 2^t if y is odd, (b_0·f) mod 2^t if not (f = factor_i = -y^-1 or x^-1 mod
//   2^Word, montu_hensel); m = 1 for a fix pass (D ± x: a' is not written)
// In GF(2^m) the products are carry-less and "+" and "-" are XOR. The division is exact.
//
// Ports. The word entering the lanes (in_*), in the cycle after S1 of montu_inv has formed a_j
// and b_j; the extensions ext_a_i/ext_b_i of a, b (held from word W-1's S1 to the tail). x_j, y_j
// are the lanes' own reads of the X and Y memories: they drive the read address from S0's word
// address raddr_i and take the read data (the read latency of montu_ram_1r1w) when they need it.
// Out comes one word of a', b' per write cycle (wr_o): word j-1 after word j has gone through,
// then word W-1 with the new extensions (wr_last_o), together with x of the same word (for the D
// compare) and the pass's fix / side bits. Word j-1 of a later pass and word W-1 of an earlier
// one are never due in the same cycle (the pass period is long enough), so one port suffices.
//
// Timing (cycle c relative to the cycle word 0 of the pass is addressed by S0):
//                                    in_* (word j)   wr_o (word j-1)   wr_o (word W-1)
//   Pipelined = 0, montu_inv_lanes_single   j+1       j+5               W+5
//   Pipelined = 1, montu_inv_lanes_pipe     j+3       j+10              W+11
// montu_inv's pass periods are built on these numbers (see its header). The two builds also
// subtract differently in lane 2 (single: b + ~(m·x) + 1 word by word with a signed carry;
// pipelined: b + m·(2^L - x), then -m in the extension, since montu_mac_lane can only add), which
// stays inside the implementations.
module montu_inv_lanes #(
  parameter  int unsigned Word      = 64,
  parameter  int unsigned MaxWords  = 64,
  parameter  int unsigned ExtBits   = 8,
  parameter  bit          Pipelined = 1'b0,
  localparam int unsigned Aw        = (MaxWords > 1) ? $clog2(MaxWords) : 1,
  localparam int unsigned Tw        = $clog2(Word)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               gf2m_i,      // held for the whole MINV
  input  logic               y_odd_i,     // m from a (y odd) or from b
  input  logic [Word-1:0]    factor_i,    // -y^-1 or x^-1 mod 2^Word, held from the first pass
  // the word entering the lanes
  input  logic               in_valid_i,  // a word of a reduction or a fix pass
  input  logic               in_last_i,   // j = W-1
  input  logic [Aw-1:0]      in_j_i,
  input  logic [Tw-1:0]      in_t_i,      // the pass's shift t
  input  logic               in_fix_i,    // fix pass: m = 1
  input  logic               in_sub2_i,   // lane 2 subtracts m·x
  input  logic               in_side_i,   // carried to wr_side_o
  input  logic [Word-1:0]    in_a_i,      // a_j
  input  logic [Word-1:0]    in_b_i,      // b_j
  input  logic [ExtBits:0]   ext_a_i,     // extension of a (one bit more: a difference)
  input  logic [ExtBits:0]   ext_b_i,     // extension of b
  // reads of x and y
  input  logic [Aw-1:0]      raddr_i,     // S0's word address
  output logic [Aw-1:0]      x_raddr_o,
  output logic [Aw-1:0]      y_raddr_o,
  input  logic [Word-1:0]    x_rdata_i,
  input  logic [Word-1:0]    y_rdata_i,
  // word k of a', b'
  output logic               wr_o,
  output logic [Aw-1:0]      wr_idx_o,    // k
  output logic               wr_last_o,   // k = W-1, with the extensions
  output logic               wr_fix_o,
  output logic               wr_side_o,
  output logic [Word-1:0]    wr_a_o,
  output logic [Word-1:0]    wr_b_o,
  output logic [ExtBits-1:0] wr_ext_a_o,
  output logic [ExtBits-1:0] wr_ext_b_o,
  output logic [Word-1:0]    wr_x_o       // x_k
);
  // The extension sums are Word + 3 bits wide and sign-extend the ExtBits + 1 bits of ext_*_i.
  if (ExtBits < 1 || ExtBits > Word) begin : g_bad_ext
    $error("montu_inv_lanes: ExtBits must be 1 .. Word");
  end
  // t = 0 .. Word-1 is Tw = log2(Word) bits.
  if ((Word & (Word - 1)) != 0) begin : g_bad_word
    $error("montu_inv_lanes: Word must be a power of two");
  end

  if (Pipelined) begin : g_pipe
    montu_inv_lanes_pipe #(.Word(Word), .MaxWords(MaxWords), .ExtBits(ExtBits)) u_lanes (
      .clk_i, .rst_ni, .gf2m_i, .y_odd_i, .factor_i,
      .in_valid_i, .in_last_i, .in_j_i, .in_t_i, .in_fix_i, .in_sub2_i, .in_side_i,
      .in_a_i, .in_b_i, .ext_a_i, .ext_b_i,
      .raddr_i, .x_raddr_o, .y_raddr_o, .x_rdata_i, .y_rdata_i,
      .wr_o, .wr_idx_o, .wr_last_o, .wr_fix_o, .wr_side_o, .wr_a_o, .wr_b_o,
      .wr_ext_a_o, .wr_ext_b_o, .wr_x_o
    );
  end else begin : g_single
    montu_inv_lanes_single #(.Word(Word), .MaxWords(MaxWords), .ExtBits(ExtBits)) u_lanes (
      .clk_i, .rst_ni, .gf2m_i, .y_odd_i, .factor_i,
      .in_valid_i, .in_last_i, .in_j_i, .in_t_i, .in_fix_i, .in_sub2_i, .in_side_i,
      .in_a_i, .in_b_i, .ext_a_i, .ext_b_i,
      .raddr_i, .x_raddr_o, .y_raddr_o, .x_rdata_i, .y_rdata_i,
      .wr_o, .wr_idx_o, .wr_last_o, .wr_fix_o, .wr_side_o, .wr_a_o, .wr_b_o,
      .wr_ext_a_o, .wr_ext_b_o, .wr_x_o
    );
  end
endmodule
