// N, the Modulus Register, and the 3N register (Yeh et al. §2: "we choose 3N", Fig. 1). Both
// feed R4MR's multiplexers every clock, so they are flip-flops.
//
// SETMOD forms 3N one 64-bit word per clock (triple_i, word j = triple_idx_i, LSB first):
//   3N_j = N_j + (2N)_j + carry,   (2N)_j = {N_j[62:0], N_{j-1}[63]}
// and writes the two bits above word j with N_j[63] + carry (the top of 3N after the last word;
// overwritten by the next word otherwise). 3N has NBits + 2 bits.
// bad_o: N is no modulus for length L: even, below 3, or below 2^(L-2) (N's bits at and above L
// are always 0, so the last is "bits L-1 and L-2 are both 0").
module yeh_modulus_reg #(
  parameter  int unsigned NBits  = 1024,
  localparam int unsigned NWords = NBits / 64,
  localparam int unsigned Lw     = $clog2(NBits + 1),
  localparam int unsigned Jw     = $clog2(NWords + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,
  input  logic [Lw-1:0]    len_i,
  input  logic             wr_i,
  input  logic [Jw-1:0]    wr_idx_i,
  input  logic [63:0]      wr_data_i,
  input  logic             triple_i,
  input  logic [Jw-1:0]    triple_idx_i,
  input  logic [Jw-1:0]    rd_idx_i,
  output logic [63:0]      rd_word_o,
  output logic [NBits-1:0] n_o,
  output logic [NBits+1:0] n3_o,
  output logic             bad_o
);
  logic [NBits-1:0] n_q, n_d;
  logic [NBits+1:0] n3_q, n3_d;
  logic             cy_q, cy_d;   // carry between the words of 3N

  // word j of N and N_{j-1}[63] (0 for j = 0)
  logic [63:0] n_word;
  logic        n_below;
  always_comb begin
    n_word    = '0;
    n_below   = 1'b0;
    rd_word_o = '0;
    for (int unsigned w = 0; w < NWords; w++) begin
      if (triple_idx_i == Jw'(w)) n_word = n_q[64*w +: 64];
      if (rd_idx_i == Jw'(w)) rd_word_o = n_q[64*w +: 64];
    end
    for (int unsigned w = 1; w < NWords; w++) begin
      if (triple_idx_i == Jw'(w)) n_below = n_q[64*w-1];
    end
  end

  logic [64:0] triple_sum;
  logic [1:0]  triple_top;
  assign triple_sum = {1'b0, n_word} + {1'b0, n_word[62:0], n_below} +
                      {64'd0, cy_q & (triple_idx_i != '0)};
  assign triple_top = {1'b0, n_word[63]} + {1'b0, triple_sum[64]};

  always_comb begin
    n_d  = n_q;
    n3_d = n3_q;
    cy_d = cy_q;
    if (clear_i) begin
      n_d  = '0;
      n3_d = '0;
      cy_d = 1'b0;
    end else if (wr_i) begin
      for (int unsigned w = 0; w < NWords; w++) begin
        if (wr_idx_i == Jw'(w)) n_d[64*w +: 64] = wr_data_i;
      end
    end else if (triple_i) begin
      cy_d = triple_sum[64];
      for (int unsigned w = 0; w < NWords; w++) begin
        if (triple_idx_i == Jw'(w)) n3_d[64*w +: 64] = triple_sum[63:0];
        if (triple_idx_i + Jw'(1) == Jw'(w)) n3_d[64*w +: 64] = {62'd0, triple_top};
      end
      if (triple_idx_i == Jw'(NWords - 1)) n3_d[NBits +: 2] = triple_top;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      n_q  <= '0;
      n3_q <= '0;
      cy_q <= 1'b0;
    end else begin
      n_q  <= n_d;
      n3_q <= n3_d;
      cy_q <= cy_d;
    end
  end

  // the modulus checks of SETMOD
  logic [1:0] n_top;   // N[L-1], N[L-2] (L >= 2)
  logic       top_two;
  assign n_top   = 2'(n_q >> (len_i - Lw'(2)));
  assign top_two = |n_top;
  assign bad_o = !n_q[0] || (n_q[NBits-1:1] == '0) || !top_two;

  assign n_o  = n_q;
  assign n3_o = n3_q;
endmodule
