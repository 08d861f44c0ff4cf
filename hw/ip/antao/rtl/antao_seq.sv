// The antao sequencer: the microcode memory (UcodeDepth x 80 bits, synchronous read: its output
// is stage 0), the PC, the loop stack (LoopDepth = 2 entries {start, end, count, index, again}),
// the loop-count register LCR, the exponent shift register E, the interlock (a scoreboard of the
// instructions issued in the last L - 1 clocks), issue, the watchdog and the run's end.
//
// A run starts with start_i (the shell's decode clock, which presents entry_i to the memory);
// its clock t = 0 is the next one. In every clock t until the run stops, in this order:
//   1. the instruction issued at t - 1 is in stage 1: E_OUT (OUT with the output FIFO full) or
//      E_IN (a use of IN with the input FIFO empty) stops the run (t_stop = t) at its PC;
//   2. a HALT or a bad next PC (E_PC) issued at t - 1 stops it (t_stop = t);
//   3. the watchdog: t >= limit_i stops it with E_LIMIT at the PC in stage 0;
//   4. a reserved encoding (E_UCODE) or a LOOP that needs a stack entry with the stack full
//      (E_STACK) refuses the instruction in stage 0 (t_stop = t);
//   5. otherwise it issues unless an interlock holds it:
//        RAM    it uses (port a: ring = LOAD, or xsel = A, zsel = A/NEGA of a SUM it keeps:
//               accwr or wr = RED; port b: ysel = B, zsel = B/NEGB of a kept SUM) an address
//               one of the last L - 1 issues writes (wr != NONE)
//        ACC    ring = ACC and one of the last S - 1 issues has accwr
//        STOREC ring = STOREC and any of the last L - 1 clocks issued
//        E/LCR  BIT or LOOP with count 0 (from LCR) and the last issue was ELD or LCLD
// done_o rises in clock t_stop + L (the pipeline has drained), with err_o and pc_o.
// "Clock t" is step t of the run: every register here changes only at the end of a step
// (step_i, high one clock in MulShare; always with MulShare = 1) or at start_i; the watchdog
// counts steps. done_o rises in the first clock of step t_stop + L, and the run is over at its
// end (clock N * (t_stop + L) after the run's first, N = MulShare = Share).
// With Share > 1 the stage-0 decode (the effective addresses, the interlocks, the refusals, the
// LOOP's and the branch's targets, the stage-1 errors and the watchdog's compare: dec_t) is
// registered every clock (dec_q), and the step's end takes its decision (issue, the next PC and
// microcode read address, the stack, the stop) from dec_q: everything the decode reads (the
// microcode memory's output, this module's registers, the FIFOs' state, LIMIT) changes only at
// the end of a step or at start_i (the shell takes no command during a run, so the FIFOs' host
// side and LIMIT are still), so dec_q in the step's last clock is the decode of that clock
// (an assertion checks it). So the decode's compares and adds and the decision are in different
// clocks: in the step's last clock the decision reads dec_q, this module's registers and only a
// few fields of the microcode word itself (seq, wr, accwr). The PEs' read addresses (ra_o, rb_o,
// read at the step's end) come from dec_q too.
module antao_seq
  import antao_pkg::*;
  import antao_ucode_pkg::*;
