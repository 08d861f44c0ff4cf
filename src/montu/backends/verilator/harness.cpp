// In-process driver of the Verilated Montu unit (Vmontu_top), called from Python via ctypes
// (montu/backends/verilator/model.py). Built into a shared library by
// montu/backends/verilator/build.py; engine tops with the same ports are built with
// `--prefix Vmontu_top`, so this one harness drives them all.
//
// It plays the command/response protocol of montu_top exactly as a bus master would:
//   - a command is driven (cmd_valid_i, cmd_insn_i, cmd_data_i) until the posedge where
//     cmd_ready_o is high: that is the accepting posedge;
//   - the harness then counts the posedges until rsp_valid_o is high (N), reads the response
//     fields, and completes the handshake with one posedge of rsp_ready_i.
// The count N is returned beside rsp_cycles_o, so the caller can check the unit's own count.
//
// Every wait is bounded by a per-command cycle budget; an exceeded budget returns a status
// instead of hanging. $stop/$fatal (failed assertions) in the RTL are caught and returned as a
// status with the message, instead of ending the Python process.
//
// Compile-time inputs (from build.py): MONTU_WORD (the Word parameter, in montu_harness_config.h);
// MONTU_TRACE (optional VCD tracing support).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>

#include "Vmontu_top.h"
#include "montu_harness_config.h"  // MONTU_WORD, written by build.py into the build directory
#include "verilated.h"
#ifdef MONTU_TRACE
#include "verilated_vcd_c.h"
#endif

#ifndef MONTU_WORD
#error "MONTU_WORD (the Word parameter of montu_top) must be defined"
#endif

namespace {

constexpr unsigned kWord = MONTU_WORD;
constexpr unsigned kDataWords = (kWord + 63) / 64;  // uint64 limbs per data word
constexpr int kAbiVersion = 1;

// Status codes of montu_rtl_exec / montu_rtl_exec_many (mirrored in model.py).
enum Status : int {
  kOk = 0,
  kAcceptTimeout = 1,    // cmd_ready_o stayed low for the whole budget
  kResponseTimeout = 2,  // rsp_valid_o stayed low for the whole budget after the accept
  kSpuriousResponse = 3, // rsp_valid_o was high while no command was outstanding
  kFatal = 4,            // the RTL executed $stop/$fatal (e.g. a failed assertion)
  kFinished = 5,         // the RTL executed $finish; the model cannot run any more
};

// $stop/$fatal have no model pointer, so the last one is kept process-wide.
bool g_fatal = false;
std::string g_fatal_message;

template <typename T>
inline void put_port(T& port, const uint64_t* src) {
  if constexpr (std::is_integral_v<T>) {
    uint64_t v = src[0];
    v &= ~uint64_t{0} >> (64 - kWord);  // kWord <= 64 here
    port = static_cast<T>(v);
  } else {  // VlWide<N>: 32-bit limbs
    constexpr unsigned limbs = (kWord + 31) / 32;
    for (unsigned i = 0; i < limbs; ++i) {
      port[i] = static_cast<uint32_t>(src[i / 2] >> (32 * (i % 2)));
    }
    if constexpr (kWord % 32 != 0) port[limbs - 1] &= (uint32_t{1} << (kWord % 32)) - 1;
  }
}

template <typename T>
inline void get_port(const T& port, uint64_t* dst) {
  if constexpr (std::is_integral_v<T>) {
    dst[0] = static_cast<uint64_t>(port);
  } else {
    constexpr unsigned limbs = (kWord + 31) / 32;
    for (unsigned i = 0; i < kDataWords; ++i) dst[i] = 0;
    for (unsigned i = 0; i < limbs; ++i) {
      dst[i / 2] |= static_cast<uint64_t>(port[i]) << (32 * (i % 2));
    }
  }
}

}  // namespace

// Verilator calls these instead of its defaults (which exit the process) because build.py
// compiles everything with -DVL_USER_STOP -DVL_USER_FATAL.
void vl_stop(const char* filename, int linenum, const char* hier) {
  vl_fatal(filename, linenum, hier, "$stop or $fatal (the RTL's own message is on stdout)");
}

void vl_fatal(const char* filename, int linenum, const char* hier, const char* msg) {
  if (!g_fatal) {
    g_fatal = true;
    g_fatal_message = std::string(filename ? filename : "?") + ":" + std::to_string(linenum) + ": ";
    if (hier && *hier) g_fatal_message += std::string("in ") + hier + ": ";
    g_fatal_message += msg ? msg : "";
  }
}

struct MontuRtl {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vmontu_top> top;
  uint64_t budget = 4000000;  // cycles per wait (accept, then response)
  uint64_t ticks = 0;         // posedges since creation
  std::string message;
#ifdef MONTU_TRACE
  std::unique_ptr<VerilatedVcdC> vcd;
#endif

  MontuRtl() : ctx(new VerilatedContext) {
    ctx->fatalOnError(false);
    top.reset(new Vmontu_top(ctx.get(), "montu_top"));
    top->clk_i = 0;
    top->rst_ni = 1;
    top->cmd_valid_i = 0;
    top->rsp_ready_i = 0;
    top->eval();
  }

  ~MontuRtl() {
#ifdef MONTU_TRACE
    if (vcd) vcd->close();
#endif
    top->final();
  }

  // One clock period: posedge (state updates), then negedge; inputs change only after this.
  inline void tick() {
    top->clk_i = 1;
    top->eval();
#ifdef MONTU_TRACE
    if (vcd) { ctx->timeInc(1); vcd->dump(ctx->time()); }
#endif
    top->clk_i = 0;
    top->eval();
#ifdef MONTU_TRACE
    if (vcd) { ctx->timeInc(1); vcd->dump(ctx->time()); }
#endif
    ++ticks;
  }

