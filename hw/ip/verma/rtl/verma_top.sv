// verma: the early-word radix-4 common-multiplicand Montgomery engine of Verma, Dutta, Vig, "RSA
// Cryptosystem Based on Early Word Based Montgomery Modular Multiplication" (§4.2, EWBR4CMMM on 3m
// PEs; MPLCMMM, the Montgomery powering ladder), behind the Montu command/response shell.
//
// This module is the shell: the decoder (verma_pkg, generated from src/montu/isa/verma.yaml), the
// control FSM, the word pointers and the host registers. The paper's blocks are modules:
//   PE0 .. PE(m-1), reduction (Fig. 4)      verma_rpe        (two 4:1 MUX, W-bit adder)
//   quotient logic of PE0 (K-map)           verma_quotient
//   AC_j, the early-word ADD & CONCATENATE  verma_early_word
//   XPE_j, YPE_j, accumulation              verma_ape        (4:1 MUX, CSA, W-bit adder)
//   the 3m PEs and their wiring (Fig. 5)    verma_pe_array
//   one EWBR4CMMM pass (load, wavefront)    verma_core, verma_pass_ctrl, verma_digit_reg
//   MPL sequencer and its 2:1 MUX           verma_ladder
//   2n, 3n (precomputed)                    verma_multiples  (SETMOD, one W-bit word per clock)
//   64 <-> W-bit words for WR/RD            verma_gearbox, verma_operand_reg
//   the sizes g, h, t, D, I, m, Wd of k     verma_sizes
// Every adder is a plain `+`: Yosys maps them to the ECP5's CCU2C carry chains (the paper's
// DSP48E 48-bit adders).
//
// Command/response interface (as montu_top): a command {32-bit instruction, 64-bit data word} is
// accepted at the clock edge where cmd_valid_i && cmd_ready_o; exactly one response {err, flags,
// data, cycles} follows, rsp_valid_o rising N clock edges later (N = the cycle formula of
// verma.yaml, or ErrorCycles) and holding until rsp_ready_i. Every error changes nothing.
//
// Phases, in clocks after the accepting edge:
//   CMMM   decode (StDec); the load clock (StLoad); clocks 1 .. I+m of the pass (StRun);
//          f = 1: the fix clock (StFix)                               I + m + 2 + f
//   MPL    decode; (k + 2) passes of StLoad + StRun back to back; StFix   (k+2)(I+m+1) + 2
//   SETMOD decode; words j = 0 .. m-1 of 2n, 3n; one more clock         m + 2
// After reset the engine is in the simulator's power-on state: k = K, every register, pointer
// and PE word 0, no modulus; it takes commands at once (every register is a flip-flop).
module verma_top
  import verma_pkg::*;
  import verma_core_pkg::*;
