"""Setting the unit up for one modulus and moving values in and out of named registers."""

from __future__ import annotations

from collections.abc import Sequence

from montu.arith.field import Field
from montu.driver import Unit
from montu.ec.program import Registers, execute
from montu.isa import Response


class FieldSession:
    """The unit configured for modulus `modulus` (R0) with R² mod modulus in register `r2`.

    Uses the driver's `_load_modulus` (SETMMI, WMMI into R0, SETMOD) and `_load_r2` (R² computed
    on the unit once per modulus, then reloaded), so the constants are the unit's own.
    """

    def __init__(self, unit: Unit, modulus: int, field: Field, regs: Registers, r2: str = "R2"):
        self.unit = unit
        self.regs = regs
        self.field = Field(field)
        self.k = unit._load_modulus(modulus, field)  # noqa: SLF001 (driver helper, see report)
        unit._load_r2(regs[r2], modulus, field, self.k)  # noqa: SLF001

    @property
    def length_bits(self) -> int:
        return 64 * self.k

    def execute(self, commands: Sequence[tuple[int, int]], what: str) -> list[Response]:
        """Run a straight-line program at this session's length and field: `program.execute`,
        with independent products paired where that pays on the unit."""
        return execute(self.unit, commands, what, k=self.k, field=self.field)

    def write(self, name: str, value: int) -> None:
        self.unit.write(self.regs[name], value, self.k)

    def read(self, name: str) -> int:
        return self.unit.read(self.regs[name], self.k)


def flag_words(flags: list[int], length_bits: int) -> list[int]:
    """Pack a flag sequence (first flag first) into L-bit register values that SHL1 empties from the
    top bit down: word j holds flags[j·L : (j+1)·L], the first of them at bit L-1."""
    words = []
    for start in range(0, len(flags), length_bits):
        chunk = flags[start:start + length_bits]
        value = 0
        for bit in chunk:
            value = (value << 1) | bit
        words.append(value << (length_bits - len(chunk)))
    return words


def ladder_flags(scalar: int, steps: int) -> list[int]:
    """Swap flags of a Montgomery ladder with lazy swaps for a scalar of exactly steps+1 bits.

    The top bit (1) is the ladder's start (R0 = P, R1 = 2P); bits steps-1 … 0 are the steps. Step i
    swaps the two points when b_i differs from the previous step's bit (f_i = b_i XOR b_(i+1), with
    the start counted as 0), and a last swap by b_0 puts R0 back in place: steps + 1 flags.
    """
    if scalar >> steps != 1:
        raise ValueError("ladder scalar must have exactly steps + 1 bits")
    flags, previous = [], 0
    for i in range(steps - 1, -1, -1):
        bit = (scalar >> i) & 1
        flags.append(bit ^ previous)
        previous = bit
    flags.append(previous)
    return flags


def fixed_length_scalar(k: int, n: int) -> int:
    """k + n or k + 2n, whichever has exactly bits(n) + 1 bits: the same multiple of a point of
    order n, with a ladder length that does not depend on k (for 0 ≤ k < n)."""
    bits = n.bit_length()
    k1 = k + n
    return k1 + (1 - (k1 >> bits)) * n  # k1 >> bits is 1 when k + n already has bits(n) + 1 bits


def add_affine(unit: Unit, curve, field: Field, registers: Registers, programs,
               p1: tuple[int, int] | None, p2: tuple[int, int] | None,
               two_torsion_coordinate: int) -> tuple[int, int] | None:
    """p1 + p2 for PUBLIC affine points (None = infinity) on the unit, shared by both fields.

    programs = (compare x, compare y, add, double) for registers XA YA XB YB A; a point whose
    coordinate `two_torsion_coordinate` (0: x, 1: y) is 0 has order 2, so doubling it gives
    infinity (GF(2^m): x = 0; GF(p): y = 0). The branches follow public data only."""
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    session = FieldSession(unit, curve.modulus, field, registers)
    cmp, cmp_y, add, dbl = programs
    session.write("XA", p1[0])
    session.write("YA", p1[1])
    session.write("XB", p2[0])
    session.write("YB", p2[1])
    session.write("A", curve.a)
    if session.execute(cmp.commands, "point comparison")[-1].flags >> 1 & 1:
        if not session.execute(cmp_y.commands, "point comparison")[-1].flags >> 1 & 1:
            return None                       # P + (−P)
        if p1[two_torsion_coordinate] == 0:
            return None                       # a point of order 2, doubled
        session.execute(dbl.commands, f"{curve.name} point doubling")
    else:
        session.execute(add.commands, f"{curve.name} point addition")
    return session.read("XA"), session.read("YA")
