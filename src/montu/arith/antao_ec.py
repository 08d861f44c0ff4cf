"""EC point multiplication over GF(p) on the RNS Montgomery multiplier (Antão & Sousa, Sec. 5).

Every field product is one RNS Montgomery multiplication (Algorithm 1); additions and
subtractions are channel-wise and lazy: each element carries a bound k (value < k*p) and a
subtraction a - b adds k_b*p first so nothing goes negative. When a product's operands could
break the Montgomery contract (k_a*k_b*p > 2*M1) the larger operand is first renormalized by a
multiplication by M1 mod p (the Montgomery form of 1). Points are in homogeneous projective
coordinates and use the complete addition law of Renes–Costello–Batina (2016, Alg. 1, any a),
so doubling, adding and the point at infinity need no branches on field values — an RNS value
cannot be compared without converting it back. The affine result needs Z^-1 = Z^(p-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from montu.arith.antao_alg1 import (
    MontgomeryConstants,
    Tally,
    forward_convert,
    mont_mul_rns,
    montgomery_constants,
    reverse_convert,
)
from montu.arith.antao_rns import RnsBases, RnsValue, is_probable_prime, to_rns
from montu.arith.stats import Stats

Point = tuple[int, int] | None  # affine (x, y); None is the point at infinity


@dataclass(frozen=True)
class Curve:
    """Short Weierstrass curve y^2 = x^3 + a*x + b over GF(p), p an odd prime."""

    p: int
    a: int
    b: int


P256 = Curve(
    p=2**256 - 2**224 + 2**192 + 2**96 - 1,
    a=2**256 - 2**224 + 2**192 + 2**96 - 1 - 3,
    b=0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B,
)
P256_GENERATOR = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def is_on_curve(point: Point, curve: Curve) -> bool:
    """True for the point at infinity and for affine (x, y) in [0, p)^2 with y^2 = x^3 + ax + b."""
    if point is None:
        return True
    x, y = point
    p = curve.p
    return 0 <= x < p and 0 <= y < p and (y * y - x * x * x - curve.a * x - curve.b) % p == 0


@dataclass(frozen=True)
class _Element:
    """A GF(p) element in the Montgomery domain, held in RNS, with value < bound * p."""

    value: RnsValue
    bound: int


class _RnsField:
    """GF(p) operations of one scalar multiplication (local working state of one call)."""

    def __init__(self, constants: MontgomeryConstants, tally: Tally) -> None:
        self.c = constants
        self.tally = tally
        self.range_limit = min(constants.bases.m1, constants.bases.m2) // 2
        self.multiples: dict[int, RnsValue] = {}

    def element(self, x: int) -> _Element:
        """x in [0, p) into the Montgomery domain: x*M1^2*M1^-1."""
        raw = _Element(forward_convert(x, self.c, self.tally), 1)
        return self._product(raw, _Element(self.c.r_squared, 1))

    def constant(self, x: int) -> _Element:
        """A curve constant, stored precomputed in Montgomery form (x*M1 mod p), as in a ROM."""
        return _Element(to_rns(x * self.c.bases.m1 % self.c.n, self.c.bases), 1)

    def one(self) -> _Element:
        return _Element(self.c.r_mod_n, 1)

    def zero(self) -> _Element:
        return _Element(to_rns(0, self.c.bases), 1)

    def mul(self, a: _Element, b: _Element) -> _Element:
        """Montgomery product, renormalizing an operand first if k_a*k_b*p > 2*M1."""
        while a.bound * b.bound * self.c.n > 2 * self.c.bases.m1:
            if a.bound >= b.bound:
                a = self.renormalize(a)
            else:
                b = self.renormalize(b)
        return self._product(a, b)

    def _product(self, a: _Element, b: _Element) -> _Element:
        value = mont_mul_rns(a.value, b.value, self.c, self.tally)
        # u = (ab + q_hat p)/M1 < k_a k_b p^2/M1 + 2p
        bound = -(-a.bound * b.bound * self.c.n // self.c.bases.m1) + 2
        return _Element(value, bound)

    def renormalize(self, a: _Element) -> _Element:
        """a * (M1 mod p) * M1^-1 = a (mod p), brought back under 4p."""
        self.tally.add("renormalizations")
        return self._product(a, self.one())

    def add(self, a: _Element, b: _Element) -> _Element:
        """a + b channel-wise (no reduction mod p)."""
        a, b = self._fit(a, b)
        self._tally_linear(1)
        return _Element(_channel_op(a.value, b.value, self.c.bases, 1), a.bound + b.bound)

    def sub(self, a: _Element, b: _Element) -> _Element:
        """a + k_b*p - b channel-wise: a non-negative value congruent to a - b."""
        a, b = self._fit(a, b)
        multiple = self.multiples.get(b.bound)
        if multiple is None:
            multiple = to_rns(b.bound * self.c.n, self.c.bases)
            self.multiples[b.bound] = multiple
        self._tally_linear(2)
        lifted = _channel_op(a.value, multiple, self.c.bases, 1)
        return _Element(_channel_op(lifted, b.value, self.c.bases, -1), a.bound + b.bound)

    def _fit(self, a: _Element, b: _Element) -> tuple[_Element, _Element]:
        """Renormalize until the sum's bound stays below M/2 (unique and safe to multiply)."""
        while (a.bound + b.bound) * self.c.n > self.range_limit:
            if a.bound >= b.bound:
                a = self.renormalize(a)
            else:
                b = self.renormalize(b)
        return a, b

    def _tally_linear(self, ops: int) -> None:
        h1, h2 = len(self.c.bases.base1), len(self.c.bases.base2)
        self.tally.add("channel_add", ops * (h1 + h2))
        self.tally.cycles += 2 * ops  # one op per base per PE

    def power(self, a: _Element, e: int) -> _Element:
        """a^e (e >= 1) by left-to-right square-and-multiply from the top bit."""
        acc = a
        for bit in bin(e)[3:]:
            acc = self.mul(acc, acc)
            if bit == "1":
                acc = self.mul(acc, a)
        return acc

    def to_int(self, a: _Element) -> int:
        """Leave the Montgomery domain (product with 1) and convert back; result in [0, p)."""
        if a.bound > 4:
            a = self.renormalize(a)
        out = mont_mul_rns(a.value, self.c.one, self.c, self.tally)
        return reverse_convert(out, self.c, self.tally)


