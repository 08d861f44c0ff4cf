// cilardo2008 Alg. 2 (FIOS) over m words on the pipelined word unit, with the Fig. 9 schedule.
//
// A row j of Alg. 2 is m + 1 issue slots, one per clock: slot i < m feeds A_i, N_i, B_j and
// P_i of row j-1 (P = 0 in row 0) and gives P_{i-1} (slot 0 gives nothing: its low word is 0,
// it generates Q_j's digits, first_word = 1); slot m (the carry, Alg. 2 step 9) gives
// P_{m-1} = C. Row j+1 may feed word i only once row j has written P_i, i.e. 8 clocks (the
// unit's latency) after row j's slot i+1 entered, so a row takes P = max(m + 1, 9) clocks: it
// stalls max(0, 8 - m) clocks only when m < 8. Slot i of row j enters stage 1 in clock
// 1 + j*P + i (clock 0: start_i, the first read), so the m rows take m*max(m+1, 9) clocks
// (= montu.arith.cilardo_fios.pipeline_schedule(m).cycles) and the last row's top word is in
// the output register at clock m*P + min(m, 8) (done_o).
//
// Memories: A, B, N are read through three ports with one clock of latency (address in the
// clock before the slot enters; B_j on every slot of row j). P (the paper's internal P memory,
// Fig. 10) is the scratch memory T for P_0 .. P_{m-2} and a register (top_q, w+3 bits signed)
// for P_{m-1}. A slot reads P_i of the row before:
//   m <= 8: from the output register (the producing slot left the pipeline that clock)
//   m = 9:  from the output register of one clock before
//   m > 9:  from T (written in the producing slot's output clock, read at least a clock later)
// and P_{m-1} from the output register (m <= 8) or top_q.
// The paper keeps N_0 in a register so that a row's first slot needs only two buses; here the
// three read ports make that unnecessary.
module cilardo_fios_core
  import cilardo_pkg::*;
