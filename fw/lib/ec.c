/* P-256 in firmware (fw/include/montu_ec.h): the Python stack's unit programs (montu.ec.window,
 * montu.ec.comb, montu.ec.prime), run from the tables `python3 -m montu.soc.programs` generates
 * into montu_ec_programs.h. The host-side parts of the window and the comb (the scalar's signed
 * digits and their packing into register words) are here in C, without branches on the scalar. */
#include <stddef.h>

#include "montu_ec.h"
#include "montu_ec_programs.h"
#include "montu_internal.h"

#define W MONTU_EC_P256_WORDS
#define DIGITS MONTU_EC_P256_DIGITS
#define COUNT(table) (sizeof(table) / sizeof((table)[0]))

/* Commands sent past one whose answer is wanted before waiting for it: the unit keeps working
 * meanwhile, and fewer answers than the adapter keeps arrive after it. */
#define OVERLAP (MONTU_MX_RING_DEPTH / 2)

static int is_eq(uint64_t status) { return (MONTU_STATUS_FLAGS(status) & MONTU_FLAG_EQ) != 0; }

/* The outputs of a point function: (x, y) if error is 0, else zeros (they may alias the inputs,
 * which are read before). Returns error. */
static int deliver(uint64_t rx[W], uint64_t ry[W], const uint64_t x[W], const uint64_t y[W], int error) {
  if (error) {
    montu_mp_zero(rx, W);
    montu_mp_zero(ry, W);
  } else {
    montu_mp_copy(rx, x, W);
    montu_mp_copy(ry, y, W);
  }
  return error;
}

/* Run a program whose command `check` is answered before the rest is sent (OVERLAP commands
 * ahead); returns that command's status word. */
static uint64_t run_checked(const uint32_t *program, unsigned count, unsigned check) {
  unsigned ahead = check + OVERLAP < count ? check + OVERLAP : count;
  uint64_t first = montu_next;
  montu_run(program, ahead);
  uint64_t status = montu_wait(first + check);
  if (ahead < count) montu_run(program + ahead, count - ahead);
  return status;
}

/* ------------------------------------------------------------------ the window's digits */

/* montu.ec.window._irregular: value - n == 2·d with d = (value mod 32) - 16 (1 or 0). */
static uint64_t irregular(const uint64_t *value, const uint64_t *n) {
  uint64_t diff[W];
  uint64_t borrow = montu_mp_sub(diff, value, n, W);
  int64_t twice_d = 2 * ((int64_t)(value[0] & 31) - 16);
  uint64_t sign = (uint64_t)(twice_d >> 63);             /* all ones when d < 0 */
  uint64_t acc[W];
  acc[0] = diff[0] ^ (uint64_t)twice_d;
  for (unsigned i = 1; i < W; ++i) acc[i] = diff[i] ^ sign;
  return montu_mp_is_zero(acc, W) & (1 ^ borrow ^ (sign & 1));
}

/* montu.ec.window.representation: k' = k (odd k), k + n or n - k (even k; n - k negates the
 * result), chosen without branches. Returns 1 if k is one of the window's exceptional scalars. */
