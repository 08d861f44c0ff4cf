"""Point arithmetic of y² = x³ + a·x + b over GF(p) on the unit.

Scalar multiplication is the co-Z Montgomery ladder with (X, Y)-only co-Z conjugate addition
(Goundar, Joye, Miyaji, Rivain, Venelli 2011; Rivain 2011): both ladder points share one Jacobian
Z that is never computed; each step is XYCZ-ADDC then XYCZ-ADD (8M + 11A and 6M + 7A: 14 Montgomery
products and 18 modular additions per bit), preceded by one SHL1 of the flag register and two
CSWAPs. Z is recovered at the end from the base point (one inversion, by Fermat on the unit).
All values stay in Montgomery form (R = 2^L) from the first command to the last two.

Also here: the on-curve check, affine addition of public points (MINV), and Shamir's trick for
ECDSA verification (on the doubled-Y Jacobian formulas of montu.ec.doubled_y).
The ladder is the fallback of the faster window method (montu.ec.window) and is tested alone.
"""

from __future__ import annotations

import functools

from montu.arith.field import Field
from montu.driver import Unit
from montu.ec import doubled_y
from montu.ec.curves import Curve
from montu.ec.program import Program, Registers
from montu.ec.session import FieldSession, add_affine, flag_words, ladder_flags

_TABLE = tuple(f"W{i}" for i in range(9))  # x², x, x³ … x¹⁵ for the Fermat inversion
_NAMES = ("R2", "ONE", "A", "B", "XP", "YP", "NYP", "XA", "YA", "XB", "YB",
          "T1", "T2", "T3", "T4", "T5", "T6", "NUM", "DEN", "F0", "F1", "F2") + _TABLE
REGS = Registers(_NAMES)


def _zaddc(p: Program) -> None:
    """(A, B) co-Z → B = A + B, A = A − B, same new Z (XYCZ-ADDC): 8M + 11A."""
    p.sub("T1", "XA", "XB")
    p.sqr("T1", "T1")              # C = (X1 − X2)²
    p.mul("T2", "XA", "T1")        # W1
    p.mul("T3", "XB", "T1")        # W2
    p.sub("T4", "YA", "YB")        # Y1 − Y2
    p.add("T5", "YA", "YB")        # Y1 + Y2
    p.sub("T6", "T2", "T3")
    p.mul("T6", "YA", "T6")        # A1 = Y1 (W1 − W2)
    p.add("T1", "T2", "T3")        # W1 + W2
    p.sqr("XB", "T4")
    p.sub("XB", "XB", "T1")        # X(A+B) = (Y1 − Y2)² − W1 − W2
    p.sqr("XA", "T5")
    p.sub("XA", "XA", "T1")        # X(A−B) = (Y1 + Y2)² − W1 − W2
    p.sub("YB", "T2", "XB")
    p.mul("YB", "T4", "YB")
    p.sub("YB", "YB", "T6")        # Y(A+B) = (Y1 − Y2)(W1 − X3) − A1
    p.sub("YA", "T2", "XA")
    p.mul("YA", "T5", "YA")
    p.sub("YA", "YA", "T6")        # Y(A−B) = (Y1 + Y2)(W1 − X3') − A1


def _zaddu(p: Program, factor: str = "T1") -> None:
    """(B, A) co-Z → A = B + A, B = B with the new Z (XYCZ-ADD): 6M + 7A. Leaves XB_old − XA_old
    (the factor of the new Z) in `factor` (T1 unless named; not T2, T4, T5, T6)."""
    p.sub(factor, "XB", "XA")
    p.sqr("T2", factor)            # C
    p.mul("XB", "XB", "T2")        # W1 = X1·C: B's new X
    p.mul("T4", "XA", "T2")        # W2
    p.sub("T5", "YB", "YA")        # Y1 − Y2
    p.sub("T6", "XB", "T4")
    p.mul("YB", "YB", "T6")        # A1 = Y1 (W1 − W2): B's new Y
    p.sqr("XA", "T5")
    p.sub("XA", "XA", "XB")
    p.sub("XA", "XA", "T4")        # X3 = (Y1 − Y2)² − W1 − W2
    p.sub("T6", "XB", "XA")
    p.mul("YA", "T5", "T6")
    p.sub("YA", "YA", "YB")        # Y3 = (Y1 − Y2)(W1 − X3) − A1


