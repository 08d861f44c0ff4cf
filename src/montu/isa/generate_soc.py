"""The SoC's generated files: hw/soc/rtl/montu_cvxif_pkg.sv (soc.yaml), fw/include/montu_isa.h
(instructions.yaml + soc.yaml: the firmware's one copy of opcodes, slots, errors and flags) and the
SoC section of docs/isa.md. Called by `python3 -m montu.isa.generate`."""

from __future__ import annotations

from pathlib import Path

from montu.isa.soc import SocTable
from montu.isa.table import InstructionSet
from montu.paths import repo_root

CVXIF_PKG_PATH = repo_root() / "hw" / "soc" / "rtl" / "montu_cvxif_pkg.sv"
FIRMWARE_HEADER_PATH = repo_root() / "fw" / "include" / "montu_isa.h"
BANNER = "GENERATED from src/montu/isa/{sources} by `python3 -m montu.isa.generate`; do not edit."


def _camel(name: str) -> str:
    return "".join(p.capitalize() for p in name.split("_"))


def render_cvxif_package(soc: SocTable) -> str:
    lines = [f"// {BANNER.format(sources='soc.yaml')}", "package montu_cvxif_pkg;", "",
             f"  localparam logic [6:0] MxOpcode = 7'h{soc.opcode:02X};",
             f"  localparam logic [6:0] MxFunct7 = 7'h{soc.funct7:02X};", ""]
    for ins in soc.instructions:
        lines.append(f"  localparam logic [2:0] Mx{_camel(ins.name)} = 3'd{ins.funct3};  // {ins.doc}")
    lines.append("")
    for err in soc.errors:
        lines.append(f"  localparam logic [3:0] Mx{_camel(err.name)} = 4'd{err.value};  // {err.doc}")
    lines += ["",
              f"  localparam int unsigned MxRingDepth = {soc.ring_depth};",
              f"  localparam int unsigned MxFifoDepth = {soc.fifo_depth};", "",
              "  // The status word of ST: " + ", ".join(f"{s.name.lower()} [{s.high}:{s.low}]" for s in soc.status)]
    args = ", ".join(f"logic [{s.high - s.low}:0] {s.name.lower()}" for s in soc.status)
    parts, bit = [], 64
    for field in sorted(soc.status, key=lambda s: -s.high):
        if field.high < bit - 1:
            parts.append(f"{bit - 1 - field.high}'d0")
        parts.append(field.name.lower())
        bit = field.low
    if bit > 0:
        parts.append(f"{bit}'d0")
    lines += [f"  function automatic logic [63:0] status_word({args});",
              f"    return {{{', '.join(parts)}}};", "  endfunction", "", "endpackage", ""]
    return "\n".join(lines)


def render_firmware_header(isa: InstructionSet, soc: SocTable) -> str:
    lines = [f"/* {BANNER.format(sources='instructions.yaml and soc.yaml')} */",
             "#ifndef MONTU_ISA_H", "#define MONTU_ISA_H", "",
             "/* The unit's instruction word: slots (lsb, bits) */"]
    for slot in isa.slots.values():
        lines.append(f"#define MONTU_SLOT_{slot.name.upper()}_LSB {slot.lsb}")
        lines.append(f"#define MONTU_SLOT_{slot.name.upper()}_BITS {slot.width}")
    lines += ["", "/* Opcodes */"]
    for ins in isa.instructions:
        lines.append(f"#define MONTU_OP_{ins.name} 0x{ins.opcode:02X}u")
    lines += ["", "/* Unit error codes (a response's err) */"]
    for err in isa.errors:
        lines.append(f"#define MONTU_{err.name} {err.code}  /* {err.doc.split(';')[0]} */")
    lines += ["", "/* Flags (a response's flags) */"]
    for flag in isa.flags:
        lines.append(f"#define MONTU_FLAG_{flag.name} (1u << {flag.bit})")
    lines += ["", "/* An instruction word from its slots (values are masked to their slots) */",
              "#define MONTU_FIELD(value, slot) \\",
              "  (((unsigned)(value) & ((1u << MONTU_SLOT_##slot##_BITS) - 1u)) << MONTU_SLOT_##slot##_LSB)",
              "#define MONTU_INSN(op, rd, ra, rb, f, imm) \\",
              "  (MONTU_FIELD(MONTU_OP_##op, OP) | MONTU_FIELD(rd, RD) | MONTU_FIELD(ra, RA) | \\",
              "   MONTU_FIELD(rb, RB) | MONTU_FIELD(f, F) | MONTU_FIELD(imm, IMM))", "",
              "/* The SoC's custom instructions (R-type, CUSTOM_2) */",
              f"#define MONTU_MX_OPCODE 0x{soc.opcode:02X}", f"#define MONTU_MX_FUNCT7 {soc.funct7}"]
    for ins in soc.instructions:
        lines.append(f"#define MONTU_MX_{ins.name} {ins.funct3}  /* {ins.doc} */")
    for counter in soc.counters:
        lines.append(f"#define MONTU_MX_COUNTER_{counter.name} {counter.value}  /* {counter.doc} */")
    for err in soc.errors:
        lines.append(f"#define MONTU_MX_E_{err.name} {err.value}  /* {err.doc} */")
    for field in soc.status:
        width = field.high - field.low + 1
        mask = (1 << width) - 1
        lines.append(f"#define MONTU_STATUS_{field.name}(s) ((unsigned)(((s) >> {field.low}) & 0x{mask:X}u))")
    lines += [f"#define MONTU_MX_RING_DEPTH {soc.ring_depth}", "", "#endif", ""]
    return "\n".join(lines)


def render_soc_doc(soc: SocTable) -> str:
    lines = ["## The SoC's custom instructions (CV-X-IF)", "",
             f"Generated from `src/montu/isa/soc.yaml`. R-type, opcode 0x{soc.opcode:02X} (CUSTOM_2), "
             f"funct7 = {soc.funct7}; commands are numbered 0, 1, 2 … in program order and reads name "
             "one by number. docs/soc.md explains the design.", "",
             "| instruction | funct3 | side effect | writes rd | meaning |", "|---|---|---|---|---|"]
    for ins in soc.instructions:
        lines.append(f"| mx.{ins.name.lower()} | {ins.funct3} | {'yes' if ins.side_effect else 'no'} | "
                     f"{'yes' if ins.writes_rd else 'no'} | {ins.doc} |")
    lines += ["", "| counter (CNT rs1) | meaning |", "|---|---|"]
    lines += [f"| {c.value} {c.name} | {c.doc} |" for c in soc.counters]
    lines += ["", "| adapter error | meaning |", "|---|---|"]
    lines += [f"| {e.value} {e.name} | {e.doc} |" for e in soc.errors]
    lines += ["", "| status bits | field | meaning |", "|---|---|---|"]
    lines += [f"| [{s.high}:{s.low}] | {s.name} | {s.doc} |" for s in soc.status]
    return "\n".join(lines) + "\n"


def outputs(isa: InstructionSet, soc: SocTable) -> dict[Path, str]:
    return {CVXIF_PKG_PATH: render_cvxif_package(soc),
            FIRMWARE_HEADER_PATH: render_firmware_header(isa, soc)}
