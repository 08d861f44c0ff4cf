"""The antao engine object (ENGINES.md §3): Antão & Sousa's programmable RNS processor behind the
engine contract.

    engine = montu.engines.open("antao", backend="sim", bits=1024)   # or backend="rtl"
    engine.rns_mont_mul(x, y, n)     # the paper's primitive: Algorithm 1, u = (xy + qN)/M1 < 4N
    engine.mod_mul(x, y, n)          # x·y mod n
    engine.mod_exp(b, e, n)          # b^e mod n: the Montgomery ladder over all bits (constant time)
    engine.mod_exp(b, e, n, ladder=False)   # left-to-right square-and-multiply (not constant time)
    program = engine.assemble(source)       # your own microprogram (montu.engines.antao.assembler)
    engine.run(program, inputs, entry="main", outputs=2)   # -> the output FIFO's words
    engine.last_cycles, engine.core_cycles

Every value is computed by the engine (simulator or Verilated antao_top) running microprograms
(programs/*.rns); the host computes the constants of Algorithm 1 (montu.engines.antao.host),
moves words in and out, and checks arguments.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from montu.arith.antao_alg1 import check_modulus
from montu.arith.antao_ec import Curve, is_on_curve
from montu.arith.antao_rns import is_probable_prime
from montu.arith.field import Field
from montu.engines.antao import host
from montu.engines.antao.assembler import Program, assemble
from montu.engines.antao.params import DSP_BUDGET, AntaoParams, mul_share_to_fit
from montu.engines.antao.simulator import ISA, WORD_BITS, WORD_MASK, AntaoSimulator, encode
from montu.engines.shell import CommandShell
from montu.errors import ModulusError, MontuError
from montu.isa.ucode import load_format

BACKENDS = ("sim", "rtl")
ERROR_NAME = {e.code: e.name for e in ISA.errors}
FORMAT = load_format()


class AntaoError(MontuError, ValueError):
    """The antao engine rejected a command, or the host refused a request before sending any.
    ``code``/``error``: the engine's error code and name (antao.yaml), None for host refusals."""

    def __init__(self, message: str, code: int | None = None):
        super().__init__(message)
        self.code = code
        self.error = None if code is None else ERROR_NAME.get(code, f"error code {code}")


class AntaoModulusError(AntaoError, ModulusError):
    """A modulus the build cannot use (even, < 3, too long for its bases, or sharing a factor
    with a channel modulus)."""


