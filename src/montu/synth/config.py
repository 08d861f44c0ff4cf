"""What one synthesis run builds: the unit's parameters and the FPGA it is placed on."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from montu.config import UnitConfig
from montu.errors import MontuError

WORDS = (32, 64)
LANES = (1, 2, 4)
MAX_BITS = (1024, 4096)
# The unit, or one of its engines on its own (to see which one limits fmax).
# cilardo_mont: cilardo2008's multiplier (MulCore = 1), the paper's "multiplier core only" area.
TOPS = ("montu_top", "montu_mont", "montu_inv", "montu_wordop", "cilardo_mont")
# The tops that have the Pipelined parameter (the high-clock build: pipelined MAC lanes, q unit,
# word engine and inversion engine; the unit needs Lanes = 2 or 4).
PIPELINED_TOPS = ("montu_top", "montu_mont", "montu_wordop", "montu_inv")


@dataclass(frozen=True)
class SynthConfig:
    """The parameters of montu_top (hw/ip/montu/rtl/montu_top.sv) for one run."""

    word: int = 64
    lanes: int = 2
    max_bits: int = 4096
    num_regs: int = 32
    top: str = "montu_top"
    pipelined: bool = False   # Pipelined = 1: the high-clock build

    def __post_init__(self) -> None:
        if self.top not in TOPS:
            raise MontuError(f"top must be one of {', '.join(TOPS)} (got {self.top!r})")
        if self.pipelined and self.top not in PIPELINED_TOPS:
            raise MontuError(f"Pipelined is a parameter of {', '.join(PIPELINED_TOPS)} "
                             f"only, not of {self.top}")
        # the unit's rules (montu.config); an engine without MAC lane pairs may pipeline alone
        lane_pair_needed = self.top in ("montu_top", "montu_mont")
        UnitConfig(word_bits=self.word, lanes=self.lanes, max_bits=self.max_bits,
                   num_regs=self.num_regs, pipelined=self.pipelined and lane_pair_needed,
                   engine="cilardo" if self.top == "cilardo_mont" else "bie2021")

    @property
    def name(self) -> str:
        """A short, file-name-safe label: w64_l2_b4096_r32 (engine runs: montu_mont_w64_l2_b4096),
        with _pipelined at the end for the pipelined build."""
        suffix = "_pipelined" if self.pipelined else ""
        if self.top == "montu_top":
            return f"w{self.word}_l{self.lanes}_b{self.max_bits}_r{self.num_regs}{suffix}"
        return f"{self.top}_w{self.word}_l{self.lanes}_b{self.max_bits}{suffix}"

    @property
    def generics(self) -> dict[str, int]:
        """The parameters of the top module of the run, as montu_top would set them
        (Pipelined only when set, so the default runs read exactly as before)."""
        pipelined = {"Pipelined": 1} if self.pipelined else {}
        if self.top == "montu_top":
            return {"Word": self.word, "Lanes": self.lanes, "MaxBits": self.max_bits,
                    "NumRegs": self.num_regs} | pipelined
        engine = {"Word": self.word, "MaxWords": self.max_bits // self.word}
        if self.top == "montu_mont":
            return engine | {"Lanes": self.lanes} | pipelined
        if self.top == "cilardo_mont":
            return engine
        return engine | pipelined

    @property
    def label(self) -> dict[str, object]:
        """How results name the run: the unit's parameters (Pipelined only when set), and the
        engine when it is not the unit."""
        unit = {"Word": self.word, "Lanes": self.lanes, "MaxBits": self.max_bits,
                "NumRegs": self.num_regs} | ({"Pipelined": 1} if self.pipelined else {})
        return unit if self.top == "montu_top" else {"top": self.top} | unit


@dataclass(frozen=True)
class EngineSynthConfig:
    """One build of another paper's engine (montu.engines): its top with `parameters`."""

    engine: str
    parameters: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        from montu import engines

        entry = engines.get(self.engine)
        if entry.name == "bie2021":
            raise MontuError("the bie2021 unit is synthesized with --word/--lanes/--max-bits, "
                             "not --engine")

    @property
    def core(self) -> str:
        from montu import engines

        return engines.get(self.engine).core

    @property
    def top(self) -> str:
        from montu import engines

        return engines.get(self.engine).top

    @property
    def pipelined(self) -> bool:
        return False

    @property
    def name(self) -> str:
        """yeh_nbits1024: the engine and its parameters, file-name safe."""
        return "_".join([self.engine, *(f"{k.lower()}{v}" for k, v in self.parameters)])

    @property
    def generics(self) -> dict[str, int]:
        return dict(self.parameters)

    @property
    def label(self) -> dict[str, object]:
        return {"engine": self.engine} | dict(self.parameters)


