"""Scalar multiplication, point addition and point validation for every curve, on the unit.

Chooses the method by field and base: on GF(p) the signed fixed window (variable base,
montu.ec.window) and the signed comb (k·G, montu.ec.comb), both with the co-Z ladder
(montu.ec.prime) as fallback for their negligible exceptional cases; on GF(2^m) the López–Dahab
ladder (montu.ec.binary). The ladders run a secret k in [1, n − 1] as k + n or k + 2n (exactly
bits(n) + 1 bits), the window and comb as k or k + n (odd) in a fixed number of digits, so the
command sequence and the cycle count are the same for every k.
"""

from __future__ import annotations

import functools
from types import ModuleType

from montu.driver import Unit
from montu.ec import binary, comb, prime, window
from montu.ec.curves import Curve
from montu.ec.errors import InvalidPublicKey
from montu.ec.program import Program, Registers
from montu.ec.session import FieldSession, fixed_length_scalar

Point = tuple[int, int]


def _arith(curve: Curve) -> ModuleType:
    return binary if curve.is_binary else prime


def multiply(unit: Unit, curve: Curve, k: int, point: Point) -> Point:
    """k·point for 1 ≤ k ≤ n − 1 and a public point of order n, in constant unit time for every k
    outside the ladders' exceptional set (see `exceptional_scalars`).

    GF(p) (a = −3 or 0): the signed fixed window with the SHLX/MMX table (montu.ec.window); if one
    of its additions was exceptional (a negligible set of k), the co-Z ladder. GF(2^m): the
    López–Dahab ladder.

    The ladders meet a point at infinity or two equal/opposite points, where their formulas fail,
    only for k = 1, n − 2, n − 1 (co-Z, GF(p)) and k = n − 1 (López–Dahab y recovery, GF(2^m)).
    Those three keys are public anyway (k·G = G, −2G, −G), so handling them apart on the host —
    with the same ladder on k = 2 and a negation — tells an observer nothing it could not read off
    the public key; a random k hits them with probability 3/n.
    """
    if not 1 <= k < curve.n:
        raise ValueError(f"scalar must be in [1, n − 1] for {curve.name}")
    if k in exceptional_scalars(curve):
        if k == 1:
            return _arith(curve).add_public(unit, curve, point, None)
        twice = k == curve.n - 2
        base = multiply(unit, curve, 2, point) if twice else point
        return negate(unit, curve, base)
    if window.supported(curve):
        result = window.multiply(unit, curve, k, point)
        if result is not None:
            return result
    return ladder(unit, curve, k, point)


def ladder(unit: Unit, curve: Curve, k: int, point: Point) -> Point:
    """k·point by the field's Montgomery ladder (co-Z or López–Dahab), 2 ≤ k ≤ n − 3."""
    scalar = fixed_length_scalar(k, curve.n)
    return _arith(curve).scalar_mult(unit, curve, scalar, curve.n.bit_length(), point)


def multiply_generator(unit: Unit, curve: Curve, k: int) -> Point:
    """k·G for 1 ≤ k ≤ n − 1 in constant unit time: the fixed-base comb on GF(p) (stored table
    of G, montu.ec.comb_tables), the ladder on GF(2^m). If a comb addition was exceptional (a
    negligible set of k), the result is recomputed by `multiply`."""
    if not 1 <= k < curve.n:
        raise ValueError(f"scalar must be in [1, n − 1] for {curve.name}")
    if comb.supported(curve):
        result = comb.multiply_generator(unit, curve, k)
        if result is not None:
            return result
    return multiply(unit, curve, k, curve.generator)


def generator_x_is_one_of(unit: Unit, curve: Curve, k: int, candidates: list[int],
                          start_z: int) -> bool:
    """Whether x(k·G) is one of the public `candidates`, for 1 ≤ k ≤ n − 1, computed again from a
    random projective start point (Z = start_z: in [1, p − 1], or a non-zero element of GF(2^m)):
    the result of `multiply_generator` through different intermediate values, compared on the
    unit as X = c·Z² (GF(p)) or X = c·Z (GF(2^m)) without an inversion. ECDSA signing checks its
    signature with it (montu.ec.ecdsa); the cycle count is the same for every k and start_z (each
    candidate, a public value, adds three commands).

    GF(p): the comb (`comb.generator_x_is_one_of`), unless the curve's comb table was computed on
    this unit rather than stored (then the window method on G itself, so that a table corrupted
    while it was computed cannot agree with itself). GF(2^m): the x-only López–Dahab ladder. The
    exceptional scalars (and an exceptional comb run) take the affine `multiply`."""
    if not 1 <= k < curve.n:
        raise ValueError(f"scalar must be in [1, n − 1] for {curve.name}")
    if comb.supported(curve) and comb.has_stored_table(curve):
        matches = comb.generator_x_is_one_of(unit, curve, k, candidates, start_z)
        if matches is not None:
            return matches
    elif curve.is_binary and k not in exceptional_scalars(curve):
        scalar = fixed_length_scalar(k, curve.n)
        return binary.x_is_one_of(unit, curve, scalar, curve.n.bit_length(), curve.generator,
                                  candidates, start_z)
    x, _ = multiply(unit, curve, k, curve.generator)
    return _is_one_of(unit, curve, x, candidates)


