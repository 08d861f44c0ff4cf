/* RSA in firmware (fw/lib/rsa*.c): key generation, the CRT private operation with its fault
 * check, PKCS #1 v1.5 signatures and OAEP encryption with SHA-256 (RFC 8017). Every modular step
 * runs on the Montu unit with the command sequences of the Python stack (src/montu/rsa and
 * src/montu/driver.py); the CPU moves words, hashes and pads.
 *
 * Numbers are little-endian 64-bit words (as in montu.h); signatures, ciphertexts and encoded
 * messages are big-endian byte strings of k = ceil(bits / 8) bytes (RFC 8017 I2OSP/OS2IP).
 *
 * Timing: the private operation (montu_rsa_private, and so signing and decryption) sends the
 * same commands and spends the same unit cycles for every message and every key of the same
 * sizes and public exponent (fixed exponent lengths, Garner's recombination on the unit, the
 * check's square-and-multiply over the public e); OAEP decoding looks at the whole encoding
 * without an early exit. Key generation is NOT constant-time (like the Python
 * stack's: candidates are rejected at random, and MINV's time follows its operands; see
 * src/montu/rsa/keygen.py). Public operations take time that depends on public data only.
 *
 * After every error the outputs are zero and the unit and the library stay usable.
 */
#ifndef MONTU_RSA_H
#define MONTU_RSA_H

#include <stddef.h>
#include <stdint.h>

#include "montu.h"

#define MONTU_RSA_MIN_BITS 512        /* tests only: use 2048 or more */
#define MONTU_RSA_MAX_BITS 4096       /* the SoC unit's MaxBits */
#define MONTU_RSA_MAX_WORDS (MONTU_RSA_MAX_BITS / 64)
#define MONTU_RSA_MAX_HALF_WORDS (MONTU_RSA_MAX_WORDS / 2)   /* p, q and the CRT values */
#define MONTU_RSA_MAX_BYTES (MONTU_RSA_MAX_BITS / 8)
#define MONTU_RSA_DEFAULT_E 65537u

/* Errors (24 .. 31: montu.h owns 16 .. 19, montu_random.h 20, the elliptic curves 32 .. 39). */
#define MONTU_ERR_RSA_KEY 24          /* a malformed key, or a key size / exponent not supported */
#define MONTU_ERR_RSA_SIGNATURE 25    /* the signature is not valid for this key and digest */
#define MONTU_ERR_RSA_DECRYPTION 26   /* OAEP: every way a ciphertext can be wrong (no oracle) */
#define MONTU_ERR_RSA_FAULT 27        /* the private result failed its check m^e = c: nothing
                                         was released */
#define MONTU_ERR_RSA_MESSAGE 28      /* OAEP: the message is longer than k - 66 bytes */
#define MONTU_ERR_RSA_RANGE 29        /* montu_rsa_private/public: the input is not below n */

/* bits: the length of n (exactly bit_length(n)); e: odd, >= 3. Words of n above
 * ceil(bits / 64) are zero. */
typedef struct {
  unsigned bits;
  uint64_t e;
  uint64_t n[MONTU_RSA_MAX_WORDS];
} montu_rsa_public_key;

/* RFC 8017 §3.2 (both representations): d, and the CRT values p, q, dp = d mod (p-1),
 * dq = d mod (q-1), qinv = q^-1 mod p. Unused high words are zero. Keys from
 * montu_rsa_generate have p > q of bits / 2 bits each. */
typedef struct {
  montu_rsa_public_key pub;
  uint64_t d[MONTU_RSA_MAX_WORDS];
  uint64_t p[MONTU_RSA_MAX_HALF_WORDS];
  uint64_t q[MONTU_RSA_MAX_HALF_WORDS];
  uint64_t dp[MONTU_RSA_MAX_HALF_WORDS];
  uint64_t dq[MONTU_RSA_MAX_HALF_WORDS];
  uint64_t qinv[MONTU_RSA_MAX_HALF_WORDS];
} montu_rsa_private_key;

/* k: the length in bytes of n, of signatures and ciphertexts (0 for a key size out of range). */
size_t montu_rsa_bytes(const montu_rsa_public_key *key);

