// The output accumulator (stage 1): the CRT reverse conversion X = sum(xi_hat * M1/m_i) -
// ALPHA * M1 and the final subtractions, limb by limb (W-bit limbs, P + 1 of them).
//   OACC (AccBits), LP (limb pointer, counts modulo P + 1), BR (borrow),
//   X (result), Y (X - N), N (modulus), D (the limbs of 2^(W(P+1)) - M1)
//   CLR     OACC <= 0, LP <= 0, BR <= 0
//   ADD     OACC <= OACC + R_(P-1)
//   LIMB    t = OACC + ALPHA * D[LP]; X[LP] <= t mod 2^W; OACC <= t >> W; LP += 1
//   SUB     Y[LP] <= X[LP] - N[LP] - BR mod 2^W; BR <= borrow; LP += 1
//   COMMIT  if BR == 0 then X <= Y; LP <= 0; BR <= 0
//   OUT     push X[LP] to the output FIFO; LP += 1 (nothing when the FIFO is full: E_OUT)
//   LDN     N[LP] <= IN; LP += 1
//   LDD     D[LP] <= IN; LP += 1
//   RST     LP <= 0, BR <= 0
// An operation takes effect at the end of its step (valid_i: the instruction is in stage 1 and
// step_i). With Share = 1 the product ALPHA * D[LP] comes from ceil(W/18) MULT18X18D whose
// input registers hold copies of ALPHA and D[LP] (antao_fold_dsp): every clock
// they take the values ALPHA and D[LP] will have after it (alpha_next_i; LP and D's next state
// here), so the product is ready in the same clock as before, and neither LP's limb select nor
// the alpha accumulator lies on the path into the multiplier and the accumulator's add. With
// Share > 1 the product is formed over the step by antao_mul_share (InStep: its operands, ALPHA
// and D[LP], are registers that change only at the end of a step, so they hold from the step's
// first clock; the limb products are formed in its first Share - 1 clocks, registered in their
// MULT18X18D, and the step's last clock only adds the last block under the partial sum: no
// multiplier between LP's limb select and the accumulator's add).
module antao_out_acc
  import antao_ucode_pkg::*;
