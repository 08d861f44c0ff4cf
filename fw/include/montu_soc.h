/* The Montu SoC's device registers and its C runtime (fw/lib/soc.c).
 *
 * Memory map (hw/soc/rtl/soc_mem.sv): RAM at 0x8000_0000, device registers at 0x1000_0000.
 * Standard output goes to the simulator's stdout; exit(code) ends the simulation with that code.
 */
#ifndef MONTU_SOC_H
#define MONTU_SOC_H

#include <stdint.h>

#define MONTU_SOC_IO_BASE     0x10000000ul
#define MONTU_SOC_PUTC        (MONTU_SOC_IO_BASE + 0x00)
#define MONTU_SOC_EXIT        (MONTU_SOC_IO_BASE + 0x08)
#define MONTU_SOC_CYCLES      (MONTU_SOC_IO_BASE + 0x10)
#define MONTU_SOC_UNIT_BUSY   (MONTU_SOC_IO_BASE + 0x18)
#define MONTU_SOC_UNIT_DONE   (MONTU_SOC_IO_BASE + 0x20)

static inline uint64_t montu_soc_read(uintptr_t address) {
  return *(volatile const uint64_t *)address;
}

/* Cycles since reset, counted by the SoC (the whole system's clock). */
static inline uint64_t montu_soc_cycles(void) { return montu_soc_read(MONTU_SOC_CYCLES); }

/* The Montu unit's cycles since reset: the sum of the cycle counts of the commands it answered
 * (each command's count from instructions.yaml; the unit also needs one cycle between a response
 * and the next command, which this does not count). */
static inline uint64_t montu_soc_unit_cycles(void) { return montu_soc_read(MONTU_SOC_UNIT_BUSY); }

/* Print `words` little-endian 64-bit words as hex, most significant first, separated by spaces
 * (what montu.soc.vectors.parse_words reads back), without a newline. */
void montu_soc_print_number(const uint64_t *x, unsigned words);

#endif
