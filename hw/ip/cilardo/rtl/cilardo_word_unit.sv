// The pipelined w-bit dual-field word unit of cilardo2008 (Fig. 8, built of the parallel
// Montgomery unit of Figs. 4-6 and the CLA of Fig. 7). One slot of Alg. 2 (FIOS) enters per
// clock: the words A_i, N_i, P_i, the multiplier word B_j (and b_{jw-1}) of the row, and the
// slot's kind. It computes
//   S = P_i + C + sum_{t<w/2} (AA_t + NN_t) * 4^t   [+ A_i * b_{mw-1} * 2^w in the last row]
// with AA_t = (Booth digit t of B_j) * A_i and NN_t = Q_t * N_i (Alg. 2 steps 4-8 on radix-4
// recoded digits, "+" the dual-field sum), C the carry S >> w of the slot before in the row,
// and gives P_{i-1} = S mod 2^w and the next C = S >> w (signed). Slot m of a row (the carry
// slot, Alg. 2 step 9) has A = N = P = 0 and gives P_{m-1} = C, w+3 bits signed.
//
// Stages (w = 64; one per clock, Fig. 8 read top to bottom; R_k = right 16x16, L_k = left
// 48x16 module of digit rows 8k .. 8k+7; L_k also adds the window columns of R_k's last MMG
// row and, on a first word, retires R_k's window, whose carry gam goes to R_{k+1}):
//   1 R_0   2 L_0   3 R_1   4 L_1   5 R_2   6 L_2   7 R_3
//   8 L_3, then the extra PPG row t = w/2 (digit (0, 0, b_{w-1}), last row of a product only:
//     it makes B unsigned when its top bit is set; no modulus multiple at that position), the
//     carry row C (on a first word: the carry of the retired low columns instead), and the
//     dual-field carry-look-ahead adder (Fig. 7) -> output register.
// The running sum travels between stages as a signed carry-save pair (S, C) of SumW = 2w+4
// bits, modulo 2^SumW: the pair starts as (P_i sign-extended, K) where K is the Burgess
// constant of the 2*(w/2) inverted sign bits (0 in GF(2^n)). A word entering at clock t has
// its P word in the output register at clock t+8 (latency 8).
module cilardo_word_unit
  import cilardo_pkg::*;
