"""Generate the SV packages and docs/isa.md from the instruction tables: hw/ip/montu/rtl/montu_pkg.sv
from instructions.yaml (the unit), hw/ip/<engine>/rtl/<engine>_pkg.sv from <engine>.yaml (the
engines of ENGINE_TABLES), hw/ip/antao/rtl/antao_ucode_pkg.sv from antao_ucode.yaml (the
microinstruction format, montu.isa.ucode), and docs/isa.md (the unit, then one section per engine,
antao's followed by its microinstruction fields, then the SoC's custom instructions). The SoC's
files (montu_cvxif_pkg.sv from soc.yaml, the firmware header fw/include/montu_isa.h) come from
montu.isa.generate_soc.

    python3 -m montu.isa.generate          # rewrite both files
    python3 -m montu.isa.generate --check  # exit 1 if either file is out of date

tests/isa/test_generated.py runs the check, so the RTL package, the docs and the simulator's
decoder (which reads the table directly) can never drift apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from montu.isa.table import Instruction, InstructionSet, load, load_engine
from montu.isa.ucode import UCODE_TABLE, MicroFormat, load_format
from montu.isa import generate_soc
from montu.isa.soc import load_soc
from montu.paths import repo_root

REPO = repo_root()
PKG_PATH = REPO / "hw" / "ip" / "montu" / "rtl" / "montu_pkg.sv"
DOC_PATH = REPO / "docs" / "isa.md"
ENGINE_TABLES = ("yeh", "verma", "antao")   # engines with an instruction table of their own (src/montu/isa/<name>.yaml)
UCODE_ENGINE = "antao"   # the engine whose microinstruction format is montu.isa.ucode's table


def engine_package_path(engine: str) -> Path:
    return REPO / "hw" / "ip" / engine / "rtl" / f"{engine}_pkg.sv"


def camel(name: str) -> str:
    """E_BAD_OPCODE -> BadOpcode; SETMMI -> Setmmi; SHL1 -> Shl1."""
    parts = name.split("_")
    if parts[0] == "E":
        parts = parts[1:]
    return "".join(p.capitalize() for p in parts)


def _package_head(isa: InstructionSet, package: str) -> list[str]:
    """The start every generated package shares: the banner, the slots and the opcodes."""
    op = isa.slots["op"]
    lines = [
        f"// GENERATED from src/montu/isa/{isa.source} by `python3 -m montu.isa.generate`.",
        "// Do not edit by hand: change the table and regenerate.",
        "",
        f"package {package};",
        "",
        "  // Instruction word slots: [msb:lsb]",
    ]
    for slot in isa.slots.values():
        cname = camel(slot.name.upper())
        lines.append(f"  localparam int unsigned Slot{cname}Msb = {slot.msb};")
        lines.append(f"  localparam int unsigned Slot{cname}Lsb = {slot.lsb};")
    lines += ["", "  // Opcodes"]
    for ins in isa.instructions:
        lines.append(f"  localparam logic [{op.width - 1}:0] Op{camel(ins.name)} = {op.width}'h{ins.opcode:02x};"
                     f"  // {ins.name}")
    return lines


def render_package(isa: InstructionSet) -> str:
    lines = _package_head(isa, "montu_pkg")
    lines += ["", "  // Error codes (rsp_err_o)"]
    for err in isa.errors:
        lines.append(f"  localparam logic [3:0] Err{camel(err.name)} = 4'd{err.code};")
    lines += ["", "  // Flag register bits (rsp_flags_o)"]
    for flag in isa.flags:
        lines.append(f"  localparam int unsigned Flag{camel(flag.name)} = {flag.bit};")
    lines += ["", "  // Cycles from accept to response for every rejected command",
              f"  localparam int unsigned ErrorCycles = {isa.error_cycles};", ""]
    lines += render_decode(isa)
    lines += ["endpackage", ""]
    return "\n".join(lines)


DECODE_FIELDS = (
    ("known", "the opcode names an instruction"),
    ("uses_rd", "rd is a register the instruction uses (E_BAD_REG if >= NumRegs)"),
    ("uses_ra", "ra likewise"),
    ("uses_rb", "rb likewise"),
    ("needs_modulus", "runs only after a valid SETMOD (E_NO_MODULUS)"),
    ("imm_length", "imm is a length k: 1 .. MaxBits / 64 (E_BAD_LENGTH)"),
    ("imm_window", "imm is a window width (E_BAD_IMM outside its range)"),
    ("imm_small_constants", "imm holds two signed 4-bit constants (E_BAD_IMM outside their range)"),
    ("rb_table", "R[rb] .. R[rb + 2^imm - 1] must exist (E_BAD_REG)"),
)


def decode_attributes(isa: InstructionSet) -> dict[str, dict[str, bool]]:
    """Per instruction, the decode bits the RTL's montu_pkg::op_attr returns."""
    out = {}
    for ins in isa.instructions:
        out[ins.name] = {
            "known": True,
            "uses_rd": "rd" in ins.uses, "uses_ra": "ra" in ins.uses, "uses_rb": "rb" in ins.uses,
            "needs_modulus": ins.needs_modulus,
            "imm_length": ins.imm_rule == "length", "imm_window": ins.imm_rule == "window",
            "imm_small_constants": ins.imm_rule == "small_constants",
            "rb_table": ins.table == "rb",
        }
    return out


