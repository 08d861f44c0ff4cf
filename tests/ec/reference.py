"""Host-side affine EC arithmetic for the tests only (the library never does field math on the host).

Plain textbook formulas (SEC 1 §2.2): independent of the unit's projective ladders, so agreement
between the two checks both.
"""

from __future__ import annotations

from montu.arith import gf2m
from montu.ec.curves import Curve

Point = tuple[int, int] | None  # None: the point at infinity


def _poly_inv(a: int, f: int) -> int:
    """a⁻¹ mod f by the extended Euclidean algorithm on binary polynomials."""
    r0, r1, s0, s1 = f, a, 0, 1
    while r1:
        shift = r0.bit_length() - r1.bit_length()
        if shift < 0:
            r0, r1, s0, s1 = r1, r0, s1, s0
            continue
        r0 ^= r1 << shift
        s0 ^= s1 << shift
    assert r1 == 0 and r0 == 1, "not invertible"
    return _pmod(s0, f)


def _pmod(a: int, f: int) -> int:
    m = f.bit_length() - 1
    while a.bit_length() - 1 >= m:
        a ^= f << (a.bit_length() - 1 - m)
    return a


def _bmul(a: int, b: int, f: int) -> int:
    return _pmod(gf2m.clmul(a, b), f)


def on_curve(c: Curve, pt: Point) -> bool:
    if pt is None:
        return True
    x, y = pt
    if c.is_binary:
        f = c.modulus
        lhs = _bmul(y, y, f) ^ _bmul(x, y, f)
        x2 = _bmul(x, x, f)
        rhs = _bmul(x2, x, f) ^ _bmul(c.a, x2, f) ^ c.b
        return lhs == rhs
    p = c.modulus
    return (y * y - (x * x * x + c.a * x + c.b)) % p == 0


def neg(c: Curve, pt: Point) -> Point:
    if pt is None:
        return None
    x, y = pt
    return (x, x ^ y) if c.is_binary else (x, (-y) % c.modulus)


def add(c: Curve, p1: Point, p2: Point) -> Point:
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    (x1, y1), (x2, y2) = p1, p2
    if c.is_binary:
        f = c.modulus
        if x1 == x2:
            if y1 != y2 or x1 == 0:
                return None
            lam = x1 ^ _bmul(y1, _poly_inv(x1, f), f)
            x3 = _bmul(lam, lam, f) ^ lam ^ c.a
        else:
            lam = _bmul(y1 ^ y2, _poly_inv(x1 ^ x2, f), f)
            x3 = _bmul(lam, lam, f) ^ lam ^ x1 ^ x2 ^ c.a
        y3 = _bmul(lam, x1 ^ x3, f) ^ x3 ^ y1
        return (x3, y3)
    p = c.modulus
    if x1 == x2:
        if (y1 + y2) % p == 0:
            return None
        lam = (3 * x1 * x1 + c.a) * pow(2 * y1, -1, p) % p
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (lam * lam - x1 - x2) % p
    return (x3, (lam * (x1 - x3) - y1) % p)


def mul(c: Curve, k: int, pt: Point) -> Point:
    result: Point = None
    addend = pt
    while k:
        if k & 1:
            result = add(c, result, addend)
        addend = add(c, addend, addend)
        k >>= 1
    return result
