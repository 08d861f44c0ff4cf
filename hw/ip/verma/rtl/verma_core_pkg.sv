// Sizes and types shared by the datapath modules of the verma engine (hand-written; the ISA
// constants are in the generated verma_pkg).
//
// Sizes of EWBR4CMMM for a k-bit modulus (Verma et al. §4.2; montu.arith.verma.cmmm_parameters):
//   g = 1 + bit_length(k)   guard bits (the paper's 1 + ceil(log2(k + 1)))
//   h = ceil(k / 2), t = ceil(g / 2), D = h + t radix-4 digits, operands 2D bits
//   I = h + g               reduction iterations (the paper's k/2 + g)
//   m = ceil(2D / W)        PE words, Wd = ceil(2D / 64) host data words
// The functions serve the elaboration-time sizes (M = m(K) PEs of each kind); verma_sizes
// derives the runtime ones from SETLEN's k with the same arithmetic.
package verma_core_pkg;

  // 1 + bit_length(k): the paper's g = 1 + ceil(log2(k + 1))
  function automatic int unsigned guard_bits(int unsigned k);
    int unsigned g;
    g = 1;
    for (int unsigned b = 0; b < 32; b++) begin
      if (k[b]) g = b + 2;
    end
    return g;
  endfunction

  // D = h + t = ceil(k / 2) + ceil(g / 2)
  function automatic int unsigned digits(int unsigned k);
    return (k + 1) / 2 + (guard_bits(k) + 1) / 2;
  endfunction

  // I = h + g
  function automatic int unsigned iterations(int unsigned k);
    return (k + 1) / 2 + guard_bits(k);
  endfunction

  // m = ceil(2D / W)
  function automatic int unsigned pe_words(int unsigned k, int unsigned w);
    return (2 * digits(k) + w - 1) / w;
  endfunction

  // Wd = ceil(2D / 64)
  function automatic int unsigned data_words(int unsigned k);
    return (2 * digits(k) + 63) / 64;
  endfunction

  // Where a pass's common multiplicand P comes from (the T words and the P digits): CMMM's ra, or
  // the ladder's 2:1 MUX between R0 and R1 (O before the first ladder pass, then X or Y).
  typedef enum logic [1:0] {
    TSrcP = 2'd0,
    TSrcX = 2'd1,
    TSrcY = 2'd2,
    TSrcO = 2'd3
  } t_src_e;

  // Where a pass's multiplier R comes from (the R digits): CMMM's rb, or the ladder.
  typedef enum logic [2:0] {
    RSrcR   = 3'd0,
    RSrcC   = 3'd1,
    RSrcO   = 3'd2,
    RSrcX   = 3'd3,
    RSrcY   = 3'd4,
    RSrcOne = 3'd5
  } r_src_e;

  // The selects one-hot (bit s stands for source s), the form in which each PE column gets its
  // own registered copy (verma_src_sel): an AND-OR per operand bit, no decode in front of it.
  localparam int unsigned TSrcs = 4;
  localparam int unsigned RSrcs = 6;

  function automatic logic [TSrcs-1:0] t_onehot(t_src_e src);
    return TSrcs'(1) << src;
  endfunction

  // codes 6 and 7 select R, as the case statement's default did
  function automatic logic [RSrcs-1:0] r_onehot(r_src_e src);
    return (src > RSrcOne) ? RSrcs'(1) : RSrcs'(1) << src;
  endfunction

endpackage
