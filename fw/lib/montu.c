/* The Montu firmware library (fw/include/montu.h): the command layer and modular exponentiation.
 * The command sequences are those of the Python driver (src/montu/driver.py: Unit.mod_exp and its
 * helpers), register for register, so the unit does the same work from either side. */
#include "montu.h"

#include <stddef.h>

#include "montu_internal.h"

uint64_t montu_next;


uint64_t montu_wait(uint64_t number) {
  uint64_t status = montu_status_now(number);
  for (unsigned long polls = 0;
       MONTU_STATUS_ADAPTER_ERR(status) == MONTU_MX_E_PENDING && polls < MONTU_WAIT_LIMIT; ++polls)
    status = montu_status_now(number);
  return status;
}

uint64_t montu_data(uint64_t number) {
  return MONTU_STATUS_ADAPTER_ERR(montu_wait(number)) == MONTU_MX_E_OK ? montu_data_now(number) : 0;
}

int montu_finish(void) {
  uint64_t last = montu_clear();
  if (MONTU_STATUS_ADAPTER_ERR(montu_wait(last)) != MONTU_MX_E_OK) return MONTU_ERR_ADAPTER;
  /* the clear's response data: the status word just before it (its sticky error) */
  return (int)MONTU_STATUS_STICKY_ERR(montu_data_now(last));
}

void montu_write(unsigned reg, const uint64_t *words, unsigned count) {
  for (unsigned i = 0; i < count; ++i) montu_cmd(INSN(WMMI, reg, 0, 0, 0, 0), words[i]);
}

void montu_read(unsigned reg, uint64_t *words, unsigned count) {
  for (unsigned first = 0; first < count; first += MONTU_MX_RING_DEPTH) {
    unsigned batch = count - first < MONTU_MX_RING_DEPTH ? count - first : MONTU_MX_RING_DEPTH;
    uint64_t number = 0;
    for (unsigned i = 0; i < batch; ++i) number = montu_cmd(INSN(RMMI, 0, reg, 0, 0, 0), 0);
    number -= batch - 1;
    montu_wait(number + batch - 1);               /* answered in order: the last one suffices */
    for (unsigned i = 0; i < batch; ++i) words[first + i] = montu_data_now(number + i);
  }
}

uint64_t montu_run(const uint32_t *insns, unsigned count) {
  /* the tight loop of the library: a load, mx.cmd, the pointer and the branch per command, so
   * the CPU stays ahead of the unit even through runs of its shortest instructions */
  for (const uint32_t *end = insns + count; insns != end; ++insns) {
    __asm__ volatile(MONTU_MX_ASM(MONTU_MX_CMD, "x0", "%0", "x0") : : "r"((uint64_t)*insns));
  }
  montu_next += count;
  return montu_next - 1;
}

unsigned montu_bit_length(const uint64_t *x, unsigned words) {
  for (unsigned i = words; i-- > 0;) {
    if (x[i]) return 64 * i + 64 - (unsigned)__builtin_clzll(x[i]);
  }
  return 0;
}

/* SETMMI, the modulus into R0, SETMOD. */
void montu_load_modulus(const uint64_t *n, unsigned words) {
  montu_cmd(INSN(SETMMI, 0, 0, 0, 0, words), 0);
  montu_write(R_MOD, n, words);
  montu_cmd(INSN(SETMOD, 0, R_MOD, 0, 0, 0), 0);
}

/* reg = R^2 mod n (R = 2^L): the driver's _load_r2 (the steps depend on L and bits(n) only). */
void montu_load_r2(unsigned reg, unsigned words, unsigned n_bits) {
  unsigned length = 64 * words;
  unsigned start = n_bits - 1 < length - 64 ? n_bits - 1 : length - 64;
  for (unsigned i = 0; i < words; ++i) {
    unsigned bit = start - 64 * i;
    montu_cmd(INSN(WMMI, reg, 0, 0, 0, 0), start / 64 == i ? (uint64_t)1 << (bit & 63) : 0);
  }
  for (unsigned i = 0; i < length - start + 1; ++i) montu_cmd(INSN(MDBL, reg, reg, 0, 0, 0), 0);
  unsigned top = 31 - (unsigned)__builtin_clz(length);
  for (unsigned b = top; b-- > 0;) {
    montu_cmd(INSN(STARTMMI, reg, reg, reg, 0, 0), 0);
    if ((length >> b) & 1) montu_cmd(INSN(MDBL, reg, reg, 0, 0, 0), 0);
  }
}

void montu_load_r2_cached(unsigned reg, unsigned words, unsigned n_bits, uint64_t *cache, int *known) {
  if (!*known) {
    montu_load_r2(reg, words, n_bits);
    montu_read(reg, cache, words);
    *known = montu_finish() == 0;
  } else {
    montu_write(reg, cache, words);
  }
}

void montu_window_exp(unsigned words) {
  montu_cmd(INSN(LDONE, R_ONE, 0, 0, 0, 0), 0);
  montu_cmd(INSN(STARTMMI, TABLE, R_ACC1, R_ONE, 0, 0), 0);     /* T[0] = R  ("1") */
  montu_cmd(INSN(MOV, TABLE + 1, R_X, 0, 0, 0), 0);             /* T[1] = b·R */
  for (unsigned i = 2; i < (1u << WINDOW); ++i)
    montu_cmd(INSN(STARTMMI, TABLE + i, TABLE + i - 1, R_X, 0, 0), 0);
  montu_cmd(INSN(SHLX, R_EXP, R_EXP, 0, 0, WINDOW), 0);
  montu_cmd(INSN(MMX, R_ACC0, TABLE, TABLE, 0, WINDOW), 0);    /* acc = T[top window] */
  unsigned windows = 64 * words / WINDOW;
  for (unsigned w = 1; w < windows; ++w) {
    for (unsigned s = 0; s < WINDOW; ++s) montu_cmd(INSN(STARTMMI, R_ACC0, R_ACC0, R_ACC0, 0, 0), 0);
    montu_cmd(INSN(SHLX, R_EXP, R_EXP, 0, 0, WINDOW), 0);
    montu_cmd(INSN(MMX, R_ACC0, R_ACC0, TABLE, 0, WINDOW), 0);
  }
  montu_cmd(INSN(STARTMMI, R_Z, R_ACC0, R_ONE, 0, 0), 0);       /* out of Montgomery form */
  montu_cmd(INSN(LDZ, R_EXP, 0, 0, 0, 0), 0);                   /* the exponent leaves the unit */
}

int montu_mod_exp(uint64_t *r, const uint64_t *b, const uint64_t *e, const uint64_t *n,
                  unsigned words) {
  if (r == NULL || b == NULL || e == NULL || n == NULL || words == 0 || words > MONTU_MAX_WORDS)
    return MONTU_ERR_ARGUMENT;
  unsigned n_bits = montu_bit_length(n, words);
  if (n_bits < 2) return MONTU_ERR_ARGUMENT;
  montu_clear();                                   /* errors from before are not this call's */
  montu_load_modulus(n, words);
  montu_load_r2(R_ACC1, words, n_bits);
  montu_write(R_X, b, words);                      /* R_X = b·R mod n */
  montu_cmd(INSN(STARTMMI, R_X, R_X, R_ACC1, 0, 0), 0);
  montu_write(R_EXP, e, words);
  montu_window_exp(words);
  montu_read(R_Z, r, words);
  int error = montu_finish();                      /* one wait: the sticky error of the whole call */
  if (error) {
    for (unsigned i = 0; i < words; ++i) r[i] = 0;   /* nothing half-computed leaves */
  }
  return error;
}
