/* Elliptic curves in firmware: the Python stack's unit programs (montu.ec.window, montu.ec.prime),
 * run from the tables `python3 -m montu.soc.programs` generates into montu_ec_programs.h.
 * The host-side parts of montu.ec.window (the scalar's signed odd-digit recoding and the packing
 * of digits and signs into register words) are here in C, without branches on the scalar. */
#include <stddef.h>

#include "montu.h"
#include "montu_ec_programs.h"
#include "montu_internal.h"

#define W MONTU_EC_P256_WORDS
#define DIGITS MONTU_EC_P256_DIGITS

/* ------------------------------------------------------------------ constant-time words */
static uint64_t ct_is_zero(uint64_t x) { return 1 & ((x | (0 - x)) >> 63 ^ 1); }

/* r = a + b (W words); returns the carry. */
static uint64_t add_words(uint64_t *r, const uint64_t *a, const uint64_t *b) {
  uint64_t carry = 0;
  for (unsigned i = 0; i < W; ++i) {
    uint64_t s = a[i] + carry;
    uint64_t c1 = s < carry;
    r[i] = s + b[i];
    carry = c1 | (r[i] < s);
  }
  return carry;
}

/* r = a - b (W words); returns the borrow. */
static uint64_t sub_words(uint64_t *r, const uint64_t *a, const uint64_t *b) {
  uint64_t borrow = 0;
  for (unsigned i = 0; i < W; ++i) {
    uint64_t d = a[i] - b[i];
    uint64_t b1 = a[i] < b[i];
    r[i] = d - borrow;
    borrow = b1 | (d < borrow);
  }
  return borrow;
}

/* r = mask ? a : b, mask all ones or zero. */
static void select_words(uint64_t *r, uint64_t mask, const uint64_t *a, const uint64_t *b) {
  for (unsigned i = 0; i < W; ++i) r[i] = (a[i] & mask) | (b[i] & ~mask);
}

static int less_than(const uint64_t *a, const uint64_t *b) {
  uint64_t t[W];
  return (int)sub_words(t, a, b);
}

static int is_zero_words(const uint64_t *a) {
  uint64_t acc = 0;
  for (unsigned i = 0; i < W; ++i) acc |= a[i];
  return acc == 0;
}

/* montu.ec.window._irregular: value - n == 2·d with d = (value mod 32) - 16 (1 or 0). */
static uint64_t irregular(const uint64_t *value, const uint64_t *n) {
  uint64_t diff[W];
  uint64_t borrow = sub_words(diff, value, n);
  int64_t twice_d = 2 * ((int64_t)(value[0] & 31) - 16);
  uint64_t sign = (uint64_t)(twice_d >> 63);             /* all ones when d < 0 */
  uint64_t acc = diff[0] ^ (uint64_t)twice_d;
  for (unsigned i = 1; i < W; ++i) acc |= diff[i] ^ sign;
  return ct_is_zero(acc) & ct_is_zero(borrow ^ (sign & 1));
}

/* montu.ec.window.representation: k' = k (odd k), k + n or n - k (even k; n - k negates the
 * result), chosen without branches. Returns 1 if k is one of the window's exceptional scalars. */
static uint64_t represent(uint64_t value[W], uint64_t *negate, const uint64_t k[W], const uint64_t n[W]) {
  uint64_t kn[W], nk[W];
  uint64_t odd = k[0] & 1;
  uint64_t fits = add_words(kn, k, n) ^ 1;                 /* k + n < 2^(4·DIGITS) */
  sub_words(nk, n, k);
  uint64_t use_kn = (odd ^ 1) & fits & (irregular(kn, n) ^ 1);
  uint64_t use_nk = (odd ^ 1) & (use_kn ^ 1);
  select_words(value, 0 - odd, k, kn);
  select_words(value, 0 - use_nk, nk, value);
  *negate = use_nk;
  return irregular(value, n);
}

