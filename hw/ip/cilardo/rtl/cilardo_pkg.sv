// cilardo2008 (Cilardo & Mazzocca, "Time Efficient Dual-Field Unit for Cryptography-Related
// Processing", VLSI-SoC 2008): types shared by the word unit's modules.
package cilardo_pkg;
  // One radix-4 digit as an encoder (Table 1 / Table 2) hands it to its PPG / MMG (Fig. 5):
  // the multiple is +-(trp*X + shl*2X) in GF(N) (negated when inv), trp*X xor shl*xX in GF(2^n).
  typedef struct packed {
    logic inv;   // invert: negative multiple (two's complement, +1 in a free slot)
    logic trp;   // transport: X
    logic shl;   // shift left: 2X (x*X)
  } digit_t;

  // Fig. 8: four right (quotient-generating) and four left modules, one pipeline stage each
  localparam int unsigned NumGroups = 4;
  localparam int unsigned NumStages = 2 * NumGroups;
endpackage
