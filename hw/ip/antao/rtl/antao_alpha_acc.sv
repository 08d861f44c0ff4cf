// The alpha accumulator (stage 1): AACC (AlphaBits + 8 bits) sums the AlphaBits leading bits
// of the W-bit values leaving PE P-1, one per hop; ALPHA = AACC >> AlphaBits (8 bits) is
// broadcast to every PE (the base extension's correction factor) and to the output accumulator.
// alpha_next_o is the ALPHA of the next clock (what alpha_o will be after this edge), for a
// register that must copy ALPHA without a clock of delay (antao_out_acc's multiplier operands).
//   CLR   AACC <= 0
//   HALF  AACC <= 2^(AlphaBits-1)   (offset 1/2: exact extensions)
//   ACC   AACC <= AACC + R_(P-1)[W-1 : W-AlphaBits]
module antao_alpha_acc
  import antao_ucode_pkg::*;
#(
  parameter int unsigned AlphaBits = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clear_i,
  input  logic                 valid_i,
  input  logic [1:0]           op_i,
  input  logic [AlphaBits-1:0] r_top_i,   // R_(P-1)[W-1 : W-AlphaBits]
  output logic [7:0]           alpha_o,
  output logic [7:0]           alpha_next_o
);
  localparam int unsigned AaccBits = AlphaBits + 8;

  logic [AaccBits-1:0] aacc_d, aacc_q;

  always_comb begin
    aacc_d = aacc_q;
    if (clear_i) begin
      aacc_d = '0;
    end else if (valid_i) begin
      unique case (op_i)
        AlphaClr:  aacc_d = '0;
        AlphaHalf: aacc_d = AaccBits'(1) << (AlphaBits - 1);
        AlphaAcc:  aacc_d = aacc_q + AaccBits'(r_top_i);
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) aacc_q <= '0;
    else         aacc_q <= aacc_d;
  end

  assign alpha_o      = aacc_q[AaccBits-1:AlphaBits];
  assign alpha_next_o = aacc_d[AaccBits-1:AlphaBits];
endmodule
