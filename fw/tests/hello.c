#include <stdio.h>
#include "montu_soc.h"
int main(void) {
  printf("hello from CVA6 at cycle %llu\n", (unsigned long long)montu_soc_cycles());
  return 3;
}
