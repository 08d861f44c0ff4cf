"""Fixed-base k·G over GF(p) with a signed comb and the unit's table multiply (SHLX + MMX).

Key generation and ECDSA signing multiply the fixed generator G, so a table of multiples of G can
be computed once. The comb (Lim–Lee, with the signed all-±1 recoding of Hedabou–Pinel–Bénéteau /
Feng–Zhu–Xu) uses t = 4 teeth and d = ⌈(bits(n)+1)/4⌉ columns:

* k' = k or k + n, whichever is odd (k'·G = k·G), then k' = Σ_{j<4d} s_j·2^j with every s_j = ±1
  (c = (k' + 2^(4d) − 1)/2, s_j = 2·c_j − 1);
* column i holds s_i, s_(i+d), s_(i+2d), s_(i+3d); with σ = s_(i+3d) its value is σ·T[u] where
  T[u] = 2^(3d)·G + Σ_(m<3) (2u_m − 1)·2^(md)·G and u_m = (σ·s_(i+md) + 1)/2: eight table points;
* Q = σ·T[u] for the top column, then per column Q = 2Q + σ·T[u] (Jacobian doubling + mixed
  addition), d − 1 times; one Fermat inversion gives the affine result.

The table's x and y coordinates sit in two runs of eight registers. The host packs the columns'
indices u into a register that `SHLX …, 3` empties three bits at a time into the unit's window
register X, and `MMX` multiplies by entry X of a run: the unit selects the table point, in the same
time for every index. The sign σ is a CSWAP between S2 and −S2 on the C flag from `SHL1` of a sign
register. Every command is the same for every k, so the cycle count is too.

Exceptional additions (2Q = ±σ·T[u], probability about 8d/n for a random k) leave Z = 0, found by
one CMP of the final Z with 0; the caller then recomputes with the co-Z ladder (also constant time).

ECDSA signing checks each signature against a second k·G (`projective_program`,
`generator_x_is_one_of`): the same comb from a random projective start Z = λ, left projective and
compared with the candidate x's as X = x·Z², without the Fermat inversion.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable

from montu.arith.field import Field
from montu.driver import Unit
from montu.ec import doubled_y
from montu.ec.curves import Curve
from montu.ec.program import Program, Registers
from montu.ec.session import FieldSession, flag_words
from montu.isa import Response

TEETH = 4
TABLE_BITS = TEETH - 1
_TX = tuple(f"TX{i}" for i in range(1 << TABLE_BITS))
_TY = tuple(f"TY{i}" for i in range(1 << TABLE_BITS))
# XB/YB (the second point of the variable-base table's co-Z chain, montu.ec.window) are IDX/SGN.
REGS = Registers(("R2", "ONE", "MONE", "ZERO", "XA", "YA", "NUM", "T1", "T2", "T3", "T4", "T5", "T6",
                  "IDX", "SGN") + _TX + _TY, aliases={"XB": "IDX", "YB": "SGN"})


def supported(curve: Curve) -> bool:
    """The doubling below is written for a = −3 and a = 0 (every prime curve in the table)."""
    return not curve.is_binary and curve.a in (0, curve.modulus - 3)


def columns(curve: Curve) -> int:
    """d = ⌈bits(n)/4⌉: k' < n < 2^(4d)."""
    return -(-curve.n.bit_length() // TEETH)


def recode(k: int, curve: Curve) -> tuple[list[int], list[int]]:
    """(table indices u, negate flags) per column, top column first, and one more flag: negate
    the result (k even: k' = n − k, k·G = −(k'·G))."""
    d = columns(curve)
    even = 1 - (k & 1)
    odd = k + even * (curve.n - 2 * k)                 # k (odd) or n − k (k even)
    c = (odd + (1 << (TEETH * d)) - 1) >> 1
    signs = [2 * ((c >> j) & 1) - 1 for j in range(TEETH * d)]
    indices, negate = [], []
    for i in range(d - 1, -1, -1):
        sigma = signs[i + (TEETH - 1) * d]
        indices.append(sum(((sigma * signs[i + m * d] + 1) >> 1) << m for m in range(TABLE_BITS)))
        negate.append((1 - sigma) >> 1)
    return indices, negate + [even]


def _index_words(indices: list[int], length_bits: int) -> list[int]:
    per_word = length_bits // TABLE_BITS
    words = []
    for start in range(0, len(indices), per_word):
        chunk = indices[start:start + per_word]
        value = 0
        for u in chunk:
            value = (value << TABLE_BITS) | u
        words.append(value << (length_bits - TABLE_BITS * len(chunk)))
    return words


def _select(p: Program, d_x: str, d_y: str, src_x: str, src_y: str) -> None:
    """d_x = src_x·T[X].x, d_y = ±src_y·T[X].ŷ: next index into X, next sign into C."""
    doubled_y.select_point(p, d_x, d_y, src_x, src_y, (_TX[0], _TY[0]), TABLE_BITS)


def add_selected(p: Program) -> None:
    """(XA, Ŷ, NUM) += ±T[X] (doubled-Y mixed addition, 11M + 8 MLIN), the entry and sign chosen
    by the next index (SHLX) and sign (SHL1); exceptional additions leave Z = 0
    (`doubled_y.check_exceptional`)."""
    doubled_y.add_selected(p, (_TX[0], _TY[0]), TABLE_BITS)


def finish_affine(p: Program, curve: Curve, *, negate: bool = False) -> None:
    """(XA, YA) ← affine plain coordinates of the Jacobian (XA, Ŷ, NUM): Fermat inversion of Z,
    using the table registers as scratch."""
    doubled_y.finish_affine(p, curve, _TX, negate=negate)


# The register that holds the random start Z (plain, from the host) of a re-randomized run; free
# until the top column is selected.
START_Z = "T2"


def _comb_body(p: Program, curve: Curve, randomized: bool) -> None:
    """The table into Montgomery form, the top column, then d − 1 times Q = 2Q ± T[u].

    randomized=True: the top column starts at Jacobian (x·λ², ŷ·λ³, λ) for the λ the host wrote
    into START_Z instead of (x, ŷ, 1) — the same point, reached through different intermediate
    values (3 products more)."""
    p.one("ONE")
    p.zero("ZERO")
    p.mul("MONE", "ONE", "R2")                     # 1 in Montgomery form (R mod p)
    p.lin("T1", 2, "R2")                            # 2R² mod p: ŷ = 2y in Montgomery form
    for reg in _TX:
        p.mul(reg, reg, "R2")
    for reg in _TY:
        p.mul(reg, reg, "T1")
    if randomized:
        p.mul(START_Z, START_Z, "R2")              # λ (Montgomery form)
        p.sqr("T3", START_Z)                       # λ²
        p.mul("T4", "T3", START_Z)                 # λ³
        _select(p, "XA", "YA", "T3", "T4")         # Q = σ·T[u] at Z = λ
        p.mov("NUM", START_Z)
    else:
        _select(p, "XA", "YA", "MONE", "MONE")     # Q = σ·T[u] (top column), Z = 1
        p.mov("NUM", "MONE")
    double = Program(REGS)
    doubled_y.double(double, curve)                # uses T1…T6, XA, YA, NUM
    for _ in range(columns(curve) - 1):
        p.extend(double)
        add_selected(p)


def _check_length(curve: Curve, length_bits: int) -> None:
    d = columns(curve)
    if d * TABLE_BITS > length_bits or d > length_bits:
        raise ValueError(f"{curve.name}: comb needs more than one index/sign register")


@functools.cache
def comb_program(curve: Curve, length_bits: int) -> tuple[Program, list[int]]:
    """The program and the positions of its exceptional-addition CMPs."""
    _check_length(curve, length_bits)
    p = Program(REGS)
    _comb_body(p, curve, randomized=False)
    compares = [doubled_y.check_exceptional(p)]
    finish_affine(p, curve, negate=True)
    return p, compares


@functools.cache
def projective_program(curve: Curve, length_bits: int) -> tuple[Program, list[int]]:
    """k·G from a random start Z (START_Z), left in Jacobian (XA, YA = Ŷ, NUM), Montgomery form,
    and the positions of its exceptional-addition CMPs (its last command). No inversion: ECDSA's
    signature check compares x = X/Z² with its candidates as X = x·Z² (`x_compare_program`)."""
    _check_length(curve, length_bits)
    p = Program(REGS)
    _comb_body(p, curve, randomized=True)
    return p, [doubled_y.check_exceptional(p)]


@functools.cache
def x_compare_program(count: int) -> tuple[Program, list[int]]:
    """After `projective_program`: CMP of X with c·Z² for the `count` plain candidates c in TX0 …
    (EQ at one of the returned positions: x = X/Z² is that candidate)."""
    if count > len(_TX):
        raise ValueError(f"at most {len(_TX)} candidate x coordinates (got {count})")
    p = Program(REGS)
    p.sqr("T1", "NUM")                             # Z²
    compares = []
    for reg in _TX[:count]:
        p.mul(reg, reg, "R2")
        p.mul(reg, reg, "T1")                      # c·Z² (Montgomery form)
        compares.append(len(p.commands))
        p.compare("XA", reg)
    return p, compares


# The table T[0..7] (affine, plain): a constant of the curve, like G. Stored for the curves of the
# table in comb_tables.py (generated on the unit by `python3 -m montu.ec.comb_tables`); for any
# other curve computed on the unit once per unit.
_TABLES: weakref.WeakKeyDictionary[Unit, dict[str, list[tuple[int, int]]]] = weakref.WeakKeyDictionary()


def table(unit: Unit, curve: Curve, *, stored: bool = True) -> list[tuple[int, int]]:
    """The comb table of `curve`: the stored constants, else computed on `unit` (4 ladders and 24
    affine additions, cached per unit)."""
    from montu.ec import comb_tables, points

    if stored and curve.name in comb_tables.TABLES:
        return list(comb_tables.TABLES[curve.name])
    cache = _TABLES.setdefault(unit, {})
    if curve.name not in cache:
        d = columns(curve)
        multiples = [points.multiply_public(unit, curve, 1 << (m * d), curve.generator)
                     for m in range(TEETH)]
        negatives = [points.negate(unit, curve, q) for q in multiples]  # type: ignore[arg-type]
        entries = []
        for u in range(1 << TABLE_BITS):
            acc = multiples[TEETH - 1]
            for m in range(TABLE_BITS):
                acc = points.add(unit, curve, acc, multiples[m] if (u >> m) & 1 else negatives[m])
            if acc is None:
                raise ArithmeticError(f"{curve.name}: comb table entry {u} is the point at infinity")
            entries.append(acc)
        cache[curve.name] = entries
    return cache[curve.name]


def has_stored_table(curve: Curve) -> bool:
    """Whether the curve's comb table is a stored constant (comb_tables.py) rather than computed
    on a unit (and cached per unit)."""
    from montu.ec import comb_tables

    return curve.name in comb_tables.TABLES


def forget_table(unit: Unit, curve: Curve) -> None:
    """Drop the table computed on `unit` for `curve`, if any (after a fault it may be wrong)."""
    _TABLES.get(unit, {}).pop(curve.name, None)


def _run(unit: Unit, curve: Curve, k: int,
         program_of: Callable[[Curve, int], tuple[Program, list[int]]],
         start_z: int | None = None) -> tuple[FieldSession, list[Response], list[int]]:
    """Write the table, k's digits (and a start Z) and run one comb program."""
    entries = table(unit, curve)
    session = FieldSession(unit, curve.modulus, Field.GFP, REGS)
    program, compares = program_of(curve, session.length_bits)
    indices, negate = recode(k, curve)
    for i, (x, y) in enumerate(entries):
        session.write(_TX[i], x)
        session.write(_TY[i], y)
    session.write("IDX", _index_words(indices, session.length_bits)[0])
    session.write("SGN", flag_words(negate, session.length_bits)[0])
    if start_z is not None:
        session.write(START_Z, start_z)
    responses = session.execute(program.commands, f"{curve.name} fixed-base multiplication")
    return session, responses, compares


def multiply_generator(unit: Unit, curve: Curve, k: int) -> tuple[int, int] | None:
    """k·G for 1 ≤ k < n, constant time; None if an addition was exceptional (use the ladder)."""
    session, responses, compares = _run(unit, curve, k, comb_program)
    exceptional = any(responses[i].flags >> 1 & 1 for i in compares)
    x, y = session.read("XA"), session.read("YA")
    return None if exceptional else (x, y)


def generator_x_is_one_of(unit: Unit, curve: Curve, k: int, candidates: list[int],
                          start_z: int) -> bool | None:
    """Whether x(k·G) is one of the (public) candidates, for 1 ≤ k < n: k·G by the comb from the
    random start Z = start_z ∈ [1, p − 1] (`projective_program`), compared on the unit without an
    inversion. None if an addition was exceptional (the caller computes k·G another way)."""
    if not 1 <= start_z < curve.modulus:
        raise ValueError(f"start Z must be in [1, p − 1] for {curve.name}")
    if not all(0 <= c < curve.modulus for c in candidates):
        raise ValueError(f"candidate x coordinates must be in [0, p) for {curve.name}")
    session, responses, compares = _run(unit, curve, k, projective_program, start_z)
    if any(responses[i].flags >> 1 & 1 for i in compares):
        return None
    program, compares = x_compare_program(len(candidates))
    for reg, value in zip(_TX, candidates):
        session.write(reg, value)
    responses = session.execute(program.commands, f"{curve.name} x comparison")
    return any(responses[i].flags >> 1 & 1 for i in compares)
