"""Point arithmetic of y² + x·y = x³ + a·x² + b over GF(2^m) on the unit.

Scalar multiplication is the López–Dahab x-only Montgomery ladder (López, Dahab, CHES 1999) in
projective (X : Z): per bit one Madd (4M + 1S + 2 XOR, with the base point's x) and one Mdouble
(X' = (X² + √b·Z²)², Z' = X²·Z²: 2M + 3S + 1 XOR, one M less when b = 1), i.e. 10 Montgomery
products (9 on the Koblitz curves) and 3 XORs per bit, plus one SHL1 and two CSWAPs. y is
recovered at the end (López–Dahab) with one inversion, by Itoh–Tsujii on the unit. Values are in
Montgomery form (R = x^L); additions are ADD, the unit's one-pass XOR in GF(2^m) mode.

ECDSA signing checks each signature against a second k·G (`x_is_one_of`): the same ladder from a
random projective start (X·λ : λ), left projective and compared with the candidate x's as
X = x·Z, without y recovery; and `sqrt_b_squares_to_b` checks the √b cached per unit.
"""

from __future__ import annotations

import functools
import weakref

from montu.arith import gf2m
from montu.arith.field import Field
from montu.driver import Unit
from montu.ec.curves import Curve
from montu.ec.program import Program, Registers
from montu.ec.session import FieldSession, add_affine, flag_words, ladder_flags

_NAMES = ("R2", "ONE", "A", "B", "SB", "XP", "YP", "XA", "YA", "ZA", "XB", "YB", "ZB",
          "T1", "T2", "T3", "T4", "T5", "INV", "I1", "I2", "F0", "F1", "F2")
REGS = Registers(_NAMES)


def _itoh_tsujii(p: Program, d: str, a: str, m: int, t1: str, t2: str) -> None:
    """d = a^(2^m − 2) = a⁻¹ in GF(2^m) (Itoh–Tsujii): β_k = a^(2^k − 1) along the binary
    expansion of m − 1, β_2k = β_k^(2^k)·β_k, β_(2k+1) = β_2k²·a; then d = β_(m−1)². About m
    squarings and 2·log2(m) products, the same for every a."""
    bits = bin(m - 1)[2:]
    p.mov(t1, a)                   # β_1
    k = 1
    for bit in bits[1:]:
        p.mov(t2, t1)
        for _ in range(k):
            p.sqr(t2, t2)
        p.mul(t1, t2, t1)          # β_2k
        k *= 2
        if bit == "1":
            p.sqr(t1, t1)
            p.mul(t1, t1, a)       # β_(2k+1)
            k += 1
    p.sqr(d, t1)


def _step(p: Program, sqrt_b_is_one: bool) -> None:
    """(A, B) → (2A, A + B) with B − A = P: Mdouble on A, Madd on B."""
    p.mul("T1", "XA", "ZB")
    p.mul("T2", "XB", "ZA")
    p.xor("ZB", "T1", "T2")
    p.sqr("ZB", "ZB")              # Z(A+B) = (XA·ZB + XB·ZA)²
    p.mul("T1", "T1", "T2")
    p.mul("XB", "XP", "ZB")
    p.xor("XB", "XB", "T1")        # X(A+B) = x·Z + XA·ZB·XB·ZA
    p.sqr("T1", "XA")
    p.sqr("T2", "ZA")
    p.mul("ZA", "T1", "T2")        # Z(2A) = XA²·ZA²
    if not sqrt_b_is_one:
        p.mul("T2", "SB", "T2")
    p.xor("T1", "T1", "T2")
    p.sqr("XA", "T1")              # X(2A) = (XA² + √b·ZA²)² = XA⁴ + b·ZA⁴


# The register that holds the random start Z (plain, from the host) of a re-randomized ladder.
START_Z = "T5"