#(
  parameter  int unsigned Word   = 64,
  parameter  int unsigned Jw     = 4,            // width of a slot number
  localparam int unsigned Digits = Word / 8,     // digit rows per module
  localparam int unsigned NumDigits = Word / 2,  // w/2 Booth / quotient digits per word
  localparam int unsigned SumW   = 2 * Word + 4
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     fsel_i,      // 1: GF(N), 0: GF(2^n); constant in a product
  // the slot entering stage 1
  input  logic                     v_i,
  input  logic                     carry_i,     // slot m: P_{m-1} := C
  input  logic                     first_i,     // slot 0: first_word
  input  logic                     lastrow_i,   // row m-1
  input  logic [Jw-1:0]            idx_i,       // slot number i
  input  logic [Word-1:0]          a_i,         // A_i, N_i (any value on the carry slot, where
  input  logic [Word-1:0]          n_i,         // the unit takes them as 0)
  input  logic [Word-1:0]          b_i,
  input  logic                     bprev_i,
  input  logic [Word+2:0]          p_i,         // P_i, signed (the top word needs w+3 bits)
  // the output register: P word idx_o = i-1 of slot i (not for slot 0, whose low word is 0)
  output logic                     out_v_o,
  output logic                     out_carry_o, // the top word P_{m-1}
  output logic                     out_lastrow_o,
  output logic [Jw-1:0]            out_idx_o,
  output logic [Word+2:0]          out_p_o,     // w+3 bits signed (word slots: 0 .. 2^w-1)
  output logic [Word-1:0]          out_n_o,     // N_{idx}, beside P_{idx}
  // trace: the digits of a row, when its first word is in the output register
  output logic                     tr_v_o,
  output digit_t [NumDigits:0]     tr_bd_o,
  output digit_t [NumDigits-1:0]   tr_qd_o
);
  // Burgess constant: -2^(w+1+2t) for each of the w/2 PPG and w/2 MMG rows, mod 2^SumW
  function automatic logic [SumW-1:0] burgess_k();
    logic [SumW-1:0] k;
    k = '0;
    for (int unsigned t = 0; t < NumDigits; t++) begin
      k = k - (SumW'(1) << (Word + 2 + 2 * t));   // two rows: 2 * 2^(w+1+2t)
    end
    return k;
  endfunction
  localparam logic [SumW-1:0] K = burgess_k();

  typedef struct packed {
    logic                   v;
    logic                   carry;
    logic                   first;
    logic                   lastrow;
    logic [Jw-1:0]          idx;
    logic [Word-1:0]        a;
    logic [Word-1:0]        n;
    logic [Word-1:0]        b;
    logic                   bprev;
    logic [SumW-1:0]        s;
    logic [SumW-1:0]        c;
    logic [1:0]             gam;     // first word: carry of the retired low columns
    digit_t [NumDigits-1:0] bd;      // digits of the rows passed so far (L_k and the trace)
    digit_t [NumDigits-1:0] qd;
  } pipe_t;

  pipe_t pin;
  pipe_t st_d [1:NumStages];
  pipe_t st_q [1:NumStages-1];

  // ---------------------------------------------------------------------------------------
  // Stage 1 input: (S, C) = (P_i, K)
  // ---------------------------------------------------------------------------------------
  always_comb begin
    pin         = '0;
    pin.v       = v_i;
    pin.carry   = carry_i;
    pin.first   = first_i;
    pin.lastrow = lastrow_i;
    pin.idx     = idx_i;
    pin.a       = carry_i ? '0 : a_i;
    pin.n       = carry_i ? '0 : n_i;
    pin.b       = b_i;
    pin.bprev   = bprev_i;
    pin.s       = SumW'($signed(p_i));
    pin.c       = fsel_i ? K : '0;
  end

  // ---------------------------------------------------------------------------------------
  // Stages 1 .. 8: R_k (stage 2k+1) and L_k (stage 2k+2)
  // ---------------------------------------------------------------------------------------
  for (genvar k = 0; k < NumGroups; k++) begin : g_group
    pipe_t           rin, lin;
    logic [Word-1:0] la_a, la_n;   // A_i, N_i for R_k's look-ahead: R_0's skip the carry-slot
                                   // zeroing (the look-ahead's digits are unused there)
    if (k == 0) begin : g_in_first
      assign rin  = pin;
      assign la_a = a_i;
      assign la_n = n_i;
    end else begin : g_in_next
      assign rin  = st_q[2*k];
      assign la_a = rin.a;
      assign la_n = rin.n;
    end
    assign lin = st_q[2*k+1];

    // ---- right module R_k: quotient digits and the low columns of rows 8k .. 8k+7
    logic [SumW-1:0]     r_s, r_c;
    digit_t [Digits-1:0] r_bd, r_qd;
    cilardo_right #(.Word(Word), .Group(k)) u_right (
      .clk_i, .rst_ni,
      .v_i(rin.v), .first_i(rin.first), .fsel_i,
      .a_i(rin.a), .n_i(rin.n), .la_a_i(la_a), .la_n_i(la_n), .b_i(rin.b), .bprev_i(rin.bprev),
      .s_i(rin.s), .c_i(rin.c), .gam_i(rin.gam),
      .s_o(r_s), .c_o(r_c), .bd_o(r_bd), .qd_o(r_qd)
    );
    always_comb begin
      st_d[2*k+1]     = rin;
      st_d[2*k+1].s   = r_s;
      st_d[2*k+1].c   = r_c;
      st_d[2*k+1].bd[k*Digits +: Digits] = r_bd;
      st_d[2*k+1].qd[k*Digits +: Digits] = r_qd;
    end

    // ---- left module L_k: the other columns of the same rows; retires R_k's window
    logic [SumW-1:0] l_s, l_c;
    logic [1:0]      l_gam;
    cilardo_left #(.Word(Word), .Group(k)) u_left (
      .clk_i, .rst_ni, .v_i(lin.v),
      .first_i(lin.first), .fsel_i, .a_i(lin.a), .n_i(lin.n),
      .bd_i(lin.bd[k*Digits +: Digits]), .qd_i(lin.qd[k*Digits +: Digits]),
      .s_i(lin.s), .c_i(lin.c), .gam_i(lin.gam), .s_o(l_s), .c_o(l_c), .gam_o(l_gam)
    );
    always_comb begin
      st_d[2*k+2]     = lin;
      st_d[2*k+2].s   = l_s;
      st_d[2*k+2].c   = l_c;
      st_d[2*k+2].gam = l_gam;
    end
  end

  // pipeline registers: the valid bits with reset, the data without
  for (genvar k = 1; k < NumStages; k++) begin : g_stage_reg
    logic  v_q;
    pipe_t data_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v_q <= 1'b0;
      else         v_q <= st_d[k].v;
    end
    always_ff @(posedge clk_i) begin
      data_q <= st_d[k];
    end
    always_comb begin
      st_q[k]   = data_q;
      st_q[k].v = v_q;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Stage 8, after L_3: the extra PPG row, the carry row and the CLA
  // ---------------------------------------------------------------------------------------
  pipe_t           fin;
  digit_t          bd_x;         // the (w/2+1)-th PPG's digit: (0, 0, b_{w-1}), last row only
  logic [Word+1:0] mult_x;
  logic            one_x;
  logic [SumW-1:0] x_v, s_x, c_x, cy_v, s_f, c_f, total;
  logic [Word+3:0] cy_q;         // C of the slot before (w+4 bits signed)

  assign fin = st_d[NumStages];

  cilardo_booth_enc u_benc_x (
    .b2_i(1'b0), .b1_i(1'b0), .b0_i(fin.lastrow & fin.b[Word-1]), .fsel_i,
    .inv_o(bd_x.inv), .trp_o(bd_x.trp), .shl_o(bd_x.shl)
  );
  cilardo_gen #(.Word(Word)) u_ppg_x (
    .x_i(fin.a), .inv_i(bd_x.inv), .trp_i(bd_x.trp), .shl_i(bd_x.shl), .fsel_i,
    .mult_o(mult_x), .one_o(one_x)
  );
  // digit 0 or +1: never negative, so no Burgess bit and no constant
  assign x_v = SumW'(mult_x[Word:0]) << Word;
  cilardo_csa #(.Width(SumW), .Lo(Word)) u_csa_x (
    .fsel_i, .s_i(fin.s), .c_i(fin.c), .x_i(x_v), .s_o(s_x), .c_o(c_x)
  );

  // carry row: C of the slot before in the row; a first word has none, and its retired low
  // columns' carry goes in the free row instead (the low w columns are all 0 by then)
  assign cy_v = fin.first ? (SumW'(fin.gam) << Word) : SumW'($signed(cy_q));
  cilardo_csa #(.Width(SumW), .Lo(0)) u_csa_c (
    .fsel_i, .s_i(s_x), .c_i(c_x), .x_i(cy_v), .s_o(s_f), .c_o(c_f)
  );

  cilardo_cla #(.Width(SumW)) u_cla (
    .fsel_i, .a_i(s_f), .b_i(c_f), .sum_o(total)
  );

  // ---------------------------------------------------------------------------------------
  // Output register
  // ---------------------------------------------------------------------------------------
  logic                   out_v_q, out_carry_q, out_lastrow_q, tr_v_q;
  logic [Jw-1:0]          out_idx_q;
  logic [Word+2:0]        out_p_q;
  logic [Word-1:0]        n_q, nprev_q;
  digit_t [NumDigits:0]   tr_bd_q;
  digit_t [NumDigits-1:0] tr_qd_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_v_q <= 1'b0;
      tr_v_q  <= 1'b0;
    end else begin
      out_v_q <= fin.v & ~fin.first;
      tr_v_q  <= fin.v & fin.first;
    end
  end

  always_ff @(posedge clk_i) begin
    out_carry_q   <= fin.carry;
    out_lastrow_q <= fin.lastrow;
    out_idx_q     <= fin.idx - Jw'(1);
    out_p_q       <= fin.carry ? total[Word+2:0] : {3'b000, total[Word-1:0]};
    cy_q          <= total[SumW-1:Word];
    n_q           <= fin.n;
    nprev_q       <= n_q;
    tr_bd_q       <= {bd_x, fin.bd};
    tr_qd_q       <= fin.qd;
  end

  assign out_v_o       = out_v_q;
  assign out_carry_o   = out_carry_q;
  assign out_lastrow_o = out_lastrow_q;
  assign out_idx_o     = out_idx_q;
  assign out_p_o       = out_p_q;
  assign out_n_o       = nprev_q;
  assign tr_v_o        = tr_v_q;
  assign tr_bd_o       = tr_bd_q;
  assign tr_qd_o       = tr_qd_q;

  logic unused_x;
  assign unused_x = one_x ^ mult_x[Word+1] ^ fin.bprev;   // the extra digit is 0 or +1

`ifndef SYNTHESIS
  // `disable iff (!rst_ni)` samples the asynchronous reset synchronously, by design
  /* verilator lint_off SYNCASYNCNET */
  // Alg. 2's first word: Q_j's digits clear the low word (S mod 2^w = 0)
  FirstWordCleared: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (fin.v && fin.first) |-> (total[Word-1:0] == '0))
    else $error("cilardo_word_unit: the quotient digits left a nonzero low word");
  // the top word P_{m-1} fits w+3 bits signed
  TopWordFits: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (fin.v && fin.carry) |->
        ((total[SumW-1:Word+2] == '0) || (total[SumW-1:Word+2] == '1)))
    else $error("cilardo_word_unit: the top word of P does not fit w+3 bits");
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
