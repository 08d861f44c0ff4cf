"""Compressed SEC1 points (02/03 || X, SEC 1 v2 §2.3.3–2.3.4): y from x and one bit, on the unit.

GF(p), y² = x³ + a·x + b: y is a square root of c = x³ + a·x + b modulo p, by c^((p+1)/4) when
p ≡ 3 (mod 4) (P-192, P-256, P-384, P-521, secp256k1) and by Tonelli–Shanks otherwise (P-224,
p ≡ 1 mod 2^96). The prefix bit ỹ is the parity of y: of the two roots y and p − y, the one with
bit 0 = ỹ.

GF(2^m), y² + x·y = x³ + a·x² + b: for x ≠ 0, y = x·z where z² + z = β = x + a + b/x²; for odd m
(every supported binary curve) z is the half-trace Σ_(i=0)^((m−1)/2) β^(4^i), and the other
solution is z + 1. ỹ is bit 0 of z = y/x. For x = 0, y = √b = b^(2^(m−1)) (that point has order 2
and fails validation later).

Every field operation is a unit command in Montgomery form (Program, execute); the host chooses
commands only from public data: the curve, the prefix bit, and the unit's flags for x (a public
key is public). Whether a root exists is decided on the unit (y² = c, or z² + z = β, by CMP).
The point returned is on the curve but not yet known to be in the prime-order subgroup:
`EcPublicKey` runs `points.validate` on it as on any other public key.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Sequence

from montu.arith import gf2m
from montu.arith.field import Field
from montu.driver import Unit
from montu.ec.curves import Curve
from montu.ec.errors import InvalidPublicKey
from montu.ec.program import FLAG_BIT, Program, Registers
from montu.ec.session import FieldSession
from montu.isa import Response, encode

Point = tuple[int, int]

_TABLE = tuple(f"W{i}" for i in range(9))  # scratch of Program.power
_NAMES = ("R2", "ONE", "ONEM", "X", "A", "B", "C", "Y", "Y0", "Y1",
          "T1", "T2", "T3", "U", "TT", "ZC", "BB") + _TABLE
REGS = Registers(_NAMES)

_EQ = FLAG_BIT["EQ"]
_LARGEST_NON_RESIDUE_TRIED = 1000  # the least non-residue mod p is small (P-224: 11)


def decompress(unit: Unit, curve: Curve, x: int, y_bit: int) -> Point:
    """The point (x, y) of `curve` whose y has compression bit `y_bit` (the prefix byte 02 or 03
    minus 2), computed on the unit. Raises InvalidPublicKey if x is out of range or no point of
    the curve has this x."""
    if y_bit not in (0, 1):
        raise ValueError(f"the compression bit must be 0 or 1 (prefix 02 or 03), got {y_bit!r}")
    if curve.is_binary:
        return _decompress_binary(unit, curve, x, y_bit)
    return _decompress_prime(unit, curve, x, y_bit)


def _not_on_curve(curve: Curve, x: int, why: str) -> InvalidPublicKey:
    return InvalidPublicKey(f"compressed public key: x = {x:#x} is not on the curve {curve.name}: "
                            f"no y exists ({why})")


def _low_bit_to_carry(p: Program, scratch: str, value: str) -> None:
    """C flag = bit 0 of `value` (SHR1 into `scratch`; `value` is unchanged)."""
    r = p.regs
    p.commands.append((encode("SHR1", rd=r[scratch], ra=r[value]), 0))


def _flag(response: Response, bit: int) -> bool:
    return bool(response.flags >> bit & 1)


# ---------------------------------------------------------------------------------------------
# GF(p): square roots
# ---------------------------------------------------------------------------------------------

def _two_adic(p: int) -> tuple[int, int]:
    """(q, s) with p − 1 = q·2^s, q odd."""
    s = ((p - 1) & -(p - 1)).bit_length() - 1
    return (p - 1) >> s, s


def _right_hand_side(p: Program) -> None:
    """C = x³ + a·x + b in Montgomery form from plain X, A, B (which enter Montgomery form)."""
    p.one("ONE")
    p.mul("X", "X", "R2")
    p.mul("A", "A", "R2")
    p.mul("B", "B", "R2")
    p.sqr("C", "X")
    p.add("C", "C", "A")
    p.mul("C", "C", "X")
    p.add("C", "C", "B")


def _prime_finish(p: Program) -> None:
    """From a candidate root Y of C (Montgomery form): Y0 = the even root, Y1 = the odd one
    (plain); the last command compares Y² with C (EQ: the root is one)."""
    p.sqr("T1", "Y")
    p.mul("Y0", "Y", "ONE")          # plain y
    p.zero("T2")
    p.sub("Y1", "T2", "Y0")          # p − y
    _low_bit_to_carry(p, "T3", "Y0")
    p.cswap("Y0", "Y1")              # y odd: swap, so Y0 = the even root
    p.compare("T1", "C")


@functools.cache
def _sqrt_3_mod_4_program(curve: Curve) -> Program:
    """p ≡ 3 (mod 4): y = c^((p+1)/4), a root whenever c is a square."""
    p = Program(REGS)
    _right_hand_side(p)
    p.power("Y", "C", (curve.modulus + 1) // 4, _TABLE)
    _prime_finish(p)
    return p


@functools.cache
def _prime_finish_program() -> Program:
    p = Program(REGS)
    _prime_finish(p)
    return p


def _decompress_prime(unit: Unit, curve: Curve, x: int, y_bit: int) -> Point:
    if not 0 <= x < curve.modulus:
        raise InvalidPublicKey(f"compressed public key: x must be in [0, p) for {curve.name} "
                               f"(got a {x.bit_length()}-bit x ≥ p)")
    session = FieldSession(unit, curve.modulus, Field.GFP, REGS)
    for name, value in (("X", x), ("A", curve.a), ("B", curve.b)):
        session.write(name, value)
    if curve.modulus % 4 == 3:
        responses = session.execute(_sqrt_3_mod_4_program(curve).commands,
                                        f"{curve.name} point decompression")
    else:
        if not _tonelli_shanks(unit, session, curve):
            raise _not_on_curve(curve, x, "x³ + a·x + b is not a square modulo p")
        responses = session.execute(_prime_finish_program().commands,
                                        f"{curve.name} point decompression")
    if not _flag(responses[-1], _EQ):
        raise _not_on_curve(curve, x, "x³ + a·x + b is not a square modulo p")
    y = session.read("Y1" if y_bit else "Y0")
    if y & 1 != y_bit:               # y = 0: p − y = p is no coordinate
        raise InvalidPublicKey(f"compressed public key: prefix 03 asks for an odd y, but the only "
                               f"y with x = {x:#x} on {curve.name} is 0")
    return x, y


# Tonelli–Shanks (p − 1 = q·2^s): R = c^((q+1)/2), t = c^q, g = z^q for a non-residue z,
# M = s. While t ≠ 1: i = the least i with t^(2^i) = 1 (i < M, else c is no square),
# b = g^(2^(M−i−1)), R ← R·b, t ← t·b², g ← b², M ← i. Then R² = c. All on the unit; the host
# reads only the EQ flags of the CMPs against 1, which depend on x alone (public).

# g = z^q (plain) per unit and modulus p, computed on each unit once (like binary's √b).
_NON_RESIDUE_POWER: weakref.WeakKeyDictionary[Unit, dict[int, int]] = weakref.WeakKeyDictionary()


@functools.cache
def _non_residue_program(curve: Curve) -> Program:
    """ZC (plain z in) := z^q plain; the last command's EQ flag: z^((p−1)/2) = −1."""
    q, s = _two_adic(curve.modulus)
    p = Program(REGS)
    p.one("ONE")
    p.mul("ONEM", "ONE", "R2")
    p.zero("T1")
    p.sub("T1", "T1", "ONEM")        # −1 (Montgomery form)
    p.mul("U", "ZC", "R2")
    p.power("TT", "U", q, _TABLE)    # z^q
    p.mul("ZC", "TT", "ONE")
    for _ in range(s - 1):
        p.sqr("TT", "TT")            # z^(q·2^(s−1)) = z^((p−1)/2)
    p.compare("TT", "T1")
    return p