@functools.cache
def ladder_program(curve: Curve, steps: int, length_bits: int, recover_y: bool = True,
                   randomized: bool = False) -> Program:
    """kP for a scalar of exactly steps+1 bits, P = (XP, YP) affine plain, √b in SB (Montgomery
    form), flags in F0…; result affine plain in (XA, YA) (YA := T4) — or, without y recovery, the
    projective (XA : ZA) in Montgomery form.

    randomized=True: the ladder starts from (x·λ : λ) and (λ·(x⁴ + b) : λ·x²) for the λ the host
    wrote into START_Z — the same points, so the same result, through different intermediate
    values (4 products more). ECDSA signing recomputes k·G this way to check its signature."""
    m = gf2m.degree(curve.modulus)
    p = Program(REGS)
    p.one("ONE")
    p.mul("XP", "XP", "R2")
    p.mul("YP", "YP", "R2")
    p.mul("B", "B", "R2")
    if randomized:
        p.mul(START_Z, START_Z, "R2")   # λ (Montgomery form)
        p.mul("XA", "XP", START_Z)
        p.mov("ZA", START_Z)            # P = (x·λ : λ)
    else:
        p.mov("XA", "XP")
        p.mul("ZA", "ONE", "R2")        # 1 in Montgomery form
    p.sqr("ZB", "XP")              # 2P = (x⁴ + b : x²)
    p.sqr("XB", "ZB")
    p.xor("XB", "XB", "B")
    if randomized:
        p.mul("ZB", "ZB", START_Z)
        p.mul("XB", "XB", START_Z)
    for i in range(steps):
        p.shift_flag(f"F{i // length_bits}")
        p.cswap("XA", "XB")
        p.cswap("ZA", "ZB")
        _step(p, curve.b == 1)
    p.shift_flag(f"F{steps // length_bits}")   # b_0: R0 back into A
    p.cswap("XA", "XB")
    p.cswap("ZA", "ZB")
    if not recover_y:
        return p
    # López–Dahab y recovery: x_k = X1/Z1,
    # y_k = (x_k + x)·[(X1 + x·Z1)(X2 + x·Z2) + (x² + y)·Z1·Z2] / (x·Z1·Z2) + y.
    p.mul("T1", "ZA", "ZB")
    p.mul("T2", "XP", "T1")
    _itoh_tsujii(p, "INV", "T2", m, "I1", "I2")
    p.mul("T3", "XP", "ZA")
    p.xor("T3", "T3", "XA")
    p.mul("T4", "XP", "ZB")
    p.xor("T4", "T4", "XB")
    p.mul("T3", "T3", "T4")
    p.sqr("T4", "XP")
    p.xor("T4", "T4", "YP")
    p.mul("T4", "T4", "T1")
    p.xor("T3", "T3", "T4")        # the bracket
    p.mul("T5", "XA", "ZB")
    p.mul("T5", "T5", "XP")
    p.mul("T5", "T5", "INV")       # x_k
    p.xor("T4", "T5", "XP")
    p.mul("T4", "T4", "T3")
    p.mul("T4", "T4", "INV")
    p.xor("T4", "T4", "YP")        # y_k
    p.mul("XA", "T5", "ONE")       # out of Montgomery form
    p.mul("YA", "T4", "ONE")
    return p


# √b in Montgomery form, computed on each unit once per curve (m − 1 squarings) and reloaded.
_SQRT_B: weakref.WeakKeyDictionary[Unit, dict[str, int]] = weakref.WeakKeyDictionary()


@functools.cache
def _sqrt_b_program(m: int) -> Program:
    p = Program(REGS)
    p.mul("SB", "B", "R2")
    for _ in range(m - 1):
        p.sqr("SB", "SB")          # b^(2^(m−1)) = √b
    return p


def _load_sqrt_b(unit: Unit, session: FieldSession, curve: Curve) -> None:
    cache = _SQRT_B.setdefault(unit, {})
    if curve.name not in cache:
        session.write("B", curve.b)
        session.execute(_sqrt_b_program(gf2m.degree(curve.modulus)).commands, f"{curve.name} √b")
        cache[curve.name] = session.read("SB")
    session.write("SB", cache[curve.name])


def forget_sqrt_b(unit: Unit, curve: Curve) -> None:
    """Drop √b of `curve` cached for `unit` (after a fault it may be wrong; the next ladder
    computes it again)."""
    _SQRT_B.get(unit, {}).pop(curve.name, None)


@functools.cache
def _sqrt_b_check_program() -> Program:
    p = Program(REGS)
    p.mul("B", "B", "R2")
    p.sqr("T1", "SB")
    p.compare("T1", "B")           # (√b)² = b, both in Montgomery form
    return p


def sqrt_b_squares_to_b(unit: Unit, curve: Curve) -> bool:
    """Whether the √b the ladders use (cached per unit) squares to b: one product and one CMP on
    the unit. A wrong √b is a wrong curve, on which the x-only ladder still computes consistently,
    so comparing two ladder runs would not find it. True when b = 1 (√b is not used)."""
    if curve.b == 1:
        return True
    session = FieldSession(unit, curve.modulus, Field.GF2M, REGS)
    _load_sqrt_b(unit, session, curve)
    session.write("B", curve.b)
    responses = session.execute(_sqrt_b_check_program().commands, f"{curve.name} √b check")
    return bool(responses[-1].flags >> 1 & 1)


