"""Instruction words and responses of the Montu unit's command/response ports."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from montu.isa.table import InstructionSet, load


@dataclass(frozen=True)
class Command:
    """One command: a 32-bit instruction word plus a data word (used by WMMI only)."""

    insn: int
    data: int = 0


@dataclass(frozen=True)
class Response:
    """What the unit answers to every command."""

    err: int      # error code (0: E_OK)
    flags: int    # flag register after the command (bits named in instructions.yaml)
    data: int     # RMMI word, else 0
    cycles: int   # clock cycles from command accept to response valid, as the unit counts them


def encode(name: str, *, rd: int | str = 0, ra: int | str = 0, rb: int | str = 0, f: int = 0,
           imm: int = 0, isa: InstructionSet | None = None) -> int:
    """Instruction word of `name` with its slots filled (unused slots stay 0), in the unit's
    table or in `isa` (an engine's table, whose register slots also take register names)."""
    isa = isa or load()
    ins = isa.by_name[name]
    registers = isa.register_index
    word = 0
    values = {"op": ins.opcode, "rd": rd, "ra": ra, "rb": rb, "f": f, "imm": imm}
    for slot_name, value in values.items():
        if isinstance(value, str):
            if value not in registers:
                raise ValueError(f"{name}: unknown register {value!r} in {slot_name} "
                                 f"(registers: {', '.join(registers)})")
            value = registers[value]
        slot = isa.slots[slot_name]
        if not 0 <= value < (1 << slot.width):
            raise ValueError(f"{name}: {slot_name}={value} does not fit the {slot.width}-bit slot")
        word |= value << slot.lsb
    return word


def decode_slots(insn: int, isa: InstructionSet | None = None) -> dict[str, int]:
    """Split an instruction word into its slots (op, rd, ra, rb, f, imm) of the unit's table or
    of `isa`."""
    if isa is not None:
        return {s.name: (insn >> s.lsb) & ((1 << s.width) - 1) for s in isa.slots.values()}
    return {name: (insn >> lsb) & mask for name, lsb, mask in _slot_fields()}


@functools.cache
def _slot_fields() -> tuple[tuple[str, int, int], ...]:
    return tuple((s.name, s.lsb, (1 << s.width) - 1) for s in load().slots.values())
