/* A unit command on a path that never retires must not reach the unit; one behind a trap or a
 * pipeline flush must reach it exactly once. Each case checks the adapter's counters: COMMITTED
 * (commands taken at retirement) must equal the commands the program architecturally executed,
 * and ISSUED shows whether a squashed copy did reach the issue port (the hazard is real).
 * Exit code 0 when every case passes. */
#include <stdio.h>

#include "montu.h"

#define NOP_INSN MONTU_INSN(NOP, 0, 0, 0, 0, 0)
#define MX_CMD MONTU_MX_ASM(MONTU_MX_CMD, "x0", "%[insn]", "x0") "\n"

/* A trap handler that skips the trapping instruction (4 bytes) and records mcause. */
volatile uint64_t trap_cause, traps;
__attribute__((naked, aligned(4))) static void trap_handler(void) {
  __asm__ volatile(
      "csrw mscratch, t6\n"
      "csrr t6, mcause\n"
      "sd t6, trap_cause, t5\n"
      "ld t6, traps\n"
      "addi t6, t6, 1\n"
      "sd t6, traps, t5\n"
      "csrr t6, mepc\n"
      "addi t6, t6, 4\n"
      "csrw mepc, t6\n"
      "csrr t6, mscratch\n"
      "mret\n");
}

static int failures;

/* All earlier commands answered; returns (committed, issued) so far. */
static void settle(uint64_t *committed, uint64_t *issued) {
  montu_wait(montu_clear());
  *committed = montu_counter(MONTU_MX_COUNTER_COMMITTED);
  *issued = montu_counter(MONTU_MX_COUNTER_ISSUED);
}

static void check(const char *name, uint64_t executed) {
  uint64_t committed, issued;
  static uint64_t last_committed, last_issued;
  settle(&committed, &issued);
  /* the settle's own CLR counts once in both */
  uint64_t ran = committed - last_committed - 1, seen = issued - last_issued - 1;
  int ok = ran == executed && committed == montu_next;
  printf("%s: executed %llu, reached the unit %llu, reached the issue port %llu: %s\n", name,
         (unsigned long long)executed, (unsigned long long)ran, (unsigned long long)seen,
         ok ? "ok" : "FAIL");
  failures += !ok;
  last_committed = committed;
  last_issued = issued;
}

int main(void) {
  __asm__ volatile("csrw mtvec, %0" : : "r"(trap_handler));
  check("start", 0);

  /* 1. A forward branch, predicted not taken, taken: the command after it is on the wrong path. */
  for (int i = 0; i < 8; ++i) {
    volatile uint64_t one = 1;
    uint64_t skip = one * 7 / 7;             /* late operand: the branch waits for the divider */
    __asm__ volatile("bnez %[skip], 1f\n" MX_CMD "1:\n"
                     : : [skip] "r"(skip), [insn] "r"((uint64_t)NOP_INSN) : "memory");
  }
  check("mispredicted branch around mx.cmd", 0);

  /* 2. A misaligned load traps; the command behind it issues before the trap is taken, is
   *    squashed, then runs once after the handler returns to it. */
  static uint64_t words[2];
  for (int i = 0; i < 8; ++i) {
    __asm__ volatile("ld t0, 1(%[p])\n" MX_CMD
                     : : [p] "r"(words), [insn] "r"((uint64_t)NOP_INSN) : "t0", "t5", "t6", "memory");
    montu_next++;
  }
  check("mx.cmd behind a trapping load", 8);
  if (traps != 8 || trap_cause != 4) {
    printf("expected 8 load-misaligned traps, saw %llu (last cause %llu): FAIL\n",
           (unsigned long long)traps, (unsigned long long)trap_cause);
    failures++;
  }

  /* 3. ecall, fence and a CSR write flush the pipeline behind them. */
  for (int i = 0; i < 4; ++i) {
    __asm__ volatile("ecall\n" MX_CMD : : [insn] "r"((uint64_t)NOP_INSN) : "t5", "t6", "memory");
    montu_next++;
    __asm__ volatile("fence\n" MX_CMD : : [insn] "r"((uint64_t)NOP_INSN) : "memory");
    montu_next++;
    __asm__ volatile("csrw mscratch, zero\n" MX_CMD : : [insn] "r"((uint64_t)NOP_INSN) : "memory");
    montu_next++;
  }
  check("mx.cmd behind ecall, fence and csrw", 12);

  /* 4. An undefined funct3 is an illegal instruction (trap), not a command. */
  traps = 0;
  __asm__ volatile(MONTU_MX_ASM(7, "x0", "x0", "x0") : : : "t5", "t6", "memory");
  check("undefined mx funct3", 0);
  if (traps != 1 || trap_cause != 2) {
    printf("expected one illegal-instruction trap, saw %llu (cause %llu): FAIL\n",
           (unsigned long long)traps, (unsigned long long)trap_cause);
    failures++;
  }

  printf("%s\n", failures ? "speculation: FAIL" : "speculation: ok");
  return failures;
}
