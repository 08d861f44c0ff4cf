"""The yeh engine object (ENGINES.md §3): Yeh et al.'s BSR4 RSA chip behind the engine contract.

    engine = montu.engines.open("yeh", backend="sim", nbits=1024)   # or backend="rtl"
    engine.bsr4(a, b, n)            # the paper's primitive: A·B·2^-L (mod N), in [0, 2N − 2]
    engine.mod_mul(x, y, n)         # x·y mod n (two BSR4s: into Montgomery form, then the product)
    engine.mod_exp(b, e, n)         # b^e mod n by the engine's EXP (H-type exponentiation)
    engine.last_cycles, engine.core_cycles

Every value is computed by the engine (simulator or Verilated yeh_top); the host only validates
arguments, moves 64-bit words in and out, and computes R² mod N for the Constant Register.
"""

from __future__ import annotations

from collections.abc import Sequence

from montu.arith import yeh
from montu.arith.field import Field
from montu.errors import ModulusError, MontuError
from montu.engines.shell import CommandShell
from montu.isa.encoding import Response
from montu.engines.yeh.simulator import (ISA, WORD_BITS, WORD_MASK, XL_FLAG, YehSimulator, encode,
                                         exp_multiplications)

BACKENDS = ("sim", "rtl")
ERROR_NAME = {e.code: e.name for e in ISA.errors}


class YehError(MontuError, ValueError):
    """The yeh engine rejected a command, or the host refused a request before sending any.

    ``code`` is the engine's error code (yeh.yaml) and ``error`` its name (e.g. "E_RANGE"); both
    are None when the host refused the arguments itself.
    """

    def __init__(self, message: str, code: int | None = None):
        super().__init__(message)
        self.code = code
        self.error = None if code is None else ERROR_NAME.get(code, f"error code {code}")


