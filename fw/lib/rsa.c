/* The RSA primitives on the unit (src/montu/rsa/operations.py): the public operation, and the
 * CRT private operation with its fault check:
 *
 *   m1 = c^dp mod p, m2 = c^dq mod q   fixed-window exponentiations (SHLX/MMX), exponent
 *                                      length L: constant time
 *   h  = qinv·(m1 - m2) mod p          Montgomery forms, MSUB, one product (Garner)
 *   m  = m2 + h·q                      below n: one product and a MADD mod n
 *   m^e mod n == c ?                   CMP on the unit; m leaves only if it holds
 *   LDZ of the registers used          nothing of the key or of m stays in the unit
 *
 * The commands and the unit cycles depend on the lengths of n, p and q only; the CPU copies
 * words without looking at them. */
#include "rsa_internal.h"

/* ------------------------------------------------------------------------- keys */
static int size_ok(unsigned bits) {
  return bits >= MONTU_RSA_MIN_BITS && bits <= MONTU_RSA_MAX_BITS;
}

size_t montu_rsa_bytes(const montu_rsa_public_key *key) {
  return key != NULL && size_ok(key->bits) ? (key->bits + 7) / 8 : 0;
}

static int public_key_ok(const montu_rsa_public_key *key) {
  return size_ok(key->bits) && montu_bit_length(key->n, MONTU_RSA_MAX_WORDS) == key->bits &&
         (key->n[0] & 1) && (key->e & 1) && key->e >= 3;
}

/* The CRT halves must be odd, and so long that c < n fits the 2L bits the reduction of c
 * modulo p and q takes (m2 < q then also fits p's 2L bits). */
static int private_key_ok(const montu_rsa_private_key *key) {
  if (!public_key_ok(&key->pub)) return 0;
  unsigned p_bits = montu_bit_length(key->p, MONTU_RSA_MAX_HALF_WORDS);
  unsigned q_bits = montu_bit_length(key->q, MONTU_RSA_MAX_HALF_WORDS);
  return (key->p[0] & 1) && (key->q[0] & 1) && p_bits > 1 && q_bits > 1 &&
         128 * montu_rsa_words(p_bits) >= key->pub.bits &&
         128 * montu_rsa_words(q_bits) >= key->pub.bits;
}

/* The words of n for an output buffer (0 when the key's size is out of range: unknown). */
static unsigned output_words(const montu_rsa_public_key *key) {
  return size_ok(key->bits) ? montu_rsa_words(key->bits) : 0;
}

/* ------------------------------------------------------------------ public operation */
int montu_rsa_public(uint64_t *m, const montu_rsa_public_key *key, const uint64_t *s) {
  if (m == NULL || key == NULL || s == NULL) return MONTU_ERR_ARGUMENT;
  unsigned words = output_words(key);
  uint64_t input[MONTU_RSA_MAX_WORDS];             /* m may be s */
  montu_mp_copy(input, s, words);
  montu_rsa_wipe(m, words * sizeof m[0]);
  if (!public_key_ok(key)) return MONTU_ERR_RSA_KEY;
  if (!montu_mp_less(input, key->n, words)) return MONTU_ERR_RSA_RANGE;
  montu_clear();                                   /* errors from before are not this call's */
  montu_rsa_unit_exp_public(key->n, words, input, key->e);
  montu_read(R_Z, m, words);
  int error = montu_finish();
  if (error) montu_rsa_wipe(m, words * sizeof m[0]);
  return error;
}

/* ----------------------------------------------------------------- private operation */
/* lo, hi = x (x_words words) split at 64·words bits (x < 2^(128·words)). */
static void split(uint64_t *lo, uint64_t *hi, unsigned words, const uint64_t *x, unsigned x_words) {
  montu_rsa_widen(lo, words, x, x_words < words ? x_words : words);
  if (x_words > words) montu_rsa_widen(hi, words, x + words, x_words - words);
  else montu_mp_zero(hi, words);
}

/* R_Z = c^exponent mod prime; the result (words words) into r. */
static void half_exp(uint64_t *r, const uint64_t *prime, unsigned words, const uint64_t *c,
                     unsigned c_words, const uint64_t *exponent) {
  uint64_t lo[MONTU_RSA_MAX_HALF_WORDS], hi[MONTU_RSA_MAX_HALF_WORDS];
  split(lo, hi, words, c, c_words);
  montu_rsa_unit_exp(prime, words, lo, hi, exponent);
  montu_read(R_Z, r, words);
  montu_rsa_wipe(lo, words * sizeof lo[0]);
  montu_rsa_wipe(hi, words * sizeof hi[0]);
}

/* h = qinv·(m1 - m2) mod p (operations._garner_h): m1·R and m2·R mod p (m2 < q may exceed p:
 * the unit reduces it), MSUB, then one Montgomery product with qinv leaves the plain h. */
