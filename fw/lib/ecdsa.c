/* The curve-generic EC API of fw/include/montu_ec.h: point validation, k·P, ECDSA (FIPS 186-4,
 * SEC 1) and ECDH on P-256 and sect283k1, as montu.ec.keys / montu.ec.ecdsa / montu.ec.points do
 * it: everything modulo n runs on the unit with the Python stack's programs (generated into
 * montu_ec_programs.h), the host hashes nothing (it takes a SHA-256 digest), draws the nonces and
 * blinding factors from the DRBG (montu_random.h) and branches on public values only. */
#include <stddef.h>

#include "montu_ec.h"
#include "montu_ec_programs.h"
#include "montu_internal.h"
#include "montu_random.h"

#define MAX_WORDS MONTU_EC_MAX_WORDS
#define MAX_CANDIDATES MONTU_EC_BIN_CANDIDATES
#define COUNT(table) (sizeof(table) / sizeof((table)[0]))

_Static_assert(MONTU_EC_P256_WORDS <= MAX_WORDS && MONTU_EC_SECT283K1_WORDS <= MAX_WORDS, "words");
_Static_assert(MONTU_EC_P256_N_WORDS == MONTU_EC_P256_WORDS &&
               MONTU_EC_SECT283K1_N_WORDS == MONTU_EC_SECT283K1_WORDS, "n as long as a coordinate");
_Static_assert(MONTU_EC_COMB_CANDIDATES <= MAX_CANDIDATES, "candidates");

typedef int mul_fn(uint64_t *rx, uint64_t *ry, const uint64_t *k, const uint64_t *px, const uint64_t *py);

/* What differs between the curves: constants, programs and the per-curve functions. */
typedef struct {
  unsigned words;                     /* coordinates, scalars and n */
  unsigned binary_degree;             /* m of GF(2^m); 0 for GF(p) */
  unsigned n_bits;
  const uint64_t *n, *gx, *gy;
  const uint64_t *field_bound;        /* p, or 2^m: x coordinates and random Z below it */
  unsigned candidates;                /* at most this many x with x mod n = r below field_bound */
  const uint32_t *sign, *verify_check;
  unsigned sign_count, verify_check_count;
  int (*validate)(const uint64_t *x, const uint64_t *y);
  mul_fn *mul;                        /* secret k, a point checked by validate */
  int mul_validates;                  /* mul checks everything validate does (cofactor 1) */
  mul_fn *mul_public;                 /* public u in [0, n): MONTU_ERR_EC_INFINITY for u·P = O */
  int (*mul_generator)(uint64_t *rx, uint64_t *ry, const uint64_t *k);
  int (*add)(uint64_t *rx, uint64_t *ry, const uint64_t *px, const uint64_t *py, const uint64_t *qx,
             const uint64_t *qy);
  int (*generator_x_is)(const uint64_t *k, const uint64_t *candidates, unsigned count, const uint64_t *z);
  int (*check_constants)(void);
  void (*forget)(void);
} curve_ops;

/* ------------------------------------------------------------------ the two curves */

static int p256_generator_x_is(const uint64_t *k, const uint64_t *candidates, unsigned count,
                               const uint64_t *z) {
  return montu_ec_p256_generator_x_is(k, (const uint64_t(*)[MONTU_EC_P256_WORDS])candidates, count, z);
}

static int sect283k1_generator_x_is(const uint64_t *k, const uint64_t *candidates, unsigned count,
                                    const uint64_t *z) {
  return montu_ec_sect283k1_generator_x_is(k, (const uint64_t(*)[MONTU_EC_SECT283K1_WORDS])candidates,
                                           count, z);
}

static int sect283k1_mul_generator(uint64_t *rx, uint64_t *ry, const uint64_t *k) {
  return montu_ec_sect283k1_mul(rx, ry, k, montu_ec_sect283k1_gx, montu_ec_sect283k1_gy);
}

/* u·P for a public u: O for u = 0, else the ladder (which also covers u = n − 1). */
static int sect283k1_mul_public(uint64_t *rx, uint64_t *ry, const uint64_t *u, const uint64_t *px,
                                const uint64_t *py) {
  if (montu_mp_is_zero(u, MONTU_EC_SECT283K1_WORDS)) {
    montu_mp_zero(rx, MONTU_EC_SECT283K1_WORDS);
    montu_mp_zero(ry, MONTU_EC_SECT283K1_WORDS);
    return MONTU_ERR_EC_INFINITY;
  }
  return montu_ec_sect283k1_mul(rx, ry, u, px, py);
}

static int p256_validate(const uint64_t *x, const uint64_t *y) { return montu_ec_p256_on_curve(x, y); }

