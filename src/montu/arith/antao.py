"""Antão & Sousa — RNS Montgomery multiplication on a ring of processing elements (GF(p)).

Golden model of "An RNS-based architecture targeting hardware accelerators for modular
arithmetic" (Antão, Sousa): two RNS bases of w-bit pseudo-Mersenne prime channels, forward
(Horner) and CRT reverse conversion, channel-wise arithmetic, and the Montgomery reduction by
two base extensions of its Algorithm 1 with the alpha accumulator's approximate offsets. On top
of it: modular exponentiation (RSA) and EC point multiplication (the paper's two case studies).

Contract of ``mont_mul``: for odd N with 8N <= M1, 8N <= M2, gcd(N, M1) = 1 and 0 <= x, y < 4N
it returns u = (x*y + q_hat*N)/M1 with q_hat in {q, q + M1}, q = |-x*y*N^-1|_{M1}; hence
u = x*y*M1^-1 (mod N) and 0 <= u < x*y/M1 + 2N <= 4N (not necessarily < N).

The layers live in ``antao_rns`` (bases, conversions, base extension), ``antao_alg1``
(Algorithm 1, constants, cycle model) and ``antao_ec`` (curves); this module is the public face.
"""

from __future__ import annotations

import random

from montu.arith.antao_alg1 import (
    MontgomeryConstants,
    Tally,
    forward_conversion_cycles,
    forward_convert,
    mont_mul_cycles,
    mont_mul_rns,
    montgomery_constants,
    montgomery_reduce,
    paper_mont_mul_cycles,
    reverse_conversion_cycles,
    reverse_convert,
    step_cycles,
)
from montu.arith.antao_ec import (
    P256,
    P256_GENERATOR,
    P256_ORDER,
    Curve,
    Point,
    ec_scalar_mult,
    ec_scalar_mult_oracle,
    is_on_curve,
)
from montu.arith.antao_rns import (
    RnsBases,
    RnsValue,
    alpha_hat,
    base_extend,
    crt,
    from_rns,
    make_bases,
    rns_add,
    rns_mul,
    rns_sub,
    to_rns,
)
from montu.arith.stats import Stats

__all__ = [
    "Curve",
    "MontgomeryConstants",
    "P256",
    "P256_GENERATOR",
    "P256_ORDER",
    "Point",
    "RnsBases",
    "RnsValue",
    "alpha_hat",
    "base_extend",
    "crt",
    "demo_report",
    "ec_scalar_mult",
    "ec_scalar_mult_oracle",
    "from_rns",
    "is_on_curve",
    "make_bases",
    "mod_exp",
    "mont_mul",
    "mont_mul_cycles",
    "mont_mul_oracle",
    "mont_mul_rns",
    "montgomery_constants",
    "montgomery_reduce",
    "paper_mont_mul_cycles",
    "rns_add",
    "rns_mul",
    "rns_sub",
    "step_cycles",
    "to_rns",
]


def mont_mul(x: int, y: int, n: int, bases: RnsBases) -> tuple[int, Stats]:
    """RNS Montgomery product u = (x*y + q_hat*N)/M1 = x*y*M1^-1 (mod N), 0 <= u < 4N.

    x, y are converted to RNS, multiplied channel-wise and reduced by Algorithm 1 entirely in
    the channels; only the output is converted back (CRT). Stats.cycles is the multiplication
    alone (2P + 10 on P PEs); the conversions' cycles are in ``counts``.
    """
    constants = montgomery_constants(n, bases)
    for name, v in (("x", x), ("y", y)):
        if not 0 <= v < 4 * n:
            raise ValueError(f"operand {name} out of range: RNS Montgomery needs 0 <= {name} < 4N")
    tally = Tally()
    product = mont_mul_rns(to_rns(x, bases), to_rns(y, bases), constants, tally)
    u = crt(product.residues1, bases.base1)
    tally.add("forward_conversion_cycles", 2 * forward_conversion_cycles((4 * n - 1).bit_length(), bases))
    tally.add("reverse_conversion_cycles", reverse_conversion_cycles(bases))
    return u, tally.to_stats()


