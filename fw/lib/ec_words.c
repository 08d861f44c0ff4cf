/* Multi-word helpers of the EC library (fw/include/montu_ec.h): little-endian 64-bit words, no
 * branch and no memory access that depends on the values, only on the (public) word count. */
#include "montu_ec.h"

uint64_t montu_mp_add(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned words) {
  uint64_t carry = 0;
  for (unsigned i = 0; i < words; ++i) {
    uint64_t s = a[i] + carry;
    uint64_t c1 = s < carry;
    r[i] = s + b[i];
    carry = c1 | (r[i] < s);
  }
  return carry;
}

uint64_t montu_mp_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned words) {
  uint64_t borrow = 0;
  for (unsigned i = 0; i < words; ++i) {
    uint64_t d = a[i] - b[i];
    uint64_t b1 = a[i] < b[i];
    r[i] = d - borrow;
    borrow = b1 | (d < borrow);
  }
  return borrow;
}

void montu_mp_select(uint64_t *r, uint64_t mask, const uint64_t *a, const uint64_t *b, unsigned words) {
  for (unsigned i = 0; i < words; ++i) r[i] = (a[i] & mask) | (b[i] & ~mask);
}

uint64_t montu_mp_less(const uint64_t *a, const uint64_t *b, unsigned words) {
  uint64_t borrow = 0;
  for (unsigned i = 0; i < words; ++i) {       /* the borrow of a − b, without storing it */
    uint64_t d = a[i] - b[i];
    borrow = (a[i] < b[i]) | (d < borrow);
  }
  return borrow;
}

uint64_t montu_mp_is_zero(const uint64_t *a, unsigned words) {
  uint64_t acc = 0;
  for (unsigned i = 0; i < words; ++i) acc |= a[i];
  return 1 & ((acc | (0 - acc)) >> 63 ^ 1);
}

uint64_t montu_mp_equal(const uint64_t *a, const uint64_t *b, unsigned words) {
  uint64_t acc = 0;
  for (unsigned i = 0; i < words; ++i) acc |= a[i] ^ b[i];
  return montu_mp_is_zero(&acc, 1);
}

void montu_mp_copy(uint64_t *r, const uint64_t *a, unsigned words) {
  for (unsigned i = 0; i < words; ++i) r[i] = a[i];
}

void montu_mp_zero(uint64_t *r, unsigned words) {
  /* volatile stores: clearing a secret must not be optimised away */
  volatile uint64_t *v = r;
  for (unsigned i = 0; i < words; ++i) v[i] = 0;
}

uint64_t montu_mp_in_range(const uint64_t *k, const uint64_t *n, unsigned words) {
  return (montu_mp_is_zero(k, words) ^ 1) & montu_mp_less(k, n, words);
}
