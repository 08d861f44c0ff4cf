/* RSA's message encodings with SHA-256 (RFC 8017; src/montu/rsa/padding.py): RSASSA-PKCS1-v1_5
 * signatures and RSAES-OAEP with MGF1-SHA-256 and the empty label. Bytes and hashes on the CPU;
 * s = em^d and em = c^d through montu_rsa_private (checked before release), c = em^e and
 * em = s^e through montu_rsa_public. */
#include <string.h>

#include "montu_hash.h"
#include "montu_random.h"
#include "rsa_internal.h"

#define HASH MONTU_SHA256_BYTES

/* DER of DigestInfo { AlgorithmIdentifier { sha256, NULL }, OCTET STRING (32 bytes) } up to the
 * digest (RFC 8017 §9.2, note 1). */
static const uint8_t SHA256_DIGEST_INFO[19] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60,
                                               0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                                               0x01, 0x05, 0x00, 0x04, 0x20};
#define PKCS1_T_LENGTH (sizeof SHA256_DIGEST_INFO + HASH)

/* ---------------------------------------------------------------- EMSA-PKCS1-v1_5 */
/* EM = 0x00 01 FF..FF 00 || DigestInfo || digest, k bytes (k >= 62: a 512-bit key has 64). */
static void emsa_pkcs1_sha256(uint8_t *em, size_t k, const uint8_t digest[HASH]) {
  size_t t = k - PKCS1_T_LENGTH;
  em[0] = 0x00;
  em[1] = 0x01;
  memset(em + 2, 0xff, t - 3);
  em[t - 1] = 0x00;
  memcpy(em + t, SHA256_DIGEST_INFO, sizeof SHA256_DIGEST_INFO);
  memcpy(em + t + sizeof SHA256_DIGEST_INFO, digest, HASH);
}

int montu_rsa_sign_pkcs1_sha256(uint8_t *signature, const montu_rsa_private_key *key,
                                const uint8_t digest[32]) {
  if (signature == NULL || key == NULL || digest == NULL) return MONTU_ERR_ARGUMENT;
  size_t k = montu_rsa_bytes(&key->pub);
  if (k == 0) return MONTU_ERR_RSA_KEY;
  unsigned words = montu_rsa_words(key->pub.bits);
  uint8_t em[MONTU_RSA_MAX_BYTES];
  uint64_t x[MONTU_RSA_MAX_WORDS], s[MONTU_RSA_MAX_WORDS];
  emsa_pkcs1_sha256(em, k, digest);
  montu_rsa_from_bytes(x, words, em, k);
  int error = montu_rsa_private(s, key, x);       /* s is zero unless it passed its check */
  montu_rsa_to_bytes(signature, k, s);
  return error;
}

int montu_rsa_verify_pkcs1_sha256(const montu_rsa_public_key *key, const uint8_t digest[32],
                                  const uint8_t *signature) {
  if (key == NULL || digest == NULL || signature == NULL) return MONTU_ERR_ARGUMENT;
  size_t k = montu_rsa_bytes(key);
  if (k == 0) return MONTU_ERR_RSA_SIGNATURE;
  unsigned words = montu_rsa_words(key->bits);
  uint8_t em[MONTU_RSA_MAX_BYTES], expected[MONTU_RSA_MAX_BYTES];
  uint64_t s[MONTU_RSA_MAX_WORDS], m[MONTU_RSA_MAX_WORDS];
  montu_rsa_from_bytes(s, words, signature, k);
  /* a malformed key, s >= n or a unit error: nothing verifies */
  if (montu_rsa_public(m, key, s) != 0) return MONTU_ERR_RSA_SIGNATURE;
  montu_rsa_to_bytes(em, k, m);
  emsa_pkcs1_sha256(expected, k, digest);
  uint8_t difference = 0;
  for (size_t i = 0; i < k; ++i) difference |= em[i] ^ expected[i];
  return difference ? MONTU_ERR_RSA_SIGNATURE : 0;
}

/* ------------------------------------------------------------------------- EME-OAEP */
/* out ^= MGF1-SHA-256(seed, length) (RFC 8017 §B.2.1: Hash(seed || C) for C = 0, 1, ...). */
static void mgf1_xor(uint8_t *out, size_t length, const uint8_t *seed, size_t seed_length) {
  uint8_t mask[HASH];
  for (uint32_t counter = 0; (size_t)counter * HASH < length; ++counter) {
    const uint8_t c[4] = {(uint8_t)(counter >> 24), (uint8_t)(counter >> 16),
                          (uint8_t)(counter >> 8), (uint8_t)counter};
    montu_sha256_ctx ctx;
    montu_sha256_init(&ctx);
    montu_sha256_update(&ctx, seed, seed_length);
    montu_sha256_update(&ctx, c, sizeof c);
    montu_sha256_final(&ctx, mask);
    size_t done = (size_t)counter * HASH;
    size_t take = length - done < HASH ? length - done : HASH;
    for (size_t i = 0; i < take; ++i) out[done + i] ^= mask[i];
  }
  montu_rsa_wipe(mask, sizeof mask);
}

/* The longest OAEP message for k bytes (0 when k < 2·hLen + 2: the key cannot carry one). */
static size_t oaep_capacity(size_t k) { return k >= 2 * HASH + 2 ? k - 2 * HASH - 2 : 0; }

static int oaep_key_ok(size_t k) { return k >= 2 * HASH + 2; }

/* lHash = SHA-256 of the empty label (FIPS 180-4's well-known value; a constant saves a
 * ~8,000-cycle SHA-256 block per encryption and decryption). */