/* montu.ec.window.recode + comb._index_words + session.flag_words for the digits `from` .. `to`-1
 * (0 = the lowest): their table indices into IDX, their signs into SGN. The recoding steps
 * value <- 2·(value >> 5) + 1 keep bit 0 set and move every other bit down by 4, so at step i the
 * low five bits are 1 | (k' bits 4i+1 .. 4i+4) << 1: each digit comes straight from a 4-bit
 * slice of k'. Digit j (top first, j = DIGITS-1-i) goes to bits [255-3j : 253-3j] of IDX, its
 * sign to bit 255-j of SGN. The top digit (i = DIGITS-1) is positive: k' >> 4(DIGITS-1), made odd. */
static void recode_digits(uint64_t idx[W], uint64_t sgn[W], const uint64_t value[W], unsigned from,
                          unsigned to) {
  for (unsigned step = from; step < to; ++step) {
    unsigned at = step == DIGITS - 1 ? 4 * step : 4 * step + 1;
    uint64_t slice = value[at / 64] >> (at % 64);
    if (at % 64 > 60 && at / 64 + 1 < W) slice |= value[at / 64 + 1] << (64 - at % 64);
    unsigned j = DIGITS - 1 - step;
    uint64_t index, negative;
    if (step == DIGITS - 1) {                                  /* public: the loop's position */
      index = (((slice | 1) & 15) - 1) >> 1;
      negative = 0;
    } else {
      uint64_t low5 = 1 | (slice & 15) << 1;
      negative = low5 < 16;
      uint64_t mask = 0 - negative;
      index = ((((low5 - 16) ^ mask) - mask) - 1) >> 1;      /* (|d| - 1) / 2 */
    }
    unsigned pos = 64 * W - MONTU_EC_TABLE_BITS - MONTU_EC_TABLE_BITS * j;
    idx[pos / 64] |= index << (pos % 64);
    if (pos % 64 > 64 - MONTU_EC_TABLE_BITS) idx[pos / 64 + 1] |= index >> (64 - pos % 64);
    sgn[(64 * W - 1 - j) / 64] |= negative << ((64 * W - 1 - j) % 64);
  }
}

/* ------------------------------------------------------------------ the field session */
static uint64_t p256_r2[W];
static int p256_r2_known;

/* SETMMI, p into R0, SETMOD, R² mod p into `reg`: computed on the unit once, then reloaded. */
static void p256_session(unsigned reg) {
  montu_load_modulus(montu_ec_p256_p, W);
  if (!p256_r2_known) {
    montu_load_r2(reg, W, 256);
    montu_read(reg, p256_r2, W);
    p256_r2_known = montu_finish() == 0;
  } else {
    montu_write(reg, p256_r2, W);
  }
}

/* The on-curve program on (x, y) in the current session; returns its compare's number. */
static uint64_t send_on_curve(const uint64_t x[W], const uint64_t y[W]) {
  montu_write(MONTU_EC_ONC_REG_XP, x, W);
  montu_write(MONTU_EC_ONC_REG_YP, y, W);
  montu_write(MONTU_EC_ONC_REG_A, montu_ec_p256_a, W);
  montu_write(MONTU_EC_ONC_REG_B, montu_ec_p256_b, W);
  return montu_run(montu_ec_on_curve, sizeof montu_ec_on_curve / sizeof montu_ec_on_curve[0]);
}

static int coordinates_in_range(const uint64_t x[W], const uint64_t y[W]) {
  return less_than(x, montu_ec_p256_p) && less_than(y, montu_ec_p256_p);
}

int montu_ec_p256_on_curve(const uint64_t x[W], const uint64_t y[W]) {
  if (x == NULL || y == NULL) return MONTU_ERR_ARGUMENT;
  if (!coordinates_in_range(x, y)) return MONTU_ERR_POINT;
  montu_clear();
  p256_session(MONTU_EC_ONC_REG_R2);
  uint64_t status = montu_wait(send_on_curve(x, y));
  int error = montu_finish();
  if (error) return error;
  return (MONTU_STATUS_FLAGS(status) & MONTU_FLAG_EQ) ? 0 : MONTU_ERR_POINT;
}

