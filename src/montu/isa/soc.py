"""The SoC's custom-instruction table (soc.yaml): CVA6 <-> Montu over CV-X-IF."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import yaml

SOC_TABLE = Path(__file__).with_name("soc.yaml")


@dataclass(frozen=True)
class SocInstruction:
    name: str
    funct3: int
    side_effect: bool
    writes_rd: bool
    doc: str


@dataclass(frozen=True)
class Named:
    name: str
    value: int
    doc: str


@dataclass(frozen=True)
class StatusField:
    name: str
    high: int
    low: int
    doc: str


@dataclass(frozen=True)
class SocTable:
    opcode: int
    funct7: int
    instructions: tuple[SocInstruction, ...]
    counters: tuple[Named, ...]
    errors: tuple[Named, ...]
    status: tuple[StatusField, ...]
    ring_depth: int
    fifo_depth: int

    def funct3(self, name: str) -> int:
        return next(i.funct3 for i in self.instructions if i.name == name)


@functools.cache
def load_soc() -> SocTable:
    raw = yaml.safe_load(SOC_TABLE.read_text())
    table = SocTable(
        opcode=raw["opcode"], funct7=raw["funct7"],
        instructions=tuple(SocInstruction(**i) for i in raw["instructions"]),
        counters=tuple(Named(c["name"], c["index"], c["doc"]) for c in raw["counters"]),
        errors=tuple(Named(e["name"], e["code"], e["doc"]) for e in raw["errors"]),
        status=tuple(StatusField(s["name"], s["bits"][0], s["bits"][1], s["doc"]) for s in raw["status"]),
        ring_depth=raw["ring_depth"], fifo_depth=raw["fifo_depth"])
    functs = [i.funct3 for i in table.instructions]
    if len(set(functs)) != len(functs) or not all(0 <= f < 8 for f in functs):
        raise ValueError(f"{SOC_TABLE.name}: funct3 values must be distinct and in 0 .. 7")
    return table
