// The 3M processing elements of EWBR4CMMM and their wiring (Verma et al. Fig. 5, the dependency
// graph): M reduction PEs (PE0 with the quotient logic), M XPEs and M YPEs. Column j holds word j.
//
//   PE_{j-1} -> PE_j       q[i], c_j, "runs" (registered: PE_j runs iteration i in clock i + j)
//   PE_{j+1} -> PE_j       S[i-1]^{j+1}_{3..2} into AC_j (combinational, same clock)
//   PE_j -> XPE_j, YPE_j   T[i-1]^j (the T register, read in the clock that overwrites it)
//   XPE_{j-1} -> XPE_j     the R digit, "runs", T^{j-1}_{W-1} (for 2T), cx1, cx2 (registered)
//   YPE_{j-1} -> YPE_j     the P digit, "runs", T^{j-1}_{W-1}, cy1, cy2 (registered)
//
// PEs at and above the runtime m (en_i[j] = 0) idle: their T, X and Y words stay 0, so PE_{m-1}
// sees zeros from above (bt = 0, no early bits: d = its carry out, as the golden model's top word).
module verma_pe_array #(
  parameter int unsigned W = 48,
  parameter int unsigned M = 22
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                clear_i,     // SETLEN, WIPE: every register 0
  input  logic                load_i,      // a pass's load clock: T = P, X = Y = 0
  input  logic [M-1:0][W-1:0] load_words_i,
  input  logic [M-1:0]        en_i,        // PE j works (j < m)
  input  logic                red_run_i,   // PE0 runs reduction iteration i = clock (1 .. I)
  input  logic                acc_run_i,   // XPE0, YPE0 run accumulation iteration i = clock
  input  logic [1:0]          digit_x_i,   // r_{I-i+1} for XPE0
  input  logic [1:0]          digit_y_i,   // p_{I-i+1} for YPE0
  input  logic                fix_i,       // the clock after the f = 1 clock, X == N: X = 0
  input  logic                n1_i,
  input  logic [M-1:0][W-1:0] n_i,         // words of n, 2n, 3n
  input  logic [M-1:0][W-1:0] twn_i,
  input  logic [M-1:0][W-1:0] thn_i,
  output logic [M-1:0][W-1:0] t_o,         // the T words (the reduction PEs)
  output logic [M-1:0][W-1:0] x_o,         // X (the XPEs)
  output logic [M-1:0][W-1:0] y_o,         // Y (the YPEs)
  output logic                busy_o       // an iteration runs somewhere in the array
);
  // Between the columns: index j is what enters column j from the left (j = 0: from the pass
  // controller); early[j] leaves column j to the left, early[M] = 0 (nothing above the top word).
  logic [M:0]      rrun, rc, xrun, xmsb, xc1, xc2, yrun, ymsb, yc1, yc2;
  logic [M:0][1:0] rq, xdig, ydig, early;

  assign rrun[0]  = red_run_i;
  assign rq[0]    = 2'd0;
  assign rc[0]    = 1'b0;
  assign early[M] = 2'd0;
  assign xrun[0]  = acc_run_i;
  assign xdig[0]  = digit_x_i;
  assign xmsb[0]  = 1'b0;
  assign xc1[0]   = 1'b0;
  assign xc2[0]   = 1'b0;
  assign yrun[0]  = acc_run_i;
  assign ydig[0]  = digit_y_i;
  assign ymsb[0]  = 1'b0;
  assign yc1[0]   = 1'b0;
  assign yc2[0]   = 1'b0;

  for (genvar j = 0; j < M; j++) begin : g_col
    // bits 1..0 of word j+1 of n, 2n, 3n (0 above the top word)
    logic [1:0] n_up, twn_up, thn_up;
    if (j + 1 < M) begin : g_up
      assign n_up   = n_i[j+1][1:0];
      assign twn_up = twn_i[j+1][1:0];
      assign thn_up = thn_i[j+1][1:0];
    end else begin : g_top
      assign n_up   = 2'd0;
      assign twn_up = 2'd0;
      assign thn_up = 2'd0;
    end

    verma_rpe #(.W(W), .First(j == 0)) u_rpe (
      .clk_i, .rst_ni,
      .clear_i    (clear_i),
      .load_i     (load_i),
      .load_word_i(load_words_i[j]),
      .en_i       (en_i[j]),
      .run_i      (rrun[j]),
      .q_i        (rq[j]),
      .c_i        (rc[j]),
      .n1_i       (n1_i),
      .n_i        (n_i[j]),
      .twn_i      (twn_i[j]),
      .thn_i      (thn_i[j]),
      .n_up_i     (n_up),
      .twn_up_i   (twn_up),
      .thn_up_i   (thn_up),
      .early_i    (early[j+1]),
      .early_o    (early[j]),
      .run_o      (rrun[j+1]),
      .q_o        (rq[j+1]),
      .c_o        (rc[j+1]),
      .t_o        (t_o[j])
    );

    verma_ape #(.W(W)) u_xpe (
      .clk_i, .rst_ni,
      .clear_i(clear_i || load_i || fix_i),
      .en_i   (en_i[j]),
      .run_i  (xrun[j]),
      .digit_i(xdig[j]),
      .t_i    (t_o[j]),
      .msb_i  (xmsb[j]),
      .cx1_i  (xc1[j]),
      .cx2_i  (xc2[j]),
      .run_o  (xrun[j+1]),
      .digit_o(xdig[j+1]),
      .msb_o  (xmsb[j+1]),
      .cx1_o  (xc1[j+1]),
      .cx2_o  (xc2[j+1]),
      .acc_o  (x_o[j])
    );

    verma_ape #(.W(W)) u_ype (
      .clk_i, .rst_ni,
      .clear_i(clear_i || load_i),
      .en_i   (en_i[j]),
      .run_i  (yrun[j]),
      .digit_i(ydig[j]),
      .t_i    (t_o[j]),
      .msb_i  (ymsb[j]),
      .cx1_i  (yc1[j]),
      .cx2_i  (yc2[j]),
      .run_o  (yrun[j+1]),
      .digit_o(ydig[j+1]),
      .msb_o  (ymsb[j+1]),
      .cx1_o  (yc1[j+1]),
      .cx2_o  (yc2[j+1]),
      .acc_o  (y_o[j])
    );
  end

  // an iteration runs in a working column (the run bit a PE_{m-1} hands to PE_m dies there)
  assign busy_o = |((rrun[M-1:0] | xrun[M-1:0] | yrun[M-1:0]) & en_i);

  // What leaves the array's edges: PE0's early bits (nothing below word 0), and what the top
  // column would hand to a column M (its carries are dropped: Walter's bound).
  logic unused_edges;
  assign unused_edges = ^{early[0], rrun[M], xrun[M], yrun[M], rq[M], rc[M], xdig[M], xmsb[M],
                          xc1[M], xc2[M], ydig[M], ymsb[M], yc1[M], yc2[M]};
endmodule
