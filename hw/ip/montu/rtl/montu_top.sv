// Montu: dual-field public-key coprocessor (bie2021 "reconfigurable modular unit").
//
// Length: about 750 lines. This module is the unit's decoder, its control FSM and the multiplexers
// in front of the register file and the scratch memory; the engines, the memories and the Hensel
// unit are modules of their own. The decode, the FSM and the multiplexers read the same decoded
// instruction and architectural state, so they stay together.
//
// Command/response interface: one command (32-bit instruction + one data word) is accepted at
// the clock edge where cmd_valid_i && cmd_ready_o; exactly one response {err, flags, data,
// cycles} follows, rsp_valid_o rising N clock edges later (N = the cycle formula of
// src/montu/isa/instructions.yaml, or error_cycles) and holding until rsp_ready_i (the response
// fields are held with it and change freely while rsp_valid_o is low). The next
// command may be accepted at the edge that takes the response (cmd_ready_o follows rsp_ready_i
// then), so a host that keeps both ready streams one command per N + 1 cycles.
//
// Datapath: a word-addressed register file (NumRegs x MaxWords words of Word bits, 3 read
// ports + 1 write port, block RAM), a scratch memory T, the Montgomery engine (montu_mont: two
// MAC lanes + q unit), the word-serial engine (montu_wordop), the inversion engine (montu_inv,
// MINV) and a bit-serial Hensel unit (montu_hensel) that computes the Montgomery constant
// w = -N^-1 mod 2^Word (N^-1 mod x^Word in GF(2^m)).
module montu_top
  import montu_pkg::*;
