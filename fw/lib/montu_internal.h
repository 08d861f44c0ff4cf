/* Helpers shared by the firmware library's modules (not part of the API). */
#ifndef MONTU_INTERNAL_H
#define MONTU_INTERNAL_H

#include "montu.h"

#define INSN(op, rd, ra, rb, f, imm) MONTU_INSN(op, rd, ra, rb, f, imm)

/* The Python driver's register roles (src/montu/driver.py) and its exponentiation window. */
enum { R_MOD = 0, R_X = 1, R_Y = 2, R_Z = 3, R_ACC0 = 4, R_ACC1 = 5, R_EXP = 6, R_ONE = 7 };
enum { WINDOW = 4, TABLE = MONTU_NUM_REGS - (1 << WINDOW) };

/* The driver's fixed-window exponentiation once set up (R_X = base·R, R_ACC1 = R² mod n, the
 * exponent in R_EXP, `words` words): the 16-entry table, per 4-bit window four squarings, SHLX and
 * MMX; R_Z = base^exponent mod n (out of Montgomery form), R_ONE = 1, and R_EXP cleared. The
 * commands depend on `words` only. */
void montu_window_exp(unsigned words);

/* The bit length of a `words`-word number (0 for zero). */
unsigned montu_bit_length(const uint64_t *x, unsigned words);

/* SETMMI (k = words, GF(p)), the modulus into R0, SETMOD. */
void montu_load_modulus(const uint64_t *n, unsigned words);

/* reg = R^2 mod n on the unit (the Python driver's _load_r2: the steps depend on words and
 * bits(n) only). */
void montu_load_r2(unsigned reg, unsigned words, unsigned n_bits);

/* reg = R^2 mod the loaded modulus: montu_load_r2 the first time (*known = 0), its words read
 * back into `cache` (known once that ran without an error), then written back from `cache` —
 * the Python driver's per-modulus R^2 cache. */
void montu_load_r2_cached(unsigned reg, unsigned words, unsigned n_bits, uint64_t *cache, int *known);

/* Send a straight-line program (instruction words, data 0); returns the last command's number. */
uint64_t montu_run(const uint32_t *insns, unsigned count);

#endif