class YehEngine(CommandShell):
    """Yeh et al.'s radix-4 split Montgomery (BSR4) engine, GF(p) only.

    Operands are L bits wide with L = montu.arith.yeh.datapath_width(n) = 2·ceil(k/2) for a
    k-bit odd modulus (the paper's n-bit datapath), up to NBits (`max_bits`); R = 2^L. The
    paper's Constant Register (R² mod N) is loaded from outside the chip: the host computes
    R² mod N and writes it into C (it is not computed by the engine). N and C are loaded once and
    kept while consecutive calls use the same modulus; every call's `last_cycles` counts exactly
    the commands it sent (a call that reuses the loaded modulus is cheaper by those loads).

    Not constant time: EXP runs nb = bit_length(e) + popcount(e) BSR4s, so mod_exp's cycles
    follow the exponent's length and Hamming weight; do not use it with a secret exponent where
    timing is observable.

    Counters (of the last call): `last_cycles` = every command's cycles, loads and reads
    included; `core_cycles` = the BSR4 core alone, (number of BSR4s)·(L/2 + 1) — for mod_exp
    this equals montu.arith.yeh.mod_exp's Stats.cycles. `total_cycles` never resets.
    """

    ISA = ISA
    error_class = YehError

    name = "yeh"

    def __init__(self, backend: object, nbits: int, backend_name: str = "sim"):
        self.backend = backend           # execute(insn, data), execute_many(commands), reset()
        self.backend_name = backend_name
        self.max_bits = nbits            # NBits: the widest operand length L
        self.isa = ISA
        self.last_cycles = 0
        self.core_cycles = 0
        self.total_cycles = 0
        self.length: int | None = None   # L of the last call
        self._forget()

    # ------------------------------------------------------------ state cache
    def _forget(self) -> None:
        """Assume nothing about the engine's registers (after an error or a reset)."""
        self._loaded_length: int | None = None   # L as set on the engine
        self._loaded_modulus: int | None = None  # N, with a valid SETMOD
        self._constant_loaded = False            # C = R² mod N of that modulus

    def reset(self) -> None:
        """Reset the engine (its power-on state) and drop what the host knew about it."""
        self.backend.reset()
        self._forget()

    # ------------------------------------------------------------ low level
    # ------------------------------------------------------------ validation
    def length_for(self, n: int) -> int:
        """The operand length L this engine uses for modulus n: datapath_width(n) = 2·ceil(k/2)
        for a k-bit odd n >= 3; raises ModulusError for an even, too small or too wide n."""
        _check_int("modulus", n)
        if n < 0:
            raise ModulusError("modulus must be a positive odd integer (got a negative value)")
        length = yeh.datapath_width(n)   # ModulusError: even, or < 3
        if length > self.max_bits:
            raise ModulusError(f"a {n.bit_length()}-bit modulus needs L = {length} bits, more "
                               f"than this yeh engine's NBits = {self.max_bits}")
        return length

    def _operand(self, name: str, value: int, n: int) -> int:
        _check_int(name, value)
        if not 0 <= value < n:
            what = "negative" if value < 0 else f"a {value.bit_length()}-bit value"
            raise YehError(f"{name} must be in [0, n) for the yeh engine (BSR4 operands are "
                           f"below N; got {what} for a {n.bit_length()}-bit modulus)")
        return value

    # ------------------------------------------------------------ command building
    def _words(self, reg: str, value: int, length: int) -> list[tuple[int, int]]:
        insn = encode("WR", rd=reg)
        return [(insn, (value >> (WORD_BITS * j)) & WORD_MASK) for j in range(_words(length))]

    def _load_modulus(self, n: int, length: int, constant: bool) -> list[tuple[int, int]]:
        """Commands that make L, N (with SETMOD) and, if `constant`, C = R² mod N current
        (only what the engine does not hold already)."""
        commands: list[tuple[int, int]] = []
        same_length = self._loaded_length == length
        same_modulus = same_length and self._loaded_modulus == n
        if not same_length:
            commands.append((encode("SETLEN"), length))   # clears everything, pointers 0
        if not same_modulus:
            commands += self._words("N", n, length) + [(encode("SETMOD"), 0)]
        if constant and not (same_modulus and self._constant_loaded):
            commands += self._words("C", pow(1 << length, 2, n), length)
        return commands

    def _read_x(self, length: int) -> list[tuple[int, int]]:
        return [(encode("RD", ra="X"), 0)] * _words(length)

    @staticmethod
    def _value_of_x(responses: Sequence[Response], length: int) -> int:
        """X from its W words (the last response's flags give XL, bit L, when L % 64 = 0)."""
        words = responses[-_words(length):]
        value = sum(r.data << (WORD_BITS * j) for j, r in enumerate(words))
        if words[-1].flags & XL_FLAG:
            value |= 1 << length
        return value

    def _call(self, what: str, n: int, length: int, constant: bool,
              body: list[tuple[int, int]], exp_bsr4s: int = 0) -> int:
        """Load what the modulus needs, run `body`, read X back; X's value."""
        self.length = length
        commands = self._load_modulus(n, length, constant) + body + self._read_x(length)
        responses = self._send(commands, what, core={"BSR4": length // 2 + 1,
                                                     "EXP": exp_bsr4s * (length // 2 + 1)})
        keep_constant = self._loaded_modulus == n and self._constant_loaded
        self._loaded_length, self._loaded_modulus = length, n
        self._constant_loaded = constant or keep_constant
        return self._value_of_x(responses, length)

    # ------------------------------------------------------------ the API
    def bsr4(self, a: int, b: int, n: int, reduce: bool = False) -> int:
        """The paper's primitive: X = BSR4(A, B, N) = A·B·2^-L (mod N) with 0 <= a, b < n.

        reduce=False: the paper's P[L] + C1, in [0, 2N − 2] (may be >= N; bit L is flag XL);
        reduce=True: that minus N when >= N (the engine's f = 1), in [0, N)."""
        self._begin()
        length = self.length_for(n)
        self._operand("a", a, n)
        self._operand("b", b, n)
        body = (self._words("X", a, length) + self._words("M", b, length)
                + [(encode("BSR4", ra="X", rb="M", f=int(bool(reduce))), 0)])
        return self._call("bsr4", n, length, False, body)

    def mont_mul(self, x: int, y: int, n: int) -> int:
        """x·y·2^-L mod n, fully reduced (BSR4 with f = 1)."""
        return self.bsr4(x, y, n, reduce=True)

    def mod_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        """x·y mod n for 0 <= x, y < n, conversions included, on the engine: WR M = y;
        BSR4(C, M) = y·R (C = R² mod N); XTOM; WR X = x; BSR4(X, M) = x·y (both with f = 1)."""
        self._begin()
        _gfp_only(field)
        length = self.length_for(n)
        self._operand("x", x, n)
        self._operand("y", y, n)
        body = (self._words("M", y, length) + [(encode("BSR4", ra="C", rb="M", f=1), 0),
                                                (encode("XTOM"), 0)]
                + self._words("X", x, length) + [(encode("BSR4", ra="X", rb="M", f=1), 0)])
        return self._call("mod_mul", n, length, True, body)

    def mod_exp(self, base: int, exponent: int, n: int) -> int:
        """base^exponent mod n by the engine's EXP (H-type, left to right, from C = R² mod N).

        The base is reduced mod n first (it must be >= 0); 0 <= exponent < 2^L. Not constant
        time: the engine runs bit_length(e) + popcount(e) BSR4s (2 for e = 0)."""
        self._begin()
        length = self.length_for(n)
        _check_int("base", base)
        _check_int("exponent", exponent)
        if base < 0:
            raise YehError("base must be non-negative (got a negative value)")
        if exponent < 0:
            raise YehError("exponent must be non-negative (got a negative value)")
        if exponent >> length:
            raise YehError(f"exponent must be below 2^L = 2^{length} for a {n.bit_length()}-bit "
                           f"modulus on the yeh engine (got a {exponent.bit_length()}-bit "
                           "exponent; reduce it first, e.g. modulo the group order)")
        body = (self._words("M", base % n, length) + self._words("E", exponent, length)
                + [(encode("EXP"), 0)])
        return self._call("mod_exp", n, length, True, body,
                          exp_bsr4s=exp_multiplications(exponent))

    @property
    def build(self) -> dict[str, int]:
        """The hardware parameters of this engine (yeh_top's), as `montu synth --engine` names them."""
        return {"NBits": self.max_bits}

    def __repr__(self) -> str:
        return f"<YehEngine backend={self.backend_name} NBits={self.max_bits}>"


def _words(length: int) -> int:
    return -(-length // WORD_BITS)


def _check_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int (got {type(value).__name__})")


def _gfp_only(field: Field) -> None:
    if Field(field) != Field.GFP:
        raise YehError("the yeh engine is GF(p) only (Yeh et al.'s RSA chip has no GF(2^m) "
                       "mode); use engine bie2021 for GF(2^m) multiplication")


DEFAULT_NBITS = 1024   # the paper's chip: 1024-bit RSA


def params_for_bits(bits: int) -> dict[str, int]:
    """The build for `bits`-bit moduli (montu.engines.open_for_bits): the paper's NBits = 1024
    when it fits, else the next power of two (few distinct RTL builds: 2048, 4096, ...)."""
    nbits = DEFAULT_NBITS
    while nbits < bits:
        nbits *= 2
    return {"nbits": nbits}


def open(backend: str = "sim", **params: int) -> YehEngine:  # noqa: A001 (the registry's name)
    """A yeh engine on `backend`: 'sim' (YehSimulator) or 'rtl' (the Verilated yeh_top).
    Parameters: nbits (NBits, a multiple of 64, default 1024; `max_bits` is accepted as its
    other name)."""
    nbits = params.pop("nbits", None)
    max_bits = params.pop("max_bits", None)
    if params:
        raise TypeError(f"unknown yeh engine parameter(s): {', '.join(sorted(params))} "
                        "(the yeh engine takes nbits)")
    if nbits is not None and max_bits is not None and nbits != max_bits:
        raise ValueError(f"nbits={nbits} and max_bits={max_bits} disagree (they name one parameter)")
    nbits = nbits if nbits is not None else max_bits if max_bits is not None else DEFAULT_NBITS
    if backend == "sim":
        return YehEngine(YehSimulator(nbits), nbits, "sim")
    if backend == "rtl":
        YehSimulator(nbits)   # the same parameter checks before any build
        from montu.backends.verilator import RtlModel

        return YehEngine(RtlModel.engine("yeh", {"NBits": nbits}), nbits, "rtl")
    from montu.backends import UnknownBackend

    raise UnknownBackend(f"unknown backend {backend!r}: choose {' or '.join(map(repr, BACKENDS))}")
