// The H-type (left-to-right) exponentiation of EXP (Yeh et al. §2, after Yang et al. [9]), as a
// sequence of fully reduced BSR4s run back to back on yeh_core:
//
//   E >= 1:  M-bar = BSR4(C, M); X-bar = M-bar
//            for each bit e_i of E below its leading one, MSB first:
//              X-bar = BSR4(X-bar, X-bar)          (the first one captures M-bar into M)
//              if e_i: X-bar = BSR4(X-bar, M)
//            X = BSR4(X-bar, ONE)
//   E = 0:   X-bar = BSR4(C, ONE); X = BSR4(X-bar, ONE)
//
// begin_i (the decide cycle) sets up the first BSR4; every plus1_i (the +1 clock of a BSR4)
// either sets up the next one in the same clock (start_o, so its iteration 0 follows at once) or,
// after the final BSR4(X-bar, ONE), lets start_o low: EXP's core phase is over. The exponent bit
// e_i comes from yeh_exp_reg: whenever the bit index changes, e_rd_o asks it to read that bit's
// word; the bit is needed only at the +1 clock of the squaring, at least two clocks later.
module yeh_exp_ctrl
  import yeh_core_pkg::*;
#(
  parameter  int unsigned NBits = 1024,
  localparam int unsigned Iw    = $clog2(NBits)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          clear_i,
  input  logic          begin_i,
  input  logic          e_zero_i,   // E = 0
  input  logic [Iw-1:0] lead_i,     // index of E's leading one
  input  logic          plus1_i,
  input  logic          e_bit_i,    // bit idx of E
  output logic          start_o,
  output bsr4_mode_t    mode_o,
  output logic          e_rd_o,
  output logic [Iw-1:0] e_rd_idx_o
);
  typedef enum logic [2:0] {
    StepNone, StepConv, StepConvOne, StepSq, StepMul, StepOut
  } step_e;

  step_e         step_q, step_d;
  logic [Iw-1:0] idx_q, idx_d;       // the exponent bit of the current squaring
  logic          has_bits_q, has_bits_d;   // E has bits below its leading one

  // The next step after the current one's +1 clock (or after begin_i).
  always_comb begin
    step_d     = step_q;
    idx_d      = idx_q;
    has_bits_d = has_bits_q;
    e_rd_o     = 1'b0;
    e_rd_idx_o = idx_q;
    if (clear_i) begin
      step_d     = StepNone;
      idx_d      = '0;
      has_bits_d = 1'b0;
    end else if (begin_i) begin
      step_d     = e_zero_i ? StepConvOne : StepConv;
      has_bits_d = !e_zero_i && (lead_i != '0);
      idx_d      = lead_i - Iw'(1);
      e_rd_o     = has_bits_d;
      e_rd_idx_o = idx_d;
    end else if (plus1_i) begin
      unique case (step_q)
        StepConv:    step_d = has_bits_q ? StepSq : StepOut;
        StepConvOne: step_d = StepOut;
        StepSq, StepMul: begin
          if ((step_q == StepSq) && e_bit_i) begin
            step_d = StepMul;
          end else if (idx_q != '0) begin
            step_d     = StepSq;
            idx_d      = idx_q - Iw'(1);
            e_rd_o     = 1'b1;
            e_rd_idx_o = idx_d;
          end else begin
            step_d = StepOut;
          end
        end
        StepOut:     step_d = StepNone;
        default:     step_d = StepNone;
      endcase
    end
  end

  assign start_o = begin_i || (plus1_i && (step_q != StepOut) && (step_q != StepNone));

  always_comb begin
    mode_o           = '0;
    mode_o.reduce    = 1'b1;
    unique case (step_d)
      StepConv:    ;                                   // (C, M)
      StepConvOne: mode_o.b_one = 1'b1;                // (C, ONE)
      StepSq: begin                                    // (X, X)
        mode_o.a_from_x  = 1'b1;
        mode_o.b_square  = 1'b1;
        mode_o.capture_m = (step_q == StepConv);       // the first squaring follows Conv
      end
      StepMul:     mode_o.a_from_x = 1'b1;             // (X, M)
      StepOut: begin                                   // (X, ONE)
        mode_o.a_from_x = 1'b1;
        mode_o.b_one    = 1'b1;
      end
      default:     ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      step_q     <= StepNone;
      idx_q      <= '0;
      has_bits_q <= 1'b0;
    end else begin
      step_q     <= step_d;
      idx_q      <= idx_d;
      has_bits_q <= has_bits_d;
    end
  end
endmodule