class AntaoEngine(CommandShell):
    """A ring of P PEs with W-bit channels running the modexp microprogram.

    Counters (of the last call): `last_cycles` = every command's cycles (microcode and constant
    loads, pushes, runs, pops); `core_cycles` = the RUN of the operation itself (the
    exponentiation's or multiplication's run, setup excluded). `total_cycles` never resets.
    """

    ISA = ISA
    error_class = AntaoError
    name = "antao"
    ec_method = "ec.rns: Montgomery ladder with the complete formulas"

    def __init__(self, backend: object, params: AntaoParams, backend_name: str = "sim"):
        self.backend = backend
        self.backend_name = backend_name
        self.params = params
        self.bases = host.bases_for(params)
        self.max_bits = host.max_modulus_bits(params)
        self.last_cycles = 0
        self.core_cycles = 0
        self.total_cycles = 0
        self._forget()

    def _forget(self) -> None:
        self._loaded_program: Program | None = None
        self._loaded_modulus: int | None = None
        self._loaded_curve: object = None

    def reset(self) -> None:
        self.backend.reset()
        self._forget()

    # ------------------------------------------------------------ words over the shell
    def _ucode_commands(self, program: Program) -> list[tuple[int, int]]:
        commands = [(encode("UCADDR"), 0)]
        for word in program.words:
            commands += [(encode("UCW"), part) for part in FORMAT.parts_of(word)]
        return commands

    def _push_commands(self, words: Sequence[int]) -> list[tuple[int, int]]:
        p = self.params
        insn = encode("PUSH")
        out = []
        for word in words:
            if not 0 <= word < 1 << p.w:
                raise AntaoError(f"an input word must be in [0, 2^{p.w}) (got a "
                                 f"{word.bit_length()}-bit value)")
            out += [(insn, (word >> (WORD_BITS * i)) & WORD_MASK) for i in range(p.fifo_parts)]
        return out

    def _pop_commands(self, count: int) -> list[tuple[int, int]]:
        return [(encode("POP"), 0)] * (count * self.params.fifo_parts)

    def _words(self, responses: Sequence, count: int) -> list[int]:
        parts = self.params.fifo_parts
        tail = responses[len(responses) - count * parts:]
        return [sum(tail[i * parts + j].data << (WORD_BITS * j) for j in range(parts))
                for i in range(count)]

    def _execute(self, program: Program, entry: str | int, inputs: Sequence[int], outputs: int,
                 what: str, setups: Sequence[tuple[str, Sequence[int]]] = ()) -> list[int]:
        """Load `program` if needed, run each (entry, stream) of `setups` (constants), push
        `inputs`, RUN `entry` (a label or an address; its cycles count as core cycles), pop
        `outputs` words."""
        commands: list[tuple[int, int]] = []
        if self._loaded_program is not program:
            commands += self._ucode_commands(program)
        for setup_entry, stream in setups:
            commands += self._push_commands(stream) + [(encode("RUN"), program.entry(setup_entry))]
        commands += self._push_commands(inputs)
        run_index = len(commands)
        commands.append((encode("RUN"), entry if isinstance(entry, int) else program.entry(entry)))
        commands += self._pop_commands(outputs)
        responses = self._send(commands, what)
        self.core_cycles += responses[run_index].cycles
        self._loaded_program = program
        return self._words(responses, outputs) if outputs else []

    # ------------------------------------------------------------ validation
    def check_modulus(self, n: int) -> None:
        _check_int("modulus", n)
        if n % 2 == 0 or n < 3:
            raise AntaoModulusError(
                "modulus must be an odd integer >= 3 for RNS Montgomery multiplication on the "
                f"antao engine (got {'an even' if n % 2 == 0 else 'a'} {n.bit_length()}-bit value)")
        if n.bit_length() > self.max_bits:
            raise AntaoModulusError(
                f"a {n.bit_length()}-bit modulus is longer than this antao build takes "
                f"({self.max_bits} bits with {self.params.pes} PEs of {self.params.w} bits: "
                "8N <= M1, M2); open one with bits >= "
                f"{n.bit_length()}")
        try:
            check_modulus(n, self.bases)
        except (ValueError, ModulusError) as exc:
            raise AntaoModulusError(str(exc)) from None

    @staticmethod
    def _below(name: str, value: int, bound: int, bound_text: str) -> None:
        _check_int(name, value)
        if not 0 <= value < bound:
            what = "a negative value" if value < 0 else f"a {value.bit_length()}-bit value"
            raise AntaoError(f"{name} must be in [0, {bound_text}) for the antao engine (got {what})")

    def _modulus_stream(self, n: int) -> list[int] | None:
        """The setup stream when the engine does not hold n's constants yet."""
        if self._loaded_modulus == n and self._loaded_program is host.modexp_program(self.params):
            return None
        return host.modulus_setup(n, self.params).stream

    def _run_modulus_program(self, what: str, n: int, entry: str, inputs: list[int]) -> int:
        program = host.modexp_program(self.params)
        setup = self._modulus_stream(n)
        words = self._execute(program, entry, inputs, self.params.pes, what,
                              setups=[] if setup is None else [("setup", setup)])
        self._loaded_modulus = n
        return host.from_limbs(words, self.params.w)

    # ------------------------------------------------------------ the API
    def rns_mont_mul(self, x: int, y: int, n: int) -> int:
        """The paper's primitive, Algorithm 1 on the ring: u = (x·y + q̂·N)/M1 ≡ x·y·M1^-1
        (mod N), 0 <= u < 4N, unreduced, bit-exact with montu.arith.antao.mont_mul (0 <= x, y < 4N)."""
        self._begin()
        self.check_modulus(n)
        self._below("x", x, 4 * n, "4N")
        self._below("y", y, 4 * n, "4N")
        return self._run_modulus_program("rns_mont_mul", n, "montmul",
                                         host.input_words(x, self.params) + host.input_words(y, self.params))

    def mod_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        """x·y mod n (0 <= x, y < n): two RNS Montgomery products (x·y/M1, then ×M1² mod n), the
        product with 1, the CRT and the final subtractions, all on the engine."""
        self._begin()
        if Field(field) != Field.GFP:
            raise AntaoError("the antao engine is GF(p) only (RNS arithmetic has no carry-less "
                             "mode); use engine bie2021 for GF(2^m) multiplication")
        self.check_modulus(n)
        self._below("x", x, n, "n")
        self._below("y", y, n, "n")
        return self._run_modulus_program("mod_mul", n, "modmul",
                                         host.input_words(x, self.params) + host.input_words(y, self.params))

    def mod_exp(self, base: int, exponent: int, n: int, *, ladder: bool = True) -> int:
        """base^exponent mod n, 0 <= base < n, 0 <= exponent < 2^k (k = n's bits). The ladder
        (default) runs all k bits whatever the exponent: constant time. ladder=False runs
        left-to-right square-and-multiply over the exponent's own bits (faster, not constant
        time: for public exponents)."""
        self._begin()
        self.check_modulus(n)
        self._below("base", base, n, "n")
        _check_int("exponent", exponent)
        k = n.bit_length()
        if exponent < 0:
            raise AntaoError("exponent must be non-negative (got a negative value)")
        if exponent >> k:
            raise AntaoError(f"exponent must be below 2^k = 2^{k} for a {k}-bit modulus on the "
                             f"antao engine (got a {exponent.bit_length()}-bit exponent; reduce it "
                             "first)")
        t = k if ladder else exponent.bit_length()
        try:
            inputs = host.exponent_stream(base, exponent, t, self.params)
        except ValueError as exc:
            raise AntaoError(str(exc)) from None
        return self._run_modulus_program("mod_exp", n, "ladder" if ladder else "modexp", inputs)

    def scalar_mult(self, curve: str | Curve, k: int,
                    point: tuple[int, int] | None = None) -> tuple[int, int] | None:
        """k·P on a curve y² = x³ + ax + b over GF(p) — a name of montu.ec's prime curves
        ("prime256v1", "P-224", ...; P: its generator unless given) or a
        montu.arith.antao_ec.Curve (P required) — by the ec.rns microprogram: a Montgomery ladder
        over all bits(p) bits of k (constant time) with the complete formulas, Z^-1 = Z^(p-2),
        the affine x, y; None for the point at infinity. 0 <= k < 2^bits(p), P on the curve."""
        curve, point = _prime_curve(curve, point)
        self._begin()
        _check_int("scalar", k)
        if not 0 <= k < 1 << curve.p.bit_length():
            raise AntaoError(f"scalar must be in [0, 2^{curve.p.bit_length()}) (reduce it modulo "
                             "the group order first)")
        if not is_probable_prime(curve.p):
            raise AntaoError("curve field modulus p must be prime (Z^-1 is computed as Z^(p-2))")
        self.check_modulus(curve.p)
        if not is_on_curve(point, curve):
            raise AntaoError("point is not on the curve (or has coordinates outside [0, p))")
        if point is None:
            return None
        p = self.params
        try:
            curve_words = host.curve_stream(curve.p, curve.a, curve.b, p)
            inputs = host.ec_stream(k, point[0], point[1], curve.p, p)
        except ValueError as exc:
            raise AntaoError(str(exc)) from None
        program = host.ec_program(p)
        setups: list[tuple[str, Sequence[int]]] = []
        if self._loaded_modulus != curve.p or self._loaded_program is not program:
            setups.append(("setup", host.modulus_setup(curve.p, p).stream))
        if self._loaded_curve != (curve, p) or setups:
            setups.append(("ecsetup", curve_words))
        words = self._execute(program, "ecmul", inputs, 3 * p.pes, "scalar_mult", setups)
        self._loaded_modulus, self._loaded_curve = curve.p, (curve, p)
        z, x, y = (host.from_limbs(words[i * p.pes:(i + 1) * p.pes], p.w) for i in range(3))
        return None if z == 0 else (x, y)

    def mod_exp_public(self, base: int, exponent: int, n: int) -> int:
        """base^exponent mod n for a public exponent (RSA verify, encrypt, the fault check of a
        private operation): square-and-multiply over the exponent's own bits, not constant time."""
        return self.mod_exp(base, exponent, n, ladder=False)

    # ------------------------------------------------------------ user programs
    def assemble(self, source: str, **names: int) -> Program:
        """Assemble a microprogram for this build (montu.engines.antao.assembler's syntax)."""
        return assemble(source, self.params, **names)

    def run(self, program: Program, inputs: Sequence[int] = (), *, entry: str | None = None,
            outputs: int = 0) -> list[int]:
        """Run `program` from `entry` (its first word by default) with `inputs` in the input
        FIFO; the `outputs` words it leaves in the output FIFO. A run error raises AntaoError."""
        self._begin()
        for word in inputs:
            _check_int("input word", word)
        try:
            return self._execute(program, 0 if entry is None else entry, inputs, outputs, "run")
        finally:
            self._loaded_modulus = None          # a user program may change the RAM

    @property
    def build(self) -> dict[str, int]:
        return self.params.generics

    def __repr__(self) -> str:
        p = self.params
        return f"<AntaoEngine backend={self.backend_name} W={p.w} P={p.pes} max_bits={self.max_bits}>"