static const uint64_t sect283k1_field_bound[MONTU_EC_SECT283K1_WORDS] = {
    [MONTU_EC_SECT283K1_M / 64] = (uint64_t)1 << (MONTU_EC_SECT283K1_M % 64)};

static const curve_ops curves[] = {
    [MONTU_CURVE_P256] = {
        .words = MONTU_EC_P256_WORDS,
        .binary_degree = 0,
        .n_bits = 256,
        .n = montu_ec_p256_n,
        .gx = montu_ec_p256_gx,
        .gy = montu_ec_p256_gy,
        .field_bound = montu_ec_p256_p,
        .candidates = MONTU_EC_COMB_CANDIDATES,
        .sign = montu_ec_p256_sign,
        .sign_count = COUNT(montu_ec_p256_sign),
        .verify_check = montu_ec_p256_verify_check,
        .verify_check_count = COUNT(montu_ec_p256_verify_check),
        .validate = p256_validate,
        .mul = montu_ec_p256_mul,
        .mul_validates = 1,
        .mul_public = montu_ec_p256_mul_public,
        .mul_generator = montu_ec_p256_mul_generator,
        .add = montu_ec_p256_add,
        .generator_x_is = p256_generator_x_is,
        .check_constants = montu_ec_p256_check_constants,
        .forget = montu_ec_p256_forget,
    },
    [MONTU_CURVE_SECT283K1] = {
        .words = MONTU_EC_SECT283K1_WORDS,
        .binary_degree = MONTU_EC_SECT283K1_M,
        .n_bits = MONTU_EC_SECT283K1_STEPS,
        .n = montu_ec_sect283k1_n,
        .gx = montu_ec_sect283k1_gx,
        .gy = montu_ec_sect283k1_gy,
        .field_bound = sect283k1_field_bound,
        .candidates = MONTU_EC_BIN_CANDIDATES,
        .sign = montu_ec_sect283k1_sign,
        .sign_count = COUNT(montu_ec_sect283k1_sign),
        .verify_check = montu_ec_sect283k1_verify_check,
        .verify_check_count = COUNT(montu_ec_sect283k1_verify_check),
        .validate = montu_ec_sect283k1_validate,
        .mul = montu_ec_sect283k1_mul,
        .mul_validates = 0,
        .mul_public = sect283k1_mul_public,
        .mul_generator = sect283k1_mul_generator,
        .add = montu_ec_sect283k1_add,
        .generator_x_is = sect283k1_generator_x_is,
        .check_constants = montu_ec_sect283k1_check_constants,
        .forget = montu_ec_sect283k1_forget,
    },
};

static const curve_ops *ops_of(montu_curve curve) {
  return (unsigned)curve < COUNT(curves) ? &curves[curve] : NULL;
}

unsigned montu_ec_words(montu_curve curve) {
  const curve_ops *c = ops_of(curve);
  return c ? c->words : 0;
}

/* ------------------------------------------------------------------ points */

int montu_ec_validate(montu_curve curve, const uint64_t x[], const uint64_t y[]) {
  const curve_ops *c = ops_of(curve);
  if (c == NULL || x == NULL || y == NULL) return MONTU_ERR_ARGUMENT;
  return c->validate(x, y);
}

int montu_ec_mul(montu_curve curve, uint64_t rx[], uint64_t ry[], const uint64_t k[], const uint64_t px[],
                 const uint64_t py[]) {
  const curve_ops *c = ops_of(curve);
  if (c == NULL || rx == NULL || ry == NULL || k == NULL || px == NULL || py == NULL)
    return MONTU_ERR_ARGUMENT;
  int error = 0;
  if (!montu_mp_in_range(k, c->n, c->words)) error = MONTU_ERR_ARGUMENT;
  else if (!c->mul_validates) error = c->validate(px, py);
  if (error) {
    montu_mp_zero(rx, c->words);
    montu_mp_zero(ry, c->words);
    return error;
  }
  return c->mul(rx, ry, k, px, py);
}

int montu_ec_add(montu_curve curve, uint64_t rx[], uint64_t ry[], const uint64_t px[], const uint64_t py[],
                 const uint64_t qx[], const uint64_t qy[]) {
  const curve_ops *c = ops_of(curve);
  if (c == NULL) return MONTU_ERR_ARGUMENT;
  return c->add(rx, ry, px, py, qx, qy);
}

/* ------------------------------------------------------------------ modulo n */

