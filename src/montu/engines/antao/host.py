"""What the host computes for the antao engine (Antão & Sousa, §2: "the values λ are precomputed
constants"): the two RNS bases of a build, the constants of Algorithm 1 for a modulus, and the
input-FIFO streams the programs in programs/*.rns read, in their order.

The constants are the golden model's (montu.arith.antao_alg1.montgomery_constants) rearranged for
the ring: PE e holds channel e of both bases, and the tables of the ring rounds are rotated so
that at hop t PE e multiplies the value of channel (e - t) mod P by L2+t / L6+t. Step 2's λ3 and
step 3's λ4 are folded into L2 and AW1 (products mod m2_e: the residues are the same).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

from montu.arith.antao_alg1 import MontgomeryConstants, montgomery_constants
from montu.arith.antao_rns import RnsBases, pseudo_mersenne_primes
from montu.engines.antao.assembler import Program, assemble
from montu.engines.antao.params import AntaoParams


@functools.cache
def bases_for(params: AntaoParams) -> RnsBases:
    """B1, B2 of a build: the 2P largest primes 2^W - c (c < 2^(W/4)), dealt alternately."""
    primes = pseudo_mersenne_primes(params.w, 2 * params.pes)
    c_max = max((1 << params.w) - m for m in primes)
    if c_max >= 1 << params.c_bits:
        raise ValueError(f"{2 * params.pes} primes 2^{params.w} - c need c up to {c_max}, beyond "
                         f"the {params.c_bits}-bit c registers: fewer PEs or wider channels")
    return RnsBases(channel_bits=params.w, base1=tuple(primes[0::2]), base2=tuple(primes[1::2]),
                    alpha_bits=params.alpha_bits)


def max_modulus_bits(params: AntaoParams) -> int:
    """The longest modulus a build takes (8N <= M1, M2)."""
    return bases_for(params).max_modulus.bit_length()


def limbs(x: int, w: int, count: int) -> list[int]:
    """`count` W-bit limbs of x, least significant first."""
    mask = (1 << w) - 1
    return [(x >> (w * i)) & mask for i in range(count)]


def ring_words(values: Sequence[int]) -> list[int]:
    """The FIFO words that put values[e] into PE e through P SHIN hops: PE P-1's first."""
    return list(reversed(values))