#(
  parameter int unsigned W = 64,
  parameter int unsigned P = 4,
  parameter int unsigned Share = 1,
  localparam int unsigned AccBits = 2 * W + 8,
  localparam int unsigned Limbs   = P + 1,
  localparam int unsigned LpW     = $clog2(Limbs)
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           clear_i,
  input  logic           valid_i,     // the instruction in stage 1, at the end of its step
  input  logic [3:0]     phase_i,     // the clock of the step (Share > 1)
  input  logic [3:0]     op_i,
  input  logic [2*W-1:0] r_last_i,    // R_(P-1)
  input  logic [7:0]     alpha_i,
  input  logic [7:0]     alpha_next_i, // ALPHA after this clock's edge
  input  logic [W-1:0]   in_i,        // the input FIFO's head (0 when empty)
  input  logic           out_full_i,
  output logic           push_o,      // push push_data_o to the output FIFO
  output logic [W-1:0]   push_data_o
);
  logic [AccBits-1:0]      oacc_q;
  logic [LpW-1:0]          lp_q, lp_inc;
  logic                    br_q;
  logic [Limbs-1:0][W-1:0] x_q, y_q, n_q, d_q;
  logic [AccBits:0]        limb;
  logic [W:0]              diff;

  assign lp_inc = (32'(lp_q) == Limbs - 1) ? '0 : lp_q + LpW'(1);
  if (Share == 1) begin : g_direct
    logic [LpW-1:0] lp_next;
    logic [W-1:0]   d_next;    // D[LP] after this clock's edge
    logic [W+7:0]   alpha_d;   // ALPHA * D[LP]

    // LP and D[LP] after this edge: the next state of the registers below
    always_comb begin
      lp_next = lp_q;
      if (clear_i) begin
        lp_next = '0;
      end else if (valid_i) begin
        unique case (op_i)
          OaccClr, OaccCommit, OaccRst:          lp_next = '0;
          OaccLimb, OaccSub, OaccLdn, OaccLdd:   lp_next = lp_inc;
          OaccOut:                               if (!out_full_i) lp_next = lp_inc;
          default: ;
        endcase
      end
      if (clear_i)                                                  d_next = '0;
      else if (valid_i && (op_i == OaccLdd) && (lp_next == lp_q))   d_next = in_i;
      else                                                          d_next = d_q[lp_next];
    end
    antao_fold_dsp #(.AW(W), .BW(8)) u_alpha_d (
      .clk_i, .en_i(1'b1), .a_i(d_next), .b_i(alpha_next_i), .p_o(alpha_d)
    );
    assign limb = (AccBits+1)'(oacc_q) + (AccBits+1)'(alpha_d);

    logic unused_phase;
    assign unused_phase = ^phase_i;

`ifndef SYNTHESIS
    // the blocks' operand copies are ALPHA and D[LP] whenever a LIMB reads them
    /* verilator lint_off SYNCASYNCNET */
    LimbOperandsAreCurrent: assert property (@(posedge clk_i) disable iff (!rst_ni)
        (valid_i && (op_i == OaccLimb)) |-> (alpha_d == (W+8)'(alpha_i) * (W+8)'(d_q[lp_q])))
      else $error("antao_out_acc: the multiplier's operand copies are stale");
    /* verilator lint_on SYNCASYNCNET */
`endif
  end else begin : g_shared
    logic unused_alpha_next;
    assign unused_alpha_next = ^alpha_next_i;

    logic [W+7:0] alpha_d;   // ALPHA * D[LP]

    antao_mul_share #(
      .AW(8), .BW(W), .LimbA(18), .LimbB(18), .Share(Share), .InStep(1'b1)
    ) u_share (
      .clk_i, .rst_ni, .phase_i, .a_i(alpha_i), .b_i(d_q[lp_q]), .p_o(alpha_d)
    );
    assign limb = (AccBits+1)'(oacc_q) + (AccBits+1)'(alpha_d);
  end
  assign diff   = (W+1)'(x_q[lp_q]) - (W+1)'(n_q[lp_q]) - (W+1)'(br_q);

  assign push_o      = valid_i && (op_i == OaccOut) && !out_full_i;
  assign push_data_o = x_q[lp_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      oacc_q <= '0;
      lp_q   <= '0;
      br_q   <= 1'b0;
      x_q    <= '0;
      y_q    <= '0;
      n_q    <= '0;
      d_q    <= '0;
    end else if (clear_i) begin
      oacc_q <= '0;
      lp_q   <= '0;
      br_q   <= 1'b0;
      x_q    <= '0;
      y_q    <= '0;
      n_q    <= '0;
      d_q    <= '0;
    end else if (valid_i) begin
      unique case (op_i)
        OaccClr: begin
          oacc_q <= '0;
          lp_q   <= '0;
          br_q   <= 1'b0;
        end
        OaccAdd: oacc_q <= oacc_q + AccBits'(r_last_i);
        OaccLimb: begin
          x_q[lp_q] <= limb[W-1:0];
          oacc_q    <= AccBits'(limb >> W);
          lp_q      <= lp_inc;
        end
        OaccSub: begin
          y_q[lp_q] <= diff[W-1:0];
          br_q      <= diff[W];
          lp_q      <= lp_inc;
        end
        OaccCommit: begin
          if (!br_q) x_q <= y_q;
          lp_q <= '0;
          br_q <= 1'b0;
        end
        OaccOut: if (!out_full_i) lp_q <= lp_inc;
        OaccLdn: begin
          n_q[lp_q] <= in_i;
          lp_q      <= lp_inc;
        end
        OaccLdd: begin
          d_q[lp_q] <= in_i;
          lp_q      <= lp_inc;
        end
        OaccRst: begin
          lp_q <= '0;
          br_q <= 1'b0;
        end
        default: ;
      endcase
    end
  end
endmodule
