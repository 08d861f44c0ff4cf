// A first-word-fall-through FIFO of Depth Width-bit words (the antao engine's input and output
// FIFOs): the words live in an inferred memory with a synchronous read port (block RAM), the
// head is the memory's output register, bypassed by a write into the slot being read. head_o is
// valid while !empty_o; push_i when full_o and pop_i when empty_o are ignored.
module antao_fifo #(
  parameter int unsigned Width = 64,
  parameter int unsigned Depth = 4096,
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,    // empty the FIFO (WIPE)
  input  logic             push_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             pop_i,
  output logic [Width-1:0] head_o,
  output logic             empty_o,
  output logic             full_o,
  output logic [CntW-1:0]  count_o
);
  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  wptr_q, rptr_q, raddr;
  logic [CntW-1:0]  count_q;
  logic             push, pop, byp_q;
  logic [Width-1:0] rdata_q, wdata_q;

  function automatic logic [PtrW-1:0] ptr_inc(logic [PtrW-1:0] p);
    return (32'(p) == Depth - 1) ? '0 : p + PtrW'(1);
  endfunction

  assign empty_o = (count_q == '0);
  assign full_o  = (32'(count_q) == Depth);
  assign push    = push_i && !full_o;
  assign pop     = pop_i && !empty_o;
  assign raddr   = pop ? ptr_inc(rptr_q) : rptr_q;   // the head after this clock

  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= wdata_i;
    rdata_q <= mem_q[raddr];
    wdata_q <= wdata_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
      byp_q   <= 1'b0;
    end else if (clear_i) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
      byp_q   <= 1'b0;
    end else begin
      if (push) wptr_q <= ptr_inc(wptr_q);
      rptr_q  <= raddr;
      count_q <= count_q + CntW'(push) - CntW'(pop);
      byp_q   <= push && (wptr_q == raddr);   // the new head is being written this clock
    end
  end

  assign head_o  = byp_q ? wdata_q : rdata_q;
  assign count_o = count_q;
endmodule