#(
  parameter int unsigned W          = 64,
  parameter int unsigned Depth      = 256,
  parameter int unsigned MulStages  = 2,
  parameter int unsigned UcodeDepth = 1024,
  parameter int unsigned EWords     = 4,
  parameter int unsigned Share      = 1,      // MulShare: clocks per step
  localparam int unsigned AW        = $clog2(Depth),
  localparam int unsigned UAW       = $clog2(UcodeDepth)
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           step_i,        // the run datapath's clock enable
  input  logic           clear_i,       // WIPE: E, LCR <= 0
  // microcode writes (UCW): part 0 = bits 63:0, part 1 = bits 79:64
  input  logic           uc_we_lo_i,
  input  logic           uc_we_hi_i,
  input  logic [UAW-1:0] uc_waddr_i,
  input  logic [63:0]    uc_wdata_i,
  // the run
  input  logic           start_i,
  input  logic [UAW-1:0] entry_i,
  input  logic [63:0]    limit_i,       // the watchdog, in steps
  input  logic [W-1:0]   in_i,          // the input FIFO's head (0 when empty)
  input  logic           in_empty_i,
  input  logic           out_full_i,
  output logic           in_pop_o,      // stage 1: pop the input FIFO
  output logic           running_o,     // a run is issuing or draining
  output logic           done_o,
  output logic [3:0]     err_o,
  output logic [UAW-1:0] pc_o,
  // stage 0: the read addresses of every PE (loop index added)
  output logic [AW-1:0]  ra_o,
  output logic [AW-1:0]  rb_o,
  // stage 1: the instruction issued in the clock before
  output logic           s1_valid_o,
  output uinsn_t         s1_insn_o,
  output logic [AW-1:0]  s1_d_o
);
  localparam int unsigned S         = 1 + MulStages;
  localparam int unsigned L         = S + 3;
  localparam int unsigned LoopDepth = 2;
  localparam int unsigned EBits     = EWords * W;
  localparam int unsigned PcW       = 16;            // PC arithmetic: PC + 16383 < 2^16
  localparam int unsigned CntW      = $clog2(L + 1);

  // ---------------------------------------------------------------------------------------
  // Microcode memory
  // ---------------------------------------------------------------------------------------
  // Two montu_ram_1r1w (block RAM), bits 63:0 and 79:64. UCW writes only while no run is on
  // (the shell takes no command during one) and a run reads only from its start (the RUN's
  // decode clock) on, so no read meets a write of the same clock.
  logic [63:0]          ins_lo_q;
  logic [15:0]          ins_hi_q;
  logic [UAW-1:0]       uc_raddr;
  logic                 uc_re;
  uinsn_t               ins;

  montu_ram_1r1w #(.Width(64), .Depth(UcodeDepth)) u_uc_lo (
    .clk_i, .we_i(uc_we_lo_i), .waddr_i(uc_waddr_i), .wdata_i(uc_wdata_i),
    .re_i(uc_re), .raddr_i(uc_raddr), .rdata_o(ins_lo_q)
  );
  montu_ram_1r1w #(.Width(16), .Depth(UcodeDepth)) u_uc_hi (
    .clk_i, .we_i(uc_we_hi_i), .waddr_i(uc_waddr_i), .wdata_i(uc_wdata_i[15:0]),
    .re_i(uc_re), .raddr_i(uc_raddr), .rdata_o(ins_hi_q)
  );
  assign ins = uinsn_t'({ins_hi_q, ins_lo_q});

  // ---------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    logic [UAW-1:0] start;
    logic [UAW-1:0] last;      // the body's end
    logic [15:0]    count;
    logic [15:0]    index;
    logic           again;     // index + 1 < count: the body runs again after this pass
  } loop_t;

  typedef struct packed {
    logic          valid;      // issued
    logic          wr;         // writes RAM[d]
    logic [AW-1:0] d;
    logic          accwr;
    logic          eld;        // ELD or LCLD
  } hist_t;

  logic              issuing_q, issuing_d;   // the run issues (stage 0 holds an instruction)
  logic              drain_q, drain_d;       // the run has stopped; the pipeline drains
  logic [CntW-1:0]   cnt_q, cnt_d;
  logic [63:0]       t_q, t_d;
  logic              limit_q;                 // t_q >= limit_i, formed with t_q
  logic [UAW-1:0]    pc_q, pc_d;
  logic              halting_q, halting_d;   // a HALT / E_PC issued in the clock before
  logic [3:0]        halt_err_q, halt_err_d;
  logic [3:0]        err_q, err_d;
  logic [UAW-1:0]    stop_pc_q, stop_pc_d;
  loop_t             stack_q [LoopDepth];
  loop_t             stack_d [LoopDepth];
  logic [1:0]        sp_q, sp_d;
  logic [15:0]       lcr_q;
  logic [EBits-1:0]  e_q;
  logic              e_shift;
  hist_t             hist_q [1:L-1];         // hist_q[k]: the issue of clock t - k
  hist_t             hist1;
  logic              s1_valid_q;
  uinsn_t            s1_insn_q;
  logic [AW-1:0]     s1_d_q;
  logic [UAW-1:0]    s1_pc_q;

  // ---------------------------------------------------------------------------------------
  // Stage 0: decode of the instruction in the memory's output
  // ---------------------------------------------------------------------------------------
  loop_t          top;
  logic           top_valid;
  logic [15:0]    index;
  logic [AW-1:0]  a_now, b_now, d_now;
  logic           keeps, reads_a, reads_b, reserved, lcr_count;
  logic [15:0]    lcr_fwd, loop_count;
  logic [13:0]    loop_len;
  logic [PcW-1:0] pc_w, pc_next, loop_end, target;
  logic           loop_bad, stack_refused;

  assign top_valid = (sp_q != 2'd0);
  assign top       = stack_q[sp_q == 2'd2];   // the entry sp - 1 (entry 0 when empty)
  assign index     = top_valid ? top.index : 16'd0;
  // addresses mod Depth
  assign a_now     = AW'(16'(ins.a) + (ins.ai ? index : 16'd0));
  assign b_now     = AW'(16'(ins.b) + (ins.bi ? index : 16'd0));
  assign d_now     = AW'(16'(ins.d) + (ins.di ? index : 16'd0));

  // the RAM words an instruction uses: ring = LOAD, and the operands of a SUM it keeps
  // (accwr or wr = RED; an instruction that keeps no SUM uses no operand)
  assign keeps   = ins.accwr || (ins.wr == WrRed);
  assign reads_a = (ins.ring == RingLoad) ||
                   (keeps && ((ins.xsel == XselA) || (ins.zsel == ZselA) ||
                              (ins.zsel == ZselNega)));
  assign reads_b = keeps && ((ins.ysel == YselB) || (ins.zsel == ZselB) ||
                             (ins.zsel == ZselNegb));

  assign reserved = (ins.wr == 2'd3) || (ins.zsel > ZselNega) || (ins.ring > RingStorec) ||
                    (ins.oacc > OaccRst) || (ins.seq > SeqHalt) ||
                    ((ins.seq == SeqLoop) && (loop_len == 14'd0));

  // LOOP: the body and the count (LCR as the in-order machine sees it: an LCLD in stage 1
  // forwards its word, for the E_STACK decision in the LOOP's first clock)
  assign lcr_count  = (ins.imm[15:8] == 8'd0);
  assign lcr_fwd    = (s1_valid_q && (s1_insn_q.seq == SeqLcld)) ? in_i[15:0] : lcr_q;
  assign loop_count = lcr_count ? lcr_fwd : 16'(ins.imm[15:8]);
  assign pc_w       = PcW'(pc_q);
  assign loop_len   = {ins.lenx, ins.imm[7:0]};
  assign loop_end   = pc_w + PcW'(loop_len);
  // loop_end >= X as loop_len >= X - PC: X - PC comes from registers, beside the memory's read,
  // so no add lies in series with the compare after the microcode word
  logic [PcW:0] room_top, room_mem;
  assign room_top   = {1'b0, PcW'(top.last)} - {1'b0, pc_w};
  assign room_mem   = {1'b0, PcW'(UcodeDepth)} - {1'b0, pc_w};
  assign loop_bad   = (top_valid && (room_top[PcW] || ({3'b0, loop_len} >= room_top))) ||
                      room_mem[PcW] || ({3'b0, loop_len} >= room_mem);
  assign stack_refused = (ins.seq == SeqLoop) && !loop_bad && (loop_count != 16'd0) &&
                         (32'(sp_q) == LoopDepth);
  assign pc_next    = pc_w + PcW'(1);
  assign target     = pc_next + PcW'(ins.imm[11:0]);

  // interlocks. The effective address a + index equals a write address d exactly when a equals
  // d - index (mod Depth): d - index comes from registers, so the memory's a and b fields go
  // straight into the compares, not through the index add first (the routed P-224 build's worst
  // path was microcode word -> that add -> the compares -> issue -> the next read address).
  logic [L-1:1] hit_a, hit_b;
  always_comb begin
    for (int k = 1; k < int'(L); k++) begin
      logic [AW-1:0] d_less_index;
      d_less_index = hist_q[k].d - AW'(index);
      hit_a[k] = ins.ai ? (AW'(ins.a) == d_less_index) : (AW'(ins.a) == hist_q[k].d);
      hit_b[k] = ins.bi ? (AW'(ins.b) == d_less_index) : (AW'(ins.b) == hist_q[k].d);
    end
  end

  logic stall, ram_hazard, acc_hazard, storec_hazard, e_hazard;
  always_comb begin
    ram_hazard    = 1'b0;
    acc_hazard    = 1'b0;
    storec_hazard = 1'b0;
    for (int k = 1; k < int'(L); k++) begin
      if (hist_q[k].wr && ((reads_a && hit_a[k]) || (reads_b && hit_b[k]))) begin
        ram_hazard = 1'b1;
      end
      if (hist_q[k].valid && (ins.ring == RingStorec)) storec_hazard = 1'b1;
      if ((k < int'(S)) && hist_q[k].accwr && (ins.ring == RingAcc)) acc_hazard = 1'b1;
    end
    e_hazard = hist_q[1].eld &&
               ((ins.seq == SeqBit) || ((ins.seq == SeqLoop) && lcr_count));
    stall = ram_hazard || acc_hazard || storec_hazard || e_hazard;
  end

  // ---------------------------------------------------------------------------------------
  // Stage 1: the run errors of the instruction issued in the clock before
  // ---------------------------------------------------------------------------------------
  logic s1_pops, s1_uses_in, s1_err_in, s1_err_out;
  assign s1_pops    = s1_insn_q.pop || (s1_insn_q.ring == RingShin) ||
                      (s1_insn_q.oacc == OaccLdn) || (s1_insn_q.oacc == OaccLdd) ||
                      (s1_insn_q.seq == SeqEld) || (s1_insn_q.seq == SeqLcld);
  assign s1_uses_in = s1_pops || (s1_insn_q.xsel == XselIn) || (s1_insn_q.ysel == YselIn) ||
                      (s1_insn_q.zsel == ZselIn);
  assign s1_err_in  = s1_valid_q && s1_uses_in && in_empty_i;
  assign s1_err_out = s1_valid_q && (s1_insn_q.oacc == OaccOut) && out_full_i;
  assign in_pop_o   = step_i && s1_valid_q && s1_pops && !in_empty_i;

  // ---------------------------------------------------------------------------------------
  // The decode the decision reads: this clock's (Share = 1) or the clock before's (Share > 1)
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    logic [AW-1:0]  a;          // the effective addresses
    logic [AW-1:0]  b;
    logic [AW-1:0]  d;
    logic           err_in;     // stage 1's errors
    logic           err_out;
    logic           limit;      // the watchdog: t >= LIMIT
    logic           reserved;
    logic           refused;    // reserved or E_STACK
    logic           stall;
    logic           taken;      // JMP, or BIT with the polarity of E's top bit
    logic           loop_bad;
    logic [15:0]    loop_count;
    logic [PcW-1:0] loop_end;
    logic [PcW-1:0] loop_next;  // loop_end + 1
    logic [PcW-1:0] target;
  } dec_t;

  dec_t dec_now, dec;

  assign dec_now = '{a: a_now, b: b_now, d: d_now, err_in: s1_err_in, err_out: s1_err_out,
                     limit: limit_q, reserved: reserved,
                     refused: reserved || stack_refused, stall: stall,
                     taken: (ins.seq == SeqJmp) ||
                            ((ins.seq == SeqBit) && (e_q[EBits-1] == ins.imm[12])),
                     loop_bad: loop_bad, loop_count: loop_count, loop_end: loop_end,
                     loop_next: pc_next + PcW'(loop_len),
                     target: target};

  if (Share <= 1) begin : g_dec_now
    assign dec = dec_now;
  end else begin : g_dec_reg
    dec_t dec_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) dec_q <= '0;
      else         dec_q <= dec_now;
    end
    assign dec = dec_q;

`ifndef SYNTHESIS
    // what the decode reads holds for the step: in its last clock the registered decode is the
    // decode of that clock
    /* verilator lint_off SYNCASYNCNET */
    DecodeHoldsForTheStep: assert property (@(posedge clk_i) disable iff (!rst_ni)
        (step_i && running_o) |-> (dec_q == dec_now))
      else $error("antao_seq: the stage-0 decode changed in the step's last clock");
    /* verilator lint_on SYNCASYNCNET */
`endif
  end

  assign ra_o = dec.a;
  assign rb_o = dec.b;

  // ---------------------------------------------------------------------------------------
  // Issue and the next PC
  // ---------------------------------------------------------------------------------------
  logic           issue, stop;
  logic [PcW-1:0] next_pc;
  logic           bad_pc, halt;

  always_comb begin
    issuing_d  = issuing_q;
    drain_d    = drain_q;
    cnt_d      = cnt_q;
    pc_d       = pc_q;
    halting_d  = 1'b0;
    halt_err_d = halt_err_q;
    err_d      = err_q;
    stop_pc_d  = stop_pc_q;
    stack_d    = stack_q;
    sp_d       = sp_q;
    issue      = 1'b0;
    stop       = 1'b0;
    e_shift    = 1'b0;
    next_pc    = pc_next;
    bad_pc     = 1'b0;
    halt       = 1'b0;

    if (issuing_q) begin
      if (dec.err_in || dec.err_out) begin
        stop      = 1'b1;
        err_d     = dec.err_out ? ErrOut : ErrIn;
        stop_pc_d = s1_pc_q;
      end else if (halting_q) begin
        stop      = 1'b1;
        err_d     = halt_err_q;
        stop_pc_d = s1_pc_q;
      end else if (dec.limit) begin
        stop      = 1'b1;
        err_d     = ErrLimit;
        stop_pc_d = pc_q;
      end else if (dec.refused) begin
        stop      = 1'b1;
        err_d     = dec.reserved ? ErrUcode : ErrStack;
        stop_pc_d = pc_q;
      end else if (!dec.stall) begin
        issue = 1'b1;
      end
    end

    if (issue) begin
      unique case (ins.seq)
        SeqHalt: halt = 1'b1;
        SeqLoop: begin
          next_pc = dec.loop_next;
          if (dec.loop_bad) begin
            bad_pc = 1'b1;
          end else if (dec.loop_count == 16'd0) begin
            bad_pc = (next_pc >= PcW'(UcodeDepth));
          end else begin
            next_pc          = pc_next;
            stack_d[sp_q[0]] = '{start: UAW'(pc_next), last: UAW'(dec.loop_end),
                                 count: dec.loop_count, index: 16'd0,
                                 again: (dec.loop_count > 16'd1)};
            sp_d             = sp_q + 2'd1;
          end
        end
        default: begin
          e_shift = (ins.seq == SeqBit);
          if (dec.taken) begin
            next_pc = dec.target;
            bad_pc  = (dec.target >= PcW'(UcodeDepth)) ||
                      (top_valid && (dec.target > PcW'(top.last)));
          end else begin
            if (top_valid && (pc_q == top.last)) begin
              if (top.again) begin
                next_pc                     = PcW'(top.start);
                stack_d[sp_q == 2'd2].index = top.index + 16'd1;
                stack_d[sp_q == 2'd2].again = ({1'b0, top.index} + 17'd2 < {1'b0, top.count});
              end else begin
                sp_d = sp_q - 2'd1;
              end
            end
            bad_pc = (next_pc >= PcW'(UcodeDepth));
          end
        end
      endcase
      pc_d = UAW'(next_pc);
      if (halt || bad_pc) begin   // the run stops in the next clock (after stage-1 checks)
        halting_d  = 1'b1;
        halt_err_d = bad_pc ? ErrPc : ErrOk;
      end
    end

    if (stop) begin
      issuing_d = 1'b0;
      drain_d   = 1'b1;
      cnt_d     = CntW'(1);
    end else if (drain_q) begin
      cnt_d = cnt_q + CntW'(1);
      if (32'(cnt_q) == L) drain_d = 1'b0;
    end

    if (start_i) begin
      issuing_d = 1'b1;
      drain_d   = 1'b0;
      pc_d      = entry_i;
      sp_d      = 2'd0;
      halting_d = 1'b0;
    end
  end

  assign t_d = start_i ? 64'd0 : t_q + 64'd1;

  // the memory reads the next instruction when one issues, and holds its output (the stalled
  // instruction) otherwise: the read enable, not the address, depends on the interlocks
  assign uc_raddr = start_i ? entry_i : UAW'(next_pc);
  assign uc_re    = start_i || (step_i && issue);

  assign hist1 = '{valid: issue, wr: issue && (ins.wr != WrNone), d: dec.d,
                   accwr: issue && ins.accwr,
                   eld: issue && ((ins.seq == SeqEld) || (ins.seq == SeqLcld))};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      issuing_q  <= 1'b0;
      drain_q    <= 1'b0;
      cnt_q      <= '0;
      t_q        <= '0;
      limit_q    <= 1'b0;
      pc_q       <= '0;
      halting_q  <= 1'b0;
      halt_err_q <= ErrOk;
      err_q      <= ErrOk;
      stop_pc_q  <= '0;
      for (int i = 0; i < int'(LoopDepth); i++) stack_q[i] <= '0;
      sp_q       <= '0;
      for (int k = 1; k < int'(L); k++) hist_q[k] <= '0;
      s1_valid_q <= 1'b0;
      s1_insn_q  <= '0;
      s1_d_q     <= '0;
      s1_pc_q    <= '0;
    end else if (start_i || step_i) begin
      issuing_q  <= issuing_d;
      drain_q    <= drain_d;
      cnt_q      <= cnt_d;
      t_q        <= t_d;
      limit_q    <= (t_d >= limit_i);
      pc_q       <= pc_d;
      halting_q  <= halting_d;
      halt_err_q <= halt_err_d;
      err_q      <= err_d;
      stop_pc_q  <= stop_pc_d;
      stack_q    <= stack_d;
      sp_q       <= sp_d;
      hist_q[1]  <= hist1;
      for (int k = 2; k < int'(L); k++) hist_q[k] <= hist_q[k-1];
      s1_valid_q <= issue;
      if (issue) begin
        s1_insn_q <= ins;
        s1_d_q    <= dec.d;
        s1_pc_q   <= pc_q;
      end
    end else if (done_o) begin
      drain_q    <= 1'b0;   // MulShare > 1: the run ends at done, not at the end of its step
    end
  end

  // LCR and E: ELD / LCLD in stage 1 (IN reads 0 when the FIFO is empty), BIT shifts E at issue
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lcr_q <= '0;
      e_q   <= '0;
    end else if (clear_i) begin
      lcr_q <= '0;
      e_q   <= '0;
    end else if (step_i) begin
      if (s1_valid_q && (s1_insn_q.seq == SeqLcld)) lcr_q <= in_i[15:0];
      if (s1_valid_q && (s1_insn_q.seq == SeqEld)) begin
        e_q <= (e_q << W) | EBits'(in_i);
      end else if (e_shift) begin
        e_q <= e_q << 1;
      end
    end
  end

`ifndef SYNTHESIS
  // The watchdog's compare is formed with t's next value: while a run issues it is t >= LIMIT
  // (LIMIT does not change during a run: the shell takes no command then).
  /* verilator lint_off SYNCASYNCNET */
  LimitIsTheCompare: assert property (@(posedge clk_i) disable iff (!rst_ni)
      issuing_q |-> (limit_q == (t_q >= limit_i)))
    else $error("antao_seq: limit_q is not t >= LIMIT");
  /* verilator lint_on SYNCASYNCNET */

  // A live stack entry's `again` is its end-of-body test, index + 1 < count, formed when the
  // entry is pushed or its index moves (a clock or more before the body's end reads it), so the
  // next PC follows a flip-flop instead of a 17-bit compare (#21: the compare led the deepest
  // path of the RSA-512 build).
  /* verilator lint_off SYNCASYNCNET */
  for (genvar i = 0; i < int'(LoopDepth); i++) begin : g_again_check
    LoopAgainIsTheCompare: assert property (@(posedge clk_i) disable iff (!rst_ni)
        (32'(sp_q) > i) |-> (stack_q[i].again == ({1'b0, stack_q[i].index} + 17'd1 <
                                                  {1'b0, stack_q[i].count})))
      else $error("antao_seq: loop stack entry %0d's again bit is not index + 1 < count", i);
  end
  /* verilator lint_on SYNCASYNCNET */
`endif

  assign running_o  = issuing_q || drain_q;
  assign done_o     = drain_q && (32'(cnt_q) == L);
  assign err_o      = err_q;
  assign pc_o       = stop_pc_q;
  assign s1_valid_o = s1_valid_q;
  assign s1_insn_o  = s1_insn_q;
  assign s1_d_o     = s1_d_q;
endmodule
