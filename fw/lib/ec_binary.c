/* sect283k1 (K-283) in firmware (fw/include/montu_ec.h): the Python stack's GF(2^m) programs
 * (montu.ec.binary: the López–Dahab x-only Montgomery ladder with y recovery by Itoh–Tsujii, the
 * on-curve check, the affine additions), generated into montu_ec_programs.h. The host part — the
 * fixed-length scalar k + n or k + 2n and its ladder flags (montu.ec.session.fixed_length_scalar,
 * ladder_flags, flag_words) — is here in C, without branches on the scalar. */
#include <stddef.h>

#include "montu_ec.h"
#include "montu_ec_programs.h"
#include "montu_internal.h"

#define W MONTU_EC_SECT283K1_WORDS
#define M MONTU_EC_SECT283K1_M
#define STEPS MONTU_EC_SECT283K1_STEPS      /* bits(n): the ladder of a scalar of STEPS + 1 bits */
#define LENGTH (64 * W)                     /* L: the register length in bits */
#define COUNT(table) (sizeof(table) / sizeof((table)[0]))

_Static_assert(STEPS + 1 <= LENGTH, "the ladder's flags fit one register (F0)");

static const uint64_t *const n = montu_ec_sect283k1_n;

static int is_eq(uint64_t status) { return (MONTU_STATUS_FLAGS(status) & MONTU_FLAG_EQ) != 0; }

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

/* A field element: a polynomial of degree < m. */
static int in_field(const uint64_t x[W]) { return (x[M / 64] >> (M % 64)) == 0; }

/* ------------------------------------------------------------------ the scalar's flags */

/* r = a << shift (shift < LENGTH, public), truncated to W words. */
static void shift_left(uint64_t r[W], const uint64_t a[W], unsigned shift) {
  unsigned q = shift / 64, b = shift % 64;
  for (unsigned i = W; i-- > 0;) {
    uint64_t high = i >= q ? a[i - q] << b : 0;
    uint64_t low = b && i >= q + 1 ? a[i - q - 1] >> (64 - b) : 0;
    r[i] = high | low;
  }
}

/* montu.ec.session.fixed_length_scalar: k + n, or k + 2n when k + n has fewer than STEPS + 1
 * bits (chosen by mask): the same multiple of a point of order n, always STEPS + 1 bits. */
static void fixed_length_scalar(uint64_t s[W], const uint64_t k[W]) {
  uint64_t masked[W];
  montu_mp_add(s, k, n, W);
  uint64_t short_mask = ((s[STEPS / 64] >> (STEPS % 64)) & 1) - 1;   /* all ones: add n again */
  for (unsigned i = 0; i < W; ++i) masked[i] = n[i] & short_mask;
  montu_mp_add(s, s, masked, W);
  montu_mp_zero(masked, W);
}

/* montu.ec.session.ladder_flags + flag_words for a scalar s of exactly steps + 1 bits: flag j
 * (j < steps) is b_(steps−1−j) XOR b_(steps−j) with the top bit b_steps counted as 0 (the
 * ladder's start), flag steps is b_0, and flag j sits at bit L − 1 − j of F0. So
 * F0 = (t XOR t >> 1) << (L − steps) | b_0 << (L − 1 − steps), t = s without its top bit. */
static void ladder_flags(uint64_t f0[W], const uint64_t s[W], unsigned steps) {
  uint64_t t[W], g[W];
  montu_mp_copy(t, s, W);
  t[steps / 64] &= ~((uint64_t)1 << (steps % 64));
  for (unsigned i = 0; i < W; ++i) g[i] = t[i] ^ (t[i] >> 1 | (i + 1 < W ? t[i + 1] << 63 : 0));
  shift_left(f0, g, LENGTH - steps);
  unsigned last = LENGTH - 1 - steps;
  f0[last / 64] |= (s[0] & 1) << (last % 64);
  montu_mp_zero(t, W);
  montu_mp_zero(g, W);
}

