// The lanes of a MINV pass for the high-clock build (montu_inv_lanes, Pipelined = 1): the m
// product is montu_qunit_lane's pipelined low product and the two lanes are montu_mac_lane
// (16 x 16 products on MULT18X18D, row sums, an accumulate stage that keeps the word carry
// recurrence inside the lane). Cycle c relative to the address of the pass's word 0; word j:
//   in    (c = j+3)   a_j, b_j from S1b; m's product of word 0 starts (3 stages)
//   j+5               -x_j = ~x_j + carry: in GF(p) lane 2 adds m·(2^L - x) instead of
//                     subtracting m·x (a lane can only add; the missing -m·2^L goes into the
//                     extension sum)
//   j+6               lane input: a_j + m·y_j and b_j + m·x'_j (x' = 2^L - x or x), m masked to
//                     2^t - 1 at word 0 (fix pass: 1) and held for the pass
//   j+10  (L3)        u_j of both lanes: word j-1 of a', b' = {u_j, u_{j-1}} >> t
//   j+11              at the last word, the lanes' carry words: e = ext + carry (- m)
//   W+11  (tail)      word W-1 = {e, u_{W-1}} >> t, ext' = e >> t (arithmetic)
// x_j and y_j are read when the lanes need them, not carried along from S1: y_j at the lane
// input, x_j a cycle before it (2^L - x is formed there); the memories have an output register
// (read latency 2). The datapath registers have no reset (every value is written before it is
// read); the control of the words in flight has.
module montu_inv_lanes_pipe
  import montu_lane_pkg::*;
