// Word-serial engine: every instruction that walks the W words of its operands once or twice,
// least significant word first, one word per cycle.
//
// Cycle c issues reads of word j; cycle c+1 ("process") sees the words and writes rd_j, so a
// word of rd is only written after the same word (and, for SHR1/SHRW, the next word) of every
// source was read: rd may equal ra, rb or the modulus register.
//   one pass  (ADD SUB SADD SSUB SHL1 SHR1 SHLW SHRW SHLX CMP MOV):  W + 1 cycles
//     SHLX: rd_j = (a_j << w) | (a_{j-1} >> (Word - w)); the top w bits of the last word go to
//     win_o (the unit's window register X), w = 1 .. 5
//   two passes (MADD MSUB MDBL): pass 1 computes the select bit of the constant-time
//     reduction, pass 2 recomputes and writes rd_j = sel ? D_j : V_j:   2W + 1 cycles
//       MADD  V = a + b,  D = V - N,  sel = carry(V) | no borrow(D)
//       MSUB  V = a - b,  D = V + N,  sel = borrow(V)
//       MDBL  V = 2a,     D = V - N,  sel = carry(V) | no borrow(D)
//             GF(2^m): V = x*a, D = V xor N, sel = (D < V), i.e. bit deg(N) of V is set
//             (V is L+1 bits; its bit L is equal in V and D, so the low L bits decide)
//       (GF(2^m) MADD/MSUB: V = a xor b, sel = 0)
//   MLIN (two passes): rd = ca*a + cb*b mod N, constants ca, cb in -3 .. 3; pass 1 runs seven
//     carry chains V + (o - i)*N, i = 0 .. 6, for their signs, pass 2 writes chain s (below)
//     GF(2^m): rd_j = (ca odd ? a_j : 0) xor (cb odd ? b_j : 0)
//   CSWAP: word j is read once and written twice (ra_j, then rb_j): 2W + 1 cycles
//   LDZ, LDONE: write only, no read: W cycles
module montu_wordop
  import montu_pkg::*;
