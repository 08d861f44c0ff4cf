"""Published figures of the papers in shared/papers and of the anchors the benchmarks cite, with
what each figure includes, so the report can set ours beside them honestly."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    work: str
    technology: str         # process node or FPGA family
    area: str               # as published, with what it includes
    clock_mhz: float | None
    operation: str
    cycles: int | None
    time_us: float | None
    note: str = ""


REFERENCES: tuple[Reference, ...] = (
    Reference("bie2021 (Tables 2–3)", "55 nm CMOS ASIC, TT corner",
              "437,801 µm² in the text (Table 3: 137,801 µm², 2.36·10⁵ gates); includes storage",
              588, "2048-bit GF(p) Montgomery multiplication", 1251, 2.12),
    Reference("bie2021 (Table 2)", "55 nm CMOS ASIC", "as above", 588,
              "512-bit GF(p) multiplication", 115, 0.1955),
    Reference("bie2021 (Table 2)", "55 nm CMOS ASIC", "as above", 588,
              "512-bit GF(2^m) multiplication", 105, 0.1785),
    Reference("bie2021 (Table 2)", "55 nm CMOS ASIC", "as above", 588,
              "2048-bit GF(p) inversion", 303_502, 500.0),
    Reference("cilardo2008 (§6)", "0.18 µm CMOS ASIC, post-synthesis",
              "1316k µm², multiplier core only", 1000 / 12.2,
              "256-bit GF(N) Montgomery multiplication", 36, 36 * 12.2 / 1000),
    Reference("verma (Table 3, EWBR4CMMM)", "Xilinx Virtex-5 xc5vlx155t",
              "12,134 slice registers, 13,956 LUT6, 66 DSP48E; multiplier only", 357.45,
              "1024-bit Montgomery multiplication", 547, 1.52),
    Reference("verma (Table 3, EWBR4CMMM)", "Xilinx Virtex-5 xc5vlx330t",
              "23,781 slice registers, 27,284 LUT6, 129 DSP48E; multiplier only", 306.08,
              "2048-bit Montgomery multiplication", 1081, 3.52),
    Reference("yeh (Table V)", "0.18 µm CMOS chip, post-layout", "5.76 mm², whole 1024-bit RSA chip",
              460, "1024-bit RSA (586 kbit/s average)", None, 1024 / 586e3 * 1e6),
    Reference("antao (§5)", "Xilinx Virtex-4", "12,181 slices, 24 BRAM, 216 DSP48", None,
              "modular exponentiation (RSA)", None, 1600.0),
    Reference("antao (§5)", "Xilinx Virtex-4", "3,435 slices, 12 BRAM, 64 DSP48", None,
              "EC point multiplication", None, 5800.0),
)

DIFFERENCES = (
    "ASIC figures (bie2021, cilardo2008, yeh) are standard-cell syntheses or chips: their clocks "
    "(82–588 MHz) come from a custom process, not from an FPGA fabric, and their areas are µm² or "
    "gate equivalents, which do not convert to LUTs. Compare cycle counts directly; compare times "
    "only with the process in mind.",
    "verma and antao are Xilinx Virtex-5/Virtex-4 FPGAs: 6-input LUTs (Virtex-5) and DSP48 blocks "
    "with a 25×18 or 18×18 multiplier and a 48-bit adder, against ECP5's 4-input LUTs and "
    "18×18 MULT18X18D without a fused adder; their speed grades are the fast ones (-3, -2).",
    "What the area includes differs: bie2021 counts its storage; verma counts the multiplier "
    "only; yeh is a whole RSA chip; Montu's figures are the whole unit (register file in block RAM, "
    "Montgomery engine, word-serial engine, inversion engine, control), out of context.",
)