def _prime_curve(curve: str | Curve, point: tuple[int, int] | None
                 ) -> tuple[Curve, tuple[int, int] | None]:
    """(curve, point) from a montu.ec curve name (generator by default) or a Curve."""
    if isinstance(curve, Curve):
        return curve, point
    from montu.arith.field import Field
    from montu.ec import get_curve

    named = get_curve(curve)
    if named.field != Field.GFP:
        raise AntaoError(f"the antao engine does EC over GF(p) only; {named.name} is a binary "
                         "curve (use engine bie2021)")
    return Curve(named.modulus, named.a, named.b), point or named.generator


def _check_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int (got {type(value).__name__})")


RSA_CHANNEL_BITS = 96   # the paper's best channel width for RSA (on its Virtex-4)
EC_CHANNEL_BITS = 64    # and for EC
# 68-bit channels: four 17-bit limbs, so X * Y takes the 16 MULT18X18D of a 64-bit channel
# (params.mul_limb_bits); the EC builds take them where they need fewer PEs (P-256: 4, not 5)
EC_WIDE_CHANNEL_BITS = 68
RSA_WIDTHS = range(24, RSA_CHANNEL_BITS + 1, 4)   # the widths an RSA build is chosen from


EC_UCODE_DEPTH = 2048   # ec.rns is ~1,300 microinstructions
# Builds that route where params_for_bits' does not, by modulus bits: parameters over
# params_for_bits(bits). The 512-bit build it picks (8 PEs of 68 bits, MulShare 2: 124
# MULT18X18D) did not route on the ECP5-85; 10 PEs of 52 bits at MulShare 3 take 62 blocks and
# route (46.13 MHz), for 216 clocks per exponent bit's mm2 pair instead of 128 (docs/engines.md).
ROUTED_BUILDS: dict[int, dict[str, int]] = {512: {"w": 52, "mul_share": 3}}


