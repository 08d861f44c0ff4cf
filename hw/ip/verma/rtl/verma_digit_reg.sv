// The multiplier-digit registers of a pass: the radix-4 digits of P (for the YPEs: Y = P*P) and of
// R (for the XPEs: X = P*R), loaded in the pass's load clock (clock 0), read MSB first one digit
// per clock: in clock c the outputs hold digit I + 1 - c (digit_p_o = p_{I+1-c}, digit_r_o =
// r_{I+1-c}; used by XPE0/YPE0 for pre + 2 <= c <= I + 1, pre = g - t >= 1). P's digits are a
// copy taken at the load: the T words that started as P change every iteration.
//
// The read is a two-stage pipeline with its own down-counting index, so that the digit reaching
// XPE0/YPE0 comes from a flip-flop and no wide MUX sits on a path longer than one clock:
//   index     idx1 = I + 1 - (c + 2) in clock c (I - 2 set in the load clock, then -1 per clock)
//   stage 1   registers the group of 2^LoW digits holding digit idx1 (a Digits/2^LoW : 1 MUX)
//   stage 2   registers the digit of that group (a 2^LoW : 1 MUX), one clock later
// so in clock c the digit of index I + 1 - c is out. Stage 1 first reads the loaded P, R in
// clock 1, so digits are valid from clock 3 on (the first one is needed in clock pre + 2 >= 3).
// Indices are kept modulo 2^IdxW (one bit more than the digit index): an index that went below
// 0 at the end of a pass selects a group of zeros, never a digit.
module verma_digit_reg #(
  parameter  int unsigned Digits = 518,     // D(K)
  parameter  int unsigned CntW   = 10,      // width of I
  localparam int unsigned IdxW   = $clog2(Digits) + 1,
  localparam int unsigned LoW    = (IdxW - 1 > 5) ? 5 : IdxW - 1,   // digit within a group
  localparam int unsigned GrpN   = 2 ** LoW,                         // digits per group
  localparam int unsigned SelW   = IdxW - LoW,                       // group index
  localparam int unsigned Groups = 2 ** SelW
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   clear_i,
  input  logic                   load_i,
  input  logic [CntW-1:0]        iters_i,   // I
  input  logic [Digits-1:0][1:0] p_i,
  input  logic [Digits-1:0][1:0] r_i,
  output logic [1:0]             digit_p_o,
  output logic [1:0]             digit_r_o
);
  logic [Digits-1:0][1:0] p_q, r_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_q <= '0;
      r_q <= '0;
    end else if (clear_i) begin
      p_q <= '0;
      r_q <= '0;
    end else if (load_i) begin
      p_q <= p_i;
      r_q <= r_i;
    end
  end

  // P and R as groups of GrpN digits (zero groups above Digits)
  logic [Groups-1:0][GrpN-1:0][1:0] p_grp, r_grp;
  assign p_grp = (Groups * GrpN * 2)'(p_q);
  assign r_grp = (Groups * GrpN * 2)'(r_q);

  logic [IdxW-1:0]      idx1_q, idx1_d;   // the digit index of two clocks ahead
  logic [LoW-1:0]       lo2_q, lo2_d;     // the digit index of one clock ahead, within its group
  logic [GrpN-1:0][1:0] pg_q, pg_d, rg_q, rg_d;
  logic [1:0]           dp_q, dp_d, dr_q, dr_d;

  always_comb begin
    if (load_i) begin   // clock 0: clock 1 fetches the group of index I - 1 - 1 = I - 2
      idx1_d = IdxW'(iters_i - CntW'(2));
      lo2_d  = LoW'(iters_i - CntW'(1));
    end else begin
      idx1_d = idx1_q - IdxW'(1);
      lo2_d  = idx1_q[LoW-1:0];
    end
    pg_d = p_grp[idx1_q[IdxW-1:LoW]];
    rg_d = r_grp[idx1_q[IdxW-1:LoW]];
    dp_d = pg_q[lo2_q];
    dr_d = rg_q[lo2_q];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      idx1_q <= '0;
      lo2_q  <= '0;
      pg_q   <= '0;
      rg_q   <= '0;
      dp_q   <= '0;
      dr_q   <= '0;
    end else if (clear_i) begin
      idx1_q <= '0;
      lo2_q  <= '0;
      pg_q   <= '0;
      rg_q   <= '0;
      dp_q   <= '0;
      dr_q   <= '0;
    end else begin
      idx1_q <= idx1_d;
      lo2_q  <= lo2_d;
      pg_q   <= pg_d;
      rg_q   <= rg_d;
      dp_q   <= dp_d;
      dr_q   <= dr_d;
    end
  end

  assign digit_p_o = dp_q;
  assign digit_r_o = dr_q;
endmodule
