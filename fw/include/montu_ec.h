/* Elliptic curves in firmware: k·P, point validation, ECDSA and ECDH on P-256 (prime256v1) and
 * sect283k1 (K-283), with the Python stack's own unit programs (montu.ec, generated into
 * montu_ec_programs.h by `python3 -m montu.soc.programs`).
 *
 * Numbers are arrays of little-endian 64-bit words: montu_ec_words(curve) of them for coordinates
 * and scalars (4 for P-256, 5 for sect283k1, whose field elements are polynomials over GF(2) of
 * degree < 283, bit i = the coefficient of x^i). Every function returns 0 or an error code;
 * outputs are zero unless it returns 0.
 *
 * Constant time: k·P with a secret k (montu_ec_mul, key generation, signing's k·G, ECDH) sends
 * the same commands and takes the same unit cycles for every k; the host computes the scalar's
 * digits or ladder flags without branches on it. Signing inverts k·β mod n for a fresh random β
 * (the Python stack's blinded MINV): that one command's time varies with k·β, which is
 * independent of k. Verification works on public values and may branch on them.
 *
 * fw/lib/ec.c (GF(p): window, comb, on-curve check, affine additions), fw/lib/ec_binary.c
 * (GF(2^m): the López–Dahab ladder, subgroup check), fw/lib/ecdsa.c (this API), fw/lib/ec_words.c
 * (constant-time multi-word helpers).
 */
#ifndef MONTU_EC_H
#define MONTU_EC_H

#include <stdint.h>

#include "montu.h"

/* Errors of the EC library (the unit's own codes and MONTU_ERR_ARGUMENT/ADAPTER also occur;
 * montu_random.h's MONTU_ERR_NO_ENTROPY from the functions that draw random numbers). */
#define MONTU_ERR_POINT 18         /* a point is not on the curve, a coordinate is out of range, or
                                      (sect283k1) it is not in the subgroup of prime order n */
#define MONTU_ERR_EXCEPTIONAL 19   /* P-256's window met an exceptional addition (a negligible set
                                      of scalars; the Python stack then takes the co-Z ladder,
                                      which the firmware does not have) */
#define MONTU_ERR_EC_SIGNATURE 32  /* the signature does not verify */
#define MONTU_ERR_EC_FAULT 33      /* a signature failed its check before release, or the unit
                                      rejected a command while signing: nothing was released and
                                      the curve's cached constants were dropped */
#define MONTU_ERR_EC_INFINITY 34   /* the result is the point at infinity (montu_ec_add and the
                                      public multiplications) */

typedef enum { MONTU_CURVE_P256, MONTU_CURVE_SECT283K1 } montu_curve;

#define MONTU_EC_MAX_WORDS 5
#define MONTU_EC_DIGEST_BYTES 32   /* SHA-256 */

/* Words of a coordinate or a scalar: 4 (P-256), 5 (sect283k1); 0 for an unknown curve. */
unsigned montu_ec_words(montu_curve curve);

/* (rx, ry) = k·(px, py) for 1 <= k < n, constant time in k. The point is validated first
 * (montu_ec_validate: MONTU_ERR_POINT). MONTU_ERR_ARGUMENT for k out of range; P-256 may return
 * MONTU_ERR_EXCEPTIONAL (negligible probability for a random k). */
int montu_ec_mul(montu_curve curve, uint64_t rx[], uint64_t ry[], const uint64_t k[],
                 const uint64_t px[], const uint64_t py[]);

/* Public-key validation: 0 if (x, y) is a point of the curve's subgroup of prime order n —
 * coordinates in range (x, y < p; degree < m), on the curve, and for sect283k1 (cofactor 4)
 * x != 0 and n·Q = O (one x-only ladder, as montu.ec.points.validate) — else MONTU_ERR_POINT. */
int montu_ec_validate(montu_curve curve, const uint64_t x[], const uint64_t y[]);