#(
  parameter int unsigned Word    = 64,   // 32 or 64
  parameter int unsigned Lanes   = 2,    // 1, 2 or 4 MAC lanes
  parameter int unsigned MaxBits = 4096, // multiple of 64
  parameter int unsigned NumRegs = 32,   // 16 .. 32
  parameter bit          Pipelined = 1'b0,  // pipelined engines for a high clock (Lanes 2, 4)
  // The Montgomery multiplier of STARTMMI/MMX: 0 montu_mont (bie2021 Alg. 2 on Lanes MAC lanes),
  // 1 cilardo_mont (cilardo2008: FIOS on the 8-stage dual-field Booth/Montgomery word unit,
  // Word = 64; Lanes is then unused, Pipelined pipelines the other engines)
  parameter int unsigned MulCore = 0
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            cmd_valid_i,
  output logic            cmd_ready_o,
  input  logic [31:0]     cmd_insn_i,
  input  logic [Word-1:0] cmd_data_i,
  output logic            rsp_valid_o,
  input  logic            rsp_ready_i,
  output logic [Word-1:0] rsp_data_o,
  output logic [3:0]      rsp_err_o,
  output logic [3:0]      rsp_flags_o,
  output logic [31:0]     rsp_cycles_o,
  output logic            busy_o,
  output logic            done_o,
  output logic [3:0]      err_o,
  output logic [63:0]     cycle_count_o
);
  localparam int unsigned MaxWords  = MaxBits / Word;
  localparam int unsigned Depth     = NumRegs * MaxWords;
  localparam int unsigned Aw        = $clog2(Depth);
  localparam int unsigned Jw        = $clog2(MaxWords + 5);
  // MMQ: montu_mont with Lanes 1, 2 interleaves a queued product with the running one (its rows
  // in T beside the other's); Lanes 4 and cilardo_mont run the queued product after the other.
  localparam bit          MulInterleaves = (MulCore == 0) && (Lanes != 4);
  localparam int unsigned TDepth    = (MulInterleaves ? 2 : 1) * MaxWords + 2;
  localparam int unsigned Ta        = $clog2(TDepth);
  localparam int unsigned WordsPerK = 64 / Word;   // data words per 64-bit length unit

  // ---------------------------------------------------------------------------------------
  // Elaboration-time parameter checks
  // ---------------------------------------------------------------------------------------
  if (Word != 32 && Word != 64) begin : g_bad_word
    $error("montu_top: Word must be 32 or 64");
  end
  if (Lanes != 1 && Lanes != 2 && Lanes != 4) begin : g_bad_lanes
    $error("montu_top: Lanes must be 1, 2 or 4");
  end
  if (MaxBits < 64 || (MaxBits % 64) != 0) begin : g_bad_maxbits
    $error("montu_top: MaxBits must be a positive multiple of 64");
  end
  if (NumRegs < 16 || NumRegs > 32) begin : g_bad_numregs
    $error("montu_top: NumRegs must be in 16 .. 32");
  end
  if (Pipelined && Lanes == 1) begin : g_bad_pipelined
    $error("montu_top: Pipelined needs Lanes = 2 or 4");
  end
  if (MulCore > 1) begin : g_bad_mulcore
    $error("montu_top: MulCore must be 0 (montu_mont) or 1 (cilardo_mont)");
  end
  if (MulCore == 1 && Word != 64) begin : g_bad_cilardo
    $error("montu_top: MulCore = 1 (cilardo2008) needs Word = 64");
  end

  // Decode errors are reported from StErr, one cycle after decode: 2 cycles after accept.
  if (ErrorCycles != 2) begin : g_bad_error_cycles
    $error("montu_top: the RTL reports errors after 2 cycles; the ISA table says otherwise");
  end

  typedef enum logic [3:0] {
    StIdle, StDec, StErr, StRmmi, StSmChk, StSmHen, StMont, StWord, StWipe, StResp, StInv
  } state_e;

  // ---------------------------------------------------------------------------------------
  // Architectural and control state
  // ---------------------------------------------------------------------------------------
  state_e            state_d, state_q;
  logic [31:0]       insn_d, insn_q;
  logic [Word-1:0]   data_d, data_q;
  logic [3:0]        derr_d, derr_q;        // decode error, reported from StErr
  logic [Jw-1:0]     s_d, s_q;              // W = number of words of an operand
  logic              gf2m_d, gf2m_q;        // field: 0 GF(p), 1 GF(2^m)
  logic [Jw-1:0]     wptr_d, wptr_q, rptr_d, rptr_q;
  logic [3:0]        flags_d, flags_q;
  logic              mvalid_d, mvalid_q;    // SETMOD result valid
  logic [4:0]        win_d, win_q;          // X: the window register (SHLX loads, MMX indexes)
  logic [4:0]        mreg_d, mreg_q;        // modulus register number
  logic              mq_valid_d, mq_valid_q;  // MMQ: a queued product rd = ra * rb, its registers
  logic [4:0]        mq_rd_d, mq_rd_q, mq_ra_d, mq_ra_q, mq_rb_d, mq_rb_q;
  logic              mm_second_d, mm_second_q;  // Lanes 4, cilardo: the queued product's pass
  logic              mm_again_q;            // ... starts in this cycle
  logic [Word-1:0]   w_d, w_q;              // Montgomery constant
  logic [Aw:0]       wipe_d, wipe_q;
  logic [31:0]       cyc_d, cyc_q;
  logic [63:0]       cycle_count_q;
  logic              rsp_valid_d, rsp_valid_q;
  logic [Word-1:0]   rsp_data_d, rsp_data_q;
  logic [3:0]        rsp_err_d, rsp_err_q, rsp_flags_d, rsp_flags_q, err_d, err_q;
  logic [31:0]       rsp_cycles_d, rsp_cycles_q;

  // instruction fields: [31:24] op [23:19] rd [18:14] ra [13:9] rb [8] f [7:0] imm
  logic [7:0] op, imm;
  logic [4:0] rd, ra, rb;
  logic       fld;
  assign op  = insn_q[SlotOpMsb:SlotOpLsb];
  assign rd  = insn_q[SlotRdMsb:SlotRdLsb];
  assign ra  = insn_q[SlotRaMsb:SlotRaLsb];
  assign rb  = insn_q[SlotRbMsb:SlotRbLsb];
  assign fld = insn_q[SlotFMsb:SlotFLsb];
  assign imm = insn_q[SlotImmMsb:SlotImmLsb];

  // ---------------------------------------------------------------------------------------
  // Decode: validity, register fields used, errors in precedence order. Which register fields an
  // instruction uses, whether it needs the modulus and how its imm is checked come from op_attr()
  // and the imm rule functions of montu_pkg (generated from instructions.yaml); only the routing
  // (which engine runs the instruction) is decided here. Everything that depends on the
  // instruction alone is decoded from insn_d and registered with insn_q (dec_q), so the controls
  // of the memories and engines start at flip-flops; only the modulus check reads mvalid_q.
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    logic       modular;     // needs the modulus (SETMOD)
    logic       word_op;     // runs on montu_wordop
    logic       writes_rd;
    logic       is_mm;       // STARTMMI or MMX: montu_mont
    logic       is_minv;
    logic       is_wmmi;
    logic       is_wipe;
    logic       is_rmmi;
    logic       is_setmod;
    logic [3:0] err;         // the first error found from the instruction alone
    logic       ok;          // err == ErrOk (the same conditions side by side, no priority)
  } dec_t;

  function automatic dec_t decode(logic [7:0] d_op, logic [4:0] d_rd, logic [4:0] d_ra,
                                  logic [4:0] d_rb, logic [7:0] d_imm);
    op_attr_t   attr;
    logic       bad_reg, bad_len, bad_imm;
    logic [5:0] table_end;         // rb + 2^imm, one past the last table register
    dec_t       d;
    d    = '0;
    attr = op_attr(d_op);
    unique case (d_op)
      OpMadd, OpMsub, OpMlin, OpMdbl, OpAdd, OpSub, OpSadd, OpSsub, OpShl1, OpShr1, OpShlw,
      OpShrw, OpShlx, OpMov, OpCmp, OpCswap, OpLdz, OpLdone: d.word_op = 1'b1;
      default: d.word_op = 1'b0;
    endcase
    d.modular   = attr.needs_modulus;
    d.writes_rd = attr.uses_rd;    // every instruction that names rd writes it
    d.is_mm     = (d_op == OpStartmmi) || (d_op == OpMmx);
    d.is_minv   = (d_op == OpMinv);
    d.is_wmmi   = (d_op == OpWmmi);
    d.is_wipe   = (d_op == OpWipe);
    d.is_rmmi   = (d_op == OpRmmi);
    d.is_setmod = (d_op == OpSetmod);
    bad_reg   = (attr.uses_rd && (32'(d_rd) >= NumRegs)) ||
                (attr.uses_ra && (32'(d_ra) >= NumRegs)) ||
                (attr.uses_rb && (32'(d_rb) >= NumRegs));
    bad_imm   = (attr.imm_window && !window_ok(d_imm)) ||
                (attr.imm_small_constants && !small_constants_ok(d_imm));
    table_end = 6'(d_rb) + (6'd1 << d_imm[2:0]);
    if (attr.rb_table && !bad_imm && (32'(table_end) > NumRegs)) bad_reg = 1'b1;
    bad_len   = attr.imm_length && !length_ok(d_imm, MaxBits);
    if (!attr.known)    d.err = ErrBadOpcode;
    else if (bad_reg)   d.err = ErrBadReg;
    else if (bad_imm)   d.err = ErrBadImm;
    else if (bad_len)   d.err = ErrBadLength;
    else                d.err = ErrOk;
    d.ok = attr.known && !bad_reg && !bad_imm && !bad_len;
    return d;
  endfunction

  // E_BAD_PAIR, from the command word and the queue as they are in the cycle before decode (the
  // queue and the modulus register change only when an instruction finishes): MMQ with a
  // product already queued; STARTMMI/MMX with a queued product that is not independent of
  // theirs (MMX's operand is its whole table, so the check never depends on X) or with either
  // destination the modulus register.
  function automatic logic pair_conflict(logic [7:0] d_op, logic [4:0] d_rd, logic [4:0] d_ra,
                                         logic [4:0] d_rb, logic [2:0] d_win);
    logic       in_rb;     // the queued rd is (in) this product's rb operand
    logic [5:0] off;
    off   = 6'(mq_rd_q) - 6'(d_rb);
    in_rb = (d_op == OpMmx) ? (!off[5] && (off < (6'd1 << d_win))) : (mq_rd_q == d_rb);
    if (!mq_valid_q)       return 1'b0;
    if (d_op == OpMmq)     return 1'b1;
    if ((d_op != OpStartmmi) && (d_op != OpMmx)) return 1'b0;
    return (d_rd == mq_rd_q) || (d_rd == mq_ra_q) || (d_rd == mq_rb_q) ||
           (mq_rd_q == d_ra) || in_rb || (d_rd == mreg_q) || (mq_rd_q == mreg_q);
  endfunction

  dec_t       dec_q;
  logic       pair_bad_q;
  logic [3:0] dec_err;
  logic       is_mm, word_op, writes_rd;
  assign is_mm     = dec_q.is_mm;
  assign word_op   = dec_q.word_op;
  assign writes_rd = dec_q.writes_rd;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dec_q      <= decode(OpNop, '0, '0, '0, '0);
      pair_bad_q <= 1'b0;
    end else begin
      dec_q      <= decode(insn_d[SlotOpMsb:SlotOpLsb], insn_d[SlotRdMsb:SlotRdLsb],
                           insn_d[SlotRaMsb:SlotRaLsb], insn_d[SlotRbMsb:SlotRbLsb],
                           insn_d[SlotImmMsb:SlotImmLsb]);
      pair_bad_q <= pair_conflict(insn_d[SlotOpMsb:SlotOpLsb], insn_d[SlotRdMsb:SlotRdLsb],
                                  insn_d[SlotRaMsb:SlotRaLsb], insn_d[SlotRbMsb:SlotRbLsb],
                                  insn_d[SlotImmLsb+2:SlotImmLsb]);
    end
  end

  always_comb begin
    if (dec_q.err != ErrOk)                dec_err = dec_q.err;
    else if (dec_q.modular && !mvalid_q)   dec_err = ErrNoModulus;
    else if (pair_bad_q)                   dec_err = ErrBadPair;
    else                                   dec_err = ErrOk;
  end

  // dec_ok starts the engines: from flip-flops through one or two LUTs. in_dec_q is
  // (state_q == StDec), registered from the handshake that enters StDec; dec_q.ok is the
  // decode's "no error", registered with it.
  logic dec_ok, in_dec_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) in_dec_q <= 1'b0;
    else         in_dec_q <= cmd_valid_i && cmd_ready_o;
  end
  assign dec_ok = in_dec_q && dec_q.ok && !(dec_q.modular && !mvalid_q) && !pair_bad_q;

  // ---------------------------------------------------------------------------------------
  // Engines
  // ---------------------------------------------------------------------------------------
  logic [Word-1:0] rdata_a, rdata_b, rdata_n, t_rdata;

  logic            mm_start, mm_re, mm_t_re, mm_t_we, mm_rf_we, mm_done;
  logic            mm_x_ctx, mm_y_ctx, mm_rf_ctx;   // 1: the port serves the queued product
  logic [Jw-1:0]   mm_x_idx, mm_y_idx, mm_n_idx, mm_rf_idx;
  logic [Ta-1:0]   mm_t_raddr, mm_t_waddr;
  logic [Word-1:0] mm_t_wdata, mm_rf_wdata;

  assign mm_start = (dec_ok && is_mm) || mm_again_q;

  if (MulCore == 1) begin : g_cilardo
    // cilardo2008's multiplier: same ports; it needs no Montgomery constant (its quotient digits
    // come from the Montgomery recoding of Table 2, which reads n_1 alone)
    logic [Word-1:0] unused_w;
    assign unused_w = w_q;
    cilardo_mont #(
      .Word(Word), .MaxWords(MaxWords)
    ) u_mont (
      .clk_i, .rst_ni,
      .start_i   (mm_start),
      .gf2m_i    (gf2m_q),
      .s_i       (s_q),
      .re_o      (mm_re),
      .x_idx_o   (mm_x_idx),
      .y_idx_o   (mm_y_idx),
      .n_idx_o   (mm_n_idx),
      .x_i       (rdata_a),
      .y_i       (rdata_b),
      .n_i       (rdata_n),
      .t_re_o    (mm_t_re),
      .t_raddr_o (mm_t_raddr),
      .t_rdata_i (t_rdata),
      .t_we_o    (mm_t_we),
      .t_waddr_o (mm_t_waddr),
      .t_wdata_o (mm_t_wdata),
      .rf_we_o   (mm_rf_we),
      .rf_idx_o  (mm_rf_idx),
      .rf_wdata_o(mm_rf_wdata),
      .done_o    (mm_done)
    );
    assign mm_x_ctx  = mm_second_q;
    assign mm_y_ctx  = mm_second_q;
    assign mm_rf_ctx = mm_second_q;
  end else begin : g_bie2021
    logic mont_x_ctx, mont_y_ctx, mont_rf_ctx;
    montu_mont #(
      .Word(Word), .Lanes(Lanes), .MaxWords(MaxWords), .Pipelined(Pipelined)
    ) u_mont (
      .clk_i, .rst_ni,
      .start_i   (mm_start),
      .pair_i    (MulInterleaves && mq_valid_q),
      .gf2m_i    (gf2m_q),
      .s_i       (s_q),
      .w_i       (w_q),
      .re_o      (mm_re),
      .x_idx_o   (mm_x_idx),
      .y_idx_o   (mm_y_idx),
      .n_idx_o   (mm_n_idx),
      .x_ctx_o   (mont_x_ctx),
      .y_ctx_o   (mont_y_ctx),
      .x_i       (rdata_a),
      .y_i       (rdata_b),
      .n_i       (rdata_n),
      .t_re_o    (mm_t_re),
      .t_raddr_o (mm_t_raddr),
      .t_rdata_i (t_rdata),
      .t_we_o    (mm_t_we),
      .t_waddr_o (mm_t_waddr),
      .t_wdata_o (mm_t_wdata),
      .rf_we_o   (mm_rf_we),
      .rf_ctx_o  (mont_rf_ctx),
      .rf_idx_o  (mm_rf_idx),
      .rf_wdata_o(mm_rf_wdata),
      .done_o    (mm_done)
    );
    // interleaved: the engine names the product of each port's word; else one after the other
    assign mm_x_ctx  = MulInterleaves ? mont_x_ctx  : mm_second_q;
    assign mm_y_ctx  = MulInterleaves ? mont_y_ctx  : mm_second_q;
    assign mm_rf_ctx = MulInterleaves ? mont_rf_ctx : mm_second_q;
  end

  logic            wo_start, wo_n_from_ra, wo_we, wo_done;
  logic [Jw-1:0]   wo_idx, wo_n_idx, wo_widx;
  logic [1:0]      wo_wreg;
  logic [Word-1:0] wo_wdata;
  logic [3:0]      wo_flags, wo_flags_we;
  logic [4:0]      wo_win;

  assign wo_start = dec_ok && word_op;

  montu_wordop #(.Word(Word), .MaxWords(MaxWords), .Pipelined(Pipelined)) u_wordop (
    .clk_i, .rst_ni,
    .start_i    (wo_start),
    .op_i       (op),
    .gf2m_i     (gf2m_q),
    .s_i        (s_q),
    .cond_i     (flags_q[imm[1:0]]),
    .shamt_i    (imm[2:0]),
    .ca_i       (imm[3:0]),
    .cb_i       (imm[7:4]),
    .win_o      (wo_win),
    .idx_o      (wo_idx),
    .n_idx_o    (wo_n_idx),
    .n_from_ra_o(wo_n_from_ra),
    .a_i        (rdata_a),
    .b_i        (rdata_b),
    .n_i        (rdata_n),
    .we_o       (wo_we),
    .wreg_o     (wo_wreg),
    .widx_o     (wo_widx),
    .wdata_o    (wo_wdata),
    .done_o     (wo_done),
    .flags_o    (wo_flags),
    .flags_we_o (wo_flags_we)
  );

  // MINV: the engine's cycle 0 is StDec (cyc_q = 0). Word j of rb (x, the modulus) and of ra (y)
  // is addressed on ports b and a in cycle j and loaded in cycle j + 1 (j = 0 .. W-1); the
  // engine then streams the W result words, which go to word 0, 1, ... of rd. On no_inverse_o
  // there is no stream: rd is unchanged.
  localparam int unsigned InvCw = $clog2(MaxWords + 1);   // montu_inv's words_i width
  localparam int unsigned InvClrW = (MaxWords > 1) ? $clog2(MaxWords) : 1;  // its clear_addr_i

  logic            inv_start, inv_ld_valid, inv_res_valid, inv_done, inv_noinv;
  logic [Word-1:0] inv_res_word;
  logic [Jw-1:0]   inv_ld_idx;
  logic [Jw-1:0]   inv_widx_q;   // next result word of rd

  assign inv_start    = dec_ok && dec_q.is_minv;
  assign inv_ld_idx   = Jw'(cyc_q);
  assign inv_ld_valid = (state_q == StInv) && (cyc_q <= 32'(s_q));

  logic            wiping;      // WIPE in progress (decode cycle included)
  logic [Aw-1:0]   wipe_addr;   // register-file word WIPE clears this cycle
  logic            inv_clear;   // WIPE clears word wipe_addr of montu_inv's scratch memories

  // WIPE also clears the inversion engine: its scratch memories through clear_i (MaxWords words,
  // well within the NumRegs x MaxWords cycles of WIPE) and its registers by holding it in reset.
  logic inv_rst_nq;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) inv_rst_nq <= 1'b1;
    else         inv_rst_nq <= !wiping;
  end

  montu_inv #(.Word(Word), .MaxWords(MaxWords), .Pipelined(Pipelined)) u_inv (
    .clk_i,
    .rst_ni      (rst_ni && inv_rst_nq),
    .start_i     (inv_start),
    .one_bit_i   (insn_q[SlotImmLsb]),
    .clear_i     (inv_clear),
    .clear_addr_i(InvClrW'(wipe_addr)),
    .gf2m_i      (gf2m_q),
    .words_i     (InvCw'(s_q)),
    .ld_valid_i  (inv_ld_valid),
    .ld_x_i      (rdata_b),
    .ld_y_i      (rdata_a),
    .res_valid_o (inv_res_valid),
    .res_word_o  (inv_res_word),
    .done_o      (inv_done),
    .no_inverse_o(inv_noinv)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inv_widx_q <= '0;
    end else if (inv_start) begin
      inv_widx_q <= '0;
    end else if (inv_res_valid) begin
      inv_widx_q <= inv_widx_q + Jw'(1);
    end
  end

  // ---------------------------------------------------------------------------------------
  // Memories
  // ---------------------------------------------------------------------------------------
  // word address of word idx of register r: r * MaxWords + idx. With MaxWords a power of two
  // (every unit build but the 576-bit ones) it is the register number above the index's low
  // bits, no adder in front of the memories' read addresses (#23: the carry chain of r + idx's
  // top bit sat on the worst path of the pipelined unit); an index is below MaxWords whenever
  // its word is used (asserted below for the write port).
  localparam bit          WordsPow2 = (MaxWords & (MaxWords - 1)) == 0;
  localparam int unsigned Lw        = (MaxWords > 1) ? $clog2(MaxWords) : 1;
  function automatic logic [Aw-1:0] waddr(logic [4:0] r, logic [Jw-1:0] idx);
    if (WordsPow2 && (MaxWords > 1)) return Aw'({r, idx[Lw-1:0]});
    return Aw'(32'(r) * MaxWords + 32'(idx));
  endfunction

  logic            rf_we, rf_re, t_we, t_re;
  logic [4:0]      rf_wreg;    // the register and word a write goes to (WIPE: see rf_waddr)
  logic [Jw-1:0]   rf_widx;
  logic [Aw-1:0]   rf_waddr, raddr_a, raddr_b, raddr_n;
  logic [Word-1:0] rf_wdata, t_wdata;
  logic [Ta-1:0]   t_waddr, t_raddr;
  logic [4:0]      wo_reg;

  assign wiping    = (state_q == StWipe) || (dec_ok && dec_q.is_wipe);
  assign wipe_addr = (state_q == StWipe) ? wipe_q[Aw-1:0] : '0;
  // wiping && wipe_addr < MaxWords, with the compare on the register alone (word 0, the decode
  // cycle's, is always in range): the compare's carry chain no longer follows dec_ok (#23: it
  // led montu_inv's memory write-data path, the unit's worst path in 2 of 3 routes)
  assign inv_clear = (state_q == StWipe) ? (32'(wipe_q[Aw-1:0]) < MaxWords)
                                         : (dec_ok && dec_q.is_wipe);

  // MMX's second operand is table entry rb + X (X masked to the window width; plain rb for
  // STARTMMI). ytab_q is that sum for the next instruction word and the next X, registered with
  // insn_q, so the 5-bit add and the window mask are off port b's read address (#23: they led
  // the pipelined unit's worst path into u_copy_b). The assertion compares it with the form
  // of insn_q and win_q in every clock that reads a table entry with it.
  function automatic logic [4:0] ytab(logic [7:0] t_op, logic [4:0] t_rb, logic [2:0] t_wbits,
                                      logic [4:0] t_win);
    return t_rb + (t_win & 5'((6'd1 << t_wbits) - 6'd1) & {5{t_op == OpMmx}});
  endfunction
  logic [4:0] ytab_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ytab_q <= '0;
    else         ytab_q <= ytab(insn_d[SlotOpMsb:SlotOpLsb], insn_d[SlotRbMsb:SlotRbLsb],
                                insn_d[SlotImmLsb+2:SlotImmLsb], win_d);
  end

  always_comb begin
    // read ports: a streams ra, b streams rb, n streams the modulus (or ra + 1 word)
    if (dec_q.is_rmmi)        raddr_a = waddr(ra, rptr_q);
    else if (dec_q.is_setmod) raddr_a = waddr(ra, '0);
    else if (is_mm)           raddr_a = waddr(mm_x_ctx ? mq_ra_q : ra, mm_x_idx);
    else                      raddr_a = waddr(ra, wo_idx);
    // MMX: the second operand is table entry rb + X (X masked to the window width)
    // (the queued product's: its own rb)
    raddr_b = !is_mm  ? waddr(rb, wo_idx) :
              mm_y_ctx ? waddr(mq_rb_q, mm_y_idx) :
              waddr(ytab_q, mm_y_idx);
    raddr_n = is_mm ? waddr(mreg_q, mm_n_idx)
                    : waddr(wo_n_from_ra ? ra : mreg_q, wo_n_idx);
    rf_re   = is_mm ? mm_re : 1'b1;
    if (dec_q.is_minv) begin   // MINV loads y = ra on port a and x = rb on port b
      raddr_a = waddr(ra, inv_ld_idx);
      raddr_b = waddr(rb, inv_ld_idx);
    end

    // write port
    unique case (wo_wreg)
      2'd1:    wo_reg = ra;
      2'd2:    wo_reg = rb;
      default: wo_reg = rd;
    endcase
    if (dec_ok && dec_q.is_wmmi) begin
      rf_we   = 1'b1;
      rf_wreg = rd;
      rf_widx = wptr_q;
      rf_wdata = data_q;
    end else if (is_mm) begin
      rf_we   = mm_rf_we;
      rf_wreg = mm_rf_ctx ? mq_rd_q : rd;
      rf_widx = mm_rf_idx;
      rf_wdata = mm_rf_wdata;
    end else if (dec_q.is_minv) begin
      rf_we   = inv_res_valid && (state_q == StInv);
      rf_wreg = rd;
      rf_widx = inv_widx_q;
      rf_wdata = inv_res_word;
    end else begin
      rf_we   = wo_we;
      rf_wreg = wo_reg;
      rf_widx = wo_widx;
      rf_wdata = wo_wdata;
    end
    rf_waddr = waddr(rf_wreg, rf_widx);
    if (wiping) begin
      rf_we    = 1'b1;
      rf_waddr = wipe_addr;
      rf_wdata = '0;
    end

    // scratch T: the Montgomery accumulator; WIPE clears it with the register file
    if (wiping) begin
      t_we    = (32'(wipe_addr) < TDepth);
      t_waddr = Ta'(wipe_addr);
      t_wdata = '0;
    end else begin
      t_we    = mm_t_we;
      t_waddr = mm_t_waddr;
      t_wdata = mm_t_wdata;
    end
    t_re    = mm_t_re;
    t_raddr = mm_t_raddr;
  end

  montu_regfile #(.Word(Word), .Depth(Depth), .WriteBehind(1'b1)) u_regfile (
    .clk_i,
    .rst_ni,
    .we_i     (rf_we),
    .waddr_i  (rf_waddr),
    .wdata_i  (rf_wdata),
    .re_i     (rf_re),
    .raddr_a_i(raddr_a),
    .raddr_b_i(raddr_b),
    .raddr_n_i(raddr_n),
    .rdata_a_o(rdata_a),
    .rdata_b_o(rdata_b),
    .rdata_n_o(rdata_n)
  );

  // Bit 0 of word 0 of every register, kept beside the register file, so SETMOD's parity check
  // needs no read: a block RAM's slow output would otherwise start a long path through the
  // response logic. Every write (WIPE clears) goes through the one write port above.
  // The write is registered first and lands in odd_q a cycle late (the write port's selects
  // then drive one flip-flop each, not the enables of all of odd_q), and ra's bit is read in
  // StDec into ra_odd_q for StSmChk: a write lands two cycles before the next command's StDec
  // at the latest (its fin cycle, then StResp), so StSmChk sees every earlier write.
  logic [NumRegs-1:0] odd_q;
  logic               odd_we_q, odd_bit_q, ra_odd_q;
  logic [4:0]         odd_reg_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      odd_we_q  <= 1'b0;
      odd_reg_q <= '0;
      odd_bit_q <= 1'b0;
      odd_q     <= '0;
      ra_odd_q  <= 1'b0;
    end else begin
      odd_we_q  <= rf_we && (rf_widx == '0) && !wiping;
      odd_reg_q <= rf_wreg;
      odd_bit_q <= rf_wdata[0];
      if (wiping) begin
        odd_q <= '0;
      end else if (odd_we_q) begin
        for (int r = 0; r < NumRegs; r++) begin
          if (32'(odd_reg_q) == r) odd_q[r] <= odd_bit_q;
        end
      end
      for (int r = 0; r < NumRegs; r++) begin
        if (32'(ra) == r) ra_odd_q <= odd_q[r];
      end
    end
  end

  montu_ram_1r1w #(.Width(Word), .Depth(TDepth)) u_scratch (
    .clk_i,
    .we_i   (t_we),
    .waddr_i(t_waddr),
    .wdata_i(t_wdata),
    .re_i   (t_re),
    .raddr_i(t_raddr),
    .rdata_o(t_rdata)
  );

  // ---------------------------------------------------------------------------------------
  // SETMOD's Hensel unit: w = -N^-1 mod 2^Word (GF(2^m): N^-1 mod x^Word) from word 0 of ra,
  // loaded in StSmChk straight from the register file's read; w_o is ready Word cycles later.
  // ---------------------------------------------------------------------------------------
  logic            hen_start, hen_busy;
  logic [Word-1:0] hen_w;
  assign hen_start = (state_q == StSmChk) && ra_odd_q;
  montu_hensel #(.Word(Word)) u_hensel (
    .clk_i, .rst_ni,
    .start_i(hen_start),
    .gf2m_i (gf2m_q),
    .n_i    (rdata_a),
    .neg_i  (1'b1),
    .busy_o (hen_busy),
    .w_o    (hen_w)
  );

  // ---------------------------------------------------------------------------------------
  // Control FSM
  // ---------------------------------------------------------------------------------------
  logic            fin;
  logic [3:0]      fin_err;
  logic [Word-1:0] fin_data;

  function automatic logic [Jw-1:0] ptr_inc(logic [Jw-1:0] p, logic [Jw-1:0] s);
    return (p == s - Jw'(1)) ? '0 : p + Jw'(1);
  endfunction

  always_comb begin
    state_d     = state_q;
    insn_d      = insn_q;
    data_d      = data_q;
    derr_d      = derr_q;
    s_d         = s_q;
    gf2m_d      = gf2m_q;
    wptr_d      = wptr_q;
    rptr_d      = rptr_q;
    flags_d     = flags_q;
    mvalid_d    = mvalid_q;
    win_d       = win_q;
    mreg_d      = mreg_q;
    mq_valid_d  = mq_valid_q;
    mq_rd_d     = mq_rd_q;
    mq_ra_d     = mq_ra_q;
    mq_rb_d     = mq_rb_q;
    mm_second_d = mm_second_q;
    w_d         = w_q;
    wipe_d      = wipe_q;
    cyc_d       = cyc_q + 32'd1;
    rsp_valid_d = rsp_valid_q;
    rsp_data_d  = rsp_data_q;
    rsp_err_d   = rsp_err_q;
    rsp_flags_d = rsp_flags_q;
    rsp_cycles_d = rsp_cycles_q;
    err_d       = err_q;
    fin         = 1'b0;
    fin_err     = ErrOk;
    fin_data    = '0;

    unique case (state_q)
      StIdle: begin
        // The command word is captured whenever the unit can accept one, whether or not
        // cmd_valid_i is high: then only state_q (and rsp_valid_q) depend on the handshake, not
        // the clock enables of ~100 instruction and data flip-flops (a wide, slow net that
        // limited the pipelined build's fmax). Nothing reads insn_q or data_q in StIdle/StResp.
        cyc_d  = '0;
        insn_d = cmd_insn_i;
        data_d = cmd_data_i;
        if (cmd_valid_i) state_d = StDec;
      end

      StDec: begin
        if (dec_err != ErrOk) begin
          derr_d  = dec_err;
          state_d = StErr;
        end else begin
          unique case (op)
            OpNop: fin = 1'b1;
            OpSetmmi: begin
              s_d      = Jw'(32'(imm) * WordsPerK);
              gf2m_d   = fld;
              wptr_d   = '0;
              rptr_d   = '0;
              mvalid_d = 1'b0;
              mq_valid_d = 1'b0;
              fin      = 1'b1;
            end
            OpMmq: begin
              mq_valid_d = 1'b1;
              mq_rd_d    = rd;
              mq_ra_d    = ra;
              mq_rb_d    = rb;
              fin        = 1'b1;
            end
            OpWmmi: begin
              wptr_d = ptr_inc(wptr_q, s_q);
              if (rd == mreg_q) mvalid_d = 1'b0;
              fin = 1'b1;
            end
            OpRmmi:     state_d = StRmmi;
            OpSetmod:   state_d = StSmChk;
            OpStartmmi, OpMmx: state_d = StMont;
            OpMinv:     state_d = StInv;
            OpWipe: begin
              wipe_d  = (Aw+1)'(1);
              state_d = StWipe;
            end
            default:    state_d = StWord;   // word-serial instructions
          endcase
        end
      end

      StErr: begin
        fin     = 1'b1;
        fin_err = derr_q;
      end

      StRmmi: begin
        fin      = 1'b1;
        fin_data = rdata_a;
        rptr_d   = ptr_inc(rptr_q, s_q);
      end

      StSmChk: begin   // rdata_a: word 0 of ra
        if (!ra_odd_q) begin
          fin     = 1'b1;
          fin_err = ErrEvenModulus;
        end else begin
          state_d = StSmHen;   // u_hensel loads word 0 of ra (hen_start)
        end
      end

      StSmHen: begin   // Word cycles after StSmChk
        if (!hen_busy) begin
          w_d      = hen_w;
          mreg_d   = ra;
          mvalid_d = 1'b1;
          fin      = 1'b1;
        end
      end

      StMont: begin
        if (mm_done) begin
          if (!MulInterleaves && mq_valid_q && !mm_second_q) begin
            mm_second_d = 1'b1;    // the queued product's pass starts next cycle (mm_again_q)
          end else begin
            if (rd == mreg_q) mvalid_d = 1'b0;   // (never with a queued product: E_BAD_PAIR)
            mq_valid_d  = 1'b0;
            mm_second_d = 1'b0;
            fin = 1'b1;
          end
        end
      end

      StInv: begin
        if (inv_done) begin
          if (inv_noinv)         fin_err = ErrNoInverse;   // no result stream: rd unchanged
          else if (rd == mreg_q) mvalid_d = 1'b0;          // rd written: it was the modulus
          fin = 1'b1;
        end
      end

      StWord: ;   // finished below (LDZ/LDONE with W = 1 finish in StDec)

      StWipe: begin
        wipe_d = wipe_q + (Aw+1)'(1);
        if (wipe_q == (Aw+1)'(Depth - 1)) begin
          s_d      = Jw'(WordsPerK);
          gf2m_d   = 1'b0;
          wptr_d   = '0;
          rptr_d   = '0;
          flags_d  = '0;
          mvalid_d = 1'b0;
          mq_valid_d = 1'b0;
          win_d    = '0;
          w_d      = '0;
          fin      = 1'b1;
        end
      end

      StResp: begin   // captured as in StIdle (cyc_q is not read here)
        cyc_d  = '0;
        insn_d = cmd_insn_i;
        data_d = cmd_data_i;
        if (rsp_ready_i) begin
          rsp_valid_d = 1'b0;
          // back to back: the next command in the response's cycle
          state_d     = cmd_valid_i ? StDec : StIdle;
        end
      end

      default: state_d = StIdle;
    endcase

    // word-serial instructions finish when the engine says so
    if (wo_done && ((state_q == StWord) || (dec_ok && word_op))) begin
      flags_d = (flags_q & ~wo_flags_we) | (wo_flags & wo_flags_we);
      if (op == OpShlx) win_d = wo_win;
      if (writes_rd && (rd == mreg_q)) mvalid_d = 1'b0;
      if ((op == OpCswap) && ((ra == mreg_q) || (rb == mreg_q))) mvalid_d = 1'b0;
      fin = 1'b1;
    end

    // The response fields load what a finishing command would answer in every cycle outside
    // StResp and hold in StResp, so their ~100 flip-flops are enabled by a decode of state_q
    // and not by fin (an OR of every engine's done through the FSM: the pipelined unit's
    // post-route worst path). They mean something only while rsp_valid_o is high.
    if (state_q != StResp) begin
      rsp_err_d    = fin_err;
      rsp_data_d   = fin_data;
      rsp_flags_d  = flags_d;
      rsp_cycles_d = cyc_q + 32'd1;
    end
    if (fin) begin
      state_d     = StResp;
      rsp_valid_d = 1'b1;
      err_d       = fin_err;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= StIdle;
      insn_q        <= '0;
      data_q        <= '0;
      derr_q        <= ErrOk;
      s_q           <= Jw'(WordsPerK);
      gf2m_q        <= 1'b0;
      wptr_q        <= '0;
      rptr_q        <= '0;
      flags_q       <= '0;
      mvalid_q      <= 1'b0;
      win_q         <= '0;
      mreg_q        <= '0;
      mq_valid_q    <= 1'b0;
      mq_rd_q       <= '0;
      mq_ra_q       <= '0;
      mq_rb_q       <= '0;
      mm_second_q   <= 1'b0;
      mm_again_q    <= 1'b0;
      w_q           <= '0;
      wipe_q        <= '0;
      cyc_q         <= '0;
      cycle_count_q <= '0;
      rsp_valid_q   <= 1'b0;
      rsp_data_q    <= '0;
      rsp_err_q     <= ErrOk;
      rsp_flags_q   <= '0;
      rsp_cycles_q  <= '0;
      err_q         <= ErrOk;
    end else begin
      state_q       <= state_d;
      insn_q        <= insn_d;
      data_q        <= data_d;
      derr_q        <= derr_d;
      s_q           <= s_d;
      gf2m_q        <= gf2m_d;
      wptr_q        <= wptr_d;
      rptr_q        <= rptr_d;
      flags_q       <= flags_d;
      mvalid_q      <= mvalid_d;
      win_q         <= win_d;
      mreg_q        <= mreg_d;
      mq_valid_q    <= mq_valid_d;
      mq_rd_q       <= mq_rd_d;
      mq_ra_q       <= mq_ra_d;
      mq_rb_q       <= mq_rb_d;
      mm_second_q   <= mm_second_d;
      mm_again_q    <= mm_second_d && !mm_second_q;
      w_q           <= w_d;
      wipe_q        <= wipe_d;
      cyc_q         <= cyc_d;
      cycle_count_q <= cycle_count_q + 64'd1;
      rsp_valid_q   <= rsp_valid_d;
      rsp_data_q    <= rsp_data_d;
      rsp_err_q     <= rsp_err_d;
      rsp_flags_q   <= rsp_flags_d;
      rsp_cycles_q  <= rsp_cycles_d;
      err_q         <= err_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------
  assign cmd_ready_o   = (state_q == StIdle) || (state_q == StResp && rsp_ready_i);
  assign rsp_err_o     = rsp_err_q;
  assign rsp_cycles_o  = rsp_cycles_q;
  assign done_o        = rsp_valid_q;
  assign busy_o        = (state_q != StIdle) && (state_q != StResp);
  assign err_o         = err_q;
  assign cycle_count_o = cycle_count_q;

  // ---------------------------------------------------------------------------------------
  // Assertions (simulation only): montu_top_assert states the rules
  // ---------------------------------------------------------------------------------------
  logic [3:0] rf_we_by_engine;   // who asks for the register file's write port: host, engines
  assign rf_we_by_engine = {dec_ok && dec_q.is_wmmi, mm_rf_we, inv_res_valid, wo_we};

`ifdef MONTU_ASSERT_SELFTEST
  // Deliberately broken behaviour, one rule per plusarg, to show each assertion can fire.
  logic break_one_response, break_rsp_stable, break_rf_exclusive, break_known, break_ytab;
  logic rsp_taken_q;
  logic [Word-1:0] never_reset_q;   // no reset: X in a 4-state simulator, random in Verilator
  initial begin
    break_one_response = $test$plusargs("montu_break_one_response");
    break_rsp_stable   = $test$plusargs("montu_break_rsp_stable");
    break_rf_exclusive = $test$plusargs("montu_break_rf_exclusive");
    break_known        = $test$plusargs("montu_break_known_outputs");
    break_ytab         = $test$plusargs("montu_break_table_entry");
  end
  always_ff @(posedge clk_i) never_reset_q <= never_reset_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rsp_taken_q <= 1'b0;
    else         rsp_taken_q <= rsp_valid_o && rsp_ready_i;
  end
  assign rsp_valid_o = rsp_valid_q || (break_one_response && rsp_taken_q);   // a second response
  assign rsp_data_o  = rsp_data_q ^ Word'(break_rsp_stable && cycle_count_q[0])   // flickers
                                 ^ (break_known ? never_reset_q : '0);            // not from reset
  assign rsp_flags_o = rsp_flags_q;
  logic [3:0] rf_we_checked;
  assign rf_we_checked = rf_we_by_engine |
                         {3'b000, break_rf_exclusive && dec_ok && dec_q.is_wmmi}; // two writers
  logic [4:0] ytab_checked;
  assign ytab_checked = ytab_q ^ {4'b0000, break_ytab};   // a table entry one off
`else
  assign rsp_valid_o = rsp_valid_q;
  assign rsp_data_o  = rsp_data_q;
  assign rsp_flags_o = rsp_flags_q;
  logic [3:0] rf_we_checked;
  assign rf_we_checked = rf_we_by_engine;
  logic [4:0] ytab_checked;
  assign ytab_checked = ytab_q;
`endif

  montu_top_assert #(
    .Word   (Word),
    .Engines(4)
  ) u_assert (
    .clk_i,
    .rst_ni,
    .cmd_valid_i (cmd_valid_i),
    .cmd_ready_i (cmd_ready_o),
    .rsp_valid_i (rsp_valid_o),
    .rsp_ready_i (rsp_ready_i),
    .rsp_data_i  (rsp_data_o),
    .rsp_err_i   (rsp_err_o),
    .rsp_flags_i (rsp_flags_o),
    .rsp_cycles_i(rsp_cycles_o),
    .rf_we_i     (rf_we_checked),
    .dec_ok_i    (dec_ok),
    .dec_ok_ref_i((state_q == StDec) && (dec_err == ErrOk)),
    .tab_read_i  (is_mm && mm_re && !mm_y_ctx),
    .ytab_i      (ytab_checked),
    .ytab_ref_i  (ytab(op, rb, imm[2:0], win_q)),
    .widx_ok_i   (!rf_we || wiping || (32'(rf_widx) < MaxWords)),
    .mm_ridx_ok_i(!(is_mm && mm_re) || ((32'(mm_x_idx) < MaxWords) &&
                                        (32'(mm_y_idx) < MaxWords) &&
                                        (32'(mm_n_idx) < MaxWords)))
  );
endmodule