def _flag_reg(index: int, length_bits: int) -> str:
    return f"F{index // length_bits}"


@functools.cache
def ladder_program(curve: Curve, steps: int, length_bits: int) -> Program:
    """kP for a scalar of exactly steps+1 bits, P affine in (XP, YP), flags in F0…; result affine
    (not Montgomery) in (XA, YA). Needs A (= a) plain; every command is the same for every k."""
    p = Program(REGS)
    p.one("ONE")
    p.mul("XP", "XP", "R2")
    p.mul("YP", "YP", "R2")
    p.mul("A", "A", "R2")
    p.zero("T1")
    p.sub("NYP", "T1", "YP")
    # XYCZ-IDBL: (A, B) = (P, 2P) with the common Z = 2·y_P.
    p.sqr("T1", "XP")              # x²
    p.sqr("T2", "YP")              # y²
    p.sqr("YA", "T2")              # y⁴
    p.mul("XA", "XP", "T2")
    p.dbl("XA", "XA")
    p.dbl("XA", "XA")              # S = 4·x·y²: P's X
    p.dbl("T5", "T1")
    p.add("T5", "T5", "T1")
    p.add("T5", "T5", "A")         # M = 3x² + a
    p.sqr("XB", "T5")
    p.dbl("T6", "XA")
    p.sub("XB", "XB", "T6")        # X(2P) = M² − 2S
    p.dbl("YA", "YA")
    p.dbl("YA", "YA")
    p.dbl("YA", "YA")              # 8y⁴: P's Y
    p.sub("T6", "XA", "XB")
    p.mul("YB", "T5", "T6")
    p.sub("YB", "YB", "YA")        # Y(2P) = M(S − X) − 8y⁴
    flag = 0
    for _ in range(steps - 1):
        p.shift_flag(_flag_reg(flag, length_bits))
        flag += 1
        p.cswap("XA", "XB")
        p.cswap("YA", "YB")
        _zaddc(p)
        _zaddu(p)
    # Last step, split to recover Z: after ADDC, A = ±P (+ when b_0 = 1), so
    # Z = YA·x_P / (XA·(±y_P)) and the final Z' = Z·(XB − XA) of the following ADD.
    p.shift_flag(_flag_reg(flag, length_bits))
    flag += 1
    p.cswap("XA", "XB")
    p.cswap("YA", "YB")
    _zaddc(p)
    p.shift_flag(_flag_reg(flag, length_bits))   # b_0
    flag += 1
    p.cswap("NYP", "YP")                         # NYP = y_P if b_0 else −y_P
    p.mul("NUM", "XA", "NYP")
    p.mul("DEN", "YA", "XP")
    _zaddu(p)
    p.mul("DEN", "DEN", "T1")                    # 1/Z' = NUM / DEN
    p.power("T2", "DEN", curve.modulus - 2, _TABLE)  # Fermat: DEN^(p−2) = DEN⁻¹
    p.mul("T3", "NUM", "T2")                     # λ = 1/Z'
    p.sqr("T4", "T3")
    p.mul("T3", "T4", "T3")
    p.shift_flag(_flag_reg(flag, length_bits))   # b_0 again: R0 back into A
    p.cswap("XA", "XB")
    p.cswap("YA", "YB")
    p.mul("XA", "XA", "T4")                      # x = X·λ²
    p.mul("YA", "YA", "T3")                      # y = Y·λ³
    p.mul("XA", "XA", "ONE")                     # out of Montgomery form
    p.mul("YA", "YA", "ONE")
    return p


def scalar_mult(unit: Unit, curve: Curve, scalar: int, steps: int, point: tuple[int, int]) -> tuple[int, int]:
    """scalar·point for a scalar of exactly steps+1 bits (see session.fixed_length_scalar); the
    command sequence, hence the cycle count, is the same for every such scalar."""
    session = FieldSession(unit, curve.modulus, Field.GFP, REGS)
    program = ladder_program(curve, steps, session.length_bits)
    session.write("XP", point[0])
    session.write("YP", point[1])
    session.write("A", curve.a)
    for i, word in enumerate(flag_words(ladder_flags(scalar, steps) + [scalar & 1], session.length_bits)):
        session.write(f"F{i}", word)
    session.execute(program.commands, f"{curve.name} scalar multiplication")
    return session.read("XA"), session.read("YA")


