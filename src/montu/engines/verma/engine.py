"""The verma engine object (ENGINES.md §3): Verma et al.'s EWBR4CMMM and Montgomery powering
ladder behind the engine contract.

    engine = montu.engines.open("verma", backend="sim", k=1024)   # or backend="rtl"
    engine.cmmm(p, r, n)            # the paper's primitive: (P·R·F^-1, P·P·F^-1) mod n, unreduced
    engine.mod_mul(x, y, n)         # x·y mod n (three passes, the last one fully reduces)
    engine.mod_exp(b, e, n)         # b^e mod n by the engine's MPL: k + 2 passes, constant time
    engine.last_cycles, engine.core_cycles

Every value is computed by the engine (simulator or Verilated verma_top); the host only validates
arguments, moves 64-bit words in and out, and computes the constants of n, powers of the
Montgomery factor F = 4^I (I = h + g): C = F² mod n, O = F mod n (MPL) or F³ mod n (mod_mul).
"""

from __future__ import annotations

from collections.abc import Sequence

from montu.arith.field import Field
from montu.errors import ModulusError, MontuError
from montu.engines.shell import CommandShell
from montu.isa.encoding import Response
from montu.engines.verma.simulator import (DEFAULT_K, DEFAULT_W, ISA, WORD_BITS, WORD_MASK, Sizes,
                                           VermaSimulator, encode, mpl_passes, sizes)

BACKENDS = ("sim", "rtl")
ERROR_NAME = {e.code: e.name for e in ISA.errors}


class VermaError(MontuError, ValueError):
    """The verma engine rejected a command, or the host refused a request before sending any.

    ``code`` is the engine's error code (verma.yaml) and ``error`` its name (e.g. "E_RANGE");
    both are None when the host refused the arguments itself.
    """

    def __init__(self, message: str, code: int | None = None):
        super().__init__(message)
        self.code = code
        self.error = None if code is None else ERROR_NAME.get(code, f"error code {code}")


class VermaModulusError(VermaError, ModulusError):
    """The host refused a modulus the verma engine cannot use (even, < 3, or longer than K)."""


