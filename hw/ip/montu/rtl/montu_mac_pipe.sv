// One pipelined lane of the dual-field multiply-accumulate (montu_mont with Pipelined = 1).
// It takes one word per cycle and computes, for the words j = 0, 1, .. of a row (first_i marks
// j = 0),
//   (ca_j, u_j) = a_j * b_j + c_j + ca_{j-1},   ca_{-1} = 0
// ("*" integer and "+" integer in GF(p); carry-less and XOR in GF(2^m), where ca_j is then the
// high half of the carry-less product). The carry recurrence never leaves the last stage: with
// H_j the high word of a_j * b_j and k_j (0 .. 6) the carries out of the low word,
//   u_j  = lo(a_j * b_j) + c_j + H_{j-1} + k_{j-1}   mod B,   ca_j = H_j + k_j,
// so a carry word is needed only one stage later, for the row's end.
//
// Stages (a word entering in cycle t):
//   t     operands registered (in the MULT18X18D's input registers, and in the fabric for the
//         carry-less rows)
//   t+1   16 x 16 partial products, each in its MULT18X18D's output register (montu_mul_reg
//         with InReg: no fabric flip-flop and no fabric net between the operands, the block
//         and its product); a and b wait a cycle
//   t+2   rows: a * (16-bit chunk k of b), one adder each (GF(2^m): the carry-less rows, from
//         the delayed a and b: 128 flip-flops instead of N rows of Word + 16)
//   t+3   accumulate: u_j, H_j, k_j
// u_o is valid in cycle t+4 and ca_o (the carry word ca_j) in cycle t+5. c_j enters only the
// accumulate: with LateC = 1 it is taken in cycle t+2 (two cycles after a_j and b_j), which
// lets montu_mont feed it from a recurrence two beats longer.
// The datapath registers have no reset: every value is written before it is read.
module montu_mac_pipe #(
  parameter int unsigned Word  = 64,
  parameter bit          LateC = 1'b0
) (
  input  logic            clk_i,
  input  logic            gf2m_i,   // held for the whole command
  input  logic            first_i,  // this word starts a row (j = 0)
  input  logic [Word-1:0] a_i,
  input  logic [Word-1:0] b_i,
  input  logic [Word-1:0] c_i,
  output logic [Word-1:0] u_o,
  output logic [Word-1:0] ca_o
);
  localparam int unsigned C  = 16;          // chunk width (one MULT18X18D)
  localparam int unsigned N  = Word / C;    // chunks per word
  localparam int unsigned Rw = Word + C;    // row width

  // Carry-less product of a word and a chunk.
  function automatic logic [Rw-1:0] clmul_row(logic [Word-1:0] a, logic [C-1:0] b);
    logic [Rw-1:0] acc;
    acc = '0;
    for (int unsigned k = 0; k < C; k++) begin
      if (b[k]) acc = acc ^ (Rw'(a) << k);
    end
    return acc;
  endfunction

  // t: operands (for the carry-less rows; the products' are in their blocks)
  logic [Word-1:0] a_q, b_q;
  logic            first_q;
  // t+1: partial products p[k][l] = chunk l of a times chunk k of b; a, b for the carry-less rows
  logic [N-1:0][N-1:0][2*C-1:0] prod_q;
  logic [Word-1:0] a1_q, b1_q;
  logic            first1_q;
  // t+2: rows
  logic [N-1:0][Rw-1:0] row_q;
  logic [Word-1:0] c2_q;
  logic            first2_q;
  // t+3: accumulate
  logic [Word-1:0] u_q, hi_q;
  logic [2:0]      k_q;
  // t+4: carry word
  logic [Word-1:0] ca_q;

  for (genvar k = 0; k < int'(N); k++) begin : g_prod_k
    for (genvar l = 0; l < int'(N); l++) begin : g_prod_l
      montu_mul_reg #(.AW(C), .BW(C), .InReg(1'b1)) u_pp (
        .clk_i, .en_i(1'b1), .a_i(a_i[C*l +: C]), .b_i(b_i[C*k +: C]), .p_o(prod_q[k][l])
      );
    end
  end

  always_ff @(posedge clk_i) begin
    a_q     <= a_i;
    b_q     <= b_i;
    first_q <= first_i;
    a1_q     <= a_q;
    b1_q     <= b_q;
    first1_q <= first_q;
  end

  // c_j reaches the accumulate with its word: through two registers, or straight from c_i in
  // cycle t+2 (LateC)
  logic [Word-1:0] c_acc;    // c_j in cycle t+2
  if (LateC) begin : g_late_c
    assign c_acc = c_i;
  end else begin : g_early_c
    logic [Word-1:0] c_q, c1_q;
    always_ff @(posedge clk_i) begin
      c_q  <= c_i;
      c1_q <= c_q;
    end
    assign c_acc = c1_q;
  end

  // Row k = sum over l of p[k][l] << C*l: the even and the odd l do not overlap, so a row is
  // one two-operand add.
  always_ff @(posedge clk_i) begin
    for (int unsigned k = 0; k < N; k++) begin
      logic [Rw-1:0] even, odd;
      even = '0;
      odd  = '0;
      for (int unsigned l = 0; l < N; l += 2) even[C*l +: 2*C] = prod_q[k][l];
      for (int unsigned l = 1; l < N; l += 2) odd[C*(l-1) +: 2*C] = prod_q[k][l];
      row_q[k] <= gf2m_i ? clmul_row(a1_q, b1_q[C*k +: C]) : (even + (odd << C));
    end
    c2_q     <= c_acc;
    first2_q <= first1_q;
  end

  // Accumulate: the low word with the carry recurrence, the high word for the next word.
  logic [Word+2:0] lo_sum;
  logic [Word-1:0] hi_sum, lo_xor, hi_xor, hi_prev;
  logic [2:0]      k_prev;
  always_comb begin
    hi_prev = first2_q ? '0 : hi_q;
    k_prev  = first2_q ? '0 : k_q;
    lo_sum  = (Word+3)'(c2_q) + (Word+3)'(hi_prev) + (Word+3)'(k_prev);
    hi_sum  = '0;
    lo_xor  = c2_q ^ hi_prev;
    hi_xor  = '0;
    for (int unsigned k = 0; k < N; k++) begin
      logic [2*Word-1:0] shifted;
      shifted = (2*Word)'(row_q[k]) << (C*k);
      lo_sum  = lo_sum + (Word+3)'(shifted[Word-1:0]);
      hi_sum  = hi_sum + shifted[2*Word-1:Word];
      lo_xor  = lo_xor ^ shifted[Word-1:0];
      hi_xor  = hi_xor ^ shifted[2*Word-1:Word];
    end
  end

  always_ff @(posedge clk_i) begin
    u_q  <= gf2m_i ? lo_xor : lo_sum[Word-1:0];
    k_q  <= gf2m_i ? 3'd0 : lo_sum[Word+2:Word];
    hi_q <= gf2m_i ? hi_xor : hi_sum;
    ca_q <= hi_q + Word'(k_q);
  end

  assign u_o  = u_q;
  assign ca_o = ca_q;
endmodule
