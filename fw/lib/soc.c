/* The SoC's C runtime for picolibc: standard output on the putc register, _exit on the exit
 * register. The crt0 is picolibc's ("hosted": main's return value goes to exit). */
#include <stdio.h>
#include <stdlib.h>

#include "montu_soc.h"

static int soc_putc(char c, FILE *file) {
  (void)file;
  *(volatile uint64_t *)MONTU_SOC_PUTC = (uint8_t)c;
  return (uint8_t)c;
}

static FILE soc_stdout = FDEV_SETUP_STREAM(soc_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &soc_stdout;
FILE *const stderr = &soc_stdout;

void _exit(int code) {
  fflush(stdout);
  *(volatile uint64_t *)MONTU_SOC_EXIT = (uint32_t)code;
  for (;;) {
  }
}

void montu_soc_print_number(const uint64_t *x, unsigned words) {
  for (unsigned i = words; i-- > 0;) printf(i + 1 == words ? "%016llx" : " %016llx", (unsigned long long)x[i]);
}