/* (rx, ry) = P + Q for public affine points of the curve (not validated here), on the unit;
 * MONTU_ERR_EC_INFINITY when P = −Q. */
int montu_ec_add(montu_curve curve, uint64_t rx[], uint64_t ry[], const uint64_t px[],
                 const uint64_t py[], const uint64_t qx[], const uint64_t qy[]);

/* A key pair: d uniform in [1, n) (montu_random_below), Q = d·G. */
int montu_ecdsa_generate(montu_curve curve, uint64_t d[], uint64_t qx[], uint64_t qy[]);

/* ECDSA signature (r, s) of a SHA-256 digest (truncated to bits(n) as the Python stack's
 * digest_to_integer) with private key d in [1, n) and a random nonce. s = k⁻¹(e + r·d) mod n by
 * the Python stack's sign program (blinded MINV) on the unit. Before release the signature is
 * checked as montu.ec.ecdsa does: x(k·G) recomputed from a random projective start (the comb on
 * P-256, the x-only ladder on sect283k1) is one of the x with x mod n = r, s·k = e + r·d mod n,
 * and the Montgomery constants in use are right; a failed check returns MONTU_ERR_EC_FAULT. */
int montu_ecdsa_sign_sha256(montu_curve curve, uint64_t r[], uint64_t s[], const uint64_t d[],
                            const uint8_t digest[MONTU_EC_DIGEST_BYTES]);

/* 0 if (r, s) is a valid signature of the digest under Q, MONTU_ERR_EC_SIGNATURE if not (r or s
 * out of [1, n) included). Q is validated (MONTU_ERR_POINT); for a valid key the answer is 0 or
 * MONTU_ERR_EC_SIGNATURE for every r, s and digest (or a unit/adapter error). */
int montu_ecdsa_verify_sha256(montu_curve curve, const uint64_t qx[], const uint64_t qy[],
                              const uint8_t digest[MONTU_EC_DIGEST_BYTES], const uint64_t r[],
                              const uint64_t s[]);

/* ECDH: shared_x = x(d·Q_peer) for d in [1, n); the peer's point is validated (MONTU_ERR_POINT).
 * OpenSSL's shared secret is shared_x as big-endian bytes of the field size (32, 36). */
int montu_ecdh(montu_curve curve, uint64_t shared_x[], const uint64_t d[], const uint64_t peer_x[],
               const uint64_t peer_y[]);

/* ------------------------------------------------------------------ per curve (fw/lib/ec.c) */

/* 0 if (x, y) is on P-256 with x, y < p, else MONTU_ERR_POINT (or the unit's error). */
int montu_ec_p256_on_curve(const uint64_t x[4], const uint64_t y[4]);

/* (rx, ry) = k·(px, py) for 1 <= k < n and a point on the curve (checked), by the signed fixed
 * window with the unit's SHLX/MMX table selection: the same commands and unit cycles for every
 * k. Returns 0, MONTU_ERR_ARGUMENT (k out of range), MONTU_ERR_POINT, MONTU_ERR_EXCEPTIONAL or
 * the unit's error. */
int montu_ec_p256_mul(uint64_t rx[4], uint64_t ry[4], const uint64_t k[4], const uint64_t px[4],
                      const uint64_t py[4]);

/* (rx, ry) = k·G for 1 <= k < n by the signed comb with the stored table of G (montu.ec.comb),
 * constant time in k; an exceptional comb run (negligible) is redone by montu_ec_p256_mul. */
int montu_ec_p256_mul_generator(uint64_t rx[4], uint64_t ry[4], const uint64_t k[4]);

/* u·P for a public u in [0, n) and a public point on the curve: MONTU_ERR_EC_INFINITY for u = 0;
 * the comb for P = G, else the window; their exceptional scalars by double-and-add. */
int montu_ec_p256_mul_public(uint64_t rx[4], uint64_t ry[4], const uint64_t u[4],
                             const uint64_t px[4], const uint64_t py[4]);

