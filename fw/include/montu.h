/* The Montu firmware library: the unit as a CVA6 coprocessor (custom instructions, see
 * docs/soc.md) and the operations built on it.
 *
 * Numbers are arrays of little-endian 64-bit words. Every function returns 0 or an error code:
 * the unit's (MONTU_E_*, from instructions.yaml) or MONTU_ERR_* below for what the library
 * checks itself. After an error the unit is usable again: the library clears its sticky error.
 */
#ifndef MONTU_H
#define MONTU_H

#include <stdint.h>

#include "montu_isa.h"

/* The unit built into the SoC (hw/soc/rtl/montu_soc_top.sv). */
#define MONTU_MAX_WORDS 64        /* MaxBits / 64 */
#define MONTU_NUM_REGS 32

/* Library errors (above the unit's 4-bit codes). */
#define MONTU_ERR_ARGUMENT 16     /* a length or pointer argument is out of range */
#define MONTU_ERR_ADAPTER 17      /* the CV-X-IF adapter could not answer a read */
/* 18, 19 and 32 .. 39: the EC library's (montu_ec.h) */

#define MONTU_STR_(x) #x
#define MONTU_STR(x) MONTU_STR_(x)

/* Number of the next command (commands are numbered in program order from reset). */
extern uint64_t montu_next;

/* The assembler text of one custom instruction: `.insn r CUSTOM_2, funct3, funct7, rd, rs1, rs2`
 * (operands as asm operand strings such as "%0" or "x0"). */
#define MONTU_MX_ASM(funct3, rd, rs1, rs2)                                                       \
  ".insn r " MONTU_STR(MONTU_MX_OPCODE) ", " MONTU_STR(funct3) ", " MONTU_STR(MONTU_MX_FUNCT7) \
  ", " rd ", " rs1 ", " rs2

/* mx.cmd: send one instruction word with its data word; returns the command's number. The
 * command reaches the unit when this instruction retires, never on a mispredicted path. */
static inline uint64_t montu_cmd(uint32_t insn, uint64_t data) {
  __asm__ volatile(MONTU_MX_ASM(MONTU_MX_CMD, "x0", "%0", "%1")
                   : : "r"((uint64_t)insn), "r"(data) : "memory");
  return montu_next++;
}

/* The adapter's reads: rd = mx.<funct3>(rs1), answered at once. */
#define MONTU_MX_READ(funct3, arg)                                                  \
  uint64_t value;                                                                   \
  __asm__ volatile(MONTU_MX_ASM(funct3, "%0", "%1", "x0") : "=r"(value) : "r"(arg) : "memory"); \
  return value

/* mx.rd: the response data of command `number` as it is now (0 unless answered). */
static inline uint64_t montu_data_now(uint64_t number) { MONTU_MX_READ(MONTU_MX_RD, number); }

/* mx.st: the status word of command `number` as it is now; MONTU_STATUS_* take it apart
 * (MONTU_STATUS_ADAPTER_ERR is MONTU_MX_E_PENDING until the command is answered). */
static inline uint64_t montu_status_now(uint64_t number) { MONTU_MX_READ(MONTU_MX_ST, number); }

/* mx.cnt: one of the adapter's counters (MONTU_MX_COUNTER_*). */
static inline uint64_t montu_counter(uint64_t which) { MONTU_MX_READ(MONTU_MX_CNT, which); }

/* mx.clr: clear the sticky error after every earlier command; returns the command's number. */
static inline uint64_t montu_clear(void) {
  __asm__ volatile(MONTU_MX_ASM(MONTU_MX_CLR, "x0", "x0", "x0") : : : "memory");
  return montu_next++;
}

/* Wait until command `number` is answered (polling mx.st) and return its status word; after
 * MONTU_WAIT_LIMIT polls the status still says PENDING. */
#define MONTU_WAIT_LIMIT (1ul << 26)
uint64_t montu_wait(uint64_t number);

/* The response data of command `number` (waits for it; 0 if it cannot be read). */
uint64_t montu_data(uint64_t number);

/* Wait until every command sent so far is answered; return the first error since the last
 * montu_finish (0: none) and clear it. */
int montu_finish(void);

/* Unit helpers (registers R0..R31; R0 is the modulus). */
void montu_write(unsigned reg, const uint64_t *words, unsigned count);
void montu_read(unsigned reg, uint64_t *words, unsigned count);

/* r = b^e mod n, for n odd, all of `words` words (1 .. MONTU_MAX_WORDS); b may be >= n.
 * Constant time in e: the commands and the cycles depend on `words` and on the bit length of n
 * only. r may alias b or e. Returns 0, MONTU_ERR_ARGUMENT, or the unit's error code
 * (MONTU_E_EVEN_MODULUS for an even n). */
int montu_mod_exp(uint64_t *r, const uint64_t *b, const uint64_t *e, const uint64_t *n,
                  unsigned words);

/* The EC library (k·P, validation, ECDSA, ECDH on P-256 and sect283k1): montu_ec.h, included
 * here so that every program that includes montu.h has it. */
#include "montu_ec.h"

#endif