@functools.cache
def _on_curve_program() -> Program:
    p = Program(REGS)
    p.mul("XP", "XP", "R2")
    p.mul("YP", "YP", "R2")
    p.mul("A", "A", "R2")
    p.mul("B", "B", "R2")
    p.sqr("T1", "YP")              # y²
    p.sqr("T2", "XP")
    p.add("T2", "T2", "A")
    p.mul("T2", "T2", "XP")
    p.add("T2", "T2", "B")         # x³ + a·x + b
    p.compare("T1", "T2")
    return p


def is_on_curve(unit: Unit, curve: Curve, point: tuple[int, int]) -> bool:
    """y² == x³ + a·x + b, computed and compared on the unit (coordinates must be < p)."""
    session = FieldSession(unit, curve.modulus, Field.GFP, REGS)
    for name, value in (("XP", point[0]), ("YP", point[1]), ("A", curve.a), ("B", curve.b)):
        session.write(name, value)
    responses = session.execute(_on_curve_program().commands, f"{curve.name} on-curve check")
    return bool(responses[-1].flags >> 1 & 1)


@functools.cache
def _add_programs() -> tuple[Program, Program, Program, Program]:
    """Affine P + Q for public points: compare, then add or double with MINV (variable time)."""
    cmp = Program(REGS)
    cmp.compare("XA", "XB")
    cmp_y = Program(REGS)
    cmp_y.compare("YA", "YB")
    add = Program(REGS)
    add.sub("T1", "XB", "XA")      # x2 − x1 (plain values: differences are the same in any form)
    add.sub("T2", "YB", "YA")
    _finish(add, "T2", "T1")
    dbl = Program(REGS)
    dbl.mul("T3", "XA", "R2")      # x in Montgomery form
    dbl.sqr("T1", "T3")
    dbl.dbl("T2", "T1")
    dbl.add("T2", "T2", "T1")
    dbl.one("ONE")
    dbl.mul("T2", "T2", "ONE")     # 3x² (plain)
    dbl.add("T2", "T2", "A")       # + a
    dbl.dbl("T1", "YA")            # 2y
    dbl.mov("XB", "XA")
    _finish(dbl, "T2", "T1")
    return cmp, cmp_y, add, dbl


def _finish(p: Program, num: str, den: str) -> None:
    """λ = num/den (plain), x3 = λ² − x1 − x2, y3 = λ(x1 − x3) − y1, results plain in (XA, YA)."""
    p.inverse("T3", den)
    p.mul("T3", "T3", "R2")        # den⁻¹·R
    p.mul("T3", "T3", num)         # λ (plain)
    p.mul("T4", "T3", "R2")        # λ·R
    p.mul("T5", "T4", "T3")        # λ² (plain)
    p.sub("T5", "T5", "XA")
    p.sub("T5", "T5", "XB")        # x3
    p.sub("T6", "XA", "T5")
    p.mul("T6", "T6", "T4")        # λ(x1 − x3)
    p.sub("YA", "T6", "YA")
    p.mov("XA", "T5")


def add_public(unit: Unit, curve: Curve, p1: tuple[int, int] | None,
               p2: tuple[int, int] | None) -> tuple[int, int] | None:
    """p1 + p2 for public affine points (None = the point at infinity), on the unit."""
    return add_affine(unit, curve, Field.GFP, REGS, _add_programs(), p1, p2,
                      two_torsion_coordinate=1)


@functools.cache
def _negate_program() -> Program:
    p = Program(REGS)
    p.zero("T1")
    p.sub("YA", "T1", "YA")
    return p


def negate(unit: Unit, curve: Curve, point: tuple[int, int]) -> tuple[int, int]:
    """−(x, y) = (x, −y mod p), the subtraction on the unit."""
    session = FieldSession(unit, curve.modulus, Field.GFP, REGS)
    session.write("YA", point[1])
    session.execute(_negate_program().commands, "point negation")
    return point[0], session.read("YA")


