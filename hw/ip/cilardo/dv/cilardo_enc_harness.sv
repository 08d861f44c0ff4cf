// Bench harness (simulation only): the two encoders of Tables 1-2 and one PPG/MMG (Fig. 5)
// side by side, so that cilardo_enc_tb.py can drive them exhaustively from one build.
module cilardo_enc_harness #(
  parameter int unsigned Word = 64
) (
  input  logic            b2_i,
  input  logic            b1_i,
  input  logic            b0_i,
  input  logic            sp1_i,
  input  logic            sp0_i,
  input  logic            n1_i,
  input  logic            fsel_i,
  output logic            binv_o,
  output logic            btrp_o,
  output logic            bshl_o,
  output logic            minv_o,
  output logic            mtrp_o,
  output logic            mshl_o,
  input  logic [Word-1:0] x_i,
  input  logic            inv_i,
  input  logic            trp_i,
  input  logic            shl_i,
  output logic [Word+1:0] mult_o,
  output logic            one_o
);
  cilardo_booth_enc u_booth (
    .b2_i, .b1_i, .b0_i, .fsel_i, .inv_o(binv_o), .trp_o(btrp_o), .shl_o(bshl_o)
  );
  cilardo_mont_enc u_mont (
    .sp1_i, .sp0_i, .n1_i, .fsel_i, .inv_o(minv_o), .trp_o(mtrp_o), .shl_o(mshl_o)
  );
  cilardo_gen #(.Word(Word)) u_gen (
    .x_i, .inv_i, .trp_i, .shl_i, .fsel_i, .mult_o, .one_o
  );
endmodule
