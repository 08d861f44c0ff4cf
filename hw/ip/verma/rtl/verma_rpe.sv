// Reduction processing element PE_j of EWBR4CMMM (Verma et al. §4.2, Figs. 4-5): word j of the
// common multiplicand's radix-4 Montgomery reduction T[i] = (T[i-1] + q[i]*n) / 4, in clock i + j.
//
//   two 4:1 MUX (by q[i]):  PP = word j of {0, n, 2n, 3n},  bt = bits 1..0 of word j+1 of it
//   W-bit adder:            c_{j+1}, S[i]^j = T[i-1]^j + PP + c_j           (step 16)
//   AC_j (early word):      d_j = S[i-1]^{j+1}_{3..2} + bt + c_{j+1}        (step 17)
//   T register:             T[i]^j = (d_j, S[i]^j_{W-1..2})                 (step 19)
//
// PE0 (First = 1) also holds the quotient logic (Fig. 4): q[i] from T[i-1]^0 bits 1..0 and n1.
// The quotient digit, the carry and the "iteration runs" bit go to PE_{j+1} through registers,
// so PE_{j+1} runs iteration i one clock later (the wavefront). PE_j hands its own S bits 3..2
// (T bits 1..0 while it has not started: S[0] = P) to PE_{j-1}'s AC unit, combinationally: PE_{j+1}
// runs iteration i-1 in the same clock as PE_j runs iteration i.
//
// The W-bit adder is a plain `+` (Yosys maps it to the ECP5's CCU2C carry chain, the paper's
// DSP48E adder).
module verma_rpe #(
  parameter int unsigned W     = 48,
  parameter bit          First = 1'b0     // PE0: computes q[i] (the quotient logic)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clear_i,           // SETLEN, WIPE: T = 0
  input  logic         load_i,            // the pass's load clock: T[0]^j = word j of P
  input  logic [W-1:0] load_word_i,
  input  logic         en_i,              // j < m (PEs at and above m idle)
  input  logic         run_i,             // iteration i = clock - j runs here (1 <= i <= I)
  input  logic [1:0]   q_i,               // q[i] from PE_{j-1} (PE_j, j > 0)
  input  logic         c_i,               // c_j from PE_{j-1} (0 for PE0)
  input  logic         n1_i,              // n bit 1 (PE0's quotient logic)
  input  logic [W-1:0] n_i,               // word j of n, 2n, 3n
  input  logic [W-1:0] twn_i,
  input  logic [W-1:0] thn_i,
  input  logic [1:0]   n_up_i,            // bits 1..0 of word j+1 of n, 2n, 3n
  input  logic [1:0]   twn_up_i,
  input  logic [1:0]   thn_up_i,
  input  logic [1:0]   early_i,           // from PE_{j+1}: S[i-1]^{j+1} bits 3..2
  output logic [1:0]   early_o,           // to PE_{j-1}: S[i]^j bits 3..2 (T bits 1..0 if idle)
  output logic         run_o,             // to PE_{j+1}, registered
  output logic [1:0]   q_o,
  output logic         c_o,
  output logic [W-1:0] t_o                // T^j
);
  logic [W-1:0] t_q, t_d;
  logic         run_q;
  logic [1:0]   q_q;
  logic         c_q;

  // -------------------------------------------------------------------------------------------
  // Quotient: PE0 computes it (steps 4-5), the others take it from their left neighbour
  // -------------------------------------------------------------------------------------------
  logic [1:0] q;
  if (First) begin : g_quotient
    verma_quotient u_quotient (
      .t_i (t_q[1:0]),
      .n1_i(n1_i),
      .q_o (q)
    );
    logic unused_q;
    assign unused_q = ^q_i;
  end else begin : g_forward
    assign q = q_i;
    logic unused_n1;
    assign unused_n1 = n1_i;
  end

  // -------------------------------------------------------------------------------------------
  // The two 4:1 MUX (steps 7-15)
  // -------------------------------------------------------------------------------------------
  logic [W-1:0] pp;
  logic [1:0]   bt;
  always_comb begin
    unique case (q)
      2'd1:    begin pp = n_i;   bt = n_up_i;   end
      2'd2:    begin pp = twn_i; bt = twn_up_i; end
      2'd3:    begin pp = thn_i; bt = thn_up_i; end
      default: begin pp = '0;    bt = 2'd0;     end
    endcase
  end

  // -------------------------------------------------------------------------------------------
  // W-bit adder (step 16) and AC_j (step 17)
  // -------------------------------------------------------------------------------------------
  logic [W:0]   sum;
  logic [W-1:0] s;
  logic         c_out;
  logic [1:0]   d;
  assign sum   = {1'b0, t_q} + {1'b0, pp} + {{W{1'b0}}, c_i};
  assign s     = sum[W-1:0];
  assign c_out = sum[W];

  verma_early_word u_ac (
    .prev_i(early_i),
    .bt_i  (bt),
    .c_i   (c_out),
    .d_o   (d)
  );

  // S[i]^j bits 1..0 are 0 by the choice of q (T + q*n = 0 mod 4 in word 0; in word j they are
  // the bits d_{j-1} PE_{j-1} already took): the shift right by 2 drops them
  logic unused_s;
  assign unused_s = ^s[1:0];

  logic active;
  assign active  = run_i && en_i;
  assign early_o = active ? s[3:2] : t_q[1:0];

  // -------------------------------------------------------------------------------------------
  // T register (step 19) and the registers to PE_{j+1}
  // -------------------------------------------------------------------------------------------
  always_comb begin
    if (clear_i)     t_d = '0;
    else if (load_i) t_d = en_i ? load_word_i : '0;
    else if (active) t_d = {d, s[W-1:2]};
    else             t_d = t_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      t_q   <= '0;
      run_q <= 1'b0;
      q_q   <= 2'd0;
      c_q   <= 1'b0;
    end else begin
      t_q   <= t_d;
      run_q <= active && !clear_i;
      q_q   <= q;
      c_q   <= active && c_out;
    end
  end

  assign t_o   = t_q;
  assign run_o = run_q;
  assign q_o   = q_q;
  assign c_o   = c_q;
endmodule
