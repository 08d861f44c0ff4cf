// The lanes of a MINV pass for the default build (montu_inv_lanes, Pipelined = 0): at most one
// multiplier or one wide adder per stage, one stage per cycle. Cycle c relative to the address of
// the pass's word 0 (S0 of montu_inv); word j:
//   in   (c = j+1)  a_j, b_j from S1, x_j and y_j from the memories (read at S0's address)
//   M    (c = j+2)  at word 0, m = (a_0·f) mod 2^t (y odd) or (b_0·f) mod 2^t (montu_qunit, the
//                   low Word x Word product); fix pass: m = 1
//   L1   (c = j+3)  the products m·y_j and m·x_j (integer or carry-less, Word x Word -> 2 Word)
//   L2   (c = j+4)  a_j + m·y_j + carry and b_j - m·x_j + carry (2 Word + 2 bits, the carry
//                   signed): one carry-save level, then one adder; lane 2 subtracts as
//                   b + ~(m·x) + 1, the +1 entering as bit 0 of the shifted carry vector.
//                   GF(2^m): XOR, the "carry" is the high half of the previous product.
//   L3   (c = j+5)  word j-1 of a', b' = {lo_j, lo_{j-1}} >> t; at word W-1 the extension sums
//                   e = ext + carry out of word W-1 are registered
//   tail (c = W+5)  word W-1 = {e, lo_{W-1}} >> t, ext' = e >> t (arithmetic)
// Every register of the lanes is in one struct, reset to zero.
module montu_inv_lanes_single #(
  parameter  int unsigned Word     = 64,
  parameter  int unsigned MaxWords = 64,
  parameter  int unsigned ExtBits  = 8,
  localparam int unsigned Aw       = (MaxWords > 1) ? $clog2(MaxWords) : 1,
  localparam int unsigned Tw       = $clog2(Word)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               gf2m_i,
  input  logic               y_odd_i,
  input  logic [Word-1:0]    factor_i,
  input  logic               in_valid_i,
  input  logic               in_last_i,
  input  logic [Aw-1:0]      in_j_i,
  input  logic [Tw-1:0]      in_t_i,
  input  logic               in_fix_i,
  input  logic               in_sub2_i,
  input  logic               in_side_i,
  input  logic [Word-1:0]    in_a_i,
  input  logic [Word-1:0]    in_b_i,
  input  logic [ExtBits:0]   ext_a_i,
  input  logic [ExtBits:0]   ext_b_i,
  input  logic [Aw-1:0]      raddr_i,
  output logic [Aw-1:0]      x_raddr_o,
  output logic [Aw-1:0]      y_raddr_o,
  input  logic [Word-1:0]    x_rdata_i,
  input  logic [Word-1:0]    y_rdata_i,
  output logic               wr_o,
  output logic [Aw-1:0]      wr_idx_o,
  output logic               wr_last_o,
  output logic               wr_fix_o,
  output logic               wr_side_o,
  output logic [Word-1:0]    wr_a_o,
  output logic [Word-1:0]    wr_b_o,
  output logic [ExtBits-1:0] wr_ext_a_o,
  output logic [ExtBits-1:0] wr_ext_b_o,
  output logic [Word-1:0]    wr_x_o
);
  localparam int unsigned Cy = Word + 2;       // signed carry between words
  localparam int unsigned Sw = 2 * Word + 2;   // signed word sum a + m·z + carry
  localparam int unsigned Ew = Word + 3;       // signed extension sum

  // What the lanes know of a word.
  typedef struct packed {
    logic          valid, last, fix, sub2, side;
    logic [Aw-1:0] j, jm1;
    logic [Tw-1:0] t;
  } wctl_t;

  // The lanes' registers, by the stage that reads them.
  typedef struct packed {
    wctl_t             c2, c3, c4, c5, c6;   // control of the word in M, L1, L2, L3, tail
    logic [Word-1:0]   p2, q2, y2, x2;       // M: a_j, b_j, y_j, x_j
    logic [Word-1:0]   m;                    // L1: the multiplier of the pass, m < 2^t (fix: 1)
    logic [Word-1:0]   p3, q3, y3, x3;
    logic [2*Word-1:0] pr1, pr2;             // L2: m·y_j, m·x_j
    logic [Word-1:0]   p4, q4, x4;
    logic [Word-1:0]   lo1, lo2;             // L3: word j of the two sums
    logic [Cy-1:0]     cy1, cy2;             //     and their carries into word j+1
    logic [Word-1:0]   x5;
    logic [Word-1:0]   lp1, lp2;             // L3, tail: word j-1 of the sums
    logic [Ew-1:0]     e1, e2;               // tail: the extension sums
    logic [Word-1:0]   x6;                   // x of the word written
  } lanes_t;
  lanes_t l_d, l_q;

  // L1's carry-less products m·y_j and m·x_j (GF(2^m)).
  logic [2*Word-1:0] clmul_my, clmul_mx;
  montu_clmul #(.Word(Word)) u_clmul_my (.a_i(l_q.m), .b_i(l_q.y3), .p_o(clmul_my));
  montu_clmul #(.Word(Word)) u_clmul_mx (.a_i(l_q.m), .b_i(l_q.x3), .p_o(clmul_mx));

  logic [Sw-1:0]      s_lane1, s_lane2, a_lane1, a_lane2, b_lane1, b_lane2, k_lane1, k_lane2;
  logic [Sw-2:0]      mj_lane1, mj_lane2;   // carry-save: majority of the three addends
  logic [Cy-1:0]      cin1, cin2;
  logic [Word-1:0]    m_full, mask_t;
  logic [Word-1:0]    r3_lane1, r3_lane2, rt_lane1, rt_lane2;
  logic [ExtBits-1:0] e_sh1, e_sh2;
  logic               l3_write, tail;

  assign x_raddr_o = raddr_i;
  assign y_raddr_o = raddr_i;

  // M: the low product a_0·f or b_0·f.
  montu_qunit #(.Word(Word)) u_m (
    .gf2m_i, .u_i(y_odd_i ? l_q.p2 : l_q.q2), .w_i(factor_i), .t_o(m_full)
  );

  always_comb begin
    l_d = l_q;

    // The word entering the lanes.
    l_d.c2 = '{valid: in_valid_i, last: in_last_i, fix: in_fix_i, sub2: in_sub2_i,
               side: in_side_i, j: in_j_i, jm1: in_j_i - Aw'(1), t: in_t_i};
    l_d.p2 = in_a_i;
    l_d.q2 = in_b_i;
    l_d.y2 = y_rdata_i;
    l_d.x2 = x_rdata_i;

    // M: at word 0, m = (a·(-yinv)) mod 2^t (y odd) or (b·xinv) mod 2^t (y even); fix: m = 1.
    mask_t = (Word'(1) << l_q.c2.t) - Word'(1);
    if (l_q.c2.valid && (l_q.c2.j == '0)) begin
      l_d.m = l_q.c2.fix ? Word'(1) : (m_full & mask_t);
    end
    l_d.c3 = l_q.c2;
    l_d.p3 = l_q.p2;
    l_d.q3 = l_q.q2;
    l_d.y3 = l_q.y2;
    l_d.x3 = l_q.x2;

    // L1: the products.
    l_d.c4  = l_q.c3;
    l_d.pr1 = gf2m_i ? clmul_my : {{Word{1'b0}}, l_q.m} * {{Word{1'b0}}, l_q.y3};
    l_d.pr2 = gf2m_i ? clmul_mx : {{Word{1'b0}}, l_q.m} * {{Word{1'b0}}, l_q.x3};
    l_d.p4  = l_q.p3;
    l_d.q4  = l_q.q3;
    l_d.x4  = l_q.x3;

    // L2: {carry, lo} = a + m·y + carry; lane 2 subtracts as b + ~(m·x) + 1 (the +1 enters as
    // bit 0 of the shifted carry vector). One carry-save level, then one Sw-bit adder.
    cin1 = (l_q.c4.j == '0) ? '0 : l_q.cy1;
    cin2 = (l_q.c4.j == '0) ? '0 : l_q.cy2;
    a_lane1 = {{(Word + 2){1'b0}}, l_q.p4};
    b_lane1 = {{Word{cin1[Cy-1]}}, cin1};
    k_lane1 = {2'b00, l_q.pr1};
    a_lane2 = {{(Word + 2){1'b0}}, l_q.q4};
    b_lane2 = {{Word{cin2[Cy-1]}}, cin2};
    k_lane2 = l_q.c4.sub2 ? ~{2'b00, l_q.pr2} : {2'b00, l_q.pr2};
    mj_lane1 = (Sw - 1)'((a_lane1 & b_lane1) | (a_lane1 & k_lane1) | (b_lane1 & k_lane1));
    mj_lane2 = (Sw - 1)'((a_lane2 & b_lane2) | (a_lane2 & k_lane2) | (b_lane2 & k_lane2));
    if (gf2m_i) begin
      s_lane1 = {2'b00, l_q.pr1} ^ {{(Word + 2){1'b0}}, l_q.p4 ^ cin1[Word-1:0]};
      s_lane2 = {2'b00, l_q.pr2} ^ {{(Word + 2){1'b0}}, l_q.q4 ^ cin2[Word-1:0]};
    end else begin
      s_lane1 = (a_lane1 ^ b_lane1 ^ k_lane1) + {mj_lane1, 1'b0};
      s_lane2 = (a_lane2 ^ b_lane2 ^ k_lane2) + {mj_lane2, l_q.c4.sub2};
    end
    if (l_q.c4.valid) begin
      l_d.lo1 = s_lane1[Word-1:0];
      l_d.lo2 = s_lane2[Word-1:0];
      l_d.cy1 = s_lane1[Sw-1:Word];
      l_d.cy2 = s_lane2[Sw-1:Word];
    end
    l_d.x5 = l_q.x4;
    l_d.c5 = l_q.c4;

    // L3: word j-1 of a', b' = {lo_j, lo_{j-1}} >> t; at the last word, the extension sums
    // e = ext + carry out of word W-1 for the tail.
    r3_lane1 = Word'({l_q.lo1, l_q.lp1} >> l_q.c5.t);
    r3_lane2 = Word'({l_q.lo2, l_q.lp2} >> l_q.c5.t);
    if (l_q.c5.valid) begin
      l_d.lp1 = l_q.lo1;
      l_d.lp2 = l_q.lo2;
      l_d.x6  = l_q.x5;
    end
    l_d.c6 = l_q.c5;
    if (l_q.c5.valid && l_q.c5.last) begin
      if (gf2m_i) begin
        l_d.e1 = {{(Ew - ExtBits - 1){1'b0}}, ext_a_i} ^ {1'b0, l_q.cy1};
        l_d.e2 = {{(Ew - ExtBits - 1){1'b0}}, ext_b_i} ^ {1'b0, l_q.cy2};
      end else begin
        l_d.e1 = {{(Ew - ExtBits - 1){ext_a_i[ExtBits]}}, ext_a_i} + {l_q.cy1[Cy-1], l_q.cy1};
        l_d.e2 = {{(Ew - ExtBits - 1){ext_b_i[ExtBits]}}, ext_b_i} + {l_q.cy2[Cy-1], l_q.cy2};
      end
    end

    // Tail: word W-1 = {e, lo_{W-1}} >> t, ext' = e >> t (arithmetic).
    rt_lane1 = Word'({l_q.e1[Word-1:0], l_q.lp1} >> l_q.c6.t);
    rt_lane2 = Word'({l_q.e2[Word-1:0], l_q.lp2} >> l_q.c6.t);
    e_sh1    = ExtBits'($signed(l_q.e1) >>> l_q.c6.t);
    e_sh2    = ExtBits'($signed(l_q.e2) >>> l_q.c6.t);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) l_q <= '0;
    else         l_q <= l_d;
  end

  // One write port: word j-1 from L3 (j >= 1), or word W-1 and the extensions from the tail.
  assign l3_write   = l_q.c5.valid && (l_q.c5.j != '0);
  assign tail       = l_q.c6.valid && l_q.c6.last;
  assign wr_o       = l3_write || tail;
  assign wr_idx_o   = tail ? l_q.c6.j    : l_q.c5.jm1;
  assign wr_last_o  = tail;
  assign wr_fix_o   = tail ? l_q.c6.fix  : l_q.c5.fix;
  assign wr_side_o  = tail ? l_q.c6.side : l_q.c5.side;
  assign wr_a_o     = tail ? rt_lane1 : r3_lane1;
  assign wr_b_o     = tail ? rt_lane2 : r3_lane2;
  assign wr_ext_a_o = e_sh1;
  assign wr_ext_b_o = e_sh2;
  assign wr_x_o     = l_q.x6;
endmodule