def _channel_op(a: RnsValue, b: RnsValue, bases: RnsBases, sign: int) -> RnsValue:
    """a + sign*b mod each channel modulus, both bases."""
    return RnsValue(
        tuple((x + sign * y) % m for x, y, m in zip(a.residues1, b.residues1, bases.base1)),
        tuple((x + sign * y) % m for x, y, m in zip(a.residues2, b.residues2, bases.base2)),
    )


_Projective = tuple[_Element, _Element, _Element]


class FieldOps(Protocol):
    """What the complete addition needs of a field: _RnsField computes; the antao engine's
    montu.engines.antao.ec_program.Emitter writes the same operations as microcode."""

    def mul(self, a: Any, b: Any) -> Any: ...
    def add(self, a: Any, b: Any) -> Any: ...
    def sub(self, a: Any, b: Any) -> Any: ...


def complete_add(p1: tuple, p2: tuple, a: Any, b3: Any, f: FieldOps) -> tuple:
    """Renes–Costello–Batina Alg. 1: (X1:Y1:Z1) + (X2:Y2:Z2) for any a; 12M + 3 m_a + 2 m_3b."""
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    t0, t1, t2 = f.mul(x1, x2), f.mul(y1, y2), f.mul(z1, z2)
    t3 = f.sub(f.mul(f.add(x1, y1), f.add(x2, y2)), f.add(t0, t1))
    t4 = f.sub(f.mul(f.add(x1, z1), f.add(x2, z2)), f.add(t0, t2))
    t5 = f.sub(f.mul(f.add(y1, z1), f.add(y2, z2)), f.add(t1, t2))
    z3 = f.add(f.mul(b3, t2), f.mul(a, t4))
    x3 = f.sub(t1, z3)
    z3 = f.add(t1, z3)
    y3 = f.mul(x3, z3)
    t1 = f.add(f.add(t0, t0), t0)
    t2 = f.mul(a, t2)
    t4 = f.mul(b3, t4)
    t1 = f.add(t1, t2)
    t2 = f.mul(a, f.sub(t0, t2))
    t4 = f.add(t4, t2)
    y3 = f.add(y3, f.mul(t1, t4))
    x3 = f.sub(f.mul(t3, x3), f.mul(t5, t4))
    z3 = f.add(f.mul(t5, z3), f.mul(t3, t1))
    return x3, y3, z3


def ec_scalar_mult(k: int, point: Point, curve: Curve, bases: RnsBases) -> tuple[Point, Stats]:
    """k*P on the curve by left-to-right double-and-add, every field product on Algorithm 1.

    Returns the affine result (None for the point at infinity) and the summed Stats of all RNS
    Montgomery multiplications, channel additions and conversions.
    """
    if k < 0:
        raise ValueError(f"scalar must be non-negative, got {k}")
    if not is_probable_prime(curve.p):
        raise ValueError("curve field modulus p must be prime (Z^-1 is computed as Z^(p-2))")
    constants = montgomery_constants(curve.p, bases)
    if not is_on_curve(point, curve):
        raise ValueError("point is not on the curve (or has coordinates outside [0, p))")
    tally = Tally()
    if point is None or k == 0:
        return None, tally.to_stats()
    f = _RnsField(constants, tally)
    a, b3 = f.constant(curve.a % curve.p), f.constant(3 * curve.b % curve.p)
    base = (f.element(point[0]), f.element(point[1]), f.one())
    acc = base
    for bit in bin(k)[3:]:
        acc = complete_add(acc, acc, a, b3, f)
        tally.add("point_doublings")
        if bit == "1":
            acc = complete_add(acc, base, a, b3, f)
            tally.add("point_additions")
    return _to_affine(acc, f, curve.p), tally.to_stats()


def _to_affine(q: _Projective, f: _RnsField, p: int) -> Point:
    """(X:Y:Z) -> (X/Z, Y/Z), or None when Z = 0 mod p."""
    x, y, z = q
    if f.to_int(z) == 0:
        return None
    z_inv = f.power(z, p - 2)
    return f.to_int(f.mul(x, z_inv)), f.to_int(f.mul(y, z_inv))


def ec_scalar_mult_oracle(k: int, point: Point, curve: Curve) -> Point:
    """Plain affine double-and-add over Python ints (the reference the demo checks against)."""
    result: Point = None
    addend = point
    while k:
        if k & 1:
            result = _affine_add(result, addend, curve)
        addend = _affine_add(addend, addend, curve)
        k >>= 1
    return result


def _affine_add(p1: Point, p2: Point, curve: Curve) -> Point:
    """Affine chord-and-tangent addition with the point at infinity as None."""
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    p = curve.p
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2 and (y1 + y2) % p == 0:
        return None
    if p1 == p2:
        slope = (3 * x1 * x1 + curve.a) * pow(2 * y1, -1, p) % p
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (slope * slope - x1 - x2) % p
    return x3, (slope * (x1 - x3) - y1) % p