#(
  parameter int unsigned K = 1024,   // the largest modulus length k (SETLEN: 2 .. K)
  parameter int unsigned W = 48      // PE word width (the paper's DSP48E: 48)
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
  if (K < 2) begin : g_bad_k
    $error("verma_top: K must be at least 2");
  end
  if (W < 4) begin : g_bad_w
    $error("verma_top: W must be at least 4 (the early-word unit reads bits 3..2 of a word)");
  end
  // Decode errors are reported from StErr, one cycle after decode: 2 cycles after accept.
  if (ErrorCycles != 2) begin : g_bad_error_cycles
    $error("verma_top: the RTL reports errors after 2 cycles; the ISA table says otherwise");
  end

  localparam int unsigned KC     = (K < 2) ? 2 : K;       // sizes stay defined for a bad K
  localparam int unsigned WC     = (W < 4) ? 4 : W;
  localparam int unsigned M      = pe_words(KC, WC);      // PEs of each kind: m(K)
  localparam int unsigned MW     = M * WC;
  localparam int unsigned Digits = digits(KC);            // D(K)
  localparam int unsigned PRW    = 2 * Digits;            // width of P and R
  localparam int unsigned WdMax  = data_words(KC);
  localparam int unsigned KW     = $clog2(KC + 1);
  localparam int unsigned IdxW   = $clog2(KC);
  localparam int unsigned DW     = $clog2(2 * Digits + 1);
  localparam int unsigned CntW   = $clog2(iterations(KC) + M + 2);
  localparam int unsigned PtrW   = $clog2(WdMax + 1);
  localparam int unsigned JW     = $clog2(M + 1);
  localparam int unsigned LimW   = (DW > KW) ? DW : KW;

  typedef enum logic [3:0] {
    StIdle, StDec, StErr, StRd, StClear, StSetmod, StLoad, StRun, StFix, StResp
  } state_e;

  // ---------------------------------------------------------------------------------------
  // Control state
  // ---------------------------------------------------------------------------------------
  state_e          state_d, state_q;
  logic [31:0]     insn_d, insn_q;
  logic [63:0]     data_d, data_q;
  logic [3:0]      derr_d, derr_q;
  logic [PtrW-1:0] wptr_d, wptr_q, rptr_d, rptr_q;
  logic            mvalid_d, mvalid_q;    // a valid SETMOD since the last SETLEN/WIPE/write of N
  logic [JW-1:0]   wj_d, wj_q;            // SETMOD's word counter
  logic [31:0]     cyc_d, cyc_q;
  logic [63:0]     cycle_count_q;
  logic            rsp_valid_d, rsp_valid_q;
  logic [63:0]     rsp_data_d, rsp_data_q;
  logic [3:0]      rsp_err_d, rsp_err_q, err_d, err_q;
  logic [31:0]     rsp_cycles_d, rsp_cycles_q;

  // instruction fields: [31:24] op [23:19] rd [18:14] ra [13:9] rb [8] f [7:0] imm (unused)
  logic [7:0] op;
  logic [4:0] rd, ra, rb;
  logic       fld;
  assign op  = insn_q[SlotOpMsb:SlotOpLsb];
  assign rd  = insn_q[SlotRdMsb:SlotRdLsb];
  assign ra  = insn_q[SlotRaMsb:SlotRaLsb];
  assign rb  = insn_q[SlotRbMsb:SlotRbLsb];
  assign fld = insn_q[SlotFMsb:SlotFLsb];

  // ---------------------------------------------------------------------------------------
  // The sizes of k (SETLEN)
  // ---------------------------------------------------------------------------------------
  logic [KW-1:0]   k;
  logic [DW-1:0]   twod;
  logic [CntW-1:0] iters, pre, m;
  logic [PtrW-1:0] wd;
  logic [M-1:0]    en;
  logic            set_len;

  verma_sizes #(.K(KC), .W(WC)) u_sizes (
    .clk_i, .rst_ni,
    .set_i  (set_len),
    .k_i    (KW'(data_q)),
    .k_o    (k),
    .twod_o (twod),
    .iters_o(iters),
    .pre_o  (pre),
    .m_o    (m),
    .wd_o   (wd),
    .en_o   (en)
  );

  // ---------------------------------------------------------------------------------------
  // Decode, errors in precedence order. Which opcodes exist, which need the modulus and which
  // register fields each allows come from verma_pkg (op_attr, regs_ok).
  // ---------------------------------------------------------------------------------------
  // The command is decoded in its accepting clock, from the incoming word and data and from state
  // that stays put while the engine is idle (mvalid, N's check bits, the gearbox's masks of wptr),
  // and the error is registered with insn_q: the decode clock reads a register, so no compare of
  // the data word (SETLEN's 64-bit bounds, WR's E_RANGE) lies in front of the enables that
  // follow dec_ok (#20: the host registers' write enables were the deepest paths of the K = 256
  // build). Asserted below to equal the decode of insn_q and data_q in the decode clock.
  logic [3:0] dec_err_q;
  logic       n_bad, wr_range, dec_ok, accept;
  logic       is_mpl;
  logic [7:0] in_op;
  logic [4:0] in_rd, in_ra, in_rb;
  assign accept = (state_q == StIdle) && cmd_valid_i;
  assign in_op  = cmd_insn_i[SlotOpMsb:SlotOpLsb];
  assign in_rd  = cmd_insn_i[SlotRdMsb:SlotRdLsb];
  assign in_ra  = cmd_insn_i[SlotRaMsb:SlotRaLsb];
  assign in_rb  = cmd_insn_i[SlotRbMsb:SlotRbLsb];
  assign is_mpl = (op == OpMpl);

  // errors in precedence order (wr_range: the word's bits above the register's width)
  function automatic logic [3:0] decode(logic [7:0] op_i, logic [4:0] rd_i, logic [4:0] ra_i,
                                        logic [4:0] rb_i, logic [63:0] data_i, logic mvalid_i,
                                        logic n_bad_i, logic wr_range_i);
    op_attr_t a;
    a = op_attr(op_i);
    if (!a.known)                                                   return ErrBadOpcode;
    if (!regs_ok(op_i, rd_i, ra_i, rb_i))                           return ErrBadReg;
    if ((op_i == OpSetlen) && ((data_i < 64'd2) || (data_i > 64'(KC)))) return ErrBadLength;
    if (a.needs_modulus && !mvalid_i)                               return ErrNoModulus;
    if ((op_i == OpSetmod) && n_bad_i)                              return ErrBadModulus;
    if ((op_i == OpWr) && wr_range_i)                               return ErrRange;
    return ErrOk;
  endfunction

  logic [3:0] in_err;
  assign in_err = decode(in_op, in_rd, in_ra, in_rb, cmd_data_i, mvalid_q, n_bad, wr_range);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     dec_err_q <= ErrOk;
    else if (accept) dec_err_q <= in_err;
  end
  assign dec_ok = (state_q == StDec) && (dec_err_q == ErrOk);

  // ---------------------------------------------------------------------------------------
  // Host registers N, C, O, E, P, R and the gearbox
  // ---------------------------------------------------------------------------------------
  logic [KC-1:0]    n_q, c_q, o_q, e_q;
  logic [PRW-1:0]   p_q, r_q;
  logic [M-1:0][WC-1:0] x_words, y_words, twn_words, thn_words;
  logic [WdMax-1:0] wr_en;
  logic             wr_ok, clear_regs;
  // WR's word enables of each host register, formed at accept (the error included) and live for
  // the decode clock only: each word's clock enable is a flip-flop.
  localparam int unsigned NumHost = 6;   // N, C, O, E, P, R
  logic [NumHost-1:0][WdMax-1:0] wr_we_q;
  localparam logic [NumHost-1:0][4:0] HostReg = {5'(RegR), 5'(RegP), 5'(RegE), 5'(RegO),
                                                 5'(RegC), 5'(RegN)};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_we_q <= '0;
    end else begin
      for (int unsigned r = 0; r < NumHost; r++) begin
        wr_we_q[r] <= (accept && (in_op == OpWr) && (in_rd == HostReg[r]) && (in_err == ErrOk))
                      ? wr_en : '0;
      end
    end
  end
  logic [MW-1:0]    rd_flat;
  logic [63:0]      rd_word;

  assign wr_ok      = dec_ok && (op == OpWr);
  assign clear_regs = (state_q == StClear);
  assign set_len    = clear_regs && (op == OpSetlen);

  always_comb begin
    unique case (ra)
      RegN:    rd_flat = MW'(n_q);
      RegC:    rd_flat = MW'(c_q);
      RegO:    rd_flat = MW'(o_q);
      RegE:    rd_flat = MW'(e_q);
      RegP:    rd_flat = MW'(p_q);
      RegR:    rd_flat = MW'(r_q);
      RegX:    rd_flat = x_words;
      default: rd_flat = y_words;
    endcase
  end

  // RD reads in two clocks: the gearbox registers word rptr of register ra in StDec (this 8:1 MUX
  // per bit sits next to that bit's PE column) and ORs the words in StRd.
  verma_gearbox #(.Width(MW), .Words(WdMax), .PtrW(PtrW), .LimW(LimW)) u_gearbox (
    .clk_i, .rst_ni,
    .wr_ptr_i    (wptr_q),
    .wr_data_i   (cmd_data_i),                     // decoded at accept (above)
    .wr_limit_k_i(LimW'(k)),                       // WR: the register's width, k (N, C, O, E)
    .wr_limit_d_i(LimW'(twod)),                    // or 2D (P, R)
    .wr_sel_d_i  ((in_rd == RegP) || (in_rd == RegR)),
    .wr_en_o     (wr_en),
    .wr_range_o  (wr_range),
    .rd_flat_i   (rd_flat),
    .rd_ptr_i    (rptr_q),
    .rd_word_o   (rd_word)
  );

  verma_operand_reg #(.Width(KC), .Words(WdMax)) u_n (
    .clk_i, .rst_ni, .clear_i(clear_regs), .we_i(wr_we_q[0]),
    .data_i(data_q), .q_o(n_q));
  verma_operand_reg #(.Width(KC), .Words(WdMax)) u_c (
    .clk_i, .rst_ni, .clear_i(clear_regs), .we_i(wr_we_q[1]),
    .data_i(data_q), .q_o(c_q));
  verma_operand_reg #(.Width(KC), .Words(WdMax)) u_o (
    .clk_i, .rst_ni, .clear_i(clear_regs), .we_i(wr_we_q[2]),
    .data_i(data_q), .q_o(o_q));
  verma_operand_reg #(.Width(KC), .Words(WdMax)) u_e (
    .clk_i, .rst_ni, .clear_i(clear_regs), .we_i(wr_we_q[3]),
    .data_i(data_q), .q_o(e_q));
  verma_operand_reg #(.Width(PRW), .Words(WdMax)) u_p (
    .clk_i, .rst_ni, .clear_i(clear_regs), .we_i(wr_we_q[4]),
    .data_i(data_q), .q_o(p_q));
  verma_operand_reg #(.Width(PRW), .Words(WdMax)) u_r (
    .clk_i, .rst_ni, .clear_i(clear_regs), .we_i(wr_we_q[5]),
    .data_i(data_q), .q_o(r_q));

  // SETMOD's check: N is odd and bit k-1 is set (N has no bits at or above k). N[k-1] is kept in
  // ntop_q and written with N: a WR of N's host word (k-1)/64 takes bit (k-1) mod 64 of its data
  // (a 64:1 MUX on the write data instead of a K:1 MUX gathering all of N); SETLEN and WIPE clear
  // it with N (a SETLEN changes k and clears N together). (The ladder's bit index is below K:
  // IdxW bits index the K-bit register.)
  logic [IdxW-1:0] e_pos;
  logic            e_bit, ntop_q;
  logic [31:0]     ktop;
  assign n_bad = !n_q[0] || !ntop_q;
  assign ktop  = 32'(k) - 32'd1;

  // E[e_pos] in two clocks: each group of EGrp neighbouring bits of E registers its bit at
  // e_pos's low bits (a local EGrp:1 MUX), then e_pos's high bits pick a group. The ladder reads
  // the bit a whole pass after e_pos moves (verma_ladder), and a pass is longer than two clocks.
  // (#20: a K:1 MUX gathering all of E into one place was among the K = 1024 build's congested
  // nets; now NumEGrp wires leave the groups.)
  localparam int unsigned ELoW    = (IdxW < 5) ? IdxW : 5;
  localparam int unsigned EGrp    = 1 << ELoW;
  localparam int unsigned NumEGrp = (KC + EGrp - 1) / EGrp;
  logic [NumEGrp*EGrp-1:0] e_ext;
  logic [NumEGrp-1:0]      e_grp_q;
  assign e_ext = (NumEGrp * EGrp)'(e_q);
  always_ff @(posedge clk_i) begin
    for (int unsigned g = 0; g < NumEGrp; g++) begin
      e_grp_q[g] <= e_ext[g * EGrp + 32'(e_pos[ELoW-1:0])];
    end
  end
  assign e_bit = e_grp_q[32'(e_pos) >> ELoW];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                                                   ntop_q <= 1'b0;
    else if (clear_regs)                                           ntop_q <= 1'b0;
    else if (wr_ok && (rd == RegN) && (32'(wptr_q) == (ktop >> 6))) ntop_q <= data_q[ktop[5:0]];
  end

  // ---------------------------------------------------------------------------------------
  // 2n, 3n; the ladder; the EWBR4CMMM core
  // ---------------------------------------------------------------------------------------
  logic [M-1:0][WC-1:0] n_words;
  assign n_words = MW'(n_q);

  verma_multiples #(.W(WC), .M(M)) u_multiples (
    .clk_i, .rst_ni,
    .clear_i(clear_regs),
    .step_i ((state_q == StSetmod) && (CntW'(wj_q) < m)),
    .idx_i  (wj_q),
    .n_i    (n_words),
    .twn_o  (twn_words),
    .thn_o  (thn_words)
  );

  logic          core_start, core_last, core_busy, core_fix, pass_end, ladder_more;
  t_src_e        ladder_t_src, insn_t_src;
  r_src_e        ladder_r_src, insn_r_src;
  logic [M-1:0][TSrcs-1:0] t_sel;
  logic [M-1:0][RSrcs-1:0] r_sel;

  assign core_start = (state_q == StLoad);
  assign core_fix   = (state_q == StFix);
  assign pass_end   = (state_q == StRun) && core_last && is_mpl;

  verma_ladder #(.KW(KW), .PosW(IdxW)) u_ladder (
    .clk_i, .rst_ni,
    .clear_i   (clear_regs),
    .begin_i   (dec_ok && is_mpl),
    .pass_end_i(pass_end),
    .k_i       (k),
    .e_bit_i   (e_bit),
    .pos_o     (e_pos),
    .t_src_d_o (ladder_t_src),
    .r_src_d_o (ladder_r_src),
    .more_o    (ladder_more)
  );

  always_comb begin
    unique case (ra)
      RegX:    insn_t_src = TSrcX;
      RegY:    insn_t_src = TSrcY;
      default: insn_t_src = TSrcP;
    endcase
    unique case (rb)
      RegC:    insn_r_src = RSrcC;
      RegO:    insn_r_src = RSrcO;
      RegX:    insn_r_src = RSrcX;
      RegY:    insn_r_src = RSrcY;
      RegOne:  insn_r_src = RSrcOne;
      default: insn_r_src = RSrcR;
    endcase
  end
  // The load MUX selects of a pass: registers, one-hot, one copy beside each PE column (they
  // drive ~2,100 MUXes). CMMM's come from the instruction, registered in StDec (StLoad follows
  // it); MPL's from the ladder's next state.
  verma_src_sel #(.M(M)) u_src_sel (
    .clk_i, .rst_ni,
    .t_src_d_i(is_mpl ? ladder_t_src : insn_t_src),
    .r_src_d_i(is_mpl ? ladder_r_src : insn_r_src),
    .t_sel_o  (t_sel),
    .r_sel_o  (r_sel)
  );

  logic [M-1:0][WC-1:0] t_words;

  verma_core #(.W(WC), .M(M), .Digits(Digits), .CntW(CntW)) u_core (
    .clk_i, .rst_ni,
    .clear_i(clear_regs),
    .start_i(core_start),
    .t_sel_i(t_sel),
    .r_sel_i(r_sel),
    .fix_i  (core_fix),
    .iters_i(iters),
    .pre_i  (pre),
    .m_i    (m),
    .en_i   (en),
    .n_i    (n_words),
    .twn_i  (twn_words),
    .thn_i  (thn_words),
    .p_i    (MW'(p_q)),
    .o_i    (MW'(o_q)),
    .r_i    (r_q),
    .c_i    (PRW'(c_q)),
    .t_o    (t_words),
    .x_o    (x_words),
    .y_o    (y_words),
    .last_o (core_last),
    .busy_o (core_busy)
  );

  // ---------------------------------------------------------------------------------------
  // Control FSM
  // ---------------------------------------------------------------------------------------
  logic        fin;
  logic [3:0]  fin_err;
  logic [63:0] fin_data;

  function automatic logic [PtrW-1:0] ptr_inc(logic [PtrW-1:0] p, logic [PtrW-1:0] w);
    return (p == w - PtrW'(1)) ? '0 : p + PtrW'(1);
  endfunction

  always_comb begin
    state_d      = state_q;
    insn_d       = insn_q;
    data_d       = data_q;
    derr_d       = derr_q;
    wptr_d       = wptr_q;
    rptr_d       = rptr_q;
    mvalid_d     = mvalid_q;
    wj_d         = wj_q;
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
        wj_d = '0;
        if (dec_err_q != ErrOk) begin
          derr_d  = dec_err_q;
          state_d = StErr;
        end else begin
          unique case (op)
            OpSetlen, OpWipe: state_d = StClear;
            OpWr: begin
              wptr_d = ptr_inc(wptr_q, wd);
              if (rd == RegN) mvalid_d = 1'b0;
              fin = 1'b1;
            end
            OpRd:          state_d = StRd;
            OpSetmod:      state_d = StSetmod;
            OpCmmm, OpMpl: state_d = StLoad;
            default:       fin = 1'b1;   // NOP
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
        rptr_d   = ptr_inc(rptr_q, wd);
      end

      StClear: begin   // SETLEN (u_sizes takes k), WIPE: every register 0
        wptr_d   = '0;
        rptr_d   = '0;
        mvalid_d = 1'b0;
        fin      = 1'b1;
      end

      StSetmod: begin  // 2n, 3n word wj (0 .. m-1), then one more clock
        wj_d = wj_q + JW'(1);
        if (CntW'(wj_q) == m) begin
          mvalid_d = 1'b1;
          fin      = 1'b1;
        end
      end

      StLoad: state_d = StRun;

      StRun: begin
        if (core_last) begin
          if (is_mpl && ladder_more) state_d = StLoad;
          else if (is_mpl || fld)    state_d = StFix;
          else                       fin = 1'b1;
        end
      end

      StFix: fin = 1'b1;

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
      derr_q        <= ErrOk;
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
  assign rsp_flags_o   = '0;        // verma.yaml has no flags
  assign rsp_cycles_o  = rsp_cycles_q;
  assign done_o        = rsp_valid_q;
  assign busy_o        = (state_q != StIdle) && (state_q != StResp);
  assign err_o         = err_q;
  assign cycle_count_o = cycle_count_q;

  logic unused_insn;
  assign unused_insn = ^insn_q[SlotImmMsb:SlotImmLsb];

`ifndef SYNTHESIS
  // The decode made at accept is the decode of the registered command in the decode clock (the
  // state it reads did not move), and WR's enables are exactly that clock's.
  /* verilator lint_off SYNCASYNCNET */
  logic wr_range_q;
  always_ff @(posedge clk_i) if (accept) wr_range_q <= wr_range;
  DecodeAtAccept: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (state_q == StDec) |-> (dec_err_q == decode(op, rd, ra, rb, data_q, mvalid_q, n_bad,
                                                  wr_range_q)))
    else $error("verma_top: the decode made at accept no longer holds in the decode clock");
  for (genvar r = 0; r < NumHost; r++) begin : g_we_check
    WriteEnableAtDecode: assert property (@(posedge clk_i) disable iff (!rst_ni)
        wr_we_q[r] == ((wr_ok && (rd == HostReg[r])) ? wr_en : '0))
      else $error("verma_top: host register %0d's write enables are not the decode clock's", r);
  end
  /* verilator lint_on SYNCASYNCNET */
`endif

  // ---------------------------------------------------------------------------------------
  // Assertions (simulation only)
  // ---------------------------------------------------------------------------------------
  verma_top_assert #(.MW(MW), .DW(DW)) u_assert (
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
    .running_i   ((state_q == StLoad) || (state_q == StRun)),
    .core_busy_i (core_busy),
    .core_last_i (core_last),
    .twod_i      (twod),
    .t_i         (t_words),
    .x_i         (x_words),
    .y_i         (y_words)
  );
endmodule
