/* Random bits for the firmware: Hash_DRBG (NIST SP 800-90A Rev. 1 §10.1.1, SHA-256) seeded by
 * the host (fw/lib/random.c).
 *
 * The SoC has no entropy source of its own: the host hands the firmware its entropy (the demo
 * compiles 48 bytes from the host's os.urandom into the program) and montu_random_seed
 * instantiates the DRBG with it. Until then every montu_random_* call fails with
 * MONTU_ERR_NO_ENTROPY — nothing secret is ever drawn from a predictable state. */
#ifndef MONTU_RANDOM_H
#define MONTU_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#define MONTU_ERR_NO_ENTROPY 20           /* no montu_random_seed yet */
#define MONTU_RANDOM_MIN_ENTROPY 32       /* bytes: 256 bits for the 128-bit security strength
                                             with a nonce (SP 800-90A §8.6.7) */

/* Instantiate (or, called again, reseed) the DRBG with `length` >= MONTU_RANDOM_MIN_ENTROPY bytes
 * of entropy; returns 0 or MONTU_ERR_ARGUMENT (the state is then unchanged). */
int montu_random_seed(const uint8_t *entropy, size_t length);

/* `length` random bytes; 0 or MONTU_ERR_NO_ENTROPY (out is zeroed) or MONTU_ERR_ARGUMENT. */
int montu_random_bytes(void *out, size_t length);

/* x uniform in [1, bound) for bound > 1 (`words` little-endian words, at most 64): candidates of
 * bits(bound) bits, rejected while 0 or >= bound (on average fewer than two draws). Returns 0,
 * MONTU_ERR_NO_ENTROPY or MONTU_ERR_ARGUMENT (x is then zero). */
int montu_random_below(uint64_t *x, const uint64_t *bound, unsigned words);

/* Forget the DRBG state (montu_random_* then fail until the next seed). */
void montu_random_wipe(void);

#endif