#(
  parameter  int unsigned Word     = 64,
  parameter  int unsigned MaxWords = 64,
  localparam int unsigned Jw       = $clog2(MaxWords + 5),
  localparam int unsigned Ta       = $clog2(MaxWords + 2),
  localparam int unsigned NumDigits = Word / 2
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   start_i,    // clock 0 of a product
  input  logic                   gf2m_i,     // held during the product
  input  logic [Jw-1:0]          m_i,        // words, 1 .. MaxWords; held during the product
  // operand reads (one clock of latency)
  output logic                   re_o,
  output logic [Jw-1:0]          a_idx_o,
  output logic [Jw-1:0]          b_idx_o,
  output logic [Jw-1:0]          n_idx_o,
  input  logic [Word-1:0]        a_i,
  input  logic [Word-1:0]        b_i,
  input  logic [Word-1:0]        n_i,
  // P memory (T): P_0 .. P_{m-2}
  output logic                   t_re_o,
  output logic [Ta-1:0]          t_raddr_o,
  input  logic [Word-1:0]        t_rdata_i,
  output logic                   t_we_o,
  output logic [Ta-1:0]          t_waddr_o,
  output logic [Word-1:0]        t_wdata_o,
  // P words as they leave the unit (every row), N_idx beside them
  output logic                   busy_o,     // the m rows' clocks (issue schedule running)
  output logic                   p_v_o,
  output logic                   p_lastrow_o,
  output logic                   p_top_o,    // P_{m-1}
  output logic [Jw-1:0]          p_idx_o,
  output logic [Word+2:0]        p_o,        // w+3 bits signed (other words: 0 .. 2^w-1)
  output logic [Word-1:0]        p_n_o,
  output logic [Word+2:0]        top_o,      // the last top word P_{m-1}, from done_o on
  output logic                   done_o,     // the last row's P_{m-1} is in p_o
  // trace: a row's digits (its first word leaving the unit)
  output logic                   tr_v_o,
  output digit_t [NumDigits:0]   tr_bd_o,
  output digit_t [NumDigits-1:0] tr_qd_o
);
  // issue counter: row, and slot 0 .. P-1 within the row (slots > m are stall clocks)
  localparam int unsigned MaxP = (MaxWords + 1 > 9) ? MaxWords + 1 : 9;
  localparam int unsigned Sw   = $clog2(MaxP + 1);

  logic          run_q, act, last_clk;
  logic [Jw-1:0] row_q;
  logic [Sw-1:0] slot_q, pm1;
  logic          fsel;

  assign fsel = ~gf2m_i;
  assign act  = start_i | run_q;
  assign pm1  = (Sw'(m_i) + Sw'(1) > Sw'(9)) ? Sw'(m_i) : Sw'(8);   // P - 1
  assign last_clk = act & (slot_q == pm1) & (row_q == m_i - Jw'(1));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q  <= 1'b0;
      row_q  <= '0;
      slot_q <= '0;
    end else if (act) begin
      if (slot_q == pm1) begin
        slot_q <= '0;
        if (last_clk) begin
          run_q <= 1'b0;
          row_q <= '0;
        end else begin
          run_q <= 1'b1;
          row_q <= row_q + Jw'(1);
        end
      end else begin
        run_q  <= 1'b1;
        slot_q <= slot_q + Sw'(1);
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Address clock of a slot: operand and P reads
  // ---------------------------------------------------------------------------------------
  logic issue, word_slot;
  assign issue     = act & (slot_q <= Sw'(m_i));
  assign word_slot = (slot_q < Sw'(m_i));

  assign re_o    = act;
  assign a_idx_o = word_slot ? Jw'(slot_q) : '0;
  assign n_idx_o = word_slot ? Jw'(slot_q) : '0;
  assign b_idx_o = row_q;
  assign t_re_o  = act;
  assign t_raddr_o = word_slot ? Ta'(slot_q) : '0;

  // the slot's control, registered into its entry clock
  typedef struct packed {
    logic          v, carry, first, lastrow, row0, top;
    logic [Jw-1:0] idx;
  } ent_t;
  ent_t ent_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ent_q <= '0;
    end else begin
      ent_q.v       <= issue;
      ent_q.carry   <= (slot_q == Sw'(m_i));
      ent_q.first   <= (slot_q == '0);
      ent_q.lastrow <= (row_q == m_i - Jw'(1));
      ent_q.row0    <= (row_q == '0);
      ent_q.top     <= (slot_q == Sw'(m_i) - Sw'(1));
      ent_q.idx     <= Jw'(slot_q);
    end
  end

  // ---------------------------------------------------------------------------------------
  // Entry clock: operands into stage 1
  // ---------------------------------------------------------------------------------------
  logic            wu_out_v, wu_out_carry, wu_out_lastrow;
  logic [Jw-1:0]   wu_out_idx;
  logic [Word+2:0] wu_out_p, top_q;
  logic [Word-1:0] wu_out_n, out_d1_q;
  logic            bprev_q;
  logic [Word+2:0] p_in;
  logic            fwd0, fwd1;

  assign fwd0 = (m_i <= Jw'(8));   // row period 9: P_i left the unit in this very clock
  assign fwd1 = (m_i == Jw'(9));   // row period 10: one clock before

  always_comb begin
    if (ent_q.row0 || ent_q.carry) begin
      p_in = '0;
    end else if (ent_q.top) begin
      p_in = fwd0 ? wu_out_p : top_q;
    end else if (fwd0) begin
      p_in = {3'b000, wu_out_p[Word-1:0]};
    end else if (fwd1) begin
      p_in = {3'b000, out_d1_q};
    end else begin
      p_in = {3'b000, t_rdata_i};
    end
  end

  // b_{jw-1}: the top bit of B_{j-1}, taken when row j-1's carry slot enters
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bprev_q <= 1'b0;
    end else if (start_i) begin
      bprev_q <= 1'b0;
    end else if (ent_q.v && ent_q.carry) begin
      bprev_q <= b_i[Word-1];
    end
  end

  cilardo_word_unit #(.Word(Word), .Jw(Jw)) u_unit (
    .clk_i, .rst_ni, .fsel_i(fsel),
    .v_i(ent_q.v), .carry_i(ent_q.carry), .first_i(ent_q.first), .lastrow_i(ent_q.lastrow),
    .idx_i(ent_q.idx),
    .a_i(a_i), .n_i(n_i), .b_i(b_i), .bprev_i(bprev_q),
    .p_i(p_in),
    .out_v_o(wu_out_v), .out_carry_o(wu_out_carry), .out_lastrow_o(wu_out_lastrow),
    .out_idx_o(wu_out_idx), .out_p_o(wu_out_p), .out_n_o(wu_out_n),
    .tr_v_o, .tr_bd_o, .tr_qd_o
  );

  // ---------------------------------------------------------------------------------------
  // P memory: T for P_0 .. P_{m-2}, top_q for P_{m-1}, one clock of the output register
  // ---------------------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    out_d1_q <= wu_out_p[Word-1:0];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      top_q <= '0;
    end else if (wu_out_v && wu_out_carry) begin
      top_q <= wu_out_p;
    end
  end

  assign t_we_o    = wu_out_v & ~wu_out_carry;
  assign t_waddr_o = Ta'(wu_out_idx);
  assign t_wdata_o = wu_out_p[Word-1:0];

  assign busy_o      = act;
  assign p_v_o       = wu_out_v;
  assign p_lastrow_o = wu_out_lastrow;
  assign p_top_o     = wu_out_carry;
  assign p_idx_o     = wu_out_idx;
  assign p_o         = wu_out_p;
  assign p_n_o       = wu_out_n;
  assign top_o       = top_q;
  assign done_o      = wu_out_v & wu_out_carry & wu_out_lastrow;

`ifndef SYNTHESIS
  /* verilator lint_off SYNCASYNCNET */
  StartWhenIdle: assert property (@(posedge clk_i) disable iff (!rst_ni)
      start_i |-> !run_q)
    else $error("cilardo_fios_core: start_i while a product is issued");
  WordsInRange: assert property (@(posedge clk_i) disable iff (!rst_ni)
      act |-> (m_i >= Jw'(1) && 32'(m_i) <= MaxWords))
    else $error("cilardo_fios_core: m_i out of 1 .. MaxWords");
  // a forwarded P word is the one the entering slot needs
  ForwardedWord: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (ent_q.v && !ent_q.row0 && !ent_q.carry && fwd0) |->
        (wu_out_v && wu_out_idx == ent_q.idx && wu_out_carry == ent_q.top))
    else $error("cilardo_fios_core: P_%0d was not in the output register", ent_q.idx);
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
