/* SHA-256 (FIPS 180-4 §6.2) and HMAC-SHA-256 (RFC 2104); see fw/include/montu_hash.h. */
#include <string.h>

#include "montu_hash.h"

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes (§4.2.2). */
static const uint32_t ROUND_CONSTANTS[64] = {
  0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
  0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
  0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
  0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
  0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
  0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
  0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
  0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
  0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
  0xc67178f2u,
};

/* The first 32 bits of the fractional parts of the square roots of the first 8 primes (§5.3.3). */
static const uint32_t INITIAL_STATE[8] = {
  0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
  0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};

static uint32_t rotr(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }

static uint32_t load_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(uint8_t *p, uint32_t x) {
  p[0] = (uint8_t)(x >> 24);
  p[1] = (uint8_t)(x >> 16);
  p[2] = (uint8_t)(x >> 8);
  p[3] = (uint8_t)x;
}

/* One block into the state (§6.2.2), the message schedule kept as a 16-word ring. */
static void compress(uint32_t state[8], const uint8_t block[MONTU_SHA256_BLOCK]) {
  uint32_t w[16];
  for (unsigned t = 0; t < 16; ++t) w[t] = load_be32(block + 4 * t);
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (unsigned t = 0; t < 64; ++t) {
    if (t >= 16) {
      uint32_t w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15];
      uint32_t s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3);
      uint32_t s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10);
      w[t & 15] += s0 + w[(t - 7) & 15] + s1;
    }
    uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                  ROUND_CONSTANTS[t] + w[t & 15];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

void montu_sha256_init(montu_sha256_ctx *ctx) {
  memcpy(ctx->state, INITIAL_STATE, sizeof ctx->state);
  ctx->bytes = 0;
}

void montu_sha256_update(montu_sha256_ctx *ctx, const void *data, size_t length) {
  const uint8_t *in = data;
  while (length > 0) {
    size_t used = ctx->bytes % MONTU_SHA256_BLOCK;
    size_t take = MONTU_SHA256_BLOCK - used < length ? MONTU_SHA256_BLOCK - used : length;
    memcpy(ctx->block + used, in, take);
    ctx->bytes += take;
    in += take;
    length -= take;
    if (used + take == MONTU_SHA256_BLOCK) compress(ctx->state, ctx->block);
  }
}

void montu_sha256_final(montu_sha256_ctx *ctx, uint8_t digest[MONTU_SHA256_BYTES]) {
  /* padding (§5.1.1): 0x80, zeros up to 56 mod 64, the message length in bits (64-bit BE) */
  uint64_t bits = ctx->bytes * 8;
  static const uint8_t pad[MONTU_SHA256_BLOCK] = {0x80};
  size_t used = ctx->bytes % MONTU_SHA256_BLOCK;
  montu_sha256_update(ctx, pad, used < 56 ? 56 - used : 120 - used);
  uint8_t length[8];
  for (unsigned i = 0; i < 8; ++i) length[i] = (uint8_t)(bits >> (56 - 8 * i));
  montu_sha256_update(ctx, length, sizeof length);
  for (unsigned i = 0; i < 8; ++i) store_be32(digest + 4 * i, ctx->state[i]);
  memset(ctx, 0, sizeof *ctx);                /* the state may be a keyed (HMAC) one */
}

void montu_sha256(uint8_t digest[MONTU_SHA256_BYTES], const void *data, size_t length) {
  montu_sha256_ctx ctx;
  montu_sha256_init(&ctx);
  montu_sha256_update(&ctx, data, length);
  montu_sha256_final(&ctx, digest);
}

void montu_hmac_sha256_init(montu_hmac_sha256_ctx *ctx, const uint8_t *key, size_t key_length) {
  uint8_t block_key[MONTU_SHA256_BLOCK] = {0};
  if (key_length > MONTU_SHA256_BLOCK) {
    montu_sha256(block_key, key, key_length);           /* RFC 2104 §2: long keys are hashed */
  } else if (key_length > 0) {
    memcpy(block_key, key, key_length);
  }
  uint8_t inner_key[MONTU_SHA256_BLOCK];
  for (unsigned i = 0; i < MONTU_SHA256_BLOCK; ++i) {
    inner_key[i] = block_key[i] ^ 0x36;
    ctx->outer_key[i] = block_key[i] ^ 0x5c;
  }
  montu_sha256_init(&ctx->inner);
  montu_sha256_update(&ctx->inner, inner_key, sizeof inner_key);
  memset(block_key, 0, sizeof block_key);
  memset(inner_key, 0, sizeof inner_key);
}

void montu_hmac_sha256_update(montu_hmac_sha256_ctx *ctx, const void *data, size_t length) {
  montu_sha256_update(&ctx->inner, data, length);
}

void montu_hmac_sha256_final(montu_hmac_sha256_ctx *ctx, uint8_t mac[MONTU_SHA256_BYTES]) {
  uint8_t inner[MONTU_SHA256_BYTES];
  montu_sha256_final(&ctx->inner, inner);
  montu_sha256_ctx outer;
  montu_sha256_init(&outer);
  montu_sha256_update(&outer, ctx->outer_key, sizeof ctx->outer_key);
  montu_sha256_update(&outer, inner, sizeof inner);
  montu_sha256_final(&outer, mac);
  memset(ctx, 0, sizeof *ctx);
  memset(inner, 0, sizeof inner);
}

void montu_hmac_sha256(uint8_t mac[MONTU_SHA256_BYTES], const uint8_t *key, size_t key_length,
                       const void *data, size_t length) {
  montu_hmac_sha256_ctx ctx;
  montu_hmac_sha256_init(&ctx, key, key_length);
  montu_hmac_sha256_update(&ctx, data, length);
  montu_hmac_sha256_final(&ctx, mac);
}
