// antao: the RNS modular-arithmetic engine of Antão & Sousa, "An RNS-based architecture
// targeting hardware accelerators for modular arithmetic" (§4): a ring of P processing elements
// under one vertical microinstruction, behind the Montu command/response shell.
//
// This module is the shell: the decoder (antao_pkg, generated from src/montu/isa/antao.yaml),
// the control FSM, the microcode write pointer, the FIFO gearboxes and the host registers. The
// paper's blocks are modules (microinstruction format: antao_ucode_pkg, from antao_ucode.yaml):
//   the PEs (Fig. 4) and their ring (Fig. 2)     antao_pe, antao_ring
//   the channel reduction mod 2^W - c             antao_chan_reduce
//   the alpha accumulator (base extension)        antao_alpha_acc
//   the output accumulator (CRT, subtractions)    antao_out_acc
//   the input and output FIFOs                    antao_fifo
//   the sequencer (microcode, loops, interlock)   antao_seq
//
// Command/response interface (as montu_top): a command {32-bit instruction, 64-bit data word} is
// accepted at the clock edge where cmd_valid_i && cmd_ready_o; exactly one response {err, flags,
// data, cycles} follows, rsp_valid_o rising N clock edges later (N = the cycle formula of
// antao.yaml, or ErrorCycles = 2 for a command decode rejects, which changes nothing) and
// holding until rsp_ready_i. Phases, in clocks after the accepting edge:
//   NOP, UCADDR, UCW, PUSH, LIMIT, STATUS   decode                                   1
//   POP                                     decode (the FIFO pops); the data          2
//   RUN    decode (the microcode memory reads the entry); run steps t = 0 .. t_stop + L
//          (antao_seq: issue until HALT or a run error, then the pipeline drains)
//          of MulShare clocks each                                       2 + MulShare * run
//   WIPE   decode; RAM address 0 .. Depth-1 of every PE cleared; one more clock       Depth + 2
// A FIFO word is Wp = ceil(W / 64) data words, least significant first (PUSH: the last part's
// bits at and above W must be 0, else E_RANGE).
//
// MulShare = N trades clocks for MULT18X18D: the whole run datapath (sequencer, PEs, ring,
// accumulators, interlocks, watchdog) advances one step every N clocks (step, a registered clock
// enable, high in the last clock of each step of a run, counted from its start), and every product
// that maps to MULT18X18D is formed over the N clocks of its step by about 1/N of the blocks
// (antao_mul_share; the PEs' X * Y adds its last block in the first clock of the next step, into
// the register that is its first pipeline stage, antao_mul). The shell and the FIFOs' host side
// run every clock. N = 1: step is always 1.
module antao_top
  import antao_pkg::*;
  import antao_ucode_pkg::*;
