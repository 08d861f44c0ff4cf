// MSPG, the Multiply/Square Product Generator (Yeh et al. Fig. 1), with the square register.
//
// Iteration i of BSR4 (one clock) takes the multiplier digit a_i = digit_i (2 bits, from X's
// 2-bit adder or from C's shift register) and hands the DoCSA the two partial products
//
//   pp0 = a_i[0] * B_eff        pp1 = a_i[1] * 2 * B_eff
//
// Multiply mode: B_eff = B, the Plaintext Register M or the constant 1.
// Square mode (A = B = X; X is shifted out as the multiplier, so B is rebuilt from it):
//
//   B_eff = 2 * SQ_i + a_i * 4^i,    SQ_i = X mod 4^i (the digits received before iteration i)
//
// because X^2 = sum_i a_i 4^i (2 (X mod 4^i) + a_i 4^i). SQ_i lives in the square register sq_q
// (bits 2i-1 .. 0 filled, the rest 0); digit i is written where at_q points (bit i set: a
// one-hot over the digits, shifted one place per iteration; at_2i, bit 2i set, is its wiring
// onto the even bits — a register of the even bits alone, so that synthesis has no constant odd
// flip-flops to discover one per pass: Yosys's opt loop did, for an hour at NBits = 2048).
// 2 * SQ_i ends at bit 2i with the bit sq[2i-1] (kept in top_q as a_{i-1}[1]), so adding
// a_i * 4^i only touches bits 2i .. 2i+2:
//
//   bit 2i   : top ^ a0            bit 2i+1 : a1 ^ (top & a0)         bit 2i+2 : a1 & top & a0
//
// a few gates per bit, selected by the one-hot position; no carry chain. B_eff < 1.25 * 2^L,
// so it has NBits + 1 bits.
module yeh_mspg #(
  parameter  int unsigned NBits   = 1024,
  localparam int unsigned NDigits = NBits / 2
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               clear_i,    // SETLEN / WIPE
  input  logic               start_i,    // set up a BSR4: SQ = 0, digit position 0
  input  logic               step_i,     // an iteration: consume digit_i
  input  logic               square_i,   // square mode (B = A = X)
  input  logic               one_i,      // multiply mode with B = 1 (else B = M)
  input  logic [NBits-1:0]   m_i,
  input  logic [1:0]         digit_i,    // a_i
  output logic [NBits:0]     pp0_o,
  output logic [NBits+1:0]   pp1_o,
  output logic [NBits-1:0]   pos_o       // bits 2i+1 .. 2i set: where digit i goes (M's capture)
);
  logic [NBits-1:0] sq_q, sq_d;         // the square register: SQ_i
  logic [NDigits-1:0] at_q, at_d;       // bit i set: the digit position of iteration i
  logic             top_q, top_d;       // sq[2i-1] = a_{i-1}[1]

  // ---------------------------------------------------------------------------------------
  // B_eff
  // ---------------------------------------------------------------------------------------
  logic             a0, a1;
  logic [NBits:0]   at_2i;       // bit 2i set (NBits + 1 bits, the top one 0)
  logic [NBits-1:0] at_digit;    // bits 2i + 1 .. 2i set: where digit i goes
  logic [NBits:0]   b_square, b_mul, b_eff;
  assign a0 = digit_i[0];
  assign a1 = digit_i[1];

  always_comb begin
    at_2i = '0;
    for (int unsigned i = 0; i < NDigits; i++) at_2i[2*i] = at_q[i];
  end
  assign at_digit = at_2i[NBits-1:0] | {at_2i[NBits-2:0], 1'b0};

  // 2 * SQ_i + a_i * 4^i: 2 * SQ_i, then bits 2i, 2i + 1, 2i + 2 of the correction
  assign b_square = {sq_q, 1'b0}
                  ^ (at_2i & {(NBits+1){a0}})
                  ^ ({at_2i[NBits-1:0], 1'b0} & {(NBits+1){a1 ^ (top_q & a0)}})
                  ^ ({at_2i[NBits-2:0], 2'b00} & {(NBits+1){a1 & top_q & a0}});
  assign b_mul    = one_i ? (NBits+1)'(1) : {1'b0, m_i};
  assign b_eff    = square_i ? b_square : b_mul;

  assign pp0_o = a0 ? b_eff : '0;
  assign pp1_o = a1 ? {b_eff, 1'b0} : '0;
  assign pos_o = at_digit;

  // ---------------------------------------------------------------------------------------
  // Square register: digit i at bits 2i+1 .. 2i
  // ---------------------------------------------------------------------------------------
  always_comb begin
    sq_d    = sq_q;
    at_d    = at_q;
    top_d   = top_q;
    if (clear_i) begin
      sq_d    = '0;
      at_d    = '0;
      top_d   = 1'b0;
    end else if (start_i) begin
      sq_d    = '0;
      at_d    = NDigits'(1);
      top_d   = 1'b0;
    end else if (step_i) begin
      sq_d    = (sq_q & ~at_digit) | (at_digit & {NDigits{digit_i}});
      at_d    = {at_q[NDigits-2:0], 1'b0};
      top_d   = a1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sq_q    <= '0;
      at_q    <= '0;
      top_q   <= 1'b0;
    end else begin
      sq_q    <= sq_d;
      at_q    <= at_d;
      top_q   <= top_d;
    end
  end
endmodule
