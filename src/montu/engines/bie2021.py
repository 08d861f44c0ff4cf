"""The bie2021 engine: the Montu unit itself, behind the engine contract's interface."""

from __future__ import annotations

from montu.arith.field import Field
from montu.driver import Unit


class Bie2021Engine:
    """`montu.Unit` with the engine contract's names: mod_mul, mod_exp, mod_inv, mont_mul (the
    paper's primitive, STARTMMI), last_cycles (the whole call, loads and reads included) and
    core_cycles (its Montgomery multiplications alone)."""

    name = "bie2021"

    def __init__(self, unit: Unit):
        self.unit = unit

    @property
    def last_cycles(self) -> int:
        return self.unit.last_cycles

    @property
    def core_cycles(self) -> int:
        return self.unit.last_core_cycles

    def mod_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        return self.unit.mod_mul(x, y, n, field)

    def mont_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        return self.unit.mont_mul(x, y, n, field)

    def mod_exp(self, base: int, exponent: int, n: int) -> int:
        return self.unit.mod_exp(base, exponent, n)

    def mod_inv(self, a: int, n: int, field: Field = Field.GFP) -> int:
        return self.unit.mod_inv(a, n, field)


def open(backend: str = "sim", **params) -> Bie2021Engine:  # noqa: A001 (the registry's name)
    """The unit on `backend` with `params` (word_bits, lanes, max_bits, num_regs, pipelined)."""
    return Bie2021Engine(Unit(backend=backend, **params))
