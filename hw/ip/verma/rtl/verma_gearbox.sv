// The 64 <-> W-bit gearbox between the host's 64-bit data words and the registers the PEs read as
// W-bit words (N, C, O, E, P, R as flat vectors: PE word j = bits [jW +: W]; X and Y from the
// XPEs/YPEs). WR: the one-hot enable of 64-bit word wptr (verma_operand_reg places it) and
// E_RANGE (the word has bits at or above the register's width: k or 2D). RD, in two clocks: a
// registered copy of the selected register that keeps only 64-bit word rptr (every other word
// 0: a one-hot word mask), then the OR of the copy's words (0 above the register's width). No
// WR or pass changes a register during an RD, so the copy is the register's word; it loads
// every clock (no enable with a fanout of Width). (#20: a 17:1 MUX of the copy's words, its
// select at every level, gathered the whole register in one place; an OR of words that are 0
// but one reduces neighbours first, with no select.)
// E_RANGE's two masks of word wptr (one for width k, one for 2D) are registers, formed every clock
// from wptr, k and 2D, which stay put for at least two clocks before a WR is decoded (they change
// only in a command's last clock): the decode clock only ANDs the data word with one of them.
module verma_gearbox #(
  parameter int unsigned Width = 1056,    // the flat vectors read (M*W)
  parameter int unsigned Words = 17,      // Wd(K) host words
  parameter int unsigned PtrW  = 5,
  parameter int unsigned LimW  = 11       // width of wr_limit_i
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [PtrW-1:0]  wr_ptr_i,
  input  logic [63:0]      wr_data_i,
  input  logic [LimW-1:0]  wr_limit_k_i,   // the registers' widths in bits: k (N, C, O, E)
  input  logic [LimW-1:0]  wr_limit_d_i,   // and 2D (P, R)
  input  logic             wr_sel_d_i,     // the written register is P or R
  output logic [Words-1:0] wr_en_o,        // one-hot: word wr_ptr_i
  output logic             wr_range_o,     // E_RANGE
  input  logic [Width-1:0] rd_flat_i,      // the register RD reads (one clock before rd_word_o)
  input  logic [PtrW-1:0]  rd_ptr_i,
  output logic [63:0]      rd_word_o
);
  // WR: bits 64*wptr + b >= limit must be 0
  function automatic logic [63:0] keep_of(logic [PtrW-1:0] ptr, logic [LimW-1:0] limit);
    int unsigned lo;
    lo = 64 * int'(ptr);
    if (lo >= int'(limit))           return '0;
    else if (lo + 64 <= int'(limit)) return '1;
    else                             return (64'd1 << (int'(limit) - lo)) - 64'd1;
  endfunction

  logic [63:0] keep_k_q, keep_d_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      keep_k_q <= '0;
      keep_d_q <= '0;
    end else begin
      keep_k_q <= keep_of(wr_ptr_i, wr_limit_k_i);
      keep_d_q <= keep_of(wr_ptr_i, wr_limit_d_i);
    end
  end
  assign wr_range_o = |(wr_data_i & ~(wr_sel_d_i ? keep_d_q : keep_k_q));

  always_comb begin
    wr_en_o = '0;
    for (int unsigned p = 0; p < Words; p++) begin
      if (wr_ptr_i == PtrW'(p)) wr_en_o[p] = 1'b1;
    end
  end

  // RD
  logic [Words-1:0][63:0] rd_words, rd_copy_q;
  assign rd_words = (Words * 64)'(rd_flat_i);
  always_ff @(posedge clk_i) begin
    for (int unsigned p = 0; p < Words; p++) begin
      rd_copy_q[p] <= (rd_ptr_i == PtrW'(p)) ? rd_words[p] : '0;
    end
  end
  always_comb begin
    rd_word_o = '0;
    for (int unsigned p = 0; p < Words; p++) rd_word_o = rd_word_o | rd_copy_q[p];
  end
endmodule
