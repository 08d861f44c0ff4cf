/* Helpers shared by the firmware library's modules (not part of the API). */
#ifndef MONTU_INTERNAL_H
#define MONTU_INTERNAL_H

#include "montu.h"

#define INSN(op, rd, ra, rb, f, imm) MONTU_INSN(op, rd, ra, rb, f, imm)

/* The bit length of a `words`-word number (0 for zero). */
unsigned montu_bit_length(const uint64_t *x, unsigned words);

/* SETMMI (k = words, GF(p)), the modulus into R0, SETMOD. */
void montu_load_modulus(const uint64_t *n, unsigned words);

/* reg = R^2 mod n on the unit (the Python driver's _load_r2: the steps depend on words and
 * bits(n) only). */
void montu_load_r2(unsigned reg, unsigned words, unsigned n_bits);

/* Send a straight-line program (instruction words, data 0); returns the last command's number. */
uint64_t montu_run(const uint32_t *insns, unsigned count);

#endif