def _ladder(unit: Unit, curve: Curve, scalar: int, steps: int, point: tuple[int, int],
            recover_y: bool, start_z: int | None = None) -> FieldSession:
    if point[0] == 0:
        raise ValueError("the x-only ladder needs x ≠ 0 (x = 0 is the point of order 2)")
    session = FieldSession(unit, curve.modulus, Field.GF2M, REGS)
    if curve.b != 1:
        _load_sqrt_b(unit, session, curve)
    program = ladder_program(curve, steps, session.length_bits, recover_y, start_z is not None)
    session.write("XP", point[0])
    session.write("YP", point[1])
    session.write("B", curve.b)
    if start_z is not None:
        if not (0 < start_z and start_z.bit_length() <= curve.bits):
            raise ValueError(f"start Z must be a non-zero element of GF(2^{curve.bits})")
        session.write(START_Z, start_z)
    for i, word in enumerate(flag_words(ladder_flags(scalar, steps), session.length_bits)):
        session.write(f"F{i}", word)
    session.execute(program.commands, f"{curve.name} scalar multiplication")
    return session


def scalar_mult(unit: Unit, curve: Curve, scalar: int, steps: int, point: tuple[int, int]) -> tuple[int, int]:
    """scalar·point for a scalar of exactly steps+1 bits; same commands for every such scalar.
    The result must not be the point at infinity, nor (scalar+1)·point (scalar ≢ −1 mod ord)."""
    session = _ladder(unit, curve, scalar, steps, point, recover_y=True)
    return session.read("XA"), session.read("YA")


_CANDIDATE_REGS = ("T1", "T2", "T3", "T4", "INV", "I1")   # free after an x-only ladder


@functools.cache
def _x_compare_program(count: int) -> tuple[Program, list[int], int]:
    """After an x-only ladder: CMP of X with c·Z for `count` plain candidates c (EQ at one of the
    returned positions: x = X/Z is c), and the position of the CMP of Z with 0 (EQ: the point
    at infinity, which has no x)."""
    if count > len(_CANDIDATE_REGS):
        raise ValueError(f"at most {len(_CANDIDATE_REGS)} candidate x coordinates (got {count})")
    p = Program(REGS)
    compares = []
    for reg in _CANDIDATE_REGS[:count]:
        p.mul(reg, reg, "R2")
        p.mul(reg, reg, "ZA")      # c·Z (Montgomery form)
        compares.append(len(p.commands))
        p.compare("XA", reg)
    p.zero("I2")
    infinity = len(p.commands)
    p.compare("ZA", "I2")
    return p, compares, infinity


def x_is_one_of(unit: Unit, curve: Curve, scalar: int, steps: int, point: tuple[int, int],
                candidates: list[int], start_z: int) -> bool:
    """Whether x(scalar·point) is one of the (public) candidates: the x-only ladder from the
    projective start scaled by start_z (a non-zero field element, see `ladder_program`), then X
    compared with c·Z on the unit — no inversion, no y recovery. False for the point at
    infinity."""
    if not all(0 <= c and c.bit_length() <= curve.bits for c in candidates):
        raise ValueError(f"candidate x coordinates must be elements of GF(2^{curve.bits})")
    session = _ladder(unit, curve, scalar, steps, point, recover_y=False, start_z=start_z)
    program, compares, infinity = _x_compare_program(len(candidates))
    for reg, value in zip(_CANDIDATE_REGS, candidates):
        session.write(reg, value)
    responses = session.execute(program.commands, f"{curve.name} x comparison")
    if responses[infinity].flags >> 1 & 1:
        return False
    return any(responses[i].flags >> 1 & 1 for i in compares)


@functools.cache
def _is_zero_program() -> Program:
    p = Program(REGS)
    p.zero("T1")
    p.compare("ZA", "T1")
    return p


def is_infinity_multiple(unit: Unit, curve: Curve, scalar: int, point: tuple[int, int]) -> bool:
    """scalar·point == O? (x-only ladder, Z compared with 0 on the unit). point needs x ≠ 0."""
    session = _ladder(unit, curve, scalar, scalar.bit_length() - 1, point, recover_y=False)
    responses = session.execute(_is_zero_program().commands, "infinity check")
    del session
    return bool(responses[-1].flags >> 1 & 1)


@functools.cache
def _on_curve_program() -> Program:
    p = Program(REGS)
    p.mul("XP", "XP", "R2")
    p.mul("YP", "YP", "R2")
    p.mul("A", "A", "R2")
    p.mul("B", "B", "R2")
    p.xor("T1", "YP", "XP")
    p.mul("T1", "T1", "YP")        # y² + x·y = y·(y + x)
    p.xor("T2", "XP", "A")
    p.sqr("T3", "XP")
    p.mul("T2", "T2", "T3")
    p.xor("T2", "T2", "B")         # x³ + a·x² + b = x²·(x + a) + b
    p.compare("T1", "T2")
    return p


