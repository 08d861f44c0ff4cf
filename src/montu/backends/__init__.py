"""The backends a `montu.Unit` runs on, all with one interface (`execute`, `execute_many`):

    sim         montu.backends.sim        the instruction-level, cycle-exact simulator (default)
    rtl         montu.backends.verilator  the Verilated RTL of the unit, driven in-process

Both are built from one `montu.config.UnitConfig`; they must give identical responses (error,
flags, data, cycles) to every command stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from montu.config import UnitConfig
from montu.errors import MontuError
from montu.isa import Response

NAMES = ("sim", "rtl")


class Backend(Protocol):
    def execute(self, insn: int, data: int = 0) -> Response: ...
    def execute_many(self, commands: Sequence[tuple[int, int]]) -> list[Response]: ...


class UnknownBackend(MontuError, ValueError):
    """A backend name that is not one of NAMES."""


def open_backend(name: str, config: UnitConfig) -> Backend:
    """A fresh unit of `config` on backend `name` ('sim' or 'rtl')."""
    if name == "sim":
        from montu.backends.sim import Simulator

        return Simulator(config=config)
    if name == "rtl":
        from montu.backends.verilator import RtlModel

        return RtlModel(word_bits=config.word_bits, lanes=config.lanes, max_bits=config.max_bits,
                        num_regs=config.num_regs, pipelined=config.pipelined, engine=config.engine)
    raise UnknownBackend(f"unknown backend {name!r}: choose {' or '.join(repr(n) for n in NAMES)}")