/* Commands sent past one whose answer is wanted before waiting for it: the unit keeps working
 * meanwhile, and fewer answers than the adapter keeps arrive after it. */
#define OVERLAP (MONTU_MX_RING_DEPTH / 2)

int montu_ec_p256_mul(uint64_t rx[W], uint64_t ry[W], const uint64_t k[W], const uint64_t px[W],
                      const uint64_t py[W]) {
  if (rx == NULL || ry == NULL || k == NULL || px == NULL || py == NULL) return MONTU_ERR_ARGUMENT;
  if (is_zero_words(k) || !less_than(k, montu_ec_p256_n)) return MONTU_ERR_ARGUMENT;
  if (!coordinates_in_range(px, py)) return MONTU_ERR_POINT;
  for (unsigned i = 0; i < W; ++i) rx[i] = ry[i] = 0;

  /* One session: the on-curve check first (its registers are scratch for the window programs,
   * which read the point from TX0/TY0); its answer is collected while the table is built, and
   * no result leaves unless the point was on the curve. */
  montu_clear();
  p256_session(MONTU_EC_REG_R2);
  uint64_t on_curve = send_on_curve(px, py);
  montu_write(MONTU_EC_REG_TX0, px, W);
  montu_write(MONTU_EC_REG_TY0, py, W);
  /* the table program, and between its slices the recoding of k (the unit keeps the FIFO's
   * commands to work on meanwhile) */
  uint64_t value[W], negate, idx[W] = {0}, sgn[W] = {0};
  uint64_t exceptional = represent(value, &negate, k, montu_ec_p256_n);
  const unsigned table_count = sizeof montu_ec_p256_table / sizeof montu_ec_p256_table[0];
  montu_run(montu_ec_p256_table, OVERLAP);
  uint64_t on_curve_status = montu_wait(on_curve);
  enum { SLICES = 8 };
  for (unsigned s = 0; s < SLICES; ++s) {
    unsigned first = OVERLAP + (table_count - OVERLAP) * s / SLICES;
    unsigned last = OVERLAP + (table_count - OVERLAP) * (s + 1) / SLICES;
    montu_run(montu_ec_p256_table + first, last - first);
    recode_digits(idx, sgn, value, DIGITS * s / SLICES, DIGITS * (s + 1) / SLICES);
  }
  /* flag DIGITS: negate the result */
  sgn[(64 * W - 1 - DIGITS) / 64] |= negate << ((64 * W - 1 - DIGITS) % 64);
  for (unsigned i = 0; i < W; ++i) value[i] = 0;
  montu_write(MONTU_EC_REG_IDX, idx, W);
  montu_write(MONTU_EC_REG_SGN, sgn, W);
  for (unsigned i = 0; i < W; ++i) idx[i] = sgn[i] = 0;     /* the digits leave the CPU */

  const unsigned count = sizeof montu_ec_p256_main / sizeof montu_ec_p256_main[0];
  const unsigned ahead = MONTU_EC_P256_CHECK + OVERLAP;
  uint64_t first = montu_next;
  montu_run(montu_ec_p256_main, ahead);
  uint64_t check = montu_wait(first + MONTU_EC_P256_CHECK);   /* CMP(H, 0): EQ = exceptional */
  montu_run(montu_ec_p256_main + ahead, count - ahead);
  uint64_t x[W], y[W];
  montu_read(MONTU_EC_REG_XA, x, W);
  montu_read(MONTU_EC_REG_YA, y, W);
  int error = montu_finish();
  if (error) return error;
  if (!(MONTU_STATUS_FLAGS(on_curve_status) & MONTU_FLAG_EQ)) return MONTU_ERR_POINT;
  if (exceptional | ((MONTU_STATUS_FLAGS(check) & MONTU_FLAG_EQ) != 0)) return MONTU_ERR_EXCEPTIONAL;
  for (unsigned i = 0; i < W; ++i) {
    rx[i] = x[i];
    ry[i] = y[i];
  }
  return 0;
}
