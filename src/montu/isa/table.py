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
class Instruction:
    name: str
    opcode: int
    uses: tuple[str, ...]
    doc: str
    errors: tuple[str, ...]
    cycles: str
    bounds: tuple[tuple[str, str], ...] = ()  # data-dependent variables -> worst-case formula
    cycles_as: str | None = None  # the instruction whose formula this one shares (`cycles: "=NAME"`)

    def cycle_count(self, **variables: int) -> int:
        """Evaluate this instruction's cycle formula (the RTL's timing model)."""
        return evaluate_formula(self.cycles, variables)

    def worst_case_cycles(self, **variables: int) -> int:
        """The cycle formula with every data-dependent variable at its documented bound."""
        values = dict(variables)
        for name, formula in self.bounds:
            values[name] = evaluate_formula(formula, variables)
        return evaluate_formula(self.cycles, values)


@dataclass(frozen=True)
class InstructionSet:
    width: int
    slots: dict[str, Slot]
    error_cycles: int
    flags: tuple[Flag, ...]
    errors: tuple[ErrorCode, ...]
    instructions: tuple[Instruction, ...]

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


_ALLOWED_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Load,
                  ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.USub, ast.Call,
                  ast.IfExp, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_FUNCTIONS = {"max": max, "min": min, "ceil_div": lambda a, b: -(-a // b), "log2": lambda a: int(math.log2(a))}


def evaluate_formula(formula: str, variables: dict[str, int]) -> int:
    """Evaluate a cycle formula: integer arithmetic, max/min/ceil_div/log2, `a if c else b`."""
    tree = ast.parse(formula, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            raise ValueError(f"cycle formula {formula!r} uses {type(node).__name__}, which is not allowed")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS):
            raise ValueError(f"cycle formula {formula!r} calls an unknown function")
    value = eval(compile(tree, "<cycles>", "eval"), {"__builtins__": {}, **_FUNCTIONS}, dict(variables))
    if not isinstance(value, int):
        raise ValueError(f"cycle formula {formula!r} gave {value!r}, not an integer")
    return value


def _parse(raw: dict) -> InstructionSet:
    slots = {name: Slot(name, hi, lo) for name, (hi, lo) in raw["encoding"]["slots"].items()}
    instructions = tuple(
        Instruction(
            name=i["name"],
            opcode=int(i["opcode"]),
            uses=tuple(i.get("uses", [])),
            doc=" ".join(i["doc"].split()),
            errors=tuple(i.get("errors", [])),
            cycles=str(i["cycles"]),
            bounds=tuple((k, str(v)) for k, v in i.get("bounds", {}).items()),
        )
        for i in raw["instructions"]
    )
    # `cycles: "=NAME"`: the same timing as instruction NAME (one formula, one place)
    named = {i.name: i for i in instructions}
    for i, ins in enumerate(instructions):
        if ins.cycles.startswith("="):
            target = named.get(ins.cycles[1:].strip())
            if target is None or target.cycles.startswith("="):
                raise ValueError(f"instructions.yaml: {ins.name} cycles refer to {ins.cycles[1:]!r}, "
                                 "which is not an instruction with its own formula")
            instructions = instructions[:i] + (dataclasses.replace(
                ins, cycles=target.cycles, bounds=target.bounds, cycles_as=target.name),) + instructions[i + 1:]
    isa = InstructionSet(
        width=int(raw["encoding"]["width"]),
        slots=slots,
        error_cycles=int(raw["error_cycles"]),
        flags=tuple(Flag(f["name"], int(f["bit"]), f["doc"]) for f in raw["flags"]),
        errors=tuple(ErrorCode(e["name"], int(e["code"]), e["doc"]) for e in raw["errors"]),
        instructions=instructions,
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


@functools.cache
def load() -> InstructionSet:
    """The instruction set of the Montu unit, from the packaged instructions.yaml."""
    text = resources.files("montu.isa").joinpath(TABLE_FILE).read_text(encoding="utf-8")
    return _parse(yaml.safe_load(text))