#(
  parameter int unsigned W          = 64,     // channel width
  parameter int unsigned P          = 4,      // processing elements (channels per base)
  parameter int unsigned Depth      = 256,    // RAM words per PE (a power of two, <= 1024)
  parameter int unsigned AlphaBits  = 4,      // leading bits the alpha accumulator adds
  parameter int unsigned MulStages  = 2,      // register stages after the multiplier
  parameter int unsigned MulShare   = 1,      // clocks per step of the run (1..16)
  parameter int unsigned UcodeDepth = 1024,   // microinstructions (a power of two, <= 4096)
  parameter int unsigned EWords     = 4,      // exponent register: EWords * W bits
  parameter int unsigned InDepth    = 4096,   // input FIFO words
  parameter int unsigned OutDepth   = 128     // output FIFO words
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        cmd_valid_i,
  output logic        cmd_ready_o,
  input  logic [31:0] cmd_insn_i,
  input  logic [63:0] cmd_data_i,
  output logic        rsp_valid_o,
  input  logic        rsp_ready_i,
  output logic [63:0] rsp_data_o,
  output logic [3:0]  rsp_err_o,
  output logic [3:0]  rsp_flags_o,
  output logic [31:0] rsp_cycles_o,
  output logic        busy_o,
  output logic        done_o,
  output logic [3:0]  err_o,
  output logic [63:0] cycle_count_o
);
  // ---------------------------------------------------------------------------------------
  // Elaboration-time parameter checks
  // ---------------------------------------------------------------------------------------
  function automatic bit pow2(int unsigned v);
    return (v != 0) && ((v & (v - 1)) == 0);
  endfunction

  if ((W < 24) || (W % 4 != 0)) begin : g_bad_w
    $fatal(1, "antao_top: W must be a multiple of 4 and at least 24");
  end
  if ((P < 2) || (P > 127)) begin : g_bad_p
    $fatal(1, "antao_top: P must be in 2..127");
  end
  if (!pow2(Depth) || (Depth < 2) || (Depth > 1024)) begin : g_bad_depth
    $fatal(1, "antao_top: Depth must be a power of two in 2..1024");
  end
  if ((AlphaBits < 1) || (AlphaBits > W)) begin : g_bad_alpha
    $fatal(1, "antao_top: AlphaBits must be in 1..W");
  end
  if ((MulStages < 1) || (MulStages > 8)) begin : g_bad_mul
    $fatal(1, "antao_top: MulStages must be in 1..8");
  end
  if ((MulShare < 1) || (MulShare > 16)) begin : g_bad_share
    $fatal(1, "antao_top: MulShare must be in 1..16");
  end
  if (!pow2(UcodeDepth) || (UcodeDepth < 2) || (UcodeDepth > 4096)) begin : g_bad_ucode
    $fatal(1, "antao_top: UcodeDepth must be a power of two in 2..4096");
  end
  if (EWords < 1) begin : g_bad_ewords
    $fatal(1, "antao_top: EWords must be at least 1");
  end
  if ((InDepth < 2) || (InDepth > 65535) || (OutDepth < 2) || (OutDepth > 65535)) begin : g_bad_fifo
    $fatal(1, "antao_top: InDepth and OutDepth must be in 2..65535 (STATUS counts in 16 bits)");
  end
  // Decode errors are reported from StErr, one cycle after decode: 2 cycles after accept.
  if (ErrorCycles != 2) begin : g_bad_error_cycles
    $fatal(1, "antao_top: the RTL reports errors after 2 cycles; the ISA table says otherwise");
  end

  localparam int unsigned AW       = $clog2(Depth);
  localparam int unsigned UAW      = $clog2(UcodeDepth);
  localparam int unsigned Wp       = (W + 63) / 64;          // data words per FIFO word
  localparam int unsigned TopBits  = W - 64 * (Wp - 1);      // bits of the last part
  localparam int unsigned PartW    = (Wp > 1) ? $clog2(Wp) : 1;
  localparam int unsigned InCntW   = $clog2(InDepth + 1);
  localparam int unsigned OutCntW  = $clog2(OutDepth + 1);
  localparam int unsigned WipeW    = $clog2(Depth + 1);
  localparam int unsigned UcTopBits = UcodeWidth - UcodePartBits * (UcodeParts - 1);
  localparam logic [63:0]  TopMask  = {64{1'b1}} >> (64 - TopBits);   // the last part's bits

  typedef enum logic [2:0] {
    StIdle, StDec, StErr, StPop, StRun, StWipe, StResp
  } state_e;

  // ---------------------------------------------------------------------------------------
  // Control state
  // ---------------------------------------------------------------------------------------
  state_e           state_d, state_q;
  logic [31:0]      insn_d, insn_q;
  logic [63:0]      data_d, data_q;
  logic             data_big_q;             // data_q >= UcodeDepth (UCADDR's and RUN's E_RANGE)
  logic [3:0]       derr_d, derr_q;
  logic [UAW-1:0]   uptr_d, uptr_q;
  logic             upart_d, upart_q;
  logic [PartW-1:0] ipart_d, ipart_q, opart_d, opart_q;
  logic [Wp*64-1:0] ibuf_d, ibuf_q;         // the input word under assembly
  logic [63:0]      limit_d, limit_q;
  logic [63:0]      pdata_d, pdata_q;       // POP's data
  logic [WipeW-1:0] wcnt_d, wcnt_q;
  logic [31:0]      cyc_d, cyc_q;
  logic [63:0]      cycle_count_q;
  logic             rsp_valid_d, rsp_valid_q;
  logic [63:0]      rsp_data_d, rsp_data_q;
  logic [3:0]       rsp_err_d, rsp_err_q, err_d, err_q;
  logic [31:0]      rsp_cycles_d, rsp_cycles_q;

  logic [7:0] op;
  assign op = insn_q[SlotOpMsb:SlotOpLsb];

  // ---------------------------------------------------------------------------------------
  // FIFOs
  // ---------------------------------------------------------------------------------------
  logic               clear;                 // WIPE: every register and both FIFOs
  logic               in_push, in_pop, in_empty, in_full;
  logic [W-1:0]       in_wdata, in_head, in_word;
  logic [InCntW-1:0]  in_count;
  logic               out_push, out_pop, out_empty, out_full;
  logic [W-1:0]       out_wdata, out_head;
  logic [OutCntW-1:0] out_count;

  antao_fifo #(.Width(W), .Depth(InDepth)) u_in_fifo (
    .clk_i, .rst_ni,
    .clear_i(clear),
    .push_i (in_push),
    .wdata_i(in_wdata),
    .pop_i  (in_pop),
    .head_o (in_head),
    .empty_o(in_empty),
    .full_o (in_full),
    .count_o(in_count)
  );

  antao_fifo #(.Width(W), .Depth(OutDepth)) u_out_fifo (
    .clk_i, .rst_ni,
    .clear_i(clear),
    .push_i (out_push),
    .wdata_i(out_wdata),
    .pop_i  (out_pop),
    .head_o (out_head),
    .empty_o(out_empty),
    .full_o (out_full),
    .count_o(out_count)
  );

  assign in_word = in_empty ? '0 : in_head;   // IN reads 0 when the FIFO is empty (E_IN)

  // ---------------------------------------------------------------------------------------
  // Sequencer, ring, accumulators
  // ---------------------------------------------------------------------------------------
  logic           run_start, uc_we_lo, uc_we_hi, seq_running, seq_done;
  logic [3:0]     seq_err;
  logic [UAW-1:0] seq_pc;
  logic [AW-1:0]  ra, rb, s1_d;
  logic           s1_valid;
  uinsn_t         s1_insn;
  logic [7:0]     alpha, alpha_next;
  logic [2*W-1:0] r_last;
  logic           wipe_we;
  logic [P-1:0]        red_valid;
  logic [P-1:0][W-1:0] res;
  logic [P-1:0][W:0]   res_m;

  // ---------------------------------------------------------------------------------------
  // The step: phase counts the clocks of a step (0 .. MulShare-1, from 0 in the run's first
  // clock), step is high in a step's last clock; both only while a run is active
  // ---------------------------------------------------------------------------------------
  logic       step;
  logic [3:0] phase;

  if (MulShare == 1) begin : g_step_every_clock
    assign step  = 1'b1;
    assign phase = 4'd0;
  end else begin : g_step
    logic [3:0] phase_d, phase_q;
    logic       step_q;

    // phase stays 0 outside a run (no step there: nothing of the run datapath moves)
    assign phase_d = (run_start || !seq_running || (phase_q == 4'(MulShare - 1))) ? 4'd0 :
                     phase_q + 4'd1;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        phase_q <= '0;
        step_q  <= 1'b0;
      end else begin
        phase_q <= phase_d;
        step_q  <= (phase_d == 4'(MulShare - 1));
      end
    end

    assign step  = step_q;
    assign phase = phase_q;
  end

  antao_seq #(
    .W(W), .Depth(Depth), .MulStages(MulStages), .UcodeDepth(UcodeDepth), .EWords(EWords),
    .Share(MulShare)
  ) u_seq (
    .clk_i, .rst_ni,
    .step_i    (step),
    .clear_i   (clear),
    .uc_we_lo_i(uc_we_lo),
    .uc_we_hi_i(uc_we_hi),
    .uc_waddr_i(uptr_q),
    .uc_wdata_i(data_q),
    .start_i   (run_start),
    .entry_i   (UAW'(data_q)),
    .limit_i   (limit_q),
    .in_i      (in_word),
    .in_empty_i(in_empty),
    .out_full_i(out_full),
    .in_pop_o  (in_pop),
    .running_o (seq_running),
    .done_o    (seq_done),
    .err_o     (seq_err),
    .pc_o      (seq_pc),
    .ra_o      (ra),
    .rb_o      (rb),
    .s1_valid_o(s1_valid),
    .s1_insn_o (s1_insn),
    .s1_d_o    (s1_d)
  );

  antao_ring #(.W(W), .P(P), .Depth(Depth), .MulStages(MulStages), .MulShare(MulShare)) u_ring (
    .clk_i, .rst_ni,
    .step_i     (step),
    .phase_i    (phase),
    .clear_i    (clear),
    .wipe_we_i  (wipe_we),
    .wipe_addr_i(AW'(wcnt_q)),
    .ra_i       (ra),
    .rb_i       (rb),
    .s1_valid_i (s1_valid),
    .s1_xsel_i  (s1_insn.xsel),
    .s1_ysel_i  (s1_insn.ysel),
    .s1_zsel_i  (s1_insn.zsel),
    .s1_accin_i (s1_insn.accin),
    .s1_accwr_i (s1_insn.accwr),
    .s1_wr_i    (s1_insn.wr),
    .s1_base_i  (s1_insn.base),
    .s1_ring_i  (s1_insn.ring),
    .s1_d_i     (s1_d),
    .in_i       (in_word),
    .alpha_i    (alpha),
    .r_last_o   (r_last),
    .red_valid_o(red_valid),
    .res_o      (res),
    .m_o        (res_m)
  );

  antao_alpha_acc #(.AlphaBits(AlphaBits)) u_alpha (
    .clk_i, .rst_ni,
    .clear_i(clear),
    .valid_i(s1_valid && step),
    .op_i   (s1_insn.alpha),
    .r_top_i(r_last[W-1 -: AlphaBits]),
    .alpha_o(alpha),
    .alpha_next_o(alpha_next)
  );

  logic          oacc_push;
  antao_out_acc #(.W(W), .P(P), .Share(MulShare)) u_out_acc (
    .clk_i, .rst_ni,
    .clear_i    (clear),
    .valid_i    (s1_valid && step),
    .phase_i    (phase),
    .op_i       (s1_insn.oacc),
    .r_last_i   (r_last),
    .alpha_i    (alpha),
    .alpha_next_i(alpha_next),
    .in_i       (in_word),
    .out_full_i (out_full),
    .push_o     (oacc_push),
    .push_data_o(out_wdata)
  );

  // ---------------------------------------------------------------------------------------
  // Decode, errors in precedence order
  // ---------------------------------------------------------------------------------------
  op_attr_t   attr;
  logic [3:0] dec_err;
  logic       ipart_last, opart_last, push_range, ucw_range;
  logic [Wp*64-1:0] in_assembled, out_padded;

  assign attr       = op_attr(op);
  assign ipart_last = (32'(ipart_q) == Wp - 1);
  assign opart_last = (32'(opart_q) == Wp - 1);
  assign push_range = ipart_last && ((data_q & ~TopMask) != 64'd0);
  assign ucw_range  = upart_q && ((data_q >> UcTopBits) != 64'd0);

  always_comb begin
    if (!attr.known)                                      dec_err = ErrBadOpcode;
    else if ((op == OpUcaddr) && data_big_q)              dec_err = ErrRange;
    else if ((op == OpUcw) && ucw_range)                  dec_err = ErrRange;
    else if ((op == OpPush) && in_full)                   dec_err = ErrFull;
    else if ((op == OpPush) && push_range)                dec_err = ErrRange;
    else if ((op == OpPop) && out_empty)                  dec_err = ErrEmpty;
    else if ((op == OpRun) && data_big_q)                 dec_err = ErrRange;
    else                                                  dec_err = ErrOk;
  end

  // The decode clock's actions, each from its own opcode's errors only (the same as dec_err ==
  // ErrOk for that opcode: every other condition of the chain names another opcode), so that
  // none of the fanouts below (clear: every register of the ring and both FIFOs) waits for the
  // whole priority chain
  logic dec;
  assign dec       = (state_q == StDec);
  assign run_start = dec && (op == OpRun) && !data_big_q;
  assign uc_we_lo  = dec && (op == OpUcw) && !upart_q;
  assign uc_we_hi  = dec && (op == OpUcw) && upart_q && !ucw_range;
  assign clear     = dec && (op == OpWipe);
  assign wipe_we   = (state_q == StWipe) && (32'(wcnt_q) < Depth);

  assign in_assembled = ibuf_q | ((Wp*64)'(data_q) << (64 * 32'(ipart_q)));
  assign in_wdata     = in_assembled[W-1:0];
  assign in_push      = dec && (op == OpPush) && ipart_last && !in_full && !push_range;
  assign out_padded   = (Wp*64)'(out_head);
  assign out_pop      = dec && (op == OpPop) && opart_last && !out_empty;
  assign out_push     = oacc_push;

  // ---------------------------------------------------------------------------------------
  // Control FSM
  // ---------------------------------------------------------------------------------------
  logic        fin;
  logic [3:0]  fin_err;
  logic [63:0] fin_data;

  always_comb begin
    state_d      = state_q;
    insn_d       = insn_q;
    data_d       = data_q;
    derr_d       = derr_q;
    uptr_d       = uptr_q;
    upart_d      = upart_q;
    ipart_d      = ipart_q;
    opart_d      = opart_q;
    ibuf_d       = ibuf_q;
    limit_d      = limit_q;
    pdata_d      = pdata_q;
    wcnt_d       = wcnt_q;
    cyc_d        = cyc_q + 32'd1;
    rsp_valid_d  = rsp_valid_q;
    rsp_data_d   = rsp_data_q;
    rsp_err_d    = rsp_err_q;
    rsp_cycles_d = rsp_cycles_q;
    err_d        = err_q;
    fin          = 1'b0;
    fin_err      = ErrOk;
    fin_data     = '0;

    unique case (state_q)
      StIdle: begin
        cyc_d = '0;
        if (cmd_valid_i) begin
          insn_d  = cmd_insn_i;
          data_d  = cmd_data_i;
          state_d = StDec;
        end
      end

      StDec: begin
        if (dec_err != ErrOk) begin
          derr_d  = dec_err;
          state_d = StErr;
        end else begin
          unique case (op)
            OpUcaddr: begin
              uptr_d  = UAW'(data_q);
              upart_d = 1'b0;
              fin     = 1'b1;
            end
            OpUcw: begin
              upart_d = !upart_q;
              if (upart_q) uptr_d = uptr_q + UAW'(1);
              fin = 1'b1;
            end
            OpPush: begin
              if (ipart_last) begin
                ipart_d = '0;
                ibuf_d  = '0;
              end else begin
                ipart_d = ipart_q + PartW'(1);
                ibuf_d  = in_assembled;
              end
              fin = 1'b1;
            end
            OpPop: begin
              pdata_d = out_padded[64 * 32'(opart_q) +: 64];
              opart_d = opart_last ? '0 : opart_q + PartW'(1);
              state_d = StPop;
            end
            OpLimit: begin
              limit_d = data_q;
              fin     = 1'b1;
            end
            OpStatus: begin
              fin      = 1'b1;
              fin_data = {32'd0, 16'(out_count), 16'(in_count)};
            end
            OpRun:  state_d = StRun;
            OpWipe: begin
              wcnt_d  = '0;
              uptr_d  = '0;
              upart_d = 1'b0;
              ipart_d = '0;
              opart_d = '0;
              ibuf_d  = '0;
              state_d = StWipe;
            end
            default: fin = 1'b1;   // NOP
          endcase
        end
      end

      StErr: begin
        fin     = 1'b1;
        fin_err = derr_q;
      end

      StPop: begin
        fin      = 1'b1;
        fin_data = pdata_q;
      end

      StRun: begin
        if (seq_done) begin
          fin      = 1'b1;
          fin_err  = seq_err;
          fin_data = 64'(seq_pc);
        end
      end

      StWipe: begin   // RAM address wcnt of every PE <= 0 (wcnt < Depth), then one more clock
        wcnt_d = wcnt_q + WipeW'(1);
        if (32'(wcnt_q) == Depth) fin = 1'b1;
      end

      StResp: begin
        cyc_d = cyc_q;
        if (rsp_ready_i) begin
          rsp_valid_d = 1'b0;
          state_d     = StIdle;
        end
      end

      default: state_d = StIdle;
    endcase

    if (fin) begin
      state_d      = StResp;
      rsp_valid_d  = 1'b1;
      rsp_err_d    = fin_err;
      rsp_data_d   = fin_data;
      rsp_cycles_d = cyc_q + 32'd1;
      err_d        = fin_err;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= StIdle;
      insn_q        <= '0;
      data_q        <= '0;
      data_big_q    <= 1'b0;
      derr_q        <= ErrOk;
      uptr_q        <= '0;
      upart_q       <= 1'b0;
      ipart_q       <= '0;
      opart_q       <= '0;
      ibuf_q        <= '0;
      limit_q       <= 64'd1 << 32;
      pdata_q       <= '0;
      wcnt_q        <= '0;
      cyc_q         <= '0;
      cycle_count_q <= '0;
      rsp_valid_q   <= 1'b0;
      rsp_data_q    <= '0;
      rsp_err_q     <= ErrOk;
      rsp_cycles_q  <= '0;
      err_q         <= ErrOk;
    end else begin
      state_q       <= state_d;
      insn_q        <= insn_d;
      data_q        <= data_d;
      data_big_q    <= (data_d >= 64'(UcodeDepth));
      derr_q        <= derr_d;
      uptr_q        <= uptr_d;
      upart_q       <= upart_d;
      ipart_q       <= ipart_d;
      opart_q       <= opart_d;
      ibuf_q        <= ibuf_d;
      limit_q       <= limit_d;
      pdata_q       <= pdata_d;
      wcnt_q        <= wcnt_d;
      cyc_q         <= cyc_d;
      cycle_count_q <= cycle_count_q + 64'd1;
      rsp_valid_q   <= rsp_valid_d;
      rsp_data_q    <= rsp_data_d;
      rsp_err_q     <= rsp_err_d;
      rsp_cycles_q  <= rsp_cycles_d;
      err_q         <= err_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------
  assign cmd_ready_o   = (state_q == StIdle);
  assign rsp_valid_o   = rsp_valid_q;
  assign rsp_data_o    = rsp_data_q;
  assign rsp_err_o     = rsp_err_q;
  assign rsp_flags_o   = '0;        // antao.yaml has no flags
  assign rsp_cycles_o  = rsp_cycles_q;
  assign done_o        = rsp_valid_q;
  assign busy_o        = (state_q != StIdle) && (state_q != StResp);
  assign err_o         = err_q;
  assign cycle_count_o = cycle_count_q;

  logic unused;
  assign unused = ^{insn_q[SlotRdMsb:SlotRdLsb], insn_q[SlotRaMsb:SlotRaLsb],   // only op decodes
                    insn_q[SlotRbMsb:SlotRbLsb], insn_q[SlotFMsb:SlotFLsb],
                    insn_q[SlotImmMsb:SlotImmLsb], attr.needs_modulus,
                    s1_insn.d, s1_insn.a, s1_insn.b,
                    s1_insn.di, s1_insn.ai, s1_insn.bi, s1_insn.pop, s1_insn.seq, s1_insn.imm,
                    s1_insn.lenx, r_last[2*W-1:W]};

  // ---------------------------------------------------------------------------------------
  // Assertions (simulation only)
  // ---------------------------------------------------------------------------------------
  antao_top_assert #(.W(W), .P(P)) u_assert (
    .clk_i, .rst_ni,
    .cmd_valid_i  (cmd_valid_i),
    .cmd_ready_i  (cmd_ready_o),
    .rsp_valid_i  (rsp_valid_o),
    .rsp_ready_i  (rsp_ready_i),
    .rsp_data_i   (rsp_data_o),
    .rsp_err_i    (rsp_err_o),
    .rsp_flags_i  (rsp_flags_o),
    .rsp_cycles_i (rsp_cycles_o),
    .idle_i       (state_q == StIdle),
    .running_i    (state_q == StRun),
    .seq_running_i(seq_running),
    .in_push_i    (in_push),
    .in_full_i    (in_full),
    .in_pop_i     (in_pop),
    .in_empty_i   (in_empty),
    .out_push_i   (out_push),
    .out_full_i   (out_full),
    .out_pop_i    (out_pop),
    .out_empty_i  (out_empty),
    .red_valid_i  (red_valid),
    .res_i        (res),
    .m_i          (res_m)
  );
endmodule