/* SETMMI, n into R0, SETMOD, R² mod n into R2 (computed on the unit, as the driver's first use). */
static void order_session(const curve_ops *c) {
  montu_load_modulus(c->n, c->words);
  montu_load_r2(MONTU_EC_MODN_REG_R2, c->words, c->n_bits);
}

/* ecdsa.digest_to_integer: the leftmost bits(n) bits of the digest (not reduced mod n). */
static void digest_to_integer(uint64_t e[MAX_WORDS], const uint8_t digest[MONTU_EC_DIGEST_BYTES],
                              const curve_ops *c) {
  for (unsigned i = 0; i < c->words; ++i) e[i] = 0;
  for (unsigned i = 0; i < MONTU_EC_DIGEST_BYTES; ++i) {
    unsigned bit = 8 * (MONTU_EC_DIGEST_BYTES - 1 - i);
    e[bit / 64] |= (uint64_t)digest[i] << (bit % 64);
  }
  unsigned excess = 8 * MONTU_EC_DIGEST_BYTES > c->n_bits ? 8 * MONTU_EC_DIGEST_BYTES - c->n_bits : 0;
  for (unsigned i = 0; i < c->words && excess; ++i)     /* e >> excess (excess < 64 here) */
    e[i] = e[i] >> excess | (i + 1 < c->words ? e[i + 1] << (64 - excess) : 0);
}

static int is_eq(uint64_t status) { return (MONTU_STATUS_FLAGS(status) & MONTU_FLAG_EQ) != 0; }

/* LDZ of every register the programs modulo n use: d, k⁻¹ and what is derived from them do
 * not stay in the unit after signing. */
static void wipe_order_registers(void) {
  for (unsigned reg = 1; reg <= MONTU_EC_MODN_REG_LAST; ++reg) montu_cmd(INSN(LDZ, reg, 0, 0, 0, 0), 0);
}

/* The x coordinates with x mod n = r (public): r + j·n below the field bound, one after the
 * other (c->words words each) into `candidates`; returns how many. */
static unsigned x_candidates(uint64_t candidates[], const uint64_t r[], const curve_ops *c) {
  uint64_t x[MAX_WORDS];
  montu_mp_copy(x, r, c->words);
  unsigned count = 0;
  while (count < c->candidates && montu_mp_less(x, c->field_bound, c->words)) {
    montu_mp_copy(candidates + c->words * count++, x, c->words);
    if (montu_mp_add(x, x, c->n, c->words)) break;        /* past 2^(64·words) */
  }
  return count;
}

/* A uniform non-zero field element, a random projective Z (ecdsa._random_field_element): in
 * [1, p), or m random bits drawn again while they are all zero. */
static int random_field_element(uint64_t z[], const curve_ops *c) {
  if (c->binary_degree == 0) return montu_random_below(z, c->field_bound, c->words);
  int error;
  do {
    error = montu_random_bytes(z, c->words * sizeof z[0]);
    unsigned m = c->binary_degree;                  /* keep bits 0 .. m − 1 (m < 64·words) */
    z[m / 64] &= ((uint64_t)1 << (m % 64)) - 1;
    for (unsigned i = m / 64 + 1; i < c->words; ++i) z[i] = 0;
  } while (!error && montu_mp_is_zero(z, c->words));
  return error;
}

/* ------------------------------------------------------------------ key generation */

int montu_ecdsa_generate(montu_curve curve, uint64_t d[], uint64_t qx[], uint64_t qy[]) {
  const curve_ops *c = ops_of(curve);
  if (c == NULL || d == NULL || qx == NULL || qy == NULL) return MONTU_ERR_ARGUMENT;
  int error;
  do {
    error = montu_random_below(d, c->n, c->words);
    if (!error) error = c->mul_generator(qx, qy, d);
  } while (error == MONTU_ERR_EXCEPTIONAL);      /* P-256's negligible set: another key */
  if (error) {
    montu_mp_zero(d, c->words);
    montu_mp_zero(qx, c->words);
    montu_mp_zero(qy, c->words);
  }
  return error;
}

/* ------------------------------------------------------------------ signing */

#ifdef MONTU_EC_FAULT_TESTS
/* Tests only (tests/soc/test_fw_ec.py builds with -DMONTU_EC_FAULT_TESTS): the next signature
 * meets a fault — 1: bit 0 of s flipped as read back from the unit, 2: bit 0 of x(k·G). */
int montu_ec_fault_test;
static void inject_fault(uint64_t *value, int kind) {
  if (montu_ec_fault_test == kind) {
    value[0] ^= 1;
    montu_ec_fault_test = 0;
  }
}
#else
#define inject_fault(value, kind) ((void)0)
#endif

