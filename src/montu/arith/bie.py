"""Golden models of Bie, Li, Chen, Nan, Yang (2021), "An energy-efficient reconfigurable
asymmetric modular cryptographic operation unit for RSA and ECC" (FITEE 23(1)).

- mont_mul:            Alg. 2, dual-field high-radix Montgomery multiplication on two MAC ways
                       with semi-carry storage (cs1, cs2, ec).
- mont_mul_semi_carry: Alg. 1, Miyamoto et al.'s GF(p)-only version it extends.
- mod_inv:             Alg. 3, dual-field binary extended-Euclid inversion for any modulus
                       (even ones too, e.g. e^−1 mod φ(n)), with Table 1's signed arithmetic.

Interpretations and the cycle models are written down in docs/algorithms.md.
"""

from __future__ import annotations

import random

from montu.arith import bie_inverse, bie_montmul
from montu.arith.field import Field
from montu.arith.gf2m import degree, inv as gf2m_inv, mulmod
from montu.arith.stats import Stats
from montu.errors import ModulusError

CLOCK_HZ = 588e6  # the paper's synthesised clock (§5.1); turns Table 3/4 times into cycles

# Paper cycle counts by (field, operand bits L), for the paper's 64-bit unit. Table 2 gives
# cycles; the 256-bit (Table 4) and 1024-bit (Table 3) entries are time × 588 MHz.
MONT_MUL_PAPER_CYCLES: dict[tuple[Field, int], float] = {
    (Field.GFP, 2048): 1251,
    (Field.GFP, 512): 115,
    (Field.GF2M, 512): 105,
    (Field.GFP, 256): 73.1e-9 * CLOCK_HZ,
    (Field.GF2M, 256): 62.9e-9 * CLOCK_HZ,
}
MOD_INV_PAPER_CYCLES: dict[tuple[Field, int], float] = {
    (Field.GFP, 2048): 303_502,
    (Field.GFP, 512): 15_476,
    (Field.GF2M, 512): 16_665,
    (Field.GFP, 1024): 0.105e-3 * CLOCK_HZ,
    (Field.GFP, 256): 8.1e-6 * CLOCK_HZ,
    (Field.GF2M, 256): 8.17e-6 * CLOCK_HZ,
}


