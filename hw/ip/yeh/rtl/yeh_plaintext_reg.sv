// M, the Plaintext Register (Yeh et al. Fig. 1, Fig. 3): the multiplicand B of BSR4 (all NBits
// bits to the MSPG every clock) and the base of EXP. Written word-wise by WR, all at once by
// XTOM, and, during EXP's first squaring, two bits per clock from the serial multiplier stream
// (capture_i: digit a_i at bits 2i+1 .. 2i, the ones of pos_i), so that M holds M-bar afterwards,
// as the paper loads its Plaintext Register from a 2-bit stream. Flip-flops here where the chip
// uses latches behind a 32-bit shift register (Fig. 3).
module yeh_plaintext_reg #(
  parameter  int unsigned NBits   = 1024,
  localparam int unsigned NWords  = NBits / 64,
  localparam int unsigned NDigits = NBits / 2,
  localparam int unsigned Jw      = $clog2(NWords + 1)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               clear_i,
  input  logic               wr_i,
  input  logic [Jw-1:0]      wr_idx_i,
  input  logic [63:0]        wr_data_i,
  input  logic               load_i,       // XTOM
  input  logic [NBits-1:0]   load_data_i,
  input  logic               capture_i,
  input  logic [NBits-1:0]   pos_i,        // bits 2i+1 .. 2i: the digit's position
  input  logic [1:0]         digit_i,
  input  logic [Jw-1:0]      rd_idx_i,
  output logic [63:0]        rd_word_o,
  output logic [NBits-1:0]   m_o
);
  logic [NBits-1:0] m_q, m_d;

  always_comb begin
    m_d = m_q;
    if (clear_i) begin
      m_d = '0;
    end else if (load_i) begin
      m_d = load_data_i;
    end else if (capture_i) begin
      m_d = (m_q & ~pos_i) | (pos_i & {NDigits{digit_i}});
    end else if (wr_i) begin
      for (int unsigned w = 0; w < NWords; w++) begin
        if (wr_idx_i == Jw'(w)) m_d[64*w +: 64] = wr_data_i;
      end
    end
  end

  always_comb begin
    rd_word_o = '0;
    for (int unsigned w = 0; w < NWords; w++) begin
      if (rd_idx_i == Jw'(w)) rd_word_o = m_q[64*w +: 64];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) m_q <= '0;
    else         m_q <= m_d;
  end

  assign m_o = m_q;
endmodule
