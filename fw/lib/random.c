/* HMAC-DRBG with SHA-256 (NIST SP 800-90A Rev. 1 §10.1.2); see fw/include/montu_random.h.
 * No personalization string or additional input; one instance for the whole firmware. */
#include <string.h>

#include "montu.h"
#include "montu_hash.h"
#include "montu_random.h"

static struct {
  uint8_t key[MONTU_SHA256_BYTES];
  uint8_t value[MONTU_SHA256_BYTES];
  int seeded;
} drbg;

/* HMAC_DRBG_Update (§10.1.2.2) with the provided data `data` (may be empty). */
static void drbg_update(const uint8_t *data, size_t length) {
  for (uint8_t round = 0; round < 2; ++round) {
    montu_hmac_sha256_ctx mac;
    montu_hmac_sha256_init(&mac, drbg.key, sizeof drbg.key);
    montu_hmac_sha256_update(&mac, drbg.value, sizeof drbg.value);
    montu_hmac_sha256_update(&mac, &round, 1);
    montu_hmac_sha256_update(&mac, data, length);
    montu_hmac_sha256_final(&mac, drbg.key);
    montu_hmac_sha256(drbg.value, drbg.key, sizeof drbg.key, drbg.value, sizeof drbg.value);
    if (length == 0) break;
  }
}

int montu_random_seed(const uint8_t *entropy, size_t length) {
  if (entropy == NULL || length < MONTU_RANDOM_MIN_ENTROPY) return MONTU_ERR_ARGUMENT;
  if (!drbg.seeded) {                                   /* instantiate (§10.1.2.3) */
    memset(drbg.key, 0x00, sizeof drbg.key);
    memset(drbg.value, 0x01, sizeof drbg.value);
  }
  drbg_update(entropy, length);                         /* or reseed (§10.1.2.4) */
  drbg.seeded = 1;
  return 0;
}

int montu_random_bytes(void *out, size_t length) {
  if (out == NULL && length > 0) return MONTU_ERR_ARGUMENT;
  uint8_t *bytes = out;
  if (!drbg.seeded) {
    memset(bytes, 0, length);
    return MONTU_ERR_NO_ENTROPY;
  }
  /* generate (§10.1.2.5): V = HMAC(K, V) per 32 bytes, then update with no input */
  for (size_t done = 0; done < length; done += MONTU_SHA256_BYTES) {
    montu_hmac_sha256(drbg.value, drbg.key, sizeof drbg.key, drbg.value, sizeof drbg.value);
    size_t take = length - done < MONTU_SHA256_BYTES ? length - done : MONTU_SHA256_BYTES;
    memcpy(bytes + done, drbg.value, take);
  }
  drbg_update(NULL, 0);
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
    /* 0 < x < bound; the comparison's branches tell only whether a candidate is rejected */
    uint64_t any = 0, borrow = 0;
    for (unsigned i = 0; i < words; ++i) {
      any |= x[i];
      uint64_t d = x[i] - bound[i];
      uint64_t b1 = x[i] < bound[i];
      borrow = b1 | (d < borrow);
    }
    if (any != 0 && borrow) return 0;
  }
}

void montu_random_wipe(void) { memset(&drbg, 0, sizeof drbg); }
