/* RSA key generation on the unit: src/montu/rsa/keygen.py in C, step for step.
 *
 * The CPU draws random bits (montu_random_*) and sets or clears single bits of them (the top two
 * bits and the low bit of a candidate w, w - 1 = w with bit 0 cleared, (w - 1) / 2 = w >> 1, the
 * bit scan of w - 1 for Miller-Rabin); every arithmetic step runs on the unit:
 *
 * - sieve: gcd(w, P) = 1 for P the product of the small odd primes below 2^(bits - 2), tested as
 *   MINV(P·r mod w, w) with a fresh random r (blinded);
 * - gcd(e, w - 1) = 1: MINV(e, w - 1), an even modulus;
 * - Miller-Rabin with the FIPS 186-5 round counts, each round a fixed-window exponentiation,
 *   then squarings and CMPs in Montgomery form;
 * - |p - q| > 2^(bits - 100) by SUB and CMP; gcd((p - 1)/2, (q - 1)/2) = 1 by MINV, so that
 *   lambda(n) = (p - 1)·((q - 1)/2), one product modulo n;
 * - n = p·q as a product modulo 2^bits - 1 (exact), d = MINV(e, lambda) > 2^(bits/2) (CMP),
 *   dp = MINV(e, p - 1), dq = MINV(e, q - 1), qinv = MINV(q mod p, p);
 * - a pairwise-consistency private operation (which checks m^e = c) before returning.
 *
 * Not constant-time, as the Python one: MINV's time follows its operands (on secret moduli for
 * d, dp and dq) and every candidate's fate shows in the time. Signing and decryption are
 * constant-time.
 *
 * Where the time goes: the unit's work per candidate is a few thousand cycles; its random bits
 * cost more on the CPU (a SHA-256 block is ~8,000 cycles on CVA6; the Hash_DRBG of
 * fw/lib/random.c spends one block per 32 bytes and two more per request). So the search takes
 * its random bytes from a pool refilled by one montu_random_bytes request of POOL_BYTES: the same
 * DRBG, with one state update per pool instead of one per draw. The pool is wiped at the end,
 * and the unit's registers are cleared. */
#include <string.h>

#include "montu_random.h"
#include "rsa_internal.h"

#define HALF MONTU_RSA_MAX_HALF_WORDS
#define FULL MONTU_RSA_MAX_WORDS
#define REJECTED (-1)               /* a check's verdict on a candidate (errors are > 0) */
#define LT_FLAG 2                   /* CSWAP's flag number of LT (instructions.yaml) */

#define POOL_BYTES 512

typedef void (*progress_fn)(char);

/* Random bytes drawn from the DRBG ahead of use; `used` of them are gone (and zeroed). */
typedef struct {
  uint8_t bytes[POOL_BYTES];
  size_t used;
} pool_t;

/* One prime search: the length, the exponent, the public sieve constant and the random pool. */
typedef struct {
  unsigned bits, words, rounds;
  uint64_t e[HALF];                 /* e as a number of `words` words */
  uint64_t sieve[HALF];
  progress_fn progress;
  pool_t pool;
} search_t;

static void report(const search_t *search, char event) {
  if (search->progress != NULL) search->progress(event);
}

static void set_bit(uint64_t *x, unsigned bit) { x[bit / 64] |= (uint64_t)1 << (bit % 64); }

/* FIPS 186-5 Table B.1 (primes of 1024/1536/2048 bits: 5/4/4 rounds); 512-bit primes (and the
 * smaller ones of test keys): 7 rounds (FIPS 186-4 Table C.3). */
static unsigned miller_rabin_rounds(unsigned prime_bits) {
  return prime_bits <= 512 ? 7 : prime_bits <= 1024 ? 5 : 4;
}

/* ------------------------------------------------------------------ random bits */
static int random_bytes(search_t *search, void *out, size_t length) {
  pool_t *pool = &search->pool;
  uint8_t *bytes = out;
  while (length > 0) {
    if (pool->used == POOL_BYTES) {
      int error = montu_random_bytes(pool->bytes, POOL_BYTES);
      if (error) return error;
      pool->used = 0;
    }
    size_t take = POOL_BYTES - pool->used < length ? POOL_BYTES - pool->used : length;
    memcpy(bytes, pool->bytes + pool->used, take);
    montu_rsa_wipe(pool->bytes + pool->used, take);   /* handed out: not kept */
    pool->used += take;
    bytes += take;
    length -= take;
  }
  return 0;
}

