// The 64 <-> W-bit gearbox between the host's 64-bit data words and the registers the PEs read as
// W-bit words (N, C, O, E, P, R as flat vectors: PE word j = bits [jW +: W]; X and Y from the
// XPEs/YPEs). WR: the one-hot enable of 64-bit word wptr (verma_operand_reg places it) and
// E_RANGE (the word has bits at or above the register's width: k or 2D). RD: 64-bit word rptr of
// the selected register (0 above its width).
module verma_gearbox #(
  parameter int unsigned Width = 1056,    // the flat vectors read (M*W)
  parameter int unsigned Words = 17,      // Wd(K) host words
  parameter int unsigned PtrW  = 5,
  parameter int unsigned LimW  = 11       // width of wr_limit_i
) (
  input  logic [PtrW-1:0]  wr_ptr_i,
  input  logic [63:0]      wr_data_i,
  input  logic [LimW-1:0]  wr_limit_i,     // the register's width in bits (k or 2D)
  output logic [Words-1:0] wr_en_o,        // one-hot: word wr_ptr_i
  output logic             wr_range_o,     // E_RANGE
  input  logic [Width-1:0] rd_flat_i,
  input  logic [PtrW-1:0]  rd_ptr_i,
  output logic [63:0]      rd_word_o
);
  // WR: bits 64*wptr + b >= limit must be 0
  logic [63:0] keep;
  always_comb begin
    int unsigned lo;
    lo = 64 * int'(wr_ptr_i);
    if (lo >= int'(wr_limit_i))           keep = '0;
    else if (lo + 64 <= int'(wr_limit_i)) keep = '1;
    else                                  keep = (64'd1 << (int'(wr_limit_i) - lo)) - 64'd1;
  end
  assign wr_range_o = |(wr_data_i & ~keep);

  always_comb begin
    wr_en_o = '0;
    for (int unsigned p = 0; p < Words; p++) begin
      if (wr_ptr_i == PtrW'(p)) wr_en_o[p] = 1'b1;
    end
  end

  // RD
  logic [Words-1:0][63:0] rd_words;
  assign rd_words = (Words * 64)'(rd_flat_i);
  always_comb begin
    rd_word_o = '0;
    for (int unsigned p = 0; p < Words; p++) begin
      if (rd_ptr_i == PtrW'(p)) rd_word_o = rd_words[p];
    end
  end
endmodule
