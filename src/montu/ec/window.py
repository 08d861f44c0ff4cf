"""Variable-base k·P over GF(p): fixed window of signed odd digits, table selected by SHLX/MMX.

The base P is public in every use (a peer's key in ECDH, a verified key), so its table of odd
multiples P, 3P, …, 15P is built with public-data methods, and only the digit sequence is secret:

* table (one batch): XYCZ-IDBL gives P and 2P with one Z; seven co-Z additions (XYCZ-ADD, 6M + 7A)
  give 3P, 5P, …, 15P, each time re-scaling the entries already made to the new common Z
  (×t², ×t³); one MINV of that (public) Z makes all eight affine, in Montgomery form, in the same
  registers the comb uses;
* digits: k' = k or k + n, whichever is odd, written with D = ⌈(bits(n)+1)/4⌉ odd digits
  d_i ∈ {±1, ±3, …, ±15} (d = (k' mod 32) − 16, k' ← (k' − d)/16), so no digit is 0;
* Q = d_(D−1)·P, then D − 1 times: four Jacobian doublings and Q += ±T[(|d| − 1)/2] (the comb's
  mixed addition with the SHLX/MMX table selection and the CSWAP sign); one Fermat inversion.

Per 4 bits at P-256: 4 × 316 + 384 ≈ 1,650 cycles, against 4 × 549 = 2,196 for the co-Z ladder.
Every command is the same for every k; exceptional additions (16Q = ±d·P, a negligible set of
scalars) are detected by CMP(H, 0) and the caller falls back to the co-Z ladder.
"""

from __future__ import annotations

import functools

from montu.arith.field import Field
from montu.driver import Unit
from montu.ec import comb, doubled_y, prime
from montu.ec.curves import Curve
from montu.ec.program import Program
from montu.ec.session import FieldSession, flag_words

WIDTH = 4                                   # bits per digit; 2^(WIDTH−1) = 8 table entries
REGS = comb.REGS
_TX, _TY = comb._TX, comb._TY  # noqa: SLF001 (the same register runs as the comb)


def supported(curve: Curve) -> bool:
    return comb.supported(curve)


