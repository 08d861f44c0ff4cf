"""Modular exponentiation on Verma et al.'s common-multiplicand multipliers (GF(p) only).

Three schedules from the paper's Section 2, each returning (base^e mod n, Stats):

* ``mpl_powmod`` — the Montgomery powering ladder (MPLCMMM, Table 5): per exponent bit, MSB
  first, ONE common-multiplicand multiplication computes both ladder updates. For bit 0 the
  common multiplicand is R0: (R1, R0) <- (R0·R1, R0·R0); for bit 1 it is R1:
  (R0, R1) <- (R1·R0, R1·R1) — the paper's extra 2:1 MUX choosing P.
* ``sbme_powmod`` — sequential binary (MSB-first, "H") exponentiation: squaring and
  multiplication are dependent, so each is its own multiplication on the unit (the squaring
  uses output Y = P·P, the multiplication output X = P·R).
* ``pbme_powmod`` — parallel binary (LSB-first, "L") exponentiation: squaring S <- S·S and
  multiplication Z <- S·Z share the multiplicand S, so ONE common-multiplicand multiplication
  per exponent bit computes both (the paper runs them on two units in parallel).

All three convert in with one multiplication by F^2 mod n and out with one multiplication by 1
(F = 4^(h+g), F mod n and F^2 mod n precomputed by the host, like 2n and 3n), then subtract n
once if the result equals n (it is <= n after the multiplication by 1). Cycles are the sum of the
multiplications' clocks: the unit runs them back to back. With a full-length ladder of k bits,
MPL takes (k+2)·(k/2+g+m+1) clocks, the paper's Table 5 formula.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from montu.arith.stats import Stats
from montu.arith.verma_cmmm import (
    DEFAULT_WORD_BITS,
    cmmm_parameters,
    ewbr4cmmm,
    montgomery_factor,
    operand_bound,
    paper_cycles_ewbr4cmmm,
    paper_cycles_r4cmmm,
    r4cmmm,
)

Multiplier = Literal["ewbr4cmmm", "r4cmmm"]
_MULTIPLIERS: dict[str, Callable[..., tuple[tuple[int, int], Stats]]] = {
    "ewbr4cmmm": ewbr4cmmm,
    "r4cmmm": r4cmmm,
}


def _multiplier(name: str) -> Callable[..., tuple[tuple[int, int], Stats]]:
    if name not in _MULTIPLIERS:
        raise ValueError(f"multiplier must be one of {sorted(_MULTIPLIERS)} (got {name!r})")
    return _MULTIPLIERS[name]


class _Unit:
    """One common-multiplicand multiplier run back to back; adds up the clocks it spends."""

    def __init__(self, n: int, w: int, multiplier: str) -> None:
        self.n, self.w, self.run = n, w, _multiplier(multiplier)
        self.calls = self.cycles = 0

    def cmmm(self, p: int, r: int) -> tuple[int, int]:
        """(X, Y) with X ≡ P·R·F^-1, Y ≡ P·P·F^-1 (mod n), both < 2^(2(h+t))."""
        (x, y), stats = self.run(p, r, self.n, w=self.w)
        self.calls += 1
        self.cycles += stats.cycles
        return x, y

    def to_montgomery(self, base: int) -> int:
        """base·F (mod n), by one multiplication with the precomputed F^2 mod n."""
        return self.cmmm(base, pow(montgomery_factor(self.n), 2, self.n))[0]

    def from_montgomery(self, value: int) -> tuple[int, int]:
        """(value·F^-1 mod n, subtractions): one multiplication by 1 (result <= n), then -n once."""
        x, _ = self.cmmm(value, 1)
        return (x - self.n, 1) if x >= self.n else (x, 0)


def _check_exponent_inputs(base: int, exponent: int, n: int, w: int) -> None:
    cmmm_parameters(n, w)  # raises ModulusError for an even modulus, ValueError for bad w
    if exponent < 0:
        raise ValueError(f"exponent must be >= 0 (got {exponent})")
    bound = operand_bound(n)
    if not 0 <= base < bound:
        raise ValueError(
            f"base must satisfy 0 <= base < 2^{bound.bit_length() - 1} (the multiplier's "
            f"operand range for a {n.bit_length()}-bit modulus; got {base})"
        )


def paper_cycles_mpl(
    k: int,
    w: int = DEFAULT_WORD_BITS,
    multiplier: Multiplier = "ewbr4cmmm",
    ladder_bits: int | None = None,
) -> float:
    """Table 5 clocks of an MPL exponentiation for a k-bit modulus and an L-bit ladder (L = k).

    EWBR4CMMM: (L+2)·(k/2+g+m+1); [15] Radix 4 (R4CMMM): L·(k/2+k/w+g/2).
    """
    length = k if ladder_bits is None else ladder_bits
    if multiplier == "r4cmmm":
        return length * paper_cycles_r4cmmm(k, w)
    return (length + 2) * paper_cycles_ewbr4cmmm(k, w)


def _stats(unit: _Unit, subtractions: int, paper: float | None, **counts: int) -> Stats:
    return Stats(
        cycles=unit.cycles,
        counts={"cmmm_passes": unit.calls, **counts, "final_subtractions": subtractions},
        paper_cycles=paper,
    )


def mpl_powmod(
    base: int,
    exponent: int,
    n: int,
    *,
    w: int = DEFAULT_WORD_BITS,
    multiplier: Multiplier = "ewbr4cmmm",
    exponent_bits: int | None = None,
) -> tuple[int, Stats]:
    """base^exponent mod n by the Montgomery powering ladder on a common-multiplicand unit.

    The ladder runs over ``exponent_bits`` bits (default: the exponent's bit length; pass the
    modulus length k for the paper's fixed-length, SPA-regular ladder). paper_cycles is Table 5:
    (L+2)·(k/2+g+m+1) for EWBR4CMMM and L·(k/2+k/w+g/2) for [15] Radix 4 (R4CMMM), L the ladder
    length (the paper's k).
    """
    _check_exponent_inputs(base, exponent, n, w)
    length = exponent.bit_length() if exponent_bits is None else exponent_bits
    if length < exponent.bit_length():
        raise ValueError(
            f"exponent_bits ({exponent_bits}) is shorter than the exponent "
            f"({exponent.bit_length()} bits)"
        )
    unit = _Unit(n, w, multiplier)
    r0, r1 = montgomery_factor(n) % n, unit.to_montgomery(base)
    for position in reversed(range(length)):
        if (exponent >> position) & 1:
            r0, r1 = unit.cmmm(r1, r0)  # common multiplicand R1: R0 <- R1·R0, R1 <- R1·R1
        else:
            r1, r0 = unit.cmmm(r0, r1)  # common multiplicand R0: R1 <- R0·R1, R0 <- R0·R0
    result, subtractions = unit.from_montgomery(r0)
    paper = paper_cycles_mpl(n.bit_length(), w, multiplier, length)
    return result, _stats(unit, subtractions, paper, ladder_steps=length)


def sbme_powmod(
    base: int,
    exponent: int,
    n: int,
    *,
    w: int = DEFAULT_WORD_BITS,
    multiplier: Multiplier = "ewbr4cmmm",
) -> tuple[int, Stats]:
    """base^exponent mod n by MSB-first square-and-multiply, one multiplication at a time.

    The paper gives clock counts for SBME only with EWBR2MMM (Table 4), which is not modelled
    here, so paper_cycles is None.
    """
    _check_exponent_inputs(base, exponent, n, w)
    unit = _Unit(n, w, multiplier)
    squarings = multiplications = 0
    if exponent == 0:
        acc = montgomery_factor(n) % n  # Montgomery form of 1
    else:
        base_m = acc = unit.to_montgomery(base)
        for position in reversed(range(exponent.bit_length() - 1)):
            acc = unit.cmmm(acc, acc)[1]  # Y = P·P
            squarings += 1
            if (exponent >> position) & 1:
                acc = unit.cmmm(acc, base_m)[0]  # X = P·R
                multiplications += 1
    result, subtractions = unit.from_montgomery(acc)
    return result, _stats(
        unit, subtractions, None, squarings=squarings, multiplications=multiplications
    )


def pbme_powmod(
    base: int,
    exponent: int,
    n: int,
    *,
    w: int = DEFAULT_WORD_BITS,
    multiplier: Multiplier = "ewbr4cmmm",
) -> tuple[int, Stats]:
    """base^exponent mod n by LSB-first binary exponentiation, S·Z and S·S in one pass per bit.

    The paper gives clock counts for PBME only with EWBR2MMM (Table 4), which is not modelled
    here, so paper_cycles is None.
    """
    _check_exponent_inputs(base, exponent, n, w)
    unit = _Unit(n, w, multiplier)
    z, s = montgomery_factor(n) % n, unit.to_montgomery(base)
    for position in range(exponent.bit_length()):
        product, square = unit.cmmm(s, z)  # X = S·Z, Y = S·S
        if (exponent >> position) & 1:
            z = product
        s = square
    result, subtractions = unit.from_montgomery(z)
    return result, _stats(unit, subtractions, None, ladder_steps=exponent.bit_length())
