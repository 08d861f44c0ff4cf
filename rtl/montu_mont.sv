// Montgomery multiplication engine (STARTMMI): Z = X * Y * 2^-L mod N, bie2021 Alg. 2.
//
// s = W words of Word bits, B = 2^Word, R = B^s = 2^L. For i = 0 .. s-1 (outer) and
// j = 0 .. s-1 (inner), the two ways of Alg. 2 lines 9-10 run in parallel on two MAC lanes:
//   lane a:  (ca, u_j)     = z_j + x_i * y_j + ca
//   q unit:  t_i           = u_0 * w mod B                (w = -N^-1 mod B; x^Word in GF(2^m))
//   lane b:  (cb, z_{j-1}) = u_j + t_i * n_j + cb         (two beats behind lane a)
//   end:     (v, z_{s-1})  = ca + cb + v
// In GF(2^m) "*" is carry-less and "+" is XOR, so v stays 0 and no subtraction follows.
//
// Pipeline, in beats (a beat is one cycle with Lanes = 2; with Lanes = 1 the single MAC does
// lane a in the first cycle and lane b in the second cycle of a two-cycle beat, and every
// register and memory port of this engine moves once per beat):
//   beat c     issue   read x_i (port a), y_j (port b), z_j of iteration i-1 (scratch T)
//   beat c+1   lane a
//   beat c+2   q unit (j = 0), read n_j (port n)
//   beat c+3   lane b
//   beat c+4   final add (j = s-1)
//   beat c+5   z_j of iteration i leaves: written to T, borrow of Z - N accumulated
// Word (i, j) issues at beat i*P + j with P = max(s, 4): z_j of iteration i reaches lane a of
// iteration i+1 exactly P beats later (forwarded for P = 4, 5; through T for P >= 6), so
// iteration i+1 starts right after iteration i; for s < 4 the gap is filled with bubbles.
//
// Final subtraction without a data-dependent branch: the last iteration accumulates the
// borrow of Z - N; then one pass of s beats rereads Z_j and N_j and writes
//   rd_j = (v or no borrow) ? (Z - N)_j : Z_j        (GF(2^m): rd_j = Z_j).
// Beats from start_i to done_o (inclusive): (s-1)*P + 2s + 6.
module montu_mont #(
  parameter int unsigned Word     = 64,
  parameter int unsigned Lanes    = 2,
  parameter int unsigned MaxWords = 64,
  localparam int unsigned Jw      = $clog2(MaxWords + 5),
  localparam int unsigned Ta      = $clog2(MaxWords + 2)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,     // first cycle of the command (beat 0)
  input  logic            gf2m_i,
  input  logic [Jw-1:0]   s_i,         // W, number of words, 1 .. MaxWords
  input  logic [Word-1:0] w_i,         // Montgomery constant
  // register-file reads: word indices within ra (x), rb (y), the modulus register (n)
  output logic            re_o,
  output logic [Jw-1:0]   x_idx_o,
  output logic [Jw-1:0]   y_idx_o,
  output logic [Jw-1:0]   n_idx_o,
  input  logic [Word-1:0] x_i,
  input  logic [Word-1:0] y_i,
  input  logic [Word-1:0] n_i,
  // scratch memory T
  output logic            t_re_o,
  output logic [Ta-1:0]   t_raddr_o,
  input  logic [Word-1:0] t_rdata_i,
  output logic            t_we_o,
  output logic [Ta-1:0]   t_waddr_o,
  output logic [Word-1:0] t_wdata_o,
  // result words into rd
  output logic            rf_we_o,
  output logic [Jw-1:0]   rf_idx_o,
  output logic [Word-1:0] rf_wdata_o,
  output logic            done_o       // last cycle of the command
);
  typedef struct packed {
    logic          v;      // a word (not a bubble) is in this stage
    logic          first;  // j == 0
    logic          last;   // j == s-1
    logic          i0;     // i == 0
    logic          ilast;  // i == s-1
    logic [Jw-1:0] j;
  } ctl_t;

  localparam int unsigned NumStages = 5;

  logic act, adv;
  logic run_q, iss_q, phase_q;
  logic [Jw-1:0] ii_q, jj_q, pm1;
  ctl_t st0;
  ctl_t st_q [1:NumStages];

  // ---------------------------------------------------------------------------------------
  // Beat control and issue counters
  // ---------------------------------------------------------------------------------------
  assign act = start_i | run_q;
  if (Lanes == 1) begin : g_adv_one
    assign adv = act & phase_q;
  end else begin : g_adv_two
    assign adv = act;
  end

  // P - 1 = max(s, 4) - 1
  assign pm1 = (s_i > Jw'(4)) ? (s_i - Jw'(1)) : Jw'(3);

  logic issuing, last_issue;
  assign issuing    = start_i | iss_q;
  assign st0.v      = issuing & (jj_q < s_i);
  assign st0.first  = (jj_q == '0);
  assign st0.last   = (jj_q == s_i - Jw'(1));
  assign st0.i0     = (ii_q == '0);
  assign st0.ilast  = (ii_q == s_i - Jw'(1));
  assign st0.j      = jj_q;
  assign last_issue = st0.v & st0.last & st0.ilast;

  // ---------------------------------------------------------------------------------------
  // Datapath registers
  // ---------------------------------------------------------------------------------------
  logic [2*Word-1:0] sa_d, sa_q;     // lane a: {ca, u_j}
  logic [2*Word-1:0] sb_d, sb_q;     // lane b: {cb, z_{j-1}}
  logic [Word-1:0]   u1_q;           // u_j delayed to lane b
  logic [Word-1:0]   t_d, t_q;       // t_i
  logic [Word-1:0]   cal_q;          // ca after the last word of an iteration
  logic [Word-1:0]   n1_q, n2_q;     // n_j delayed to the z stage
  logic [Word-1:0]   zlast_q;        // z_{s-1}
  logic              v_q;            // the carry word v of Alg. 2 (0 or 1)
  logic [Word-1:0]   zout, zout_d1_q;
  logic              bor_q;          // borrow of Z - N over the words so far
  logic [Word:0]     zl_sum;
  logic [Word:0]     zdiff;

  // lane a operands
  logic [Word-1:0] zin, ca_in, cb_in;
  assign zin   = st_q[1].i0        ? '0 :
                 (s_i <= Jw'(4))   ? zout :
                 (s_i == Jw'(5))   ? zout_d1_q : t_rdata_i;
  assign ca_in = st_q[1].first ? '0 : sa_q[2*Word-1:Word];
  assign cb_in = st_q[3].first ? '0 : sb_q[2*Word-1:Word];

  if (Lanes == 2) begin : g_two_lanes
    // Lines 9 and 10 of Alg. 2 on two MACs in the same cycle.
    montu_mac #(.Word(Word)) u_mac_a (
      .gf2m_i, .a_i(x_i), .b_i(y_i), .c_i(zin), .d_i(ca_in), .sum_o(sa_d)
    );
    montu_mac #(.Word(Word)) u_mac_b (
      .gf2m_i, .a_i(t_q), .b_i(n_i), .c_i(u1_q), .d_i(cb_in), .sum_o(sb_d)
    );
    logic unused_phase;
    assign unused_phase = phase_q;
  end else begin : g_one_lane
    // One MAC: lane a in the first cycle of a beat (result parked in tmp_q), lane b in the
    // second; both lane registers then advance together at the end of the beat.
    logic [Word-1:0]   ma, mb, mc, md;
    logic [2*Word-1:0] msum, tmp_q;
    assign ma = phase_q ? t_q   : x_i;
    assign mb = phase_q ? n_i   : y_i;
    assign mc = phase_q ? u1_q  : zin;
    assign md = phase_q ? cb_in : ca_in;
    montu_mac #(.Word(Word)) u_mac (
      .gf2m_i, .a_i(ma), .b_i(mb), .c_i(mc), .d_i(md), .sum_o(msum)
    );
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni)                tmp_q <= '0;
      else if (act && !phase_q)   tmp_q <= msum;
    end
    assign sa_d = tmp_q;
    assign sb_d = msum;
  end

  montu_qunit #(.Word(Word)) u_qunit (
    .gf2m_i, .u_i(sa_q[Word-1:0]), .w_i, .t_o(t_d)
  );

  // (v, z_{s-1}) = ca + cb + v
  assign zl_sum = gf2m_i ? {1'b0, cal_q ^ sb_q[2*Word-1:Word]}
                         : ({1'b0, cal_q} + {1'b0, sb_q[2*Word-1:Word]} + {{Word{1'b0}}, v_q});

  // z_j of the current iteration, and the borrow of Z_j - N_j - borrow
  assign zout  = st_q[5].last ? zlast_q : sb_q[Word-1:0];
  assign zdiff = {1'b0, zout} - {1'b0, n2_q} - {{Word{1'b0}}, (st_q[5].first ? 1'b0 : bor_q)};

  // ---------------------------------------------------------------------------------------
  // Final pass: rd_j = sel ? Z_j - N_j : Z_j
  // ---------------------------------------------------------------------------------------
  logic          fp_on_q, fv1_q, ffirst1_q, flast1_q, fb_q, sel;
  logic [Jw-1:0] fj_q, fj1_q;
  logic [Word:0] fdiff;
  logic          fin_start;

  assign fin_start = st_q[5].v & st_q[5].last & st_q[5].ilast;
  assign sel   = ~gf2m_i & (v_q | ~bor_q);
  assign fdiff = {1'b0, t_rdata_i} - {1'b0, n_i} - {{Word{1'b0}}, (ffirst1_q ? 1'b0 : fb_q)};

  // ---------------------------------------------------------------------------------------
  // Sequential logic
  // ---------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q   <= 1'b0;
      iss_q   <= 1'b0;
      phase_q <= 1'b0;
      ii_q    <= '0;
      jj_q    <= '0;
      for (int unsigned k = 1; k <= NumStages; k++) st_q[k] <= '0;
      fp_on_q   <= 1'b0;
      fj_q      <= '0;
      fv1_q     <= 1'b0;
      fj1_q     <= '0;
      ffirst1_q <= 1'b0;
      flast1_q  <= 1'b0;
    end else begin
      phase_q <= act ? ~phase_q : 1'b0;
      if (start_i) begin
        run_q <= 1'b1;
        iss_q <= 1'b1;
      end
      if (adv) begin
        // issue counters: (i, j) with j running over P = max(s, 4) beats
        if (issuing) begin
          if (last_issue) begin
            iss_q <= 1'b0;
            ii_q  <= '0;
            jj_q  <= '0;
          end else if (jj_q == pm1) begin
            ii_q <= ii_q + Jw'(1);
            jj_q <= '0;
          end else begin
            jj_q <= jj_q + Jw'(1);
          end
        end
        st_q[1] <= st0;
        for (int unsigned k = 2; k <= NumStages; k++) st_q[k] <= st_q[k-1];
        // final pass
        if (fin_start) begin
          fp_on_q <= 1'b1;
          fj_q    <= '0;
        end else if (fp_on_q) begin
          if (fj_q == s_i - Jw'(1)) fp_on_q <= 1'b0;
          fj_q <= fj_q + Jw'(1);
        end
        fv1_q     <= fp_on_q;
        fj1_q     <= fj_q;
        ffirst1_q <= (fj_q == '0);
        flast1_q  <= (fj_q == s_i - Jw'(1));
        if (done_o) run_q <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sa_q      <= '0;
      sb_q      <= '0;
      u1_q      <= '0;
      t_q       <= '0;
      cal_q     <= '0;
      n1_q      <= '0;
      n2_q      <= '0;
      zlast_q   <= '0;
      v_q       <= 1'b0;
      zout_d1_q <= '0;
      bor_q     <= 1'b0;
      fb_q      <= 1'b0;
    end else begin
      if (start_i) v_q <= 1'b0;
      if (adv) begin
        sa_q      <= sa_d;
        sb_q      <= sb_d;
        u1_q      <= sa_q[Word-1:0];
        n1_q      <= n_i;
        n2_q      <= n1_q;
        zout_d1_q <= zout;
        if (st_q[2].v && st_q[2].first) t_q   <= t_d;
        if (st_q[2].v && st_q[2].last)  cal_q <= sa_q[2*Word-1:Word];
        if (st_q[4].v && st_q[4].last) begin
          zlast_q <= zl_sum[Word-1:0];
          v_q     <= zl_sum[Word];
        end
        if (st_q[5].v) bor_q <= zdiff[Word];
        if (fv1_q)     fb_q  <= fdiff[Word];
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Memory ports
  // ---------------------------------------------------------------------------------------
  assign re_o      = adv;
  assign x_idx_o   = ii_q;
  assign y_idx_o   = jj_q;
  assign n_idx_o   = fp_on_q ? fj_q : st_q[2].j;
  assign t_re_o    = adv;
  assign t_raddr_o = Ta'(fp_on_q ? fj_q : jj_q);
  assign t_we_o    = adv & st_q[5].v;
  assign t_waddr_o = Ta'(st_q[5].j);
  assign t_wdata_o = zout;

  assign rf_we_o    = adv & fv1_q;
  assign rf_idx_o   = fj1_q;
  assign rf_wdata_o = sel ? fdiff[Word-1:0] : t_rdata_i;
  assign done_o     = adv & fv1_q & flast1_q;
endmodule
