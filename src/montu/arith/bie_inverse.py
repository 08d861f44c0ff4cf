"""Bie et al. 2021, Alg. 3: dual-field binary extended-Euclid inversion, and Table 1's rules for
signed add/subtract on the unit's unsigned adder.

Invariants kept exactly (· and + are GF(2)[x] operations in GF(2^m)):
    A·x + B·y = u,   C·x + D·y = v,
with x the modulus and y the value to invert. At the end u = 0 and v = gcd(x, y), so
D·y ≡ v (mod x) and D = y^−1 mod x when v = 1.

Helpers here take validated operands; montu.arith.bie checks the inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

from montu.arith.field import Field
from montu.errors import NoInverse

WORD_BITS = 64
REGISTER_BITS = 576


# --------------------------------------------------------------------------- Table 1 (GF(p))


@dataclass(frozen=True)
class SignedSum:
    """Result of a ± b on a width-bit unsigned adder, in the unit's sign/carry registers.

    z is the adder's width-bit output, carry its carry-out J, sign the result's sign bit by
    Table 1, and shift_in the bit a following right shift moves into z's top (the carry J after
    an effective addition, the sign after an effective subtraction). The value is
    z + shift_in·2^width − sign·2^(width+1).
    """

    z: int
    carry: int
    sign: int
    shift_in: int
    width: int

    @property
    def value(self) -> int:
        return self.z + (self.shift_in << self.width) - (self.sign << (self.width + 1))


def table1_add_sub(a: int, b: int, subtract: bool, width: int) -> SignedSum:
    """a + b or a − b for signed a, b in [−2^width, 2^width), as the unit computes it.

    Each operand is held as a sign bit and a width-bit two's-complement word. The adder forms
    z_a + z_b or z_a + ~z_b + 1, giving (J, Z). P = 1 marks an effective addition (equal signs
    for +, different signs for −). Result sign, from §4.1: S = ~(J | P) | (a_sym & P), i.e. the
    sign of a after an effective addition, ~J after an effective subtraction. This reproduces
    Table 1 row by row (its "J" in the sign column is to be read "given by J", namely ~J).
    """
    limit = 1 << width
    if not (-limit <= a < limit and -limit <= b < limit):
        raise ValueError(f"operands must fit a {width}-bit word plus sign")
    mask = limit - 1
    a_sym, b_sym = int(a < 0), int(b < 0)
    z_a, z_b = a & mask, b & mask
    raw = z_a + ((~z_b & mask) + 1 if subtract else z_b)
    carry, z = raw >> width, raw & mask  # for z_b = 0, ~0 + 1 = 2^width: J = 1, Z = z_a
    effective_add = int((a_sym != b_sym) if subtract else (a_sym == b_sym))
    sign = (1 - (carry | effective_add)) | (a_sym & effective_add)
    shift_in = carry if effective_add else sign
    return SignedSum(z, carry, sign, shift_in, width)


def halve(result: SignedSum) -> int:
    """The arithmetic right shift of a SignedSum: shift_in enters the word's top bit."""
    assert result.z & 1 == 0, "only even values are halved"
    z = (result.z >> 1) | (result.shift_in << (result.width - 1))
    return z - (result.sign << result.width)


def halve_register(value: int, width: int) -> int:
    """≫1 of a register holding sign + width-bit two's complement (the sign is shifted in)."""
    assert value & 1 == 0
    mask = (1 << width) - 1
    sign = int(value < 0)
    z = ((value & mask) >> 1) | (sign << (width - 1))
    return z - (sign << width)


# --------------------------------------------------------------------------- Alg. 3


@dataclass
class InverseCounts:
    """Events of one Alg. 3 run, priced by inverse_cycles()."""

    iterations: int = 0
    equality_checks: int = 0
    halvings: int = 0
    halving_adds: int = 0
    subtractions: int = 0
    corrections: int = 0
    final_fix: int = 0


@dataclass
class _Registers:
    u: int
    v: int
    a: int
    b: int
    c: int
    d: int


def binary_extended_euclid(x: int, y: int, field: Field, width: int,
                           repeat_halving: bool | None = None) -> tuple[int, InverseCounts]:
    """Alg. 3: y^−1 mod x, or NoInverse. width: register word length L in bits.

    repeat_halving: whether lines 19/30 loop back while u (v) stays even. Default: yes in GF(p),
    one halving per pass in GF(2^m) (our reading; docs/algorithms.md explains it).
    """
    gfp = field == Field.GFP
    if repeat_halving is None:
        repeat_halving = gfp
    counts = InverseCounts()
    if x & 1 == 0 and y & 1 == 0:  # lines 3–5
        raise NoInverse(_no_inverse_message(field, "both are even, so gcd ≠ 1"))
    if y == 0:
        raise NoInverse(_no_inverse_message(field, "the value is 0, so gcd = modulus ≠ 1"))
    reg = _Registers(u=x, v=y, a=1, b=0, c=0, d=1)  # line 6
    while True:
        counts.equality_checks += 1
        if reg.u == 0:  # line 7
            break
        counts.iterations += 1
        _halving_block(reg, "u", x, y, gfp, width, repeat_halving, counts)  # lines 8–21
        _halving_block(reg, "v", x, y, gfp, width, repeat_halving, counts)  # lines 22–32
        _subtraction_step(reg, x, y, gfp, width, counts)  # lines 33–43
        _check_invariants(reg, x, y, gfp)
    counts.equality_checks += 1
    if reg.v != 1:  # line 45
        raise NoInverse(_no_inverse_message(field, f"gcd = {_gcd_text(reg.v, field)} ≠ 1"))
    result = reg.d
    if gfp and result < 0:  # line 46, read as D < 0 (D = 0 is impossible for x ≥ 2)
        result = table1_add_sub(x, result, False, width).value
        counts.final_fix = 1
    return result, counts


