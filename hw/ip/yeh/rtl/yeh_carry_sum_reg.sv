// X, the Carry/Sum registers (Yeh et al. Fig. 1, Fig. 6): the result of BSR4 in carry-save form
// X = xs + xc, and the source of the serial multiplier when A = X.
//
//   serial multiplier (shift_i): a_i = (xs[1:0] + xc[1:0] + xcy) mod 4, the 2-bit adder with
//     its carry xcy of Fig. 6; xs and xc shift right two bits per clock
//   +1 clock (load_i): xs, xc = the carry-save result of yeh_final_add; xcy = 0
//   resolution (resolve_i, one 64-bit word per clock, LSB first): xs_j = xs_j + xc_j + carry,
//     xc_j = 0. With the last word (W - 1) the bits from 64W up are settled too: bit 64W takes
//     its sum bit (it is X's bit L when L = 64W), the rest become 0 (X < 2^(L+1)), and XL = bit L
//   host word write (wr_i): xs_j = data, X's bit L (flag XL) cleared
// X has XW = NBits + 1 bits (bit L is flag XL); the carry-save pair is exact modulo 2^XW, the
// resolution adds modulo 2^XW. Whenever no instruction runs, xc = 0 and xcy = 0: X = xs, binary.
module yeh_carry_sum_reg #(
  parameter  int unsigned NBits  = 1024,
  localparam int unsigned NWords = NBits / 64,
  localparam int unsigned XW     = NBits + 1,
  localparam int unsigned Lw     = $clog2(NBits + 1),
  localparam int unsigned Jw     = $clog2(NWords + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,      // SETLEN / WIPE
  input  logic [Lw-1:0]    len_i,        // L
  input  logic [Jw-1:0]    words_i,      // W
  input  logic             wr_i,
  input  logic [Jw-1:0]    wr_idx_i,
  input  logic [63:0]      wr_data_i,
  input  logic [Jw-1:0]    rd_idx_i,
  output logic [63:0]      rd_word_o,    // word rd_idx_i of xs (X itself when idle)
  input  logic             shift_i,
  output logic [1:0]       digit_o,
  input  logic             load_i,
  input  logic [XW-1:0]    xs_i,
  input  logic [XW-1:0]    xc_i,
  input  logic             resolve_i,
  input  logic [Jw-1:0]    resolve_idx_i,
  output logic [NBits-1:0] x_o,          // X's low NBits bits (XTOM; valid when idle)
  output logic             xl_o,         // flag XL = bit L of X
  output logic             xc_zero_o     // xc = 0 and xcy = 0 (the idle invariant)
);
  logic [XW-1:0] xs_q, xs_d, xc_q, xc_d;
  logic          xcy_q, xcy_d;          // Fig. 6's 2-bit adder carry
  logic          res_cy_q, res_cy_d;    // the resolution adder's carry between words
  logic          xl_q, xl_d;

  // Fig. 6: the 2-bit adder
  logic [2:0] digit_sum;
  assign digit_sum = {1'b0, xs_q[1:0]} + {1'b0, xc_q[1:0]} + {2'b00, xcy_q};
  assign digit_o   = digit_sum[1:0];

  // word resolution: the 64-bit adder with its carry
  logic [63:0] res_xs_word, res_xc_word;
  logic [64:0] res_sum;
  logic [63:0] res_low;
  logic        res_first, res_last, res_top_bit;
  always_comb begin
    res_xs_word = '0;
    res_xc_word = '0;
    rd_word_o   = '0;
    for (int unsigned w = 0; w < NWords; w++) begin
      if (resolve_idx_i == Jw'(w)) begin
        res_xs_word = xs_q[64*w +: 64];
        res_xc_word = xc_q[64*w +: 64];
      end
      if (rd_idx_i == Jw'(w)) rd_word_o = xs_q[64*w +: 64];
    end
  end
  assign res_first = (resolve_idx_i == '0);
  assign res_last  = (resolve_idx_i == words_i - Jw'(1));
  assign res_sum   = {1'b0, res_xs_word} + {1'b0, res_xc_word} +
                     {64'd0, res_cy_q & !res_first};
  assign res_low   = res_sum[63:0];
  // bit 64W of X: bit 0 of word W (or the extra top bit when W = NWords)
  always_comb begin
    res_top_bit = xs_q[XW-1] ^ xc_q[XW-1];
    for (int unsigned w = 0; w + 1 < NWords; w++) begin
      if (resolve_idx_i == Jw'(w)) res_top_bit = xs_q[64*(w+1)] ^ xc_q[64*(w+1)];
    end
    res_top_bit = res_top_bit ^ res_sum[64];
  end

  always_comb begin
    xs_d     = xs_q;
    xc_d     = xc_q;
    xcy_d    = xcy_q;
    res_cy_d = res_cy_q;
    xl_d     = xl_q;
    if (clear_i) begin
      xs_d     = '0;
      xc_d     = '0;
      xcy_d    = 1'b0;
      res_cy_d = 1'b0;
      xl_d     = 1'b0;
    end else if (load_i) begin
      xs_d  = xs_i;
      xc_d  = xc_i;
      xcy_d = 1'b0;
    end else if (shift_i) begin
      xs_d  = {2'b00, xs_q[XW-1:2]};
      xc_d  = {2'b00, xc_q[XW-1:2]};
      xcy_d = digit_sum[2];
    end else if (resolve_i) begin
      res_cy_d = res_sum[64];
      for (int unsigned w = 0; w < NWords; w++) begin
        if (resolve_idx_i == Jw'(w)) begin
          xs_d[64*w +: 64] = res_sum[63:0];
          xc_d[64*w +: 64] = '0;
        end else if (res_last && (Jw'(w) > resolve_idx_i)) begin
          xs_d[64*w +: 64] = '0;
          xc_d[64*w +: 64] = '0;
        end
      end
      if (res_last) begin
        xs_d[XW-1] = 1'b0;
        xc_d[XW-1] = 1'b0;
        for (int unsigned w = 0; w <= NWords; w++) begin
          if (resolve_idx_i + Jw'(1) == Jw'(w)) xs_d[64*w] = res_top_bit;
        end
        // XL = bit L: in the last word (L mod 64 != 0) or bit 64W (L = 64W)
        xl_d = (len_i[5:0] == 6'd0) ? res_top_bit : res_low[len_i[5:0]];
      end
    end else if (wr_i) begin
      xs_d = xs_q & ~(XW'(1) << len_i);
      for (int unsigned w = 0; w < NWords; w++) begin
        if (wr_idx_i == Jw'(w)) xs_d[64*w +: 64] = wr_data_i;
      end
      xl_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xs_q     <= '0;
      xc_q     <= '0;
      xcy_q    <= 1'b0;
      res_cy_q <= 1'b0;
      xl_q     <= 1'b0;
    end else begin
      xs_q     <= xs_d;
      xc_q     <= xc_d;
      xcy_q    <= xcy_d;
      res_cy_q <= res_cy_d;
      xl_q     <= xl_d;
    end
  end

  assign x_o       = xs_q[NBits-1:0];
  assign xl_o      = xl_q;
  assign xc_zero_o = (xc_q == '0) && !xcy_q;
endmodule