/* r = x mod n and s = k⁻¹(e + r·d) mod n on the unit (ecdsa._sign_program, β blinds the MINV),
 * as read back (unchecked). */
static int sign_with_nonce(uint64_t r[], uint64_t s[], const curve_ops *c, const uint64_t k[],
                           const uint64_t e[], const uint64_t x[], const uint64_t d[]) {
  uint64_t beta[MAX_WORDS];
  int error = montu_random_below(beta, c->n, c->words);
  if (error) return error;
  montu_clear();
  order_session(c);
  montu_write(MONTU_EC_MODN_REG_K, k, c->words);
  montu_write(MONTU_EC_MODN_REG_BETA, beta, c->words);
  montu_write(MONTU_EC_MODN_REG_E, e, c->words);
  montu_write(MONTU_EC_MODN_REG_X, x, c->words);
  montu_write(MONTU_EC_MODN_REG_D, d, c->words);
  montu_mp_zero(beta, c->words);
  montu_run(c->sign, c->sign_count);
  montu_read(MONTU_EC_MODN_REG_R, r, c->words);
  montu_read(MONTU_EC_MODN_REG_S, s, c->words);
  inject_fault(s, 1);
  wipe_order_registers();
  return montu_finish();
}

/* montu.ec.ecdsa._check_signature: (r, s) as read back is the signature of e under d with nonce
 * k — r, s in [1, n); the field's R² right; x(k·G), recomputed from a random projective start,
 * one of the x with x mod n = r; R² of n right and s·k = e + r·d mod n on the unit. Together:
 * (r, s) verifies under Q = d·G. 0 or an error (the caller makes every error a fault). */
static int check_signature(const curve_ops *c, const uint64_t k[], const uint64_t e[], const uint64_t r[],
                           const uint64_t s[], const uint64_t d[]) {
  if (!montu_mp_in_range(r, c->n, c->words) || !montu_mp_in_range(s, c->n, c->words))
    return MONTU_ERR_EC_FAULT;
  int error = c->check_constants();
  if (error) return error;
  uint64_t candidates[MAX_CANDIDATES * MAX_WORDS], z[MAX_WORDS];
  unsigned count = x_candidates(candidates, r, c);
  error = random_field_element(z, c);
  if (!error) error = c->generator_x_is(k, candidates, count, z);
  if (error) return error;
  montu_clear();
  order_session(c);
  montu_write(MONTU_EC_MODN_REG_K, k, c->words);
  montu_write(MONTU_EC_MODN_REG_E, e, c->words);
  montu_write(MONTU_EC_MODN_REG_R, r, c->words);
  montu_write(MONTU_EC_MODN_REG_D, d, c->words);
  montu_write(MONTU_EC_MODN_REG_S, s, c->words);
  uint64_t first = montu_next;
  montu_wait(montu_run(montu_ec_signature_check, COUNT(montu_ec_signature_check)));
  int right = is_eq(montu_status_now(first + MONTU_EC_SIGNATURE_CHECK_CONSTANT)) &&
              is_eq(montu_status_now(first + MONTU_EC_SIGNATURE_CHECK_RELATION));
  wipe_order_registers();
  error = montu_finish();
  if (error) return error;
  return right ? 0 : MONTU_ERR_EC_FAULT;
}

int montu_ecdsa_sign_sha256(montu_curve curve, uint64_t r[], uint64_t s[], const uint64_t d[],
                            const uint8_t digest[MONTU_EC_DIGEST_BYTES]) {
  const curve_ops *c = ops_of(curve);
  if (c == NULL || r == NULL || s == NULL || d == NULL || digest == NULL) return MONTU_ERR_ARGUMENT;
  uint64_t e[MAX_WORDS], k[MAX_WORDS], x[MAX_WORDS], y[MAX_WORDS], rr[MAX_WORDS] = {0},
      ss[MAX_WORDS] = {0};
  int error = montu_mp_in_range(d, c->n, c->words) ? 0 : MONTU_ERR_ARGUMENT;
  if (!error) digest_to_integer(e, digest, c);
  while (!error) {
    error = montu_random_below(k, c->n, c->words);
    if (error) break;
    error = c->mul_generator(x, y, k);
    inject_fault(x, 2);
    if (error == MONTU_ERR_EXCEPTIONAL) {       /* P-256's negligible set: another nonce */
      error = 0;
      continue;
    }
    if (!error) error = sign_with_nonce(rr, ss, c, k, e, x, d);
    if (error) break;
    if (montu_mp_is_zero(rr, c->words) | montu_mp_is_zero(ss, c->words)) continue;  /* ~2/n */
    error = check_signature(c, k, e, rr, ss, d);
    break;
  }
  montu_mp_zero(k, c->words);
  if (error && error != MONTU_ERR_ARGUMENT && error != MONTU_ERR_NO_ENTROPY) {
    /* a failed check or a command the unit rejected: a fault; nothing leaves, and the constants
     * cached for the curve are computed again by the next call (montu.ec.ecdsa) */
    c->forget();
    error = MONTU_ERR_EC_FAULT;
  }
  if (error) {
    montu_mp_zero(rr, c->words);
    montu_mp_zero(ss, c->words);
  }
  montu_mp_copy(r, rr, c->words);
  montu_mp_copy(s, ss, c->words);
  return error;
}