/* ------------------------------------------------------------------ the field session */
static uint64_t sect283k1_r2[W];
static int sect283k1_r2_known;

/* SETMMI (GF(2^m), W words), f into R0, SETMOD, R² mod f into R1: computed on the unit once,
 * then reloaded (the driver's _load_modulus and _load_r2). */
static void session(void) {
  montu_cmd(INSN(SETMMI, 0, 0, 0, 1, W), 0);
  montu_write(0, montu_ec_sect283k1_f, W);
  montu_cmd(INSN(SETMOD, 0, 0, 0, 0, 0), 0);
  montu_load_r2_cached(MONTU_EC_BIN_REG_R2, W, M + 1, sect283k1_r2, &sect283k1_r2_known);
}

void montu_ec_sect283k1_forget(void) {
  sect283k1_r2_known = 0;
  montu_mp_zero(sect283k1_r2, W);
}

int montu_ec_sect283k1_check_constants(void) {
  montu_clear();
  session();
  uint64_t first = montu_next;
  montu_run(montu_ec_field_constant_check, COUNT(montu_ec_field_constant_check));
  uint64_t status = montu_wait(first + MONTU_EC_FIELD_CHECK_CONSTANT);
  int error = montu_finish();
  if (error) return error;
  return is_eq(status) ? 0 : MONTU_ERR_EC_FAULT;
}

/* ------------------------------------------------------------------ on the curve, the ladder */

/* The on-curve program on (x, y) in the current session; returns its compare's number (EQ: on
 * the curve). It turns XP, YP, A, B into Montgomery form: the ladders write them again. */
static uint64_t send_on_curve(const uint64_t x[W], const uint64_t y[W]) {
  montu_write(MONTU_EC_BIN_REG_XP, x, W);
  montu_write(MONTU_EC_BIN_REG_YP, y, W);
  montu_write(MONTU_EC_BIN_REG_A, montu_ec_sect283k1_a, W);
  montu_write(MONTU_EC_BIN_REG_B, montu_ec_sect283k1_b, W);
  return montu_run(montu_ec_bin_on_curve, COUNT(montu_ec_bin_on_curve));
}

static int on_curve_now(const uint64_t x[W], const uint64_t y[W]) {
  return is_eq(montu_wait(send_on_curve(x, y)));
}

int montu_ec_sect283k1_on_curve(const uint64_t x[W], const uint64_t y[W]) {
  if (x == NULL || y == NULL) return MONTU_ERR_ARGUMENT;
  if (!in_field(x) || !in_field(y)) return MONTU_ERR_POINT;
  montu_clear();
  session();
  int on_curve = on_curve_now(x, y);
  int error = montu_finish();
  if (error) return error;
  return on_curve ? 0 : MONTU_ERR_POINT;
}

/* The ladder's inputs (the point, b, the flags f0 of a scalar of steps + 1 bits, which are
 * zeroed) and its commands: `start`, steps × the step, the last swap. */
static void run_ladder(const uint32_t *start, unsigned start_count, const uint64_t x[W],
                       const uint64_t y[W], uint64_t f0[W], unsigned steps) {
  montu_write(MONTU_EC_BIN_REG_XP, x, W);
  montu_write(MONTU_EC_BIN_REG_YP, y, W);
  montu_write(MONTU_EC_BIN_REG_B, montu_ec_sect283k1_b, W);
  montu_write(MONTU_EC_BIN_REG_F0, f0, W);
  montu_mp_zero(f0, W);
  montu_run(start, start_count);
  for (unsigned i = 0; i < steps; ++i) montu_run(montu_ec_bin_ladder_step, COUNT(montu_ec_bin_ladder_step));
  montu_run(montu_ec_bin_ladder_last, COUNT(montu_ec_bin_ladder_last));
}

