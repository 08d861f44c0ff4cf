"""The cilardo engine: the Montu unit built on cilardo2008's dual-field Montgomery multiplier.

    engine = montu.engines.open("cilardo", backend="sim")            # the paper's mode
    engine = montu.engines.open("cilardo", mode="alg2")              # Alg. 2's guard bits
    engine.fios_mul(a, b, n, Field.GFP)   # the paper's primitive: one STARTMMI, a·b·2^-L mod n
    engine.mod_mul(x, y, n), engine.mod_exp(b, e, n), engine.mod_inv(a, n), engine.scalar_mult(...)
    engine.last_cycles        # unit cycles of the call, loads and reads included
    engine.core_cycles        # its STARTMMI/MMX instruction cycles (the ISA table's formula)
    engine.paper_core_cycles  # the same products counted as the paper does (Fig. 9 schedule)

It is `montu.Unit(engine="cilardo")`: montu_top with MulCore = 1, so STARTMMI and MMX run on
cilardo_mont (Alg. 2, FIOS, on the 8-stage recoded word unit) and everything else (MINV, the
word-serial instructions, RSA, ECDSA/ECDH over GF(p) and GF(2^m)) is the unit's. The modes:
"paper" (m = ⌈bits/64⌉ words, as the paper's §6 table counts them; the default) and "alg2"
(m·64 ≥ bits + 2: Alg. 2's guard bits, 2^{m·64} > 4N).

core_cycles are the instruction's cycles (its whole response time, from the table); the paper's
own quantity for one product is its Fig. 9 schedule, m·max(m + 1, 9) clocks
(montu.arith.cilardo_fios.pipeline_schedule), which paper_core_cycles adds up per product at the
length the unit ran it at.
"""

from __future__ import annotations

from collections.abc import Sequence

from montu.arith.cilardo_fios import pipeline_schedule
from montu.arith.field import Field
from montu.config import PIPELINED_BY_DEFAULT, UnitConfig
from montu.driver import GUARD_BITS_MODES, CORE_INSTRUCTIONS, OPCODE_SHIFT, Unit, UnitError
from montu.engines.bie2021 import Bie2021Engine
from montu.isa import Response, decode_slots, load

MODES = tuple(GUARD_BITS_MODES)   # ("paper", "alg2")
# `montu synth --engine cilardo`: the whole unit (montu_top) with MulCore = 1 at the unit's
# default parameters and the engine's default build, Pipelined = 1 (montu.config.
# PIPELINED_BY_DEFAULT: the one cilardo unit that routes); `montu synth --top cilardo_mont`
# places the multiplier alone.
SYNTH_BUILDS = ({**UnitConfig(engine="cilardo", pipelined=True).generics},)


def paper_product_cycles(words: int) -> int:
    """The paper's clocks for one m-word product: Fig. 9's schedule, m·max(m + 1, 9)."""
    return pipeline_schedule(words).cycles


