/* SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) for the firmware (fw/lib/sha256.c).
 * Byte strings in, byte strings out; no dynamic memory. */
#ifndef MONTU_HASH_H
#define MONTU_HASH_H

#include <stddef.h>
#include <stdint.h>

#define MONTU_SHA256_BYTES 32
#define MONTU_SHA256_BLOCK 64

typedef struct {
  uint32_t state[8];
  uint64_t bytes;                      /* message bytes absorbed so far */
  uint8_t block[MONTU_SHA256_BLOCK];   /* the partial block: bytes % 64 of them are used */
} montu_sha256_ctx;

void montu_sha256_init(montu_sha256_ctx *ctx);
void montu_sha256_update(montu_sha256_ctx *ctx, const void *data, size_t length);
/* The digest; the context must be initialised again before it is reused. */
void montu_sha256_final(montu_sha256_ctx *ctx, uint8_t digest[MONTU_SHA256_BYTES]);
void montu_sha256(uint8_t digest[MONTU_SHA256_BYTES], const void *data, size_t length);

/* HMAC-SHA-256 over several parts: init with the key, update with each part, final. */
typedef struct {
  montu_sha256_ctx inner;
  uint8_t outer_key[MONTU_SHA256_BLOCK];   /* the key (hashed if longer than a block) ^ 0x5c */
} montu_hmac_sha256_ctx;

void montu_hmac_sha256_init(montu_hmac_sha256_ctx *ctx, const uint8_t *key, size_t key_length);
void montu_hmac_sha256_update(montu_hmac_sha256_ctx *ctx, const void *data, size_t length);
void montu_hmac_sha256_final(montu_hmac_sha256_ctx *ctx, uint8_t mac[MONTU_SHA256_BYTES]);
void montu_hmac_sha256(uint8_t mac[MONTU_SHA256_BYTES], const uint8_t *key, size_t key_length,
                       const void *data, size_t length);

#endif