@dataclass(frozen=True)
class ModulusSetup:
    """Algorithm 1's constants of one modulus on one build, as the `setup` entry reads them."""

    params: AntaoParams
    constants: MontgomeryConstants

    @property
    def stream(self) -> list[int]:
        p, c = self.params, self.constants
        bases = c.bases
        b1, b2, w, pes = bases.base1, bases.base2, p.w, p.pes
        m1 = bases.m1
        words: list[int] = []
        words += ring_words([(1 << w) - m for m in b1])
        words += ring_words([(1 << w) - m for m in b2])
        per_pe = [
            [(1 << w) % m for m in b1],                                     # RAD1
            [(1 << w) % m for m in b2],                                     # RAD2
            list(c.lambda1),                                                # LAM1
            list(c.lambda4),                                                # LAM4
            [c.alpha1_weight[e] * c.lambda3[e] * c.lambda4[e] % b2[e] for e in range(pes)],  # AW1
            list(c.lambda5),                                                # LAM5
            list(c.alpha2_weight),                                          # AW2
            [pow(m1 // b1[e], -1, b1[e]) for e in range(pes)],              # INV1
            [1] * pes,                                                      # ONE1
            [1] * pes,                                                      # ONE2
            list(c.r_mod_n.residues1), list(c.r_mod_n.residues2),           # RM
            list(c.r_squared.residues1), list(c.r_squared.residues2),       # RR
        ]
        for values in per_pe:
            words += ring_words(values)
        for t in range(pes):                                                # L2
            words += ring_words([c.lambda2[e][(e - t) % pes] * c.lambda3[e] * c.lambda4[e] % b2[e]
                                 for e in range(pes)])
        for t in range(pes):                                                # L6
            words += ring_words([c.lambda6[e][(e - t) % pes] for e in range(pes)])
        for limb in range(pes + 1):                                         # CL
            words += ring_words([limbs(m1 // b1[e], w, pes + 1)[limb] for e in range(pes)])
        words += limbs(c.n, w, pes + 1)                                     # N
        words += limbs((1 << (w * (pes + 1))) - m1, w, pes + 1)             # D
        return words


def modulus_setup(n: int, params: AntaoParams) -> ModulusSetup:
    return ModulusSetup(params, montgomery_constants(n, bases_for(params)))


def exponent_words(e: int, t: int, params: AntaoParams) -> list[int]:
    """T, then E's EWords words left-aligned on T bits (most significant first): what `lcld`
    and the `eld` loop read."""
    if e.bit_length() > t:
        raise ValueError(f"the exponent has {e.bit_length()} bits, more than T = {t}")
    if t > params.e_bits:
        raise ValueError(f"T = {t} exponent bits exceed the {params.e_bits}-bit exponent register "
                         f"(EWords = {params.e_words})")
    if t >= 1 << 16:
        raise ValueError(f"T = {t} does not fit the 16-bit loop-count register")
    aligned = e << (params.e_bits - t)
    return [t, *reversed(limbs(aligned, params.w, params.e_words))]


def input_words(x: int, params: AntaoParams) -> list[int]:
    """An input's P limbs, most significant first (what the `input` macro's Horner loop reads)."""
    return list(reversed(limbs(x, params.w, params.pes)))


def exponent_stream(base: int, e: int, t: int, params: AntaoParams) -> list[int]:
    """The `modexp` / `ladder` inputs: the base's limbs, T and E's words."""
    return [*input_words(base, params), *exponent_words(e, t, params)]


def from_limbs(words: Sequence[int], w: int) -> int:
    return sum(v << (w * i) for i, v in enumerate(words))


@functools.cache
def program_source(name: str) -> str:
    return resources.files("montu.engines.antao").joinpath(f"programs/{name}.rns").read_text()


@functools.cache
def modexp_program(params: AntaoParams) -> Program:
    """lib.rns + modexp.rns for a build."""
    return assemble(program_source("lib") + program_source("modexp"), params, LIMBS=params.pes,
                    EW=params.e_words)


@functools.cache
def ec_program(params: AntaoParams) -> Program:
    """lib.rns + ec.rns (generated by montu.engines.antao.ec_program) for a build."""
    return assemble(program_source("lib") + program_source("ec"), params, LIMBS=params.pes,
                    EW=params.e_words)


def curve_stream(p: int, a: int, b: int, params: AntaoParams) -> list[int]:
    """The `ecsetup` inputs: a·M1 and 3b·M1 mod p and k·p for the program's multiples k, each as
    B1 then B2 residues through the ring. Raises ValueError if the program's static bounds do
    not hold for this curve on this build."""
    from montu.arith.antao_rns import to_rns
    from montu.engines.antao.ec_program import check_curve, multiples

    bases = bases_for(params)
    check_curve(p, bases.m1, bases.m2)
    words: list[int] = []
    for value in (a % p * bases.m1 % p, 3 * b % p * bases.m1 % p, *(k * p for k in multiples())):
        rns = to_rns(value, bases)
        words += ring_words(rns.residues1) + ring_words(rns.residues2)
    return words


def ec_stream(k: int, x: int, y: int, p: int, params: AntaoParams) -> list[int]:
    """The `ecmul` inputs: x, y (P limbs each, most significant first), T = bits(p) and the
    scalar's words, then T' = bits(p - 2) - 1 and the words of p - 2 less its top bit (the
    Fermat inversion's exponent)."""
    fermat = p - 2
    t_inverse = fermat.bit_length() - 1
    return [*input_words(x, params), *input_words(y, params),
            *exponent_words(k, p.bit_length(), params),
            *exponent_words(fermat - (1 << t_inverse), t_inverse, params)]


def check_build(params: AntaoParams) -> None:
    """The build can hold the modexp program's constants (RAM) and streams (FIFOs)."""
    setup_words = 2 * params.pes + 14 * params.pes + 3 * params.pes * params.pes + params.pes
    if setup_words + 2 * (params.pes + 1) > params.in_depth:
        raise ValueError(f"the setup stream ({setup_words + 2 * (params.pes + 1)} words) exceeds "
                         f"the {params.in_depth}-word input FIFO")
