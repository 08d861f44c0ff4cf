"""Algorithm 1 of Antão & Sousa (optimized RNS reduction) and the ring-of-PEs cycle model.

Given s = x*y held in both bases, Algorithm 1 returns u = (s + q_hat*N)/M1, i.e. a value
congruent to s*M1^-1 (mod N), without ever reconstructing an intermediate in binary:

  1: ch (e,1): q_{e,1} = |s_{e,1} lambda1_e|              lambda1_e = |-N^-1 (M1/m_{e,1})^-1|
  2: ch (e,2): q_{e,2} = |(sum_j q_{j,1} lambda2_ej + alpha1_hat*|-M1|) lambda3_e|
                                                          lambda2_ej = |M1/m_{j,1}|, lambda3_e = |N|
  3: ch (e,2): u_{e,2} = |(s_{e,2} + q_{e,2}) lambda4_e|  lambda4_e = |M1^-1|
  4: ch (e,2): xi_{e,2} = |u_{e,2} lambda5_e|             lambda5_e = |(M2/m_{e,2})^-1|
  5: ch (e,1): u_{e,1} = |(sum_j xi_{j,2} lambda6_ej + alpha2_hat*|-M2|) lambda7_e|
                                                          lambda6_ej = |M2/m_{j,2}|, lambda7_e = 1
(all |.| in the channel's own modulus). alpha1_hat uses offset 0 (so q_hat = q or q + M1, which
Montgomery tolerates); alpha2_hat uses offset 1/2 (exact because u < M2/2).

Cycle model (one PE per channel index; each PE does one modular multiply, add or
multiply-accumulate per cycle and serves its B1 and B2 channels one after the other):
  product s = x*y: 2 | step 1: 1 | step 2: P + 2 | step 3: 2 | step 4: 1 | step 5: P + 2
P-cycle terms are the ring rounds: each q_j visits all P PEs, one MAC per hop (paper Sec. 4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from operator import mul

from montu.arith.antao_rns import RnsBases, RnsValue, alpha_hat, crt, to_rns
from montu.arith.stats import Stats
from montu.errors import ModulusError


def step_cycles(pe_count: int) -> dict[str, int]:
    """Cycles of each step of one RNS Montgomery multiplication on a ring of ``pe_count`` PEs."""
    return {
        "product": 2,
        "step1": 1,
        "step2": pe_count + 2,
        "step3": 2,
        "step4": 1,
        "step5": pe_count + 2,
    }


def mont_mul_cycles(bases: RnsBases) -> int:
    """Model cycles of one RNS Montgomery multiplication: 2P + 10."""
    return sum(step_cycles(bases.pe_count).values())


def paper_mont_mul_cycles(bases: RnsBases) -> int:
    """The paper's figure: the two ring rounds of Algorithm 1 steps 2 and 5, P hops each (2P)."""
    return 2 * bases.pe_count


