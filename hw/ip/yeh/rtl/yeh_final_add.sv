// The +1 clock of BSR4 (Yeh et al. §3: "R = P[n] + C1"), and the optional reduction decided in
// the same clock.
//
//   R = P[L] + C1          a row of adder4_2 cells over the two carry-save pairs
//                          (p_sum, p_carry, c1_sum, c1_carry); p_cy enters at bit 0's cin and
//                          c1_cy fills the free bit 0 of the shifted carry row: R = rs + rc
//   s = [R >= N]           R - N + 2^XW = ts + tc with (ts, tc) = 3:2(rs, rc, ~N) and +1 in the
//                          free bit 0 of tc; s is bit XW of that sum: the carry out of
//                          ts + tc through a log-depth generate/propagate tree (yeh_carry_tree)
//                          OR the 3:2's own carry out of the top bit
//   X = reduce & s ? (ts, tc) : (rs, rc)       carry-save; (ts + tc) mod 2^XW = R - N
//
// R <= 2N - 2 < 2^(L+1) for operands below N, so XW = NBits + 1 bits hold R, and the rows of P
// and C1 (each <= its value < 2^L) lose nothing when cut to XW bits.
module yeh_final_add #(
  parameter  int unsigned NBits = 1024,
  localparam int unsigned PW    = NBits + 3,   // yeh_r4mr
  localparam int unsigned AccW  = NBits + 3,   // yeh_docsa
  localparam int unsigned XW    = NBits + 1    // the Carry/Sum registers
) (
  input  logic [PW-1:0]    p_sum_i,
  input  logic [PW-1:0]    p_carry_i,
  input  logic             p_cy_i,
  input  logic [AccW-1:0]  c1_sum_i,
  input  logic [AccW-1:0]  c1_carry_i,
  input  logic             c1_cy_i,
  input  logic [NBits-1:0] n_i,
  input  logic             reduce_i,
  output logic [XW-1:0]    xs_o,
  output logic [XW-1:0]    xc_o,
  output logic             ge_n_o      // s = [R >= N]
);
  // R = P[L] + C1
  logic [XW-1:0] r_sum, r_carry_row, rs, rc;
  yeh_adder4_2 #(.Width(XW)) u_add_c1 (
    .a_i    (p_sum_i[XW-1:0]),
    .b_i    (p_carry_i[XW-1:0]),
    .c_i    (c1_sum_i[XW-1:0]),
    .d_i    (c1_carry_i[XW-1:0]),
    .cin_i  (p_cy_i),
    .sum_o  (r_sum),
    .carry_o(r_carry_row)
  );
  assign rs = r_sum;
  assign rc = {r_carry_row[XW-2:0], c1_cy_i};

  // R - N + 2^XW = ts + tc + top * 2^XW
  logic [XW-1:0] not_n, ts, tc_row, tc;
  logic          cout;
  assign not_n  = ~{1'b0, n_i};
  assign ts     = rs ^ rc ^ not_n;
  assign tc_row = (rs & rc) | (not_n & (rs ^ rc));
  assign tc     = {tc_row[XW-2:0], 1'b1};

  yeh_carry_tree #(.Width(XW)) u_compare (
    .a_i   (ts),
    .b_i   (tc),
    .cout_o(cout)
  );
  assign ge_n_o = tc_row[XW-1] | cout;

  assign xs_o = (reduce_i && ge_n_o) ? ts : rs;
  assign xc_o = (reduce_i && ge_n_o) ? tc : rc;

  logic unused_high;   // bits XW and up of P and C1's rows: 0 (see above)
  assign unused_high = ^{p_sum_i[PW-1:XW], p_carry_i[PW-1:XW], c1_sum_i[AccW-1:XW],
                         c1_carry_i[AccW-1:XW], r_carry_row[XW-1]};
endmodule