_COMPARE_REGS = Registers(("R2", "X", "C"))


@functools.cache
def _compare_program() -> Program:
    p = Program(_COMPARE_REGS)
    p.compare("X", "C")
    return p


def _is_one_of(unit: Unit, curve: Curve, x: int, candidates: list[int]) -> bool:
    """x == c for one of the candidates, compared on the unit (CMP)."""
    session = FieldSession(unit, curve.modulus, curve.field, _COMPARE_REGS)
    session.write("X", x)
    for candidate in candidates:
        session.write("C", candidate)
        if session.execute(_compare_program().commands, "x comparison")[-1].flags >> 1 & 1:
            return True
    return False


def forget_field_constants(unit: Unit, curve: Curve) -> None:
    """Drop what `unit` has cached for the curve's field: R² of p (or of f), √b, a comb table
    computed on the unit. After a fault any of them may be wrong; the next use recomputes them."""
    unit.forget_modulus(curve.modulus)
    if curve.is_binary:
        binary.forget_sqrt_b(unit, curve)
    else:
        comb.forget_table(unit, curve)


def exceptional_scalars(curve: Curve) -> tuple[int, ...]:
    """Scalars in [1, n − 1] whose fixed-length ladder passes an exceptional case."""
    return (curve.n - 1,) if curve.is_binary else (1, curve.n - 2, curve.n - 1)


def negate(unit: Unit, curve: Curve, point: Point) -> Point:
    """−point: (x, −y) over GF(p), (x, x + y) over GF(2^m) — one subtraction/XOR on the unit."""
    return _arith(curve).negate(unit, curve, point)


def multiply_public(unit: Unit, curve: Curve, k: int, point: Point) -> Point | None:
    """k·point for a public k (any integer; None = infinity). Uses the same ladder; the special
    multiples 0 and −1 mod n are chosen by the host, which may branch on public values."""
    k %= curve.n
    if k == 0:
        return None
    if k == curve.n - 1:
        return negate(unit, curve, point)
    return multiply(unit, curve, k, point)


def add(unit: Unit, curve: Curve, p1: Point | None, p2: Point | None) -> Point | None:
    """p1 + p2 for public points (None = infinity), on the unit."""
    return _arith(curve).add_public(unit, curve, p1, p2)


def validate(unit: Unit, curve: Curve, x: int, y: int) -> None:
    """Raise InvalidPublicKey unless (x, y) is a point of the curve's prime-order subgroup:
    coordinates in range (host), on the curve (unit), not infinity, and in the subgroup of order n
    when h > 1 (unit): Tr(x + a) = 0 when h = 2, n·Q = O by the x-only ladder when h = 4."""
    if curve.is_binary:
        if x < 0 or y < 0 or x.bit_length() > curve.bits or y.bit_length() > curve.bits:
            raise InvalidPublicKey(f"public key coordinates must be elements of GF(2^{curve.bits}) "
                                   f"(at most {curve.bits} bits) for {curve.name}")
    elif not (0 <= x < curve.modulus and 0 <= y < curve.modulus):
        raise InvalidPublicKey(f"public key coordinates must be in [0, p) for {curve.name}")
    if not _arith(curve).is_on_curve(unit, curve, (x, y)):
        raise InvalidPublicKey(f"public key point is not on the curve {curve.name}")
    if curve.h > 1:
        if x == 0:
            raise InvalidPublicKey(f"public key is the point of order 2 of {curve.name}, "
                                   f"not in its subgroup of prime order n (cofactor {curve.h})")
        in_subgroup = (binary.in_prime_subgroup_cofactor_2(unit, curve, (x, y)) if curve.h == 2
                       else binary.is_infinity_multiple(unit, curve, curve.n, (x, y)))
        if not in_subgroup:
            raise InvalidPublicKey(f"public key point is not in the subgroup of prime order n of "
                                   f"{curve.name} (n·Q ≠ O; cofactor {curve.h})")


def double_scalar_x(unit: Unit, curve: Curve, u1: int, u2: int, q: Point) -> int | None:
    """x(u1·G + u2·Q) for public u1, u2 (None if the sum is infinity), for every u1, u2 and
    every validated Q (±G included): never a unit error.

    GF(p): Shamir's trick in Jacobian coordinates when u1, u2 ∈ [1, n − 2] and G + Q ≠ O, unless
    one of its additions met equal or opposite points (or the sum is O: `prime.double_scalar_x`
    returns None); otherwise, and on GF(2^m), two ladders (`multiply_public`: O for u ≡ 0, −P for
    u ≡ −1) and one affine addition (P + P doubles, P + (−P) is O, O passes through)."""
    if not curve.is_binary and 1 <= u1 < curve.n - 1 and 1 <= u2 < curve.n - 1:
        g_plus_q = add(unit, curve, curve.generator, q)
        if g_plus_q is not None:
            x = prime.double_scalar_x(unit, curve, u1, u2, q, g_plus_q)
            if x is not None:
                return x
    point = add(unit, curve, multiply_public(unit, curve, u1, curve.generator),
                multiply_public(unit, curve, u2, q))
    return None if point is None else point[0]
