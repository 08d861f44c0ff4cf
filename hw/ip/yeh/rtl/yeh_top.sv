// yeh: the BSR4 radix-4 Montgomery engine of Yeh et al., "An 830mW, 586kbps 1024-bit RSA Chip
// Design" (Fig. 1), behind the Montu command/response shell.
//
// This module is the shell: the decoder (yeh_pkg, generated from src/montu/isa/yeh.yaml), the
// control FSM, the word pointers and the multiplexers in front of the storage. The paper's blocks
// are modules of their own:
//   Modulus Register N, 3N register       yeh_modulus_reg    (SETMOD forms 3N word by word)
//   Plaintext Register M                  yeh_plaintext_reg
//   Constant Register C (SRAM)            yeh_const_reg      (+ the 2-bit/clock shift register)
//   Exponent Register E (SRAM)            yeh_exp_reg        (+ leading one, bit select)
//   Carry/Sum registers X (Fig. 6)        yeh_carry_sum_reg  (+ the word-serial resolution)
//   MSPG, DoCSA, R4MR, the +1 clock       yeh_core           (u_core)
//   H-type exponentiation                 yeh_exp_ctrl
//   operand check (A, B < N)              yeh_range_check
//
// Command/response interface (as montu_top): a command {32-bit instruction, 64-bit data word} is
// accepted at the clock edge where cmd_valid_i && cmd_ready_o; exactly one response {err, flags,
// data, cycles} follows, rsp_valid_o rising N clock edges later (N = the cycle formula of
// yeh.yaml, or ErrorCycles) and holding until rsp_ready_i. Every error changes nothing.
//
// Phases of BSR4 and EXP, in clocks after the accepting edge:
//   0                    decode (StDec); C and E RAMs read word 0
//   1 .. W               operand check, word j = clock - 1 (StCheck); E's leading one (EXP)
//   W + 1                decide (StDecide): E_RANGE -> StErr (response after W + 3); BSR4: the
//                        set-up of the core (C's shift register loads word 0, on the RAM output)
//   (EXP: W + 2)         EXP's set-up clock (StExpSetup): the exponent controller starts from
//                        E's leading one, reads the word of the first exponent bit below it and
//                        sets up the first BSR4 (yeh.yaml gives EXP this one clock more than BSR4)
//   then                 nb BSR4s of L/2 + 1 clocks each, back to back (StCore; BSR4: nb = 1)
//   then W clocks        X resolved word by word (StResolve); one more clock (StDone): response
//
// After reset the engine is in the power-on state of the simulator (montu.engines.yeh): L =
// NBits, every register, flag and pointer 0, no modulus. The flip-flops reset at once; the two
// RAMs (C and E: E is a secret exponent) are cleared one word per clock in StInit, NWords clocks
// during which cmd_ready_o is low.
module yeh_top
  import yeh_pkg::*;
  import yeh_core_pkg::*;
