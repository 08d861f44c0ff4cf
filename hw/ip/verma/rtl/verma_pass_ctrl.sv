// The clock schedule of one EWBR4CMMM pass (Verma et al. §4.2; montu.arith.verma.ewbr4cmmm's
// cycle model): clock 0 loads (steps 1-2), then in clock c = 1 .. I + m
//   PE0 runs reduction iteration i = c            for 1 <= c <= I           (steps 3-21)
//   XPE0, YPE0 run accumulation iteration i = c   for g-t+2 <= c <= I+1     (steps 24-29)
//     with the digits of index I + 1 - c (MSB first: D-1 down to 0; verma_digit_reg counts them)
// and word j follows j clocks later through the PEs' registers. Clock I + m is the last: XPE_{m-1}
// accumulates word m-1 of iteration I+1. A pass is I + m + 1 clocks (the paper's k/2 + g + m + 1);
// a new pass may load in the clock after the last (the ladder's passes run back to back).
//
// The clock counter c and the three flags derived from it (red_run, acc_run, last) are
// registers: the flags are computed from the counter's next value, so that no comparator sits
// between the counter and the PEs (or the shell's FSM).
module verma_pass_ctrl #(
  parameter int unsigned CntW = 10
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,
  input  logic            start_i,     // this clock is a pass's load clock (clock 0)
  input  logic [CntW-1:0] iters_i,     // I
  input  logic [CntW-1:0] pre_i,       // g - t
  input  logic [CntW-1:0] m_i,         // m
  output logic            red_run_o,   // 1 <= c <= I
  output logic            acc_run_o,   // g - t + 2 <= c <= I + 1
  output logic            last_o,      // c = I + m: the pass's last clock
  output logic            busy_o       // c != 0
);
  logic [CntW-1:0] c_q, c_d;   // the pass's clock; 0: no pass (or its load clock)
  logic            red_run_q, red_run_d, acc_run_q, acc_run_d, last_q, last_d;

  assign busy_o    = (c_q != '0);
  assign last_o    = last_q;
  assign red_run_o = red_run_q;
  assign acc_run_o = acc_run_q;

  always_comb begin
    if (clear_i)      c_d = '0;
    else if (start_i) c_d = CntW'(1);
    else if (last_q)  c_d = '0;
    else if (busy_o)  c_d = c_q + CntW'(1);
    else              c_d = c_q;
    red_run_d = (c_d != '0) && (c_d <= iters_i);
    acc_run_d = (c_d >= pre_i + CntW'(2)) && (c_d <= iters_i + CntW'(1));
    last_d    = (c_d != '0) && (c_d == iters_i + m_i);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_q       <= '0;
      red_run_q <= 1'b0;
      acc_run_q <= 1'b0;
      last_q    <= 1'b0;
    end else begin
      c_q       <= c_d;
      red_run_q <= red_run_d;
      acc_run_q <= acc_run_d;
      last_q    <= last_d;
    end
  end
endmodule