def forward_conversion_cycles(value_bits: int, bases: RnsBases) -> int:
    """Horner forward conversion of a value_bits-bit operand: one MAC per limb, both bases."""
    limbs = -(-max(value_bits, 1) // bases.channel_bits)
    return 2 * limbs


def reverse_conversion_cycles(bases: RnsBases) -> int:
    """CRT reverse conversion from B1: xi_e in the PEs (1 cycle), then the accumulator adds the
    h products xi_e * (M1/m_e) limb by limb (h*(h-1) limb MACs) and subtracts alpha*M1 (h)."""
    h = len(bases.base1)
    return 1 + h * (h - 1) + h


@dataclass
class Tally:
    """Running counters of one model run (local to a call; turned into a ``Stats`` at the end)."""

    cycles: int = 0
    paper_cycles: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, name: str, amount: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + amount

    def to_stats(self) -> Stats:
        return Stats(cycles=self.cycles, counts=dict(self.counts), paper_cycles=self.paper_cycles)


@dataclass(frozen=True)
class MontgomeryConstants:
    """The precomputed lambda constants of Algorithm 1 for one modulus N and one pair of bases."""

    n: int
    bases: RnsBases
    lambda1: tuple[int, ...]
    lambda2: tuple[tuple[int, ...], ...]
    alpha1_weight: tuple[int, ...]
    lambda3: tuple[int, ...]
    lambda4: tuple[int, ...]
    lambda5: tuple[int, ...]
    lambda6: tuple[tuple[int, ...], ...]
    alpha2_weight: tuple[int, ...]
    lambda7: tuple[int, ...]
    r_squared: RnsValue  # M1^2 mod N: x -> x*M1 mod N by one multiplication
    r_mod_n: RnsValue  # M1 mod N: 1 in the Montgomery domain
    one: RnsValue  # 1: leaves the Montgomery domain by one multiplication


def check_modulus(n: int, bases: RnsBases) -> None:
    """Raise ModulusError/ValueError unless N is odd, > 1, coprime to M1 and 8N <= M1, M2."""
    if n % 2 == 0:
        raise ModulusError(
            f"modulus must be odd for RNS Montgomery multiplication (got an even {n.bit_length()}-bit modulus)"
        )
    if n < 3:
        raise ValueError(f"modulus must be an odd integer > 1, got {n}")
    if n > bases.max_modulus:
        raise ValueError(
            f"modulus of {n.bit_length()} bits is too large for these RNS bases "
            f"({len(bases.base1)}+{len(bases.base2)} channels of {bases.channel_bits} bits): "
            f"need 8N <= M1 and 8N <= M2; use make_bases({n.bit_length()})"
        )
    for m in bases.base1:
        if math.gcd(n, m) != 1:
            raise ModulusError(f"modulus shares a factor with channel modulus {m} of B1; need gcd(N, M1) = 1")


def montgomery_constants(n: int, bases: RnsBases) -> MontgomeryConstants:
    """Precompute Algorithm 1's constants for modulus N (checked with ``check_modulus``)."""
    check_modulus(n, bases)
    b1, b2 = bases.base1, bases.base2
    m1, m2 = bases.m1, bases.m2
    cofactors1 = [m1 // m for m in b1]
    cofactors2 = [m2 // m for m in b2]
    return MontgomeryConstants(
        n=n,
        bases=bases,
        lambda1=tuple(-pow(n, -1, m) * pow(cf, -1, m) % m for m, cf in zip(b1, cofactors1)),
        lambda2=tuple(tuple(cf % me for cf in cofactors1) for me in b2),
        alpha1_weight=tuple(-m1 % me for me in b2),
        lambda3=tuple(n % me for me in b2),
        lambda4=tuple(pow(m1, -1, me) for me in b2),
        lambda5=tuple(pow(cf, -1, me) for me, cf in zip(b2, cofactors2)),
        lambda6=tuple(tuple(cf % me for cf in cofactors2) for me in b1),
        alpha2_weight=tuple(-m2 % me for me in b1),
        lambda7=tuple(1 for _ in b1),
        r_squared=to_rns(m1 * m1 % n, bases),
        r_mod_n=to_rns(m1 % n, bases),
        one=to_rns(1, bases),
    )


def montgomery_reduce(s: RnsValue, c: MontgomeryConstants, tally: Tally) -> RnsValue:
    """Algorithm 1: u = (s + q_hat*N)/M1 in both bases, q_hat = q or q + M1, q = |-s N^-1|_{M1}."""
    bases = c.bases
    b1, b2, w, r = bases.base1, bases.base2, bases.channel_bits, bases.alpha_bits
    h1, h2 = len(b1), len(b2)
    # 1: in channel (e,1)
    q1 = [x * lam % m for x, lam, m in zip(s.residues1, c.lambda1, b1)]
    alpha1 = alpha_hat(q1, w, r, 0)
    # 2: in channel (e,2), q_{j,1} travels round the ring; the alpha accumulator supplies alpha1
    q2 = [
        (sum(map(mul, q1, row)) + alpha1 * aw) * lam % m
        for row, aw, lam, m in zip(c.lambda2, c.alpha1_weight, c.lambda3, b2)
    ]
    # 3: in channel (e,2)
    u2 = [(x + q) * lam % m for x, q, lam, m in zip(s.residues2, q2, c.lambda4, b2)]
    # 4: in channel (e,2)
    xi2 = [u * lam % m for u, lam, m in zip(u2, c.lambda5, b2)]
    alpha2 = alpha_hat(xi2, w, r, 1 << (r - 1))
    # 5: in channel (e,1), xi_{j,2} travels round the ring
    u1 = [
        (sum(map(mul, xi2, row)) + alpha2 * aw) * lam % m
        for row, aw, lam, m in zip(c.lambda6, c.alpha2_weight, c.lambda7, b1)
    ]
    _tally_reduction(tally, bases, h1, h2)
    return RnsValue(tuple(u1), tuple(u2))


def _tally_reduction(tally: Tally, bases: RnsBases, h1: int, h2: int) -> None:
    """Channel operations of Algorithm 1 (steps 1-5) and its cycles, product included."""
    tally.add("channel_mul", h1 + h2 + 3 * h2 + h1)  # steps 1, 2 (x lambda3), 3, 4, 5 (x lambda7)
    tally.add("channel_mac", 2 * h1 * h2 + h1 + h2)  # ring sums of steps 2 and 5 + alpha terms
    tally.add("channel_add", h2)  # step 3
    tally.add("alpha_accumulator_add", h1 + h2)
    tally.add("ring_hops", 2 * bases.pe_count * bases.pe_count)
    tally.add("base_extensions", 2)
    tally.add("mont_muls")
    tally.cycles += mont_mul_cycles(bases)
    tally.paper_cycles += paper_mont_mul_cycles(bases)


def mont_mul_rns(x: RnsValue, y: RnsValue, c: MontgomeryConstants, tally: Tally) -> RnsValue:
    """RNS Montgomery product: channel-wise s = x*y in B1 and B2, then Algorithm 1."""
    b1, b2 = c.bases.base1, c.bases.base2
    s = RnsValue(
        tuple(a * b % m for a, b, m in zip(x.residues1, y.residues1, b1)),
        tuple(a * b % m for a, b, m in zip(x.residues2, y.residues2, b2)),
    )
    tally.add("channel_mul", len(b1) + len(b2))
    return montgomery_reduce(s, c, tally)


def reverse_convert(value: RnsValue, c: MontgomeryConstants, tally: Tally) -> int:
    """CRT from B1 to binary (the output accumulator), then subtract N while the value is >= N.

    Used on the output of a multiplication by 1, which is <= 2N, so at most two subtractions.
    """
    x = crt(value.residues1, c.bases.base1)
    tally.cycles += reverse_conversion_cycles(c.bases)
    tally.add("reverse_conversions")
    while x >= c.n:
        x -= c.n
        tally.add("final_subtractions")
    return x


def forward_convert(x: int, c: MontgomeryConstants, tally: Tally) -> RnsValue:
    """Horner forward conversion of an operand < 4N, counted with fixed-size (4N) operands."""
    tally.cycles += forward_conversion_cycles((4 * c.n - 1).bit_length(), c.bases)
    tally.add("forward_conversions")
    return to_rns(x, c.bases)
