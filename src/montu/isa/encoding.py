"""Instruction words and responses of the Montu unit's command/response ports."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from montu.isa.table import load


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


def encode(name: str, *, rd: int = 0, ra: int = 0, rb: int = 0, f: int = 0, imm: int = 0) -> int:
    """Instruction word of `name` with its slots filled (unused slots stay 0)."""
    isa = load()
    ins = isa.by_name[name]
    word = 0
    values = {"op": ins.opcode, "rd": rd, "ra": ra, "rb": rb, "f": f, "imm": imm}
    for slot_name, value in values.items():
        slot = isa.slots[slot_name]
        if not 0 <= value < (1 << slot.width):
            raise ValueError(f"{name}: {slot_name}={value} does not fit the {slot.width}-bit slot")
        word |= value << slot.lsb
    return word


def decode_slots(insn: int) -> dict[str, int]:
    """Split an instruction word into its slots (op, rd, ra, rb, f, imm)."""
    return {name: (insn >> lsb) & mask for name, lsb, mask in _slot_fields()}


@functools.cache
def _slot_fields() -> tuple[tuple[str, int, int], ...]:
    return tuple((s.name, s.lsb, (1 << s.width) - 1) for s in load().slots.values())
