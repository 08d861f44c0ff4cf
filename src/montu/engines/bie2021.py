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
        self._point_cycles: tuple[int, int] | None = None   # (last, core) of scalar_mult

    @property
    def last_cycles(self) -> int:
        return self._point_cycles[0] if self._point_cycles else self.unit.last_cycles

    @property
    def core_cycles(self) -> int:
        return self._point_cycles[1] if self._point_cycles else self.unit.last_core_cycles

    def mod_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        self._point_cycles = None
        return self.unit.mod_mul(x, y, n, field)

    def mont_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        self._point_cycles = None
        return self.unit.mont_mul(x, y, n, field)

    def mod_exp(self, base: int, exponent: int, n: int) -> int:
        self._point_cycles = None
        return self.unit.mod_exp(base, exponent, n)

    def mod_inv(self, a: int, n: int, field: Field = Field.GFP) -> int:
        self._point_cycles = None
        return self.unit.mod_inv(a, n, field)

    @property
    def max_bits(self) -> int:
        return self.unit.max_bits

    def scalar_mult(self, curve: str, k: int, point: tuple[int, int] | None = None) -> tuple[int, int]:
        """k·P on a named curve (P: the generator unless given), constant time (montu.ec.points
        .multiply); last_cycles counts it (core_cycles: its Montgomery multiplications)."""
        from montu.ec import get_curve, points

        chosen = get_curve(curve)
        before, core_before = self.unit.total_cycles, self.unit.total_core_cycles
        result = points.multiply(self.unit, chosen, k, point or chosen.generator)
        self._point_cycles = (self.unit.total_cycles - before,
                              self.unit.total_core_cycles - core_before)
        return result


def open(backend: str = "sim", **params) -> Bie2021Engine:  # noqa: A001 (the registry's name)
    """The unit on `backend` with `params` (word_bits, lanes, max_bits, num_regs, pipelined)."""
    return Bie2021Engine(Unit(backend=backend, **params))