def _load_non_residue_power(unit: Unit, session: FieldSession, curve: Curve) -> None:
    """ZC = z^q (plain) for the least non-residue z ≥ 2, searched for by Euler's criterion on
    the unit on first use (all values are curve constants)."""
    cache = _NON_RESIDUE_POWER.setdefault(unit, {})
    if curve.modulus not in cache:
        for z in range(2, _LARGEST_NON_RESIDUE_TRIED):
            session.write("ZC", z)
            responses = session.execute(_non_residue_program(curve).commands,
                                        f"{curve.name} quadratic non-residue search")
            if _flag(responses[-1], _EQ):
                cache[curve.modulus] = session.read("ZC")
                break
        else:
            raise ValueError(f"no quadratic non-residue below {_LARGEST_NON_RESIDUE_TRIED} "
                             f"modulo the p of {curve.name}; is p prime?")
    session.write("ZC", cache[curve.modulus])


@functools.cache
def _tonelli_shanks_start(curve: Curve) -> Program:
    """C, Y = R = c^((q+1)/2), TT = t = c^q, ZC = g (Montgomery form), ONEM = 1 (Montgomery form);
    the last command's EQ flag: c = 0."""
    q, _ = _two_adic(curve.modulus)
    p = Program(REGS)
    _right_hand_side(p)
    p.mul("ONEM", "ONE", "R2")
    p.mul("ZC", "ZC", "R2")
    if q > 1:
        p.power("U", "C", (q - 1) // 2, _TABLE)
    else:                            # p = 2^s + 1: c^0
        p.mov("U", "ONEM")
    p.mul("Y", "U", "C")             # c^((q+1)/2)
    p.mul("TT", "Y", "U")            # c^q
    p.zero("T1")
    p.compare("C", "T1")
    return p


@functools.cache
def _tonelli_shanks_update(squarings: int) -> Program:
    """b = g^(2^squarings); R ← R·b, g ← b², t ← t·g."""
    p = Program(REGS)
    p.mov("BB", "ZC")
    for _ in range(squarings):
        p.sqr("BB", "BB")
    p.sqr("ZC", "BB")
    p.mul("TT", "TT", "ZC")
    p.mul("Y", "Y", "BB")
    return p


@functools.cache
def _tonelli_shanks_order(limit: int) -> tuple[Program, tuple[int, ...]]:
    """t, t², t⁴, … t^(2^(limit−1)), each compared with 1: the program and the positions of the
    CMPs (the i-th one's EQ flag: t^(2^i) = 1)."""
    p = Program(REGS)
    p.mov("U", "TT")
    positions = []
    for i in range(limit):
        if i:
            p.sqr("U", "U")
        positions.append(len(p.commands))
        p.compare("U", "ONEM")
    return p, tuple(positions)


def _tonelli_shanks(unit: Unit, session: FieldSession, curve: Curve) -> bool:
    """Y = a square root of C (Montgomery form) if C is a square (True), else False."""
    _load_non_residue_power(unit, session, curve)
    _, limit = _two_adic(curve.modulus)
    start = _tonelli_shanks_start(curve)
    if _flag(session.execute(start.commands, f"{curve.name} square root")[-1], _EQ):
        return True                  # c = 0: Y = 0 already
    update: Sequence[tuple[int, int]] = ()
    while True:
        order, positions = _tonelli_shanks_order(limit)
        responses = session.execute([*update, *order.commands], f"{curve.name} square root")
        base = len(update)
        first_one = next((i for i, at in enumerate(positions) if _flag(responses[base + at], _EQ)),
                         None)
        if first_one is None:
            return False             # t has order 2^limit: c is not a square
        if first_one == 0:
            return True              # t = 1: R² = c
        update = _tonelli_shanks_update(limit - first_one - 1).commands
        limit = first_one


# ---------------------------------------------------------------------------------------------
# GF(2^m): half-trace
# ---------------------------------------------------------------------------------------------

@functools.cache
def _half_trace_program(m: int) -> Program:
    """x ≠ 0: β = x + a + b/x², z = half-trace(β); Y0 = x·z' and Y1 = x·(z' + 1) (plain) where z'
    is the solution with bit 0 clear; the last command compares z² + z with β."""
    p = Program(REGS)
    p.one("ONE")
    p.inverse("T1", "X")             # x⁻¹ by MINV (plain; x is public)
    p.mul("T1", "T1", "R2")
    p.mul("X", "X", "R2")
    p.mul("A", "A", "R2")
    p.mul("B", "B", "R2")
    p.sqr("T1", "T1")
    p.mul("T1", "T1", "B")           # b/x²
    p.xor("C", "X", "A")
    p.xor("C", "C", "T1")            # β
    p.mov("Y", "C")
    p.mov("T2", "C")
    for _ in range((m - 1) // 2):
        p.sqr("T2", "T2")
        p.sqr("T2", "T2")            # β^(4^i)
        p.xor("Y", "Y", "T2")
    p.sqr("T1", "Y")
    p.xor("T1", "T1", "Y")           # z² + z
    p.mul("T2", "Y", "ONE")          # z (plain)
    p.xor("T3", "T2", "ONE")         # z + 1 (plain: ONE is the polynomial 1)
    _low_bit_to_carry(p, "U", "T2")
    p.cswap("T2", "T3")              # T2: the solution with bit 0 clear, T3: with bit 0 set
    p.mul("Y0", "X", "T2")           # x·z (x in Montgomery form, z plain: the product is plain)
    p.mul("Y1", "X", "T3")
    p.compare("T1", "C")
    return p


@functools.cache
def _sqrt_b_program(m: int) -> Program:
    """x = 0: y = √b = b^(2^(m−1)), plain in Y0 and Y1."""
    p = Program(REGS)
    p.one("ONE")
    p.mul("Y", "B", "R2")
    for _ in range(m - 1):
        p.sqr("Y", "Y")
    p.mul("Y0", "Y", "ONE")
    p.mov("Y1", "Y0")
    return p


def _decompress_binary(unit: Unit, curve: Curve, x: int, y_bit: int) -> Point:
    m = gf2m.degree(curve.modulus)
    if x < 0 or x.bit_length() > m:
        raise InvalidPublicKey(f"compressed public key: x must be an element of GF(2^{m}) (at most "
                               f"{m} bits) for {curve.name}, got {x.bit_length()} bits")
    if m % 2 == 0:
        raise ValueError(f"the half-trace solves z² + z = β only for odd m; {curve.name} has "
                         f"m = {m}")
    session = FieldSession(unit, curve.modulus, Field.GF2M, REGS)
    for name, value in (("X", x), ("A", curve.a), ("B", curve.b)):
        session.write(name, value)
    if x == 0:
        session.execute(_sqrt_b_program(m).commands, f"{curve.name} point decompression")
        return 0, session.read("Y0")
    responses = session.execute(_half_trace_program(m).commands, f"{curve.name} point decompression")
    if not _flag(responses[-1], _EQ):
        raise _not_on_curve(curve, x, "z² + z = x + a + b/x² has no solution: its trace is 1")
    return x, session.read("Y1" if y_bit else "Y0")