#(
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
  localparam int unsigned InDelay = qunit_lat(1'b1);   // in -> lane input: the m product (3)
  localparam int unsigned MacLat  = mac_lat_u(1'b1);   // lane input -> u_j (4); carry word + 1
  localparam int unsigned NumCtl  = InDelay + MacLat + 2;
  localparam int unsigned Ew      = Word + 3;          // signed extension sum

  if (mac_lat_ca(1'b1) != MacLat + 1) begin : g_bad_lat
    $error("montu_inv_lanes_pipe: the extension sums expect the carry word one cycle after u_j");
  end
  if (InDelay < 2) begin : g_bad_in_delay
    $error("montu_inv_lanes_pipe: the lane input's selects are registered from two stages ahead");
  end

  // What the lanes know of a word.
  typedef struct packed {
    logic          valid, last, fix, sub2, side;
    logic [Aw-1:0] j, jm1;
    logic [Tw-1:0] t;
  } wctl_t;

  wctl_t             ctl_q [NumCtl];   // [k]: the control of the word that entered k+1 cycles ago
  wctl_t             ctl_in, ctl_l3, ctl_ca, ctl_tail;
  logic [Word-1:0]   p_q [InDelay], q_q [InDelay];
  logic [Word-1:0]   x_q [2:InDelay + MacLat - 1];   // x_j after the memory, for lane 2 and the
                                                     // D compare (y_j comes straight from it)
  logic [Aw-1:0]     rd_q [4];                       // raddr_i delayed by 1 .. 4 cycles
  logic [Word-1:0]   nx_q;                           // 2^L - x, word j (at ctl_q[2])
  logic              nxc_q;                          // its carry
  logic [Word:0]     nx_sum;
  logic [Word-1:0]   qprod, m0, m_q, m_cur, xl;
  logic [Ew-1:0]     e1_pre_q, e2_pre_q;   // ext (lane 2 in GF(p) subtracting: ext - m)
  logic [Ew-1:0]     e2_ext_q, e2_m_q;     // its operands, a cycle before
  logic [Word-1:0]   u1, u2, ca1, ca2, lp1_q, lp2_q, xw_q;
  logic [Ew-1:0]     e1_d, e1_q, e2_d, e2_q;
  logic [Word-1:0]   r3_lane1, r3_lane2, rt_lane1, rt_lane2;
  logic [ExtBits-1:0] e_sh1, e_sh2;
  logic              l3_write, tail;

  assign ctl_in   = ctl_q[InDelay - 1];
  assign ctl_l3   = ctl_q[InDelay + MacLat - 1];
  assign ctl_ca   = ctl_q[InDelay + MacLat];
  assign ctl_tail = ctl_q[InDelay + MacLat + 1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int k = 0; k < NumCtl; k++) ctl_q[k] <= '0;
    end else begin
      ctl_q[0] <= '{valid: in_valid_i, last: in_last_i, fix: in_fix_i, sub2: in_sub2_i,
                    side: in_side_i, j: in_j_i, jm1: in_j_i - Aw'(1), t: in_t_i};
      for (int k = 1; k < NumCtl; k++) ctl_q[k] <= ctl_q[k-1];
    end
  end

  // X and Y are never written during the passes: read x_j and y_j when the lanes need them.
  always_ff @(posedge clk_i) begin
    rd_q[0] <= raddr_i;
    for (int k = 1; k < 4; k++) rd_q[k] <= rd_q[k-1];
  end
  assign x_raddr_o = rd_q[2];   // x_j one cycle before the lane input (2^L - x is made there)
  assign y_raddr_o = rd_q[3];   // y_j at the lane input

  // m: the low product a_0·f or b_0·f, a new one every cycle (the lane input picks word 0's).
  montu_qunit_lane #(.Word(Word), .Pipelined(1'b1)) u_m (
    .clk_i, .gf2m_i, .load_i(1'b1), .u_i(y_odd_i ? in_a_i : in_b_i), .w_i(factor_i), .t_o(qprod)
  );

  // The lane input's selects, registered a stage ahead from the word about to enter it (#23:
  // m_cur's select, mask and fix were 4 LUT levels from the control registers, in front of
  // the 32 MULT18X18D inputs m fans out to: the worst path of the 79.4 MHz route). m_cur is
  // one LUT from flip-flops: word 0 takes the product under the mask (a fix pass: mask 0 and
  // m0 = 1), the other words the held m_q. The same values as from ctl_in (asserted below).
  wctl_t           ctl_pre_in;
  logic            j0_q, fix_q, sub2_q;
  logic [Word-1:0] mask_q;
  assign ctl_pre_in = ctl_q[InDelay - 2];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      j0_q   <= 1'b1;
      fix_q  <= 1'b0;
      sub2_q <= 1'b0;
      mask_q <= '0;
    end else begin
      j0_q   <= (ctl_pre_in.j == '0);
      fix_q  <= ctl_pre_in.fix;
      sub2_q <= ctl_pre_in.sub2 && !gf2m_i;
      for (int k = 0; k < Word; k++) mask_q[k] <= !ctl_pre_in.fix && (Tw'(k) < ctl_pre_in.t);
    end
  end

  always_comb begin
    nx_sum = {1'b0, ~x_rdata_i} + {{Word{1'b0}}, (ctl_q[1].j == '0) ? 1'b1 : nxc_q};
    // lane input: m at word 0 from the product (fix passes: 1), held for the other words
    m0    = (qprod & mask_q) | Word'(fix_q);
    m_cur = j0_q ? m0 : m_q;
    xl    = sub2_q ? nx_q : x_q[InDelay - 1];
  end

  always_ff @(posedge clk_i) begin
    p_q[0] <= in_a_i;
    q_q[0] <= in_b_i;
    x_q[2] <= x_rdata_i;
    for (int k = 1; k < InDelay; k++) begin
      p_q[k] <= p_q[k-1];
      q_q[k] <= q_q[k-1];
    end
    for (int k = 3; k < InDelay + MacLat; k++) x_q[k] <= x_q[k-1];
    // -x is needed at the lane input: word j of 2^L - x is ready one cycle after x_j
    if (ctl_q[1].valid) begin
      nxc_q <= nx_sum[Word];
    end
    nx_q <= nx_sum[Word-1:0];
    if (ctl_in.valid && j0_q) m_q <= m0;
    // one and two cycles after the last word's lane input (m is in m_q by then, and stays
    // there until the next pass's word 0 enters the lanes)
    if (ctl_q[InDelay].valid && ctl_q[InDelay].last) begin
      e1_pre_q <= {{(Ew - ExtBits - 1){ext_a_i[ExtBits] & !gf2m_i}}, ext_a_i};
      e2_ext_q <= {{(Ew - ExtBits - 1){ext_b_i[ExtBits] & !gf2m_i}}, ext_b_i};
      e2_m_q   <= (ctl_q[InDelay].sub2 && !gf2m_i) ? Ew'(m_q) : Ew'(0);
    end
    if (ctl_q[InDelay + 1].valid && ctl_q[InDelay + 1].last) e2_pre_q <= e2_ext_q - e2_m_q;
  end

  montu_mac_lane #(.Word(Word), .Pipelined(1'b1)) u_lane1 (
    .clk_i, .gf2m_i, .first_i(j0_q),
    .a_i(m_cur), .b_i(y_rdata_i), .c_i(p_q[InDelay - 1]), .u_o(u1), .ca_o(ca1)
  );
  montu_mac_lane #(.Word(Word), .Pipelined(1'b1)) u_lane2 (
    .clk_i, .gf2m_i, .first_i(j0_q),
    .a_i(m_cur), .b_i(xl), .c_i(q_q[InDelay - 1]), .u_o(u2), .ca_o(ca2)
  );

  // L3: word j-1 of a', b' = {u_j, u_{j-1}} >> t; at the last word's carry, e = ext + carry
  // (lane 2 in GF(p) when it subtracts: - m, see above); tail: word W-1 = {e, u_{W-1}} >> t.
  always_comb begin
    r3_lane1 = Word'({u1, lp1_q} >> ctl_l3.t);
    r3_lane2 = Word'({u2, lp2_q} >> ctl_l3.t);
    e1_d = e1_q;
    e2_d = e2_q;
    if (ctl_ca.valid && ctl_ca.last) begin
      e1_d = gf2m_i ? (e1_pre_q ^ Ew'(ca1)) : (e1_pre_q + Ew'(ca1));
      e2_d = gf2m_i ? (e2_pre_q ^ Ew'(ca2)) : (e2_pre_q + Ew'(ca2));
    end
    rt_lane1 = Word'({e1_q[Word-1:0], lp1_q} >> ctl_tail.t);
    rt_lane2 = Word'({e2_q[Word-1:0], lp2_q} >> ctl_tail.t);
    e_sh1    = ExtBits'($signed(e1_q) >>> ctl_tail.t);
    e_sh2    = ExtBits'($signed(e2_q) >>> ctl_tail.t);
  end

  always_ff @(posedge clk_i) begin
    if (ctl_l3.valid) begin
      lp1_q <= u1;
      lp2_q <= u2;
      xw_q  <= x_q[InDelay + MacLat - 1];
    end
    e1_q <= e1_d;
    e2_q <= e2_d;
  end

  // One write port: word j-1 from L3 (j >= 1), or word W-1 and the extensions from the tail.
  // Its controls are registered from the stages before L3 and the tail (a control word moves
  // one stage per clock), so they leave the lanes from flip-flops: montu_inv's write-source
  // selects of the four lane memories are one LUT from them (#23: l3_write's index compare
  // and the tail multiplexers led the pipelined unit's worst path, into the memories' write
  // data). The same values in the same cycles as the combinational form (asserted below).
  typedef struct packed {
    logic          wr, tail, fix, side;
    logic [Aw-1:0] idx;
  } wport_t;
  wctl_t  ctl_pre_l3;
  wport_t wport_q;
  logic   tail_next;
  assign ctl_pre_l3 = ctl_q[InDelay + MacLat - 2];
  assign tail_next  = ctl_ca.valid && ctl_ca.last;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wport_q <= '0;
    end else begin
      wport_q.tail <= tail_next;
      wport_q.wr   <= (ctl_pre_l3.valid && (ctl_pre_l3.j != '0)) || tail_next;
      wport_q.fix  <= tail_next ? ctl_ca.fix  : ctl_pre_l3.fix;
      wport_q.side <= tail_next ? ctl_ca.side : ctl_pre_l3.side;
      wport_q.idx  <= tail_next ? ctl_ca.j    : ctl_pre_l3.jm1;
    end
  end

  assign l3_write   = ctl_l3.valid && (ctl_l3.j != '0);
  assign tail       = wport_q.tail;
  assign wr_o       = wport_q.wr;
  assign wr_idx_o   = wport_q.idx;
  assign wr_last_o  = wport_q.tail;
  assign wr_fix_o   = wport_q.fix;
  assign wr_side_o  = wport_q.side;
  assign wr_a_o     = tail ? rt_lane1 : r3_lane1;
  assign wr_b_o     = tail ? rt_lane2 : r3_lane2;
  assign wr_ext_a_o = e_sh1;
  assign wr_ext_b_o = e_sh2;
  assign wr_x_o     = xw_q;

`ifndef SYNTHESIS
  logic chk_q;   // out of reset
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) chk_q <= 1'b0;
    else         chk_q <= 1'b1;
  end
  logic tail_now;
  assign tail_now = ctl_tail.valid && ctl_tail.last;
  WritePortRegistered: assert property (@(posedge clk_i) disable iff (!chk_q)
      (wport_q.tail == tail_now) && (wport_q.wr == (l3_write || tail_now))
      && (!wport_q.wr || ((wport_q.idx == (tail_now ? ctl_tail.j : ctl_l3.jm1))
                          && (wport_q.fix == (tail_now ? ctl_tail.fix : ctl_l3.fix))
                          && (wport_q.side == (tail_now ? ctl_tail.side : ctl_l3.side)))))
    else $error("montu_inv_lanes_pipe: the registered write port is not L3's or the tail's");
  logic [Word-1:0] mask_now;
  always_comb begin
    for (int k = 0; k < Word; k++) mask_now[k] = !ctl_in.fix && (Tw'(k) < ctl_in.t);
  end
  LaneSelectsRegistered: assert property (@(posedge clk_i) disable iff (!chk_q)
      ctl_in.valid |-> (j0_q == (ctl_in.j == '0)) && (fix_q == ctl_in.fix)
      && (sub2_q == (ctl_in.sub2 && !gf2m_i)) && (mask_q == mask_now))
    else $error("montu_inv_lanes_pipe: the lane input's registered selects are not ctl_in's");
`endif

  logic unused_ctl;
  assign unused_ctl = ^{ctl_ca.jm1, ctl_ca.sub2, ctl_ca.t, ctl_pre_l3.last, ctl_pre_l3.sub2,
                        ctl_pre_l3.t, ctl_in.last, ctl_in.jm1, ctl_in.side, ctl_tail.jm1,
                        ctl_tail.sub2, ctl_tail.j, ctl_tail.fix, ctl_tail.side, ctl_tail.valid,
                        ctl_tail.last, ctl_l3.last, ctl_l3.sub2, ctl_l3.jm1, ctl_l3.fix,
                        ctl_l3.side, l3_write, ctl_in.fix, ctl_in.t, ctl_in.sub2,
                        ctl_pre_in.valid, ctl_pre_in.last, ctl_pre_in.side, ctl_pre_in.jm1};
endmodule
