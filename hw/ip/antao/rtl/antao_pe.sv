// One processing element of the antao ring (Antão & Sousa, Fig. 4): channel e of both RNS bases.
//
//   RAM      Depth x W words: read ports a, b (synchronous: addresses in stage 0, data in
//            stage 1), write port d (stage S+2); two montu_ram_1r1w (block RAM), one per read port
//   X, Y, Z  the operand multiplexers (stage 1): X in {A, R, IN, ALPHA}, Y in {B, 1, 0, IN},
//            Z in {0, A, B, m - B, IN, m - A} (m - x taken mod 2^AccBits)
//   X * Y    the binary multiplier (antao_mul: limb products registered, then the sum), stages 1 .. S
//   SUM      X*Y + Z + (accin ? ACC : 0) mod 2^AccBits (stage S); ACC <= SUM if accwr
//   RES      SUM mod m (antao_chan_reduce, stages S+1, S+2); RAM[d] <= RES (wr = RED) or
//            R[W-1:0] as it was in stage 1 (wr = RAW)
//   R        the ring register (2W bits, stage 1): R <= RAM[a], r_prev_i (HOP, SHIN), ACC
//   c1, c2   the channel constants, m = 2^W - c_base (STOREC: c_base <= R[CBits-1:0])
// Every stage-1 effect reads the registers as they were before the clock. The control of an
// instruction enters in stage 1 (s1_*) and travels down this PE's own pipeline.
// Stages are steps: every register of the run (RAM reads and writes, R, c, ACC, the pipeline)
// changes only at the end of a step (step_i, high one clock in MulShare; always with
// MulShare = 1), so that the products of X * Y and of the reduction can be formed over the
// MulShare clocks of their step on fewer MULT18X18D. WIPE's RAM writes and clear_i ignore it.
module antao_pe
  import antao_ucode_pkg::*;
