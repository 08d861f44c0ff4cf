// The pipelined Montgomery quotient-digit unit (montu_mont with Pipelined = 1):
//   t = u * w mod 2^Word            (GF(p))
//   t = u(x) * w(x) mod x^Word      (GF(2^m), carry-less)
// Only the partial products below 2^Word are built. Stages (u entering in cycle c):
//   c     16 x 16 partial products p[k][l] = chunk l of u times chunk k of w, k + l < Word/16,
//         each in its MULT18X18D's output register (montu_mul_reg); u waits a cycle (w is held)
//   c+1   rows: u * (chunk k of w) mod 2^(Word - 16k) (GF(2^m): the carry-less rows
//         u * (chunk k of w) mod x^Word, from the delayed u)
//   c+2   t = the sum of the rows, row k shifted up by 16k, mod 2^Word, registered when u was
//         marked by load_i (montu_mont: u_0 of a row, so t_o holds t_i for the row; tie it to
//         1'b1 for a new product every cycle)
// t_o is valid in cycle c+3. No reset: every value is written before it is read.
module montu_qunit_pipe #(
  parameter int unsigned Word = 64
) (
  input  logic            clk_i,
  input  logic            gf2m_i,   // held for the whole command
  input  logic            load_i,   // t_o takes u_i * w_i three cycles later
  input  logic [Word-1:0] u_i,      // a register output
  input  logic [Word-1:0] w_i,      // held for the whole command
  output logic [Word-1:0] t_o
);
  localparam int unsigned C = 16;          // chunk width (one MULT18X18D)
  localparam int unsigned N = Word / C;    // chunks per word

  // Low Word bits of the carry-less product of a word and a chunk.
  function automatic logic [Word-1:0] clmul_row_lo(logic [Word-1:0] a, logic [C-1:0] b);
    logic [Word-1:0] acc;
    acc = '0;
    for (int unsigned k = 0; k < C; k++) begin
      if (b[k]) acc = acc ^ (a << k);
    end
    return acc;
  endfunction

  logic [N-1:0][N-1:0][2*C-1:0] prod_q;   // only k + l < N are formed and read
  logic [Word-1:0] u1_q;
  logic [N-1:0][Word-1:0] row_q;
  logic [Word-1:0] t_d, t_q;
  logic            load1_q, load2_q;   // load_i one and two cycles later

  for (genvar k = 0; k < int'(N); k++) begin : g_prod_k
    for (genvar l = 0; l < int'(N); l++) begin : g_prod_l
      if (k + l < int'(N)) begin : g_pp
        montu_mul_reg #(.AW(C), .BW(C)) u_pp (
          .clk_i, .en_i(1'b1), .a_i(u_i[C*l +: C]), .b_i(w_i[C*k +: C]), .p_o(prod_q[k][l])
        );
      end else begin : g_none
        assign prod_q[k][l] = '0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    u1_q    <= u_i;
    load1_q <= load_i;
    load2_q <= load1_q;
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned k = 0; k < N; k++) begin
      logic [Word-1:0] row;
      row = '0;
      for (int unsigned l = 0; l + k < N; l++) row = row + (Word'(prod_q[k][l]) << (C*l));
      row_q[k] <= gf2m_i ? clmul_row_lo(u1_q, w_i[C*k +: C]) : row;
    end
  end

  always_comb begin
    logic [Word-1:0] sum, sum_xor;
    sum     = '0;
    sum_xor = '0;
    for (int unsigned k = 0; k < N; k++) begin
      sum     = sum + (row_q[k] << (C*k));
      sum_xor = sum_xor ^ (row_q[k] << (C*k));
    end
    t_d = gf2m_i ? sum_xor : sum;
  end

  always_ff @(posedge clk_i) begin
    if (load2_q) t_q <= t_d;
  end

  assign t_o = t_q;
endmodule
