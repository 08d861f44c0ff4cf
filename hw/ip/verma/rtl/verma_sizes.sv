// The sizes of EWBR4CMMM for the runtime modulus length k (SETLEN), held in registers: what the
// decoder (WR's range check, the word pointers), the pass controller (I + m + 1 clocks) and the
// PE array (PEs >= m idle) read. Same arithmetic as verma_core_pkg / montu.arith.verma:
//   g = 1 + bit_length(k), h = ceil(k/2), t = ceil(g/2), D = h + t, I = h + g,
//   m = ceil(2D / W) (here: the number of PE words j with j*W < 2D, no divider), Wd = ceil(2D/64).
// After reset (and until the first SETLEN) k = K.
module verma_sizes
  import verma_core_pkg::*;
#(
  parameter  int unsigned K    = 1024,
  parameter  int unsigned W    = 48,
  localparam int unsigned M    = pe_words(K, W),
  localparam int unsigned KW   = $clog2(K + 1),
  localparam int unsigned DW   = $clog2(2 * digits(K) + 1),
  localparam int unsigned CntW = $clog2(iterations(K) + M + 2),
  localparam int unsigned PtrW = $clog2(data_words(K) + 1)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            set_i,      // SETLEN: take k_i
  input  logic [KW-1:0]   k_i,
  output logic [KW-1:0]   k_o,        // k
  output logic [DW-1:0]   twod_o,     // 2D: the width of P, R, X, Y
  output logic [CntW-1:0] iters_o,    // I = h + g
  output logic [CntW-1:0] pre_o,      // g - t: the reduction-only iterations
  output logic [CntW-1:0] m_o,        // m
  output logic [PtrW-1:0] wd_o,       // Wd
  output logic [M-1:0]    en_o        // PE j works (j < m)
);
  typedef struct packed {
    logic [KW-1:0]   k;
    logic [DW-1:0]   twod;
    logic [CntW-1:0] iters;
    logic [CntW-1:0] pre;
    logic [CntW-1:0] m;
    logic [PtrW-1:0] wd;
    logic [M-1:0]    en;
  } sizes_t;

  // The sizes in two clocks, so that the bit length, the adds and the 2D < j*W compares are not
  // one path (#20: at K = 2048 it was the engine's deepest, 10 carry cells after data_q):
  // first k's own sizes, from k_i in every clock (its register, k_sizes_q, holds them for the
  // k_i of the clock before); then, at set_i, m and the PE enables from that register's 2D.
  // SETLEN's data word is in data_q from its accept on, so k_i is the same in the decode clock
  // before set_i (asserted below).
  function automatic sizes_t k_sizes_of(logic [KW-1:0] k);
    sizes_t      s;
    int unsigned g, h, t, d;
    g = 1;
    for (int unsigned b = 0; b < KW; b++) begin
      if (k[b]) g = b + 2;
    end
    h = (int'(k) + 1) / 2;
    t = (g + 1) / 2;
    d = h + t;
    s.k     = k;
    s.twod  = DW'(2 * d);
    s.iters = CntW'(h + g);
    s.pre   = CntW'(g - t);
    s.wd    = PtrW'((2 * d + 63) / 64);
    s.m     = '0;
    s.en    = '0;
    return s;
  endfunction

  function automatic sizes_t pe_sizes_of(sizes_t ks);
    sizes_t s;
    s = ks;
    for (int unsigned j = 0; j < M; j++) begin
      if (DW'(j * W) < ks.twod) begin
        s.m     = CntW'(j + 1);
        s.en[j] = 1'b1;
      end
    end
    return s;
  endfunction

  localparam sizes_t ResetSizes = pe_sizes_of(k_sizes_of(KW'(K)));

  sizes_t sizes_q, k_sizes_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      k_sizes_q <= ResetSizes;
      sizes_q   <= ResetSizes;
    end else begin
      k_sizes_q <= k_sizes_of(k_i);
      if (set_i) sizes_q <= pe_sizes_of(k_sizes_q);
    end
  end

  assign k_o     = sizes_q.k;
  assign twod_o  = sizes_q.twod;
  assign iters_o = sizes_q.iters;
  assign pre_o   = sizes_q.pre;
  assign m_o     = sizes_q.m;
  assign wd_o    = sizes_q.wd;
  assign en_o    = sizes_q.en;

`ifndef SYNTHESIS
  // k_sizes_q is k_i's only if k_i was the same in the clock before set_i
  /* verilator lint_off SYNCASYNCNET */
  SizesInputHeld: assert property (@(posedge clk_i) disable iff (!rst_ni)
      set_i |-> $stable(k_i))
    else $error("verma_sizes: k changed in the clock before SETLEN took it");
  /* verilator lint_on SYNCASYNCNET */
`endif
endmodule