static void garner_h(uint64_t *h, const montu_rsa_private_key *key, unsigned p_words,
                     const uint64_t *m1, const uint64_t *m2, unsigned q_words) {
  uint64_t lo[MONTU_RSA_MAX_HALF_WORDS], hi[MONTU_RSA_MAX_HALF_WORDS];
  montu_load_modulus(key->p, p_words);
  montu_rsa_unit_constants(p_words, montu_bit_length(key->p, p_words));
  montu_rsa_unit_to_montgomery(R_X, m1, NULL, p_words);
  montu_cmd(INSN(MOV, R_ACC0, R_X, 0, 0, 0), 0);
  split(lo, hi, p_words, m2, q_words);
  montu_rsa_unit_to_montgomery(R_X, lo, hi, p_words);    /* R^2, R^3 still in R_ACC1, R_Y */
  montu_rsa_unit_write(R_Z, key->qinv, p_words, p_words);
  montu_cmd(INSN(MSUB, R_X, R_ACC0, R_X, 0, 0), 0);
  montu_cmd(INSN(STARTMMI, R_X, R_X, R_Z, 0, 0), 0);
  montu_read(R_X, h, p_words);
  montu_rsa_wipe(lo, p_words * sizeof lo[0]);
  montu_rsa_wipe(hi, p_words * sizeof hi[0]);
}

/* m = m2 + h·q (operations._garner_m): h·q < n and m2 + h·q < n, so the product and the sum
 * modulo n are exact. */
static void garner_m(uint64_t *m, const montu_rsa_private_key *key, unsigned words,
                     const uint64_t *h, unsigned p_words, const uint64_t *m2, unsigned q_words) {
  montu_load_modulus(key->pub.n, words);
  montu_load_r2(R_ACC1, words, key->pub.bits);
  montu_rsa_unit_write(R_X, h, p_words, words);
  montu_rsa_unit_write(R_Y, key->q, q_words, words);
  montu_rsa_unit_write(R_Z, m2, q_words, words);
  montu_cmd(INSN(STARTMMI, R_X, R_X, R_Y, 0, 0), 0);           /* h·q·R^-1 */
  montu_cmd(INSN(STARTMMI, R_X, R_X, R_ACC1, 0, 0), 0);        /* h·q */
  montu_cmd(INSN(MADD, R_X, R_X, R_Z, 0, 0), 0);               /* + m2 */
  montu_read(R_X, m, words);
}

/* m^e mod n == c, compared on the unit (operations._check); returns the CMP's number. The
 * driver reads m^e back (mod_exp_public returns it): so does this, into `scratch`. */
static uint64_t send_check(const montu_rsa_public_key *key, unsigned words, const uint64_t *m,
                           const uint64_t *c, uint64_t *scratch) {
  montu_rsa_unit_exp_public(key->n, words, m, key->e);
  montu_read(R_Z, scratch, words);
  montu_rsa_unit_write(R_Y, c, words, words);
  return montu_cmd(INSN(CMP, 0, R_Z, R_Y, 0, 0), 0);
}

int montu_rsa_private_crt(uint64_t *m, const montu_rsa_private_key *key, const uint64_t *c) {
  unsigned words = montu_rsa_words(key->pub.bits);
  unsigned p_words = montu_rsa_words(montu_bit_length(key->p, MONTU_RSA_MAX_HALF_WORDS));
  unsigned q_words = montu_rsa_words(montu_bit_length(key->q, MONTU_RSA_MAX_HALF_WORDS));
  uint64_t m1[MONTU_RSA_MAX_HALF_WORDS], m2[MONTU_RSA_MAX_HALF_WORDS];
  uint64_t h[MONTU_RSA_MAX_HALF_WORDS], check[MONTU_RSA_MAX_WORDS];

  montu_clear();                                   /* errors from before are not this call's */
  half_exp(m1, key->p, p_words, c, words, key->dp);
  half_exp(m2, key->q, q_words, c, words, key->dq);
  garner_h(h, key, p_words, m1, m2, q_words);
  garner_m(m, key, words, h, p_words, m2, q_words);
  unsigned flags = montu_rsa_unit_flags(send_check(&key->pub, words, m, c, check));
  montu_rsa_unit_clear();                          /* every length used was <= n's */
  int error = montu_finish();
  montu_rsa_wipe(m1, p_words * sizeof m1[0]);
  montu_rsa_wipe(m2, q_words * sizeof m2[0]);
  montu_rsa_wipe(h, p_words * sizeof h[0]);
  if (!error && !(flags & MONTU_FLAG_EQ)) error = MONTU_ERR_RSA_FAULT;
  if (error) montu_rsa_wipe(m, words * sizeof m[0]);      /* nothing half-checked leaves */
  return error;
}

int montu_rsa_private(uint64_t *m, const montu_rsa_private_key *key, const uint64_t *c) {
  if (m == NULL || key == NULL || c == NULL) return MONTU_ERR_ARGUMENT;
  unsigned words = output_words(&key->pub);
  uint64_t input[MONTU_RSA_MAX_WORDS];             /* m may be c */
  montu_mp_copy(input, c, words);
  montu_rsa_wipe(m, words * sizeof m[0]);
  if (!private_key_ok(key)) return MONTU_ERR_RSA_KEY;
  if (!montu_mp_less(input, key->pub.n, words)) return MONTU_ERR_RSA_RANGE;
  return montu_rsa_private_crt(m, key, input);
}