def render_decode(isa: InstructionSet) -> list[str]:
    """op_attr_t and op_attr(): what montu_top's decoder checks for each opcode, and the imm
    range checks, from the table's `uses`, `errors`, `imm_rule`, `table` and `imm_rules`."""
    op_width = isa.slots["op"].width
    imm_width = isa.slots["imm"].width
    lines = ["  // Decode attributes of each opcode (from `uses`, `errors`, `imm_rule` and `table`)",
             "  typedef struct packed {"]
    for name, doc in DECODE_FIELDS:
        lines.append(f"    logic {name};{' ' * (20 - len(name))}// {doc}")
    lines += ["  } op_attr_t;", "",
              f"  function automatic op_attr_t op_attr(logic [{op_width - 1}:0] op);",
              "    op_attr_t attr;",
              "    attr = '0;",
              "    unique case (op)"]
    for ins_name, bits in decode_attributes(isa).items():
        fields = ", ".join([f"{k}: 1'b1" for k, v in bits.items() if v] + ["default: 1'b0"])
        lines.append(f"      Op{camel(ins_name)}:{' ' * (11 - len(camel(ins_name)))}attr = '{{{fields}}};")
    lines += ["      default: attr = '0;", "    endcase", "    return attr;", "  endfunction", ""]
    window, constants, length = (isa.imm_rule[n] for n in ("window", "small_constants", "length"))
    lines += [
        f"  // imm rules: {window.doc}; {constants.doc}; {length.doc}",
        f"  localparam int unsigned WindowMin = {window.min};",
        f"  localparam int unsigned WindowMax = {window.max};",
        f"  localparam int SmallConstantMin = {constants.min};",
        f"  localparam int SmallConstantMax = {constants.max};",
        f"  localparam int unsigned LengthMin = {length.min};",
        "",
        f"  function automatic logic window_ok(logic [{imm_width - 1}:0] imm);",
        "    return (32'(imm) >= WindowMin) && (32'(imm) <= WindowMax);",
        "  endfunction",
        "",
        f"  function automatic logic small_constants_ok(logic [{imm_width - 1}:0] imm);",
        "    logic signed [3:0] ca, cb;",
        "    ca = imm[3:0];",
        "    cb = imm[7:4];",
        "    return (int'(ca) >= SmallConstantMin) && (int'(ca) <= SmallConstantMax) &&",
        "           (int'(cb) >= SmallConstantMin) && (int'(cb) <= SmallConstantMax);",
        "  endfunction",
        "",
        f"  function automatic logic length_ok(logic [{imm_width - 1}:0] imm, int unsigned max_bits);",
        "    return (32'(imm) >= LengthMin) && (32'(imm) * 64 <= max_bits);",
        "  endfunction",
        "",
    ]
    return lines


