/* Hash_DRBG with SHA-256 (NIST SP 800-90A Rev. 1 §10.1.1); see fw/include/montu_random.h.
 *
 * Hash_DRBG rather than HMAC_DRBG: on CVA6 a SHA-256 block costs ~8,000 cycles, and a 32-byte
 * request takes 3 blocks here (Hashgen's one, then Hash(0x03 || V)) against 12 for HMAC_DRBG.
 * No personalization string or additional input; one instance for the whole firmware; the
 * reseed interval (2^48 requests) is far beyond what a firmware run draws. */
#include <string.h>

#include "montu.h"
#include "montu_hash.h"
#include "montu_random.h"

#define SEED_BYTES 55          /* seedlen = 440 bits for SHA-256 (Table 2) */

static struct {
  uint8_t v[SEED_BYTES];
  uint8_t c[SEED_BYTES];
  uint64_t reseed_counter;
  int seeded;
} drbg;

/* x = x + y mod 2^(8·SEED_BYTES), y of `length` bytes right-aligned (big-endian numbers). */
static void add_into(uint8_t x[SEED_BYTES], const uint8_t *y, size_t length) {
  unsigned carry = 0;
  for (size_t i = 0; i < SEED_BYTES; ++i) {
    unsigned sum = x[SEED_BYTES - 1 - i] + carry + (i < length ? y[length - 1 - i] : 0);
    x[SEED_BYTES - 1 - i] = (uint8_t)sum;
    carry = sum >> 8;
  }
}

/* Hash_df (§10.3.1): SEED_BYTES bytes from Hash(counter || 440 || prefix || a || b), counter 1, 2. */
static void hash_df(uint8_t out[SEED_BYTES], uint8_t prefix, int with_prefix, const uint8_t *a,
                    size_t a_length, const uint8_t *b, size_t b_length) {
  static const uint8_t bits[4] = {0, 0, (8 * SEED_BYTES) >> 8, (8 * SEED_BYTES) & 0xff};
  uint8_t block[2 * MONTU_SHA256_BYTES];
  for (uint8_t counter = 1; counter <= 2; ++counter) {
    montu_sha256_ctx ctx;
    montu_sha256_init(&ctx);
    montu_sha256_update(&ctx, &counter, 1);
    montu_sha256_update(&ctx, bits, sizeof bits);
    if (with_prefix) montu_sha256_update(&ctx, &prefix, 1);
    montu_sha256_update(&ctx, a, a_length);
    montu_sha256_update(&ctx, b, b_length);
    montu_sha256_final(&ctx, block + MONTU_SHA256_BYTES * (counter - 1));
  }
  memcpy(out, block, SEED_BYTES);
  memset(block, 0, sizeof block);
}

int montu_random_seed(const uint8_t *entropy, size_t length) {
  if (entropy == NULL || length < MONTU_RANDOM_MIN_ENTROPY) return MONTU_ERR_ARGUMENT;
  uint8_t seed[SEED_BYTES];
  if (!drbg.seeded) {
    hash_df(seed, 0, 0, entropy, length, NULL, 0);             /* instantiate (§10.1.1.2) */
  } else {
    hash_df(seed, 0x01, 1, drbg.v, SEED_BYTES, entropy, length); /* reseed (§10.1.1.3) */
  }
  memcpy(drbg.v, seed, SEED_BYTES);
  hash_df(drbg.c, 0x00, 1, drbg.v, SEED_BYTES, NULL, 0);
  drbg.reseed_counter = 1;
  drbg.seeded = 1;
  memset(seed, 0, sizeof seed);
  return 0;
}

int montu_random_bytes(void *out, size_t length) {
  if (out == NULL && length > 0) return MONTU_ERR_ARGUMENT;
  uint8_t *bytes = out;
  if (!drbg.seeded) {
    memset(bytes, 0, length);
    return MONTU_ERR_NO_ENTROPY;
  }
  /* Hashgen (§10.1.1.4): Hash(data), data = V, V + 1, ... */
  uint8_t data[SEED_BYTES], block[MONTU_SHA256_BYTES];
  static const uint8_t one[1] = {1};
  memcpy(data, drbg.v, SEED_BYTES);
  for (size_t done = 0; done < length; done += MONTU_SHA256_BYTES) {
    montu_sha256(block, data, SEED_BYTES);
    size_t take = length - done < MONTU_SHA256_BYTES ? length - done : MONTU_SHA256_BYTES;
    memcpy(bytes + done, block, take);
    add_into(data, one, 1);
  }
  /* V = V + Hash(0x03 || V) + C + reseed_counter */
  montu_sha256_ctx ctx;
  static const uint8_t three = 0x03;
  montu_sha256_init(&ctx);
  montu_sha256_update(&ctx, &three, 1);
  montu_sha256_update(&ctx, drbg.v, SEED_BYTES);
  montu_sha256_final(&ctx, block);
  uint8_t counter[8];
  for (unsigned i = 0; i < 8; ++i) counter[i] = (uint8_t)(drbg.reseed_counter >> (56 - 8 * i));
  add_into(drbg.v, block, sizeof block);
  add_into(drbg.v, drbg.c, SEED_BYTES);
  add_into(drbg.v, counter, sizeof counter);
  drbg.reseed_counter += 1;
  memset(data, 0, sizeof data);
  memset(block, 0, sizeof block);
  return 0;
}

int montu_random_below(uint64_t *x, const uint64_t *bound, unsigned words) {
  if (x == NULL || bound == NULL || words == 0 || words > MONTU_MAX_WORDS) return MONTU_ERR_ARGUMENT;
  unsigned bits = 0;
  for (unsigned i = words; i-- > 0 && bits == 0;)
    if (bound[i]) bits = 64 * i + 64 - (unsigned)__builtin_clzll(bound[i]);
  if (bits < 2) {                                       /* bound 0 or 1: [1, bound) is empty */
    memset(x, 0, words * sizeof *x);
    return MONTU_ERR_ARGUMENT;
  }
  unsigned used = (bits + 63) / 64;
  uint64_t top_mask = bits % 64 ? ((uint64_t)1 << (bits % 64)) - 1 : ~(uint64_t)0;
  for (;;) {
    memset(x, 0, words * sizeof *x);
    int error = montu_random_bytes(x, used * sizeof *x);
    if (error) return error;
    x[used - 1] &= top_mask;
    /* 0 < x < bound; the branch tells only whether a candidate is rejected */
    if ((montu_mp_is_zero(x, words) ^ 1) & montu_mp_less(x, bound, words)) return 0;
  }
}

void montu_random_wipe(void) { memset(&drbg, 0, sizeof drbg); }
