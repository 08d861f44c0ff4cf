"""RNS layer of the Antão–Sousa model: two bases, conversions, channel arithmetic, base extension.

Antão & Sousa, "An RNS-based architecture targeting hardware accelerators for modular arithmetic",
Sec. 2. An integer X < M_i is held as its residues x_{e,i} = X mod m_{e,i} in the channels of a
basis B_i = {m_{1,i}, ..., m_{h,i}} (dynamic range M_i = prod_e m_{e,i}). Two bases B1, B2 are
needed by the Montgomery reduction (Algorithm 1), whose base extensions (BE) are built here with
the Kawamura-style approximate offset alpha-hat that the paper's "alpha accumulator" computes.

Channel moduli are pseudo-Mersenne primes m = 2^w - c (c small, odd), the largest below 2^w,
handed out alternately to B1 and B2 so every modulus is coprime to every other (and to any N
that has no w-bit prime factor).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Montgomery contract (see docs/algorithms.md): inputs x, y < 4N give an output < 4N when
# 8N <= M1 (first BE may be off by one M1) and 8N <= M2 (second BE exact for values < M2/2).
DYNAMIC_RANGE_FACTOR_BITS = 3

# Small primes that make Miller–Rabin deterministic below 3.3e24 (about 2^81).
_MILLER_RABIN_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def is_probable_prime(n: int) -> bool:
    """Miller–Rabin with the first 13 prime bases: exact for n < 3.3e24, probable above."""
    if n < 2:
        return False
    for p in _MILLER_RABIN_BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in _MILLER_RABIN_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@dataclass(frozen=True)
class RnsBases:
    """Two RNS bases B1, B2 of w-bit channel moduli, pairwise coprime across both bases.

    ``alpha_bits`` (r) is how many leading bits of each xi_j the alpha accumulator adds; the
    approximation error is h*(eps + delta) with eps = max(2^w - m)/2^w and delta = 2^-r, which
    must stay <= 1/2 (the offset used by the exact base extension).
    """

    channel_bits: int
    base1: tuple[int, ...]
    base2: tuple[int, ...]
    alpha_bits: int

    def __post_init__(self) -> None:
        w = self.channel_bits
        moduli = self.base1 + self.base2
        if w < 2 or not self.base1 or not self.base2:
            raise ValueError("RNS bases need a channel width >= 2 bits and at least one channel each")
        for m in moduli:
            if not 2 ** (w - 1) < m <= 2**w:
                raise ValueError(f"channel modulus {m} is not a {w}-bit value in (2^{w - 1}, 2^{w}]")
        for i, m in enumerate(moduli):
            for other in moduli[i + 1 :]:
                if math.gcd(m, other) != 1:
                    raise ValueError(f"channel moduli {m} and {other} are not coprime")
        if not 1 <= self.alpha_bits <= w:
            raise ValueError(f"alpha_bits must be in 1..{w}, got {self.alpha_bits}")
        c_max = max(2**w - m for m in moduli)
        if self.pe_count * (c_max + 2 ** (w - self.alpha_bits)) * 2 > 2**w:
            raise ValueError(
                f"alpha approximation too coarse: h*(eps+delta) > 1/2 for {self.pe_count} channels "
                f"of {w} bits (use wider channels or more alpha bits)"
            )

    @property
    def m1(self) -> int:
        """Dynamic range M1 of B1 (the Montgomery factor)."""
        return math.prod(self.base1)

    @property
    def m2(self) -> int:
        """Dynamic range M2 of B2."""
        return math.prod(self.base2)

    @property
    def pe_count(self) -> int:
        """Processing elements in the ring: one per channel index, serving both bases."""
        return max(len(self.base1), len(self.base2))

    @property
    def max_modulus(self) -> int:
        """Largest N for which 8N <= M1 and 8N <= M2 (the Montgomery contract)."""
        return min(self.m1, self.m2) >> DYNAMIC_RANGE_FACTOR_BITS


def pseudo_mersenne_primes(channel_bits: int, count: int) -> list[int]:
    """The ``count`` largest primes 2^w - c (c odd, c < 2^(w-1)), largest first."""
    found: list[int] = []
    c = 1
    while len(found) < count:
        m = 2**channel_bits - c
        if m <= 2 ** (channel_bits - 1):
            raise ValueError(f"fewer than {count} primes of {channel_bits} bits; widen the channels")
        if is_probable_prime(m):
            found.append(m)
        c += 2
    return found


def make_bases(modulus_bits: int, channel_bits: int = 32) -> RnsBases:
    """Bases B1, B2 with h channels each, h the least with M1, M2 >= 2^(modulus_bits + 3).

    Then every odd N < 2^modulus_bits satisfies 8N <= M1 and 8N <= M2. The 2h largest
    pseudo-Mersenne primes below 2^w are dealt alternately to B1 and B2.
    """
    if modulus_bits < 2:
        raise ValueError(f"modulus_bits must be >= 2, got {modulus_bits}")
    if channel_bits < 4:
        raise ValueError(f"channel_bits must be >= 4, got {channel_bits}")
    target = 2 ** (modulus_bits + DYNAMIC_RANGE_FACTOR_BITS)
    h = -(-(modulus_bits + DYNAMIC_RANGE_FACTOR_BITS) // channel_bits)
    while True:
        primes = pseudo_mersenne_primes(channel_bits, 2 * h)
        base1, base2 = tuple(primes[0::2]), tuple(primes[1::2])
        if math.prod(base1) >= target and math.prod(base2) >= target:
            break
        h += 1
    alpha_bits = min(channel_bits, h.bit_length() + 2)
    return RnsBases(channel_bits=channel_bits, base1=base1, base2=base2, alpha_bits=alpha_bits)


# ---------------------------------------------------------------------------------------------
# Values in RNS and the channel-wise (CMA) operations


@dataclass(frozen=True)
class RnsValue:
    """One integer X held in both bases: residues1[e] = X mod m_{e,1}, residues2[e] = X mod m_{e,2}."""

    residues1: tuple[int, ...]
    residues2: tuple[int, ...]


def split_limbs(x: int, limb_bits: int) -> list[int]:
    """The k-bit limbs of x >= 0, least significant first (at least one limb)."""
    mask = (1 << limb_bits) - 1
    limbs = [x & mask]
    x >>= limb_bits
    while x:
        limbs.append(x & mask)
        x >>= limb_bits
    return limbs


def residues_by_horner(x: int, moduli: Sequence[int], limb_bits: int) -> tuple[int, ...]:
    """x mod m for each channel, by the multiprecision Horner rule on k-bit limbs of x.

    Channel e computes acc <- (acc * |2^k|_m + limb) mod m from the top limb down: one
    multiply-accumulate per limb, with only k-bit arithmetic in the channel.
    """
    limbs = split_limbs(x, limb_bits)[::-1]
    out = []
    for m in moduli:
        radix = (1 << limb_bits) % m
        acc = 0
        for limb in limbs:
            acc = (acc * radix + limb) % m
        out.append(acc)
    return tuple(out)


def to_rns(x: int, bases: RnsBases) -> RnsValue:
    """Forward conversion of 0 <= x < min(M1, M2) to residues in B1 and B2."""
    if not 0 <= x < min(bases.m1, bases.m2):
        raise ValueError(f"value out of the RNS dynamic range: need 0 <= x < min(M1, M2)")
    w = bases.channel_bits
    return RnsValue(residues_by_horner(x, bases.base1, w), residues_by_horner(x, bases.base2, w))


def crt(residues: Sequence[int], moduli: Sequence[int]) -> int:
    """CRT reverse conversion: X = (sum_e xi_e * M/m_e) mod M with xi_e = |x_e (M/m_e)^-1|_{m_e}.

    Equivalently X = sum_e x_e Psi_e mod M with Psi_e = (M/m_e)|(M/m_e)^-1|_{m_e} (paper, Sec. 2).
    The reduction mod M subtracts alpha*M with the exact alpha = floor(sum xi_e / m_e).
    """
    big_m = math.prod(moduli)
    total = 0
    for x_e, m in zip(residues, moduli, strict=True):
        cofactor = big_m // m
        total += (x_e * pow(cofactor, -1, m) % m) * cofactor
    return total - (total // big_m) * big_m


def from_rns(value: RnsValue, bases: RnsBases) -> int:
    """Reverse conversion through B1 (CRT); the B2 residues must agree with it."""
    x = crt(value.residues1, bases.base1)
    if tuple(x % m for m in bases.base2) != value.residues2:
        raise ValueError("inconsistent RNS value: B1 and B2 residues describe different integers")
    return x


def rns_add(a: RnsValue, b: RnsValue, bases: RnsBases) -> RnsValue:
    """(a + b) mod M, channel by channel in both bases."""
    return RnsValue(
        tuple((x + y) % m for x, y, m in zip(a.residues1, b.residues1, bases.base1, strict=True)),
        tuple((x + y) % m for x, y, m in zip(a.residues2, b.residues2, bases.base2, strict=True)),
    )


def rns_sub(a: RnsValue, b: RnsValue, bases: RnsBases) -> RnsValue:
    """(a - b) mod M, channel by channel in both bases."""
    return RnsValue(
        tuple((x - y) % m for x, y, m in zip(a.residues1, b.residues1, bases.base1, strict=True)),
        tuple((x - y) % m for x, y, m in zip(a.residues2, b.residues2, bases.base2, strict=True)),
    )


def rns_mul(a: RnsValue, b: RnsValue, bases: RnsBases) -> RnsValue:
    """(a * b) mod M, channel by channel in both bases."""
    return RnsValue(
        tuple(x * y % m for x, y, m in zip(a.residues1, b.residues1, bases.base1, strict=True)),
        tuple(x * y % m for x, y, m in zip(a.residues2, b.residues2, bases.base2, strict=True)),
    )


# ---------------------------------------------------------------------------------------------
# Base extension with the alpha accumulator


def alpha_hat(xi: Sequence[int], channel_bits: int, alpha_bits: int, offset: int) -> int:
    """The alpha accumulator: floor(sum_j trunc_r(xi_j)/2^r + offset/2^r).

    trunc_r keeps the r leading bits of the w-bit xi_j, i.e. xi_j/m_j is approximated by
    (xi_j >> (w - r)) / 2^r. ``offset`` is alpha_0 in units of 2^-r (0 or 2^(r-1) = 1/2).
    """
    shift = channel_bits - alpha_bits
    acc = offset
    for v in xi:
        acc += v >> shift
    return acc >> alpha_bits


def base_extend(
    residues: Sequence[int],
    source: Sequence[int],
    target: Sequence[int],
    channel_bits: int,
    alpha_bits: int,
    offset: int,
) -> tuple[tuple[int, ...], int]:
    """Extend X (residues in ``source``) to ``target``: X' = sum_j xi_j M/m_j - alpha_hat*M.

    Returns (X' mod each target modulus, alpha_hat). With offset 2^(r-1) (alpha_0 = 1/2) and
    X < M/2 the result is exact (X' = X); with offset 0 it is X or X + M (alpha_hat = alpha or
    alpha - 1). No CRT reconstruction: each target channel sums h products of w-bit values.
    """
    big_m = math.prod(source)
    cofactors = [big_m // m for m in source]
    xi = [x * pow(cf, -1, m) % m for x, cf, m in zip(residues, cofactors, source, strict=True)]
    alpha = alpha_hat(xi, channel_bits, alpha_bits, offset)
    out = []
    for m_t in target:
        weights = [cf % m_t for cf in cofactors]
        acc = sum(q * lam for q, lam in zip(xi, weights)) + alpha * (-big_m % m_t)
        out.append(acc % m_t)
    return tuple(out), alpha
