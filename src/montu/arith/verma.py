"""Golden model of Verma, Dutta, Vig, "RSA Cryptosystem Based on Early Word Based Montgomery
Modular Multiplication" (GF(p) only).

The models live in two sibling modules and are re-exported here:

* ``verma_cmmm`` — Algorithms R4CMMM and EWBR4CMMM: one pass reduces the common multiplicand P
  and returns X ≡ P·R·4^-(h+g), Y ≡ P·P·4^-(h+g) (mod n), with Table 2's clock counts.
* ``verma_exp`` — the Montgomery powering ladder (MPL, Table 5) and the SBME / PBME binary
  exponentiations of Section 2 on those multipliers.

See docs/algorithms.md for the interpretation of the paper's garbled lines and the
count-vs-paper table.
"""

from __future__ import annotations

import random

from montu.arith.verma_cmmm import (
    DEFAULT_WORD_BITS,
    CmmmParameters,
    check_modulus,
    cmmm_parameters,
    ewbr4cmmm,
    montgomery_factor,
    operand_bound,
    paper_cycles_ewbr4cmmm,
    paper_cycles_r4cmmm,
    paper_guard_bits,
    r4cmmm,
)
from montu.arith.verma_exp import (
    Multiplier,
    mpl_powmod,
    paper_cycles_mpl,
    pbme_powmod,
    sbme_powmod,
)

__all__ = [
    "DEFAULT_WORD_BITS",
    "CmmmParameters",
    "Multiplier",
    "check_modulus",
    "cmmm_parameters",
    "demo_report",
    "ewbr4cmmm",
    "montgomery_factor",
    "mpl_powmod",
    "operand_bound",
    "paper_cycles_ewbr4cmmm",
    "paper_cycles_mpl",
    "paper_cycles_r4cmmm",
    "paper_guard_bits",
    "pbme_powmod",
    "r4cmmm",
    "sbme_powmod",
]

MODEL_NAME = "verma — R4CMMM / EWBR4CMMM radix-4 common-multiplicand Montgomery (Verma et al.)"
DEMO_SEED = 2017
DEMO_EXPONENT_BITS = 2  # a short exponent keeps the 2048-bit demo fast (4 passes per powmod)


def _ok(good: bool) -> str:
    return "ok" if good else "MISMATCH"


def _clocks(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.2f}"


def demo_report(p: int, poly: int) -> list[str]:
    """Run both multipliers and the three exponentiations on the 2048-bit GF(p) example.

    ``poly`` is ignored: the paper's algorithms are GF(p) only. The exponentiations use a
    2-bit exponent (4 multiplier passes each) to stay fast; the clock count of a pass does not
    depend on the data, so the last line gives the full-length ladder by the paper's formula.
    """
    del poly
    rng = random.Random(DEMO_SEED)
    bound = operand_bound(p)
    a, b = rng.randrange(bound), rng.randrange(bound)
    f_inv = pow(montgomery_factor(p), -1, p)
    prm = cmmm_parameters(p)
    lines = [
        MODEL_NAME,
        f"  2048-bit GF(p): k={prm.k} g={prm.g} (t={prm.t}) w={prm.w} m={prm.m}; "
        f"X=P·R·4^-{prm.iterations}, Y=P·P·4^-{prm.iterations} mod n",
    ]
    pass_cycles = 0
    for name, model in (("R4CMMM", r4cmmm), ("EWBR4CMMM", ewbr4cmmm)):
        (x, y), stats = model(a, b, p)
        pass_cycles = stats.cycles  # ends with EWBR4CMMM, the exponentiations' multiplier
        good = x % p == a * b * f_inv % p and y % p == a * a * f_inv % p and max(x, y) < bound
        lines.append(
            f"  {name:<9}  X=0x{x:x}"[:40]
            + f"… {_ok(good)}  cycles {stats.cycles} (paper Table 2: {_clocks(stats.paper_cycles)})"
        )
    base = rng.randrange(p)
    exponent = rng.getrandbits(DEMO_EXPONENT_BITS) | (1 << (DEMO_EXPONENT_BITS - 1))
    expected = pow(base, exponent, p)
    for name, powmod in (("MPL", mpl_powmod), ("SBME", sbme_powmod), ("PBME", pbme_powmod)):
        result, stats = powmod(base, exponent, p)
        paper = (
            "" if stats.paper_cycles is None else f" (paper Table 5: {_clocks(stats.paper_cycles)})"
        )
        lines.append(
            f"  {name:<4} e={exponent} 0x{result:x}"[:40]
            + f"… {_ok(result == expected)}  {stats.counts['cmmm_passes']} EWBR4CMMM passes, "
            f"cycles {stats.cycles}{paper}"
        )
    lines.append(
        f"  full {prm.k}-bit-exponent MPL: {prm.k + 2} passes = {(prm.k + 2) * pass_cycles} cycles "
        f"(paper Table 5: {_clocks(paper_cycles_mpl(prm.k))})"
    )
    return lines