int montu_ec_sect283k1_validate(const uint64_t x[W], const uint64_t y[W]) {
  if (x == NULL || y == NULL) return MONTU_ERR_ARGUMENT;
  /* montu.ec.points.validate: in range, on the curve, not the point (0, √b) of order 2, n·Q = O
   * (public data: the branches tell nothing secret) */
  if (!in_field(x) || !in_field(y) || montu_mp_is_zero(x, W)) return MONTU_ERR_POINT;
  montu_clear();
  session();
  if (!on_curve_now(x, y)) {
    int error = montu_finish();
    return error ? error : MONTU_ERR_POINT;
  }
  /* n has STEPS bits: the x-only ladder of STEPS − 1 steps (binary.is_infinity_multiple) */
  uint64_t f0[W];
  ladder_flags(f0, n, STEPS - 1);
  run_ladder(montu_ec_sect283k1_ladder_start, COUNT(montu_ec_sect283k1_ladder_start), x, y, f0, STEPS - 1);
  uint64_t infinity = montu_wait(montu_run(montu_ec_bin_is_zero, COUNT(montu_ec_bin_is_zero)));
  int error = montu_finish();
  if (error) return error;
  return is_eq(infinity) ? 0 : MONTU_ERR_POINT;
}

int montu_ec_sect283k1_mul(uint64_t rx[W], uint64_t ry[W], const uint64_t k[W], const uint64_t px[W],
                           const uint64_t py[W]) {
  if (rx == NULL || ry == NULL || k == NULL || px == NULL || py == NULL) return MONTU_ERR_ARGUMENT;
  uint64_t x[W] = {0}, y[W] = {0};
  if (!montu_mp_in_range(k, n, W)) return deliver(rx, ry, x, y, MONTU_ERR_ARGUMENT);
  if (!in_field(px) || !in_field(py) || montu_mp_is_zero(px, W))
    return deliver(rx, ry, x, y, MONTU_ERR_POINT);
  montu_clear();
  session();
  uint64_t on_curve = send_on_curve(px, py);
  uint64_t s[W], f0[W];                      /* the flags, while the unit checks the point */
  fixed_length_scalar(s, k);
  ladder_flags(f0, s, STEPS);
  montu_mp_zero(s, W);
  if (!is_eq(montu_wait(on_curve))) {        /* public: a property of the point */
    montu_mp_zero(f0, W);
    int error = montu_finish();
    return deliver(rx, ry, x, y, error ? error : MONTU_ERR_POINT);
  }
  run_ladder(montu_ec_sect283k1_ladder_start, COUNT(montu_ec_sect283k1_ladder_start), px, py, f0, STEPS);
  montu_run(montu_ec_sect283k1_ladder_recovery, COUNT(montu_ec_sect283k1_ladder_recovery));
  montu_read(MONTU_EC_BIN_REG_XA, x, W);
  montu_read(MONTU_EC_BIN_REG_YA, y, W);
  int error = montu_finish();
  /* k = n − 1: the ladder's y recovery divides by Z((k + 1)·P) = 0; the result is −P =
   * (x, x + y), chosen by mask (montu.ec.points handles this scalar apart, as a public key −G) */
  uint64_t n1[W], one[W] = {1}, minus_y[W];
  montu_mp_sub(n1, n, one, W);
  uint64_t last = 0 - montu_mp_equal(k, n1, W);
  for (unsigned i = 0; i < W; ++i) minus_y[i] = px[i] ^ py[i];
  montu_mp_select(x, last, px, x, W);
  montu_mp_select(y, last, minus_y, y, W);
  return deliver(rx, ry, x, y, error);
}