#(
  parameter int unsigned W         = 64,
  parameter int unsigned Depth     = 256,
  parameter int unsigned MulStages = 2,
  parameter int unsigned MulShare  = 1,
  localparam int unsigned AW       = $clog2(Depth),
  localparam int unsigned CBits    = W / 4,
  localparam int unsigned AccBits  = 2 * W + 8,
  localparam int unsigned S        = 1 + MulStages
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           step_i,       // the run datapath's clock enable
  input  logic [3:0]     phase_i,      // the clock of the step (MulShare > 1)
  input  logic           clear_i,      // WIPE: c, ACC, R <= 0
  input  logic           wipe_we_i,    // WIPE: RAM[wipe_addr_i] <= 0
  input  logic [AW-1:0]  wipe_addr_i,
  // stage 0
  input  logic [AW-1:0]  ra_i,
  input  logic [AW-1:0]  rb_i,
  // stage 1
  input  logic           s1_valid_i,
  input  logic [1:0]     s1_xsel_i,
  input  logic [1:0]     s1_ysel_i,
  input  logic [2:0]     s1_zsel_i,
  input  logic           s1_accin_i,
  input  logic           s1_accwr_i,
  input  logic [1:0]     s1_wr_i,
  input  logic           s1_base_i,
  input  logic [2:0]     s1_ring_i,
  input  logic [AW-1:0]  s1_d_i,
  input  logic [W-1:0]   in_i,         // the input FIFO's head (0 when empty)
  input  logic [7:0]     alpha_i,      // ALPHA
  input  logic [2*W-1:0] r_prev_i,     // R of PE e-1 (PE 0: R of PE P-1, or IN for SHIN)
  output logic [2*W-1:0] r_o,
  // stage S+2 (assertions)
  output logic           red_valid_o,  // RES is written to the RAM this clock
  output logic [W-1:0]   res_o,
  output logic [W:0]     m_o
);
  // ---------------------------------------------------------------------------------------
  // RAM
  // ---------------------------------------------------------------------------------------
  // One copy per read port, written together (montu_ram_1r1w: plain block RAM). A read of the
  // word being written in the same clock is undefined there, as in the DP16KD, and no
  // instruction uses one: an instruction writes the RAM at the end of its stage S + 2, L - 1
  // steps after its issue, and the RAM interlock (antao_seq) holds a reader of that word until
  // the writer issued L steps or more before, so the read comes a step after the write at the
  // earliest. The simulation model returns such a read inverted, so a use of one fails the
  // benches. (Before, one array read in the same always_ff as its write: Yosys emulated the
  // "old word" read with registers on every write input and a bypass behind every read port,
  // #21: 1,710 flip-flops of the RSA-512 build, its deepest group.)
  logic [W-1:0]  ram_a_q, ram_b_q, wdata;
  logic [AW-1:0] waddr;
  logic          we;

  montu_ram_1r1w #(.Width(W), .Depth(Depth)) u_ram_a (
    .clk_i, .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .re_i(step_i), .raddr_i(ra_i),
    .rdata_o(ram_a_q)
  );
  montu_ram_1r1w #(.Width(W), .Depth(Depth)) u_ram_b (
    .clk_i, .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .re_i(step_i), .raddr_i(rb_i),
    .rdata_o(ram_b_q)
  );

  // ---------------------------------------------------------------------------------------
  // Stage 1: operands, ring register, channel constants
  // ---------------------------------------------------------------------------------------
  logic [2*W-1:0]     r_q;
  logic [AccBits-1:0] acc_q;
  logic [CBits-1:0]   c_q [2];
  logic [CBits-1:0]   c1_eff;
  logic [W:0]         m1;
  logic [W-1:0]       x1, y1;
  logic [AccBits-1:0] z1;

  // the modulus of this instruction: a STOREC of its own base takes effect first
  assign c1_eff = (s1_ring_i == RingStorec) ? r_q[CBits-1:0] : c_q[s1_base_i];
  assign m1     = {1'b1, {W{1'b0}}} - (W+1)'(c1_eff);

  always_comb begin
    unique case (s1_xsel_i)
      XselA:   x1 = ram_a_q;
      XselR:   x1 = r_q[W-1:0];
      XselIn:  x1 = in_i;
      default: x1 = W'(alpha_i);
    endcase
    unique case (s1_ysel_i)
      YselB:    y1 = ram_b_q;
      YselOne:  y1 = W'(1);
      YselZero: y1 = '0;
      default:  y1 = in_i;
    endcase
    unique case (s1_zsel_i)
      ZselA:    z1 = AccBits'(ram_a_q);
      ZselB:    z1 = AccBits'(ram_b_q);
      ZselNegb: z1 = AccBits'(m1) - AccBits'(ram_b_q);
      ZselIn:   z1 = AccBits'(in_i);
      ZselNega: z1 = AccBits'(m1) - AccBits'(ram_a_q);
      default:  z1 = '0;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_q    <= '0;
      c_q[0] <= '0;
      c_q[1] <= '0;
    end else if (clear_i) begin
      r_q    <= '0;
      c_q[0] <= '0;
      c_q[1] <= '0;
    end else if (s1_valid_i && step_i) begin
      unique case (s1_ring_i)
        RingLoad:           r_q <= (2*W)'(ram_a_q);
        RingHop, RingShin:  r_q <= r_prev_i;
        RingAcc:            r_q <= acc_q[2*W-1:0];
        RingStorec:         c_q[s1_base_i] <= r_q[CBits-1:0];
        default: ;
      endcase
    end
  end
  assign r_o = r_q;

  // ---------------------------------------------------------------------------------------
  // Stages 1 .. S: the product (MulStages registers after the multiplier) and the control
  // ---------------------------------------------------------------------------------------
  typedef struct packed {
    logic          valid;
    logic          accin;
    logic          accwr;
    logic [1:0]    wr;
    logic          base;
    logic [AW-1:0] d;
    logic [W-1:0]  raw;      // R[W-1:0] as it was in stage 1 (wr = RAW)
  } ctl_t;

  logic [2*W-1:0]     prod;                 // X * Y of stage 1, in stage S
  logic [AccBits-1:0] z_q    [MulStages];

  antao_mul #(.W(W), .Stages(MulStages), .Share(MulShare)) u_mul (
    .clk_i, .rst_ni, .step_i, .phase_i, .x_i(x1), .y_i(y1), .p_o(prod)
  );
  ctl_t               ctl1;
  ctl_t               ctl_q  [2:S+2];    // ctl_q[k]: the instruction in stage k

  assign ctl1 = '{valid: s1_valid_i, accin: s1_accin_i, accwr: s1_accwr_i, wr: s1_wr_i,
                  base: s1_base_i, d: s1_d_i, raw: r_q[W-1:0]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int k = 0; k < int'(MulStages); k++) begin
        z_q[k]    <= '0;
      end
      for (int k = 2; k <= int'(S) + 2; k++) ctl_q[k] <= '0;
    end else if (step_i) begin
      z_q[0]    <= z1;
      for (int k = 1; k < int'(MulStages); k++) begin
        z_q[k]    <= z_q[k-1];
      end
      ctl_q[2] <= ctl1;
      for (int k = 3; k <= int'(S) + 2; k++) ctl_q[k] <= ctl_q[k-1];
    end
  end

  // ---------------------------------------------------------------------------------------
  // Stage S: SUM and ACC
  // ---------------------------------------------------------------------------------------
  ctl_t               ctl_s, ctl_red;
  logic [AccBits-1:0] sum;

  assign ctl_s = ctl_q[S];
  assign sum   = AccBits'(prod) + z_q[MulStages-1] +
                 (ctl_s.accin ? acc_q : '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                       acc_q <= '0;
    else if (clear_i)                  acc_q <= '0;
    else if (step_i && ctl_s.valid && ctl_s.accwr) acc_q <= sum;
  end

  // ---------------------------------------------------------------------------------------
  // Stages S+1, S+2: RES = SUM mod m, the RAM write
  // ---------------------------------------------------------------------------------------
  logic [W-1:0] res;
  logic [W:0]   m_red;

  antao_chan_reduce #(.W(W), .CBits(CBits), .AccBits(AccBits), .Share(MulShare)) u_reduce (
    .clk_i, .rst_ni, .step_i, .phase_i,
    .sum_i(sum),
    .c_i  (c_q[ctl_s.base]),
    .res_o(res),
    .m_o  (m_red)
  );

  assign ctl_red = ctl_q[S+2];
  always_comb begin
    we    = 1'b0;
    waddr = ctl_red.d;
    wdata = (ctl_red.wr == WrRed) ? res : ctl_red.raw;
    if (wipe_we_i) begin
      we    = 1'b1;
      waddr = wipe_addr_i;
      wdata = '0;
    end else if (step_i && ctl_red.valid && (ctl_red.wr != WrNone)) begin
      we    = 1'b1;
    end
  end

  assign red_valid_o = step_i && ctl_red.valid && (ctl_red.wr == WrRed);

  logic unused_ctl;   // each stage reads its own fields of the control word
  assign unused_ctl = ^{ctl_s, ctl_red};
  assign res_o       = res;
  assign m_o         = m_red;
endmodule
