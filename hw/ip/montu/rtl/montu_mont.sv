// Montgomery multiplication engine (STARTMMI): Z = X * Y * 2^-L mod N, bie2021 Alg. 2.
//
// s = W words of Word bits, B = 2^Word, R = B^s = 2^L. For i = 0 .. s-1 (outer, a "row") and
// j = 0 .. s-1 (inner), the two ways of Alg. 2 lines 9-10 run in parallel on a pair of MAC
// lanes:
//   lane a:  (ca, u_j)     = z_j + x_i * y_j + ca
//   q unit:  t_i           = u_0 * w mod B                (w = -N^-1 mod B; x^Word in GF(2^m))
//   lane b:  (cb, z_{j-1}) = u_j + t_i * n_j + cb         (two beats behind lane a)
//   end:     (v, z_{s-1})  = ca + cb + v                  (v: the carry word of the row before)
// In GF(2^m) "*" is carry-less and "+" is XOR, so v stays 0 and no subtraction follows.
//
// A lane pair is two montu_mac_lane (lane a, lane b) and a montu_qunit_lane, one contract for
// both builds; the engine derives its stages from the contracts' latencies (montu_lane_pkg), so
// the glue around the lanes is written once. With Lanes = 1 one montu_mac does lane a in the first
// cycle and lane b in the second cycle of a two-cycle beat, and every register and memory port of
// this engine moves once per beat. Pipeline of one lane pair, in beats (a beat is one cycle with
// Lanes = 2 and 4):
//   beat c     issue   read x_i (port a), y_j (port b), z_j of row i-1 (scratch T)
//   beat c+1   lane a                                   (StA)
//   beat c+2   q unit (j = 0), read n_j (port n)        (StQ)
//   beat c+3   lane b                                   (StB)
//   beat c+4   final add (j = s-1)                      (StF)
//   beat c+5   z_j of row i leaves                      (StO)
// Pipelined = 1 (Lanes = 2, 4): the lanes are montu_mac_pipe (operands, partial products, rows,
// accumulate: u_j 4 beats after its operands, the carry word 5) and the q unit montu_qunit_pipe
// (t 3 beats after u_0), for a shorter clock period:
//   beat c+1 lane a operands (StA), c+5 u_j of lane a, q unit input (StQ), c+6 carry word of
//   lane a (StCa), c+8 t_i and lane b operands (StB), c+12 u_j of lane b, c+13 final add (StF),
//   c+14 z_j leaves (StO); and the final pass registers its read data (one beat more). Lane a
//   takes z_j (its c) only at c+3, CLate = 2 beats after its operands (montu_mac_pipe's
//   LateC: c enters the accumulate), which shortens the row recurrence by two beats.
//
// Lanes = 1, 2 (one pair): word (i, j) issues at beat i*P + j with P = max(s, MinP), MinP =
// StO - 1 - CLate (4; pipelined 11): z_j of row i reaches lane a's c of row i+1 exactly P beats
// later (forwarded for P = MinP, MinP + 1; through T above, read CLate beats after issue), so
// row i+1 starts right after row i; for s < MinP the gap is filled with bubbles.
//
// Lanes = 4 (two pairs on consecutive rows): rows are taken two at a time, row pair r = 0 ..
// ceil(s/2)-1. Pair 0 runs row 2r - (s mod 2), pair 1 row 2r + 1 - (s mod 2), Lag = StO - StA
// - CLate = 4 beats (pipelined 11) behind pair 0; for odd s, row pair 0 starts with a zero row on
// pair 0 (x = 0, z = 0 gives z = 0 and v = 0, a no-op), so the last row always runs on pair 1.
// Word (r, j) issues at beat r*P + j on pair 0 with P = max(s, MinP), MinP = 2 * Lag (8;
// pipelined 22). Pair 1 takes y_j, n_j from delay lines and z_j straight from pair 0's output
// stage (its lane a sees z_j in the beat pair 0 produces it); pair 1's z_j reaches pair 0's
// next row P - MinP beats after it leaves (forwarded for P = MinP, MinP + 1; through T above);
// x of the two rows is read on port a in the first two beats of the row pair and held. The
// carry word v passes from each pair to the other.
//
// Two products at once (pair_i, Lanes = 1, 2; MMQ queued the second): the rows of the two
// products (contexts c = 0, 1) interleave. Word (i, c, j) issues at beat i*P + c*s + j with
// P = max(2s, MinP): each product sees the schedule above with 2s words a row, so it fills beats
// one product of s < MinP words leaves idle. Each context keeps its own carry word v, lane a's
// row-end carry and the borrow of Z - N; T holds the two rows at c*s + j; x_ctx_o / y_ctx_o say
// whose register the port a / b read is for, rf_ctx_o whose rd a result word goes to. The final
// pass then runs over both products, context 0 first. Lanes = 4 runs one product (pair_i = 0).
//
// Final subtraction without a data-dependent branch: the last row accumulates the borrow of
// Z - N; then one pass of s beats rereads Z_j and N_j and writes
//   rd_j = (v or no borrow) ? (Z - N)_j : Z_j        (GF(2^m): rd_j = Z_j).
// Beats from start_i to done_o (inclusive):
//   Lanes = 1, 2:  (s-1)*max(s, 4) + 2s + 6             (Lanes = 1: two cycles per beat)
//   Lanes = 4:     (ceil(s/2)-1)*max(s, 8) + 2s + 10
//   pipelined, Lanes = 2:  (s-1)*max(s, 11) + 2s + 16
//   pipelined, Lanes = 4:  (ceil(s/2)-1)*max(s, 22) + 2s + 27
// and with pair_i: s replaced by 2s inside max() and in the 2s term (instructions.yaml, paired).
module montu_mont
  import montu_lane_pkg::*;