def is_on_curve(unit: Unit, curve: Curve, point: tuple[int, int]) -> bool:
    """y² + x·y == x³ + a·x² + b, computed and compared on the unit (degrees must be < m)."""
    session = FieldSession(unit, curve.modulus, Field.GF2M, REGS)
    for name, value in (("XP", point[0]), ("YP", point[1]), ("A", curve.a), ("B", curve.b)):
        session.write(name, value)
    responses = session.execute(_on_curve_program().commands, f"{curve.name} on-curve check")
    return bool(responses[-1].flags >> 1 & 1)


@functools.cache
def _add_programs() -> tuple[Program, Program, Program, Program]:
    cmp = Program(REGS)
    cmp.compare("XA", "XB")
    cmp_y = Program(REGS)
    cmp_y.compare("YA", "YB")
    add = Program(REGS)
    add.xor("T1", "XA", "XB")      # x1 + x2
    add.xor("T2", "YA", "YB")      # y1 + y2
    add.inverse("T3", "T1")
    add.mul("T3", "T3", "R2")
    add.mul("T3", "T3", "T2")      # λ = (y1 + y2)/(x1 + x2) (plain)
    _finish(add)
    dbl = Program(REGS)
    dbl.inverse("T3", "XA")
    dbl.mul("T3", "T3", "R2")
    dbl.mul("T3", "T3", "YA")
    dbl.xor("T3", "T3", "XA")      # λ = x + y/x
    dbl.mov("XB", "XA")            # x1 + x2 = 0: x3 = λ² + λ + a
    _finish(dbl)
    return cmp, cmp_y, add, dbl


def _finish(p: Program) -> None:
    """x3 = λ² + λ + x1 + x2 + a, y3 = λ(x1 + x3) + x3 + y1 (plain values, λ in T3)."""
    p.mul("T4", "T3", "R2")        # λ·R
    p.mul("T5", "T4", "T3")        # λ²
    p.xor("T5", "T5", "T3")
    p.xor("T5", "T5", "XA")
    p.xor("T5", "T5", "XB")
    p.xor("T5", "T5", "A")         # x3
    p.xor("T1", "XA", "T5")
    p.mul("T1", "T1", "T4")
    p.xor("T1", "T1", "T5")
    p.xor("YA", "T1", "YA")        # y3
    p.mov("XA", "T5")


def add_public(unit: Unit, curve: Curve, p1: tuple[int, int] | None,
               p2: tuple[int, int] | None) -> tuple[int, int] | None:
    """p1 + p2 for public affine points (None = the point at infinity), on the unit."""
    return add_affine(unit, curve, Field.GF2M, REGS, _add_programs(), p1, p2,
                      two_torsion_coordinate=0)


@functools.cache
def _negate_program() -> Program:
    p = Program(REGS)
    p.xor("YA", "XA", "YA")
    return p


def negate(unit: Unit, curve: Curve, point: tuple[int, int]) -> tuple[int, int]:
    """−(x, y) = (x, x + y), the XOR on the unit."""
    session = FieldSession(unit, curve.modulus, Field.GF2M, REGS)
    session.write("XA", point[0])
    session.write("YA", point[1])
    session.execute(_negate_program().commands, "point negation")
    return point[0], session.read("YA")


@functools.cache
def _trace_program(m: int) -> Program:
    """T1 = Tr(x + a)·R = Σ_(i<m) (x + a)^(2^i) in Montgomery form; then CMP with 0."""
    p = Program(REGS)
    p.xor("T2", "XP", "A")
    p.mul("T2", "T2", "R2")
    p.mov("T1", "T2")
    for _ in range(m - 1):
        p.sqr("T2", "T2")
        p.xor("T1", "T1", "T2")
    p.zero("T3")
    p.compare("T1", "T3")
    return p


def in_prime_subgroup_cofactor_2(unit: Unit, curve: Curve, point: tuple[int, int]) -> bool:
    """For h = 2 (the group is Z/2 × Z/n): Q has odd order iff Q ∈ 2E iff Tr(x) = Tr(a), i.e.
    Tr(x + a) = 0 — m squarings and XORs on the unit instead of a ladder over n."""
    if curve.h != 2:
        raise ValueError("the trace criterion holds for cofactor 2 only")
    session = FieldSession(unit, curve.modulus, Field.GF2M, REGS)
    session.write("XP", point[0])
    session.write("A", curve.a)
    responses = session.execute(_trace_program(gf2m.degree(curve.modulus)).commands, "trace")
    return bool(responses[-1].flags >> 1 & 1)