#(
  parameter int unsigned NBits = 1024   // multiple of 64
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
  localparam int unsigned NWords  = NBits / 64;
  localparam int unsigned NDigits = NBits / 2;
  localparam int unsigned Lw      = $clog2(NBits + 1);
  localparam int unsigned Jw      = $clog2(NWords + 1);
  localparam int unsigned Iw      = $clog2(NBits);
  localparam int unsigned Hw      = $clog2(NDigits + 1);
  localparam int unsigned RamAw   = (NWords > 1) ? $clog2(NWords) : 1;
  localparam int unsigned XW      = NBits + 1;

  // ---------------------------------------------------------------------------------------
  // Elaboration-time parameter checks
  // ---------------------------------------------------------------------------------------
  if (NBits < 64 || (NBits % 64) != 0) begin : g_bad_nbits
    $error("yeh_top: NBits must be a multiple of 64 and at least 64");
  end
  // Decode errors are reported from StErr, one cycle after decode: 2 cycles after accept.
  if (ErrorCycles != 2) begin : g_bad_error_cycles
    $error("yeh_top: the RTL reports errors after 2 cycles; the ISA table says otherwise");
  end

  typedef enum logic [3:0] {
    StInit, StIdle, StDec, StErr, StRd, StClear, StSetmod, StCheck, StDecide, StExpSetup,
    StCore, StResolve, StDone, StResp
  } state_e;

  // ---------------------------------------------------------------------------------------
  // Architectural and control state
  // ---------------------------------------------------------------------------------------
  state_e        state_d, state_q;
  logic [31:0]   insn_d, insn_q;
  logic [63:0]   data_d, data_q;
  logic [3:0]    derr_d, derr_q;
  logic [Lw-1:0] len_d, len_q;          // L
  logic [Jw-1:0] words_d, words_q;      // W = ceil(L / 64)
  logic [Jw-1:0] wptr_d, wptr_q, rptr_d, rptr_q;
  logic          mvalid_d, mvalid_q;    // a valid SETMOD since the last SETLEN/WIPE/write of N
  logic [Jw:0]   wj_d, wj_q;            // word counter of the multi-cycle phases
  logic [31:0]   cyc_d, cyc_q;
  logic [63:0]   cycle_count_q;
  logic          rsp_valid_d, rsp_valid_q;
  logic [63:0]   rsp_data_d, rsp_data_q;
  logic [3:0]    rsp_err_d, rsp_err_q, err_d, err_q;
  logic [31:0]   rsp_cycles_d, rsp_cycles_q;

  // instruction fields: [31:24] op [23:19] rd [18:14] ra [13:9] rb [8] f [7:0] imm (unused)
  logic [7:0] op;
  logic [4:0] rd, ra, rb;
  logic       fld;
  assign op  = insn_q[SlotOpMsb:SlotOpLsb];
  assign rd  = insn_q[SlotRdMsb:SlotRdLsb];
  assign ra  = insn_q[SlotRaMsb:SlotRaLsb];
  assign rb  = insn_q[SlotRbMsb:SlotRbLsb];
  assign fld = insn_q[SlotFMsb:SlotFLsb];

  logic [Jw-1:0] wj;   // wj_q as a word index
  assign wj = wj_q[Jw-1:0];

  // ---------------------------------------------------------------------------------------
  // Storage (declared here, instantiated below)
  // ---------------------------------------------------------------------------------------
  logic [NBits-1:0] n_val, m_val, x_val;
  logic [NBits+1:0] n3_val;
  logic [63:0]      n_word, m_word, x_word, c_rdata, e_rdata;
  logic             n_bad, xl, xc_zero;

  // ---------------------------------------------------------------------------------------
  // Decode, errors in precedence order. Which opcodes exist, which need the modulus and which
  // register fields each allows come from yeh_pkg (op_attr, regs_ok).
  // ---------------------------------------------------------------------------------------
  op_attr_t   attr;
  logic [3:0] dec_err;
  logic       bad_len, wr_range, dec_ok;
  logic       is_bsr4, is_exp;
  assign attr    = op_attr(op);
  assign is_bsr4 = (op == OpBsr4);
  assign is_exp  = (op == OpExp);
  assign bad_len = (op == OpSetlen) &&
                   (data_q[0] || (data_q == 64'd0) || (data_q > 64'(NBits)));
  // WR: the data word may have no bits at or above L (only the last word can)
  assign wr_range = (op == OpWr) && (wptr_q == words_q - Jw'(1)) && (len_q[5:0] != 6'd0) &&
                    ((data_q >> len_q[5:0]) != 64'd0);

  always_comb begin
    if (!attr.known)                                dec_err = ErrBadOpcode;
    else if (!regs_ok(op, rd, ra, rb))              dec_err = ErrBadReg;
    else if (bad_len)                               dec_err = ErrBadLength;
    else if (attr.needs_modulus && !mvalid_q)       dec_err = ErrNoModulus;
    else if ((op == OpSetmod) && n_bad)             dec_err = ErrBadModulus;
    else if (wr_range || ((op == OpXtom) && xl))    dec_err = ErrRange;
    else                                            dec_err = ErrOk;
  end
  assign dec_ok = (state_q == StDec) && (dec_err == ErrOk);

  // the operands of BSR4 (EXP: A = C, B = M)
  logic a_from_x, b_is_x, b_is_one;
  assign a_from_x = is_bsr4 && (ra == RegX);
  assign b_is_x   = is_bsr4 && (rb == RegX);
  assign b_is_one = is_bsr4 && (rb == RegOne);

  // ---------------------------------------------------------------------------------------
  // Host-side control of the storage
  // ---------------------------------------------------------------------------------------
  logic             wr_ok, clear_regs;
  logic [Jw-1:0]    ff_idx;     // word of N, M, X read this cycle (RD: rptr; check: wj)
  logic             ram_re;
  logic [RamAw-1:0] ram_raddr;
  logic             ram_clear;
  logic [RamAw-1:0] ram_clear_addr;

  assign wr_ok      = dec_ok && (op == OpWr);
  assign ram_clear  = (dec_ok && ((op == OpSetlen) || (op == OpWipe))) ||
                      ((state_q == StClear) && (wj_q < (Jw+1)'(NWords))) || (state_q == StInit);
  assign ram_clear_addr = ((state_q == StClear) || (state_q == StInit)) ? RamAw'(wj) : '0;
  // SETLEN, WIPE: the flip-flop registers (and the core) clear with the response
  assign clear_regs = (state_q == StClear) && (wj_q == (Jw+1)'(NWords));
  assign ff_idx     = (state_q == StCheck) ? wj : rptr_q;
  // RAM reads: decode reads word rptr (RD) or word 0 (BSR4, EXP); the check reads word wj + 1,
  // and word 0 again after the last word (C's shift register loads it in the decide cycle)
  assign ram_re    = (state_q == StDec) || (state_q == StCheck);
  assign ram_raddr = RamAw'((state_q == StCheck) ? ((wj + Jw'(1) < words_q) ? wj + Jw'(1) : '0)
                                                 : ((op == OpRd) ? rptr_q : '0));

  // ---------------------------------------------------------------------------------------
  // Modulus Register N and the 3N register
  // ---------------------------------------------------------------------------------------
  yeh_modulus_reg #(.NBits(NBits)) u_n (
    .clk_i, .rst_ni,
    .clear_i     (clear_regs),
    .len_i       (len_q),
    .wr_i        (wr_ok && (rd == RegN)),
    .wr_idx_i    (wptr_q),
    .wr_data_i   (data_q),
    .triple_i    ((state_q == StSetmod) && (wj_q < {1'b0, words_q})),
    .triple_idx_i(wj),
    .rd_idx_i    (ff_idx),
    .rd_word_o   (n_word),
    .n_o         (n_val),
    .n3_o        (n3_val),
    .bad_o       (n_bad)
  );

  // ---------------------------------------------------------------------------------------
  // The BSR4 core and EXP's sequencer
  // ---------------------------------------------------------------------------------------
  logic               core_start, core_plus1, core_busy, core_shift_x, core_shift_c;
  logic               core_capture;
  logic [1:0]         core_digit, digit_x, digit_c;
  logic [NBits-1:0]   core_pos;
  logic [XW-1:0]      core_xs, core_xc;
  bsr4_mode_t         core_mode, bsr4_mode, exp_mode;
  logic               range_err, a_lt, b_lt, decide_go;
  logic               exp_start, e_zero, e_bit, e_rd;
  logic [Iw-1:0]      e_lead, e_rd_idx;

  assign decide_go  = (state_q == StDecide) && !range_err;
  assign bsr4_mode  = '{a_from_x: a_from_x, b_square: b_is_x, b_one: b_is_one, reduce: fld,
                        capture_m: 1'b0};
  assign core_start = (decide_go && is_bsr4) || exp_start;   // EXP: from StExpSetup
  assign core_mode  = is_exp ? exp_mode : bsr4_mode;

  yeh_core #(.NBits(NBits)) u_core (
    .clk_i, .rst_ni,
    .clear_i  (clear_regs),
    .start_i  (core_start),
    .mode_i   (core_mode),
    .half_i   (Hw'(len_q >> 1)),
    .digit_x_i(digit_x),
    .digit_c_i(digit_c),
    .m_i      (m_val),
    .n_i      (n_val),
    .n3_i     (n3_val),
    .shift_x_o(core_shift_x),
    .shift_c_o(core_shift_c),
    .capture_o(core_capture),
    .digit_o  (core_digit),
    .pos_o    (core_pos),
    .plus1_o  (core_plus1),
    .xs_o     (core_xs),
    .xc_o     (core_xc),
    .busy_o   (core_busy)
  );

  yeh_exp_ctrl #(.NBits(NBits)) u_exp_ctrl (
    .clk_i, .rst_ni,
    .clear_i   (clear_regs),
    .begin_i   (state_q == StExpSetup),
    .e_zero_i  (e_zero),
    .lead_i    (e_lead),
    .plus1_i   (core_plus1 && is_exp),
    .e_bit_i   (e_bit),
    .start_o   (exp_start),
    .mode_o    (exp_mode),
    .e_rd_o    (e_rd),
    .e_rd_idx_o(e_rd_idx)
  );

  // ---------------------------------------------------------------------------------------
  // Plaintext Register M, Carry/Sum registers X, Constant Register C, Exponent Register E
  // ---------------------------------------------------------------------------------------
  yeh_plaintext_reg #(.NBits(NBits)) u_m (
    .clk_i, .rst_ni,
    .clear_i    (clear_regs),
    .wr_i       (wr_ok && (rd == RegM)),
    .wr_idx_i   (wptr_q),
    .wr_data_i  (data_q),
    .load_i     (dec_ok && (op == OpXtom)),
    .load_data_i(x_val),
    .capture_i  (core_capture),
    .pos_i      (core_pos),
    .digit_i    (core_digit),
    .rd_idx_i   (ff_idx),
    .rd_word_o  (m_word),
    .m_o        (m_val)
  );

  yeh_carry_sum_reg #(.NBits(NBits)) u_x (
    .clk_i, .rst_ni,
    .clear_i      (clear_regs),
    .len_i        (len_q),
    .words_i      (words_q),
    .wr_i         (wr_ok && (rd == RegX)),
    .wr_idx_i     (wptr_q),
    .wr_data_i    (data_q),
    .rd_idx_i     (ff_idx),
    .rd_word_o    (x_word),
    .shift_i      (core_shift_x),
    .digit_o      (digit_x),
    .load_i       (core_plus1),
    .xs_i         (core_xs),
    .xc_i         (core_xc),
    .resolve_i    (state_q == StResolve),
    .resolve_idx_i(wj),
    .x_o          (x_val),
    .xl_o         (xl),
    .xc_zero_o    (xc_zero)
  );

  yeh_const_reg #(.NBits(NBits)) u_c (
    .clk_i, .rst_ni,
    .clear_i(clear_regs),
    .we_i   (ram_clear || (wr_ok && (rd == RegC))),
    .waddr_i(ram_clear ? ram_clear_addr : RamAw'(wptr_q)),
    .wdata_i(ram_clear ? 64'd0 : data_q),
    .re_i   (ram_re),
    .raddr_i(ram_raddr),
    .rdata_o(c_rdata),
    .load_i (core_start && !core_mode.a_from_x),
    .shift_i(core_shift_c),
    .digit_o(digit_c)
  );

  yeh_exp_reg #(.NBits(NBits)) u_e (
    .clk_i, .rst_ni,
    .clear_i     (clear_regs),
    .we_i        (ram_clear || (wr_ok && (rd == RegE))),
    .waddr_i     (ram_clear ? ram_clear_addr : RamAw'(wptr_q)),
    .wdata_i     (ram_clear ? 64'd0 : data_q),
    .re_i        (ram_re),
    .raddr_i     (ram_raddr),
    .rdata_o     (e_rdata),
    .scan_start_i(state_q == StDec),
    .scan_i      ((state_q == StCheck) && is_exp),
    .scan_idx_i  (wj),
    .lead_o      (e_lead),
    .zero_o      (e_zero),
    .bit_rd_i    (e_rd),
    .bit_idx_i   (e_rd_idx),
    .bit_o       (e_bit)
  );

  // ---------------------------------------------------------------------------------------
  // Operand check: A (C or X) and B (M or X; ONE is always < N) against N, word by word
  // ---------------------------------------------------------------------------------------
  yeh_range_check u_range (
    .clk_i, .rst_ni,
    .start_i (state_q == StDec),
    .step_i  (state_q == StCheck),
    .a_word_i(a_from_x ? x_word : c_rdata),
    .b_word_i(b_is_x ? x_word : m_word),
    .n_word_i(n_word),
    .a_lt_o  (a_lt),
    .b_lt_o  (b_lt)
  );
  assign range_err = !a_lt || (a_from_x && xl) || (!b_is_one && (!b_lt || (b_is_x && xl)));

  // ---------------------------------------------------------------------------------------
  // Control FSM
  // ---------------------------------------------------------------------------------------
  logic        fin;
  logic [3:0]  fin_err;
  logic [63:0] fin_data, rd_word;

  function automatic logic [Jw-1:0] ptr_inc(logic [Jw-1:0] p, logic [Jw-1:0] w);
    return (p == w - Jw'(1)) ? '0 : p + Jw'(1);
  endfunction

  always_comb begin
    unique case (ra)
      RegC:    rd_word = c_rdata;
      RegE:    rd_word = e_rdata;
      RegN:    rd_word = n_word;
      RegM:    rd_word = m_word;
      default: rd_word = x_word;
    endcase
  end

  always_comb begin
    state_d      = state_q;
    insn_d       = insn_q;
    data_d       = data_q;
    derr_d       = derr_q;
    len_d        = len_q;
    words_d      = words_q;
    wptr_d       = wptr_q;
    rptr_d       = rptr_q;
    mvalid_d     = mvalid_q;
    wj_d         = wj_q + (Jw+1)'(1);
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
      StInit: begin    // after reset: the RAMs (C, E) are cleared word by word
        cyc_d = '0;
        if (wj_q == (Jw+1)'(NWords - 1)) state_d = StIdle;
      end

      StIdle: begin
        cyc_d = '0;
        if (cmd_valid_i) begin
          insn_d  = cmd_insn_i;
          data_d  = cmd_data_i;
          state_d = StDec;
        end
      end

      StDec: begin
        wj_d = '0;
        if (dec_err != ErrOk) begin
          derr_d  = dec_err;
          state_d = StErr;
        end else begin
          unique case (op)
            OpSetlen, OpWipe: begin   // RAM word 0 is cleared now, the others in StClear
              wj_d    = (Jw+1)'(1);
              state_d = StClear;
            end
            OpWr: begin
              wptr_d = ptr_inc(wptr_q, words_q);
              if (rd == RegN) mvalid_d = 1'b0;
              fin = 1'b1;
            end
            OpRd:         state_d = StRd;
            OpSetmod:     state_d = StSetmod;
            OpBsr4, OpExp: state_d = StCheck;
            default:      fin = 1'b1;   // NOP, XTOM
          endcase
        end
      end

      StErr: begin
        fin     = 1'b1;
        fin_err = derr_q;
      end

      StRd: begin
        fin      = 1'b1;
        fin_data = rd_word;
        rptr_d   = ptr_inc(rptr_q, words_q);
      end

      StClear: begin   // SETLEN, WIPE: RAM word wj; the registers with the response
        if (wj_q == (Jw+1)'(NWords)) begin
          if (op == OpSetlen) begin
            len_d   = Lw'(data_q);
            words_d = Jw'((data_q + 64'd63) >> 6);
          end
          wptr_d   = '0;
          rptr_d   = '0;
          mvalid_d = 1'b0;
          fin      = 1'b1;
        end
      end

      StSetmod: begin  // 3N word wj
        if (wj_q == {1'b0, words_q}) begin
          mvalid_d = 1'b1;
          fin      = 1'b1;
        end
      end

      StCheck: begin   // operand word wj
        if (wj == words_q - Jw'(1)) state_d = StDecide;
      end

      StDecide: begin
        if (range_err) begin
          derr_d  = ErrRange;
          state_d = StErr;
        end else begin
          state_d = is_exp ? StExpSetup : StCore;
        end
      end

      StExpSetup: state_d = StCore;

      StCore: begin
        wj_d = '0;
        if (core_plus1 && !core_start) state_d = StResolve;
      end

      StResolve: begin  // X word wj
        if (wj == words_q - Jw'(1)) state_d = StDone;
      end

      StDone: fin = 1'b1;

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
      state_q       <= StInit;
      insn_q        <= '0;
      data_q        <= '0;
      derr_q        <= ErrOk;
      len_q         <= Lw'(NBits);
      words_q       <= Jw'(NWords);
      wptr_q        <= '0;
      rptr_q        <= '0;
      mvalid_q      <= 1'b0;
      wj_q          <= '0;
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
      derr_q        <= derr_d;
      len_q         <= len_d;
      words_q       <= words_d;
      wptr_q        <= wptr_d;
      rptr_q        <= rptr_d;
      mvalid_q      <= mvalid_d;
      wj_q          <= wj_d;
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
  always_comb begin   // the flag register; it cannot change in StResp
    rsp_flags_o         = '0;
    rsp_flags_o[FlagXl] = xl;
  end
  assign rsp_cycles_o  = rsp_cycles_q;
  assign done_o        = rsp_valid_q;
  assign busy_o        = (state_q != StIdle) && (state_q != StResp);
  assign err_o         = err_q;
  assign cycle_count_o = cycle_count_q;

  logic unused_insn;
  assign unused_insn = ^{insn_q[SlotImmMsb:SlotImmLsb], core_busy};

  // ---------------------------------------------------------------------------------------
  // Assertions (simulation only)
  // ---------------------------------------------------------------------------------------
  yeh_top_assert u_assert (
    .clk_i, .rst_ni,
    .cmd_valid_i (cmd_valid_i),
    .cmd_ready_i (cmd_ready_o),
    .rsp_valid_i (rsp_valid_o),
    .rsp_ready_i (rsp_ready_i),
    .rsp_data_i  (rsp_data_o),
    .rsp_err_i   (rsp_err_o),
    .rsp_flags_i (rsp_flags_o),
    .rsp_cycles_i(rsp_cycles_o),
    .idle_i      (state_q == StIdle),
    .xc_zero_i   (xc_zero),
    .core_busy_i (core_busy)
  );
endmodule