def render_doc(isa: InstructionSet) -> str:
    slots = ", ".join(f"`{s.name}` [{s.msb}:{s.lsb}]" for s in isa.slots.values())
    out = [
        "# Montu instruction set",
        "",
        "<!-- GENERATED from src/montu/isa/instructions.yaml by `python3 -m montu.isa.generate`; "
        "do not edit by hand. -->",
        "",
        "The unit takes commands on its command port (a 32-bit instruction word plus one data word of",
        "`Word` bits) and answers every command with exactly one response on its response port:",
        "error code, flag register, data word (RMMI) and the number of cycles the command took.",
        "",
        f"Instruction word ({isa.width} bits): {slots}.",
        "",
        "`SETMMI` sets the operand length L = 64·k bits (k = imm) and the field; every other instruction",
        "works on the low W = L / Word words of its registers. The paper's four instructions",
        "(bie2021 Table 6) are `SETMMI`, `WMMI`, `STARTMMI` and `RMMI`; the others extend them with",
        "register-number fields.",
        "",
        "## Timing",
        "",
        "Cycles are counted from the clock edge that accepts the command to the edge after which the",
        "response is valid. The formulas below are the RTL's timing model; the simulator evaluates them",
        "and the differential tests check the RTL against them command by command. Variables: k, W,",
        "`Word`, `Lanes`, `NumRegs`, `MaxWords` = MaxBits / Word, `Pipelined` (1 when the unit is "
        "built for a high clock: pipelined MAC lanes, q unit, word and inversion engines; else 0) and gf2m (1 in",
        "GF(2^m) mode).",
        f"A rejected command always answers after {isa.error_cycles} cycles and changes nothing.",
        "Only MINV (inversion) depends on operand values, through its pass counts; every other",
        "instruction depends only on the length and the field. MINV reports E_NO_INVERSE when it",
        "finds that there is no inverse, after the passes it made (`ok` = 0 in its formula).",
        "",
        "| instruction | opcode | operands | cycles | errors | what it does |",
        "|---|---|---|---|---|---|",
    ]
    for ins in isa.instructions:
        operands = ", ".join(ins.uses) or "—"
        errors = ", ".join(ins.errors) or "—"
        cycles = f"as {ins.cycles_as}" if ins.cycles_as else _cycles_cell(isa, ins)
        if ins.bounds and not ins.cycles_as:
            cycles += " — worst case with " + ", ".join(f"{k} ≤ `{v}`" for k, v in ins.bounds)
        out.append(f"| `{ins.name}` | 0x{ins.opcode:02x} | {operands} | {cycles} | {errors} | {ins.doc} |")
    out += ["", "Every command finishes within its worst case: the formula itself, or for MINV the formula",
            "with its pass counts at their bounds (`Instruction.worst_case_cycles` in",
            "`montu.isa.table`; the random-stream tests in `tests/hw` check every response against it).",
            "", "## Error codes", "", "| code | name | meaning |", "|---|---|---|"]
    for err in isa.errors:
        out.append(f"| {err.code} | `{err.name}` | {err.doc} |")
    out += ["", "Precedence when several apply: E_BAD_OPCODE, E_BAD_REG (only register fields the",
            "instruction uses), E_BAD_IMM, E_BAD_LENGTH, E_NO_MODULUS, E_BAD_PAIR, E_EVEN_MODULUS.",
            "", "## Flags", "", "| bit | name | set by |", "|---|---|---|"]
    for flag in isa.flags:
        out.append(f"| {flag.bit} | `{flag.name}` | {flag.doc} |")
    out.append("")
    return "\n".join(out)


def _cycles_cell(isa: InstructionSet, ins) -> str:
    """The cycle formula for the docs table: cases on separate lines, per engine when keyed."""
    parts = []
    for engine, cases in ins.timing.by_engine:
        text = "<br>".join(f"`{c.formula}` if `{c.when}`" if c.when else
                           (f"otherwise `{c.formula}`" if len(cases) > 1 else f"`{c.formula}`")
                           for c in cases)
        parts.append(text if engine == "*" else f"{engine}:<br>{text}")
    return "<br>".join(parts)