/* ------------------------------------------------------------------ verification */

/* x(u1·G + u2·Q) into x (public values; points.double_scalar_x by two k·P and one affine
 * addition); MONTU_ERR_EC_INFINITY for the point at infinity. */
static int double_scalar_x(uint64_t x[], const curve_ops *c, const uint64_t u1[], const uint64_t u2[],
                           const uint64_t qx[], const uint64_t qy[]) {
  uint64_t x1[MAX_WORDS], y1[MAX_WORDS], x2[MAX_WORDS], y2[MAX_WORDS], y[MAX_WORDS];
  int first = c->mul_public(x1, y1, u1, c->gx, c->gy);
  if (first && first != MONTU_ERR_EC_INFINITY) return first;
  int second = c->mul_public(x2, y2, u2, qx, qy);
  if (second && second != MONTU_ERR_EC_INFINITY) return second;
  if (first) {                                  /* O + P2 */
    montu_mp_copy(x, x2, c->words);
    return second;
  }
  if (second) {
    montu_mp_copy(x, x1, c->words);
    return 0;
  }
  return c->add(x, y, x1, y1, x2, y2);
}

int montu_ecdsa_verify_sha256(montu_curve curve, const uint64_t qx[], const uint64_t qy[],
                              const uint8_t digest[MONTU_EC_DIGEST_BYTES], const uint64_t r[],
                              const uint64_t s[]) {
  const curve_ops *c = ops_of(curve);
  if (c == NULL || qx == NULL || qy == NULL || digest == NULL || r == NULL || s == NULL)
    return MONTU_ERR_ARGUMENT;
  int error = c->validate(qx, qy);
  if (error) return error;
  if (!montu_mp_in_range(r, c->n, c->words) || !montu_mp_in_range(s, c->n, c->words))
    return MONTU_ERR_EC_SIGNATURE;
  uint64_t e[MAX_WORDS], u1[MAX_WORDS], u2[MAX_WORDS], x[MAX_WORDS];
  digest_to_integer(e, digest, c);
  montu_clear();
  order_session(c);
  montu_write(MONTU_EC_MODN_REG_E, e, c->words);
  montu_write(MONTU_EC_MODN_REG_R, r, c->words);
  montu_write(MONTU_EC_MODN_REG_S, s, c->words);
  montu_run(montu_ec_verify_scalars, COUNT(montu_ec_verify_scalars));
  montu_read(MONTU_EC_MODN_REG_K, u1, c->words);
  montu_read(MONTU_EC_MODN_REG_D, u2, c->words);
  error = montu_finish();
  if (error) return error;
  error = double_scalar_x(x, c, u1, u2, qx, qy);
  if (error == MONTU_ERR_EC_INFINITY) return MONTU_ERR_EC_SIGNATURE;
  if (error) return error;
  montu_clear();
  order_session(c);
  montu_write(MONTU_EC_MODN_REG_X, x, c->words);
  montu_write(MONTU_EC_MODN_REG_R, r, c->words);
  uint64_t status = montu_wait(montu_run(c->verify_check, c->verify_check_count));  /* x mod n = r */
  error = montu_finish();
  if (error) return error;
  return is_eq(status) ? 0 : MONTU_ERR_EC_SIGNATURE;
}

/* ------------------------------------------------------------------ ECDH */

int montu_ecdh(montu_curve curve, uint64_t shared_x[], const uint64_t d[], const uint64_t peer_x[],
               const uint64_t peer_y[]) {
  const curve_ops *c = ops_of(curve);
  if (c == NULL || shared_x == NULL) return MONTU_ERR_ARGUMENT;
  uint64_t x[MAX_WORDS] = {0}, y[MAX_WORDS] = {0};
  int error = montu_ec_mul(curve, x, y, d, peer_x, peer_y);   /* validates the peer's point */
  montu_mp_copy(shared_x, x, c->words);                      /* zero after an error */
  montu_mp_zero(y, c->words);
  return error;
}
