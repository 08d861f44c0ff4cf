"""Jacobian formulas over GF(p) with Y kept doubled (Ŷ = 2Y), written for the MLIN instruction.

The comb (fixed base, montu.ec.comb), the signed window (variable base, montu.ec.window) and
Shamir's trick of ECDSA verification (montu.ec.prime) hold their accumulator as (X, Ŷ, Z) with
Ŷ = 2Y, and their tables as affine (x, ŷ = 2y), all in Montgomery form. Doubling Y is what the a = −3 doubling does first anyway (Z3 = 2Y·Z, 4β = X·(2Y)²),
so keeping it doubled removes the two doublings by 2 of every doubling; MLIN (rd = ca·ra + cb·rb
mod N, constants −3 … 3, one 2W+1-cycle instruction) then does each linear step of the formulas in
one instruction where MADD/MSUB/MDBL took two or three.

Doubling, a = −3 (δ = Z², Ŷ² = 4Y², 4β = X·Ŷ², α = 3(X − δ)(X + δ)):

    X3 = α² − 2·4β         Ŷ3 = 2·α·(3·4β − α²) − (Ŷ²)²         Z3 = Ŷ·Z
    (3·4β − α² = 4β − X3)   8M (3M + 5S) + 5 MLIN   (a = 0: α = 3X², 7M + 4 MLIN)

Mixed addition of a table point ±(x, ŷ): with U2 = x·Z², Ŝ2 = ±ŷ·Z³, H = U2 − X, r̂ = Ŝ2 − Ŷ = 2r,
the sum is computed scaled by λ = 2 (the same Jacobian point (4X3, 8Y3, 2Z3)):

    H̃ = 2H   A = X·H̃² (= 4XH²)   B = H·H̃² (= 4H³)
    X' = r̂² − B − 2A        Ŷ' = 2·(r̂·(A − X') − Ŷ·B)        Z' = Z·H̃
    11M (8M + 3S) + 8 MLIN, with the sign folded into r̂: both Ŝ2 − Ŷ and −Ŝ2 − Ŷ are formed and
    a CSWAP on the sign flag keeps one (`add_point`, a fixed point without a sign: 7 MLIN).

H = 0 (equal or opposite points, where the formula fails) gives Z' = 0, which every later step
keeps: one CMP of the final Z with 0 flags it (`check_exceptional`).
At the end x = X·Z⁻², y = Ŷ·Z⁻³·(1/2) with 1/2 = (p + 1)/2 made on the unit (LDONE, ADD R0, SHR1).
"""

from __future__ import annotations

from montu.ec.curves import Curve
from montu.ec.program import Program


def double(p: Program, curve: Curve) -> None:
    """(XA, YA = Ŷ, NUM) ← 2·(XA, YA = Ŷ, NUM); scratch T1 … T6. Any other a than −3 and 0 needs
    a register A holding a·R."""
    if curve.is_binary:
        raise ValueError(f"{curve.name}: Jacobian doubling is for prime curves")
    p.sqr("T2", "YA")                     # Ŷ² = 4Y²
    p.mul("T3", "XA", "T2")               # 4β = 4X·Y²
    if curve.a == curve.modulus - 3:
        p.sqr("T1", "NUM")                # δ = Z²
        p.lin("T4", 3, "XA", -3, "T1")    # 3(X − δ)
        p.lin("T5", 1, "XA", 1, "T1")     # X + δ
        p.mul("T4", "T4", "T5")           # α = 3(X² − Z⁴)
    elif curve.a == 0:
        p.sqr("T4", "XA")
        p.lin("T4", 3, "T4")              # α = 3X²
    else:
        p.sqr("T1", "NUM")
        p.sqr("T5", "T1")
        p.mul("T5", "T5", "A")            # a·Z⁴
        p.sqr("T4", "XA")
        p.lin("T4", 3, "T4", 1, "T5")     # α = 3X² + a·Z⁴
    p.mul("NUM", "YA", "NUM")             # Z3 = Ŷ·Z = 2YZ
    p.sqr("XA", "T4")                     # α²
    p.lin("T6", 3, "T3", -1, "XA")        # 12β − α² = 4β − X3
    p.lin("XA", 1, "XA", -2, "T3")        # X3 = α² − 8β
    p.mul("T6", "T4", "T6")               # α(4β − X3)
    p.sqr("T2", "T2")                     # Ŷ⁴ = 16Y⁴
    p.lin("YA", 2, "T6", -1, "T2")        # Ŷ3 = 2(α(4β − X3) − 8Y⁴)


