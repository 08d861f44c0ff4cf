// The Montgomery powering ladder of MPL (Verma et al. §2 and Table 5, MPLCMMM; montu.arith.verma.
// mpl_powmod with exponent_bits = k): k + 2 EWBR4CMMM passes back to back, whatever E is.
//
//   conversion   P <- P, R <- C                 X = P*F mod n: R1          (R0 = O, F mod n)
//   ladder       for b = E[k-1], ..., E[0]: the common multiplicand is R_b (the paper's extra
//                2:1 MUX), the multiplier the other one:
//                   X = R_b * R_(1-b) -> the new R_(1-b),  Y = R_b * R_b -> the new R_b
//                so after a pass R0 is in Y (b = 0) or in X (b = 1), R1 in the other
//   final        P <- R0, R <- ONE               X = R0*F^-1 <= n  (then the f = 1 clock)
//
// R0 and R1 never leave the XPE/YPE registers between passes; this block only tracks where R0 is
// (O before the first ladder pass, then X or Y) and drives the load MUXes of each pass. It reads
// E one bit per pass; the pass count, and so the time, never depends on E.
//
// Nothing wide sits in a pass's load clock: the exponent bit of the next ladder pass is fetched a
// whole pass ahead (pos_o is the next pass's bit position; e_bit_i is E[pos_o] from two clocks
// after pos_o moves (verma_top's two-level select), registered here and read at the pass's
// end, at least I + m + 1 >= 6 clocks later), and the load MUX selects are registers: t_src_d_o,
// r_src_d_o are their next values, from the next state in the last clock of the previous pass (or
// when MPL is accepted), registered per PE column by verma_src_sel.
module verma_ladder
  import verma_core_pkg::*;
#(
  parameter int unsigned KW   = 11,   // width of k
  parameter int unsigned PosW = 10    // width of a bit index below k
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,
  input  logic            begin_i,     // MPL accepted: the conversion pass comes first
  input  logic            pass_end_i,  // the last clock of one of MPL's passes
  input  logic [KW-1:0]   k_i,
  input  logic            e_bit_i,     // E[pos_o]
  output logic [PosW-1:0] pos_o,       // the exponent bit of the next ladder pass
  output t_src_e          t_src_d_o,   // the load MUXes of the next clock's pass
  output r_src_e          r_src_d_o,
  output logic            more_o       // another pass follows the current one
);
  typedef enum logic [1:0] {PhConv, PhLadder, PhFinal} phase_e;
  typedef enum logic [1:0] {LocO, LocX, LocY} loc_e;

  phase_e          phase_q, phase_d;
  loc_e            r0_q, r0_d;         // where R0 is
  logic [PosW-1:0] pos_q, pos_d;       // the bit position of the next ladder pass
  logic            bit_q, bit_d;       // the exponent bit of the current ladder pass
  logic            zero_q, zero_d;     // the current ladder pass is the one of bit 0
  logic            nbit_q;             // E[pos_q] (three clocks behind pos_q)
  t_src_e          t_src_d;
  r_src_e          r_src_d;

  function automatic t_src_e t_of(loc_e loc);
    unique case (loc)
      LocX:    return TSrcX;
      LocY:    return TSrcY;
      default: return TSrcO;
    endcase
  endfunction

  function automatic r_src_e r_of(loc_e loc);
    unique case (loc)
      LocX:    return RSrcX;
      LocY:    return RSrcY;
      default: return RSrcO;
    endcase
  endfunction

  // the 2:1 MUX: the common multiplicand R_b and the multiplier R_(1-b), for the next state
  loc_e r1, cm, other;
  assign r1    = (r0_d == LocX) ? LocY : LocX;
  assign cm    = bit_d ? r1 : r0_d;
  assign other = bit_d ? r0_d : r1;

  always_comb begin
    unique case (phase_d)
      PhLadder: begin t_src_d = t_of(cm);   r_src_d = r_of(other); end
      PhFinal:  begin t_src_d = t_of(r0_d); r_src_d = RSrcOne;     end
      default:  begin t_src_d = TSrcP;      r_src_d = RSrcC;       end
    endcase
  end
  assign more_o  = (phase_q != PhFinal);
  assign pos_o   = pos_q;
  assign t_src_d_o = t_src_d;
  assign r_src_d_o = r_src_d;

  always_comb begin
    phase_d = phase_q;
    r0_d    = r0_q;
    pos_d   = pos_q;
    bit_d   = bit_q;
    zero_d  = zero_q;
    if (clear_i || begin_i) begin
      phase_d = PhConv;
      r0_d    = LocO;
      pos_d   = PosW'(k_i - KW'(1));
      bit_d   = 1'b0;
      zero_d  = 1'b0;
    end else if (pass_end_i) begin
      if (phase_q == PhLadder) r0_d = bit_q ? LocX : LocY;
      if ((phase_q == PhConv) || ((phase_q == PhLadder) && !zero_q)) begin
        // the next pass is the ladder pass of bit pos_q
        phase_d = PhLadder;
        bit_d   = nbit_q;
        zero_d  = (pos_q == '0);
        pos_d   = pos_q - PosW'(1);
      end else begin
        phase_d = PhFinal;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q <= PhConv;
      r0_q    <= LocO;
      pos_q   <= '0;
      bit_q   <= 1'b0;
      zero_q  <= 1'b0;
      nbit_q  <= 1'b0;
    end else begin
      phase_q <= phase_d;
      r0_q    <= r0_d;
      pos_q   <= pos_d;
      bit_q   <= bit_d;
      zero_q  <= zero_d;
      nbit_q  <= e_bit_i;
    end
  end
endmodule
