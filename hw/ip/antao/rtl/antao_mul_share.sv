// A product formed over the Share clocks of one step (MulShare > 1): P = A * B row block by row
// block, Horner's way, on G = ceil(KX / NB) * KY multipliers instead of KA * KB, where NB, the
// blocks, is Share (InStep = 0) or Share - 1 (InStep = 1).
//
// X and Y are A and B, or B and A, whichever needs fewer multipliers (X is cut into KX limbs of
// LX bits, Y into KY limbs of LY bits; a limb product of at most 18 x 18 bits is one MULT18X18D).
// X's limbs are grouped into NB blocks of R = ceil(KX / NB) limbs (the top block padded with zero
// limbs). In the clock of phase g (0 .. NB-1) the multipliers form block t = NB-1-g, top block
// first, times all of Y (in a later phase, InStep's last, they form block 0 again, unused):
//   V_t   = sum_(r < R, j < KY) x_(tR + r) * y_j * 2^(LX*r + LY*j)      (fixed weights: wiring)
// The products of a block do not move: only X's limbs are selected by the phase (an LX-bit
// NB:1 multiplexer per multiplier row, none when NB = 1), and those of one r with j of the same
// parity do not overlap, so they are concatenated into 2R rows. Every limb product is registered
// where it is formed (montu_mul_reg: the MULT18X18D's own output register when synthesized) and
// added one clock later under the partial sum: SUM <= SUM * 2^(LX*R) + V, SUM cleared in phase 0.
// So no path runs from the multiplexer through a multiplier into the adder. a_i and b_i must hold
// for the whole step, from its first clock (phase 0) on (they are registers of the run datapath,
// which change only at the end of a step). Share >= 2. Two forms:
//   InStep = 0  for a product with a step of slack (antao_mul's X * Y): NB = Share blocks in
//               phases 0 .. Share-1; the last one is added in the NEXT step's phase 0 into the
//               result register RES, which p_o is. So p_o = A * B of the step before, from the
//               second clock (phase 1) of a step to the first clock of the next one; RES is
//               written only in the clock after a step's last clock.
//   InStep = 1  for a product needed in its own step (the folds, ALPHA * D[LP]): NB = Share - 1
//               blocks in phases 0 .. Share-2, one clock ahead, so the last block is added in the
//               step's last clock (phase Share-1) and p_o = A * B there, from registers through
//               the rows' add only. With Share = 2 that is every limb product, formed in phase 0
//               and added up in phase 1 (no partial sum, no multiplexer).
module antao_mul_share #(
  parameter int unsigned AW     = 64,
  parameter int unsigned BW     = 64,
  parameter int unsigned LimbA  = 16,
  parameter int unsigned LimbB  = 16,
  parameter int unsigned Share  = 2,
  parameter bit          InStep = 1'b0,
  localparam int unsigned PW    = AW + BW
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [3:0]    phase_i,   // the clock of the step, 0 .. Share-1
  input  logic [AW-1:0] a_i,
  input  logic [BW-1:0] b_i,
  output logic [PW-1:0] p_o        // InStep = 1: a_i * b_i in the clock of phase Share-1;
                                   // InStep = 0: a_i * b_i of the step before, phase 1 to 0
);
  localparam int unsigned S    = (Share < 2) ? 2 : Share;      // antao_top uses it for Share > 1
  localparam int unsigned NB   = InStep ? S - 1 : S;           // blocks of X
  localparam int unsigned LA   = (LimbA < AW) ? LimbA : AW;   // limb widths
  localparam int unsigned LB   = (LimbB < BW) ? LimbB : BW;
  localparam int unsigned KA   = (AW + LA - 1) / LA;
  localparam int unsigned KB   = (BW + LB - 1) / LB;
  localparam int unsigned GA   = ((KA + NB - 1) / NB) * KB;  // multipliers with X = A
  localparam int unsigned GB   = ((KB + NB - 1) / NB) * KA;  // ... with X = B
  localparam bit          Swap = GB < GA;
  localparam int unsigned XW   = Swap ? BW : AW;
  localparam int unsigned YW   = Swap ? AW : BW;
  localparam int unsigned LX   = Swap ? LB : LA;
  localparam int unsigned LY   = Swap ? LA : LB;
  localparam int unsigned KX   = Swap ? KB : KA;
  localparam int unsigned KY   = Swap ? KA : KB;
  localparam int unsigned R    = (KX + NB - 1) / NB;    // X's limbs per block
  localparam int unsigned LW   = LX + LY;                       // one limb product
  localparam int unsigned Rows = 2 * R;                         // non-overlapping rows of a block

  if (Share < 2) begin : g_bad_share
    $error("antao_mul_share: Share must be at least 2");
  end

  logic [XW-1:0]         x;
  logic [YW-1:0]         y;
  logic [LX*R*NB-1:0]    x_ext;     // NB blocks of R limbs
  logic [LY*KY-1:0]      y_ext;
  logic [LX-1:0]         x_limb [R];
  logic [LW-1:0]         prod   [R][KY];
  logic [PW-1:0]         rows   [Rows];
  logic [PW-1:0]         acc;       // the partial sum with the block of the clock before

  if (Swap) begin : g_swap
    assign x = b_i;
    assign y = a_i;
  end else begin : g_keep
    assign x = a_i;
    assign y = b_i;
  end
  assign x_ext = (LX*R*NB)'(x);
  assign y_ext = (LY*KY)'(y);

  // X's limbs of this clock's block: t = NB-1-phase; block 0 in phase NB-1 and after it
  always_comb begin
    for (int unsigned r = 0; r < R; r++) begin
      x_limb[r] = x_ext[LX * r +: LX];
      for (int unsigned g = 0; g + 1 < NB; g++) begin
        if (32'(phase_i) == g) x_limb[r] = x_ext[LX * ((NB - 1 - g) * R + r) +: LX];
      end
    end
  end

  // the limb products of this clock's block, registered in their MULT18X18D
  for (genvar r = 0; r < int'(R); r++) begin : g_row
    for (genvar j = 0; j < int'(KY); j++) begin : g_col
      montu_mul_reg #(.AW(LX), .BW(LY)) u_prod (
        .clk_i, .en_i(1'b1), .a_i(x_limb[r]), .b_i(y_ext[LY * j +: LY]), .p_o(prod[r][j])
      );
    end
  end

  // row (r, parity): the products x_r * y_j with j = parity, parity + 2, ... at bit LX*r + LY*j
  always_comb begin
    for (int unsigned k = 0; k < Rows; k++) rows[k] = '0;
    for (int unsigned r = 0; r < R; r++) begin
      for (int unsigned j = 0; j < KY; j++) begin
        rows[2*r + j%2] = rows[2*r + j%2] | (PW'(prod[r][j]) << (LX * r + LY * j));
      end
    end
  end

  if (NB == 1) begin : g_one_block
    // InStep with Share = 2: every limb product formed in phase 0, their rows added in phase 1
    always_comb begin
      acc = '0;
      for (int unsigned k = 0; k < Rows; k++) acc = acc + rows[k];
    end
  end else begin : g_blocks
    logic [PW-1:0] sum_q;

    // the block of the clock before under the partial sum (0 in phase 1: cleared in phase 0)
    always_comb begin
      acc = sum_q << (LX * R);
      for (int unsigned k = 0; k < Rows; k++) acc = acc + rows[k];
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) sum_q <= '0;
      else         sum_q <= (phase_i == 4'd0) ? '0 : acc;
    end
  end

  if (InStep) begin : g_in_step
    assign p_o = acc;

`ifndef SYNTHESIS
    // the step's last clock: p_o is the product of the step's operands (which hold from phase 0)
    /* verilator lint_off SYNCASYNCNET */
    ProductInTheLastClock: assert property (@(posedge clk_i) disable iff (!rst_ni)
        (32'(phase_i) == S - 1) |-> (p_o == PW'(a_i) * PW'(b_i)))
      else $error("antao_mul_share: p_o is not the product in the step's last clock");
    /* verilator lint_on SYNCASYNCNET */
`endif
  end else begin : g_next_step
    logic [PW-1:0] res_q;
    logic          last_q;   // the clock before was a step's last: acc holds the whole product

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        res_q  <= '0;
        last_q <= 1'b0;
      end else begin
        last_q <= (32'(phase_i) == S - 1);
        if (last_q) res_q <= acc;
      end
    end

    assign p_o = res_q;

`ifndef SYNTHESIS
    // RES is the product of the operands of the step before (a reference model, simulation only)
    logic [AW-1:0] a_q;
    logic [BW-1:0] b_q;
    logic          primed_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        a_q      <= '0;
        b_q      <= '0;
        primed_q <= 1'b0;
      end else if (32'(phase_i) == S - 1) begin
        a_q      <= a_i;
        b_q      <= b_i;
        primed_q <= 1'b1;
      end
    end
    /* verilator lint_off SYNCASYNCNET */
    ResultIsTheProduct: assert property (@(posedge clk_i) disable iff (!rst_ni)
        (primed_q && (phase_i != 4'd0)) |-> (res_q == PW'(a_q) * PW'(b_q)))
      else $error("antao_mul_share: the result register is not the product of the step before");
    /* verilator lint_on SYNCASYNCNET */
`endif
  end

`ifndef SYNTHESIS
  // the operands hold for the whole step: they change only in a step's first clock (phase 0)
  /* verilator lint_off SYNCASYNCNET */
  OperandsHoldForTheStep: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (phase_i != 4'd0) |-> ($stable(a_i) && $stable(b_i)))
    else $error("antao_mul_share: an operand changed in the middle of a step");
  PhaseInRange: assert property (@(posedge clk_i) disable iff (!rst_ni)
      32'(phase_i) < Share)
    else $error("antao_mul_share: phase_i beyond the step");
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