/* A new key with an exactly `bits`-bit modulus: bits a multiple of 8 in MONTU_RSA_MIN_BITS ..
 * MONTU_RSA_MAX_BITS, e odd and >= 3 (MONTU_RSA_DEFAULT_E is the usual choice). The prime search
 * of src/montu/rsa/keygen.py, all arithmetic on the unit: sieve by a blinded MINV, gcd(e, w - 1)
 * by MINV, Miller-Rabin with the FIPS 186-5 rounds, |p - q| > 2^(bits/2 - 100),
 * d = e^-1 mod lambda(n) > 2^(bits/2), and a pairwise-consistency private operation.
 * Random bits come from montu_random_* (seed it first). progress (may be NULL) gets '.' for each
 * rejected candidate, '+' for each passed Miller-Rabin round and '*' for each prime, as OpenSSL
 * prints. Returns 0, MONTU_ERR_ARGUMENT, MONTU_ERR_RSA_KEY (size or exponent),
 * MONTU_ERR_NO_ENTROPY, MONTU_ERR_RSA_FAULT or the unit's error; the key is zero on error.
 * Not constant-time (see above). */
int montu_rsa_generate(montu_rsa_private_key *key, unsigned bits, uint64_t e,
                       void (*progress)(char));

/* m = s^e mod n for 0 <= s < n (ceil(bits / 64) words each; m may be s). Returns 0,
 * MONTU_ERR_ARGUMENT, MONTU_ERR_RSA_KEY, MONTU_ERR_RSA_RANGE or the unit's error. */
int montu_rsa_public(uint64_t *m, const montu_rsa_public_key *key, const uint64_t *s);

/* m = c^d mod n for 0 <= c < n (m may be c) by the CRT (Garner on the unit), released only
 * after the unit confirmed m^e mod n = c (else MONTU_ERR_RSA_FAULT); the unit's registers are
 * cleared after. Constant time: the commands and the unit cycles depend on the lengths of n, p
 * and q and on the public e only. Returns 0, MONTU_ERR_ARGUMENT, MONTU_ERR_RSA_KEY,
 * MONTU_ERR_RSA_RANGE, MONTU_ERR_RSA_FAULT or the unit's error. */
int montu_rsa_private(uint64_t *m, const montu_rsa_private_key *key, const uint64_t *c);

/* RSASSA-PKCS1-v1_5 with SHA-256 over a digest: signature = k bytes (checked by the private
 * operation's m^e = c before it is released). Returns 0, MONTU_ERR_ARGUMENT, MONTU_ERR_RSA_KEY,
 * MONTU_ERR_RSA_FAULT or the unit's error. */
int montu_rsa_sign_pkcs1_sha256(uint8_t *signature, const montu_rsa_private_key *key,
                                const uint8_t digest[32]);

/* 0 if `signature` (k bytes) is a valid RSASSA-PKCS1-v1_5 SHA-256 signature of `digest`, else
 * MONTU_ERR_RSA_SIGNATURE (also for a malformed key or a unit failure: nothing verifies then);
 * MONTU_ERR_ARGUMENT only for a NULL pointer. */
int montu_rsa_verify_pkcs1_sha256(const montu_rsa_public_key *key, const uint8_t digest[32],
                                  const uint8_t *signature);

/* RSAES-OAEP with SHA-256, MGF1-SHA-256 and the empty label: ciphertext = k bytes, for a message
 * of at most k - 66 bytes (message may be NULL when length is 0); the seed comes from
 * montu_random_bytes. Keys below 528 bits cannot carry OAEP-SHA-256 (k < 66): MONTU_ERR_RSA_KEY.
 * Returns 0, MONTU_ERR_ARGUMENT, MONTU_ERR_RSA_KEY, MONTU_ERR_RSA_MESSAGE, MONTU_ERR_NO_ENTROPY or
 * the unit's error. */
int montu_rsa_encrypt_oaep_sha256(uint8_t *ciphertext, const montu_rsa_public_key *key,
                                  const uint8_t *message, size_t length);

/* The message of an RSAES-OAEP (SHA-256, empty label) ciphertext of k bytes, into message[0 ..
 * *length). capacity must be at least k - 66 (the longest message the key carries; else
 * MONTU_ERR_ARGUMENT before anything is decrypted), so that no message length can make a
 * difference. Every malformed ciphertext (c >= n, a bad encoding) gives
 * MONTU_ERR_RSA_DECRYPTION, decided after the whole encoding has been examined. Also
 * MONTU_ERR_RSA_KEY, MONTU_ERR_RSA_FAULT or the unit's error; on any error *length = 0 and
 * message[0 .. capacity) is zero. */
int montu_rsa_decrypt_oaep_sha256(uint8_t *message, size_t *length, size_t capacity,
                                  const montu_rsa_private_key *key, const uint8_t *ciphertext);

#endif
