"""The ONE description of a Montu unit's build parameters, validated in one place.

    cfg = UnitConfig(word_bits=64, lanes=2, max_bits=4096)   # raises ConfigError if invalid
    cfg.generics        # montu_top's parameters: {"Word": 64, "Lanes": 2, "MaxBits": 4096, ...}
    cfg.variables(k=4)  # the variables of the ISA table's cycle formulas

The simulator, the Verilator build, synthesis, lint and the RTL test matrices all take their
parameters from a `UnitConfig`; montu_top.sv's elaboration checks state the same rules, and
tests/hw/test_lint.py elaborates the RTL on each side of every rule to prove it.
"""

from __future__ import annotations

from dataclasses import dataclass

from montu.errors import MontuError

WORD_BITS = (32, 64)
LANES = (1, 2, 4)
NUM_REGS = (16, 32)              # the inclusive range of NumRegs
PIPELINED_LANES = (2, 4)         # Pipelined = 1 needs a lane pair (montu_mont's pipelined glue)
# The multiplier engine inside the unit: the cycle formulas of STARTMMI/MMX are keyed by it.
ENGINES = ("bie2021", "cilardo")
DEFAULT_ENGINE = "bie2021"
# montu_top's MulCore parameter for each engine: 0 montu_mont (bie2021), 1 cilardo_mont
MUL_CORES = {"bie2021": 0, "cilardo": 1}
# The engines whose default build (montu.engines.open, the CLI's --engine, `montu bench engines`,
# `montu synth --engine`) is Pipelined = 1: the whole cilardo unit routes on the ECP5-85 only with
# the unit's other engines pipelined (the Pipelined = 0 build stalled in the router), so its cycles
# and its fmax are of that one build. bie2021's default stays Pipelined = 0 (the fewest cycles).
PIPELINED_BY_DEFAULT = frozenset({"cilardo"})


class ConfigError(MontuError, ValueError):
    """A unit parameter outside what the RTL can be built with."""


@dataclass(frozen=True)
class UnitConfig:
    """Word (data word bits), Lanes (MAC lanes), MaxBits (longest operand), NumRegs, Pipelined
    (the high-clock build) and the multiplier engine of one Montu unit."""

    word_bits: int = 64
    lanes: int = 2
    max_bits: int = 4096
    num_regs: int = 32
    pipelined: bool = False
    engine: str = DEFAULT_ENGINE

    def __post_init__(self) -> None:
        for problem in self.problems():
            raise ConfigError(problem)
        object.__setattr__(self, "pipelined", bool(self.pipelined))

    @classmethod
    def problems_of(cls, **fields: object) -> list[str]:
        """The rules that parameters `fields` would break, without raising (for tests and tools
        that compare these rules with the RTL's)."""
        probe = object.__new__(cls)
        for name, field in cls.__dataclass_fields__.items():
            object.__setattr__(probe, name, fields.get(name, field.default))
        return probe.problems()

    def problems(self) -> list[str]:
        """Every rule this configuration breaks, as messages (empty when it is valid)."""
        found = []
        for name in ("word_bits", "lanes", "max_bits", "num_regs"):
            if not isinstance(getattr(self, name), int) or isinstance(getattr(self, name), bool):
                found.append(f"{name} must be an integer (got {getattr(self, name)!r})")
        if found:
            return found
        if self.word_bits not in WORD_BITS:
            found.append(f"Word must be 32 or 64 (got {self.word_bits})")
        if self.lanes not in LANES:
            found.append(f"Lanes must be 1, 2 or 4 (got {self.lanes})")
        if self.max_bits <= 0 or self.max_bits % 64:
            found.append(f"MaxBits must be a positive multiple of 64 (got {self.max_bits})")
        if not NUM_REGS[0] <= self.num_regs <= NUM_REGS[1]:
            found.append(f"NumRegs must be in {NUM_REGS[0]} .. {NUM_REGS[1]} (got {self.num_regs})")
        if self.pipelined and self.lanes not in PIPELINED_LANES:
            found.append(f"Pipelined needs Lanes = 2 or 4 (got Lanes = {self.lanes})")
        if self.engine not in ENGINES:
            found.append(f"engine must be one of {', '.join(ENGINES)} (got {self.engine!r})")
        elif self.engine == "cilardo":
            # cilardo2008's word unit is w = 64 bits (Fig. 8: four 16x16 and four 48x16 modules)
            # (Pipelined = 1 pipelines the unit's other engines; the multiplier has its own 8 stages)
            if self.word_bits != 64:
                found.append(f"engine cilardo needs Word = 64 (got {self.word_bits})")
        return found

    @property
    def max_words(self) -> int:
        """MaxWords = MaxBits / Word: data words in the longest operand."""
        return self.max_bits // self.word_bits

    @property
    def generics(self) -> dict[str, int]:
        """montu_top's parameters; Pipelined only when set (the default build reads as before)."""
        generics = {"Word": self.word_bits, "Lanes": self.lanes, "MaxBits": self.max_bits,
                    "NumRegs": self.num_regs}
        if self.pipelined:
            generics["Pipelined"] = 1
        if self.engine != DEFAULT_ENGINE:
            generics["MulCore"] = MUL_CORES[self.engine]
        return generics

    def variables(self, *, k: int, gf2m: int = 0) -> dict[str, int]:
        """The variables of the ISA table's cycle formulas at operand length L = 64·k bits."""
        return {"k": k, "W": 64 * k // self.word_bits, "Word": self.word_bits, "Lanes": self.lanes,
                "NumRegs": self.num_regs, "MaxWords": self.max_words,
                "Pipelined": int(self.pipelined), "gf2m": gf2m}

    @property
    def name(self) -> str:
        """A short label: w64_l2_b4096_r32, with _pipelined for the high-clock build."""
        suffix = "_pipelined" if self.pipelined else ""
        if self.engine != DEFAULT_ENGINE:
            suffix += f"_{self.engine}"
        return f"w{self.word_bits}_l{self.lanes}_b{self.max_bits}_r{self.num_regs}{suffix}"


