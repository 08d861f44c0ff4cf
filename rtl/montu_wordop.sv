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
//   MLIN (two passes): rd = ca*a + cb*b mod N, constants ca, cb in -3 .. 3; pass 1 runs six
//     carry chains V + (o - i)*N, i = 1 .. 6, for their signs, pass 2 writes V + (o - s)*N
//     (below)
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
  // magnitudes of the negative constants (0 .. 6), s = #{i in 1 .. 6 : V + (o - i)*N >= 0}.
  // (For ra, rb < N, V + o*N lies in [0, 6N], so rd = V mod N.)
  // Every number is a stream of Word-bit digits, least significant first, with one-bit carries
  // between words, and an overflow h*2^L that is known after the last word:
  //   k*N, k = 0 .. 6, shared: 2N and 4N are the digits shifted left with the top bits of the
  //       previous digit shifted in, 3N = N + 2N and 5N = N + 4N adders, 6N = 2*(3N)
  //   A = |ca|*a: 0, a, 2a or 3a = a + 2a (an adder); likewise B
  //   S = (+-A) + (+-B), where -A = ~A + 1 - 2^L: the +1 of A is the carry into word 0 of S,
  //       the +1 of B the carry into word 0 of every E_i
  //   P_i = o*N - i*N, i = 1 .. 6: subtractors on the modulus side, off the operands' path
  //   E_i = S + P_i = V + (o - i)*N
  // After the last word E_i = Elow_i + (q_i + base_i)*2^L with Elow_i in [0, 2^L), q_i the
  // carries out of S, P_i and E_i, base_i = hA + hB + h_o - h_i - 1 from the overflows (hA of
  // +-A, h_k of k*N), so E_i >= 0 iff q_i + base_i >= 0. Pass 1 latches these six signs (s is
  // their number of ones); pass 2 recomputes S and runs chain 1 with P_1 = o*N - s*N, writing
  // Elow_s word by word.
  // ---------------------------------------------------------------------------------------
  localparam int unsigned MlinChains = 6;

  // {carry out, x + y + c}: the carry enters as an extra low bit (1 + c carries c into bit 0),
  // so synthesis sees a two-operand add, one carry chain
  function automatic logic [Word:0] add_ci(logic [Word-1:0] x, logic [Word-1:0] y, logic c);
    logic [Word:0] sum;
    logic          unused_lsb;
    {sum, unused_lsb} = {1'b0, x, 1'b1} + {1'b0, y, c};
    return sum;
  endfunction

  // x + q >= 0 for a 5-bit two's-complement x and q in 0 .. 3, as logic (no carry chain)
  function automatic logic at_least_neg(logic [4:0] x, logic [1:0] q);
    unique case (q)
      2'd0:    return ~x[4];
      2'd1:    return ~x[4] | (&x[3:0]);                  // x >= -1
      2'd2:    return ~x[4] | (&x[3:1]);                  // x >= -2
      default: return ~x[4] | (x[3] & x[2] & (x[1] | x[0]));   // x >= -3
    endcase
  endfunction

  logic [1:0]          lin_mag_a, lin_mag_b;      // |ca|, |cb|
  logic                lin_neg_a, lin_neg_b;
  logic [2:0]          lin_o;                     // o
  logic [1:0]          lin_ntop_in;               // top bits of the previous N word
  logic                lin_btop_in, lin_n3top_in; // ... of b, of the 3N digit
  logic [Word-1:0]     lin_nm [8];                // digits of k*N, k = 0 .. 6 (7: 0)
  logic [2:0]          lin_nh [8];                // overflow of k*N (0 .. 5), at the last word
  logic [Word-1:0]     lin_a2, lin_b2, lin_a3, lin_b3, lin_da, lin_db, lin_s, lin_sub;
  logic [1:0]          lin_ha, lin_hb;            // overflow of |ca|*a, |cb|*b (0 .. 2)
  logic [3:0]          lin_hab;                   // overflow of +-A +-B, signed (-6 .. 4)
  logic [4:0]          lin_base [1:MlinChains];   // base_i, signed (-12 .. 8)
  logic [Word-1:0]     lin_p [1:MlinChains];      // digits of P_i
  logic [Word-1:0]     lin_e [1:MlinChains];      // digits of E_i
  logic [MlinChains:1] lin_ge;                    // E_i >= 0 (after the last word of pass 1)
  logic [Word-1:0]     lin_x;                     // GF(2^m) result
  logic                lin_c3_d, lin_c5_d, lin_ca3_d, lin_cb3_d, lin_cs_d;
  logic                lin_c3_q, lin_c5_q, lin_ca3_q, lin_cb3_q, lin_cs_q;
  logic [MlinChains:1] lin_cp_d, lin_cp_q, lin_ce_d, lin_ce_q;   // carries of P_i, E_i
  logic [1:0]          lin_ntop_q;
  logic                lin_btop_q, lin_n3top_q;
  logic [MlinChains:1] lin_ge_q;                  // lin_ge, latched at the end of pass 1
  logic [2:0]          lin_cnt;                   // s

  // ---------------------------------------------------------------------------------------
  // Process stage: the words of this cycle
  // ---------------------------------------------------------------------------------------
  logic [Word:0]   sum_ab, dif_ab, sum_vn, dif_vn, dif_dv;
  logic [Word-1:0] shl, shr, shx, v, d, r;
  logic            c1_in, c2_in;
  logic            c1_d, c2_d, sel_d, eq_d, bit_d, cbit_d;
  logic [3:0]      fl, fl_we;

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
      OpMlin:  r = gf2m_i ? lin_x : lin_e[1];   // written in pass 2: Elow_s
      OpCswap: r = ppass_q ? hold_q : (cond_i ? b_i : a_i);
      OpLdone: r = {{(Word-1){1'b0}}, (j_q == '0)};
      OpLdz:   r = '0;
      default: r = a_i;   // MOV
    endcase
  end

  always_comb begin
    lin_neg_a    = ca_i[3];
    lin_neg_b    = cb_i[3];
    lin_mag_a    = 2'(lin_neg_a ? (4'd0 - ca_i) : ca_i);
    lin_mag_b    = 2'(lin_neg_b ? (4'd0 - cb_i) : cb_i);
    lin_o        = 3'(lin_neg_a ? lin_mag_a : 2'd0) + 3'(lin_neg_b ? lin_mag_b : 2'd0);
    // E_i does not grow with i, so lin_ge_q is 1 .. 1 0 .. 0 and s is the number of ones
    lin_cnt      = {lin_ge_q[4], (lin_ge_q[2] & ~lin_ge_q[4]) | lin_ge_q[6],
                    (lin_ge_q[1] & ~lin_ge_q[2]) | (lin_ge_q[3] & ~lin_ge_q[4])
                    | (lin_ge_q[5] & ~lin_ge_q[6])};
    lin_ntop_in  = pfirst_q ? 2'b00 : lin_ntop_q;
    lin_btop_in  = pfirst_q ? 1'b0 : lin_btop_q;
    lin_n3top_in = pfirst_q ? 1'b0 : lin_n3top_q;

    // k*N
    lin_nm[0] = '0;
    lin_nm[1] = n_i;
    lin_nm[2] = {n_i[Word-2:0], lin_ntop_in[1]};
    lin_nm[4] = {n_i[Word-3:0], lin_ntop_in};
    {lin_c3_d, lin_nm[3]} = add_ci(n_i, lin_nm[2], pfirst_q ? 1'b0 : lin_c3_q);
    {lin_c5_d, lin_nm[5]} = add_ci(n_i, lin_nm[4], pfirst_q ? 1'b0 : lin_c5_q);
    lin_nm[6] = {lin_nm[3][Word-2:0], lin_n3top_in};
    lin_nm[7] = '0;
    lin_nh[0] = 3'd0;
    lin_nh[1] = 3'd0;
    lin_nh[2] = {2'b00, n_i[Word-1]};
    lin_nh[4] = {1'b0, n_i[Word-1:Word-2]};
    lin_nh[3] = 3'(lin_c3_d) + lin_nh[2];
    lin_nh[5] = 3'(lin_c5_d) + lin_nh[4];
    lin_nh[6] = {lin_nh[3][1:0], lin_nm[3][Word-1]};
    lin_nh[7] = 3'd0;

    // |ca|*a and |cb|*b (the top bit of the previous a word is bit_q)
    lin_a2 = {a_i[Word-2:0], (pfirst_q ? 1'b0 : bit_q)};
    lin_b2 = {b_i[Word-2:0], lin_btop_in};
    {lin_ca3_d, lin_a3} = add_ci(a_i, lin_a2, pfirst_q ? 1'b0 : lin_ca3_q);
    {lin_cb3_d, lin_b3} = add_ci(b_i, lin_b2, pfirst_q ? 1'b0 : lin_cb3_q);
    unique case (lin_mag_a)
      2'd1:    begin lin_da = a_i;    lin_ha = 2'd0; end
      2'd2:    begin lin_da = lin_a2; lin_ha = {1'b0, a_i[Word-1]}; end
      2'd3:    begin lin_da = lin_a3; lin_ha = 2'(lin_ca3_d) + 2'(a_i[Word-1]); end
      default: begin lin_da = '0;     lin_ha = 2'd0; end
    endcase
    unique case (lin_mag_b)
      2'd1:    begin lin_db = b_i;    lin_hb = 2'd0; end
      2'd2:    begin lin_db = lin_b2; lin_hb = {1'b0, b_i[Word-1]}; end
      2'd3:    begin lin_db = lin_b3; lin_hb = 2'(lin_cb3_d) + 2'(b_i[Word-1]); end
      default: begin lin_db = '0;     lin_hb = 2'd0; end
    endcase

    // S = +-A +-B
    {lin_cs_d, lin_s} = add_ci(lin_da ^ {Word{lin_neg_a}}, lin_db ^ {Word{lin_neg_b}},
                               pfirst_q ? lin_neg_a : lin_cs_q);
    lin_hab = (lin_neg_a ? (4'd15 - 4'(lin_ha)) : 4'(lin_ha))     // -(hA + 1) for -A
            + (lin_neg_b ? (4'd15 - 4'(lin_hb)) : 4'(lin_hb));

    // P_i = o*N - i*N (pass 2, chain 1: o*N - s*N) and E_i = S + P_i
    for (int unsigned i = 1; i <= MlinChains; i++) begin
      lin_sub = (i == 1 && ppass_q) ? lin_nm[lin_cnt] : lin_nm[i];
      {lin_cp_d[i], lin_p[i]} = add_ci(lin_nm[lin_o], ~lin_sub, pfirst_q ? 1'b1 : lin_cp_q[i]);
      {lin_ce_d[i], lin_e[i]} = add_ci(lin_s, lin_p[i], pfirst_q ? lin_neg_b : lin_ce_q[i]);
      lin_base[i] = 5'({{1{lin_hab[3]}}, lin_hab}) + 5'(lin_nh[lin_o]) - 5'(lin_nh[i]) - 5'd1;
      // the carry out of E_i comes last
      lin_ge[i]   = lin_ce_d[i] ? at_least_neg(lin_base[i], 2'(lin_cs_d) + 2'(lin_cp_d[i]) + 2'd1)
                                : at_least_neg(lin_base[i], 2'(lin_cs_d) + 2'(lin_cp_d[i]));
    end
    lin_x   = (ca_i[0] ? a_i : '0) ^ (cb_i[0] ? b_i : '0);
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
      lin_c3_q    <= 1'b0;
      lin_c5_q    <= 1'b0;
      lin_ca3_q   <= 1'b0;
      lin_cb3_q   <= 1'b0;
      lin_cs_q    <= 1'b0;
      lin_cp_q    <= '0;
      lin_ce_q    <= '0;
      lin_ntop_q  <= '0;
      lin_btop_q  <= 1'b0;
      lin_n3top_q <= 1'b0;
      lin_ge_q    <= '0;
    end else if (pv_q) begin
      c1_q     <= c1_d;
      c2_q     <= c2_d;
      eq_q     <= eq_d;
      bit_q    <= bit_d;
      cbit_q   <= cbit_d;
      prevw_q  <= a_i;
      lin_c3_q    <= lin_c3_d;
      lin_c5_q    <= lin_c5_d;
      lin_ca3_q   <= lin_ca3_d;
      lin_cb3_q   <= lin_cb3_d;
      lin_cs_q    <= lin_cs_d;
      lin_cp_q    <= lin_cp_d;
      lin_ce_q    <= lin_ce_d;
      lin_ntop_q  <= n_i[Word-1:Word-2];
      lin_btop_q  <= b_i[Word-1];
      lin_n3top_q <= lin_nm[3][Word-1];
      if (!ppass_q && plast_q) begin                // end of pass 1
        sel_q   <= sel_d;
        lin_ge_q <= lin_ge;
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
