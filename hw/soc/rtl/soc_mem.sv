// The SoC's memory and its few device registers, one AXI4 slave (CVA6's 64-bit AXI port).
//
// Memory map:
//   0x8000_0000 .. + MemBytes   RAM (instructions and data; CVA6 caches it), loaded from a hex
//                               file named by the +firmware=FILE plusarg (64-bit words, $readmemh)
//   0x1000_0000  W  putc: bits [7:0] go to the simulator's standard output
//   0x1000_0008  W  exit: bits [31:0] are the program's exit code; the simulation stops
//   0x1000_0010  R  cycles since reset (the SoC clock)
//   0x1000_0018  R  the Montu unit's cycles: the sum of its answered commands' cycle counts
//   0x1000_0020  R  unit commands answered
// Anything else reads 0 and ignores writes, with an AXI SLVERR response.
//
// One read and one write burst at a time (INCR or FIXED; CVA6 issues no WRAP bursts), a beat
// per clock. Atomic (ATOP) writes are refused with SLVERR: the firmware uses none.
module soc_mem #(
  parameter int unsigned MemBytes = 8 * 1024 * 1024
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  ariane_axi::req_t   axi_req_i,
  output ariane_axi::resp_t  axi_resp_o,
  input  logic [63:0]        unit_busy_cycles_i,
  input  logic [63:0]        unit_answered_i,
  output logic               exit_valid_o,
  output logic [31:0]        exit_code_o
);
  localparam int unsigned Words   = MemBytes / 8;
  localparam int unsigned Aw      = $clog2(Words);
  localparam logic [63:0] RamBase = 64'h8000_0000;
  localparam logic [63:0] IoBase  = 64'h1000_0000;

  import "DPI-C" function void soc_putc(input byte ch);

  logic [63:0] mem [Words];

  initial begin : load_firmware
    string file;
    if ($value$plusargs("firmware=%s", file)) begin
      $readmemh(file, mem);
    end
  end

  function automatic logic is_ram(logic [63:0] addr);
    return addr >= RamBase && addr < RamBase + 64'(MemBytes);
  endfunction

  function automatic logic [Aw-1:0] word_of(logic [63:0] addr);
    return Aw'((addr - RamBase) >> 3);
  endfunction

  logic [63:0] cycles_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cycles_q <= '0;
    else         cycles_q <= cycles_q + 64'd1;
  end

  // ------------------------------------------------------------------ read channel
  logic                     rd_busy_q;
  ariane_axi::id_t          rd_id_q;
  logic [63:0]              rd_addr_q;
  axi_pkg::len_t            rd_left_q;
  axi_pkg::size_t           rd_size_q;
  axi_pkg::burst_t          rd_burst_q;
  logic [63:0]              rd_data;
  logic                     rd_ok;

  always_comb begin
    rd_ok   = 1'b1;
    rd_data = '0;
    if (is_ram(rd_addr_q)) begin
      rd_data = mem[word_of(rd_addr_q)];
    end else begin
      unique case (rd_addr_q - IoBase)
        64'h10:  rd_data = cycles_q;
        64'h18:  rd_data = unit_busy_cycles_i;
        64'h20:  rd_data = unit_answered_i;
        default: rd_ok = 1'b0;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_busy_q  <= 1'b0;
      rd_id_q    <= '0;
      rd_addr_q  <= '0;
      rd_left_q  <= '0;
      rd_size_q  <= '0;
      rd_burst_q <= '0;
    end else if (!rd_busy_q) begin
      if (axi_req_i.ar_valid) begin
        rd_busy_q  <= 1'b1;
        rd_id_q    <= axi_req_i.ar.id;
        rd_addr_q  <= axi_req_i.ar.addr;
        rd_left_q  <= axi_req_i.ar.len;
        rd_size_q  <= axi_req_i.ar.size;
        rd_burst_q <= axi_req_i.ar.burst;
      end
    end else if (axi_req_i.r_ready) begin
      if (rd_left_q == '0) begin
        rd_busy_q <= 1'b0;
      end else begin
        rd_left_q <= rd_left_q - 1'b1;
        if (rd_burst_q != axi_pkg::BURST_FIXED) begin
          rd_addr_q <= rd_addr_q + (64'd1 << rd_size_q);
        end
      end
    end
  end

  // ------------------------------------------------------------------ write channel
  typedef enum logic [1:0] {WrIdle, WrData, WrResp} wr_state_e;
  wr_state_e                wr_state_q;
  ariane_axi::id_t          wr_id_q;
  logic [63:0]              wr_addr_q;
  axi_pkg::size_t           wr_size_q;
  axi_pkg::burst_t          wr_burst_q;
  logic                     wr_atomic_q;
  logic                     wr_ok_q;
  logic                     exit_valid_q;
  logic [31:0]              exit_code_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_state_q   <= WrIdle;
      wr_id_q      <= '0;
      wr_addr_q    <= '0;
      wr_size_q    <= '0;
      wr_burst_q   <= '0;
      wr_atomic_q  <= 1'b0;
      wr_ok_q      <= 1'b1;
      exit_valid_q <= 1'b0;
      exit_code_q  <= '0;
    end else begin
      unique case (wr_state_q)
        WrIdle: begin
          if (axi_req_i.aw_valid) begin
            wr_state_q  <= WrData;
            wr_id_q     <= axi_req_i.aw.id;
            wr_addr_q   <= axi_req_i.aw.addr;
            wr_size_q   <= axi_req_i.aw.size;
            wr_burst_q  <= axi_req_i.aw.burst;
            wr_atomic_q <= axi_req_i.aw.atop != '0;
            wr_ok_q     <= axi_req_i.aw.atop == '0;
          end
        end
        WrData: begin
          if (axi_req_i.w_valid) begin
            if (!wr_atomic_q) begin
              if (is_ram(wr_addr_q)) begin
                for (int b = 0; b < 8; b++) begin
                  if (axi_req_i.w.strb[b]) mem[word_of(wr_addr_q)][8*b +: 8] <= axi_req_i.w.data[8*b +: 8];
                end
              end else if (wr_addr_q - IoBase == 64'h0) begin
                soc_putc(axi_req_i.w.data[7:0]);
              end else if (wr_addr_q - IoBase == 64'h8) begin
                exit_valid_q <= 1'b1;
                exit_code_q  <= axi_req_i.w.data[31:0];
              end else begin
                wr_ok_q <= 1'b0;
              end
            end
            if (wr_burst_q != axi_pkg::BURST_FIXED) begin
              wr_addr_q <= wr_addr_q + (64'd1 << wr_size_q);
            end
            if (axi_req_i.w.last) wr_state_q <= WrResp;
          end
        end
        WrResp: begin
          if (axi_req_i.b_ready) wr_state_q <= WrIdle;
        end
        default: wr_state_q <= WrIdle;
      endcase
    end
  end

  always_comb begin
    axi_resp_o          = '0;
    axi_resp_o.ar_ready = !rd_busy_q;
    axi_resp_o.r_valid  = rd_busy_q;
    axi_resp_o.r.id     = rd_id_q;
    axi_resp_o.r.data   = rd_data;
    axi_resp_o.r.resp   = rd_ok ? axi_pkg::RESP_OKAY : axi_pkg::RESP_SLVERR;
    axi_resp_o.r.last   = rd_left_q == '0;
    axi_resp_o.aw_ready = wr_state_q == WrIdle;
    axi_resp_o.w_ready  = wr_state_q == WrData;
    axi_resp_o.b_valid  = wr_state_q == WrResp;
    axi_resp_o.b.id     = wr_id_q;
    axi_resp_o.b.resp   = wr_ok_q ? axi_pkg::RESP_OKAY : axi_pkg::RESP_SLVERR;
  end

  assign exit_valid_o = exit_valid_q;
  assign exit_code_o  = exit_code_q;

endmodule
