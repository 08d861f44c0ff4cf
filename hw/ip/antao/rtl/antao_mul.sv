// The PE's binary multiplier (Antão & Sousa, Fig. 4), P = X * Y on the ECP5's MULT18X18D blocks,
// pipelined over Stages clocks (the PE's MulStages): X and Y are cut into K limbs of Limb bits,
// K = ceil(W / 18) (a MULT18X18D multiplies 18 x 18 bits unsigned) and Limb = ceil(W / K), the
// narrowest limb at that K (16 bits for W = 64 and 96; 17 for W = 68, whose channels take a
// 256-bit modulus with 4 PEs on the 16 blocks of a 64-bit channel), and
//   stage 1     X and Y enter the K x K blocks' input registers (montu_mul_reg
//               with InReg: the block's own registers when synthesized). The PE's operands come
//               from its RAM's read ports through the operand multiplexers, so this stage ends
//               at a register with almost no setup instead of after the multiplier (#21: the
//               routed P-224 build's worst path was RAM read -> multiplexers -> multiplier ->
//               product register);
//   stage 2     (Stages >= 3) the limb products x_i * y_j in the blocks' output registers;
//   next stage  the products are summed: those with the same i and the same parity of j do not
//               overlap, so they are concatenated into 2K rows of 2W bits (no logic), and the rows
//               are added by a balanced tree of ceil(log2(2K)) adders; with Stages = 2 the
//               multiplier and the tree share this clock;
//   stages ...  registers (the product waits for the SUM stage).
// With Stages = 1 the products and the tree are one clock. The result is X * Y exactly.
// With Share > 1 (MulShare: the run datapath advances one step every Share clocks, step_i) the
// K x K limb products are formed over the Share clocks of stage 1 by ceil(K / Share) * K
// MULT18X18D (antao_mul_share, InStep = 0: one block of X's limbs per clock, each block's products
// registered in the blocks and added into the partial sum the clock after). The last block is
// added in the first clock of the next step, into antao_mul_share's result register, which
// takes the place of the first step register: it holds X * Y from the second clock of that step
// on, and Stages - 1 step registers follow it. With Stages >= 2, p_o is X * Y of Stages steps
// before, as with Share = 1; with Stages = 1 it is that from the step's second clock on (in the
// first clock it is still the product before), and the PE reads it only in the step's last
// clock (step_i), where the SUM stage's registers take it.
module antao_mul #(
  parameter int unsigned W      = 64,
  parameter int unsigned Stages = 2,
  parameter int unsigned Share  = 1
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           step_i,     // the run datapath's clock enable (1 when Share = 1)
  input  logic [3:0]     phase_i,    // the clock of the step (Share > 1)
  input  logic [W-1:0]   x_i,
  input  logic [W-1:0]   y_i,
  output logic [2*W-1:0] p_o         // x_i * y_i of Stages steps before
);
  localparam int unsigned PW   = 2 * W;
  localparam int unsigned K    = (W + 17) / 18;     // limbs: the fewest of at most 18 bits
  localparam int unsigned Limb = (W + K - 1) / K;   // the narrowest limb at that K
  localparam int unsigned LW   = 2 * Limb;          // one limb product

  if (Share == 1) begin : g_direct
    localparam int unsigned Rows = 2 * K;           // non-overlapping rows

    logic [Limb*K-1:0] x_ext, y_ext;
    logic [LW-1:0]     pp   [K][K];
    logic [PW-1:0]   rows [Rows];
    logic [PW-1:0]   sum;

    assign x_ext = (Limb*K)'(x_i);
    assign y_ext = (Limb*K)'(y_i);

    if (Stages >= 2) begin : g_pp_reg
      // each limb product formed in its MULT18X18D after the block's input registers, and with
      // Stages >= 3 held in its output register too (montu_mul_reg: the block's own registers
      // when synthesized), not in the fabric
      for (genvar i = 0; i < int'(K); i++) begin : g_i
        for (genvar j = 0; j < int'(K); j++) begin : g_j
          montu_mul_reg #(.AW(Limb), .BW(Limb), .InReg(1'b1), .OutReg(Stages >= 3)) u_pp (
            .clk_i, .en_i(step_i), .a_i(x_ext[Limb*i +: Limb]), .b_i(y_ext[Limb*j +: Limb]),
            .p_o(pp[i][j])
          );
        end
      end
    end else begin : g_pp_comb
      always_comb begin
        for (int i = 0; i < int'(K); i++) begin
          for (int j = 0; j < int'(K); j++) begin
            pp[i][j] = LW'(x_ext[Limb*i +: Limb]) * LW'(y_ext[Limb*j +: Limb]);
          end
        end
      end
    end

    // row (i, parity): the products x_i * y_j with j = parity, parity + 2, ... at bit Limb (i + j)
    always_comb begin
      for (int r = 0; r < int'(Rows); r++) rows[r] = '0;
      for (int i = 0; i < int'(K); i++) begin
        for (int j = 0; j < int'(K); j++) begin
          rows[2*i + (j % 2)] = rows[2*i + (j % 2)] | (PW'(pp[i][j]) << (Limb * (i + j)));
        end
      end
    end

    // a balanced adder tree over the rows
    localparam int unsigned Levels = $clog2(Rows);
    logic [PW-1:0] tree [Levels+1][1 << Levels];

    always_comb begin
      for (int r = 0; r < (1 << Levels); r++) tree[0][r] = (r < int'(Rows)) ? rows[r] : '0;
      for (int l = 1; l <= int'(Levels); l++) begin
        for (int r = 0; r < (1 << (int'(Levels) - l)); r++) begin
          tree[l][r] = tree[l-1][2*r] + tree[l-1][2*r+1];
        end
        for (int r = (1 << (int'(Levels) - l)); r < (1 << Levels); r++) tree[l][r] = '0;
      end
      sum = tree[Levels][0];
    end

    // the sum's register (stage 2 or 3, or stage 1 when Stages = 1), then the remaining delay
    localparam int unsigned Delay = (Stages >= 3) ? Stages - 2 : 1;
    logic [PW-1:0] p_q [Delay];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int k = 0; k < int'(Delay); k++) p_q[k] <= '0;
      end else if (step_i) begin
        p_q[0] <= sum;
        for (int k = 1; k < int'(Delay); k++) p_q[k] <= p_q[k-1];
      end
    end

    assign p_o = p_q[Delay-1];

    logic unused_phase;
    assign unused_phase = ^phase_i;
  end else begin : g_shared
    logic [PW-1:0] p;   // x_i * y_i of the step before, from the step's second clock

    antao_mul_share #(
      .AW(W), .BW(W), .LimbA(Limb), .LimbB(Limb), .Share(Share), .InStep(1'b0)
    ) u_share (
      .clk_i, .rst_ni, .phase_i, .a_i(x_i), .b_i(y_i), .p_o(p)
    );

    if (Stages == 1) begin : g_res
      assign p_o = p;

      logic unused_step;
      assign unused_step = step_i;
    end else begin : g_steps
      // the step registers after antao_mul_share's result register (the first stage)
      logic [PW-1:0] p_q [Stages-1];

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          for (int k = 0; k < int'(Stages) - 1; k++) p_q[k] <= '0;
        end else if (step_i) begin
          p_q[0] <= p;
          for (int k = 1; k < int'(Stages) - 1; k++) p_q[k] <= p_q[k-1];
        end
      end

      assign p_o = p_q[Stages-2];
    end
  end
endmodule
