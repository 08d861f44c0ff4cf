"""The antao engine's build parameters (hw/ip/antao's antao_top generics), checked in one place.

Defaults are the paper's EC configuration (64-bit channels, 4 PEs: 224-bit EC point
multiplication); `RSA512` is its RSA configuration (96-bit channels, 6 PEs: 512-bit modexp).
`for_modulus(bits, w)` sizes a build for a modulus length.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

LOOP_DEPTH = 2           # loop stack entries of the sequencer
LCR_BITS = 16            # the loop-count register
ALPHA_EXTRA_BITS = 8     # AACC = AlphaBits + 8 bits; ALPHA = AACC >> AlphaBits < 2^8
ACC_EXTRA_BITS = 8       # ACC and OACC: 2W + 8 bits


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
    def e_bits(self) -> int:
        return self.e_words * self.w

    @property
    def fifo_parts(self) -> int:
        """Wp: shell data words per FIFO word."""
        return -(-self.w // 64)

    @property
    def generics(self) -> dict[str, int]:
        """antao_top's parameters."""
        return {"W": self.w, "P": self.pes, "Depth": self.depth, "AlphaBits": self.alpha_bits,
                "MulStages": self.mul_stages, "UcodeDepth": self.ucode_depth,
                "EWords": self.e_words, "InDepth": self.in_depth, "OutDepth": self.out_depth}

    def with_(self, **changes: int) -> AntaoParams:
        return replace(self, **changes)


EC224 = AntaoParams()                                   # the paper's EC configuration
RSA512 = AntaoParams(w=96, pes=6, e_words=6, ucode_depth=1024)   # the paper's RSA configuration