int montu_ec_sect283k1_generator_x_is(const uint64_t k[W], const uint64_t candidates[][W],
                                      unsigned count, const uint64_t z[W]) {
  if (k == NULL || candidates == NULL || z == NULL || count == 0 || count > MONTU_EC_BIN_CANDIDATES)
    return MONTU_ERR_ARGUMENT;
  if (!montu_mp_in_range(k, n, W) || !in_field(z) || montu_mp_is_zero(z, W)) return MONTU_ERR_ARGUMENT;
  for (unsigned i = 0; i < count; ++i)
    if (!in_field(candidates[i])) return MONTU_ERR_ARGUMENT;
  uint64_t s[W], f0[W];
  fixed_length_scalar(s, k);
  ladder_flags(f0, s, STEPS);
  montu_mp_zero(s, W);
  montu_clear();
  session();
  montu_write(MONTU_EC_BIN_REG_START_Z, z, W);
  run_ladder(montu_ec_sect283k1_ladder_random_start, COUNT(montu_ec_sect283k1_ladder_random_start),
             montu_ec_sect283k1_gx, montu_ec_sect283k1_gy, f0, STEPS);
  for (unsigned i = 0; i < MONTU_EC_BIN_CANDIDATES; ++i)     /* unused slots repeat the first */
    montu_write(montu_ec_bin_candidate_regs[i], candidates[i < count ? i : 0], W);
  uint64_t first = montu_next;
  montu_wait(montu_run(montu_ec_bin_x_compare, COUNT(montu_ec_bin_x_compare)));
  int match = 0;
  for (unsigned i = 0; i < MONTU_EC_BIN_CANDIDATES; ++i)
    match |= is_eq(montu_status_now(first + montu_ec_bin_x_compares[i]));
  int infinity = is_eq(montu_status_now(first + MONTU_EC_BIN_X_INFINITY));
  int error = montu_finish();
  if (error) return error;
  return match && !infinity ? 0 : MONTU_ERR_EC_SIGNATURE;
}

/* ------------------------------------------------------------------ public points */

int montu_ec_sect283k1_add(uint64_t rx[W], uint64_t ry[W], const uint64_t px[W], const uint64_t py[W],
                           const uint64_t qx[W], const uint64_t qy[W]) {
  if (rx == NULL || ry == NULL || px == NULL || py == NULL || qx == NULL || qy == NULL)
    return MONTU_ERR_ARGUMENT;
  uint64_t x[W] = {0}, y[W] = {0};
  if (!in_field(px) || !in_field(py) || !in_field(qx) || !in_field(qy))
    return deliver(rx, ry, x, y, MONTU_ERR_POINT);
  /* montu.ec.session.add_affine: the branches follow public data only */
  montu_clear();
  session();
  montu_write(MONTU_EC_BIN_REG_XA, px, W);
  montu_write(MONTU_EC_BIN_REG_YA, py, W);
  montu_write(MONTU_EC_BIN_REG_XB, qx, W);
  montu_write(MONTU_EC_BIN_REG_YB, qy, W);
  montu_write(MONTU_EC_BIN_REG_A, montu_ec_sect283k1_a, W);
  int infinity = 0;
  if (is_eq(montu_wait(montu_run(montu_ec_bin_cmp_x, COUNT(montu_ec_bin_cmp_x))))) {
    if (!is_eq(montu_wait(montu_run(montu_ec_bin_cmp_y, COUNT(montu_ec_bin_cmp_y)))))
      infinity = 1;                                        /* P + (−P) */
    else if (montu_mp_is_zero(px, W))
      infinity = 1;                                        /* the point of order 2, doubled */
    else
      montu_run(montu_ec_bin_dbl, COUNT(montu_ec_bin_dbl));
  } else {
    montu_run(montu_ec_bin_add, COUNT(montu_ec_bin_add));
  }
  if (!infinity) {
    montu_read(MONTU_EC_BIN_REG_XA, x, W);
    montu_read(MONTU_EC_BIN_REG_YA, y, W);
  }
  int error = montu_finish();
  if (!error && infinity) error = MONTU_ERR_EC_INFINITY;
  return deliver(rx, ry, x, y, error);
}