static const uint8_t EMPTY_LABEL_HASH[HASH] = {
  0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
  0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55};

int montu_rsa_encrypt_oaep_sha256(uint8_t *ciphertext, const montu_rsa_public_key *key,
                                  const uint8_t *message, size_t length) {
  if (ciphertext == NULL || key == NULL || (message == NULL && length > 0))
    return MONTU_ERR_ARGUMENT;
  size_t k = montu_rsa_bytes(key);
  if (k == 0 || !oaep_key_ok(k)) return MONTU_ERR_RSA_KEY;
  memset(ciphertext, 0, k);
  if (length > oaep_capacity(k)) return MONTU_ERR_RSA_MESSAGE;
  unsigned words = montu_rsa_words(key->bits);
  uint8_t em[MONTU_RSA_MAX_BYTES];
  uint64_t x[MONTU_RSA_MAX_WORDS], c[MONTU_RSA_MAX_WORDS];
  uint8_t *seed = em + 1, *db = em + 1 + HASH;        /* EM = 0x00 || seed || DB */
  size_t db_length = k - HASH - 1;
  em[0] = 0x00;
  int error = montu_random_bytes(seed, HASH);
  if (error) return error;
  memcpy(db, EMPTY_LABEL_HASH, HASH);                  /* DB = lHash || 00..00 || 01 || M */
  memset(db + HASH, 0, db_length - HASH - length - 1);
  db[db_length - length - 1] = 0x01;
  if (length > 0) memcpy(db + db_length - length, message, length);
  mgf1_xor(db, db_length, seed, HASH);                 /* maskedDB */
  mgf1_xor(seed, HASH, db, db_length);                 /* maskedSeed */
  montu_rsa_from_bytes(x, words, em, k);               /* below 2^(8(k-1)) <= n: in range */
  error = montu_rsa_public(c, key, x);
  montu_rsa_to_bytes(ciphertext, k, c);                /* zero on error */
  montu_rsa_wipe(em, k);
  montu_rsa_wipe(x, words * sizeof x[0]);
  return error;
}

/* 1 if x == 0 else 0, for any 32-bit x, without a branch. */
static uint32_t ct_is_zero(uint32_t x) { return 1 & (((x | (0u - x)) >> 31) ^ 1); }

/* EME-OAEP decoding (RFC 8017 §7.1.2 step 3) of the k-byte EM, as padding.oaep_decode: every
 * check accumulates into `bad`, nothing returns early, so the work does not depend on where
 * the encoding broke. Returns the message's offset in em, or 0 if the encoding is bad (a
 * message never starts at offset 0). */
static size_t oaep_decode(uint8_t *em, size_t k) {
  uint8_t *seed = em + 1, *db = em + 1 + HASH;
  size_t db_length = k - HASH - 1;
  mgf1_xor(seed, HASH, db, db_length);                 /* seed = maskedSeed ^ MGF(maskedDB) */
  mgf1_xor(db, db_length, seed, HASH);                 /* DB = maskedDB ^ MGF(seed) */
  uint32_t difference = em[0];                         /* Y must be 0 */
  for (size_t i = 0; i < HASH; ++i) difference |= db[i] ^ EMPTY_LABEL_HASH[i];
  uint32_t found = 0, garbage = 0, index = 0;          /* index: the 0x01 separator's offset */
  for (size_t i = HASH; i < db_length; ++i) {
    uint32_t is_one = ct_is_zero(db[i] ^ 1u), is_zero = ct_is_zero(db[i]);
    uint32_t first = is_one & (found ^ 1);
    index |= (0u - first) & (uint32_t)i;
    garbage |= (found ^ 1) & (is_zero ^ 1) & (is_one ^ 1);   /* a non-zero byte inside PS */
    found |= is_one;
  }
  uint32_t bad = (ct_is_zero(difference) ^ 1) | garbage | (found ^ 1);
  size_t offset = 1 + HASH + index + 1;
  return (size_t)((0u - (bad ^ 1)) & (uint32_t)offset);
}

int montu_rsa_decrypt_oaep_sha256(uint8_t *message, size_t *length, size_t capacity,
                                  const montu_rsa_private_key *key, const uint8_t *ciphertext) {
  if (message == NULL || length == NULL || key == NULL || ciphertext == NULL)
    return MONTU_ERR_ARGUMENT;
  *length = 0;
  memset(message, 0, capacity);
  size_t k = montu_rsa_bytes(&key->pub);
  if (k == 0 || !oaep_key_ok(k)) return MONTU_ERR_RSA_KEY;
  if (capacity < oaep_capacity(k)) return MONTU_ERR_ARGUMENT;
  unsigned words = montu_rsa_words(key->pub.bits);
  uint8_t em[MONTU_RSA_MAX_BYTES];
  uint64_t c[MONTU_RSA_MAX_WORDS], m[MONTU_RSA_MAX_WORDS];
  montu_rsa_from_bytes(c, words, ciphertext, k);
  int error = montu_rsa_private(m, key, c);
  if (error == MONTU_ERR_RSA_RANGE) return MONTU_ERR_RSA_DECRYPTION;   /* c >= n */
  if (error) return error;
  montu_rsa_to_bytes(em, k, m);
  size_t offset = oaep_decode(em, k);
  if (offset != 0) {                /* the length of the message is public once it is returned */
    *length = k - offset;
    memcpy(message, em + offset, *length);
  }
  montu_rsa_wipe(em, k);
  montu_rsa_wipe(m, words * sizeof m[0]);
  return offset != 0 ? 0 : MONTU_ERR_RSA_DECRYPTION;
}