def _cfg(word: int, lanes: int, max_bits: int, regs: int, pipelined: bool = False,
         engine: str = DEFAULT_ENGINE) -> UnitConfig:
    return UnitConfig(word_bits=word, lanes=lanes, max_bits=max_bits, num_regs=regs, pipelined=pipelined,
                      engine=engine)


# The configurations the RTL is checked in. Lint: every Word, lane count and build, the smallest
# register file and MaxBits (64), MaxBits that are not powers of two. Cocotb benches of montu_top:
# a smaller set by default (each is a Verilator build), the rest with MONTU_RTL_ALL=1.
LINT_MATRIX = (
    UnitConfig(), _cfg(32, 2, 4096, 32), _cfg(64, 1, 4096, 32), _cfg(64, 2, 1024, 16),
    _cfg(32, 1, 576, 32), _cfg(64, 2, 576, 20), _cfg(64, 4, 4096, 32), _cfg(32, 4, 576, 32),
    _cfg(64, 4, 64, 16), _cfg(64, 2, 4096, 32, True), _cfg(32, 2, 576, 32, True),
    _cfg(64, 4, 4096, 32, True), _cfg(64, 4, 64, 16, True),
    _cfg(64, 2, 1024, 16, engine="cilardo"), _cfg(64, 2, 64, 16, engine="cilardo"),
    _cfg(64, 2, 1024, 16, True, engine="cilardo"),
)
COCOTB_MATRIX = (
    _cfg(64, 2, 4096, 32), _cfg(32, 1, 1024, 16), _cfg(32, 2, 576, 20), _cfg(64, 4, 1024, 16),
    _cfg(32, 4, 576, 16), _cfg(64, 2, 4096, 32, True), _cfg(32, 4, 576, 16, True),
    _cfg(64, 2, 1024, 16, engine="cilardo"),
)
COCOTB_EXTRA = (
    _cfg(64, 1, 576, 16), _cfg(64, 4, 4096, 32), _cfg(64, 4, 1024, 16, True),
    _cfg(32, 2, 1024, 16, True), _cfg(64, 2, 1024, 16, True, engine="cilardo"),
)