def render_engine_package(engine: str, isa: InstructionSet) -> str:
    """<engine>_pkg.sv: slots, opcodes, registers, error codes, flags and the decode checks
    (known opcode, modulus needed, allowed registers) of an engine's table."""
    op = isa.slots["op"]
    reg_width = isa.slots["ra"].width
    lines = _package_head(isa, f"{engine}_pkg")
    if isa.registers:
        lines += ["", "  // Registers (values of the rd/ra/rb slots)"]
    for reg in isa.registers:
        lines.append(f"  localparam logic [{reg_width - 1}:0] {reg_param(reg.name)} = {reg_width}'d{reg.index};"
                     f"  // {reg.name}")
    lines += ["", "  // Error codes (rsp_err_o)"]
    for err in isa.errors:
        lines.append(f"  localparam logic [3:0] Err{camel(err.name)} = 4'd{err.code};")
    lines += ["", "  // Flag bits (rsp_flags_o)"]
    for flag in isa.flags:
        lines.append(f"  localparam int unsigned Flag{camel(flag.name)} = {flag.bit};")
    lines += ["", "  // Cycles from accept to response for every command decode rejects",
              f"  localparam int unsigned ErrorCycles = {isa.error_cycles};", "",
              "  // Decode attributes of each opcode (from `uses` and `errors`)",
              "  typedef struct packed {",
              "    logic known;          // the opcode names an instruction",
              "    logic needs_modulus;  // runs only after a valid SETMOD (E_NO_MODULUS)",
              "  } op_attr_t;", "",
              f"  function automatic op_attr_t op_attr(logic [{op.width - 1}:0] op);",
              "    op_attr_t attr;",
              "    attr = '0;",
              "    unique case (op)"]
    for ins in isa.instructions:
        modulus = "1'b1" if ins.needs_modulus else "1'b0"
        lines.append(f"      Op{camel(ins.name)}:{' ' * (8 - len(camel(ins.name)))}attr = '{{known: 1'b1, "
                     f"needs_modulus: {modulus}}};")
    lines += ["      default: attr = '0;", "    endcase", "    return attr;", "  endfunction", ""]
    if not isa.registers:   # no register slots to check (the engine decodes only the opcode)
        lines += ["endpackage", ""]
        return "\n".join(lines)
    lines += ["  // The register fields each instruction allows (`regs` and `pairs`): 0 -> E_BAD_REG",
              f"  function automatic logic regs_ok(logic [{op.width - 1}:0] op, logic [{reg_width - 1}:0] rd,",
              f"                                   logic [{reg_width - 1}:0] ra, logic [{reg_width - 1}:0] rb);",
              "    logic ok;",
              "    unique case (op)"]
    for ins in isa.instructions:
        terms = [_regs_condition(ins, slot) for slot, _ in ins.regs]
        if ins.pairs:
            terms.append("(" + (" ||\n" + " " * 21).join(
                f"(ra == {reg_param(a)} && rb == {reg_param(b)})" for a, b in ins.pairs) + ")")
        if terms:
            body = " && ".join(terms)
            lines.append(f"      Op{camel(ins.name)}:{' ' * (8 - len(camel(ins.name)))}ok = {body};")
    lines += ["      default: ok = 1'b1;", "    endcase", "    return ok;", "  endfunction", "",
              "endpackage", ""]
    return "\n".join(lines)


def _regs_condition(ins: Instruction, slot: str) -> str:
    names = ins.allowed(slot) or ()
    return "(" + " || ".join(f"{slot} == {reg_param(name)}" for name in names) + ")"


def reg_param(name: str) -> str:
    """Register N -> RegN, ONE -> RegOne (the engine packages' register parameters)."""
    return "Reg" + name.capitalize()


def render_engine_doc(engine: str, isa: InstructionSet) -> str:
    """The engine's section of docs/isa.md."""
    out = [
        f"## Engine `{engine}`",
        "",
        f"From `src/montu/isa/{isa.source}`; the RTL package is `hw/ip/{engine}/rtl/{engine}_pkg.sv`.",
        "Same command/response shell and instruction-word layout as the unit. Cycles count from the",
        "accepting clock edge to the edge after which the response is valid; a command that decode",
        f"rejects answers after {isa.error_cycles} cycles and changes nothing.",
        "",
    ]
    if isa.registers:
        out += ["| register | index | what it holds |", "|---|---|---|"]
        out += [f"| `{reg.name}` | {reg.index} | {reg.doc} |" for reg in isa.registers]
        out.append("")
    out += ["| instruction | opcode | operands | cycles | errors | what it does |", "|---|---|---|---|---|---|"]
    for ins in isa.instructions:
        operands = []
        for slot in ins.uses:
            allowed = ins.allowed(slot)
            operands.append(f"{slot} ∈ {{{', '.join(allowed)}}}" if allowed else slot)
        if ins.pairs:
            operands.append("(ra, rb) ∈ " + ", ".join(f"({a}, {b})" for a, b in ins.pairs))
        cycles = _cycles_cell(isa, ins)
        if ins.range_error_cycles:
            cycles += f"; E_RANGE after `{ins.range_error_cycles}`"
        if ins.bounds:
            cycles += " — worst case with " + ", ".join(f"{k} ≤ `{v}`" for k, v in ins.bounds)
        errors = ", ".join(ins.errors) or "—"
        out.append(f"| `{ins.name}` | 0x{ins.opcode:02x} | {'; '.join(operands) or '—'} | {cycles} | "
                   f"{errors} | {ins.doc} |")
    out += ["", "| code | name | meaning |", "|---|---|---|"]
    for err in isa.errors:
        out.append(f"| {err.code} | `{err.name}` | {err.doc} |")
    out += ["", "| flag bit | name | meaning |", "|---|---|---|"]
    for flag in isa.flags:
        out.append(f"| {flag.bit} | `{flag.name}` | {flag.doc} |")
    out.append("")
    return "\n".join(out)


def ucode_package_path(engine: str = UCODE_ENGINE) -> Path:
    return REPO / "hw" / "ip" / engine / "rtl" / f"{engine}_ucode_pkg.sv"


