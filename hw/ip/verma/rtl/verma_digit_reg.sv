// The multiplier-digit registers of a pass: the radix-4 digits of P (for the YPEs: Y = P*P) and of
// R (for the XPEs: X = P*R), loaded in the pass's load clock (clock 0), read MSB first one digit
// per clock: in clock c the outputs hold digit I + 1 - c (digit_p_o = p_{I+1-c}, digit_r_o =
// r_{I+1-c}; used by XPE0/YPE0 for pre + 2 <= c <= I + 1, pre = g - t >= 1). P's digits are a
// copy taken at the load: the T words that started as P change every iteration.
//
// A shift chain with a fixed tap, so that no wide multiplexer gathers the operand in one place:
//   chain     Chain = Segs * Seg digits (Seg = the digits of one PE word, W / 2). Loaded with the
//             digits in clock 0, then every clock each digit moves one place up (digit d of the
//             operand is at place d + c - 1 in clock c) and zeros enter at place 0. Segment s
//             (places sSeg .. sSeg + Seg - 1) is loaded from PE word s's bits, and passes one
//             digit to segment s + 1: every wire of the chain stays beside its PE column.
//   tap       place T = I - 2, fixed for a modulus length (SETLEN): in clock c it holds digit
//             I + 1 - (c + 2), so after two registers it is digit I + 1 - c in clock c:
//   stage 1   each segment registers its digit at offset T - sSeg (a Seg : 1 MUX whose select is
//             a register, formed from I beside the segment);
//   stage 2   the digit of the one segment that holds T (a one-hot AND-OR of Segs 2-bit words).
// So digits are valid from clock 3 on (the first one is needed in clock pre + 2 >= 3). Places
// above the operand and the zeros shifted in make every digit beyond the operand 0. The chain is
// long enough for the largest tap: T = I - 2 <= D(K) + (g - t) - 2 < Digits + Guard.
module verma_digit_reg #(
  parameter  int unsigned Digits = 518,     // D(K)
  parameter  int unsigned Seg    = 24,      // digits per chain segment (W / 2)
  parameter  int unsigned CntW   = 10,      // width of I
  localparam int unsigned Guard  = 8,       // g - t <= 8 for every k < 2^16
  localparam int unsigned Segs   = (Digits + Guard + Seg - 1) / Seg,
  localparam int unsigned Chain  = Segs * Seg,
  localparam int unsigned OffW   = (Seg > 1) ? $clog2(Seg) : 1
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
  // ---------------------------------------------------------------------------------------------
  // Where the tap is: per segment, "T is in me" and T's offset in me, registered from I (which
  // changes only with SETLEN, two clocks or more before any pass loads)
  // ---------------------------------------------------------------------------------------------
  logic [CntW:0]         tap;
  logic [Segs-1:0]       hit_q, hit_d;
  logic [Segs-1:0][OffW-1:0] off_q, off_d;

  assign tap = (CntW+1)'(iters_i) - (CntW+1)'(2);
  always_comb begin
    for (int unsigned s = 0; s < Segs; s++) begin
      hit_d[s] = (32'(tap) >= s * Seg) && (32'(tap) < (s + 1) * Seg);
      off_d[s] = OffW'(32'(tap) - s * Seg);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The chains
  // ---------------------------------------------------------------------------------------------
  logic [Chain-1:0][1:0] p_q, r_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_q <= '0;
      r_q <= '0;
    end else if (clear_i) begin
      p_q <= '0;
      r_q <= '0;
    end else if (load_i) begin
      p_q <= (2 * Chain)'(p_i);
      r_q <= (2 * Chain)'(r_i);
    end else begin
      p_q <= {p_q[Chain-2:0], 2'b00};
      r_q <= {r_q[Chain-2:0], 2'b00};
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The tap: stage 1 in each segment, stage 2 across the segments
  // ---------------------------------------------------------------------------------------------
  logic [Segs-1:0][1:0] sp_q, sp_d, sr_q, sr_d;
  logic [1:0]           dp_q, dp_d, dr_q, dr_d;

  always_comb begin
    for (int unsigned s = 0; s < Segs; s++) begin
      sp_d[s] = 2'b00;
      sr_d[s] = 2'b00;
      for (int unsigned o = 0; o < Seg; o++) begin
        if (off_q[s] == OffW'(o)) begin
          sp_d[s] = p_q[s * Seg + o];
          sr_d[s] = r_q[s * Seg + o];
        end
      end
    end
    dp_d = 2'b00;
    dr_d = 2'b00;
    for (int unsigned s = 0; s < Segs; s++) begin
      dp_d = dp_d | (sp_q[s] & {2{hit_q[s]}});
      dr_d = dr_d | (sr_q[s] & {2{hit_q[s]}});
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hit_q <= '0;
      off_q <= '0;
    end else begin
      hit_q <= hit_d;
      off_q <= off_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sp_q  <= '0;
      sr_q  <= '0;
      dp_q  <= '0;
      dr_q  <= '0;
    end else if (clear_i) begin
      sp_q  <= '0;
      sr_q  <= '0;
      dp_q  <= '0;
      dr_q  <= '0;
    end else begin
      sp_q  <= sp_d;
      sr_q  <= sr_d;
      dp_q  <= dp_d;
      dr_q  <= dr_d;
    end
  end

  assign digit_p_o = dp_q;
  assign digit_r_o = dr_q;

`ifndef SYNTHESIS
  // the tap lies on the chain (else the digits would all read 0)
  /* verilator lint_off SYNCASYNCNET */
  TapOnTheChain: assert property (@(posedge clk_i) disable iff (!rst_ni)
      load_i |-> (32'(iters_i) >= 2 && 32'(iters_i) - 2 < Chain))
    else $error("verma_digit_reg: I - 2 beyond the digit chain");
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
