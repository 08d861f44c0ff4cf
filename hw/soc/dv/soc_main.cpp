// C++ harness of the Verilated Montu SoC: clock, reset, the putc/exit device registers.
//
//   Vmontu_soc_top +firmware=FILE.hex [+max_cycles=N]
// Streams the program's output to stdout; at the end prints one line to stderr,
//   montu-soc: exit=<code> cycles=<n>      or      montu-soc: timeout cycles=<n>
// and exits with the program's exit code (124 on timeout).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "Vmontu_soc_top.h"
#include "verilated.h"

extern "C" void soc_putc(char ch) {
  std::fputc(static_cast<unsigned char>(ch), stdout);
  if (ch == '\n') std::fflush(stdout);
}

int main(int argc, char** argv) {
  auto context = std::make_unique<VerilatedContext>();
  context->commandArgs(argc, argv);
  uint64_t max_cycles = 2000000000ull;
  if (const char* arg = context->commandArgsPlusMatch("max_cycles=")) {
    if (*arg) max_cycles = std::strtoull(arg + std::string("+max_cycles=").size(), nullptr, 10);
  }
  auto top = std::make_unique<Vmontu_soc_top>(context.get());

  top->clk_i = 0;
  top->rst_ni = 0;
  for (int i = 0; i < 8; ++i) {
    top->clk_i = !top->clk_i;
    top->eval();
  }
  top->rst_ni = 1;

  uint64_t cycles = 0;
  while (!context->gotFinish() && cycles < max_cycles) {
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();
    ++cycles;
    if (top->exit_valid_o) {
      std::fflush(stdout);
      int code = static_cast<int>(top->exit_code_o);
      std::fprintf(stderr, "montu-soc: exit=%d cycles=%llu\n", code,
                   static_cast<unsigned long long>(cycles));
      top->final();
      return code & 0xff;
    }
  }
  std::fflush(stdout);
  std::fprintf(stderr, "montu-soc: timeout cycles=%llu\n", static_cast<unsigned long long>(cycles));
  top->final();
  return 124;
}
