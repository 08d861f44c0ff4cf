// The Montu SoC: CVA6 (RV64IMAC, from the pythondata-cpu-cva6 package) with the Montu unit on
// its CV-X-IF coprocessor port, one memory and a few device registers (soc_mem).
module montu_soc_top #(
  parameter int unsigned MemBytes = 8 * 1024 * 1024,
  parameter int unsigned Lanes    = 2,
  parameter int unsigned MaxBits  = 4096
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic        exit_valid_o,
  output logic [31:0] exit_code_o
);
  localparam logic [63:0] BootAddr = 64'h8000_0000;
  localparam int unsigned NrRules  = ariane_pkg::NrMaxRules;
  // one PMA rule in slot 0, the other slots zero
  localparam logic [NrRules-1:0][63:0] IoRule   = {{(NrRules - 1){64'h0}}, 64'h1000_0000};
  localparam logic [NrRules-1:0][63:0] IoLength = {{(NrRules - 1){64'h0}}, 64'h0000_1000};
  localparam logic [NrRules-1:0][63:0] RamRule  = {{(NrRules - 1){64'h0}}, BootAddr};
  localparam logic [NrRules-1:0][63:0] RamSize  = {{(NrRules - 1){64'h0}}, 64'(MemBytes)};

  // CVA6's default configuration with the SoC's memory map: RAM executable and cached, the
  // device registers neither.
  localparam ariane_pkg::ariane_cfg_t SocCfg = '{
    RASDepth:              2,
    BTBEntries:            32,
    BHTEntries:            128,
    NrNonIdempotentRules:  1,
    NonIdempotentAddrBase: IoRule,
    NonIdempotentLength:   IoLength,
    NrExecuteRegionRules:  1,
    ExecuteRegionAddrBase: RamRule,
    ExecuteRegionLength:   RamSize,
    NrCachedRegionRules:   1,
    CachedRegionAddrBase:  RamRule,
    CachedRegionLength:    RamSize,
    AxiCompliant:          1'b1,
    SwapEndianess:         1'b0,
    DmBaseAddress:         64'h0,
    NrPMPEntries:          0
  };

  ariane_axi::req_t            axi_req;
  ariane_axi::resp_t           axi_resp;
  cvxif_pkg::cvxif_req_t       cvxif_req;
  cvxif_pkg::cvxif_resp_t      cvxif_resp;
  ariane_rvfi_pkg::rvfi_port_t rvfi;

  cva6 #(
    .ArianeCfg (SocCfg)
  ) u_cva6 (
    .clk_i,
    .rst_ni,
    .boot_addr_i  (BootAddr),
    .hart_id_i    ('0),
    .irq_i        ('0),
    .ipi_i        (1'b0),
    .time_irq_i   (1'b0),
    .debug_req_i  (1'b0),
    .rvfi_o       (rvfi),
    .cvxif_req_o  (cvxif_req),
    .cvxif_resp_i (cvxif_resp),
    .axi_req_o    (axi_req),
    .axi_resp_i   (axi_resp)
  );

  logic        cmd_valid, cmd_ready, rsp_valid, rsp_ready;
  logic [31:0] cmd_insn, rsp_cycles;
  logic [63:0] cmd_data, rsp_data;
  logic [3:0]  rsp_err, rsp_flags;
  logic [63:0] unit_busy_cycles, answered;

  montu_cvxif u_cvxif (
    .clk_i,
    .rst_ni,
    .cvxif_req_i        (cvxif_req),
    .cvxif_resp_o       (cvxif_resp),
    .rvfi_i             (rvfi),
    .cmd_valid_o        (cmd_valid),
    .cmd_ready_i        (cmd_ready),
    .cmd_insn_o         (cmd_insn),
    .cmd_data_o         (cmd_data),
    .rsp_valid_i        (rsp_valid),
    .rsp_ready_o        (rsp_ready),
    .rsp_data_i         (rsp_data),
    .rsp_err_i          (rsp_err),
    .rsp_flags_i        (rsp_flags),
    .rsp_cycles_i       (rsp_cycles),
    .unit_busy_cycles_o (unit_busy_cycles),
    .answered_o         (answered)
  );

  montu_top #(
    .Word    (64),
    .Lanes   (Lanes),
    .MaxBits (MaxBits)
  ) u_montu (
    .clk_i,
    .rst_ni,
    .cmd_valid_i   (cmd_valid),
    .cmd_ready_o   (cmd_ready),
    .cmd_insn_i    (cmd_insn),
    .cmd_data_i    (cmd_data),
    .rsp_valid_o   (rsp_valid),
    .rsp_ready_i   (rsp_ready),
    .rsp_data_o    (rsp_data),
    .rsp_err_o     (rsp_err),
    .rsp_flags_o   (rsp_flags),
    .rsp_cycles_o  (rsp_cycles),
    .busy_o        (unit_busy),
    .done_o        (unit_done),
    .err_o         (unit_err),
    .cycle_count_o (unit_cycle_count)
  );

  // the unit's status outputs: the adapter counts what the SoC needs itself
  logic        unit_busy, unit_done;
  logic [3:0]  unit_err;
  logic [63:0] unit_cycle_count;
  logic        unused_unit_status;
  assign unused_unit_status = ^{unit_busy, unit_done, unit_err, unit_cycle_count};

  soc_mem #(
    .MemBytes (MemBytes)
  ) u_mem (
    .clk_i,
    .rst_ni,
    .axi_req_i          (axi_req),
    .axi_resp_o         (axi_resp),
    .unit_busy_cycles_i (unit_busy_cycles),
    .unit_answered_i    (answered),
    .exit_valid_o,
    .exit_code_o
  );

endmodule