def render_ucode_package(fmt: MicroFormat, engine: str = UCODE_ENGINE) -> str:
    """<engine>_ucode_pkg.sv: the microinstruction word (a packed struct, most significant field
    first), each field's LSB and width, and one localparam per named encoding."""
    lines = [
        f"// GENERATED from src/montu/isa/{UCODE_TABLE} by `python3 -m montu.isa.generate`.",
        "// Do not edit by hand: change the table and regenerate.",
        "",
        f"package {engine}_ucode_pkg;",
        "",
        "  // A module uses only some of these (Verilator -Wall would flag the others)",
        "  /* verilator lint_off UNUSEDPARAM */",
        "",
        "  // The microinstruction word and how the shell moves it (UCW parts of PartBits data bits)",
        f"  localparam int unsigned UcodeWidth = {fmt.width};",
        f"  localparam int unsigned UcodePartBits = {fmt.part_bits};",
        f"  localparam int unsigned UcodeParts = {fmt.parts};",
        "",
        "  // Fields: bits [Lsb + Bits - 1 : Lsb]",
    ]
    for f in fmt.fields:
        cname = camel(f.name.upper())
        lines.append(f"  localparam int unsigned Uc{cname}Lsb = {f.lsb};")
        lines.append(f"  localparam int unsigned Uc{cname}Bits = {f.bits};")
    lines += ["", "  // The microinstruction word, most significant field first", "  typedef struct packed {"]
    for f in reversed(fmt.fields):
        decl = "logic" if f.bits == 1 else f"logic [{f.bits - 1}:0]"
        bits = f"[{f.msb}]" if f.bits == 1 else f"[{f.msb}:{f.lsb}]"
        lines.append(f"    {decl + ' ' + f.name + ';':<22}// {bits} {f.doc}")
    lines += ["  } uinsn_t;"]
    for f in fmt.fields:
        if not f.values:
            continue
        lines += ["", f"  // {f.name}: {f.doc} (any other value is reserved: E_UCODE)"]
        for name, value in f.values:
            lines.append(f"  localparam logic [{f.bits - 1}:0] {camel(f.name.upper())}{camel(name)} = "
                         f"{f.bits}'d{value};")
    lines += ["", "  /* verilator lint_on UNUSEDPARAM */", "", "endpackage", ""]
    return "\n".join(lines)


def render_ucode_doc(fmt: MicroFormat, engine: str = UCODE_ENGINE) -> str:
    """The microcode section of docs/isa.md: the fields with their bits and encodings."""
    out = [
        f"## Engine `{engine}`: microinstructions",
        "",
        f"From `src/montu/isa/{UCODE_TABLE}` (the machine, its pipeline, interlocks and sequencer are",
        f"described there); the RTL package is `hw/ip/{engine}/rtl/{engine}_ucode_pkg.sv`. A",
        f"microinstruction is {fmt.width} bits, written over the shell as {fmt.parts} data words of "
        f"up to {fmt.part_bits} bits",
        "(UCW, least significant part first). A field value that names no encoding is reserved",
        "(E_UCODE when the sequencer meets it).",
        "",
        "| field | bits | encodings | what it does |",
        "|---|---|---|---|",
    ]
    for f in fmt.fields:
        bits = f"[{f.msb}]" if f.bits == 1 else f"[{f.msb}:{f.lsb}]"
        enc = ", ".join(f"{v} `{n}`" for n, v in f.values) or "—"
        out.append(f"| `{f.name}` | {bits} | {enc} | {f.doc} |")
    out.append("")
    return "\n".join(out)


def outputs() -> dict[Path, str]:
    isa = load()
    doc = render_doc(isa)
    files = {PKG_PATH: render_package(isa)}
    for engine in ENGINE_TABLES:
        engine_isa = load_engine(engine)
        files[engine_package_path(engine)] = render_engine_package(engine, engine_isa)
        doc += "\n" + render_engine_doc(engine, engine_isa)
        if engine == UCODE_ENGINE:
            fmt = load_format()
            files[ucode_package_path(engine)] = render_ucode_package(fmt, engine)
            doc += "\n" + render_ucode_doc(fmt, engine)
    soc = load_soc()
    files.update(generate_soc.outputs(isa, soc))
    doc += "\n" + generate_soc.render_soc_doc(soc)
    files[DOC_PATH] = doc
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the files are current")
    args = parser.parse_args(argv)
    stale = []
    for path, text in outputs().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("out of date (run python3 -m montu.isa.generate): " + ", ".join(str(p) for p in stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
