// Accumulating processing element (XPE_j or YPE_j) of EWBR4CMMM (Verma et al. §4.2, Fig. 5,
// steps 24-29): word j of A = A + digit * T[i-1], in clock i + j, beside reduction PE_j (whose T
// register still holds T[i-1]^j in that clock). XPEs take the digits of the multiplier R, YPEs
// those of the common multiplicand P.
//
//   4:1 MUX (by the digit):  (first, second) = (0, 0), (0, T), (T, T), (T, 2T)
//                            2T^j = {T^j_{W-2..0}, T^{j-1}_{W-1}} (the msb from PE_{j-1})
//   carry-save adder:        sum = A ^ first ^ second, carry = maj(A, first, second) (W + 1 bits)
//   W-bit adder:             cx2', A^j = sum + {carry_{W-2..0}, cx1} + cx2;  cx1' = carry_{W-1}
//
// (montu.arith.verma._accumulate_word). The digit, the "iteration runs" bit, T's msb and the two
// carries go to PE_{j+1} through registers, one PE per clock. The top word's carries are dropped
// (Walter's bound keeps A < 2^(2D)). The W-bit adder is a plain `+` (ECP5 CCU2C carry chain).
module verma_ape #(
  parameter int unsigned W = 48
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clear_i,     // SETLEN, WIPE, a pass's load clock (X, Y = 0), X == N fix
  input  logic         en_i,        // j < m
  input  logic         run_i,       // accumulation iteration i = clock - j runs here
  input  logic [1:0]   digit_i,     // r_{I-i+1} (XPE) or p_{I-i+1} (YPE), from PE_{j-1}
  input  logic [W-1:0] t_i,         // T[i-1]^j from reduction PE_j
  input  logic         msb_i,       // T[i-1]^{j-1}_{W-1} from PE_{j-1} (0 for PE0)
  input  logic         cx1_i,       // the two carries from PE_{j-1}
  input  logic         cx2_i,
  output logic         run_o,       // to PE_{j+1}, registered
  output logic [1:0]   digit_o,
  output logic         msb_o,
  output logic         cx1_o,
  output logic         cx2_o,
  output logic [W-1:0] acc_o        // A^j (X^j or Y^j)
);
  logic [W-1:0] acc_q, acc_d;
  logic         run_q, msb_q, cx1_q, cx2_q;
  logic [1:0]   digit_q;

  // 4:1 MUX
  logic [W-1:0] twice, first, second;
  assign twice = {t_i[W-2:0], msb_i};
  always_comb begin
    unique case (digit_i)
      2'd1:    begin first = '0;  second = t_i;   end
      2'd2:    begin first = t_i; second = t_i;   end
      2'd3:    begin first = t_i; second = twice; end
      default: begin first = '0;  second = '0;    end
    endcase
  end

  // carry-save adder, then the W-bit adder with the two carries
  logic [W-1:0] csa_sum, csa_carry;
  logic [W:0]   total;
  assign csa_sum   = acc_q ^ first ^ second;
  assign csa_carry = (acc_q & first) | (acc_q & second) | (first & second);
  assign total     = {1'b0, csa_sum} + {1'b0, csa_carry[W-2:0], cx1_i} + {{W{1'b0}}, cx2_i};

  logic active;
  assign active = run_i && en_i;

  always_comb begin
    if (clear_i)     acc_d = '0;
    else if (active) acc_d = total[W-1:0];
    else             acc_d = acc_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q   <= '0;
      run_q   <= 1'b0;
      digit_q <= 2'd0;
      msb_q   <= 1'b0;
      cx1_q   <= 1'b0;
      cx2_q   <= 1'b0;
    end else begin
      acc_q   <= acc_d;
      run_q   <= active && !clear_i;
      digit_q <= digit_i;
      msb_q   <= t_i[W-1];
      cx1_q   <= active && csa_carry[W-1];
      cx2_q   <= active && total[W];
    end
  end

  assign acc_o   = acc_q;
  assign run_o   = run_q;
  assign digit_o = digit_q;
  assign msb_o   = msb_q;
  assign cx1_o   = cx1_q;
  assign cx2_o   = cx2_q;
endmodule