/* P + Q of public points (montu_ec_add). */
int montu_ec_p256_add(uint64_t rx[4], uint64_t ry[4], const uint64_t px[4], const uint64_t py[4],
                      const uint64_t qx[4], const uint64_t qy[4]);

/* Whether x(k·G) is one of the `count` public candidates (1 or 2: x < p), k·G
 * computed by the comb from the random projective start Z = z in [1, p): 0 yes,
 * MONTU_ERR_EC_SIGNATURE no (montu.ec.comb.generator_x_is_one_of). Constant time in k. */
int montu_ec_p256_generator_x_is(const uint64_t k[4], const uint64_t candidates[][4], unsigned count,
                                 const uint64_t z[4]);

/* 0 if R² mod p as cached is right (checked on the unit), else MONTU_ERR_EC_FAULT. */
int montu_ec_p256_check_constants(void);

/* Forget R² mod p (recomputed on the unit by the next call). */
void montu_ec_p256_forget(void);

/* ------------------------------------------------------------ per curve (fw/lib/ec_binary.c) */

/* 0 if (x, y) is on sect283k1 with x, y of degree < 283, else MONTU_ERR_POINT. */
int montu_ec_sect283k1_on_curve(const uint64_t x[5], const uint64_t y[5]);

/* montu_ec_validate for sect283k1 (on the curve, x != 0, n·Q = O). */
int montu_ec_sect283k1_validate(const uint64_t x[5], const uint64_t y[5]);

/* (rx, ry) = k·(px, py) for 1 <= k < n and a point on the curve with x != 0 (checked; the
 * subgroup is not: validate first), by the López–Dahab ladder over k + n or k + 2n (exactly
 * bits(n) + 1 bits) with y recovery: the same commands and unit cycles for every k. k = n − 1
 * (whose y recovery divides by 0) gives −P, chosen by mask after the same ladder. */
int montu_ec_sect283k1_mul(uint64_t rx[5], uint64_t ry[5], const uint64_t k[5], const uint64_t px[5],
                           const uint64_t py[5]);

/* P + Q of public points (montu_ec_add). */
int montu_ec_sect283k1_add(uint64_t rx[5], uint64_t ry[5], const uint64_t px[5],
                           const uint64_t py[5], const uint64_t qx[5], const uint64_t qy[5]);

/* Whether x(k·G) is one of the `count` public candidates (1 .. 5: x < 2^283), by the
 * x-only ladder from the projective start (x·z : z), z a non-zero field element, without y
 * recovery: 0 yes, MONTU_ERR_EC_SIGNATURE no (montu.ec.binary.x_is_one_of). Constant time. */
int montu_ec_sect283k1_generator_x_is(const uint64_t k[5], const uint64_t candidates[][5],
                                      unsigned count, const uint64_t z[5]);

int montu_ec_sect283k1_check_constants(void);   /* as montu_ec_p256_check_constants */
void montu_ec_sect283k1_forget(void);

/* -------------------------------------- multi-word helpers the EC modules share (ec_words.c) */
/* Constant time in the values (the word count is public). Flags are 0 or 1. */

uint64_t montu_mp_add(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned words); /* carry */
uint64_t montu_mp_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned words); /* borrow */
void montu_mp_select(uint64_t *r, uint64_t mask, const uint64_t *a, const uint64_t *b, unsigned words);
uint64_t montu_mp_less(const uint64_t *a, const uint64_t *b, unsigned words);      /* a < b */
uint64_t montu_mp_equal(const uint64_t *a, const uint64_t *b, unsigned words);
uint64_t montu_mp_is_zero(const uint64_t *a, unsigned words);
void montu_mp_copy(uint64_t *r, const uint64_t *a, unsigned words);
void montu_mp_zero(uint64_t *r, unsigned words);
/* 1 if 1 <= k < n */
uint64_t montu_mp_in_range(const uint64_t *k, const uint64_t *n, unsigned words);

#endif