#(
  parameter int unsigned Word         = 64,
  parameter int unsigned Lanes        = 2,
  parameter int unsigned MaxWords     = 64,
  parameter bit          Pipelined = 1'b0,
  localparam int unsigned Jw          = $clog2(MaxWords + 5),
  // scratch T: one row per product (two with Lanes = 1, 2), plus two words
  localparam int unsigned Ta          = $clog2(((Lanes == 4) ? 1 : 2) * MaxWords + 2)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,     // first cycle of the command (beat 0)
  input  logic            pair_i,      // a second product (context 1) runs with the next start:
                                       // sampled while idle, so held from the cycle before start_i
  input  logic            gf2m_i,
  input  logic [Jw-1:0]   s_i,         // W, number of words, 1 .. MaxWords
  input  logic [Word-1:0] w_i,         // Montgomery constant
  // register-file reads: word indices within ra (x), rb (y), the modulus register (n)
  output logic            re_o,
  output logic [Jw-1:0]   x_idx_o,
  output logic [Jw-1:0]   y_idx_o,
  output logic [Jw-1:0]   n_idx_o,
  output logic            x_ctx_o,     // the product whose operand port a (x) / b (y) reads
  output logic            y_ctx_o,
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
  output logic            rf_ctx_o,    // the product whose rd the word goes to
  output logic [Jw-1:0]   rf_idx_o,
  output logic [Word-1:0] rf_wdata_o,
  output logic            done_o       // last cycle of the command
);
  typedef struct packed {
    logic          v;      // a word (not a bubble) is in this stage
    logic          first;  // j == 0
    logic          last;   // j == s-1
    logic          i0;     // first row (row pair with Lanes = 4)
    logic          ilast;  // last row (row pair with Lanes = 4)
    logic          c;      // the product (context) of the word
    logic [Jw-1:0] j;
  } ctl_t;

  // Stages of one lane pair, in beats after the issue beat of a word (see the header), from the
  // latencies of the lane contracts (montu_lane_pkg: montu_mac_lane, montu_qunit_lane):
  //   StA lane a operands, StQ q unit input (u_j of lane a), StCa lane a's carry word,
  //   StB lane b operands (t_i, n_j, u_j), StF final add (j = s-1, lane b's carry word),
  //   StO z_j leaves.
  localparam int unsigned StA  = 1;
  localparam int unsigned StQ  = StA + mac_lat_u(Pipelined);    // 2; pipelined 5
  localparam int unsigned StCa = StA + mac_lat_ca(Pipelined);   // 2; pipelined 6
  localparam int unsigned StB  = StQ + qunit_lat(Pipelined);    // 3; pipelined 8
  localparam int unsigned StF  = StB + mac_lat_ca(Pipelined);   // 4; pipelined 13
  localparam int unsigned StO  = StF + 1;
  // lane b's u_j (= z_{j-1}) waits ZWait beats: z_j leaves at StO with the next word's u
  localparam int unsigned ZWait = StO - 1 - (StB + mac_lat_u(Pipelined));   // 0; pipelined 1

  localparam int unsigned NumPairs  = (Lanes == 4) ? 2 : 1;      // lane pairs
  // lane a takes z_j (its c) CLate beats after its operands (montu_lane_pkg::mac_c_late): the
  // recurrence z_j of row i -> lane a of row i+1 is CLate beats shorter
  localparam int unsigned CLate     = mac_c_late(Pipelined);     // 0; pipelined 2
  localparam int unsigned Lag       = StO - StA - CLate;         // beats pair p+1 trails pair p
  localparam int unsigned Tail      = Lag * (NumPairs - 1);      // stages of the later pairs
  localparam int unsigned NumStages = StO + Tail;                // stage of the last pair's z
  localparam int unsigned MinP      = (Lanes == 4) ? 2 * Lag : Lag;   // shortest row period
  localparam int unsigned FinStages = Pipelined ? 2 : 1;      // final pass: read to write
  // issue counter jj runs over max(K*s, MinP) beats, K = 1 + pair products (K = 2 only with
  // Lanes = 1, 2)
  localparam int unsigned MaxKs     = ((Lanes == 4) ? 1 : 2) * MaxWords;
  localparam int unsigned Cw        = $clog2(((MinP > MaxKs) ? MinP : MaxKs) + 5);

  if (Pipelined && Lanes == 1) begin : g_bad_pipelined_lanes
    $error("montu_mont: Pipelined needs Lanes = 2 or 4 (one MAC per lane)");
  end

  logic act, adv;
  logic run_q, iss_q, phase_q;
  logic pair_q;                  // two products in this run (pair_i, sampled while idle)
  logic cx_q;                    // the context of the word issued next
  logic [Jw-1:0] ii_q, rows_m1, wj_q;
  logic [Cw-1:0] jj_q, pm1_q, ks_q;
  ctl_t st0;
  ctl_t [NumStages:1] st_q;   // packed: synthesis keeps the flip-flops' names

  // ---------------------------------------------------------------------------------------
  // Beat control and issue counters
  // ---------------------------------------------------------------------------------------
  // adv: the engine's registers move. With Lanes = 1 on the second cycle of a beat while the
  // engine runs. With Lanes = 2, 4 in every cycle, idle ones included: an idle engine issues
  // bubbles (st0.v = 0) and a run leaves no valid word behind, so moving while idle changes
  // nothing, and no clock enable depends on start_i (montu_top's decode: a path through the
  // enables of ~230 control flip-flops and the register file's read enables, which limited the
  // pipelined unit's clock).
  assign act = start_i | run_q;
  if (Lanes == 1) begin : g_adv_one
    assign adv = act & phase_q;
  end else begin : g_adv_every
    assign adv = 1'b1;
    logic unused_phase;
    assign unused_phase = phase_q;
  end

  // K*s and P - 1 = max(K*s, MinP) - 1, registered while idle from s_i and pair_i (both held
  // from the cycle before start_i: montu_top changes them only in earlier commands); ii counts
  // rows (Lanes = 1, 2) or row pairs (Lanes = 4)
  logic [Cw-1:0] ks_d;
  assign ks_d    = (pair_i && Lanes != 4) ? (Cw'(s_i) << 1) : Cw'(s_i);
  assign rows_m1 = (Lanes == 4) ? ((s_i - Jw'(1)) >> 1) : (s_i - Jw'(1));

  logic issuing, last_issue;
  assign issuing    = start_i | iss_q;
  assign st0.v      = issuing & (jj_q < ks_q);
  // (in the bubbles after the K*s words neither flag is set, as in one-product runs)
  assign st0.first  = (wj_q == '0) & (jj_q < ks_q);
  assign st0.last   = (wj_q == s_i - Jw'(1)) & (jj_q < ks_q);
  assign st0.i0     = (ii_q == '0);
  assign st0.ilast  = (ii_q == rows_m1);
  assign st0.c      = cx_q;
  assign st0.j      = wj_q;
  assign last_issue = st0.v & st0.last & st0.ilast & (cx_q == pair_q);

  // ---------------------------------------------------------------------------------------
  // Lane pairs: operands in, z and v out (index = pair)
  // ---------------------------------------------------------------------------------------
  logic [Word-1:0] xop [NumPairs];    // x of the pair's row
  logic [Word-1:0] yop [NumPairs];    // y_j at the pair's lane a
  logic [Word-1:0] nop [NumPairs];    // n_j at the pair's lane b
  logic [Word-1:0] zin [NumPairs];    // z_j of the row before, at the pair's lane a
  logic [1:0]      vin [NumPairs];    // v of the row before, per context
  logic [Word-1:0] zout [NumPairs];   // z_j of the pair's row, in its output stage
  logic [1:0]      vout [NumPairs];   // v after the pair's latest row, per context

  logic [Word-1:0] n_out;             // n_j of the last pair, in its output stage
  logic [Word-1:0] zlast, zout_d1_q;  // the last pair's z_j (written to T), one beat later

  assign zlast = zout[NumPairs-1];

  // The lane pairs' registers move once per beat: every cycle with Lanes = 2, 4 (in the idle
  // cycles too, as the lanes do), on the second cycle of a beat with Lanes = 1.
  logic pair_en;
  assign pair_en = (Lanes == 1) ? adv : 1'b1;

  for (genvar p = 0; p < NumPairs; p++) begin : g_pair
    localparam int unsigned S = Lag * p;   // the pair's stage k is st_q[S + k]

    // Lane a: (ca, u_j) = x_i * y_j + z_j + ca, u_j at StQ, ca at StCa. q unit: t_i = u_0 * w
    // from StB on, for the row. Lane b: (cb, z_{j-1}) = t_i * n_j + u_j + cb, u_j delayed to
    // StB; z_{j-1} at StB + mac_lat_u, cb at StF.
    logic [Word-1:0] ua, caa, ub, cab;   // the lanes' results
    logic [Word-1:0] t_row;              // t_i
    logic [Word-1:0] ub_in;              // u_j at lane b
    logic [Word-1:0] ub_z;               // z_j at StO (j < s-1)
    logic [Word-1:0] cal_q [2];          // ca after the last word of a row, per context
    logic [Word-1:0] zlast_q;            // z_{s-1}
    logic [1:0]      v_q;                // the carry word v of Alg. 2 (0 or 1), per context
    logic [Word:0]   zl_sum;

    if (Lanes == 1) begin : g_one_mac
      // One montu_mac does lane a in the first cycle of a beat (result parked in tmp_q) and
      // lane b in the second; both lane registers then advance together at the end of the beat.
      logic [Word-1:0]   ma, mb, mc, md;
      logic [2*Word-1:0] msum, tmp_q, sa_q, sb_q;
      assign ma = phase_q ? t_row  : xop[p];
      assign mb = phase_q ? nop[p] : yop[p];
      assign mc = phase_q ? ub_in  : zin[p];
      assign md = phase_q ? (st_q[S+StB].first ? '0 : sb_q[2*Word-1:Word])
                          : (st_q[S+StA].first ? '0 : sa_q[2*Word-1:Word]);
      montu_mac #(.Word(Word)) u_mac (
        .gf2m_i, .a_i(ma), .b_i(mb), .c_i(mc), .d_i(md), .sum_o(msum)
      );
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          tmp_q <= '0;
          sa_q  <= '0;
          sb_q  <= '0;
        end else begin
          if (act && !phase_q) tmp_q <= msum;
          if (adv) begin
            sa_q <= tmp_q;
            sb_q <= msum;
          end
        end
      end
      assign ua  = sa_q[Word-1:0];
      assign caa = sa_q[2*Word-1:Word];
      assign ub  = sb_q[Word-1:0];
      assign cab = sb_q[2*Word-1:Word];
    end else begin : g_two_lanes
      // Lines 9 and 10 of Alg. 2 on two lanes at once.
      montu_mac_lane #(.Word(Word), .Pipelined(Pipelined), .LateC(1'b1)) u_lane_a (
        .clk_i, .gf2m_i, .first_i(st_q[S+StA].first),
        .a_i(xop[p]), .b_i(yop[p]), .c_i(zin[p]), .u_o(ua), .ca_o(caa)
      );
      montu_mac_lane #(.Word(Word), .Pipelined(Pipelined)) u_lane_b (
        .clk_i, .gf2m_i, .first_i(st_q[S+StB].first),
        .a_i(t_row), .b_i(nop[p]), .c_i(ub_in), .u_o(ub), .ca_o(cab)
      );
    end

    montu_qunit_lane #(.Word(Word), .Pipelined(Pipelined)) u_qunit (
      .clk_i, .gf2m_i,
      .load_i(pair_en & st_q[S+StQ].v & st_q[S+StQ].first),
      .u_i(ua), .w_i, .t_o(t_row)
    );
    montu_stage_reg #(.T(logic [Word-1:0]), .Stages(StB - StQ), .Reset(1'b0)) u_u_wait (
      .clk_i, .rst_ni, .en_i(pair_en), .d_i(ua), .q_o(ub_in)
    );
    montu_stage_reg #(.T(logic [Word-1:0]), .Stages(ZWait), .Reset(1'b0)) u_z_wait (
      .clk_i, .rst_ni, .en_i(pair_en), .d_i(ub), .q_o(ub_z)
    );

    // (v, z_{s-1}) = ca + cb + v
    logic            fc;                 // the context of the word in the final add
    assign fc     = st_q[S+StF].c;
    assign zl_sum = gf2m_i ? {1'b0, cal_q[fc] ^ cab}
                           : ({1'b0, cal_q[fc]} + {1'b0, cab} + {{Word{1'b0}}, vin[p][fc]});

    always_ff @(posedge clk_i) begin
      if (pair_en && st_q[S+StCa].v && st_q[S+StCa].last) cal_q[st_q[S+StCa].c] <= caa;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        zlast_q <= '0;
        v_q     <= '0;
      end else if (start_i) begin
        v_q <= '0;
      end else if (pair_en && st_q[S+StF].v && st_q[S+StF].last) begin
        zlast_q  <= zl_sum[Word-1:0];
        v_q[fc]  <= zl_sum[Word];
      end
    end

    // z_j of the pair's current row
    assign zout[p] = st_q[S+StO].last ? zlast_q : ub_z;
    assign vout[p] = v_q;

    // Operands: pair 0 reads y_j, n_j and (through T or forwarding) the last pair's z_j;
    // pair p > 0 takes y_j, n_j Lag beats after pair p-1 and z_j from pair p-1.
    if (p == 0) begin : g_head
      assign yop[p] = y_i;
      assign nop[p] = n_i;
      assign vin[p] = vout[NumPairs-1];
      assign zin[p] = st_q[1+CLate].i0        ? '0 :
                      (ks_q <= Cw'(MinP))         ? zlast :
                      (ks_q == Cw'(MinP + 1))     ? zout_d1_q : t_rdata_i;
    end else begin : g_follow
      montu_stage_reg #(.T(logic [Word-1:0]), .Stages(Lag)) u_y_lag (
        .clk_i, .rst_ni, .en_i(adv), .d_i(yop[p-1]), .q_o(yop[p])
      );
      montu_stage_reg #(.T(logic [Word-1:0]), .Stages(Lag)) u_n_lag (
        .clk_i, .rst_ni, .en_i(adv), .d_i(nop[p-1]), .q_o(nop[p])
      );
      assign vin[p] = vout[p-1];
      assign zin[p] = zout[p-1];
    end
  end

  // n_j of the last pair's row, from its lane b to its output stage (the borrow of Z - N)
  montu_stage_reg #(.T(logic [Word-1:0]), .Stages(StO - StB)) u_n_out (
    .clk_i, .rst_ni, .en_i(adv), .d_i(nop[NumPairs-1]), .q_o(n_out)
  );

  // x of each pair's row, and its read address on port a
  if (Lanes == 4) begin : g_x_two_rows
    // Pair 0 runs row row0 = 2r - (s mod 2), pair 1 row row1 = row0 + 1. Port a reads x_row1
    // in the beat after issue beat 0 of the row pair (held in row1_q: for s = 1 the issue has
    // ended by then) and x_row0 in the others; each pair holds its word from its first lane-a
    // beat of the row. Pair 0's row is the zero row for odd s, r = 0.
    logic [Jw-1:0]   row0, row1, row1_q;
    logic            x1_rd, x1_ld_q, zero_row;
    logic [Word-1:0] x0_q, x1n_q, x1_q;

    assign row1     = {ii_q[Jw-2:0], ~s_i[0]};
    assign row0     = (row1 == '0) ? '0 : (row1 - Jw'(1));
    assign x1_rd    = st_q[1].v & st_q[1].first;
    assign x_idx_o  = x1_rd ? row1_q : row0;
    assign zero_row = st_q[1].i0 & s_i[0];
    assign xop[0]   = zero_row ? '0 : (st_q[1].first ? x_i : x0_q);
    assign xop[1]   = st_q[Lag+1].first ? x1n_q : x1_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        row1_q  <= '0;
        x1_ld_q <= 1'b0;
        x0_q    <= '0;
        x1n_q   <= '0;
        x1_q    <= '0;
      end else if (adv) begin
        if (st0.v && st0.first) row1_q <= row1;
        x1_ld_q <= x1_rd;
        if (x1_ld_q)             x1n_q <= x_i;
        if (st_q[1].first)       x0_q  <= x_i;
        if (st_q[Lag+1].first)   x1_q  <= x1n_q;
      end
    end
  end else begin : g_x_one_row
    assign x_idx_o = ii_q;
    assign xop[0]  = x_i;
  end
  assign x_ctx_o = cx_q;
  assign y_ctx_o = cx_q;

  // ---------------------------------------------------------------------------------------
  // Borrow of Z - N over the last pair's words, and the final pass:
  // rd_j = sel ? Z_j - N_j : Z_j
  // ---------------------------------------------------------------------------------------
  logic [1:0]    bor_q;          // borrow of Z - N over the words so far, per context
  logic [Word:0] zdiff;
  assign zdiff = {1'b0, zlast} - {1'b0, n_out}
               - {{Word{1'b0}}, (st_q[NumStages].first ? 1'b0 : bor_q[st_q[NumStages].c])};

  logic          fp_on_q, fv1_q, ffirst1_q, flast1_q, fb_q, sel;
  logic          fc_q, fc1_q;    // the context of the final pass's read, and one beat later
  logic [Jw-1:0] fj_q, fj1_q;
  logic [Word:0] fdiff;
  logic          fin_start;
  // The stage that writes rd: the read data (FinStages = 1) or its registered copy.
  typedef struct packed {
    logic          v, first, last, c;
    logic [Jw-1:0] j;
  } fin_ctl_t;
  typedef struct packed {
    logic [Word-1:0] z, n;
  } fin_word_t;
  fin_ctl_t  fw_ctl;
  fin_word_t fw_word;
  montu_stage_reg #(.T(fin_ctl_t), .Stages(FinStages - 1)) u_fin_ctl_reg (
    .clk_i, .rst_ni, .en_i(adv),
    .d_i('{v: fv1_q, first: ffirst1_q, last: flast1_q, c: fc1_q, j: fj1_q}), .q_o(fw_ctl)
  );
  montu_stage_reg #(.T(fin_word_t), .Stages(FinStages - 1), .Reset(1'b0)) u_fin_word_reg (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i('{z: t_rdata_i, n: n_i}), .q_o(fw_word)
  );

  assign fin_start = st_q[NumStages].v & st_q[NumStages].last & st_q[NumStages].ilast &
                     (st_q[NumStages].c == pair_q);
  assign sel   = ~gf2m_i & (vout[NumPairs-1][fw_ctl.c] | ~bor_q[fw_ctl.c]);
  assign fdiff = {1'b0, fw_word.z} - {1'b0, fw_word.n} - {{Word{1'b0}}, (fw_ctl.first ? 1'b0 : fb_q)};

  // ---------------------------------------------------------------------------------------
  // Sequential logic
  // ---------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q   <= 1'b0;
      iss_q   <= 1'b0;
      phase_q <= 1'b0;
      pair_q  <= 1'b0;
      ks_q    <= Cw'(1);
      pm1_q   <= Cw'(MinP - 1);
      cx_q    <= 1'b0;
      ii_q    <= '0;
      jj_q    <= '0;
      wj_q    <= '0;
      for (int unsigned k = 1; k <= NumStages; k++) st_q[k] <= '0;
      fp_on_q   <= 1'b0;
      fj_q      <= '0;
      fc_q      <= 1'b0;
      fc1_q     <= 1'b0;
      fv1_q     <= 1'b0;
      fj1_q     <= '0;
      ffirst1_q <= 1'b0;
      flast1_q  <= 1'b0;
    end else begin
      phase_q <= act ? ~phase_q : 1'b0;
      // pair_i is registered while the engine is idle: no logic between start_i and the
      // issue counters' period (a path that cost 10 % of fmax when start_i selected pair_i)
      if (!run_q) begin
        pair_q <= pair_i & (Lanes != 4);
        ks_q   <= ks_d;
        pm1_q  <= (ks_d > Cw'(MinP)) ? (ks_d - Cw'(1)) : Cw'(MinP - 1);
      end
      if (start_i) begin
        run_q <= 1'b1;
        iss_q <= 1'b1;
      end
      if (adv) begin
        // issue counters: (i, c, j) with jj running over P = max(K*s, MinP) beats, the
        // context c and its word j over the first K*s of them
        if (issuing) begin
          if (last_issue) begin
            iss_q <= 1'b0;
            ii_q  <= '0;
            jj_q  <= '0;
            wj_q  <= '0;
            cx_q  <= 1'b0;
          end else if (jj_q == pm1_q) begin
            ii_q <= ii_q + Jw'(1);
            jj_q <= '0;
            wj_q <= '0;
            cx_q <= 1'b0;
          end else begin
            jj_q <= jj_q + Cw'(1);
            if (wj_q == s_i - Jw'(1)) begin
              wj_q <= '0;
              cx_q <= 1'b1;      // past the last context the beats are bubbles (jj >= K*s)
            end else begin
              wj_q <= wj_q + Jw'(1);
            end
          end
        end
        st_q[1] <= st0;
        for (int unsigned k = 2; k <= NumStages; k++) st_q[k] <= st_q[k-1];
        // final pass: the s words of each context, context 0 first
        if (fin_start) begin
          fp_on_q <= 1'b1;
          fj_q    <= '0;
          fc_q    <= 1'b0;
        end else if (fp_on_q) begin
          if (fj_q == s_i - Jw'(1)) begin
            if (fc_q == pair_q) fp_on_q <= 1'b0;
            fc_q <= 1'b1;
            fj_q <= '0;
          end else begin
            fj_q <= fj_q + Jw'(1);
          end
        end
        fv1_q     <= fp_on_q;
        fj1_q     <= fj_q;
        fc1_q     <= fc_q;
        ffirst1_q <= (fj_q == '0);
        flast1_q  <= (fj_q == s_i - Jw'(1));
        if (done_o) run_q <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      zout_d1_q <= '0;
      bor_q     <= '0;
      fb_q      <= 1'b0;
    end else if (adv) begin
      zout_d1_q <= zlast;
      if (st_q[NumStages].v) bor_q[st_q[NumStages].c] <= zdiff[Word];
      if (fw_ctl.v)           fb_q  <= fdiff[Word];
    end
  end

  // ---------------------------------------------------------------------------------------
  // Memory ports
  // ---------------------------------------------------------------------------------------
  assign re_o      = adv;
  assign y_idx_o   = wj_q;
  // T address of word j of context c: c*s + j
  assign n_idx_o   = fp_on_q ? fj_q : st_q[StB-1].j;
  assign t_re_o    = adv;
  // rows: z_j of the row before, for the word at lane a's c stage in the next beat
  logic          tr_c;
  logic [Jw-1:0] tr_j;
  if (CLate == 0) begin : g_t_read_issue
    assign tr_c = cx_q;
    assign tr_j = wj_q;
  end else begin : g_t_read_late
    assign tr_c = st_q[CLate].c;
    assign tr_j = st_q[CLate].j;
  end
  assign t_raddr_o = Ta'(fp_on_q ? fj_q : tr_j) + ((fp_on_q ? fc_q : tr_c) ? Ta'(s_i) : '0);
  assign t_we_o    = adv & st_q[NumStages].v;
  assign t_waddr_o = Ta'(st_q[NumStages].j) + (st_q[NumStages].c ? Ta'(s_i) : '0);
  assign t_wdata_o = zlast;

  assign rf_we_o    = adv & fw_ctl.v;
  assign rf_ctx_o   = fw_ctl.c;
  assign rf_idx_o   = fw_ctl.j;
  assign rf_wdata_o = sel ? fdiff[Word-1:0] : fw_word.z;
  assign done_o     = adv & fw_ctl.v & fw_ctl.last & (fw_ctl.c == pair_q);

`ifndef SYNTHESIS
  // The interface's rules (simulation only): s_i and pair_i are held from the cycle before
  // start_i (K*s, the row period and the pair are registered while the engine is idle), and
  // a second product needs a lane pair that interleaves (Lanes = 1, 2).
  // `disable iff (!rst_ni)` samples the asynchronous reset synchronously, by design
  /* verilator lint_off SYNCASYNCNET */
  logic past_q;   // a cycle after reset has been sampled
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) past_q <= 1'b0;
    else         past_q <= 1'b1;
  end
  StartHeldOperands: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (start_i && past_q) |-> ($stable(s_i) && $stable(pair_i)))
    else $error("montu_mont: s_i or pair_i changed in the cycle of start_i");
  NoPairOnFourLanes: assert property (@(posedge clk_i) disable iff (!rst_ni)
      start_i |-> !(pair_i && (Lanes == 4)))
    else $error("montu_mont: pair_i with Lanes = 4");
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