def digits(curve: Curve) -> int:
    """D = ⌈bits(n)/4⌉: k' < n < 2^(4D) leaves a top digit in 1 … 15 (each step takes an odd
    value v < 2^(4i) to 2·⌊v/32⌋ + 1 < 2^(4(i−1)))."""
    return -(-curve.n.bit_length() // WIDTH)


def _last_digit(value: int) -> int:
    return (value & ((1 << (WIDTH + 1)) - 1)) - (1 << WIDTH)


def _irregular(value: int, curve: Curve) -> bool:
    """Whether the odd digits of k' = value meet an exceptional addition. Before digit i the
    accumulator is 16·V (V = k' with digits 0 … i removed, 1 ≤ V, 16·V < n for i ≥ 1 since
    k' < 2^(4D) < 16n), so only the last addition can be exceptional: 16·V ≡ ±d₀ (mod n), i.e.
    k' = n + 2·d₀."""
    return value - curve.n == 2 * _last_digit(value)


def representation(k: int, curve: Curve) -> tuple[int, int]:
    """(k', negate): an odd k' < 2^(4D) with k·P = ±k'·P. Odd k: k' = k. Even k: k + n when it fits
    in D digits, else n − k with the result negated; of the two, one whose last addition is
    regular (`_irregular`: k' = n + 2·d₀, at most one even k per curve has to switch)."""
    if k & 1:
        return k, 0
    choices = [(curve.n - k, 1)]
    if k + curve.n < 1 << (WIDTH * digits(curve)):
        choices.insert(0, (k + curve.n, 0))
    for value, negate in choices:
        if not _irregular(value, curve):
            return value, negate
    return choices[0]


def exceptional_scalars(curve: Curve) -> list[int]:
    """Every k in [1, n − 1] whose window run meets an exceptional addition (the caller then takes
    the ladder). By `_irregular`, k' = n + 2·d₀ with |d₀| ≤ 15, so only k = 2 … 30 (even, through
    k' = k + n or n − k) and k = n − 30 … n − 2 (odd, k' = k) can be; check each."""
    candidates = [2 * j for j in range(1, 1 << WIDTH)] + [curve.n - 2 * j for j in range(1, 1 << WIDTH)]
    return sorted(k for k in candidates
                  if 1 <= k < curve.n and _irregular(representation(k, curve)[0], curve))


def recode(k: int, curve: Curve) -> tuple[list[int], list[int]]:
    """(table indices (|d| − 1)/2, negate flags) of the odd digits of k' (`representation`), top
    first, and one more flag: negate the result."""
    count = digits(curve)
    value, negate_result = representation(k, curve)
    sequence = []
    for _ in range(count - 1):
        d = _last_digit(value)
        sequence.append(d)
        value = (value - d) >> WIDTH
    if not 1 <= value < 1 << WIDTH:
        raise AssertionError("window recoding: top digit out of range")  # excluded by digits()
    sequence.append(value)
    sequence.reverse()
    return [(abs(d) - 1) >> 1 for d in sequence], [int(d < 0) for d in sequence] + [negate_result]


# Where the co-Z factor t_j of table step j waits for the backward pass (t_7 stays in T1): the
# registers free during the whole chain (ONE, MONE and ZERO are made again at the end), and
# TX7/TY7, which step 7 does not need (entry 7 stays in XA/YA until the backward pass).
_FACTOR_REGS = ("TX7", "TY7", "T3", "ONE", "MONE", "ZERO")


@functools.cache
def table_program(curve: Curve) -> Program:
    """P (plain, in TX0/TY0) → T[j] = (2j+1)·P affine, (x, ŷ = 2y) in Montgomery form, in TXj/TYj.

    XYCZ-IDBL gives P and 2P at Z_0 = 2y; step j (XYCZ-ADD) gives (2j+1)P and moves 2P to
    Z_j = Z_(j−1)·t_j, leaving the entries made before at their own Z_i. One MINV of Z_7 (a
    function of P, public) and a backward pass w_7 = Z_7⁻¹, w_(i−1) = w_i·t_i = Z_(i−1)⁻¹ make
    every entry affine: 7 + 4·8 products instead of re-scaling all earlier entries at every step.
    """
    p = Program(REGS)
    p.one("ONE")
    p.mul("MONE", "ONE", "R2")
    p.mul("TX0", "TX0", "R2")
    p.mul("TY0", "TY0", "R2")
    # XYCZ-IDBL: (XA, YA) = P, (XB, YB) = 2P, common Z = 2y (tracked in NUM).
    p.sqr("T1", "TX0")
    p.sqr("T2", "TY0")
    p.sqr("YA", "T2")                          # y⁴
    p.mul("XA", "TX0", "T2")
    p.lin("XA", 3, "XA", 1, "XA")              # 4·x·y²
    if curve.a == curve.modulus - 3:
        p.lin("T5", 3, "T1", -3, "MONE")       # M = 3x² − 3
    else:
        p.lin("T5", 3, "T1")                   # M = 3x² (a = 0)
    p.sqr("XB", "T5")
    p.lin("XB", 1, "XB", -2, "XA")             # M² − 8xy²
    p.lin("YA", 3, "YA", 1, "YA")
    p.lin("YA", 2, "YA")                       # 8y⁴
    p.lin("T6", 1, "XA", -1, "XB")
    p.mul("YB", "T5", "T6")
    p.lin("YB", 1, "YB", -1, "YA")
    p.lin("NUM", 2, "TY0")                     # Z_0 = 2y
    p.mov("TX0", "XA")
    p.mov("TY0", "YA")
    last = len(_TX) - 1
    for j in range(1, last + 1):
        factor = _FACTOR_REGS[j - 1] if j < last else "T1"
        prime._zaddu(p, factor)  # noqa: SLF001 — A = 2P + (2j−1)P, B = 2P; Z_j = Z_(j−1)·t_j
        p.mul("NUM", "NUM", factor)
        if j < last:
            p.mov(_TX[j], "XA")
            p.mov(_TY[j], "YA")
    p.mov("XB", _FACTOR_REGS[0])               # t_1, t_2 out of TX7/TY7
    p.mov("YB", _FACTOR_REGS[1])
    factors = ("XB", "YB") + _FACTOR_REGS[2:] + ("T1",)
    p.one("T2")
    p.mul("T2", "NUM", "T2")                   # Z_7 (plain): depends on P only, public
    p.inverse("T4", "T2")
    p.mul("T4", "T4", "R2")                    # w_7 = Z_7⁻¹ in Montgomery form
    for i in range(last, -1, -1):
        if i < last:
            p.mul("T4", "T4", factors[i])      # w_i = w_(i+1)·t_(i+1)
        p.sqr("T5", "T4")
        p.mul("T6", "T5", "T4")
        p.lin("T6", 2, "T6")                   # 2·w³: the table holds ŷ = 2y
        p.mul(_TX[i], "XA" if i == last else _TX[i], "T5")
        p.mul(_TY[i], "YA" if i == last else _TY[i], "T6")
    p.one("ONE")
    p.zero("ZERO")
    p.mul("MONE", "ONE", "R2")
    return p


@functools.cache
def main_program(curve: Curve) -> tuple[Program, list[int]]:
    p = Program(REGS)
    comb._select(p, "XA", "YA", "MONE", "MONE")  # noqa: SLF001 — Q = d_top·P, Z = 1
    p.mov("NUM", "MONE")
    double = Program(REGS)
    doubled_y.double(double, curve)
    for _ in range(digits(curve) - 1):
        for _ in range(WIDTH):
            p.extend(double)
        comb.add_selected(p)
    compares = [doubled_y.check_exceptional(p)]
    comb.finish_affine(p, curve, negate=True)
    return p, compares


def multiply(unit: Unit, curve: Curve, k: int, point: tuple[int, int]) -> tuple[int, int] | None:
    """k·point for 1 ≤ k < n and a public point of order n, in the same cycles for every k;
    None if an addition was exceptional (the caller uses the ladder)."""
    session = FieldSession(unit, curve.modulus, Field.GFP, REGS)
    session.write("TX0", point[0])
    session.write("TY0", point[1])
    session.execute(table_program(curve).commands, f"{curve.name} window table")
    indices, negate = recode(k, curve)
    session.write("IDX", comb._index_words(indices, session.length_bits)[0])  # noqa: SLF001
    session.write("SGN", flag_words(negate, session.length_bits)[0])
    program, compares = main_program(curve)
    responses = session.execute(program.commands, f"{curve.name} scalar multiplication")
    exceptional = any(responses[i].flags >> 1 & 1 for i in compares)
    x, y = session.read("XA"), session.read("YA")
    return None if exceptional else (x, y)
