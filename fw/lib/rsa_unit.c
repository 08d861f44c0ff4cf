/* RSA's unit sequences: the Python driver's mod_exp, mod_exp_public, mod_mul, mod_inv and
 * _to_montgomery (src/montu/driver.py), register for register, so that the unit does the same
 * work whether the Python stack or the firmware drives it; and the CPU's word helpers.
 *
 * One difference by design: the driver keeps R^2 and R^3 of recent moduli on the host and
 * writes them back with WMMI; the firmware computes them on the unit each time (montu.c does the
 * same for R^2). The steps depend on the modulus length only, so the timing stays independent
 * of secrets. */
#include "rsa_internal.h"


/* ------------------------------------------------------------------ words on the CPU */
void montu_rsa_wipe(void *buffer, size_t length) {
  /* word stores while aligned (picolibc's memset takes ~4 cycles a byte on 256 bytes here) */
  uint8_t *bytes = buffer;
  for (; length > 0 && ((uintptr_t)bytes & 7) != 0; --length) *bytes++ = 0;
  for (; length >= 8; length -= 8, bytes += 8) *(uint64_t *)(void *)bytes = 0;
  for (; length > 0; --length) *bytes++ = 0;
  __asm__ volatile("" : : "r"(buffer) : "memory");   /* the stores happen: memory is "used" */
}

void montu_rsa_widen(uint64_t *r, unsigned words, const uint64_t *x, unsigned x_words) {
  for (unsigned i = 0; i < words; ++i) r[i] = i < x_words ? x[i] : 0;
}

void montu_rsa_add_small(uint64_t *r, const uint64_t *x, uint64_t small, unsigned words) {
  uint64_t carry = small;
  for (unsigned i = 0; i < words; ++i) {
    r[i] = x[i] + carry;
    carry = r[i] < carry;
  }
}

void montu_rsa_sub_small(uint64_t *r, const uint64_t *x, uint64_t small, unsigned words) {
  uint64_t borrow = small;
  for (unsigned i = 0; i < words; ++i) {
    uint64_t word = x[i];
    r[i] = word - borrow;
    borrow = word < borrow;
  }
}

void montu_rsa_shift_right(uint64_t *r, const uint64_t *x, unsigned shift, unsigned words) {
  unsigned skip = shift / 64, bits = shift % 64;
  for (unsigned i = 0; i < words; ++i) {
    uint64_t low = i + skip < words ? x[i + skip] : 0;
    uint64_t high = i + skip + 1 < words ? x[i + skip + 1] : 0;
    r[i] = bits ? low >> bits | high << (64 - bits) : low;
  }
}

void montu_rsa_from_bytes(uint64_t *x, unsigned words, const uint8_t *bytes, size_t length) {
  for (unsigned i = 0; i < words; ++i) x[i] = 0;
  for (size_t i = 0; i < length; ++i) x[i / 8] |= (uint64_t)bytes[length - 1 - i] << (8 * (i % 8));
}

void montu_rsa_to_bytes(uint8_t *bytes, size_t length, const uint64_t *x) {
  for (size_t i = 0; i < length; ++i) bytes[length - 1 - i] = (uint8_t)(x[i / 8] >> (8 * (i % 8)));
}

/* ------------------------------------------------------------------------ commands */
void montu_rsa_unit_configure(unsigned words) { montu_cmd(INSN(SETMMI, 0, 0, 0, 0, words), 0); }

void montu_rsa_unit_write(unsigned reg, const uint64_t *x, unsigned x_words, unsigned words) {
  for (unsigned i = 0; i < words; ++i)
    montu_cmd(INSN(WMMI, reg, 0, 0, 0, 0), x != NULL && i < x_words ? x[i] : 0);
}

void montu_rsa_unit_clear(void) {
  for (unsigned reg = 0; reg < MONTU_NUM_REGS; ++reg)
    if (reg <= R_ONE || reg >= TABLE) montu_cmd(INSN(LDZ, reg, 0, 0, 0, 0), 0);
}

unsigned montu_rsa_unit_flags(uint64_t number) { return MONTU_STATUS_FLAGS(montu_wait(number)); }

static void cmd(uint32_t insn) { montu_cmd(insn, 0); }

void montu_rsa_unit_constants(unsigned words, unsigned n_bits) {
  montu_load_r2(R_ACC1, words, n_bits);
  cmd(INSN(STARTMMI, R_Y, R_ACC1, R_ACC1, 0, 0));              /* R^2·R^2·R^-1 = R^3 */
}