static uint64_t represent(uint64_t value[W], uint64_t *negate, const uint64_t k[W], const uint64_t n[W]) {
  uint64_t kn[W], nk[W];
  uint64_t odd = k[0] & 1;
  uint64_t fits = montu_mp_add(kn, k, n, W) ^ 1;          /* k + n < 2^(4·DIGITS) */
  montu_mp_sub(nk, n, k, W);
  uint64_t use_kn = (odd ^ 1) & fits & (irregular(kn, n) ^ 1);
  uint64_t use_nk = (odd ^ 1) & (use_kn ^ 1);
  montu_mp_select(value, 0 - odd, k, kn, W);
  montu_mp_select(value, 0 - use_nk, nk, value, W);
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

/* ------------------------------------------------------------------ the comb's digits */

_Static_assert(MONTU_EC_P256_COLUMNS == 64 && W == 4, "the comb's columns are the bits of a word");

/* montu.ec.comb.recode + _index_words + flag_words, without branches: k' = k (odd) or n − k
 * (even; the result is negated), c = (k' + 2^256 − 1)/2 = 2^255 + (k' − 1)/2, and column i
 * (0 = the lowest) holds c_i, c_(i+64), c_(i+128), c_(i+192): bit i of c's four words. Its sign
 * σ is + when c_(i+192) = 1; index bit m is 1 when c_(i+64m) = c_(i+192). Column i (the
 * (64 − i)-th from the top) goes to IDX bits 64 + 3i .. 66 + 3i and its negate flag to SGN bit
 * 192 + i; SGN bit 191 (flag 64) is "k even". */
static void comb_digits(uint64_t idx[W], uint64_t sgn[W], const uint64_t k[W]) {
  uint64_t even = (k[0] & 1) ^ 1, nk[W], c[W];
  montu_mp_sub(nk, montu_ec_p256_n, k, W);
  montu_mp_select(c, 0 - even, nk, k, W);
  for (unsigned i = 0; i < W; ++i)                        /* (k' − 1)/2: k' is odd */
    c[i] = c[i] >> 1 | (i + 1 < W ? c[i + 1] << 63 : 0);
  c[W - 1] |= (uint64_t)1 << 63;
  for (unsigned i = 0; i < W; ++i) idx[i] = 0;
  for (unsigned i = 0; i < 64; ++i) {
    uint64_t index = 0;
    for (unsigned m = 0; m < MONTU_EC_TABLE_BITS; ++m) index |= (~(c[m] ^ c[3]) >> i & 1) << m;
    unsigned pos = 64 + MONTU_EC_TABLE_BITS * i;
    idx[pos / 64] |= index << (pos % 64);
    if (pos % 64 > 64 - MONTU_EC_TABLE_BITS) idx[pos / 64 + 1] |= index >> (64 - pos % 64);
  }
  sgn[0] = sgn[1] = 0;
  sgn[2] = even << 63;
  sgn[3] = ~c[3];
  montu_mp_zero(c, W);
  montu_mp_zero(nk, W);
}

/* ------------------------------------------------------------------ the field session */
static uint64_t p256_r2[W];
static int p256_r2_known;

/* SETMMI, p into R0, SETMOD, R² mod p into R1 (every program family's R2): computed on the unit
 * once, then reloaded. */
static void p256_session(void) {
  montu_load_modulus(montu_ec_p256_p, W);
  montu_load_r2_cached(MONTU_EC_REG_R2, W, 256, p256_r2, &p256_r2_known);
}

void montu_ec_p256_forget(void) {
  p256_r2_known = 0;
  montu_mp_zero(p256_r2, W);
}

int montu_ec_p256_check_constants(void) {
  montu_clear();
  p256_session();
  uint64_t first = montu_next;
  montu_run(montu_ec_field_constant_check, COUNT(montu_ec_field_constant_check));
  uint64_t status = montu_wait(first + MONTU_EC_FIELD_CHECK_CONSTANT);
  int error = montu_finish();
  if (error) return error;
  return is_eq(status) ? 0 : MONTU_ERR_EC_FAULT;
}

/* ------------------------------------------------------------------ on the curve */

/* The on-curve program on (x, y) in the current session; returns its compare's number. */
static uint64_t send_on_curve(const uint64_t x[W], const uint64_t y[W]) {
  montu_write(MONTU_EC_ONC_REG_XP, x, W);
  montu_write(MONTU_EC_ONC_REG_YP, y, W);
  montu_write(MONTU_EC_ONC_REG_A, montu_ec_p256_a, W);
  montu_write(MONTU_EC_ONC_REG_B, montu_ec_p256_b, W);
  return montu_run(montu_ec_on_curve, COUNT(montu_ec_on_curve));
}

static int coordinates_in_range(const uint64_t x[W], const uint64_t y[W]) {
  return (int)(montu_mp_less(x, montu_ec_p256_p, W) & montu_mp_less(y, montu_ec_p256_p, W));
}

int montu_ec_p256_on_curve(const uint64_t x[W], const uint64_t y[W]) {
  if (x == NULL || y == NULL) return MONTU_ERR_ARGUMENT;
  if (!coordinates_in_range(x, y)) return MONTU_ERR_POINT;
  montu_clear();
  p256_session();
  uint64_t status = montu_wait(send_on_curve(x, y));
  int error = montu_finish();
  if (error) return error;
  return is_eq(status) ? 0 : MONTU_ERR_POINT;
}

/* ------------------------------------------------------------------ the window: k·P */

int montu_ec_p256_mul(uint64_t rx[W], uint64_t ry[W], const uint64_t k[W], const uint64_t px[W],
                      const uint64_t py[W]) {
  if (rx == NULL || ry == NULL || k == NULL || px == NULL || py == NULL) return MONTU_ERR_ARGUMENT;
  uint64_t x[W] = {0}, y[W] = {0};
  if (!montu_mp_in_range(k, montu_ec_p256_n, W)) return deliver(rx, ry, x, y, MONTU_ERR_ARGUMENT);
  if (!coordinates_in_range(px, py)) return deliver(rx, ry, x, y, MONTU_ERR_POINT);

  /* One session: the on-curve check first (its registers are scratch for the window programs,
   * which read the point from TX0/TY0); its answer is collected while the table (a function of
   * the public point) is being built, and nothing that depends on k is sent unless the point is
   * on the curve. */
  montu_clear();
  p256_session();
  uint64_t on_curve = send_on_curve(px, py);
  montu_write(MONTU_EC_REG_TX0, px, W);
  montu_write(MONTU_EC_REG_TY0, py, W);
  /* the table program, and between its slices the recoding of k (the unit keeps the FIFO's
   * commands to work on meanwhile) */
  uint64_t value[W], negate, idx[W] = {0}, sgn[W] = {0};
  uint64_t exceptional = represent(value, &negate, k, montu_ec_p256_n);
  const unsigned table_count = COUNT(montu_ec_p256_table);
  montu_run(montu_ec_p256_table, OVERLAP);
  if (!is_eq(montu_wait(on_curve))) {           /* public: a property of the point */
    montu_mp_zero(value, W);
    montu_finish();                /* and of the table's errors on a bad point (a MINV of 0) */
    return deliver(rx, ry, x, y, MONTU_ERR_POINT);
  }
  enum { SLICES = 8 };
  for (unsigned s = 0; s < SLICES; ++s) {
    unsigned first = OVERLAP + (table_count - OVERLAP) * s / SLICES;
    unsigned last = OVERLAP + (table_count - OVERLAP) * (s + 1) / SLICES;
    montu_run(montu_ec_p256_table + first, last - first);
    recode_digits(idx, sgn, value, DIGITS * s / SLICES, DIGITS * (s + 1) / SLICES);
  }
  /* flag DIGITS: negate the result */
  sgn[(64 * W - 1 - DIGITS) / 64] |= negate << ((64 * W - 1 - DIGITS) % 64);
  montu_mp_zero(value, W);
  montu_write(MONTU_EC_REG_IDX, idx, W);
  montu_write(MONTU_EC_REG_SGN, sgn, W);
  montu_mp_zero(idx, W);                                   /* the digits leave the CPU */
  montu_mp_zero(sgn, W);

  uint64_t check = run_checked(montu_ec_p256_main, COUNT(montu_ec_p256_main), MONTU_EC_P256_CHECK);
  montu_read(MONTU_EC_REG_XA, x, W);
  montu_read(MONTU_EC_REG_YA, y, W);
  int error = montu_finish();
  if (!error && (exceptional | (uint64_t)is_eq(check))) error = MONTU_ERR_EXCEPTIONAL;
  return deliver(rx, ry, x, y, error);
}

/* ------------------------------------------------------------------ the comb: k·G */

/* One comb program (`check`: the position of its CMP(Z, 0)) for k, from the stored table of G,
 * with the random start z when z != NULL; returns the check's status word. */
static uint64_t comb_run(const uint32_t *program, unsigned count, unsigned check, const uint64_t k[W],
                         const uint64_t *z) {
  uint64_t idx[W], sgn[W];
  comb_digits(idx, sgn, k);
  montu_clear();
  p256_session();
  for (unsigned i = 0; i < 1u << MONTU_EC_TABLE_BITS; ++i) {
    montu_write(MONTU_EC_REG_TX0 + i, montu_ec_p256_comb_x[i], W);
    montu_write(MONTU_EC_REG_TY0 + i, montu_ec_p256_comb_y[i], W);
  }
  montu_write(MONTU_EC_REG_IDX, idx, W);
  montu_write(MONTU_EC_REG_SGN, sgn, W);
  montu_mp_zero(idx, W);
  montu_mp_zero(sgn, W);
  if (z != NULL) montu_write(MONTU_EC_REG_START_Z, z, W);
  return run_checked(program, count, check);
}

int montu_ec_p256_mul_generator(uint64_t rx[W], uint64_t ry[W], const uint64_t k[W]) {
  if (rx == NULL || ry == NULL || k == NULL) return MONTU_ERR_ARGUMENT;
  uint64_t x[W] = {0}, y[W] = {0};
  if (!montu_mp_in_range(k, montu_ec_p256_n, W)) return deliver(rx, ry, x, y, MONTU_ERR_ARGUMENT);
  uint64_t check = comb_run(montu_ec_p256_comb, COUNT(montu_ec_p256_comb), MONTU_EC_P256_COMB_CHECK, k,
                           NULL);
  montu_read(MONTU_EC_REG_XA, x, W);
  montu_read(MONTU_EC_REG_YA, y, W);
  int error = montu_finish();
  if (!error && is_eq(check))   /* an exceptional addition (negligible): as montu.ec.points */
    return montu_ec_p256_mul(rx, ry, k, montu_ec_p256_gx, montu_ec_p256_gy);
  return deliver(rx, ry, x, y, error);
}

int montu_ec_p256_generator_x_is(const uint64_t k[W], const uint64_t candidates[][W], unsigned count,
                                 const uint64_t z[W]) {
  if (k == NULL || candidates == NULL || z == NULL || count == 0 || count > MONTU_EC_COMB_CANDIDATES)
    return MONTU_ERR_ARGUMENT;
  if (!montu_mp_in_range(k, montu_ec_p256_n, W) || !montu_mp_in_range(z, montu_ec_p256_p, W))
    return MONTU_ERR_ARGUMENT;
  uint64_t check = comb_run(montu_ec_p256_comb_projective, COUNT(montu_ec_p256_comb_projective),
                            MONTU_EC_P256_PROJECTIVE_CHECK, k, z);
  for (unsigned i = 0; i < MONTU_EC_COMB_CANDIDATES; ++i)   /* unused slots repeat the first */
    montu_write(MONTU_EC_REG_TX0 + i, candidates[i < count ? i : 0], W);
  uint64_t first = montu_next;
  montu_run(montu_ec_comb_x_compare, COUNT(montu_ec_comb_x_compare));
  montu_wait(montu_next - 1);
  int match = 0;
  for (unsigned i = 0; i < MONTU_EC_COMB_CANDIDATES; ++i)
    match |= is_eq(montu_status_now(first + montu_ec_comb_x_compares[i]));
  int error = montu_finish();
  if (error) return error;
  if (is_eq(check)) {      /* exceptional (negligible): k·G by the window, compared here */
    uint64_t x[W], y[W];
    error = montu_ec_p256_mul(x, y, k, montu_ec_p256_gx, montu_ec_p256_gy);
    if (error) return error;
    match = 0;
    for (unsigned i = 0; i < count; ++i) match |= (int)montu_mp_equal(x, candidates[i], W);
  }
  return match ? 0 : MONTU_ERR_EC_SIGNATURE;
}

/* ------------------------------------------------------------------ public points */

int montu_ec_p256_add(uint64_t rx[W], uint64_t ry[W], const uint64_t px[W], const uint64_t py[W],
                      const uint64_t qx[W], const uint64_t qy[W]) {
  if (rx == NULL || ry == NULL || px == NULL || py == NULL || qx == NULL || qy == NULL)
    return MONTU_ERR_ARGUMENT;
  uint64_t x[W] = {0}, y[W] = {0};
  if (!coordinates_in_range(px, py) || !coordinates_in_range(qx, qy))
    return deliver(rx, ry, x, y, MONTU_ERR_POINT);
  /* montu.ec.session.add_affine: the branches follow public data only */
  montu_clear();
  p256_session();
  montu_write(MONTU_EC_PRIME_REG_XA, px, W);
  montu_write(MONTU_EC_PRIME_REG_YA, py, W);
  montu_write(MONTU_EC_PRIME_REG_XB, qx, W);
  montu_write(MONTU_EC_PRIME_REG_YB, qy, W);
  montu_write(MONTU_EC_PRIME_REG_A, montu_ec_p256_a, W);
  int infinity = 0;
  if (is_eq(montu_wait(montu_run(montu_ec_prime_cmp_x, COUNT(montu_ec_prime_cmp_x))))) {
    if (!is_eq(montu_wait(montu_run(montu_ec_prime_cmp_y, COUNT(montu_ec_prime_cmp_y)))))
      infinity = 1;                                        /* P + (−P) */
    else if (montu_mp_is_zero(py, W))
      infinity = 1;                                        /* a point of order 2, doubled */
    else
      montu_run(montu_ec_prime_dbl, COUNT(montu_ec_prime_dbl));
  } else {
    montu_run(montu_ec_prime_add, COUNT(montu_ec_prime_add));
  }
  if (!infinity) {
    montu_read(MONTU_EC_PRIME_REG_XA, x, W);
    montu_read(MONTU_EC_PRIME_REG_YA, y, W);
  }
  int error = montu_finish();
  if (!error && infinity) error = MONTU_ERR_EC_INFINITY;
  return deliver(rx, ry, x, y, error);
}

/* −P = (x, p − y) (y != 0 on P-256: no point of order 2). */
static void negate(uint64_t rx[W], uint64_t ry[W], const uint64_t px[W], const uint64_t py[W]) {
  uint64_t y[W];
  montu_mp_sub(y, montu_ec_p256_p, py, W);
  montu_mp_copy(rx, px, W);
  montu_mp_copy(ry, y, W);
}

/* u·P by double-and-add with the affine programs, for a public u (the window's exceptional
 * scalars: u <= 30 or n − u <= 30, where u·P = −((n − u)·P) takes a few steps). */
static int double_and_add(uint64_t rx[W], uint64_t ry[W], const uint64_t u[W], const uint64_t px[W],
                          const uint64_t py[W]) {
  uint64_t v[W], half[W], x[W] = {0}, y[W] = {0};
  montu_mp_copy(half, montu_ec_p256_n, W);
  for (unsigned i = 0; i < W; ++i) half[i] = half[i] >> 1 | (i + 1 < W ? half[i + 1] << 63 : 0);
  int negative = (int)montu_mp_less(half, u, W);              /* u > (n − 1)/2 */
  if (negative) montu_mp_sub(v, montu_ec_p256_n, u, W);
  else montu_mp_copy(v, u, W);
  int infinity = 1, error = 0;
  for (unsigned bit = montu_bit_length(v, W); bit-- > 0;) {
    if (!infinity) {
      error = montu_ec_p256_add(x, y, x, y, x, y);
      if (error == MONTU_ERR_EC_INFINITY) infinity = 1;
      else if (error) return error;
    }
    if (v[bit / 64] >> (bit % 64) & 1) {
      if (infinity) {
        montu_mp_copy(x, px, W);
        montu_mp_copy(y, py, W);
        infinity = 0;
      } else {
        error = montu_ec_p256_add(x, y, x, y, px, py);
        if (error == MONTU_ERR_EC_INFINITY) infinity = 1;
        else if (error) return error;
      }
    }
  }
  if (negative && !infinity) negate(x, y, x, y);
  return deliver(rx, ry, x, y, infinity ? MONTU_ERR_EC_INFINITY : 0);
}

int montu_ec_p256_mul_public(uint64_t rx[W], uint64_t ry[W], const uint64_t u[W], const uint64_t px[W],
                             const uint64_t py[W]) {
  if (rx == NULL || ry == NULL || u == NULL || px == NULL || py == NULL) return MONTU_ERR_ARGUMENT;
  uint64_t x[W] = {0}, y[W] = {0}, n1[W], one[W] = {1};
  if (!montu_mp_less(u, montu_ec_p256_n, W)) return deliver(rx, ry, x, y, MONTU_ERR_ARGUMENT);
  if (!coordinates_in_range(px, py)) return deliver(rx, ry, x, y, MONTU_ERR_POINT);
  if (montu_mp_is_zero(u, W)) return deliver(rx, ry, x, y, MONTU_ERR_EC_INFINITY);
  montu_mp_sub(n1, montu_ec_p256_n, one, W);
  if (montu_mp_equal(u, n1, W)) {                         /* −P, as montu.ec.points */
    negate(x, y, px, py);
    return deliver(rx, ry, x, y, 0);
  }
  int generator = montu_mp_equal(px, montu_ec_p256_gx, W) & montu_mp_equal(py, montu_ec_p256_gy, W);
  int error = generator ? montu_ec_p256_mul_generator(x, y, u) : montu_ec_p256_mul(x, y, u, px, py);
  if (error == MONTU_ERR_EXCEPTIONAL) error = double_and_add(x, y, u, px, py);
  return deliver(rx, ry, x, y, error);
}