def _words(bits: int, word_bits: int) -> int:
    return max(1, -(-bits // word_bits))


def _check_word_bits(word_bits: int) -> None:
    if not isinstance(word_bits, int) or word_bits < 1:
        raise ValueError(f"word_bits must be a positive integer (got {word_bits!r})")


def _montgomery_width(n: int, field: Field, word_bits: int) -> int:
    """Check the modulus and return m, the number of r-bit words (L = r·m)."""
    if not isinstance(n, int):
        raise TypeError("modulus must be an int")
    if field == Field.GFP:
        if n % 2 == 0:
            raise ModulusError("modulus must be odd for GF(p) Montgomery multiplication "
                               f"(got an even {n.bit_length()}-bit modulus)")
        if n < 3:
            raise ModulusError(f"modulus must be an odd integer ≥ 3 (got {n})")
        return _words(n.bit_length(), word_bits)
    if n < 0 or degree(n) < 1:
        raise ModulusError("GF(2^m) modulus polynomial must have degree at least 1")
    if n & 1 == 0:
        raise ModulusError("GF(2^m) modulus polynomial must have constant term 1 (x must be "
                           "invertible modulo it) for Montgomery multiplication")
    return _words(degree(n), word_bits)


def _check_montgomery_operands(x: int, y: int, n: int, field: Field, width: int) -> None:
    for name, value in (("x", x), ("y", y)):
        if not isinstance(value, int) or value < 0:
            raise ValueError(f"operand {name} must be a non-negative int")
    if field == Field.GFP:
        if x >> width or y >> width or x * y >= n << width:
            raise ValueError(f"GF(p) operands must satisfy 0 ≤ x, y < 2^{width} and "
                             f"x·y < n·2^{width} (e.g. both < n), so one final subtraction "
                             "reduces fully")
    elif degree(x) >= degree(n) or degree(y) >= degree(n):
        raise ValueError(f"GF(2^m) operands must have degree < {degree(n)} (the modulus degree)")


def _montgomery(x: int, y: int, n: int, field: Field, word_bits: int) -> tuple[int, Stats]:
    _check_word_bits(word_bits)
    field = Field(field)
    m = _montgomery_width(n, field, word_bits)
    width = m * word_bits
    _check_montgomery_operands(x, y, n, field, width)
    run = bie_montmul.montgomery_word_loop(x, y, n, field, word_bits, m)
    z_words, subtracted = run.z_words, False
    if field == Field.GFP:
        z_words, subtracted = bie_montmul.final_subtraction(run.z_words, run.v, n, word_bits)
    else:
        assert run.v == 0, "GF(2^m) has no carries out of the top word"
    timing = bie_montmul.mont_mul_cycles(m, field, word_bits, run.extra_modulus_word)
    counts = {
        "words": m,
        "word_bits": word_bits,
        "outer_iterations": m,
        "inner_steps": run.inner_steps,
        "mac_ops": run.mac_ops,
        "final_subtraction": int(subtracted),
        "stall_cycles": timing["stall_cycles"],
        "prefetch_cycles": timing["prefetch_cycles"],
        "subtraction_cycles": timing["subtraction_cycles"],
    }
    paper = MONT_MUL_PAPER_CYCLES.get((field, width)) if word_bits == 64 else None
    return bie_montmul.from_words(z_words, word_bits), Stats(timing["cycles"], counts, paper)


def mont_mul(x: int, y: int, n: int, *, field: Field, word_bits: int = 64) -> tuple[int, Stats]:
    """Alg. 2: z = x·y·2^(−L) mod n in GF(p), z = x·y·x^(−L) mod n(x) in GF(2^m).

    L = word_bits·ceil(bits(n)/word_bits), bits(n) = degree(n) for a polynomial.
    GF(p): n odd ≥ 3; 0 ≤ x, y < 2^L with x·y < n·2^L (both < n is the usual case); z < n.
    GF(2^m): deg n ≥ 1 with constant term 1 (n need not be irreducible); deg x, deg y < deg n.
    Stats.cycles follows the two-way MAC cycle model of docs/algorithms.md.
    """
    return _montgomery(x, y, n, field, word_bits)


def mont_mul_semi_carry(x: int, y: int, n: int, *, word_bits: int = 64) -> tuple[int, Stats]:
    """Alg. 1 (Miyamoto et al.'s semi-carry-storage high-radix Montgomery, GF(p) only):
    z = x·y·2^(−L) mod n, same operand rules and counts as mont_mul in GF(p)."""
    return _montgomery(x, y, n, Field.GFP, word_bits)


def _check_inverse_operands(a: int, n: int, field: Field) -> int:
    """Check a and the modulus n; return the register width L = 64·words in bits."""
    if not isinstance(a, int) or not isinstance(n, int):
        raise TypeError("operands must be ints")
    if field == Field.GFP:
        if n < 2:
            raise ModulusError(f"modulus must be at least 2 (got {n})")
        if not 0 <= a < n:
            raise ValueError("GF(p) value to invert must satisfy 0 ≤ a < n")
        return bie_inverse.WORD_BITS * _words(n.bit_length(), bie_inverse.WORD_BITS)
    if n < 0 or degree(n) < 1:
        raise ModulusError("GF(2^m) modulus polynomial must have degree at least 1")
    if a < 0 or degree(a) >= degree(n):
        raise ValueError(f"GF(2^m) value to invert must have degree < {degree(n)}")
    return bie_inverse.WORD_BITS * _words(degree(n), bie_inverse.WORD_BITS)


def mod_inv(a: int, n: int, *, field: Field) -> tuple[int, Stats]:
    """Alg. 3: a^−1 mod n for any modulus n ≥ 2 (GF(p), even n included) or any polynomial n
    of degree ≥ 1 (GF(2^m), irreducible or not); raises NoInverse when gcd(a, n) ≠ 1.

    Stats.cycles is the word-level cycle estimate of docs/algorithms.md.
    """
    field = Field(field)
    width = _check_inverse_operands(a, n, field)
    words = width // bie_inverse.WORD_BITS
    result, events = bie_inverse.binary_extended_euclid(n, a, field, width)
    timing = bie_inverse.inverse_cycles(events, words, field)
    subtraction_ops = 3 + (2 if field == Field.GFP else 0)
    counts = {
        "words": words,
        "iterations": events.iterations,
        "equality_checks": events.equality_checks,
        "halvings": events.halvings,
        "shifts": 3 * events.halvings,
        "halving_adds": events.halving_adds,
        "subtractions": events.subtractions,
        "corrections": events.corrections,
        "final_fix": events.final_fix,
        "add_subs": 2 * events.halving_adds + subtraction_ops * events.subtractions
        + events.final_fix,
        **{key: value for key, value in timing.items() if key != "cycles"},
    }
    return result, Stats(timing["cycles"], counts, MOD_INV_PAPER_CYCLES.get((field, width)))


# --------------------------------------------------------------------------- demo


def _paper_text(stats: Stats) -> str:
    return "no paper figure" if stats.paper_cycles is None else f"paper {stats.paper_cycles:,.0f}"


def demo_report(p: int, poly: int) -> list[str]:
    """Run Alg. 2 and Alg. 3 on fixed operands (2048-bit GF(p), NIST 283-bit GF(2^m)), check
    each against the plain formula, and return short printable lines."""
    rng = random.Random(2021)
    lines = ["bie — dual-field semi-carry Montgomery + binary Euclid inversion (Bie et al. 2021)"]

    x, y = rng.randrange(p), rng.randrange(p)
    z, stats = mont_mul(x, y, p, field=Field.GFP)
    ok = z == x * y * pow(2, -2048, p) % p
    lines.append(f"  Alg.2 GF(p) 2048b  z=0x{z:x}"[:44] + f"… {'ok' if ok else 'MISMATCH'}  "
                 f"cycles {stats.cycles:,} ({_paper_text(stats)}), {stats.counts['mac_ops']} MACs")

    m = degree(poly)
    a, b = rng.getrandbits(m), rng.getrandbits(m)
    z, stats = mont_mul(a, b, poly, field=Field.GF2M)
    width = 64 * _words(m, 64)
    ok = z == mulmod(mulmod(a, b, poly), gf2m_inv(1 << width, poly), poly)
    lines.append(f"  Alg.2 GF(2^{m}) z=0x{z:x}"[:44] + f"… {'ok' if ok else 'MISMATCH'}  "
                 f"cycles {stats.cycles:,} ({_paper_text(stats)})")

    e, phi_like = 65537, p - 1  # an even modulus, as for e^−1 mod φ(n)
    d, stats = mod_inv(e, phi_like, field=Field.GFP)
    ok = d == pow(e, -1, phi_like)
    lines.append(f"  Alg.3 65537^-1 mod (p-1), even 2048b: 0x{d:x}"[:60] + f"… "
                 f"{'ok' if ok else 'MISMATCH'}  cycles {stats.cycles:,} ({_paper_text(stats)}),"
                 f" {stats.counts['iterations']} passes")

    c = rng.getrandbits(m) or 1
    d, stats = mod_inv(c, poly, field=Field.GF2M)
    ok = d == gf2m_inv(c, poly)
    lines.append(f"  Alg.3 GF(2^{m}) inverse 0x{d:x}"[:44] + f"… {'ok' if ok else 'MISMATCH'}  "
                 f"cycles {stats.cycles:,} ({_paper_text(stats)}), "
                 f"{stats.counts['iterations']} passes")
    return lines


__all__ = ["mont_mul", "mont_mul_semi_carry", "mod_inv", "demo_report"]