def params_for_bits(bits: int) -> dict[str, int]:
    """The build for `bits`-bit moduli: the fewest PEs whose bases take it, room for ec.rns up to
    P-521, and the channel width. Up to 256 bits (the paper's EC case) 64-bit channels, or 68-bit
    ones where they need fewer PEs (192 and 256 bits: 3 and 4 PEs instead of 4 and 5): their
    products take the same MULT18X18D, and a ring of fewer PEs takes fewer clocks per base
    extension. Above 256 bits, `rsa_channel_bits`."""
    if bits > 256:
        w = rsa_channel_bits(bits)
    elif build_for_bits(bits, EC_WIDE_CHANNEL_BITS).pes < build_for_bits(bits, EC_CHANNEL_BITS).pes:
        w = EC_WIDE_CHANNEL_BITS
    else:
        w = EC_CHANNEL_BITS
    return {"w": w, "bits": bits, **({"ucode_depth": EC_UCODE_DEPTH} if bits <= 521 else {})}


@functools.lru_cache(maxsize=64)
def rsa_channel_bits(bits: int) -> int:
    """The channel width (of RSA_WIDTHS) whose `bits`-bit build, with the MulShare that fits the
    ECP5-85's MULT18X18D (build_for_bits), takes the fewest clocks per exponent bit: the ladder's
    `mm2` pair, MulShare * (4P + 5L + 2) (AntaoParams.pair_clocks). Ties go to the narrower
    channel (fewer LUTs per PE). On the ECP5-85 the paper's 96 bits lose: a 96-bit channel's
    X * Y takes 36 blocks, a 72-bit one 16, so narrower channels fit more PEs with less sharing
    (1024 bits: 52-bit channels, 20 PEs at MulShare 3, 336 clocks per bit, against 456 for 11
    PEs of 96 bits at MulShare 6). Where no width fits (2048 bits), the paper's 96 bits."""
    fitting = []
    for w in RSA_WIDTHS:
        try:
            build = build_for_bits(bits, w)
        except ValueError:      # too few primes 2^W - c with c in the CBits registers
            continue
        if build.mult18x18d <= DSP_BUDGET:
            fitting.append((build.pair_clocks, w))
    return min(fitting)[1] if fitting else RSA_CHANNEL_BITS