void montu_rsa_unit_to_montgomery(unsigned reg, const uint64_t *lo, const uint64_t *hi,
                                  unsigned words) {
  /* value·R = hi·R^3·R^-1 + lo·R^2·R^-1: each product has one factor below n, so both are fully
     reduced, and so is their MADD */
  montu_rsa_unit_write(reg, lo, words, words);
  montu_rsa_unit_write(R_Z, hi, words, words);
  cmd(INSN(STARTMMI, reg, reg, R_ACC1, 0, 0));
  cmd(INSN(STARTMMI, R_Z, R_Z, R_Y, 0, 0));
  cmd(INSN(MADD, reg, reg, R_Z, 0, 0));
}

/* The modulus, R^2 and R^3, and R_X = base·R: the start of both exponentiations. */
static void exp_start(const uint64_t *n, unsigned words, const uint64_t *lo, const uint64_t *hi) {
  montu_load_modulus(n, words);
  montu_rsa_unit_constants(words, montu_bit_length(n, words));
  montu_rsa_unit_to_montgomery(R_X, lo, hi, words);
}

void montu_rsa_unit_exp(const uint64_t *n, unsigned words, const uint64_t *lo,
                        const uint64_t *hi, const uint64_t *exponent) {
  exp_start(n, words, lo, hi);
  montu_write(R_EXP, exponent, words);        /* exponent_bits = L: no shift */
  montu_window_exp(words);
}

void montu_rsa_unit_exp_public(const uint64_t *n, unsigned words, const uint64_t *base,
                               uint64_t e) {
  exp_start(n, words, base, NULL);
  cmd(INSN(LDONE, R_ONE, 0, 0, 0, 0));
  if (e == 0) {
    cmd(INSN(STARTMMI, R_ACC0, R_ACC1, R_ONE, 0, 0));        /* R = "1" */
  } else {
    cmd(INSN(MOV, R_ACC0, R_X, 0, 0, 0));
    for (int bit = 62 - __builtin_clzll(e); bit >= 0; --bit) {
      cmd(INSN(STARTMMI, R_ACC0, R_ACC0, R_ACC0, 0, 0));
      if ((e >> bit) & 1) cmd(INSN(STARTMMI, R_ACC0, R_ACC0, R_X, 0, 0));
    }
  }
  cmd(INSN(STARTMMI, R_Z, R_ACC0, R_ONE, 0, 0));
}

/* Read `k` words of R_Z into r (`words` words, zeros above), then finish: the call's error. */
static int read_and_finish(uint64_t *r, unsigned k, unsigned words) {
  montu_read(R_Z, r, k);
  for (unsigned i = k; i < words; ++i) r[i] = 0;
  int error = montu_finish();
  if (error) montu_rsa_wipe(r, words * sizeof r[0]);
  return error;
}

int montu_rsa_unit_mod_mul(uint64_t *r, const uint64_t *x, const uint64_t *y, const uint64_t *n,
                           unsigned words) {
  unsigned n_bits = montu_bit_length(n, words), k = montu_rsa_words(n_bits);
  montu_load_modulus(n, k);
  montu_load_r2(R_ACC0, k, n_bits);
  montu_write(R_X, x, k);
  montu_write(R_Y, y, k);
  cmd(INSN(STARTMMI, R_Z, R_X, R_Y, 0, 0));                  /* x·y·R^-1 */
  cmd(INSN(STARTMMI, R_Z, R_Z, R_ACC0, 0, 0));               /* ·R^2·R^-1 = x·y */
  return read_and_finish(r, k, words);
}

int montu_rsa_unit_mod_inv(uint64_t *r, const uint64_t *a, const uint64_t *n, unsigned words) {
  unsigned k = montu_rsa_words(montu_bit_length(n, words));
  montu_rsa_unit_configure(k);
  montu_write(R_MOD, n, k);
  montu_write(R_X, a, k);
  uint64_t minv = montu_cmd(INSN(MINV, R_Z, R_X, R_MOD, 0, 0), 0);
  if (MONTU_STATUS_ERR(montu_wait(minv)) != MONTU_E_OK) {
    montu_rsa_wipe(r, words * sizeof r[0]);
    return montu_finish();                 /* the first error: MONTU_E_NO_INVERSE, unless an
                                              earlier command failed */
  }
  return read_and_finish(r, k, words);
}