ROUTERS = ("router1", "router2")
PLACERS = ("heap", "static")
LUT_MAPS = ("delay", "target")


# TRELLIS_COMB sites (LUT4s) of each Device.device, as nextpnr counts them.
LUT_SITES = {"LFE5U-85F": 83_640}


@dataclass(frozen=True)
class Device:
    """The FPGA and the place-and-route settings (nextpnr-ecp5 options)."""

    family: str = "ECP5"
    device: str = "LFE5U-85F"
    nextpnr_device: str = "--85k"
    package: str = "CABGA381"
    speed: int = 6            # the slowest grade of the LFE5U-85F (e.g. ULX3S: LFE5U-85F-6BG381C)
    seed: int = 1
    target_mhz: float = 100.0
    router: str = "router1"   # nextpnr's default; router2 routes congested designs much faster
    tmg_ripup: bool = False   # nextpnr --tmg-ripup: timing-driven rip-up in the router
    # nextpnr's placer: "heap" (its default, analytic) or "static" (electrostatic: spreads a
    # design over more tiles). HeAP's density setting (--placer-heap-beta) is not offered: 0.5,
    # 0.7 and 0.9 gave the same placement on montu_wordop and on the pipelined unit.
    placer: str = "heap"
    # ABC9's LUT mapping: "delay" (synth_ecp5's default: the fewest LUT levels on every path,
    # logic duplicated to get them) or "target" (ABC9 given the target period as its delay
    # target, `scratchpad -set abc9.D`: the paths that meet it are mapped for area)
    lut_map: str = "delay"

    @property
    def abc9_delay_ps(self) -> int | None:
        """ABC9's delay target (ps) for lut_map = "target", else None (synth_ecp5's default)."""
        return round(1e6 / self.target_mhz) if self.lut_map == "target" else None

    def __post_init__(self) -> None:
        if self.speed not in (6, 7, 8):
            raise MontuError(f"ECP5 speed grade must be 6, 7 or 8 (got {self.speed})")
        if self.target_mhz <= 0:
            raise MontuError(f"target frequency must be positive (got {self.target_mhz} MHz)")
        if self.router not in ROUTERS:
            raise MontuError(f"router must be one of {', '.join(ROUTERS)} (got {self.router!r})")
        if self.placer not in PLACERS:
            raise MontuError(f"placer must be one of {', '.join(PLACERS)} (got {self.placer!r})")
        if self.lut_map not in LUT_MAPS:
            raise MontuError(f"lut_map must be one of {', '.join(LUT_MAPS)} (got {self.lut_map!r})")


# Issue #6: Word ∈ {32, 64} × Lanes ∈ {1, 2, 4} × MaxBits ∈ {1024, 4096}, NumRegs = 32; the main
# configuration (Word 64, Lanes 2, MaxBits 4096) first, then Word 64, then Word 32.
SWEEP: tuple[SynthConfig, ...] = tuple(sorted(
    (SynthConfig(word=w, lanes=l, max_bits=b) for w, l, b in product(WORDS, LANES, MAX_BITS)),
    key=lambda c: ((c.word, c.lanes, c.max_bits) != (64, 2, 4096), -c.word, c.lanes != 2,
                   c.lanes, -c.max_bits)))