class VermaEngine(CommandShell):
    """Verma et al.'s EWBR4CMMM engine with the Montgomery powering ladder, GF(p) only.

    A k-bit odd modulus n (2 <= k <= K, `max_bits`) runs at the engine's length k: operands of
    2D bits, I = h + g iterations per pass, Montgomery factor F = 4^I (montu.arith.verma). The
    constants C = F² mod n and O (F mod n for MPL, F³ mod n for mod_mul) are computed by the
    host, like the golden model's mpl_powmod; 2n and 3n are formed by the engine (SETMOD). The
    host keeps track of what the engine holds (k, N with a valid SETMOD, C, O) and loads only
    what a call needs; every call's `last_cycles` counts exactly the commands it sent (a call
    that reuses the loaded modulus is cheaper by those loads).

    Constant time: MPL runs k + 2 passes whatever the exponent (the ladder goes over all k bits
    of E), so mod_exp's cycles depend only on k and on what had to be loaded.

    Counters (of the last call): `last_cycles` = every command's cycles, loads and reads
    included; `core_cycles` = the passes alone, (I + m + 1) clocks each, the paper's figure:
    547 per pass and (k + 2)·547 = 561,222 per 1024-bit MPL. `total_cycles` never resets.
    """

    ISA = ISA
    error_class = VermaError

    name = "verma"

    def __init__(self, backend: object, k_max: int, w: int, backend_name: str = "sim"):
        self.backend = backend           # execute(insn, data), execute_many(commands), reset()
        self.backend_name = backend_name
        self.max_bits = k_max            # K: the longest modulus
        self.word_bits = w               # W: the PE word
        self.isa = ISA
        self.last_cycles = 0
        self.core_cycles = 0
        self.total_cycles = 0
        self.k: int | None = None        # k of the last call
        self._forget()

    # ------------------------------------------------------------ state cache
    def _forget(self) -> None:
        """Assume nothing about the engine's registers (after an error or a reset)."""
        self._loaded_k: int | None = None        # k as set on the engine
        self._loaded_modulus: int | None = None  # N, with a valid SETMOD
        self._constants: dict[str, int] = {}     # what C and O hold (when known)

    def reset(self) -> None:
        """Reset the engine (its power-on state) and drop what the host knew about it."""
        self.backend.reset()
        self._forget()

    # ------------------------------------------------------------ low level
    # ------------------------------------------------------------ validation
    def sizes_for(self, n: int) -> Sizes:
        """The engine's sizes (k, g, h, t, D, I, m, Wd) for modulus n: k = n.bit_length();
        raises VermaModulusError for an even, too small or too long n."""
        _check_int("modulus", n)
        if n < 0:
            raise VermaModulusError("modulus must be a positive odd integer (got a negative value)")
        if n % 2 == 0:
            raise VermaModulusError(
                "modulus must be odd for radix-4 Montgomery multiplication on the verma engine "
                f"(got an even {n.bit_length()}-bit modulus)")
        if n < 3:
            raise VermaModulusError(f"modulus must be an odd integer >= 3 (got {n})")
        k = n.bit_length()
        if k > self.max_bits:
            raise VermaModulusError(
                f"a {k}-bit modulus is longer than this verma engine's K = {self.max_bits} bits "
                f"(open one with k >= {k})")
        return sizes(k, self.word_bits)

    @staticmethod
    def _below(name: str, value: int, bound: int, bound_text: str, why: str = "") -> None:
        """TypeError unless an int; VermaError unless 0 <= value < bound."""
        _check_int(name, value)
        if not 0 <= value < bound:
            what = "a negative value" if value < 0 else f"a {value.bit_length()}-bit value"
            raise VermaError(f"{name} must be in [0, {bound_text}) for the verma engine{why} "
                             f"(got {what})")

    # ------------------------------------------------------------ command building
    def _words(self, reg: str, value: int, s: Sizes) -> list[tuple[int, int]]:
        insn = encode("WR", rd=reg)
        return [(insn, (value >> (WORD_BITS * j)) & WORD_MASK) for j in range(s.Wd)]

    def _load(self, n: int, s: Sizes,
              constants: dict[str, int]) -> tuple[list[tuple[int, int]], dict[str, int]]:
        """Commands that make k, N (with SETMOD) and the `constants` ({"C": ..., "O": ...})
        current (only what the engine does not hold already), and what C and O hold after them."""
        commands: list[tuple[int, int]] = []
        held = dict(self._constants)
        if self._loaded_k != s.k:
            commands.append((encode("SETLEN"), s.k))   # clears everything, pointers 0
            held = {"C": 0, "O": 0}
        if self._loaded_k != s.k or self._loaded_modulus != n:
            commands += self._words("N", n, s) + [(encode("SETMOD"), 0)]
        for reg, value in constants.items():
            if held.get(reg) != value:
                commands += self._words(reg, value, s)
                held[reg] = value
        return commands, held

    def _read(self, reg: str, s: Sizes) -> list[tuple[int, int]]:
        return [(encode("RD", ra=reg), 0)] * s.Wd

    @staticmethod
    def _value(responses: Sequence[Response]) -> int:
        return sum(r.data << (WORD_BITS * j) for j, r in enumerate(responses))

    def _call(self, what: str, n: int, s: Sizes, constants: dict[str, int],
              body: list[tuple[int, int]], reads: Sequence[str]) -> list[int]:
        """Load what the modulus needs, run `body`, read the registers `reads`; their values."""
        self.k = s.k
        commands, held = self._load(n, s, constants)
        commands += body
        for reg in reads:
            commands += self._read(reg, s)
        responses = self._send(commands, what, core={"CMMM": s.pass_cycles,
                                                     "MPL": mpl_passes(s.k) * s.pass_cycles})
        self._loaded_k, self._loaded_modulus, self._constants = s.k, n, held
        out = responses[len(responses) - len(reads) * s.Wd:]
        return [self._value(out[i * s.Wd:(i + 1) * s.Wd]) for i in range(len(reads))]

    # ------------------------------------------------------------ the API
    def cmmm(self, p: int, r: int, n: int) -> tuple[int, int]:
        """The paper's primitive, one EWBR4CMMM pass: (X, Y) with X ≡ P·R·F^-1 and
        Y ≡ P·P·F^-1 (mod n), F = 4^I, as the PEs leave them: unreduced, below 2^(2D), bit-exact
        with montu.arith.verma.ewbr4cmmm. 0 <= p, r < 2^(2D) (montu.arith.verma.operand_bound)."""
        self._begin()
        s = self.sizes_for(n)
        bound, why = f"2^{s.operand_bits}", f": 2D = {s.operand_bits} bits for a {s.k}-bit modulus"
        self._below("p", p, 1 << s.operand_bits, bound, why)
        self._below("r", r, 1 << s.operand_bits, bound, why)
        body = (self._words("P", p, s) + self._words("R", r, s)
                + [(encode("CMMM", ra="P", rb="R"), 0)])
        x, y = self._call("cmmm", n, s, {}, body, ("X", "Y"))
        return x, y

    def mod_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        """x·y mod n for 0 <= x, y < n, conversions included, in three passes on the engine:
        CMMM(P = x, R = y) ≡ x·y·F^-1; CMMM(X, O = F³ mod n) ≡ x·y·F; CMMM(X, ONE, f = 1) = x·y
        mod n, fully reduced (a pass with R = 1 leaves X <= n; the f = 1 clock maps n to 0)."""
        self._begin()
        _gfp_only(field)
        s = self.sizes_for(n)
        self._below("x", x, n, "n")
        self._below("y", y, n, "n")
        factor = 4 ** s.I
        body = (self._words("P", x, s) + self._words("R", y, s)
                + [(encode("CMMM", ra="P", rb="R"), 0),
                   (encode("CMMM", ra="X", rb="O"), 0),
                   (encode("CMMM", ra="X", rb="ONE", f=1), 0)])
        return self._call("mod_mul", n, s, {"O": pow(factor, 3, n)}, body, ("X",))[0]

    def mod_exp(self, base: int, exponent: int, n: int) -> int:
        """base^exponent mod n by the engine's MPL (Montgomery powering ladder over all k bits
        of the exponent, MSB first): 0 <= base < n, 0 <= exponent < 2^k. Constant time: k + 2
        passes whatever the exponent."""
        self._begin()
        s = self.sizes_for(n)
        self._below("base", base, n, "n", " (reduce it modulo n first)")
        _check_int("exponent", exponent)
        if exponent < 0:
            raise VermaError("exponent must be non-negative (got a negative value)")
        if exponent >> s.k:
            raise VermaError(f"exponent must be below 2^k = 2^{s.k} for a {s.k}-bit modulus on "
                             f"the verma engine: the ladder runs over the k bits of E (got a "
                             f"{exponent.bit_length()}-bit exponent; reduce it first, e.g. "
                             "modulo the group order)")
        factor = 4 ** s.I
        constants = {"C": pow(factor, 2, n), "O": factor % n}
        body = (self._words("P", base, s) + self._words("E", exponent, s)
                + [(encode("MPL"), 0)])
        return self._call("mod_exp", n, s, constants, body, ("X",))[0]

    @property
    def build(self) -> dict[str, int]:
        """The hardware parameters of this engine (verma_top's), as `montu synth --engine`
        names them."""
        return {"K": self.max_bits, "W": self.word_bits}

    def __repr__(self) -> str:
        return f"<VermaEngine backend={self.backend_name} K={self.max_bits} W={self.word_bits}>"