  int check_stopped() {
    if (g_fatal) {
      message = g_fatal_message;
      g_fatal = false;
      return kFatal;
    }
    if (ctx->gotFinish()) {
      message = "the RTL executed $finish";
      return kFinished;
    }
    return kOk;
  }

  void reset(unsigned cycles) {
    ctx->gotFinish(false);
    g_fatal = false;
    top->cmd_valid_i = 0;
    top->rsp_ready_i = 0;
    top->cmd_insn_i = 0;
    const uint64_t zero[kDataWords] = {};
    put_port(top->cmd_data_i, zero);
    top->rst_ni = 1;
    top->eval();
    top->rst_ni = 0;  // asynchronous assert (a negedge of rst_ni)
    top->eval();
    for (unsigned i = 0; i < (cycles ? cycles : 1); ++i) tick();
    top->rst_ni = 1;  // release between clock edges
    top->eval();
    tick();
  }

  // One command; fills the response slots and returns a Status.
  int exec(uint32_t insn, const uint64_t* data, uint8_t* err, uint8_t* flags, uint64_t* rdata,
           uint32_t* rsp_cycles, uint32_t* counted) {
    if (top->rsp_valid_o) {
      message = "rsp_valid_o was high before the command was sent (a response nobody asked for)";
      return kSpuriousResponse;
    }
    top->cmd_valid_i = 1;
    top->cmd_insn_i = insn;
    put_port(top->cmd_data_i, data);
    top->rsp_ready_i = 0;
    top->eval();
    uint64_t waited = 0;
    while (!top->cmd_ready_o) {
      if (waited >= budget) {
        top->cmd_valid_i = 0;
        top->eval();
        message = "cmd_ready_o stayed low";
        return kAcceptTimeout;
      }
      tick();
      ++waited;
      if (int s = check_stopped()) return s;
    }
    tick();  // the accepting posedge
    top->cmd_valid_i = 0;
    top->cmd_insn_i = 0;
    const uint64_t zero[kDataWords] = {};
    put_port(top->cmd_data_i, zero);
    top->eval();
    if (int s = check_stopped()) return s;
    uint64_t n = 0;
    while (!top->rsp_valid_o) {
      if (n >= budget) {
        message = "rsp_valid_o stayed low";
        return kResponseTimeout;
      }
      tick();
      ++n;
      if (int s = check_stopped()) return s;
    }
    *err = static_cast<uint8_t>(top->rsp_err_o);
    *flags = static_cast<uint8_t>(top->rsp_flags_o);
    get_port(top->rsp_data_o, rdata);
    *rsp_cycles = static_cast<uint32_t>(top->rsp_cycles_o);
    *counted = n > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(n);
    top->rsp_ready_i = 1;
    top->eval();
    tick();  // the posedge that completes the response handshake
    top->rsp_ready_i = 0;
    top->eval();
    return check_stopped();
  }
};

extern "C" {

int montu_rtl_abi_version(void) { return kAbiVersion; }
unsigned montu_rtl_word_bits(void) { return kWord; }
unsigned montu_rtl_data_words(void) { return kDataWords; }
int montu_rtl_has_trace(void) {
#ifdef MONTU_TRACE
  return 1;
#else
  return 0;
#endif
}

MontuRtl* montu_rtl_create(void) {
  try {
    return new MontuRtl();
  } catch (...) {
    return nullptr;
  }
}

void montu_rtl_destroy(MontuRtl* m) { delete m; }

void montu_rtl_set_budget(MontuRtl* m, uint64_t cycles) { m->budget = cycles; }

void montu_rtl_reset(MontuRtl* m, unsigned cycles) { m->reset(cycles); }

uint64_t montu_rtl_cycle_count(MontuRtl* m) { return m->top->cycle_count_o; }

uint64_t montu_rtl_ticks(MontuRtl* m) { return m->ticks; }

// Status lines besides the response port: bit 0 busy_o, bit 1 done_o, bits 7:4 err_o.
unsigned montu_rtl_status(MontuRtl* m) {
  return (m->top->busy_o & 1u) | ((m->top->done_o & 1u) << 1) | ((m->top->err_o & 0xFu) << 4);
}

const char* montu_rtl_message(MontuRtl* m) { return m->message.c_str(); }

// Open a VCD file and dump every following half-cycle into it (only with MONTU_TRACE).
int montu_rtl_trace_open(MontuRtl* m, const char* path) {
#ifdef MONTU_TRACE
  if (m->vcd) m->vcd->close();
  m->ctx->traceEverOn(true);
  m->vcd.reset(new VerilatedVcdC);
  m->top->trace(m->vcd.get(), 99);
  m->vcd->open(path);
  return m->vcd->isOpen() ? 0 : -1;
#else
  (void)m;
  (void)path;
  return -1;
#endif
}

// Run n commands back to back. insn[n], data[n * data_words] in; err[n], flags[n],
// rdata[n * data_words], rsp_cycles[n], counted[n] out. *done = commands completed.
// Stops at the first command whose status is not kOk and returns that status.
int montu_rtl_exec_many(MontuRtl* m, size_t n, const uint32_t* insn, const uint64_t* data,
                        uint8_t* err, uint8_t* flags, uint64_t* rdata, uint32_t* rsp_cycles,
                        uint32_t* counted, size_t* done) {
  *done = 0;
  for (size_t i = 0; i < n; ++i) {
    int s = m->exec(insn[i], data + i * kDataWords, err + i, flags + i, rdata + i * kDataWords,
                    rsp_cycles + i, counted + i);
    if (s != kOk) return s;
    *done = i + 1;
  }
  return kOk;
}

}  // extern "C"