def build_for_bits(bits: int, w: int, **params: int) -> AntaoParams:
    """The smallest P (from (bits + 3)/W up) whose bases take a `bits`-bit modulus, and (unless
    `mul_share` is given) the smallest MulShare whose MULT18X18D fit the ECP5-85 with a 10 %
    margin (params.mul_share_to_fit: 1 for the 64-bit EC builds; 2 and 3 for the 512- and
    1024-bit RSA builds at their widths of rsa_channel_bits, whose run cycles grow by that
    factor; the 2048-bit build's 22 PEs of 96 bits fit with none, so it stays at 1)."""
    if bits < 2:
        raise ValueError(f"bits must be >= 2 (got {bits})")
    pes = max(2, -(-(bits + 3) // w))
    while True:
        alpha_bits = params.get("alpha_bits", min(w, pes.bit_length() + 2))
        candidate = AntaoParams(**{"w": w, "pes": pes, "alpha_bits": alpha_bits,
                                   "e_words": max(1, -(-bits // w)), **params})
        if host.max_modulus_bits(candidate) >= bits:
            return candidate if "mul_share" in params else mul_share_to_fit(candidate)
        pes += 1


def open(backend: str = "sim", *, bits: int | None = None, **params: int) -> AntaoEngine:  # noqa: A001
    """An antao engine on `backend` ('sim' or 'rtl'). `bits`: size the build for moduli of that
    length (P from it, EWords = ceil(bits/W)); else the parameters given (AntaoParams' names:
    w, pes, depth, alpha_bits, mul_stages, ucode_depth, e_words, in_depth, out_depth, mul_share), by
    default the paper's EC build (W = 64, P = 4)."""
    try:
        built = (build_for_bits(bits, params.pop("w", EC_CHANNEL_BITS), **params) if bits is not None
                 else AntaoParams(**params))
    except TypeError as exc:
        raise TypeError(f"unknown antao engine parameter: {exc}") from None
    host.check_build(built)
    if backend == "sim":
        return AntaoEngine(AntaoSimulator(built), built, "sim")
    if backend == "rtl":
        from montu.backends.verilator import RtlModel

        return AntaoEngine(RtlModel.engine("antao", built.generics), built, "rtl")
    from montu.backends import UnknownBackend

    raise UnknownBackend(f"unknown backend {backend!r}: choose {' or '.join(map(repr, BACKENDS))}")