def _check_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int (got {type(value).__name__})")


def _gfp_only(field: Field) -> None:
    if Field(field) != Field.GFP:
        raise VermaError("the verma engine is GF(p) only (Verma et al.'s EWBR4CMMM is integer "
                         "Montgomery multiplication with no GF(2^m) mode); use engine bie2021 "
                         "for GF(2^m) multiplication")


def params_for_bits(bits: int) -> dict[str, int]:
    """The build for `bits`-bit moduli (montu.engines.open_for_bits): the paper's two builds,
    K = 1024 and K = 2048, when one fits, else K = bits."""
    for k in (DEFAULT_K, 2 * DEFAULT_K):
        if bits <= k:
            return {"k": k}
    return {"k": bits}


def open(backend: str = "sim", k: int = DEFAULT_K, w: int = DEFAULT_W,  # noqa: A001
         **unknown: int) -> VermaEngine:
    """A verma engine on `backend`: 'sim' (VermaSimulator) or 'rtl' (the Verilated verma_top).
    Parameters: k (K, the longest modulus in bits, >= 2, default 1024) and w (W, the PE word,
    >= 4, default 48: the paper's DSP48E adder)."""
    if unknown:
        raise TypeError(f"unknown verma engine parameter(s): {', '.join(sorted(unknown))} "
                        "(the verma engine takes k and w)")
    if backend == "sim":
        return VermaEngine(VermaSimulator(k, w), k, w, "sim")
    if backend == "rtl":
        VermaSimulator(k, w)   # the same parameter checks before any build
        from montu.backends.verilator import RtlModel

        return VermaEngine(RtlModel.engine("verma", {"K": k, "W": w}), k, w, "rtl")
    from montu.backends import UnknownBackend

    raise UnknownBackend(f"unknown backend {backend!r}: choose {' or '.join(map(repr, BACKENDS))}")