# ---------------------------------------------------------------------------------------------
# u1·G + u2·Q for ECDSA verification (public scalars): Shamir's trick in Jacobian coordinates with
# Y doubled (montu.ec.doubled_y: doubling 8M + 5 MLIN, mixed addition 11M + 7 MLIN). Per bit one
# doubling and, for a non-zero bit pair, one mixed addition of G, Q or G + Q, the host picking the
# entry from the public bits. An exceptional addition (equal or opposite points) leaves Z = 0 to
# the end, where one CMP finds it; the caller then falls back to the ladders.
# ---------------------------------------------------------------------------------------------

@functools.cache
def _shamir_blocks(curve: Curve) -> tuple[Program, Program, dict[int, Program], Program, Program]:
    """(setup, doubling, additions of G / Q / G + Q, check of Z, affine x): the check (CMP of Z
    with 0) and the affine finish are separate batches, so the MINV of Z is sent only after the
    host has read the check's EQ flag — MINV of Z = 0 has no answer (the unit reports
    E_NO_INVERSE), and Z = 0 is exactly the case the check is there to catch."""
    setup = Program(REGS)
    setup.one("ONE")
    setup.zero("DEN")
    setup.lin("T6", 2, "R2")       # 2R²: y enters doubled (ŷ = 2y, Montgomery form)
    for reg in ("XP", "XB", "W0", "A"):
        setup.mul(reg, reg, "R2")
    for reg in ("YP", "YB", "W1"):
        setup.mul(reg, reg, "T6")
    setup.mul("XA", "XA", "R2")
    setup.mul("YA", "YA", "T6")
    setup.mul("NUM", "ONE", "R2")  # Z = 1
    double = Program(REGS)
    doubled_y.double(double, curve)
    adds = {}
    for index, (x, y) in {1: ("XP", "YP"), 2: ("XB", "YB"), 3: ("W0", "W1")}.items():
        adds[index] = Program(REGS)
        doubled_y.add_point(adds[index], x, y)
    check = Program(REGS)
    doubled_y.check_exceptional(check, "DEN")
    finish = Program(REGS)         # x = X / Z² (plain), Z ≠ 0 inverted by MINV (public value)
    finish.mul("T1", "NUM", "ONE")
    finish.inverse("T2", "T1")
    finish.mul("T2", "T2", "R2")   # Z⁻¹·R
    finish.sqr("T2", "T2")
    finish.mul("XA", "XA", "T2")
    finish.mul("XA", "XA", "ONE")
    return setup, double, adds, check, finish


def double_scalar_x(unit: Unit, curve: Curve, u1: int, u2: int, q: tuple[int, int],
                    g_plus_q: tuple[int, int]) -> int | None:
    """x(u1·G + u2·Q) for public u1, u2 in [1, n−1]; None if an exceptional addition occurred
    (equal or opposite points, or a sum at infinity: the final Z is 0 and the caller then uses
    the ladders). Two batches: the joint double-and-add ending in CMP(Z, 0), then — only if
    Z ≠ 0 — the inversion of Z and the affine x."""
    setup, double, adds, check, finish = _shamir_blocks(curve)
    table = {1: curve.generator, 2: q, 3: g_plus_q}
    top = max(u1.bit_length(), u2.bit_length()) - 1
    first = ((u1 >> top) & 1) | (((u2 >> top) & 1) << 1)
    commands = list(setup.commands)
    session = FieldSession(unit, curve.modulus, Field.GFP, REGS)
    for name, value in (("XP", curve.gx), ("YP", curve.gy), ("XB", q[0]), ("YB", q[1]),
                        ("W0", g_plus_q[0]), ("W1", g_plus_q[1]), ("A", curve.a),
                        ("XA", table[first][0]), ("YA", table[first][1])):
        session.write(name, value)
    for i in range(top - 1, -1, -1):
        commands += double.commands
        index = ((u1 >> i) & 1) | (((u2 >> i) & 1) << 1)
        if index:
            commands += adds[index].commands
    commands += check.commands
    what = f"{curve.name} double scalar multiplication"
    if session.execute(commands, what)[-1].flags >> 1 & 1:
        return None                                # Z = 0: an exceptional addition
    session.execute(finish.commands, what)
    return session.read("XA")
