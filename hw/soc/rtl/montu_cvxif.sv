// CV-X-IF adapter: the Montu unit as a CVA6 coprocessor, driven by custom instructions.
//
// Encoding (R-type, opcode CUSTOM_2 = 0x5B, funct7 = 0; src/montu/isa/soc.yaml is the table,
// montu_cvxif_pkg.sv and the firmware header are generated from it):
//   mx.cmd  x0, rs1, rs2   rs1 = a Montu instruction word, rs2 = its data word      (side effect)
//   mx.clr  x0, rs1, rs2   clear the sticky error                                    (side effect)
//   mx.rd   rd, rs1        rd = response data of command number rs1                  (read)
//   mx.st   rd, rs1        rd = status of command number rs1: error, flags, cycles,  (read)
//                          or PENDING while it is not answered
//   mx.cnt  rd, rs1        rd = counter rs1 (committed, answered, unit cycles, first error, issued)
// Commands are numbered 0, 1, 2 ... in program order (mx.cmd and mx.clr alike); the firmware
// counts them too, so it names the response it wants.
//
// Speculation. This CVA6 signals X-IF commit in the issue cycle and never kills an offloaded
// instruction, so an instruction issued behind a trap, an interrupt or a pipeline flush (fence,
// CSR write) would reach the coprocessor although it never retires. The adapter therefore takes
// every side-effecting instruction from CVA6's commit stream (the RVFI port: the retired
// instruction word and its operand values) and never from the issue port: a command reaches the
// unit if and only if its instruction retired, once. The issue port only answers, in the cycle an
// instruction arrives: mx.cmd/mx.clr complete (no register write) and reads return what is known
// now. Reads have no side effect and never wait, so one that runs speculatively changes nothing
// and leaves nothing behind; the firmware polls mx.st until its command is answered.
//
// Flow control. The commit stream cannot be stalled, so credit is given at issue: a
// side-effecting instruction issues only while the command FIFO has InFlight free slots, InFlight
// being the scoreboard's size (no more instructions can be between issue and commit). Then the
// FIFO never overflows (asserted).
//
module montu_cvxif
  import montu_cvxif_pkg::*;