def mont_mul_oracle(x: int, y: int, n: int, bases: RnsBases) -> int:
    """The plain formula mont_mul is checked against: x*y*M1^-1 mod N."""
    return x * y * pow(bases.m1, -1, n) % n


def mod_exp(base: int, e: int, n: int, bases: RnsBases) -> tuple[int, Stats]:
    """base^e mod N in [0, N), by left-to-right square-and-multiply on RNS Montgomery products.

    Enter the Montgomery domain with one product by M1^2 mod N, leave it with one product by 1,
    convert back (CRT) and subtract N at most twice.
    """
    constants = montgomery_constants(n, bases)
    if not 0 <= base < n:
        raise ValueError("base out of range: need 0 <= base < N")
    if e < 0:
        raise ValueError(f"exponent must be non-negative, got {e}")
    tally = Tally()
    base_m = mont_mul_rns(forward_convert(base, constants, tally), constants.r_squared, constants, tally)
    acc = base_m if e else constants.r_mod_n
    for bit in bin(e)[3:]:
        acc = mont_mul_rns(acc, acc, constants, tally)
        tally.add("squarings")
        if bit == "1":
            acc = mont_mul_rns(acc, base_m, constants, tally)
            tally.add("multiplications")
    out = mont_mul_rns(acc, constants.one, constants, tally)
    return reverse_convert(out, constants, tally), tally.to_stats()


def demo_report(p: int, poly: int) -> list[str]:
    """2048-bit GF(p) product and short-exponent power, plus a P-256 point multiplication.

    The paper's algorithm is GF(p) only, so ``poly`` is not used.
    """
    del poly
    rng = random.Random(2012)
    bases = make_bases(p.bit_length())
    h, w = bases.pe_count, bases.channel_bits
    x, y = rng.randrange(p), rng.randrange(p)
    u, stats = mont_mul(x, y, p, bases)
    ok = "ok" if u % p == mont_mul_oracle(x, y, p, bases) and u < 4 * p else "MISMATCH"
    e = rng.getrandbits(64) | (1 << 63)
    power, exp_stats = mod_exp(x, e, p, bases)
    ok_exp = "ok" if power == pow(x, e, p) else "MISMATCH"
    k = rng.randrange(1, P256_ORDER)
    ec_bases = make_bases(256)
    point, ec_stats = ec_scalar_mult(k, P256_GENERATOR, P256, ec_bases)
    ok_ec = "ok" if point == ec_scalar_mult_oracle(k, P256_GENERATOR, P256) else "MISMATCH"
    return [
        "antao — RNS Montgomery by base extension on a ring of PEs (Antão & Sousa, Alg. 1)",
        f"  bases: 2 x {h} channels of {w}-bit primes 2^{w}-c; M1, M2 >= 8N; alpha_bits={bases.alpha_bits}",
        f"  mont_mul 2048b: 0x{u:x}"[:60] + f"… {ok} (<4N); {stats.cycles} cyc (2P+10) vs paper 2P={stats.paper_cycles}",
        f"  mod_exp 2048b, 64-bit exponent (short, for time): 0x{power:x}"[:78] + f"… {ok_exp} vs pow()",
        f"    {exp_stats.counts['mont_muls']} mont_muls, {exp_stats.cycles} cyc; paper ring term {exp_stats.paper_cycles}",
        f"  P-256 k*G ({ec_bases.pe_count} PEs): x=0x{point[0]:x}"[:60] + f"… {ok_ec} vs affine oracle"
        if point is not None
        else "  P-256 k*G: infinity MISMATCH",
        f"    {ec_stats.counts['mont_muls']} mont_muls, {ec_stats.cycles} cyc; paper ring term {ec_stats.paper_cycles}",
    ]
