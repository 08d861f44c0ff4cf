"""Load the ONE instruction table (instructions.yaml) into typed objects.

Everything that knows about opcodes, fields, error codes, flags or cycle formulas reads them from
here: the simulator's decoder, the RTL package generator and the docs generator.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import math
from dataclasses import dataclass
from importlib import resources

import yaml

from montu.config import DEFAULT_ENGINE

TABLE_FILE = "instructions.yaml"


@dataclass(frozen=True)
class Slot:
    name: str
    msb: int
    lsb: int

    @property
    def width(self) -> int:
        return self.msb - self.lsb + 1


@dataclass(frozen=True)
class ErrorCode:
    name: str
    code: int
    doc: str


@dataclass(frozen=True)
class Flag:
    name: str
    bit: int
    doc: str


@dataclass(frozen=True)
class CycleCase:
    """One case of a cycle formula: `formula` applies when `when` holds (None: always)."""

    when: str | None
    formula: str


@dataclass(frozen=True)
class Timing:
    """An instruction's cycle formula for each multiplier engine of the unit ("*": any engine);
    per engine, the first case whose condition holds gives the cycles."""

    by_engine: tuple[tuple[str, tuple[CycleCase, ...]], ...]

    def cases(self, engine: str) -> tuple[CycleCase, ...]:
        table = dict(self.by_engine)
        if engine in table:
            return table[engine]
        if "*" in table:
            return table["*"]
        raise ValueError(f"no cycle formula for engine {engine!r} (has: {', '.join(table)})")

    def evaluate(self, engine: str, variables: dict[str, int]) -> int:
        for case in self.cases(engine):
            if case.when is None or evaluate_condition(case.when, variables):
                return evaluate_formula(case.formula, variables)
        raise ValueError(f"no case of the cycle formula for engine {engine!r} applies")

    def text(self, engine: str = DEFAULT_ENGINE) -> str:
        """The formula as one line: `a if c else b` chains, for documentation."""
        cases = self.cases(engine)
        parts = [f"{c.formula} if {c.when}" if c.when else c.formula for c in cases]
        return " else ".join(parts)


@dataclass(frozen=True)
class Instruction:
    name: str
    opcode: int
    uses: tuple[str, ...]
    doc: str
    errors: tuple[str, ...]
    timing: Timing
    bounds: tuple[tuple[str, str], ...] = ()  # data-dependent variables -> worst-case formula
    state: tuple[tuple[str, int], ...] = ()   # unit-state variables of the formula -> their default
    cycles_as: str | None = None  # the instruction whose formula this one shares (`cycles: "=NAME"`)
    imm_rule: str | None = None   # how imm is checked (`imm_rules` of the table), if it is
    table: str | None = None      # the register slot that starts a 2^imm-register table (MMX)
    # Engine tables (montu.engines): named registers instead of a register file.
    regs: tuple[tuple[str, tuple[str, ...]], ...] = ()   # slot -> the registers allowed there
    pairs: tuple[tuple[str, str], ...] = ()              # the allowed (ra, rb) combinations
    range_error_cycles: str | None = None                # when E_RANGE is found after decode

    def allowed(self, slot: str) -> tuple[str, ...] | None:
        """The registers allowed in `slot` (`regs`, or the `pairs` for ra/rb), None if unlisted."""
        for name, registers in self.regs:
            if name == slot:
                return registers
        if self.pairs and slot in ("ra", "rb"):
            index = 0 if slot == "ra" else 1
            return tuple(dict.fromkeys(pair[index] for pair in self.pairs))
        return None

    @property
    def cycles(self) -> str:
        """The cycle formula of the default engine as one expression (documentation)."""
        return self.timing.text()

    @property
    def needs_modulus(self) -> bool:
        """Runs only after a valid SETMOD (it lists E_NO_MODULUS)."""
        return "E_NO_MODULUS" in self.errors

    def cycle_count(self, engine: str = DEFAULT_ENGINE, **variables: int) -> int:
        """Evaluate this instruction's cycle formula (the RTL's timing model) for `engine`; a
        unit-state variable (`state`, e.g. STARTMMI's `paired`) not given takes its default."""
        return self.timing.evaluate(engine, {**dict(self.state), **variables})

    def worst_case_cycles(self, engine: str = DEFAULT_ENGINE, **variables: int) -> int:
        """The cycle formula with every data-dependent variable at its documented bound."""
        values = {**dict(self.state), **variables}
        for name, formula in self.bounds:
            values[name] = evaluate_formula(formula, variables)
        return self.timing.evaluate(engine, values)


# The imm checks the simulator and the RTL generator know how to apply (their bounds come from
# the table): an integer range, one range per signed nibble, and the length (1 .. MaxBits / 64).
KNOWN_IMM_RULES = ("length", "window", "small_constants")


@dataclass(frozen=True)
class ImmRule:
    """A check of the imm slot shared by the simulator and the RTL decoder (montu_pkg.sv)."""

    name: str
    error: str
    doc: str
    min: int
    max: int | None = None   # None: set by the build (length: MaxBits / 64)

    def accepts(self, imm: int, max_length: int | None = None) -> bool:
        """Whether imm passes this rule (`max_length`: MaxBits / 64, for the length rule)."""
        if self.name == "small_constants":
            nibbles = [((imm >> shift) & 0xF) - (16 if (imm >> shift) & 0x8 else 0) for shift in (0, 4)]
            return all(self.min <= c <= self.max for c in nibbles)
        top = self.max if self.max is not None else max_length
        if top is None:
            raise ValueError(f"imm rule {self.name} needs the build's maximum")
        return self.min <= imm <= top


@dataclass(frozen=True)
class Register:
    """A named register of an engine (the value of a register slot that selects it)."""

    name: str
    index: int
    doc: str


@dataclass(frozen=True)
class InstructionSet:
    width: int
    slots: dict[str, Slot]
    error_cycles: int
    flags: tuple[Flag, ...]
    errors: tuple[ErrorCode, ...]
    instructions: tuple[Instruction, ...]
    imm_rules: tuple[ImmRule, ...] = ()
    engines: tuple[str, ...] = (DEFAULT_ENGINE,)
    registers: tuple[Register, ...] = ()   # engine tables: the named registers
    source: str = TABLE_FILE               # the table file this set was read from

    @functools.cached_property
    def register_index(self) -> dict[str, int]:
        return {r.name: r.index for r in self.registers}

    @functools.cached_property
    def by_name(self) -> dict[str, Instruction]:
        return {i.name: i for i in self.instructions}

    @functools.cached_property
    def by_opcode(self) -> dict[int, Instruction]:
        return {i.opcode: i for i in self.instructions}

    @functools.cached_property
    def error_code(self) -> dict[str, int]:
        return {e.name: e.code for e in self.errors}

    @functools.cached_property
    def flag_bit(self) -> dict[str, int]:
        return {f.name: f.bit for f in self.flags}

    @functools.cached_property
    def imm_rule(self) -> dict[str, ImmRule]:
        return {r.name: r for r in self.imm_rules}


_ALLOWED_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Load,
                  ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.USub, ast.Call,
                  ast.IfExp, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
                  ast.BoolOp, ast.And, ast.Or, ast.Not)
