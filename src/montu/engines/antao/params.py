"""The antao engine's build parameters (hw/ip/antao's antao_top generics), checked in one place.

Defaults are the paper's EC configuration (64-bit channels, 4 PEs: 224-bit EC point
multiplication); `RSA512` is its RSA configuration (96-bit channels, 6 PEs: 512-bit modexp).
`montu.engines.antao.build_for_bits(bits, w)` sizes a build for a modulus length, MulShare
included (`mul_share_to_fit`).

MulShare = N trades clocks for DSP blocks: the run datapath advances one step every N clocks, and
each product that maps to MULT18X18D is formed over the N clocks of its step on about 1/N of the
blocks (hw/ip/antao/rtl/antao_mul_share.sv): the PE's X * Y, which has a step of slack, on
ceil(KX/N) * KY blocks (InStep = 0: its last block is added in the next step); the channel
reduction's folds and the output accumulator's ALPHA * D[LP], needed in their own step, on
ceil(KX/(N-1)) * KY (InStep: the blocks formed in the step's first N - 1 clocks, registered, the
last clock only adds). `AntaoParams.mult18x18d` counts a build's blocks the way the RTL
instantiates them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

LOOP_DEPTH = 2           # loop stack entries of the sequencer
LCR_BITS = 16            # the loop-count register
ALPHA_EXTRA_BITS = 8     # AACC = AlphaBits + 8 bits; ALPHA = AACC >> AlphaBits < 2^8
ACC_EXTRA_BITS = 8       # ACC and OACC: 2W + 8 bits
ALPHA_BITS_OUT = 8       # ALPHA: the output accumulator's multiplier operand
DSP_LIMB_BITS = 18       # the other products' limbs: what Yosys cuts an unsigned `*` into
MAX_MUL_SHARE = 16

ECP5_85_MULT18X18D = 156                   # the LFE5U-85F's multipliers
DSP_BUDGET = ECP5_85_MULT18X18D * 9 // 10  # what a build may use: a 10 % margin (140)


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def mul_limb_bits(w: int) -> int:
    """antao_mul's limb width for W-bit channels: the narrowest limb at the fewest limbs of at
    most 18 bits (a MULT18X18D is 18 x 18 unsigned), ceil(W / ceil(W / 18)): 16 for W = 64 and
    96, 17 for W = 68."""
    return _ceil(w, _ceil(w, DSP_LIMB_BITS))


def _limb_products(a_bits: int, b_bits: int, limb: int) -> int:
    """Limb products of an a_bits x b_bits product cut into limbs of at most `limb` bits (each a
    multiplier of limb x limb bits: one MULT18X18D)."""
    return _ceil(a_bits, min(limb, a_bits)) * _ceil(b_bits, min(limb, b_bits))


def _shared_multipliers(a_bits: int, b_bits: int, limb: int, blocks: int) -> int:
    """antao_mul_share's multipliers: one operand's limbs in `blocks` blocks, a block times all
    of the other operand per clock (ceil(KX / blocks) * KY), X the operand that needs fewer.
    `blocks` is MulShare for InStep = 0 (antao_mul's X * Y), MulShare - 1 for InStep = 1
    (the folds, ALPHA * D[LP]: the step's last clock forms no block)."""
    ka, kb = _ceil(a_bits, min(limb, a_bits)), _ceil(b_bits, min(limb, b_bits))
    return min(_ceil(ka, blocks) * kb, _ceil(kb, blocks) * ka)


def _yosys_mult18x18d(a_bits: int, b_bits: int) -> int:
    """MULT18X18D of an unsigned a_bits x b_bits `*` as Yosys's synth_ecp5 maps it (mul2dsp):
    each operand in 18-bit pieces, a last piece of one bit left to logic (its minimum width is 2;
    checked against Yosys in tests/hw/test_antao_cocotb.py)."""
    def pieces(bits: int) -> int:
        return bits // DSP_LIMB_BITS + (1 if bits % DSP_LIMB_BITS >= 2 else 0)
    return pieces(a_bits) * pieces(b_bits)


def _mult18x18d(a_bits: int, b_bits: int, limb: int, share: int) -> int:
    """An a_bits x b_bits product of the RTL needed in its own step (a fold, ALPHA * D[LP]): a
    plain `*` (Yosys's split) when share = 1, else antao_mul_share's InStep multipliers (the
    blocks formed in share - 1 clocks; with share = 2 every limb product, one MULT18X18D each)."""
    if share == 1:
        return _yosys_mult18x18d(a_bits, b_bits)
    return _shared_multipliers(a_bits, b_bits, limb, share - 1)


@dataclass(frozen=True)
class AntaoParams:
    """antao_top's parameters (same names in lower case)."""

    w: int = 64              # W: channel width (bits)
    pes: int = 4             # P: processing elements = channels per base
    depth: int = 256         # Depth: RAM words per PE (a power of two)
    alpha_bits: int = 4      # AlphaBits: leading bits of each xi the alpha accumulator adds
    mul_stages: int = 2      # MulStages: register stages of the multiplier
    ucode_depth: int = 2048  # UcodeDepth: microinstructions (ec.rns needs ~1,300)
    e_words: int = 4         # EWords: exponent register of EWords * W bits
    in_depth: int = 4096     # InDepth: input FIFO words
    out_depth: int = 128     # OutDepth: output FIFO words
    mul_share: int = 1       # MulShare: clocks per step of the run (products share DSP blocks)

    def __post_init__(self) -> None:
        def power_of_two(v: int) -> bool:
            return v > 0 and v & (v - 1) == 0
        checks = [
            (self.w >= 24 and self.w % 4 == 0, f"W must be a multiple of 4 and >= 24 (got {self.w})"),
            (2 <= self.pes <= 127, f"P must be in 2..127 (got {self.pes})"),
            (power_of_two(self.depth) and 2 <= self.depth <= 1024,
             f"Depth must be a power of two in 2..1024 (got {self.depth})"),
            (1 <= self.alpha_bits <= self.w, f"AlphaBits must be in 1..W (got {self.alpha_bits})"),
            (1 <= self.mul_stages <= 8, f"MulStages must be in 1..8 (got {self.mul_stages})"),
            (power_of_two(self.ucode_depth) and 2 <= self.ucode_depth <= 4096,
             f"UcodeDepth must be a power of two in 2..4096 (got {self.ucode_depth})"),
            (self.e_words >= 1, f"EWords must be >= 1 (got {self.e_words})"),
            (2 <= self.in_depth <= 65535 and 2 <= self.out_depth <= 65535,
             "the FIFOs hold 2..65535 words (STATUS reports 16-bit counts)"),
            (1 <= self.mul_share <= MAX_MUL_SHARE,
             f"MulShare must be in 1..{MAX_MUL_SHARE} (got {self.mul_share})"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"antao parameters: {message}")

    @property
    def c_bits(self) -> int:
        """CBits: width of the channel constants c (m = 2^W - c)."""
        return self.w // 4

    @property
    def acc_bits(self) -> int:
        return 2 * self.w + ACC_EXTRA_BITS

    @property
    def s(self) -> int:
        """Stage of the adder SUM (and the ACC write)."""
        return 1 + self.mul_stages

    @property
    def latency(self) -> int:
        """L: issue-to-readable latency of a RAM write."""
        return self.s + 3

    @property
    def pair_clocks(self) -> int:
        """Clocks of an `mm2` pair (two interleaved RNS Montgomery products, a ladder's step per
        exponent bit): MulShare * (4P + 5L + 2), the simulator's and the RTL's count (checked
        in tests/engines/test_antao_simulator.py)."""
        return self.mul_share * (4 * self.pes + 5 * self.latency + 2)

    @property
    def e_bits(self) -> int:
        return self.e_words * self.w

    @property
    def fifo_parts(self) -> int:
        """Wp: shell data words per FIFO word."""
        return -(-self.w // 64)

    @property
    def generics(self) -> dict[str, int]:
        """antao_top's parameters (MulShare only when it is not 1, its default: the builds
        without sharing keep their names and figures)."""
        generics = {"W": self.w, "P": self.pes, "Depth": self.depth, "AlphaBits": self.alpha_bits,
                    "MulStages": self.mul_stages, "UcodeDepth": self.ucode_depth,
                    "EWords": self.e_words, "InDepth": self.in_depth, "OutDepth": self.out_depth}
        if self.mul_share != 1:
            generics["MulShare"] = self.mul_share
        return generics

    @property
    def mult18x18d_per_pe(self) -> dict[str, int]:
        """A PE's MULT18X18D as the RTL instantiates them: antao_mul's K x K limb products
        (mul_limb_bits), antao_chan_reduce's fold 1 (hi(SUM), W + 8 bits, times c) and fold 2
        (hi(V1), W/4 + 9 bits, times c): with MulShare = 1 as Yosys splits a `*`, else in 18-bit
        limbs shared by MulShare - 1 clocks (antao_mul_share, InStep = 1: a block of one
        operand's limbs per clock, the step's last clock adds the last one); X * Y's limbs by
        MulShare clocks (InStep = 0)."""
        n = self.mul_share
        hi1 = self.acc_bits - self.w
        hi2 = hi1 + self.c_bits + 1 - self.w
        # antao_mul's limb products are explicit (limb x limb bits, all K limbs of one width:
        # the top one zero-extended), one MULT18X18D each, shared or not
        limb = mul_limb_bits(self.w)
        mul = (_limb_products(self.w, self.w, limb) if n == 1
               else _shared_multipliers(self.w, self.w, limb, n))
        return {"mul": mul,
                "fold1": _mult18x18d(hi1, self.c_bits, DSP_LIMB_BITS, n),
                "fold2": _mult18x18d(hi2, self.c_bits, DSP_LIMB_BITS, n)}

    @property
    def mult18x18d(self) -> int:
        """The build's MULT18X18D: P PEs, plus the output accumulator's ALPHA (8 bits) x D[LP]
        (W bits)."""
        out_acc = _mult18x18d(ALPHA_BITS_OUT, self.w, DSP_LIMB_BITS, self.mul_share)
        return self.pes * sum(self.mult18x18d_per_pe.values()) + out_acc

    def with_(self, **changes: int) -> AntaoParams:
        return replace(self, **changes)


def mul_share_to_fit(params: AntaoParams, budget: int = DSP_BUDGET) -> AntaoParams:
    """`params` with the smallest MulShare whose MULT18X18D fit in `budget` (the ECP5-85's 156
    less a 10 % margin by default): MulShare = 1 when the build fits as it is. A build that no
    MulShare up to 16 fits (more than 13 PEs of 96 bits: each needs at least 10 with any
    MulShare) is returned unchanged: it does not fit the device anyway, and sharing would only
    make it slower."""
    for n in range(1, MAX_MUL_SHARE + 1):
        candidate = replace(params, mul_share=n)
        if candidate.mult18x18d <= budget:
            return candidate
    return params


EC224 = AntaoParams()                                   # the paper's EC configuration
# the paper's RSA configuration, with the MulShare that fits its products into the ECP5-85
RSA512 = mul_share_to_fit(AntaoParams(w=96, pes=6, e_words=6, ucode_depth=1024))
