"""Cilardo & Mazzocca 2008, "Time efficient dual-field unit for cryptography-related processing".

Golden models of the paper's dual-field (GF(N) and GF(2^n)) Montgomery multiplier:

* Alg. 3, radix-4 Montgomery multiplication, driven by the Booth recoding of Table 1 and the
  Montgomery (quotient) recoding of Table 2 (``mont_mul_radix4``, ``radix4_steps``);
* Alg. 2, FIOS over w-bit words on the recoded word unit, timed by the 8-stage pipeline of
  Figs. 8-9 (``mont_mul_fios``, ``fios_rows``, ``pipeline_schedule``);
* the recodings themselves (``booth_digit``, ``montgomery_digit``, ``recoded_multiple``).

Field select follows the paper: fsel = 1 is GF(N), fsel = 0 is GF(2^n) (``fsel_of(field)``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from montu.arith import gf2m
from montu.arith.cilardo_fios import (
    PAPER_GFN_CLOCKS,
    PAPER_WORD_BITS,
    PIPELINE_STAGES,
    FiosRow,
    PipelineSchedule,
    fios_correct,
    fios_r_exponent,
    fios_rows,
    fios_word_count,
    mont_mul_fios,
    pipeline_schedule,
)
from montu.arith.cilardo_recoding import (
    INTEGER_MODE,
    POLYNOMIAL_MODE,
    Digit,
    add,
    booth_digit,
    booth_digits,
    fsel_of,
    montgomery_digit,
    recoded_multiple,
    require_montgomery_modulus,
    require_operand,
)
from montu.arith.field import Field
from montu.arith.stats import Stats

__all__ = [
    "Digit", "FiosRow", "PipelineSchedule", "Radix4Step",
    "INTEGER_MODE", "POLYNOMIAL_MODE", "PAPER_GFN_CLOCKS", "PAPER_WORD_BITS", "PIPELINE_STAGES",
    "booth_digit", "booth_digits", "montgomery_digit", "recoded_multiple", "fsel_of",
    "radix4_digit_count", "radix4_r_exponent", "radix4_steps", "mont_mul_radix4",
    "fios_word_count", "fios_r_exponent", "fios_correct", "fios_rows", "mont_mul_fios",
    "pipeline_schedule",
    "demo_report",
]


@dataclass(frozen=True)
class Radix4Step:
    """Iteration i of Alg. 3: ``total`` = P + B_i·A + Q_i·N (Fig. 3's column sums, ≡ 0 mod 4
    or mod x^2), then ``p`` = total / 4 (or / x^2). Digits as in ``Digit.value``."""

    b_digit: int
    q_digit: int
    total: int
    p: int


def radix4_digit_count(n: int) -> int:
    """k + 1, the iterations of Alg. 3, for the smallest k with N < 4^k (as integers)."""
    k = -(-n.bit_length() // 2)
    return k + 1


def radix4_r_exponent(n: int) -> int:
    """e with R = 4^{k+1} = 2^e (GF(N)) or R = x^e (GF(2^n)): Alg. 3 computes A·B·R^{-1}."""
    return 2 * radix4_digit_count(n)


def _plain_digits(p: int, a: int, b_digit: int, n_tilde0: int, fsel: int) -> int:
    """Alg. 3 step 3: Q_i = (P_0 + B_i·A_0)·Ñ_0 mod 4 (mod x^2), P_0 and A_0 the low digits."""
    if fsel == INTEGER_MODE:
        return ((p & 3) + b_digit * (a & 3)) * n_tilde0 % 4
    return gf2m.clmul((p & 3) ^ gf2m.clmul(b_digit, a & 3), n_tilde0) & 3


def _times_digit(operand: int, digit: int, fsel: int) -> int:
    return operand * digit if fsel == INTEGER_MODE else gf2m.clmul(operand, digit)


def radix4_steps(a: int, b: int, n: int, *, field: Field,
                 recoded: bool = True) -> list[Radix4Step]:
    """Run Alg. 3 for i = 0..k and return every iteration.

    recoded=True: the parallel unit's digits — Booth digit B_i from (b_{2i+1}, b_{2i},
    b_{2i-1}) and Montgomery digit Q_i from (sp_1, sp_0, n_1) of SP = P + B_i·A, each multiple
    built by a PPG/MMG from (inv, trp, shl). recoded=False: Alg. 3 as printed, B_i ∈ {0..3},
    Q_i = (P_0 + B_i·A_0)·Ñ_0 mod 4, as in Fig. 3.
    """
    require_montgomery_modulus(n, field)
    require_operand(a, n, field, "a")
    require_operand(b, n, field, "b")
    fsel = fsel_of(field)
    iterations = radix4_digit_count(n)
    if fsel == INTEGER_MODE:
        n_tilde0 = -pow(n, -1, 4) % 4
    else:
        n_tilde0 = gf2m.inv(n, 0b100)  # N^{-1} mod x^2
    n1 = (n >> 1) & 1
    steps = []
    p = 0
    for i in range(iterations):
        if recoded:
            b_digit = booth_digits(b, i, 1, fsel)[0]
            partial = add(p, recoded_multiple(a, b_digit, fsel), fsel)
            q_digit = montgomery_digit(((partial >> 1) & 1, partial & 1, n1), fsel)
            total = add(partial, recoded_multiple(n, q_digit, fsel), fsel)
            b_value, q_value = b_digit.value, q_digit.value
        else:
            b_value = (b >> (2 * i)) & 3
            q_value = _plain_digits(p, a, b_value, n_tilde0, fsel)
            total = add(add(p, _times_digit(a, b_value, fsel), fsel),
                        _times_digit(n, q_value, fsel), fsel)
        if total & 3:
            raise AssertionError("the quotient digit left a non-zero low digit")  # pragma: no cover
        p = total >> 2
        steps.append(Radix4Step(b_digit=b_value, q_digit=q_value, total=total, p=p))
    return steps


def mont_mul_radix4(a: int, b: int, n: int, *, field: Field,
                    recoded: bool = True) -> tuple[int, Stats]:
    """Alg. 3: z ≡ a·b·R^{-1} with R = 4^{k+1} (``radix4_r_exponent``); GF(N): 0 ≤ z < 2N,
    GF(2^n): deg z < deg N.

    With recoded digits P can end in (−N/3, 0) ("the output ... may now be negative"); the
    model then adds N once (``negative_fixups``). Stats.cycles counts the k+1 radix-4 steps
    (the parallel unit unrolls them into one clock); the paper gives no clock figure for Alg. 3.
    """
    steps = radix4_steps(a, b, n, field=field, recoded=recoded)
    result = steps[-1].p
    fixups = 0
    if result < 0:
        result += n
        fixups = 1
    counts = {
        "iterations": len(steps),
        "nonzero_partial_products": sum(1 for s in steps if s.b_digit),
        "nonzero_modulus_multiples": sum(1 for s in steps if s.q_digit),
        "negative_fixups": fixups,
    }
    return result, Stats(cycles=len(steps), counts=counts, paper_cycles=None)


def _matches_oracle(z: int, a: int, b: int, n: int, field: Field, r_exponent: int) -> bool:
    """z against the plain formula a·b·R^{-1} mod N (GF(N): z < 2N may exceed N)."""
    if field == Field.GFP:
        return 0 <= z < 2 * n and z % n == a * b * pow(2, -r_exponent, n) % n
    r_inverse = gf2m.inv(gf2m.powmod(2, r_exponent, n), n)
    return z == gf2m.mulmod(gf2m.mulmod(a, b, n), r_inverse, n)


def _demo_line(model: str, z: int, ok: bool, tail: str) -> str:
    return f"  {model}: z=0x{z:x}"[:60] + f"… {'ok' if ok else 'MISMATCH'}, {tail}"


def _demo_lines(label: str, a: int, b: int, n: int, field: Field) -> list[str]:
    z, stats = mont_mul_radix4(a, b, n, field=field)
    ok = _matches_oracle(z, a, b, n, field, radix4_r_exponent(n))
    lines = [_demo_line(f"Alg.3 radix-4 {label}", z, ok,
                        f"{stats.cycles} digit steps (Alg. 3 loop: k+1 = {radix4_digit_count(n)})")]
    z, stats = mont_mul_fios(a, b, n, field=field)
    ok = _matches_oracle(z, a, b, n, field, fios_r_exponent(n, field=field))
    paper = "no table entry" if stats.paper_cycles is None else f"{stats.paper_cycles:g}"
    lines.append(_demo_line(f"Alg.2 FIOS w=64 {label}", z, ok,
                            f"m={stats.counts['words']}, {stats.cycles} clocks (paper: {paper})"))
    return lines


def demo_report(p: int, poly: int) -> list[str]:
    """Both models on the 2048-bit GF(p) and 283-bit GF(2^m) examples, plus the Fig. 9 table."""
    rng = random.Random(2008)
    lines = ["cilardo — dual-field radix-4 Montgomery, Booth/Montgomery recoding, "
             "8-stage FIOS pipeline (Cilardo & Mazzocca 2008)"]
    a, b = rng.randrange(2 * p), rng.randrange(2 * p)
    lines += _demo_lines("GF(p) 2048b", a, b, p, Field.GFP)
    degree = poly.bit_length() - 1
    a, b = rng.getrandbits(degree), rng.getrandbits(degree)
    lines += _demo_lines(f"GF(2^{degree})", a, b, poly, Field.GF2M)
    sizes = sorted(PAPER_GFN_CLOCKS)
    ours = "/".join(str(pipeline_schedule(fios_word_count((1 << bits) - 1, field=Field.GFP)).cycles)
                    for bits in sizes)
    paper = "/".join(str(PAPER_GFN_CLOCKS[s]) for s in sizes)
    lines.append(f"  Fig.9 clocks {'/'.join(map(str, sizes))} b: model {ours}, paper {paper} "
                 "(model keeps Alg.2's 2 guard bits)")
    return lines
