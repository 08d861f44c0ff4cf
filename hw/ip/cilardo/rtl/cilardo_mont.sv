// The cilardo2008 Montgomery multiplier as the STARTMMI/MMX engine of the Montu unit
// (montu_top with MulCore = 1): the FIOS core (Alg. 2 on the 8-stage dual-field word unit,
// Fig. 9 schedule) and the final correction the paper leaves open.
//
// With W = s_i words, A = ra (port x), B = rb (port y), N = the modulus register (port n):
//   P  = Alg. 2 with radix-4 recoded digits (golden model: montu.arith.cilardo_fios.fios_rows(
//        A, B, N, field, word_bits=64, words=W)[-1].p), signed, -2^(64W+1) <= P < 2^(64W+2)
//   GF(p):    rd = P + N if P < 0, P - N if P >= N, else P   (fios_correct), mod 2^(64W)
//   GF(2^m):  rd = P
// No Montgomery constant is needed: the quotient digits come from Table 2, which reads n_1.
//
// Correction: while the last row's P words leave the unit (LSB first, N_i beside P_i) the
// borrow of P - N is accumulated word by word; when the top word P_{W-1} leaves (clock
// W*max(W+1, 9) + min(W, 8), the core's done) its sign and the final borrow select the
// correction, and one pass of W clocks rereads P_i (T; the top word from the core's register)
// and N_i and writes rd_i = P_i +- N_i (with a carry) or P_i.
// Clocks from start_i (clock 0) to done_o, both counted:
//   W*max(W+1, 9) + min(W, 8) + W + 1
// Memory timing as montu_mont (hw/ip/montu/dv/mont_tb.py): one clock of read latency on the
// register-file ports and T; rd's words are written only in the pass, after every read of
// A, B (the rows) and of N_i (the same pass, one clock earlier), so rd may alias ra, rb or the
// modulus register.
module cilardo_mont #(
  parameter  int unsigned Word     = 64,
  parameter  int unsigned MaxWords = 64,
  localparam int unsigned Jw       = $clog2(MaxWords + 5),
  localparam int unsigned Ta       = $clog2(MaxWords + 2)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,     // first cycle of the command (clock 0)
  input  logic            gf2m_i,
  input  logic [Jw-1:0]   s_i,         // W, number of words, 1 .. MaxWords
  // register-file reads: word indices within ra (x), rb (y), the modulus register (n)
  output logic            re_o,
  output logic [Jw-1:0]   x_idx_o,
  output logic [Jw-1:0]   y_idx_o,
  output logic [Jw-1:0]   n_idx_o,
  input  logic [Word-1:0] x_i,
  input  logic [Word-1:0] y_i,
  input  logic [Word-1:0] n_i,
  // scratch memory T (the paper's P memory)
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
  // ---------------------------------------------------------------------------------------
  // FIOS core
  // ---------------------------------------------------------------------------------------
  logic            c_re, c_t_re, c_busy, c_p_v, c_p_lastrow, c_p_top, c_done, c_tr_v;
  logic [Jw-1:0]   c_a_idx, c_b_idx, c_n_idx, c_p_idx;
  logic [Ta-1:0]   c_t_raddr;
  logic [Word+2:0] c_p, c_top;
  logic [Word-1:0] c_p_n;
  cilardo_pkg::digit_t [Word/2:0]   c_tr_bd;
  cilardo_pkg::digit_t [Word/2-1:0] c_tr_qd;

  cilardo_fios_core #(.Word(Word), .MaxWords(MaxWords)) u_core (
    .clk_i, .rst_ni, .start_i, .gf2m_i, .m_i(s_i),
    .re_o(c_re), .a_idx_o(c_a_idx), .b_idx_o(c_b_idx), .n_idx_o(c_n_idx),
    .a_i(x_i), .b_i(y_i), .n_i,
    .t_re_o(c_t_re), .t_raddr_o(c_t_raddr), .t_rdata_i,
    .t_we_o, .t_waddr_o, .t_wdata_o,
    .busy_o(c_busy), .p_v_o(c_p_v), .p_lastrow_o(c_p_lastrow), .p_top_o(c_p_top),
    .p_idx_o(c_p_idx), .p_o(c_p), .p_n_o(c_p_n), .top_o(c_top), .done_o(c_done),
    .tr_v_o(c_tr_v), .tr_bd_o(c_tr_bd), .tr_qd_o(c_tr_qd)
  );

  logic unused_core;
  assign unused_core = c_busy ^ c_tr_v ^ (^c_tr_bd) ^ (^c_tr_qd) ^ (^c_top[Word+2:Word]);

  // ---------------------------------------------------------------------------------------
  // Borrow of P - N over the last row's words as they leave the unit
  // ---------------------------------------------------------------------------------------
  logic            bor_q, bor_in;
  logic [Word:0]   wdiff;       // P_i - N_i - borrow, i < W-1 (unsigned words)
  logic [Word+3:0] tdiff;       // P_{W-1} - N_{W-1} - borrow (signed top word)
  logic            p_neg, p_ge;

  assign bor_in = (c_p_idx == '0) ? 1'b0 : bor_q;
  assign wdiff  = {1'b0, c_p[Word-1:0]} - {1'b0, c_p_n} - {{Word{1'b0}}, bor_in};
  assign tdiff  = {c_p[Word+2], c_p} - {4'b0000, c_p_n} - {{(Word+3){1'b0}}, bor_in};
  assign p_neg  = c_p[Word+2];          // P < 0: the top word's sign
  assign p_ge   = ~tdiff[Word+3];       // P >= N

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bor_q <= 1'b0;
    end else if (c_p_v && c_p_lastrow && !c_p_top) begin
      bor_q <= wdiff[Word];
    end
  end

  // ---------------------------------------------------------------------------------------
  // Correction pass: read P_i and N_i (clock c), write rd_i (clock c+1)
  // ---------------------------------------------------------------------------------------
  typedef enum logic [1:0] {
    FixNone = 2'b00,   // rd = P
    FixAdd  = 2'b01,   // rd = P + N   (P < 0)
    FixSub  = 2'b10    // rd = P - N   (P >= N)
  } fix_e;

  fix_e          fix_d, fix_q;
  logic          rd_on_q, rd_act, wr_v_q, cy_q, cy_in;
  logic [Jw-1:0] rj_q, wj_q;
  logic [Word-1:0] p_word, operand;
  logic [Word:0]   wsum;

  always_comb begin
    if (gf2m_i)     fix_d = FixNone;
    else if (p_neg) fix_d = FixAdd;
    else if (p_ge)  fix_d = FixSub;
    else            fix_d = FixNone;
  end

  assign rd_act = c_done | rd_on_q;   // reading P_rj, N_rj

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_on_q <= 1'b0;
      rj_q    <= '0;
      wr_v_q  <= 1'b0;
      wj_q    <= '0;
      fix_q   <= FixNone;
      cy_q    <= 1'b0;
    end else begin
      if (c_done) fix_q <= fix_d;
      if (rd_act) begin
        if (rj_q == s_i - Jw'(1)) begin
          rd_on_q <= 1'b0;
          rj_q    <= '0;
        end else begin
          rd_on_q <= 1'b1;
          rj_q    <= rj_q + Jw'(1);
        end
      end
      wr_v_q <= rd_act;
      wj_q   <= rj_q;
      if (wr_v_q) cy_q <= wsum[Word];
    end
  end

  assign p_word  = (wj_q == s_i - Jw'(1)) ? c_top[Word-1:0] : t_rdata_i;
  always_comb begin
    unique case (fix_q)
      FixAdd:  operand = n_i;
      FixSub:  operand = ~n_i;
      default: operand = '0;
    endcase
  end
  assign cy_in = (wj_q == '0) ? (fix_q == FixSub) : cy_q;
  assign wsum  = {1'b0, p_word} + {1'b0, operand} + {{Word{1'b0}}, cy_in};

  // ---------------------------------------------------------------------------------------
  // Ports
  // ---------------------------------------------------------------------------------------
  assign re_o      = c_re | rd_act;
  assign x_idx_o   = c_a_idx;
  assign y_idx_o   = c_b_idx;
  assign n_idx_o   = rd_act ? rj_q : c_n_idx;
  assign t_re_o    = c_t_re | rd_act;
  assign t_raddr_o = rd_act ? Ta'(rj_q) : c_t_raddr;

  assign rf_we_o    = wr_v_q;
  assign rf_idx_o   = wj_q;
  assign rf_wdata_o = wsum[Word-1:0];
  assign done_o     = wr_v_q & (wj_q == s_i - Jw'(1));

  logic unused_diff;
  assign unused_diff = ^wdiff[Word-1:0] ^ (^tdiff[Word+2:0]);

`ifndef SYNTHESIS
  /* verilator lint_off SYNCASYNCNET */
  logic busy_q;   // between start_i and done_o
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      busy_q <= 1'b0;
    else if (start_i) busy_q <= 1'b1;
    else if (done_o)  busy_q <= 1'b0;
  end
  StartWhenIdle: assert property (@(posedge clk_i) disable iff (!rst_ni)
      start_i |-> !busy_q)
    else $error("cilardo_mont: start_i during a multiplication");
  LengthInRange: assert property (@(posedge clk_i) disable iff (!rst_ni)
      start_i |-> (s_i >= Jw'(1) && 32'(s_i) <= MaxWords))
    else $error("cilardo_mont: s_i out of 1 .. MaxWords");
  HeldOperands: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (busy_q && !start_i) |-> ($stable(s_i) && $stable(gf2m_i)))
    else $error("cilardo_mont: s_i or gf2m_i changed during a multiplication");
  WritesOnlyWhenBusy: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (rf_we_o || t_we_o || done_o) |-> (busy_q || start_i))
    else $error("cilardo_mont: a memory write or done_o while idle");
  ResultInPass: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rf_we_o |-> (32'(rf_idx_o) < 32'(s_i)))
    else $error("cilardo_mont: rd word index out of range");
  DonePulse: assert property (@(posedge clk_i) disable iff (!rst_ni)
      done_o |=> !done_o)
    else $error("cilardo_mont: done_o longer than one cycle");
  // the correction brings P into [0, N) (GF(p), N > 1): rd < N is checked by the benches
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