#(
  parameter int unsigned Word     = 64,
  parameter int unsigned MaxWords = 64,
  localparam int unsigned Jw      = $clog2(MaxWords + 5)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,     // first cycle of the command
  input  logic [7:0]      op_i,        // held for the whole command
  input  logic            gf2m_i,
  input  logic [Jw-1:0]   s_i,         // W
  input  logic            cond_i,      // CSWAP: the selected flag
  input  logic [2:0]      shamt_i,     // SHLX: window width w (1 .. 5, checked at decode)
  input  logic [3:0]      ca_i,        // MLIN: constant ca, two's complement (-3 .. 3, checked
  input  logic [3:0]      cb_i,        //   at decode), and cb
  output logic [4:0]      win_o,       // SHLX: the w bits shifted out of the top, valid with done_o
  output logic [Jw-1:0]   idx_o,       // word index read on ports a and b
  output logic [Jw-1:0]   n_idx_o,     // word index read on port n
  output logic            n_from_ra_o, // port n reads ra (SHR1/SHRW read word j+1)
  input  logic [Word-1:0] a_i,
  input  logic [Word-1:0] b_i,
  input  logic [Word-1:0] n_i,
  output logic            we_o,
  output logic [1:0]      wreg_o,      // 0: rd, 1: ra, 2: rb
  output logic [Jw-1:0]   widx_o,
  output logic [Word-1:0] wdata_o,
  output logic            done_o,      // last cycle of the command
  output logic [3:0]      flags_o,     // new flag values, valid with done_o
  output logic [3:0]      flags_we_o   // which flags the instruction sets
);
  // ---------------------------------------------------------------------------------------
  // Instruction classes
  // ---------------------------------------------------------------------------------------
  logic two_pass, interleave, direct, writes;
  always_comb begin
    two_pass   = (op_i == OpMadd) || (op_i == OpMsub) || (op_i == OpMdbl) || (op_i == OpMlin);
    interleave = (op_i == OpCswap);
    direct     = (op_i == OpLdz) || (op_i == OpLdone);
    writes     = (op_i != OpCmp);
  end

  // ---------------------------------------------------------------------------------------
  // Issue stage
  // ---------------------------------------------------------------------------------------
  logic          iss_q, pass_q;
  logic [Jw-1:0] j_q;
  logic          issuing, iss_last_word, iss_last;

  assign issuing       = start_i | iss_q;
  assign iss_last_word = (j_q == s_i - Jw'(1));
  assign iss_last      = issuing & iss_last_word & (pass_q | ~(two_pass | interleave));

  // process stage
  logic          pv_q, ppass_q, pfirst_q, plast_q, pend_q;
  logic [Jw-1:0] pj_q;

  // chain registers
  logic          c1_q, c2_q, sel_q, eq_q, bit_q, cbit_q;
  logic [Word-1:0] prevw_q, hold_q;

  // ---------------------------------------------------------------------------------------
  // MLIN, GF(p): rd = V + (o - s)*N, V = ca*a + cb*b over the integers, o = the sum of the
  // magnitudes of the negative constants, s = #{i in 1 .. 6 : V + (o - i)*N >= 0}.
  // (For ra, rb < N, V + o*N lies in [0, 6N], so rd = V mod N.)
  // Word j of every chain, with signed carries (floor division by 2^Word):
  //   v_j   = ca*a_j + cb*b_j + cv                     V;          cv   in -6 .. 6
  //   e_ij  = (v_j mod 2^Word) + (o - i)*N_j + ce_i    chain i;    ce_i in -6 .. 7
  // After the last word V = Vlow + cv*2^L and V + (o - i)*N = Elow_i + (ce_i + cv)*2^L with
  // Vlow, Elow_i in [0, 2^L), so chain i's total is >= 0 iff ce_i + cv >= 0. Pass 1 counts s,
  // pass 2 recomputes the chains and writes Elow_s word by word. Every per-word sum lies in
  // [-6*2^Word, 7*2^Word]: Word+4-bit two's complement, whose top 4 bits are the carry.
  // ---------------------------------------------------------------------------------------
  localparam int unsigned MlinChains = 7;
  localparam int unsigned Xw         = Word + 4;

  // k*x for a small signed k (|k| <= 7) by shifts and adds, as an Xw-bit two's complement
  function automatic logic [Xw-1:0] mul_small(logic [3:0] k, logic [Word-1:0] x);
    logic [2:0]    mag;
    logic [Xw-1:0] p;
    mag = k[3] ? 3'(4'd0 - k) : k[2:0];
    p   = (mag[0] ? Xw'(x) : '0) + (mag[1] ? (Xw'(x) << 1) : '0) + (mag[2] ? (Xw'(x) << 2) : '0);
    return k[3] ? (Xw'(0) - p) : p;
  endfunction

  // a 4-bit two's-complement carry, sign-extended to Xw bits
  function automatic logic [Xw-1:0] sext_carry(logic [3:0] c);
    return {{Word{c[3]}}, c};
  endfunction

  logic [3:0]                 lin_o;                  // o, 0 .. 6
  logic [3:0]                 lin_cv_in, lin_ce_in;   // carries into this word
  logic [Xw-1:0]              lin_v;                  // v_j
  logic [Xw-1:0]              lin_e [MlinChains];     // e_ij, i = 0 .. 6
  logic [Word-1:0]            lin_x, lin_r;           // GF(2^m) result, GF(p) result (chain s)
  logic [3:0]                 lin_cv_d, lin_cv_q;     // cv
  logic [MlinChains-1:0][3:0] lin_ce_d, lin_ce_q;     // ce_i
  logic [2:0]                 lin_s_d, lin_s_q;       // s, latched at the end of pass 1

  // ---------------------------------------------------------------------------------------
  // Process stage: the words of this cycle
  // ---------------------------------------------------------------------------------------
  logic [Word:0]   sum_ab, dif_ab, sum_vn, dif_vn, dif_dv;
  logic [Word-1:0] shl, shr, shx, v, d, r;
  logic            c1_in, c2_in;
  logic            c1_d, c2_d, sel_d, eq_d, bit_d, cbit_d;
  logic [3:0]      fl, fl_we;

  always_comb begin
    lin_o     = (ca_i[3] ? (4'd0 - ca_i) : 4'd0) + (cb_i[3] ? (4'd0 - cb_i) : 4'd0);
    lin_cv_in = pfirst_q ? 4'd0 : lin_cv_q;
    lin_v     = mul_small(ca_i, a_i) + mul_small(cb_i, b_i) + sext_carry(lin_cv_in);
    lin_cv_d  = lin_v[Xw-1:Word];
    lin_s_d   = '0;
    lin_r     = '0;
    for (int unsigned i = 0; i < MlinChains; i++) begin
      lin_ce_in   = pfirst_q ? 4'd0 : lin_ce_q[i];
      lin_e[i]    = Xw'(lin_v[Word-1:0]) + mul_small(lin_o - 4'(i), n_i) + sext_carry(lin_ce_in);
      lin_ce_d[i] = lin_e[i][Xw-1:Word];
      // chain i's total is >= 0 iff ce_i + cv >= 0 (meaningful after the last word of pass 1)
      if ((i >= 1) && ($signed({lin_ce_d[i][3], lin_ce_d[i]}) + $signed({lin_cv_d[3], lin_cv_d})
                       >= 5'sd0)) begin
        lin_s_d = lin_s_d + 3'd1;
      end
      if (lin_s_q == 3'(i)) lin_r = lin_e[i][Word-1:0];
    end
    lin_x = (ca_i[0] ? a_i : '0) ^ (cb_i[0] ? b_i : '0);
  end

  always_comb begin
    c1_in  = pfirst_q ? 1'b0 : c1_q;
    c2_in  = pfirst_q ? 1'b0 : c2_q;
    sum_ab = {1'b0, a_i} + {1'b0, b_i} + {{Word{1'b0}}, c1_in};
    dif_ab = {1'b0, a_i} - {1'b0, b_i} - {{Word{1'b0}}, c1_in};
    // 2a: shift left, bit in = top bit of the previous word
    shl    = {a_i[Word-2:0], (pfirst_q ? 1'b0 : bit_q)};
    // a >> 1: bit out of word j+1 (port n), 0 above the top word
    shr    = {(plast_q ? 1'b0 : n_i[0]), a_i[Word-1:1]};

    // a << w with the top w bits of the previous word shifted in (SHLX)
    shx    = (a_i << shamt_i) | (pfirst_q ? {Word{1'b0}} : (prevw_q >> (7'(Word) - 7'(shamt_i))));
    win_o  = 5'(a_i >> (7'(Word) - 7'(shamt_i)));

    // V: the first operation, with its own carry chain c1
    unique case (op_i)
      OpMadd:  v = gf2m_i ? (a_i ^ b_i) : sum_ab[Word-1:0];
      OpMsub:  v = gf2m_i ? (a_i ^ b_i) : dif_ab[Word-1:0];
      OpMdbl:  v = shl;
      default: v = a_i;
    endcase
    // D: V corrected by N, with carry chain c2
    sum_vn = {1'b0, v} + {1'b0, n_i} + {{Word{1'b0}}, c2_in};
    dif_vn = {1'b0, v} - {1'b0, n_i} - {{Word{1'b0}}, c2_in};
    // GF(2^m) MDBL: borrow chain of (V xor N) - V decides whether deg(x*a) == deg N
    dif_dv = {1'b0, v ^ n_i} - {1'b0, v} - {{Word{1'b0}}, c2_in};
    if (op_i == OpMsub)                d = sum_vn[Word-1:0];
    else if (gf2m_i)                   d = v ^ n_i;
    else                               d = dif_vn[Word-1:0];

    // defaults: chains keep their value
    c1_d   = c1_q;
    c2_d   = c2_q;
    sel_d  = sel_q;
    eq_d   = (pfirst_q ? 1'b1 : eq_q) & (a_i == b_i);
    bit_d  = a_i[Word-1];
    cbit_d = pfirst_q ? a_i[0] : cbit_q;
    r      = a_i;
    fl     = '0;
    fl_we  = '0;

    unique case (op_i)
      OpAdd, OpSadd: begin
        r    = gf2m_i ? (a_i ^ b_i) : sum_ab[Word-1:0];
        c1_d = gf2m_i ? 1'b0 : sum_ab[Word];
        fl[FlagC]      = c1_d;
        fl[FlagNeg]    = gf2m_i ? 1'b0 : r[Word-1];
        fl_we[FlagC]   = 1'b1;
        fl_we[FlagNeg] = (op_i == OpSadd);
      end
      OpSub, OpSsub: begin
        r    = gf2m_i ? (a_i ^ b_i) : dif_ab[Word-1:0];
        c1_d = gf2m_i ? 1'b0 : dif_ab[Word];
        fl[FlagC]      = c1_d;
        fl[FlagNeg]    = gf2m_i ? 1'b0 : r[Word-1];
        fl_we[FlagC]   = 1'b1;
        fl_we[FlagNeg] = (op_i == OpSsub);
      end
      OpShl1: begin
        r = shl;
        fl[FlagC]    = a_i[Word-1];
        fl_we[FlagC] = 1'b1;
      end
      OpShr1: begin
        r = shr;
        fl[FlagC]    = cbit_d;
        fl_we[FlagC] = 1'b1;
      end
      OpShlw: r = pfirst_q ? '0 : prevw_q;
      OpShlx: r = shx;
      OpShrw: r = plast_q ? '0 : n_i;
      OpCmp: begin
        c1_d = dif_ab[Word];
        fl[FlagEq]    = eq_d;
        fl[FlagLt]    = c1_d;
        fl_we[FlagEq] = 1'b1;
        fl_we[FlagLt] = 1'b1;
      end
      OpMadd: begin
        c1_d  = gf2m_i ? 1'b0 : sum_ab[Word];
        c2_d  = dif_vn[Word];
        sel_d = ~gf2m_i & (c1_d | ~c2_d);
        r     = sel_q ? d : v;
      end
      OpMsub: begin
        c1_d  = dif_ab[Word];
        c2_d  = sum_vn[Word];
        sel_d = ~gf2m_i & c1_d;
        r     = sel_q ? d : v;
      end
      OpMdbl: begin
        c2_d  = gf2m_i ? dif_dv[Word] : dif_vn[Word];
        // carry out of 2a = top bit of a; GF(2^m): the degree test alone
        sel_d = gf2m_i ? c2_d : (a_i[Word-1] | ~c2_d);
        r     = sel_q ? d : v;
      end
      OpMlin:  r = gf2m_i ? lin_x : lin_r;   // written in pass 2, s from pass 1
      OpCswap: r = ppass_q ? hold_q : (cond_i ? b_i : a_i);
      OpLdone: r = {{(Word-1){1'b0}}, (j_q == '0)};
      OpLdz:   r = '0;
      default: r = a_i;   // MOV
    endcase
  end

  // ---------------------------------------------------------------------------------------
  // Sequential logic
  // ---------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iss_q    <= 1'b0;
      pass_q   <= 1'b0;
      j_q      <= '0;
      pv_q     <= 1'b0;
      ppass_q  <= 1'b0;
      pfirst_q <= 1'b0;
      plast_q  <= 1'b0;
      pend_q   <= 1'b0;
      pj_q     <= '0;
    end else begin
      if (start_i) iss_q <= 1'b1;
      if (issuing) begin
        if (iss_last) begin
          iss_q  <= 1'b0;
          j_q    <= '0;
          pass_q <= 1'b0;
        end else if (interleave) begin
          pass_q <= ~pass_q;
          if (pass_q) j_q <= j_q + Jw'(1);
        end else if (iss_last_word) begin
          j_q    <= '0;
          pass_q <= 1'b1;
        end else begin
          j_q <= j_q + Jw'(1);
        end
      end
      pv_q     <= issuing & ~direct;
      ppass_q  <= pass_q;
      pj_q     <= j_q;
      pfirst_q <= (j_q == '0);
      plast_q  <= iss_last_word;
      pend_q   <= iss_last & ~direct;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c1_q     <= 1'b0;
      c2_q     <= 1'b0;
      sel_q    <= 1'b0;
      eq_q     <= 1'b0;
      bit_q    <= 1'b0;
      cbit_q   <= 1'b0;
      prevw_q  <= '0;
      hold_q   <= '0;
      lin_cv_q <= '0;
      lin_ce_q <= '0;
      lin_s_q  <= '0;
    end else if (pv_q) begin
      c1_q     <= c1_d;
      c2_q     <= c2_d;
      eq_q     <= eq_d;
      bit_q    <= bit_d;
      cbit_q   <= cbit_d;
      prevw_q  <= a_i;
      lin_cv_q <= lin_cv_d;
      lin_ce_q <= lin_ce_d;
      if (!ppass_q && plast_q) begin                // end of pass 1
        sel_q   <= sel_d;
        lin_s_q <= lin_s_d;
      end
      if (!ppass_q) hold_q <= cond_i ? a_i : b_i;   // CSWAP: new rb_j
    end
  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------
  assign idx_o       = j_q;
  assign n_from_ra_o = (op_i == OpShr1) || (op_i == OpShrw);
  assign n_idx_o     = n_from_ra_o ? (j_q + Jw'(1)) : j_q;

  always_comb begin
    if (direct) begin
      we_o   = issuing;
      widx_o = j_q;
      wreg_o = 2'd0;
      done_o = issuing & iss_last_word;
    end else begin
      // two-pass ops write in pass 2 only; CSWAP writes ra_j in pass 0 and rb_j in pass 1
      we_o   = pv_q & writes & (ppass_q | ~two_pass);
      widx_o = pj_q;
      wreg_o = interleave ? (ppass_q ? 2'd2 : 2'd1) : 2'd0;
      done_o = pend_q;
    end
    wdata_o    = r;
    flags_o    = fl;
    flags_we_o = done_o ? fl_we : 4'b0;
  end
endmodule