def _halving_block(reg: _Registers, name: str, x: int, y: int, gfp: bool, width: int,
                   repeat: bool, counts: InverseCounts) -> None:
    """Lines 8–18 (u with A, B) or 22–29 (v with C, D), repeated by lines 19/30 while even."""
    coeff_x, coeff_y = ("a", "b") if name == "u" else ("c", "d")
    while getattr(reg, name) & 1 == 0:
        setattr(reg, name, getattr(reg, name) >> 1)
        counts.halvings += 1
        p, q = getattr(reg, coeff_x), getattr(reg, coeff_y)
        if p & 1 == 0 and q & 1 == 0:
            p, q = (halve_register(p, width), halve_register(q, width)) if gfp else (p >> 1, q >> 1)
        else:
            counts.halving_adds += 1
            if gfp:  # (A + y) ≫ 1 and (B − x) ≫ 1 on ways a and b
                p = halve(table1_add_sub(p, y, False, width))
                q = halve(table1_add_sub(q, x, True, width))
            else:
                p, q = (p ^ y) >> 1, (q ^ x) >> 1
        setattr(reg, coeff_x, p)
        setattr(reg, coeff_y, q)
        if not repeat:
            break


def _subtraction_step(reg: _Registers, x: int, y: int, gfp: bool, width: int,
                      counts: InverseCounts) -> None:
    """Lines 33–43: subtract the smaller of u, v from the larger, with its coefficients; in
    GF(p) bring the new y-coefficient back into (−x, x) (lines 36/41)."""
    counts.subtractions += 1
    if reg.u >= reg.v:
        reg.u, reg.a, reg.b = _sub_row(reg.u, reg.v, reg.a, reg.c, reg.b, reg.d, gfp, width)
        if gfp:
            reg.a, reg.b = _reduce_pair(reg.a, reg.b, x, y, width, counts)
    else:
        reg.v, reg.c, reg.d = _sub_row(reg.v, reg.u, reg.c, reg.a, reg.d, reg.b, gfp, width)
        if gfp:
            reg.c, reg.d = _reduce_pair(reg.c, reg.d, x, y, width, counts)


def _sub_row(big: int, small: int, p1: int, p2: int, q1: int, q2: int, gfp: bool,
             width: int) -> tuple[int, int, int]:
    if not gfp:
        return big ^ small, p1 ^ p2, q1 ^ q2
    return (big - small, table1_add_sub(p1, p2, True, width).value,
            table1_add_sub(q1, q2, True, width).value)


def _reduce_pair(p: int, q: int, x: int, y: int, width: int,
                 counts: InverseCounts) -> tuple[int, int]:
    """Lines 36/41 "A = A mod x, B = B mod x", read so the invariant p·x + q·y = u survives:
    q ∈ (−2x, 2x) moves into (−x, x) by q ∓ x, and p moves by ± y with it.

    The operands may need one bit beyond the register (the stored carry), hence width + 1.
    """
    if q >= x:
        counts.corrections += 1
        return (table1_add_sub(p, y, False, width + 1).value,
                table1_add_sub(q, x, True, width + 1).value)
    if q <= -x:
        counts.corrections += 1
        return (table1_add_sub(p, y, True, width + 1).value,
                table1_add_sub(q, x, False, width + 1).value)
    return p, q


def _check_invariants(reg: _Registers, x: int, y: int, gfp: bool) -> None:
    if gfp:
        assert reg.a * x + reg.b * y == reg.u and reg.c * x + reg.d * y == reg.v
        assert -x < reg.b < x and -x < reg.d < x


def _no_inverse_message(field: Field, reason: str) -> str:
    what = "integer" if field == Field.GFP else "polynomial"
    return f"the {what} has no inverse modulo the modulus: {reason}"


def _gcd_text(g: int, field: Field) -> str:
    return str(g) if field == Field.GFP else f"a degree-{g.bit_length() - 1} polynomial"


def inverse_cycles(counts: InverseCounts, words: int, field: Field) -> dict[str, int]:
    """Cycle estimate of the paper's unit for one Alg. 3 run on `words` 64-bit words.

    Within the 576-bit shift registers an equality test and a shift take 1 cycle; beyond them
    each takes one cycle per word plus one prefetch cycle. An add/sub pass over the words takes
    words cycles (+1 prefetch from SRAM), ways a and b running two of them side by side.
    A subtraction step is two passes (u ⊖ v with its compare; A ⊖ C ‖ B ⊖ D), plus in GF(p)
    a third for the coefficient correction, which the unit must compute to decide it.
    """
    sram = words * WORD_BITS > REGISTER_BITS
    pass_cycles = words + (1 if sram else 0)
    equality = pass_cycles if sram else 1
    shift = pass_cycles if sram else 1
    passes_per_subtraction = 3 if field == Field.GFP else 2
    parts = {
        "equality_cycles": counts.equality_checks * equality,
        "shift_cycles": counts.halvings * shift,
        "halving_add_cycles": counts.halving_adds * pass_cycles,
        "subtraction_cycles": counts.subtractions * passes_per_subtraction * pass_cycles,
        "final_fix_cycles": counts.final_fix * pass_cycles,
    }
    parts["cycles"] = sum(parts.values())
    return parts