/* x uniform in [1, bound) (bound > 1): candidates of bits(bound) bits, rejected while 0 or not
 * below bound (montu_random_below's method, from the pool). */
static int random_below(search_t *search, uint64_t *x, const uint64_t *bound, unsigned words) {
  unsigned bits = montu_bit_length(bound, words), used = montu_rsa_words(bits);
  for (;;) {
    montu_mp_zero(x, words);
    int error = random_bytes(search, x, used * sizeof x[0]);
    if (error) return error;
    if (bits % 64) x[used - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
    if (montu_bit_length(x, words) != 0 && montu_mp_less(x, bound, words)) return 0;
  }
}

/* ------------------------------------------------------------ the sieve constant */
static int is_small_prime(uint64_t c) {
  for (uint64_t f = 3; f * f <= c; f += 2)
    if (c % f == 0) return 0;
  return 1;
}

/* r = x·small; returns the carry word. */
static uint64_t mul_small(uint64_t *r, const uint64_t *x, uint64_t small, unsigned words) {
  uint64_t carry = 0;
  for (unsigned i = 0; i < words; ++i) {
    unsigned __int128 t = (unsigned __int128)x[i] * small + carry;
    r[i] = (uint64_t)t;
    carry = (uint64_t)(t >> 64);
  }
  return carry;
}

/* The product of the odd primes 3, 5, 7, ... while it stays below 2^below_bits (a public
 * constant: keygen.small_prime_product), computed on the CPU. */
static void small_prime_product(uint64_t *product, unsigned words, unsigned below_bits) {
  uint64_t next[HALF];
  montu_mp_zero(product, words);
  product[0] = 1;
  for (uint64_t c = 3;; c += 2) {
    if (!is_small_prime(c)) continue;
    if (mul_small(next, product, c, words) != 0 || montu_bit_length(next, words) > below_bits)
      return;
    montu_mp_copy(product, next, words);
  }
}

/* ------------------------------------------------------------- checks on the unit */
/* 0 if gcd(a, n) = 1 (MINV finds an inverse), REJECTED if not, or an error. */
static int coprime(const uint64_t *a, const uint64_t *n, unsigned words) {
  uint64_t inverse[FULL];
  int error = montu_rsa_unit_mod_inv(inverse, a, n, words);
  return error == MONTU_E_NO_INVERSE ? REJECTED : error;
}

/* The same for an odd n, with a blinded by a random factor r in [1, n) first: the inversion's
 * time then does not follow a and n alone. */
static int coprime_blinded(search_t *search, const uint64_t *a, const uint64_t *n,
                           unsigned words) {
  uint64_t r[HALF], blinded[HALF];
  int error = random_below(search, r, n, words);
  if (!error) error = montu_rsa_unit_mod_mul(blinded, a, r, n, words);
  return error ? error : coprime(blinded, n, words);
}

/* Load a and b into R_X and R_Y at the length of `bits` bits (keygen._load_pair). */
static unsigned load_pair(const uint64_t *a, const uint64_t *b, unsigned bits) {
  unsigned k = montu_rsa_words(bits);
  montu_rsa_unit_configure(k);
  montu_write(R_X, a, k);
  montu_write(R_Y, b, k);
  return k;
}

/* big, small = max(a, b), min(a, b): CMP sets LT, CSWAP on LT puts the larger into R_X. The
 * outputs may be the inputs. */
static int ordered(uint64_t *big, uint64_t *small, const uint64_t *a, const uint64_t *b,
                   unsigned words) {
  unsigned a_bits = montu_bit_length(a, words), b_bits = montu_bit_length(b, words);
  unsigned k = load_pair(a, b, a_bits > b_bits ? a_bits : b_bits);
  montu_cmd(INSN(CMP, 0, R_X, R_Y, 0, 0), 0);
  montu_cmd(INSN(CSWAP, 0, R_X, R_Y, 0, LT_FLAG), 0);
  montu_read(R_X, big, k);
  montu_read(R_Y, small, k);
  montu_rsa_widen(big, words, big, k);
  montu_rsa_widen(small, words, small, k);
  return montu_finish();
}

/* r = big - small (SUB), at the length of `bits` bits. */
static int difference(uint64_t *r, const uint64_t *big, const uint64_t *small, unsigned bits,
                      unsigned words) {
  unsigned k = load_pair(big, small, bits);
  montu_cmd(INSN(SUB, R_Z, R_X, R_Y, 0, 0), 0);
  montu_read(R_Z, r, k);
  montu_rsa_widen(r, words, r, k);
  return montu_finish();
}

/* 0 if x > 2^power (CMP on the unit at the length of max(bits, power + 1) bits), else
 * REJECTED, or an error (keygen._greater_than_power). */
static int greater_than_power(const uint64_t *x, unsigned power, unsigned bits, unsigned words) {
  uint64_t two_to_power[FULL];
  montu_mp_zero(two_to_power, words);
  set_bit(two_to_power, power);
  load_pair(two_to_power, x, bits > power + 1 ? bits : power + 1);
  unsigned flags = montu_rsa_unit_flags(montu_cmd(INSN(CMP, 0, R_X, R_Y, 0, 0), 0));
  int error = montu_finish();
  return error ? error : (flags & MONTU_FLAG_LT) ? 0 : REJECTED;
}

/* |a - b| > 2^(bits - 100) and gcd((a - 1)/2, (b - 1)/2) = 1. */
static int far_apart_and_coprime_halves(const uint64_t *a, const uint64_t *b, unsigned bits,
                                        unsigned words) {
  uint64_t big[HALF], small[HALF], gap[HALF];
  int verdict = ordered(big, small, a, b, words);
  if (!verdict) verdict = difference(gap, big, small, bits, words);
  if (!verdict) verdict = greater_than_power(gap, bits - 100, bits, words);
  if (verdict) return verdict;
  montu_rsa_shift_right(big, big, 1, words);
  montu_rsa_shift_right(small, small, 1, words);
  return coprime(small, big, words);
}

/* ------------------------------------------------------------------- Miller-Rabin */
static unsigned eq(unsigned flags) { return (flags & MONTU_FLAG_EQ) != 0; }

/* One round (FIPS 186-5 B.3.1) with the base b: z = b^m mod w (constant-time), then up to a - 1
 * squarings in Montgomery form, each compared with "1" and "-1" by CMP. 0 if w passes. */
static int miller_rabin_round(const uint64_t *w, const uint64_t *m, unsigned a, const uint64_t *b,
                              unsigned words) {
  uint64_t z[HALF];
  montu_rsa_unit_exp(w, words, b, NULL, m);
  montu_read(R_Z, z, words);                   /* the driver's mod_exp returns z */
  /* R_Z = z, R_ACC1 = R^2 mod w, R_ONE = 1 (montu_rsa_unit_exp leaves them) */
  montu_cmd(INSN(STARTMMI, R_X, R_Z, R_ACC1, 0, 0), 0);       /* z·R */
  montu_cmd(INSN(STARTMMI, R_Y, R_ACC1, R_ONE, 0, 0), 0);     /* R     ("1") */
  montu_cmd(INSN(LDZ, R_ACC0, 0, 0, 0, 0), 0);
  montu_cmd(INSN(MSUB, R_ACC0, R_ACC0, R_Y, 0, 0), 0);        /* -R    ("-1") */
  uint64_t to_one = montu_cmd(INSN(CMP, 0, R_X, R_Y, 0, 0), 0);
  uint64_t to_minus_one = montu_cmd(INSN(CMP, 0, R_X, R_ACC0, 0, 0), 0);
  unsigned passed = eq(montu_rsa_unit_flags(to_minus_one)) |
                    eq(MONTU_STATUS_FLAGS(montu_status_now(to_one)));
  for (unsigned i = 1; i < a && !passed; ++i) {
    montu_cmd(INSN(STARTMMI, R_X, R_X, R_X, 0, 0), 0);
    to_minus_one = montu_cmd(INSN(CMP, 0, R_X, R_ACC0, 0, 0), 0);
    to_one = montu_cmd(INSN(CMP, 0, R_X, R_Y, 0, 0), 0);
    unsigned one = eq(montu_rsa_unit_flags(to_one));
    passed = eq(MONTU_STATUS_FLAGS(montu_status_now(to_minus_one)));
    if (one) break;                               /* a non-trivial square root of 1 */
  }
  int error = montu_finish();
  return error ? error : passed ? 0 : REJECTED;
}

/* 0 if w passes every round of Miller-Rabin (each with a random base in [2, w - 2]). */
static int probably_prime(const uint64_t *w, search_t *search) {
  unsigned words = search->words, a = 0;
  uint64_t w1[HALF], m[HALF], bound[HALF], b[HALF];
  montu_rsa_sub_small(w1, w, 1, words);
  while (((w1[a / 64] >> (a % 64)) & 1) == 0) ++a;            /* w - 1 = 2^a·m */
  montu_rsa_shift_right(m, w1, a, words);
  montu_rsa_sub_small(bound, w, 2, words);
  for (unsigned round = 0; round < search->rounds; ++round) {
    int error = random_below(search, b, bound, words);        /* [1, w - 2) */
    if (error) return error;
    montu_rsa_add_small(b, b, 1, words);                      /* [2, w - 2] */
    int verdict = miller_rabin_round(w, m, a, b, words);
    if (verdict) return verdict;
    report(search, '+');
  }
  return 0;
}

/* --------------------------------------------------------------------- prime search */
static int random_candidate(search_t *search, uint64_t *w, unsigned bits, unsigned words) {
  int error = random_bytes(search, w, words * sizeof w[0]);
  if (error) return error;
  if (bits % 64) w[words - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
  set_bit(w, bits - 1);
  set_bit(w, bits - 2);
  w[0] |= 1;
  return 0;
}

/* A random prime of search->bits bits, coprime to e - 1... (keygen._random_prime); with
 * `other` (the first prime) also far from it and with coprime halves. */
static int random_prime(uint64_t *w, search_t *search, const uint64_t *other) {
  unsigned words = search->words;
  uint64_t w1[HALF];
  for (;;) {
    int verdict = random_candidate(search, w, search->bits, words);
    if (verdict) return verdict;
    verdict = coprime_blinded(search, search->sieve, w, words);
    if (!verdict) {
      montu_rsa_sub_small(w1, w, 1, words);
      verdict = coprime(search->e, w1, words);
    }
    if (!verdict && other != NULL)
      verdict = far_apart_and_coprime_halves(w, other, search->bits, words);
    if (!verdict) verdict = probably_prime(w, search);
    if (verdict != REJECTED) {
      if (!verdict) report(search, '*');
      return verdict;
    }
    report(search, '.');
  }
}

/* ------------------------------------------------------------------- the key */
/* x mod p on the unit for x < 2^L (keygen._reduce: Montgomery form, then out of it). */
static int reduce(uint64_t *r, const uint64_t *x, const uint64_t *p, unsigned words) {
  unsigned p_bits = montu_bit_length(p, words), k = montu_rsa_words(p_bits);
  montu_load_modulus(p, k);
  montu_rsa_unit_constants(k, p_bits);
  montu_rsa_unit_to_montgomery(R_X, x, NULL, k);
  montu_cmd(INSN(LDONE, R_ONE, 0, 0, 0, 0), 0);
  montu_cmd(INSN(STARTMMI, R_X, R_X, R_ONE, 0, 0), 0);
  montu_read(R_X, r, k);
  montu_rsa_widen(r, words, r, k);
  return montu_finish();
}

/* dp = e^-1 mod (p - 1), dq = e^-1 mod (q - 1) (MINV, even moduli), qinv = q^-1 mod p. */
static int crt_parameters(montu_rsa_private_key *key, const uint64_t *e, unsigned words) {
  uint64_t p1[HALF], q1[HALF], q_mod_p[HALF];
  montu_rsa_sub_small(p1, key->p, 1, words);
  montu_rsa_sub_small(q1, key->q, 1, words);
  int error = montu_rsa_unit_mod_inv(key->dp, e, p1, words);
  if (!error) error = montu_rsa_unit_mod_inv(key->dq, e, q1, words);
  if (!error) error = reduce(q_mod_p, key->q, key->p, words);
  if (!error) error = montu_rsa_unit_mod_inv(key->qinv, q_mod_p, key->p, words);
  /* cannot happen for primes found by random_prime: they are not RSA primes for e */
  return error == MONTU_E_NO_INVERSE ? MONTU_ERR_RSA_KEY : error;
}

/* n = p·q as p·q mod (2^bits - 1): exact, because p·q < 2^bits - 1 (top bits set). */
static int product(uint64_t *n, const uint64_t *p, const uint64_t *q, unsigned bits) {
  unsigned words = montu_rsa_words(bits);
  uint64_t modulus[FULL], p_wide[FULL], q_wide[FULL];
  for (unsigned i = 0; i < words; ++i) modulus[i] = ~(uint64_t)0;
  if (bits % 64) modulus[words - 1] = ((uint64_t)1 << (bits % 64)) - 1;
  montu_rsa_widen(p_wide, words, p, montu_rsa_words(bits / 2));
  montu_rsa_widen(q_wide, words, q, montu_rsa_words(bits / 2));
  int error = montu_rsa_unit_mod_mul(n, p_wide, q_wide, modulus, words);
  if (!error && montu_bit_length(n, words) != bits) error = MONTU_ERR_RSA_FAULT;
  return error;
}

/* d = e^-1 mod lambda(n), lambda = (p - 1)·((q - 1)/2) mod n (exact: below n); REJECTED unless
 * d > 2^(bits/2) (FIPS 186-5). */
static int private_exponent(montu_rsa_private_key *key, const uint64_t *e) {
  unsigned bits = key->pub.bits, words = montu_rsa_words(bits), half = montu_rsa_words(bits / 2);
  uint64_t p1[FULL], q_half[FULL], lambda[FULL], e_wide[FULL];
  montu_rsa_widen(p1, words, key->p, half);
  p1[0] &= ~(uint64_t)1;
  montu_rsa_widen(q_half, words, key->q, half);
  montu_rsa_shift_right(q_half, q_half, 1, words);
  montu_rsa_widen(e_wide, words, e, 1);
  int error = montu_rsa_unit_mod_mul(lambda, p1, q_half, key->pub.n, words);
  if (!error) error = montu_rsa_unit_mod_inv(key->d, e_wide, lambda, words);
  if (error == MONTU_E_NO_INVERSE) return MONTU_ERR_RSA_KEY;   /* cannot happen, as above */
  return error ? error : greater_than_power(key->d, bits / 2, bits, words);
}

/* The pairwise-consistency check: a private operation on a random probe in [2, n - 1]. */
static int pairwise_consistent(search_t *search, const montu_rsa_private_key *key) {
  unsigned words = montu_rsa_words(key->pub.bits);
  uint64_t bound[FULL], probe[FULL], result[FULL];
  montu_rsa_sub_small(bound, key->pub.n, 1, words);
  int error = random_below(search, probe, bound, words);        /* [1, n - 1) */
  montu_rsa_add_small(probe, probe, 1, words);
  if (!error) error = montu_rsa_private_crt(result, key, probe);
  montu_rsa_wipe(result, words * sizeof result[0]);
  return error;
}

static int generate(montu_rsa_private_key *key, search_t *search) {
  for (;;) {
    int error = random_prime(key->p, search, NULL);
    if (!error) error = random_prime(key->q, search, key->p);
    if (!error) error = ordered(key->p, key->q, key->p, key->q, search->words);
    if (!error) error = product(key->pub.n, key->p, key->q, key->pub.bits);
    if (!error) error = private_exponent(key, search->e);
    if (error == REJECTED) {
      report(search, '.');
      continue;
    }
    if (!error) error = crt_parameters(key, search->e, search->words);
    return error ? error : pairwise_consistent(search, key);
  }
}

int montu_rsa_generate(montu_rsa_private_key *key, unsigned bits, uint64_t e,
                       void (*progress)(char)) {
  if (key == NULL) return MONTU_ERR_ARGUMENT;
  montu_rsa_wipe(key, sizeof *key);
  if (bits % 8 || bits < MONTU_RSA_MIN_BITS || bits > MONTU_RSA_MAX_BITS || e < 3 || !(e & 1))
    return MONTU_ERR_RSA_KEY;
  search_t search = {.bits = bits / 2, .words = montu_rsa_words(bits / 2),
                     .rounds = miller_rabin_rounds(bits / 2), .progress = progress,
                     .pool = {.used = POOL_BYTES}};
  search.e[0] = e;
  small_prime_product(search.sieve, search.words, search.bits - 2);
  key->pub.bits = bits;
  key->pub.e = e;
  montu_clear();                                   /* errors from before are not this call's */
  int error = generate(key, &search);
  montu_rsa_unit_configure(montu_rsa_words(bits));  /* the longest length the search used */
  montu_rsa_unit_clear();
  int cleared = montu_finish();
  if (!error) error = cleared;
  montu_rsa_wipe(&search, sizeof search);          /* unused random bytes included */
  if (error) montu_rsa_wipe(key, sizeof *key);
  return error;
}
