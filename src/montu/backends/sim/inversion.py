"""MINV as the unit runs it: bie2021 Alg. 3 (dual-field binary extended Euclid), pass by pass.

The unit keeps u, v, A, B, C, D in scratch memories and makes one word-serial *pass* over them per
step, with the invariants (over the integers in GF(p), over GF(2)[x] in GF(2^m)):

    u = A·x + B·y        v = C·x + D·y

where x is the modulus (any: even ones included) and y the value to invert. A pass takes the even
one of u, v — or, when both are odd, the difference of the larger and the smaller (the paper's
lines 33–43) — and divides it by 2^t, t = its number of trailing zeros capped at Word − 1, in one
go. Alg. 3 halves one bit at a time and keeps each coefficient pair integral by adding (y, −x)
when needed (its lines 10–13); the unit does t of those steps at once on the MAC lanes:

    (A, B) <- ((A + m·y) / 2^t, (B − m·x) / 2^t),   m = −A·y⁻¹ mod 2^t   (y odd)
                                                    m =  B·x⁻¹ mod 2^t   (y even, x odd)

which is exact because u ≡ 0 mod 2^t (GF(2^m): the same with carry-less products and XOR). The
loop ends when u = 0; then v = gcd(x, y) and, if it is 1, D·y ≡ 1 (mod x). D is brought into
[0, x) by whole passes that add or subtract x (GF(2^m): at most one pass, D ^= x if
deg D >= deg x). Inversion is the only instruction whose time
depends on the operands; this model counts the passes exactly as the RTL makes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from montu.arith import gf2m


@dataclass(frozen=True)
class InversionRun:
    """Outcome of one MINV: the inverse (None when there is none) and the passes it took."""

    inverse: int | None
    passes: int   # reduction passes
    fixes: int    # normalisation passes bringing D into [0, x)


def _trailing_zeros(a: int) -> int:
    return (a & -a).bit_length() - 1


def run_inversion(y: int, x: int, *, gf2m_mode: bool, word_bits: int,
                  one_bit: bool = False) -> InversionRun:
    """y⁻¹ mod x by the unit's pass schedule.

    one_bit=True caps t at 1: one halving per pass, exactly the step of bie2021 Alg. 3 as printed
    (MINV with imm[0] = 1), kept for comparison with the paper.

    No inverse (returned as inverse=None) when x = 0, y = 0, both are even (divisible by 2, or
    by the polynomial x), or gcd(x, y) ≠ 1. The first three are found by the set-up pass, before
    any reduction pass.
    """
    if x == 0 or y == 0 or (x | y) & 1 == 0:
        return InversionRun(None, 0, 0)
    step = _pass_gf2m if gf2m_mode else _pass_gfp
    y_odd = bool(y & 1)
    inverse_low = _low_inverse(y if y_odd else x, word_bits, gf2m_mode)
    max_shift = 1 if one_bit else word_bits - 1
    u, v, a, b, c, d = x, y, 1, 0, 0, 1
    passes = 0
    while u != 0:
        passes += 1
        if u & 1 == 0:
            u, a, b = step(u, a, b, x, y, y_odd, inverse_low, max_shift)
        elif v & 1 == 0:
            v, c, d = step(v, c, d, x, y, y_odd, inverse_low, max_shift)
        elif u >= v:
            u, a, b = (step(u - v, a - c, b - d, x, y, y_odd, inverse_low, max_shift) if not gf2m_mode
                       else step(u ^ v, a ^ c, b ^ d, x, y, y_odd, inverse_low, max_shift))
        else:
            v, c, d = (step(v - u, c - a, d - b, x, y, y_odd, inverse_low, max_shift) if not gf2m_mode
                       else step(v ^ u, c ^ a, d ^ b, x, y, y_odd, inverse_low, max_shift))
    if v != 1:
        return InversionRun(None, passes, 0)
    fixes = 0
    if gf2m_mode:
        # At most one pass, as the RTL makes it: enough when deg D <= deg x, which always held
        # (deg D < deg x in > 70,000 random runs; over all x, y < 2^9, deg D = deg x only for
        # x = 1). A `while` here would spin for ever if deg D > deg x: XOR cannot lower it.
        if gf2m.degree(d) >= gf2m.degree(x):
            d ^= x
            fixes += 1
    else:
        while d < 0:
            d += x
            fixes += 1
        while d >= x:
            d -= x
            fixes += 1
    return InversionRun(d, passes, fixes)


def _low_inverse(odd: int, word_bits: int, gf2m_mode: bool) -> int:
    """odd⁻¹ mod 2^Word (GF(p)) or mod x^Word (GF(2^m)): what the unit's Hensel step computes."""
    low = odd & ((1 << word_bits) - 1)
    if not gf2m_mode:
        return pow(low, -1, 1 << word_bits)
    inv, precision = 1, 1
    while precision < word_bits:
        precision = min(2 * precision, word_bits)
        mask = (1 << precision) - 1
        inv = gf2m.clmul(gf2m.clmul(inv, inv) & mask, low & mask) & mask
    return inv


def _pass_gfp(w: int, a: int, b: int, x: int, y: int, y_odd: bool, inverse_low: int,
              max_shift: int) -> tuple[int, int, int]:
    t = min(_trailing_zeros(w), max_shift) if w else max_shift
    mask = (1 << t) - 1
    m = (-a * inverse_low) & mask if y_odd else (b * inverse_low) & mask
    return w >> t, (a + m * y) >> t, (b - m * x) >> t


def _pass_gf2m(w: int, a: int, b: int, x: int, y: int, y_odd: bool, inverse_low: int,
               max_shift: int) -> tuple[int, int, int]:
    t = min(_trailing_zeros(w), max_shift) if w else max_shift
    mask = (1 << t) - 1
    m = gf2m.clmul(a & mask, inverse_low) & mask if y_odd else gf2m.clmul(b & mask, inverse_low) & mask
    return w >> t, (a ^ gf2m.clmul(m, y)) >> t, (b ^ gf2m.clmul(m, x)) >> t
