// The clock schedule of one EWBR4CMMM pass (Verma et al. §4.2; montu.arith.verma.ewbr4cmmm's
// cycle model): clock 0 loads (steps 1-2), then in clock c = 1 .. I + m
//   PE0 runs reduction iteration i = c            for 1 <= c <= I           (steps 3-21)
//   XPE0, YPE0 run accumulation iteration i = c   for g-t+2 <= c <= I+1     (steps 24-29)
//     with the digits of index I + 1 - c (MSB first: D-1 down to 0)
// and word j follows j clocks later through the PEs' registers. Clock I + m is the last: XPE_{m-1}
// accumulates word m-1 of iteration I+1. A pass is I + m + 1 clocks (the paper's k/2 + g + m + 1);
// a new pass may load in the clock after the last (the ladder's passes run back to back).
module verma_pass_ctrl #(
  parameter int unsigned CntW = 10,
  parameter int unsigned DiW  = 9
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,
  input  logic            start_i,     // this clock is a pass's load clock (clock 0)
  input  logic [CntW-1:0] iters_i,     // I
  input  logic [CntW-1:0] pre_i,       // g - t
  input  logic [CntW-1:0] m_i,         // m
  output logic            red_run_o,
  output logic            acc_run_o,
  output logic [DiW-1:0]  digit_idx_o, // I + 1 - c
  output logic            last_o,      // clock I + m: the pass's last clock
  output logic            busy_o
);
  logic [CntW-1:0] c_q, c_d;   // the pass's clock; 0: no pass (or its load clock)

  assign busy_o      = (c_q != '0);
  assign last_o      = busy_o && (c_q == iters_i + m_i);
  assign red_run_o   = busy_o && (c_q <= iters_i);
  assign acc_run_o   = (c_q >= pre_i + CntW'(2)) && (c_q <= iters_i + CntW'(1));
  assign digit_idx_o = DiW'(iters_i + CntW'(1) - c_q);

  always_comb begin
    if (clear_i)      c_d = '0;
    else if (start_i) c_d = CntW'(1);
    else if (last_o)  c_d = '0;
    else if (busy_o)  c_d = c_q + CntW'(1);
    else              c_d = c_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) c_q <= '0;
    else         c_q <= c_d;
  end
endmodule