_FUNCTIONS = {"max": max, "min": min, "ceil_div": lambda a, b: -(-a // b), "log2": lambda a: int(math.log2(a))}


def _evaluate(expression: str, variables: dict[str, int]) -> object:
    tree = ast.parse(expression, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            raise ValueError(f"cycle formula {expression!r} uses {type(node).__name__}, which is not allowed")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS):
            raise ValueError(f"cycle formula {expression!r} calls an unknown function")
    return eval(compile(tree, "<cycles>", "eval"), {"__builtins__": {}, **_FUNCTIONS}, dict(variables))


def evaluate_formula(formula: str, variables: dict[str, int]) -> int:
    """Evaluate a cycle formula: integer arithmetic, max/min/ceil_div/log2, `a if c else b`."""
    value = _evaluate(formula, variables)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"cycle formula {formula!r} gave {value!r}, not an integer")
    return value


def evaluate_condition(condition: str, variables: dict[str, int]) -> bool:
    """Evaluate the `when` of a cycle case (comparisons, and/or/not, the formula functions)."""
    return bool(_evaluate(condition, variables))


def _timing(raw: object, where: str) -> Timing:
    """`cycles:` as a formula (every engine), a list of {when, is} cases, or a mapping from
    engine to either."""
    def cases(value: object) -> tuple[CycleCase, ...]:
        if isinstance(value, (str, int)):
            return (CycleCase(None, str(value)),)
        if isinstance(value, list) and value and all(isinstance(c, dict) and "is" in c for c in value):
            out = tuple(CycleCase(c.get("when"), str(c["is"])) for c in value)
            if out[-1].when is not None:
                raise ValueError(f"instructions.yaml: {where}: the last cycle case needs no `when`")
            return out
        raise ValueError(f"instructions.yaml: {where}: cycles must be a formula or a list of "
                         f"{{when, is}} cases")
    if isinstance(raw, dict):
        return Timing(tuple((engine, cases(value)) for engine, value in raw.items()))
    return Timing((("*", cases(raw)),))


def _parse(raw: dict, source: str = TABLE_FILE) -> InstructionSet:
    slots = {name: Slot(name, hi, lo) for name, (hi, lo) in raw["encoding"]["slots"].items()}
    instructions = tuple(
        Instruction(
            name=i["name"],
            opcode=int(i["opcode"]),
            uses=tuple(i.get("uses", [])),
            doc=" ".join(i["doc"].split()),
            errors=tuple(i.get("errors", [])),
            timing=_timing(i["cycles"], i["name"]),
            bounds=tuple((k, str(v)) for k, v in i.get("bounds", {}).items()),
            state=tuple((k, int(v)) for k, v in i.get("state", {}).items()),
            cycles_as=(str(i["cycles"])[1:].strip() if isinstance(i["cycles"], str)
                       and i["cycles"].startswith("=") else None),
            imm_rule=i.get("imm_rule"),
            table=i.get("table"),
            regs=tuple((slot, tuple(names)) for slot, names in i.get("regs", {}).items()),
            pairs=tuple((a, b) for a, b in i.get("pairs", [])),
            range_error_cycles=(None if i.get("range_error_cycles") is None
                                else str(i["range_error_cycles"])),
        )
        for i in raw["instructions"]
    )
    # `cycles: "=NAME"`: the same timing as instruction NAME (one formula, one place)
    named = {i.name: i for i in instructions}
    for i, ins in enumerate(instructions):
        if ins.cycles_as is not None:
            target = named.get(ins.cycles_as)
            if target is None or target.cycles_as is not None:
                raise ValueError(f"instructions.yaml: {ins.name} cycles refer to {ins.cycles_as!r}, "
                                 "which is not an instruction with its own formula")
            instructions = instructions[:i] + (dataclasses.replace(
                ins, timing=target.timing, bounds=target.bounds, state=target.state),) + instructions[i + 1:]
    isa = InstructionSet(
        width=int(raw["encoding"]["width"]),
        slots=slots,
        error_cycles=int(raw["error_cycles"]),
        flags=tuple(Flag(f["name"], int(f["bit"]), f["doc"]) for f in raw["flags"]),
        errors=tuple(ErrorCode(e["name"], int(e["code"]), e["doc"]) for e in raw["errors"]),
        instructions=instructions,
        imm_rules=tuple(ImmRule(r["name"], r["error"], " ".join(r["doc"].split()), int(r["min"]),
                                None if r.get("max") is None else int(r["max"]))
                        for r in raw.get("imm_rules", [])),
        engines=tuple(raw.get("engines", [DEFAULT_ENGINE])),
        registers=tuple(Register(r["name"], int(r["index"]), r["doc"]) for r in raw.get("registers", [])),
        source=source,
    )
    _check(isa)
    return isa


def _check(isa: InstructionSet) -> None:
    opcodes = [i.opcode for i in isa.instructions]
    if len(set(opcodes)) != len(opcodes):
        raise ValueError("instructions.yaml: two instructions share an opcode")
    op_width = isa.slots["op"].width
    for ins in isa.instructions:
        if ins.opcode >= 1 << op_width:
            raise ValueError(f"instructions.yaml: {ins.name} opcode does not fit {op_width} bits")
        for slot in ins.uses:
            if slot not in isa.slots:
                raise ValueError(f"instructions.yaml: {ins.name} uses unknown slot {slot}")
        for err in ins.errors:
            if err not in {e.name for e in isa.errors}:
                raise ValueError(f"instructions.yaml: {ins.name} lists unknown error {err}")
        if ins.imm_rule is not None:
            rule = isa.imm_rule.get(ins.imm_rule)
            if rule is not None and rule.name not in KNOWN_IMM_RULES:
                raise ValueError(f"instructions.yaml: imm rule {rule.name} has no meaning yet "
                                 f"(known: {', '.join(KNOWN_IMM_RULES)})")
            if rule is None:
                raise ValueError(f"instructions.yaml: {ins.name} names unknown imm rule {ins.imm_rule}")
            if "imm" not in ins.uses or rule.error not in ins.errors:
                raise ValueError(f"instructions.yaml: {ins.name} checks imm by {rule.name}, so it "
                                 f"must use imm and list {rule.error}")
        if ins.table is not None and (ins.table not in ins.uses or "E_BAD_REG" not in ins.errors):
            raise ValueError(f"instructions.yaml: {ins.name}'s table slot {ins.table} must be used "
                             "and E_BAD_REG listed")
        known_registers = {r.name for r in isa.registers}
        for slot, names in ins.regs + tuple(("ra/rb", pair) for pair in ins.pairs):
            for name in names:
                if name not in known_registers:
                    raise ValueError(f"{isa.source}: {ins.name} allows unknown register {name} in {slot}")
        if (ins.regs or ins.pairs) and "E_BAD_REG" not in ins.errors:
            raise ValueError(f"{isa.source}: {ins.name} restricts registers, so it must list E_BAD_REG")
        if ins.range_error_cycles is not None and "E_RANGE" not in ins.errors:
            raise ValueError(f"{isa.source}: {ins.name} has range_error_cycles but no E_RANGE")
        for engine, _ in ins.timing.by_engine:
            if engine != "*" and engine not in isa.engines:
                raise ValueError(f"instructions.yaml: {ins.name} has cycles for unknown engine {engine}")


@functools.cache
def load(table: str = TABLE_FILE) -> InstructionSet:
    """An instruction set from its packaged table: the Montu unit's (instructions.yaml, the
    default) or an engine's (`<engine>.yaml`, e.g. yeh.yaml)."""
    text = resources.files("montu.isa").joinpath(table).read_text(encoding="utf-8")
    return _parse(yaml.safe_load(text), table)


def load_engine(engine: str) -> InstructionSet:
    """The instruction set of engine `engine` (its table `<engine>.yaml`)."""
    return load(f"{engine}.yaml")