def words_for(bits: int, mode: str = "paper") -> int:
    """m, the 64-bit words of a GF(p) product of `bits`-bit operands in `mode`."""
    return -(-(bits + GUARD_BITS_MODES[_mode(mode)]) // 64)


def product_cycles(bits: int, mode: str = "paper", field: Field = Field.GFP) -> dict[str, int]:
    """One STARTMMI at `bits` bits in `mode`: {"words", "instruction" (the ISA table's cycles on
    the cilardo build), "paper" (Fig. 9's clocks)}. GF(2^m) needs no guard bits."""
    guard = GUARD_BITS_MODES[_mode(mode)] if Field(field) is Field.GFP else 0
    words = -(-(bits + guard) // 64)
    config = UnitConfig(engine="cilardo", max_bits=max(4096, 64 * words))
    instruction = load().by_name["STARTMMI"].cycle_count(
        engine="cilardo", **config.variables(k=words, gf2m=int(Field(field) is Field.GF2M)))
    return {"words": words, "instruction": instruction, "paper": paper_product_cycles(words)}


def _mode(mode: str) -> str:
    if mode not in GUARD_BITS_MODES:
        raise UnitError(f"the cilardo engine's mode must be one of {', '.join(MODES)} "
                        f"(got {mode!r})")
    return mode


class _PaperClock:
    """A backend wrapper that counts the paper's clocks of the products the unit runs: it
    follows SETMMI (k) and WIPE as the unit does, and adds m·max(m + 1, 9) for each STARTMMI/MMX
    answered without an error, except while `paused` (the per-modulus constants R², R³, which
    the unit's core cycles leave out too). Passes every command through unchanged."""

    def __init__(self, inner) -> None:
        self.inner = inner
        isa = load()
        self._core = frozenset(isa.by_name[name].opcode for name in CORE_INSTRUCTIONS)
        self._setmmi = isa.by_name["SETMMI"].opcode
        self._wipe = isa.by_name["WIPE"].opcode
        self.words = 1         # k after reset
        self.total = 0         # paper clocks of the counted products so far
        self.total_all = 0     # ... of every product, the per-modulus constants' included
        self.products = 0
        self.paused = 0        # > 0 while the driver computes a per-modulus constant

    def _follow(self, insn: int, rsp: Response) -> None:
        if rsp.err:
            return
        op = insn >> OPCODE_SHIFT
        if op in self._core:
            self.total_all += paper_product_cycles(self.words)
            if not self.paused:
                self.total += paper_product_cycles(self.words)
                self.products += 1
        elif op == self._setmmi:
            self.words = decode_slots(insn)["imm"]
        elif op == self._wipe:
            self.words = 1

    def execute(self, insn: int, data: int = 0) -> Response:
        rsp = self.inner.execute(insn, data)
        self._follow(insn, rsp)
        return rsp

    def execute_many(self, commands: Sequence[tuple[int, int]]) -> list[Response]:
        responses = self.inner.execute_many(commands)
        for (insn, _), rsp in zip(commands, responses):
            self._follow(insn, rsp)
        return responses

    def reset(self) -> None:
        self.inner.reset()
        self.words = 1

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


class CilardoEngine(Bie2021Engine):
    """`montu.Unit(engine="cilardo")` with the engine contract's names, plus the paper's
    primitive `fios_mul` and `paper_core_cycles` (module docstring)."""

    name = "cilardo"

    def __init__(self, unit: Unit, mode: str = "paper"):
        if unit.engine != "cilardo":
            raise UnitError(f"the cilardo engine needs a unit built with engine='cilardo' "
                            f"(got {unit.engine!r})")
        super().__init__(unit)
        self.mode = _mode(mode)
        self._clock = _PaperClock(unit._backend)   # noqa: SLF001 (counts what the unit runs)
        unit._backend = self._clock                # noqa: SLF001
        for name in ("_load_r2", "_load_r3"):      # left out of core cycles by the unit: here too
            setattr(unit, name, self._paused(getattr(unit, name)))
        self._paper_before = 0
        self._paper_last = 0
        self.build = {**unit.config.generics, "mode": self.mode}

    def _paused(self, method):
        def run(*args, **kwargs):
            self._clock.paused += 1
            try:
                return method(*args, **kwargs)
            finally:
                self._clock.paused -= 1
        return run

    def _start(self) -> None:
        self._point_cycles = None
        self._paper_before = self._clock.total

    def _end(self) -> None:
        self._paper_last = self._clock.total - self._paper_before

    @property
    def paper_core_cycles(self) -> int:
        """The paper's clocks (Fig. 9, m·max(m + 1, 9) per product) of the last call's
        STARTMMI/MMX products."""
        return self._paper_last

    def fios_mul(self, a: int, b: int, n: int, field: Field = Field.GFP) -> int:
        """The paper's primitive, one cilardo_mont product (STARTMMI): a·b·2^-L mod n (GF(p)) or
        a(x)·b(x)·x^-L mod n(x) (GF(2^m)), L = 64·m for the engine's mode; a, b below n."""
        return self._timed(lambda: self.unit.mont_mul(a, b, n, field))

    def mont_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        return self.fios_mul(x, y, n, field)

    def mod_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        return self._timed(lambda: self.unit.mod_mul(x, y, n, field))

    def mod_exp(self, base: int, exponent: int, n: int) -> int:
        return self._timed(lambda: self.unit.mod_exp(base, exponent, n))

    def mod_inv(self, a: int, n: int, field: Field = Field.GFP) -> int:
        return self._timed(lambda: self.unit.mod_inv(a, n, field))

    def scalar_mult(self, curve: str, k: int, point: tuple[int, int] | None = None) -> tuple[int, int]:
        """k·P (Bie2021Engine.scalar_mult); its core cycles count every product the point
        multiplication ran (per-curve constants included), and so do its paper clocks."""
        before = self._clock.total_all
        try:
            return super().scalar_mult(curve, k, point)
        finally:
            self._paper_last = self._clock.total_all - before

    def _timed(self, call):
        self._start()
        try:
            return call()
        finally:
            self._end()


def open(backend: str = "sim", *, mode: str = "paper", **params) -> CilardoEngine:  # noqa: A001
    """The unit built with engine="cilardo" on `backend`; `mode` "paper" (default) or "alg2";
    `params`: the unit's (lanes, max_bits, num_regs, pipelined: the other engines pipelined,
    True by default — the build that routes, see SYNTH_BUILDS; Word must be 64)."""
    for name in ("engine", "guard_bits"):
        if name in params:
            raise UnitError(f"the cilardo engine sets {name} itself (use mode='paper' or 'alg2')")
    params.setdefault("pipelined", "cilardo" in PIPELINED_BY_DEFAULT)
    unit = Unit(backend=backend, engine="cilardo", guard_bits=GUARD_BITS_MODES[_mode(mode)],
                **params)
    return CilardoEngine(unit, mode)


def params_for_bits(bits: int) -> dict[str, int]:
    """A build that holds `bits`-bit operands: the default MaxBits (4096), or 8192 above it."""
    return {} if bits <= 4096 else {"max_bits": 8192}