def select_point(p: Program, d_x: str, d_y: str, src_x: str, src_y: str, table: tuple[str, str],
                 width: int) -> None:
    """d_x = src_x·T[X].x, d_y = ±src_y·T[X].ŷ: the next `width` index bits into the window
    register X (SHLX of IDX), the next sign into C (SHL1 of SGN); scratch T6."""
    p.shift_window("IDX", width)
    p.mul_table(d_x, src_x, table[0], width)
    p.mul_table(d_y, src_y, table[1], width)
    p.lin("T6", -1, d_y)
    p.shift_flag("SGN")
    p.cswap(d_y, "T6")


def add_selected(p: Program, table: tuple[str, str], width: int) -> None:
    """(XA, YA = Ŷ, NUM) += ±T[X] (affine (x, ŷ), Montgomery form), the entry and sign chosen by
    the next index (SHLX) and sign (SHL1) bits. An exceptional addition (H = 0: equal or opposite
    points) makes Z' = Z·2H = 0, and Z stays 0 through every later doubling (Z·Ŷ) and addition
    (Z·H̃): `check_exceptional` at the end finds it with one CMP."""
    p.sqr("T1", "NUM")                    # Z²
    p.mul("T2", "T1", "NUM")              # Z³
    p.shift_window("IDX", width)
    p.mul_table("T1", "T1", table[0], width)   # U2 = x·Z²
    p.mul_table("T2", "T2", table[1], width)   # Ŝ2 = ŷ·Z³
    p.lin("T6", -1, "T2", -1, "YA")       # −Ŝ2 − Ŷ
    p.lin("T2", 1, "T2", -1, "YA")        # Ŝ2 − Ŷ
    p.shift_flag("SGN")
    p.cswap("T2", "T6")                   # r̂ = ±Ŝ2 − Ŷ = 2r
    _add_with_r(p)


def add_point(p: Program, x2: str, y2: str) -> None:
    """(XA, YA = Ŷ, NUM) += (x2, ŷ2 = 2·y2) held in the named registers (Montgomery form)."""
    p.sqr("T1", "NUM")                    # Z²
    p.mul("T2", "T1", "NUM")              # Z³
    p.mul("T1", "T1", x2)                 # U2 = x·Z²
    p.mul("T2", "T2", y2)                 # Ŝ2 = ŷ·Z³
    p.lin("T2", 1, "T2", -1, "YA")        # r̂ = Ŝ2 − Ŷ = 2r
    _add_with_r(p)


def _add_with_r(p: Program) -> None:
    """The rest of the mixed addition, from U2 in T1 and r̂ in T2 (scaled by λ = 2, see above)."""
    p.lin("T5", 1, "T1", -1, "XA")        # H
    p.lin("T1", 2, "T1", -2, "XA")        # H̃ = 2H
    p.mul("NUM", "NUM", "T1")             # Z' = Z·H̃ = 2ZH
    p.sqr("T3", "T1")                     # H̃² = 4H²
    p.mul("T4", "T3", "T5")               # B = 4H³
    p.mul("T3", "XA", "T3")               # A = 4XH²
    p.sqr("XA", "T2")                     # r̂²
    p.lin("XA", 1, "XA", -1, "T4")
    p.lin("XA", 1, "XA", -2, "T3")        # X' = r̂² − B − 2A
    p.lin("T3", 1, "T3", -1, "XA")        # A − X'
    p.mul("T3", "T2", "T3")               # r̂(A − X')
    p.mul("T4", "YA", "T4")               # Ŷ·B
    p.lin("YA", 2, "T3", -2, "T4")        # Ŷ' = 2(r̂(A − X') − Ŷ·B)


def check_exceptional(p: Program, zero: str = "ZERO") -> int:
    """CMP(Z, 0) after the last addition; returns its position (EQ set: an addition was
    exceptional, the result must come from elsewhere). Z ≠ 0 otherwise: the group has odd prime
    order, so no doubling meets Ŷ = 0."""
    position = len(p.commands)
    p.compare("NUM", zero)
    return position


def finish_affine(p: Program, curve: Curve, scratch: tuple[str, ...], *, negate: bool = False) -> None:
    """(XA, YA) ← the affine plain (x, y) of the Jacobian (XA, Ŷ, NUM): Z inverted by Fermat (an
    exponentiation by the public p − 2: the same commands for every Z). negate=True: one more
    sign flag (SHL1 of SGN) chooses y or −y by CSWAP. Scratch T1 … T4 and `scratch` (≥ 3
    registers, the power's table)."""
    p.power("T1", "NUM", curve.modulus - 2, ("T2",) + tuple(scratch))
    p.sqr("T2", "T1")                     # Z⁻²
    p.mul("T1", "T2", "T1")               # Z⁻³
    p.mul("XA", "XA", "T2")
    p.mul("YA", "YA", "T1")
    p.half("T3")
    p.mul("XA", "XA", "ONE")              # x, plain
    p.mul("YA", "YA", "T3")               # Ŷ·Z⁻³/2 = y, plain
    if negate:
        p.lin("T4", -1, "YA")
        p.shift_flag("SGN")
        p.cswap("YA", "T4")