#(
  parameter int unsigned FifoDepth = MxFifoDepth,
  parameter int unsigned RingDepth = MxRingDepth,
  parameter int unsigned InFlight  = ariane_pkg::NR_SB_ENTRIES,
  parameter int unsigned Word      = 64
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // CVA6
  input  cvxif_pkg::cvxif_req_t        cvxif_req_i,
  output cvxif_pkg::cvxif_resp_t       cvxif_resp_o,
  input  ariane_rvfi_pkg::rvfi_port_t  rvfi_i,
  // the Montu unit's command/response port
  output logic                         cmd_valid_o,
  input  logic                         cmd_ready_i,
  output logic [31:0]                  cmd_insn_o,
  output logic [Word-1:0]              cmd_data_o,
  input  logic                         rsp_valid_i,
  output logic                         rsp_ready_o,
  input  logic [Word-1:0]              rsp_data_i,
  input  logic [3:0]                   rsp_err_i,
  input  logic [3:0]                   rsp_flags_i,
  input  logic [31:0]                  rsp_cycles_i,
  // counters for the SoC's device registers
  output logic [63:0]                  unit_busy_cycles_o,
  output logic [63:0]                  answered_o
);
  localparam int unsigned Fa = $clog2(FifoDepth);
  localparam int unsigned Ra = $clog2(RingDepth);

  if (FifoDepth < 2 * InFlight || (FifoDepth & (FifoDepth - 1)) != 0) begin : g_bad_fifo
    $error("montu_cvxif: FifoDepth must be a power of two >= 2 * InFlight");
  end
  if ((RingDepth & (RingDepth - 1)) != 0) begin : g_bad_ring
    $error("montu_cvxif: RingDepth must be a power of two");
  end

  // ------------------------------------------------------------------ decode
  function automatic logic is_ours(logic [6:0] funct7, logic [6:0] opcode);
    return funct7 == MxFunct7 && opcode == MxOpcode;
  endfunction

  function automatic logic has_side_effect(logic [2:0] funct3);
    return funct3 == MxCmd || funct3 == MxClr;
  endfunction

  function automatic logic is_read(logic [2:0] funct3);
    return funct3 == MxRd || funct3 == MxSt || funct3 == MxCnt;
  endfunction

  // ------------------------------------------------------------------ command FIFO (commit side)
  typedef struct packed {
    logic            clear;   // mx.clr (else mx.cmd)
    logic [31:0]     insn;
    logic [Word-1:0] data;
  } entry_t;

  entry_t          fifo_q [FifoDepth];
  logic [Fa:0]     head_q, tail_q;
  logic [Fa:0]     count;
  logic [63:0]     committed_q, answered_q;
  logic            in_unit_q;       // a command is in the unit, its response not yet taken
  logic [63:0]     busy_cycles_q;   // sum of the answered commands' cycle counts
  logic [63:0]     issued_q;        // side-effecting instructions seen at issue (squashed too)

  assign count = tail_q - head_q;

  logic   commit_push;
  entry_t commit_entry;
  always_comb begin
    commit_push  = 1'b0;
    commit_entry = '0;
    if (rvfi_i[0].valid && !rvfi_i[0].trap && is_ours(rvfi_i[0].insn[31:25], rvfi_i[0].insn[6:0])
        && has_side_effect(rvfi_i[0].insn[14:12])) begin
      commit_push        = 1'b1;
      commit_entry.clear = rvfi_i[0].insn[14:12] == MxClr;
      commit_entry.insn  = rvfi_i[0].rs1_rdata[31:0];
      commit_entry.data  = Word'(rvfi_i[0].rs2_rdata);
    end
  end

  entry_t head;
  assign head = fifo_q[head_q[Fa-1:0]];

  // the head goes to the unit (a command) or is done here (a clear, once the unit is idle)
  logic pop_cmd, pop_clear;
  // back to back: the next command is offered in the cycle the unit's response is taken
  assign cmd_valid_o = count != '0 && !head.clear && (!in_unit_q || rsp_valid_i);
  assign cmd_insn_o  = head.insn;
  assign cmd_data_o  = head.data;
  assign pop_cmd     = cmd_valid_o && cmd_ready_i;
  assign pop_clear   = count != '0 && head.clear && !in_unit_q;
  assign rsp_ready_o = 1'b1;

  // ------------------------------------------------------------------ responses
  typedef struct packed {
    logic [Word-1:0] data;
    logic [31:0]     cycles;
    logic [3:0]      flags;
    logic [3:0]      err;
  } answer_t;

  answer_t     ring_q [RingDepth];
  logic [3:0]  sticky_err_q;
  logic [63:0] first_error_q;      // command number of the first unit error since mx.clr
  logic [3:0]  flags_q;

  logic    answer;
  answer_t answer_val;
  always_comb begin
    answer     = 1'b0;
    answer_val = '0;
    if (rsp_valid_i && in_unit_q) begin
      answer            = 1'b1;
      answer_val.data   = rsp_data_i;
      answer_val.cycles = rsp_cycles_i;
      answer_val.flags  = rsp_flags_i;
      answer_val.err    = rsp_err_i;
    end else if (pop_clear) begin
      answer            = 1'b1;
      answer_val.data   = Word'(status_word('0, '0, MxOk, sticky_err_q, '0));
      answer_val.flags  = flags_q;
    end
  end

  // ------------------------------------------------------------------ the issue side
  // CVA6 samples x_issue_ready in the cycle it issues and presents the instruction on the next
  // cycle without a handshake, so every instruction that arrives is taken in that cycle: reads
  // are answered at once (nothing waits, so nothing outlives a squashed read), commands complete
  // at once and reach the unit at retirement.
  logic        arrive;
  logic [2:0]  funct3;
  logic        accept;
  logic [63:0] arg;
  answer_t     wanted;
  logic [63:0] read_data;
  logic [3:0]  read_error;

  assign arrive = cvxif_req_i.x_issue_valid;
  assign funct3 = cvxif_req_i.x_issue_req.instr[14:12];
  assign accept = is_ours(cvxif_req_i.x_issue_req.instr[31:25], cvxif_req_i.x_issue_req.instr[6:0])
                  && (has_side_effect(funct3) || is_read(funct3));
  assign arg    = cvxif_req_i.x_issue_req.rs[0];
  assign wanted = ring_q[arg[Ra-1:0]];

  always_comb begin
    read_error = MxOk;
    read_data  = '0;
    if (funct3 == MxCnt) begin
      unique case (arg)
        64'd0:   read_data = committed_q;
        64'd1:   read_data = answered_q;
        64'd2:   read_data = busy_cycles_q;
        64'd3:   read_data = first_error_q;
        64'd4:   read_data = issued_q;
        default: read_error = MxNoCounter;
      endcase
    end else begin
      if (arg >= answered_q)                           read_error = MxPending;
      else if (answered_q - arg > 64'(RingDepth))      read_error = MxStale;
      if (funct3 == MxRd) begin
        read_data = read_error == MxOk ? 64'(wanted.data) : '0;
      end else if (read_error == MxOk) begin
        read_data = status_word(wanted.err, wanted.flags, MxOk, sticky_err_q, wanted.cycles);
      end else begin
        read_data = status_word('0, '0, read_error, sticky_err_q, '0);
      end
    end
  end

  always_comb begin
    cvxif_resp_o = '0;
    // credit for the next cycle's instruction: InFlight free slots after this cycle's retirement
    cvxif_resp_o.x_issue_ready          = (FifoDepth - 32'(count)) > InFlight;
    cvxif_resp_o.x_issue_resp.accept    = accept;
    cvxif_resp_o.x_issue_resp.writeback = accept && is_read(funct3);
    if (arrive && accept) begin
      cvxif_resp_o.x_result_valid = 1'b1;
      cvxif_resp_o.x_result.id    = cvxif_req_i.x_issue_req.id;
      cvxif_resp_o.x_result.rd    = cvxif_req_i.x_issue_req.instr[11:7];
      cvxif_resp_o.x_result.we    = is_read(funct3);
      cvxif_resp_o.x_result.data  = read_data;
    end
  end

  // ------------------------------------------------------------------ state
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q           <= '0;
      tail_q           <= '0;
      committed_q      <= '0;
      answered_q       <= '0;
      in_unit_q        <= 1'b0;
      busy_cycles_q    <= '0;
      issued_q         <= '0;
      sticky_err_q     <= '0;
      first_error_q    <= '1;
      flags_q          <= '0;
    end else begin
      if (commit_push) begin
        fifo_q[tail_q[Fa-1:0]] <= commit_entry;
        tail_q      <= tail_q + 1'b1;
        committed_q <= committed_q + 64'd1;
      end
      if (pop_cmd || pop_clear) head_q <= head_q + 1'b1;
      if (pop_cmd) in_unit_q <= 1'b1;
      else if (rsp_valid_i) in_unit_q <= 1'b0;
      // the unit's own cycle count of every command it answers (its rsp_cycles: the ISA
      // table's formulas), so the SoC's figure matches the simulator's
      if (rsp_valid_i && in_unit_q) busy_cycles_q <= busy_cycles_q + 64'(rsp_cycles_i);
      if (arrive && accept && has_side_effect(funct3)) issued_q <= issued_q + 64'd1;

      if (answer) begin
        ring_q[answered_q[Ra-1:0]] <= answer_val;
        answered_q <= answered_q + 64'd1;
        flags_q    <= answer_val.flags;
      end
      if (pop_clear) begin
        sticky_err_q  <= '0;
        first_error_q <= '1;
      end else if (answer && answer_val.err != '0 && sticky_err_q == '0) begin
        sticky_err_q  <= answer_val.err;
        first_error_q <= answered_q;
      end
    end
  end

  // the request fields this adapter has no use for (compressed, memory and commit interfaces:
  // commands are taken from the retirement port)
  logic unused_req;
  assign unused_req = ^{cvxif_req_i.x_compressed_valid, cvxif_req_i.x_compressed_req,
                        cvxif_req_i.x_issue_req.mode, cvxif_req_i.x_issue_req.rs_valid,
                        cvxif_req_i.x_issue_req.rs[1], cvxif_req_i.x_commit_valid,
                        cvxif_req_i.x_commit, cvxif_req_i.x_mem_ready, cvxif_req_i.x_mem_resp,
                        cvxif_req_i.x_mem_result_valid, cvxif_req_i.x_mem_result,
                        cvxif_req_i.x_result_ready};

  assign unit_busy_cycles_o = busy_cycles_q;
  assign answered_o         = answered_q;

`ifndef SYNTHESIS
  // Only commit port 0 retires offloaded instructions (CVA6's commit stage).
  always_ff @(posedge clk_i) begin
    if (rst_ni && rvfi_i[1].valid && !rvfi_i[1].trap && is_ours(rvfi_i[1].insn[31:25], rvfi_i[1].insn[6:0])) begin
      $error("montu_cvxif: an offloaded instruction retired on commit port 1");
    end
    if (rst_ni && commit_push && count == FifoDepth[Fa:0]) begin
      $error("montu_cvxif: command FIFO overflow (credit rule broken)");
    end
  end
`endif

endmodule
