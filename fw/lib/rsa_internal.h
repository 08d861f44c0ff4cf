/* Shared by fw/lib/rsa*.c (not part of the API): the unit command sequences of the Python driver
 * that RSA needs (fw/lib/rsa_unit.c) and word helpers. */
#ifndef MONTU_RSA_INTERNAL_H
#define MONTU_RSA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "montu.h"
#include "montu_internal.h"
#include "montu_rsa.h"

/* 64-bit words holding `bits` bits (the unit's register length L = 64 * words for them). */
static inline unsigned montu_rsa_words(unsigned bits) { return (bits + 63) / 64; }

/* ----------------------------------------------------------------- words on the CPU */
/* Overwrite `length` bytes with zeros in a way the compiler keeps (secrets on the stack). */
void montu_rsa_wipe(void *buffer, size_t length);
/* r = x (x_words words) widened with zeros to `words` words (x_words <= words). */
void montu_rsa_widen(uint64_t *r, unsigned words, const uint64_t *x, unsigned x_words);
/* r = x + small, r = x - small (the carry/borrow is dropped). */
void montu_rsa_add_small(uint64_t *r, const uint64_t *x, uint64_t small, unsigned words);
void montu_rsa_sub_small(uint64_t *r, const uint64_t *x, uint64_t small, unsigned words);
/* r = x >> shift for 0 <= shift < 64 * words. */
void montu_rsa_shift_right(uint64_t *r, const uint64_t *x, unsigned shift, unsigned words);
/* The value of a big-endian byte string (length <= 8 * words) as `words` words. */
void montu_rsa_from_bytes(uint64_t *x, unsigned words, const uint8_t *bytes, size_t length);
/* The low `length` bytes of x, big-endian (I2OSP). */
void montu_rsa_to_bytes(uint8_t *bytes, size_t length, const uint64_t *x);

/* ----------------------------------------------------- unit sequences (fw/lib/rsa_unit.c) */
/* SETMMI k = words, GF(p), without a modulus (the driver's configure). */
void montu_rsa_unit_configure(unsigned words);
/* Write x (x_words words) into reg as a `words`-word number (WMMI; zeros above x). */
void montu_rsa_unit_write(unsigned reg, const uint64_t *x, unsigned x_words, unsigned words);
/* LDZ of every register RSA's sequences write (R0 .. R7 and the exponentiation table), at the
 * current length: no key, message or value derived from them stays in the unit. */
void montu_rsa_unit_clear(void);
/* Wait for command `number` and return its flags (MONTU_FLAG_*). */
unsigned montu_rsa_unit_flags(uint64_t number);

/* With the modulus n (n_bits bits, `words` words) loaded: R_ACC1 = R^2 mod n and
 * R_Y = R^3 mod n (the constants of the driver's _to_montgomery). */
void montu_rsa_unit_constants(unsigned words, unsigned n_bits);
/* With the constants loaded: reg = value·R mod n for value = hi·2^L + lo (lo and hi `words`
 * words each; hi NULL means zero) — the driver's _to_montgomery after its _load_r2/_load_r3.
 * Uses R_Z. */
void montu_rsa_unit_to_montgomery(unsigned reg, const uint64_t *lo, const uint64_t *hi,
                                  unsigned words);

/* R_Z = (hi·2^L + lo)^exponent mod n, the driver's mod_exp with exponent_bits = L: fixed
 * window, the exponent only inside the unit (SHLX/MMX), commands that depend on words and
 * bits(n) only. Leaves R_ACC1 = R^2 mod n and R_ONE = 1; sends the commands, reads nothing. */
void montu_rsa_unit_exp(const uint64_t *n, unsigned words, const uint64_t *lo,
                        const uint64_t *hi, const uint64_t *exponent);
/* R_Z = base^e mod n for a PUBLIC e (the driver's mod_exp_public: square and multiply); base
 * below 2^L. Sends the commands, reads nothing. */
void montu_rsa_unit_exp_public(const uint64_t *n, unsigned words, const uint64_t *base,
                               uint64_t e);

/* The whole operations below start with no pending error (montu_clear or montu_finish done by
 * the caller), end with montu_finish and return 0 or the unit's error. */
/* r = x·y mod n (x, y < n; n odd): the driver's mod_mul. */
int montu_rsa_unit_mod_mul(uint64_t *r, const uint64_t *x, const uint64_t *y, const uint64_t *n,
                           unsigned words);
/* r = a^-1 mod n (a < n, any n >= 2, even ones too): the driver's mod_inv (MINV).
 * MONTU_E_NO_INVERSE when gcd(a, n) != 1 (r is then zero). Time follows the operands. */
int montu_rsa_unit_mod_inv(uint64_t *r, const uint64_t *a, const uint64_t *n, unsigned words);

/* The CRT private operation on c (n's words) without the argument checks: montu_rsa_private's
 * work, shared with key generation's pairwise-consistency check. */
int montu_rsa_private_crt(uint64_t *m, const montu_rsa_private_key *key, const uint64_t *c);

#endif
