"""`Unit`: the API the crypto layer uses, the same on every backend.

    from montu import Unit, Field
    u = Unit(backend="sim")                  # or backend="rtl" (Verilator)
    u.mont_mul(x, y, n, field=Field.GFP)     # x·y·2^-L mod n
    u.last_cycles                            # unit cycles of that call
    Unit(engine="cilardo")                   # the unit built on cilardo2008's multiplier
    Unit(engine="cilardo", guard_bits=2)     # ... in Alg. 2's mode: L ≥ bits(N) + 2

Every arithmetic step runs on the unit as commands of the instruction set (docs/isa.md); the host
only moves words in and out and chooses the command sequence, which never depends on secret data.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Sequence

from montu.arith import gf2m
from montu.arith.field import Field
from montu.backends import Backend, UnknownBackend, open_backend
from montu.config import DEFAULT_ENGINE, PIPELINED_BY_DEFAULT, UnitConfig
from montu.errors import MontuError, NoInverse
from montu.isa import Response, encode, load

# Register conventions of the driver's command sequences.
R_MOD, R_X, R_Y, R_Z, R_ACC0, R_ACC1, R_EXP, R_ONE = 0, 1, 2, 3, 4, 5, 6, 7
CORE_INSTRUCTIONS = ("STARTMMI", "MMX")   # what `last_core_cycles` counts
OPCODE_SHIFT = load().slots["op"].lsb
_CACHE_LIMIT = 256  # moduli whose R² (and R³) the driver keeps (least recently used dropped)
# guard_bits: 0 is the paper's mode (L = 64·⌈bits/64⌉, as cilardo2008's §6 table counts words);
# 2 is cilardo2008 Alg. 2's (L ≥ bits + 2, so that 4N < 2^L). Any value below 64 is accepted.
GUARD_BITS_MODES = {"paper": 0, "alg2": 2}


class UnitError(MontuError, ValueError):
    """The unit (or the driver, before sending) rejected a request.

    ``code`` is the unit's error code (see docs/isa.md), or None when the driver refused the
    arguments itself before any command was sent.
    """

    def __init__(self, message: str, code: int | None = None):
        super().__init__(message)
        self.code = code


class UnitNoInverse(UnitError, NoInverse):
    """MINV found no inverse (gcd ≠ 1): both a UnitError (with the unit's code) and a NoInverse."""


def _make_backend(backend: str, config: UnitConfig) -> Backend:
    try:
        return open_backend(backend, config)
    except UnknownBackend as exc:
        raise UnitError(str(exc)) from None


class Unit:
    """One Montu unit behind a backend ('sim': cycle-exact simulator, 'rtl': Verilated RTL).

    `engine` is the unit's Montgomery multiplier (STARTMMI, MMX): "bie2021" (montu_mont) or
    "cilardo" (cilardo_mont, cilardo2008 Alg. 2; needs Word 64). The build's rules
    are montu.config.UnitConfig's (a bad combination raises ConfigError).

    `guard_bits`: the register length L = 64k the driver picks for a GF(p) modulus of b bits is
    the shortest with L ≥ b + guard_bits. 0 (default) is cilardo2008's paper mode (its §6 table:
    m = ⌈b/64⌉ words); 2 is its Alg. 2 mode (2^L > 4N). Every product the driver makes is fully
    reduced in both modes, on both multipliers; the mode changes L, hence R = 2^L and the cycles.
    GF(2^m) needs no guard bits (L holds deg N + 1 bits in both modes).
    """

    def __init__(self, backend: str = "sim", *, lanes: int = 2, word_bits: int = 64,
                 max_bits: int = 4096, num_regs: int = 32, pipelined: bool = False,
                 engine: str = DEFAULT_ENGINE, guard_bits: int = 0):
        if not isinstance(guard_bits, int) or isinstance(guard_bits, bool) \
                or not 0 <= guard_bits < 64:
            raise UnitError(f"guard_bits must be a whole number in 0 .. 63 (0: the paper's mode, "
                            f"2: Alg. 2's mode; got {guard_bits!r})")
        self.config = UnitConfig(word_bits=word_bits, lanes=lanes, max_bits=max_bits,
                                 num_regs=num_regs, pipelined=bool(pipelined), engine=engine)
        self.backend_name = backend
        self.word_bits = word_bits
        self.lanes = lanes
        self.max_bits = max_bits
        self.pipelined = bool(pipelined)  # Pipelined = 1: the high-clock build (Lanes 2, 4)
        self.engine = engine              # the Montgomery multiplier of STARTMMI/MMX
        self.guard_bits = guard_bits
        self._backend = _make_backend(backend, self.config)
        self._isa = load()
        self._error_names = {e.code: e.name for e in self._isa.errors}
        # per-modulus constants, least recently used first
        self._r2_cache: OrderedDict[tuple[int, int], int] = OrderedDict()
        self._r3_cache: OrderedDict[int, int] = OrderedDict()
        self.num_regs = num_regs
        self.last_cycles = 0
        # the paper's quantity: cycles of the Montgomery multiplications (STARTMMI, MMX) alone
        self.last_core_cycles = 0
        self.total_cycles = 0  # every cycle this unit has run since it was made (never reset)
        self.total_core_cycles = 0   # the STARTMMI/MMX part of total_cycles
        self._core_opcodes = frozenset(self._isa.by_name[name].opcode for name in CORE_INSTRUCTIONS)
        self._cycles = self._core_cycles = 0

    @property
    def isa(self):
        """The instruction set this unit runs (montu.isa.load())."""
        return self._isa

    # ------------------------------------------------------------ low level
    def send(self, name: str, *, data: int = 0, **slots: int) -> Response:
        """Send one command and return the unit's response as it is (errors included)."""
        insn = encode(name, **slots)
        rsp = self._backend.execute(insn, data)
        self._cycles += rsp.cycles
        if insn >> OPCODE_SHIFT in self._core_opcodes:
            self._core_cycles += rsp.cycles
            self.total_core_cycles += rsp.cycles
        self.total_cycles += rsp.cycles
        return rsp

    def send_many(self, commands: Sequence[tuple[int, int]]) -> list[Response]:
        """Send encoded (instruction, data) pairs in one batch; responses as they are."""
        responses = self._backend.execute_many(commands)
        spent = sum(rsp.cycles for rsp in responses)
        self._cycles += spent
        core = sum(rsp.cycles for (insn, _), rsp in zip(commands, responses)
                   if insn >> OPCODE_SHIFT in self._core_opcodes)
        self._core_cycles += core
        self.total_core_cycles += core
        self.total_cycles += spent
        return responses

    def run(self, name: str, *, data: int = 0, **slots: int) -> Response:
        """Send one command; raise UnitError if the unit reports an error."""
        rsp = self.send(name, data=data, **slots)
        if rsp.err:
            raise UnitError(self._describe(name, rsp.err), code=rsp.err)
        return rsp

    def send_checked(self, commands: Sequence[tuple[int, int]], what: str) -> list[Response]:
        """Send a batch of encoded commands; raise UnitError at the first error response."""
        return self._run_many(list(commands), what)

    def forget_modulus(self, n: int) -> None:
        """Drop the cached R² and R³ of modulus n (the next operation recomputes them)."""
        self._r2_cache.pop((n, int(Field.GFP)), None)
        self._r2_cache.pop((n, int(Field.GF2M)), None)
        self._r3_cache.pop(n, None)

    def equal(self, reg_a: int, reg_b: int) -> bool:
        """CMP two registers on the unit (current length); True if they are equal."""
        rsp = self.run("CMP", ra=reg_a, rb=reg_b)
        return bool((rsp.flags >> self._isa.flag_bit["EQ"]) & 1)

    def _run_many(self, commands: list[tuple[int, int]], what: str) -> list[Response]:
        responses = self.send_many(commands)
        for rsp in responses:
            if rsp.err:
                raise UnitError(self._describe(what, rsp.err), code=rsp.err)
        return responses

    def _describe(self, name: str, code: int) -> str:
        return f"unit rejected {name}: {self._error_names.get(code, f'error code {code}')}"

    def length_words(self, bits: int, field: Field = Field.GFP) -> int:
        """k: the register length L = 64k this unit's driver uses for a modulus of `bits` bits
        (GF(p): the shortest L ≥ bits + guard_bits; GF(2^m): bits = deg N + 1, no guard bits)."""
        guard = self.guard_bits if Field(field) is Field.GFP else 0
        return max(1, -(-(bits + guard) // 64))

    def configure(self, bits: int, field: Field) -> int:
        """SETMMI for the shortest length L = 64k that holds `bits` bits; returns k."""
        k = max(1, -(-bits // 64))
        if 64 * k > self.max_bits:
            raise UnitError(f"operands of {bits} bits do not fit this unit (max_bits={self.max_bits})",
                            code=self._isa.error_code["E_BAD_LENGTH"])
        self.run("SETMMI", imm=k, f=int(field))
        return k

    def write(self, reg: int, value: int, k: int) -> None:
        """Load `value` (< 2^(64k)) into register `reg` with WMMI."""
        words = 64 * k // self.word_bits
        mask = (1 << self.word_bits) - 1
        insn = encode("WMMI", rd=reg)
        self._run_many([(insn, (value >> (self.word_bits * j)) & mask) for j in range(words)], "WMMI")

    def read(self, reg: int, k: int) -> int:
        """Read register `reg` (its low 64k bits) with RMMI."""
        words = 64 * k // self.word_bits
        insn = encode("RMMI", ra=reg)
        responses = self._run_many([(insn, 0)] * words, "RMMI")
        return sum(rsp.data << (self.word_bits * j) for j, rsp in enumerate(responses))

    # ------------------------------------------------------------ API
    def mont_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        """x·y·2^-L mod n (GF(p)) or x(x)·y(x)·x^-L mod n(x) (GF(2^m)), L = 64·length_words(bits)
        (64·⌈bits/64⌉ with no guard bits)."""
        self._cycles = self._core_cycles = 0
        k = self._load_modulus(n, field)
        self._check_operand("x", x, n, field)
        self._check_operand("y", y, n, field)
        self.write(R_X, x, k)
        self.write(R_Y, y, k)
        self.run("STARTMMI", rd=R_Z, ra=R_X, rb=R_Y)
        z = self.read(R_Z, k)
        self.last_cycles, self.last_core_cycles = self._cycles, self._core_cycles
        return z

    def mod_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        """x·y mod n (GF(p)) or x(x)·y(x) mod n(x) (GF(2^m))."""
        self._cycles = self._core_cycles = 0
        k = self._load_modulus(n, field)
        self._check_operand("x", x, n, field)
        self._check_operand("y", y, n, field)
        self._load_r2(R_ACC0, n, field, k)
        self.write(R_X, x, k)
        self.write(R_Y, y, k)
        self.run("STARTMMI", rd=R_Z, ra=R_X, rb=R_Y)        # x·y·R^-1
        self.run("STARTMMI", rd=R_Z, ra=R_Z, rb=R_ACC0)     # · R^2 · R^-1 = x·y
        z = self.read(R_Z, k)
        self.last_cycles, self.last_core_cycles = self._cycles, self._core_cycles
        return z

    def mod_inv(self, a: int, n: int, field: Field = Field.GFP) -> int:
        """a⁻¹ mod n for any modulus n ≥ 2 (even ones included) in GF(p), or a(x)⁻¹ mod n(x) in
        GF(2^m); raises NoInverse (a UnitNoInverse) when gcd(a, n) ≠ 1.

        Runs MINV (bie2021 Alg. 3 on the unit). Its time depends on the operands, so do not use it
        on secret values without blinding them first.
        """
        self._cycles = self._core_cycles = 0
        field = Field(field)
        if field is Field.GF2M:
            if gf2m.degree(n) < 1:
                raise UnitError("reduction polynomial must have degree at least 1")
            bits = gf2m.degree(n) + 1
        else:
            if n < 2:
                raise UnitError(f"modulus must be at least 2 (got {n})")
            bits = n.bit_length()
        self._check_operand("a", a, n, field)
        k = self.configure(bits, field)
        self.write(R_MOD, n, k)
        self.write(R_X, a, k)
        try:
            self.run("MINV", rd=R_Z, ra=R_X, rb=R_MOD)
        except UnitError as exc:
            if exc.code != self._isa.error_code["E_NO_INVERSE"]:
                raise
            self.last_cycles, self.last_core_cycles = self._cycles, self._core_cycles
            raise UnitNoInverse(f"no inverse: gcd(a, n) ≠ 1 for this {bits}-bit modulus",
                                code=exc.code) from None
        z = self.read(R_Z, k)
        self.last_cycles, self.last_core_cycles = self._cycles, self._core_cycles
        if (gf2m.degree(z) >= gf2m.degree(n)) if field is Field.GF2M else z >= n:
            raise MontuError(f"unit returned an unreduced inverse for a {bits}-bit modulus; "
                             "this is a unit fault, please report it")
        return z

    def mod_exp(self, base: int, exponent: int, n: int, *, exponent_bits: int | None = None) -> int:
        """base^exponent mod n (GF(p), odd n) by fixed-window exponentiation on the unit.

        Constant time for secret exponents: the command sequence and the cycle count depend only
        on the length of n and on `exponent_bits` (default: L = 64·⌈bits(n)/64⌉), never on the
        exponent's value. The exponent goes into a unit register; for each w-bit window SHLX moves
        its top bits into the unit's hidden window register and MMX multiplies by the table entry
        they select, so neither the host nor the timing sees a window value. base may be any
        value below 2^(2L) (e.g. a 2048-bit ciphertext modulo a 1024-bit prime): it is reduced on
        the unit.
        """
        self._cycles = self._core_cycles = 0
        k = self._load_modulus(n, Field.GFP)
        length = 64 * k
        if exponent_bits is None:
            exponent_bits = length
        if not 1 <= exponent_bits <= length:
            raise UnitError(f"exponent_bits must be in 1 .. {length} for a {n.bit_length()}-bit modulus")
        if not 0 <= base < 1 << (2 * length):
            raise UnitError(f"base must be in [0, 2^{2 * length}) (got a {base.bit_length()}-bit value)")
        if not 0 <= exponent < 1 << exponent_bits:
            raise UnitError(f"exponent must be in [0, 2^{exponent_bits}) "
                            f"(got a {exponent.bit_length()}-bit value)")
        width = self.window_bits
        windows = -(-exponent_bits // width)
        table = self.num_regs - (1 << width)
        self._to_montgomery(R_X, base, n, k)                    # R_X = base·R mod n
        self.write(R_EXP, exponent << (length - windows * width), k)
        startmmi = functools.partial(encode, "STARTMMI")
        setup = [(encode("LDONE", rd=R_ONE), 0),
                 (startmmi(rd=table, ra=R_ACC1, rb=R_ONE), 0),   # T[0] = R²·1·R⁻¹ = R  ("1")
                 (encode("MOV", rd=table + 1, ra=R_X), 0)]       # T[1] = base·R
        setup += [(startmmi(rd=table + i, ra=table + i - 1, rb=R_X), 0) for i in range(2, 1 << width)]
        setup += [(encode("SHLX", rd=R_EXP, ra=R_EXP, imm=width), 0),
                  (encode("MMX", rd=R_ACC0, ra=table, rb=table, imm=width), 0)]   # acc = T[top window]
        self._run_many(setup, "exponentiation table")
        step = [(startmmi(rd=R_ACC0, ra=R_ACC0, rb=R_ACC0), 0)] * width + [
            (encode("SHLX", rd=R_EXP, ra=R_EXP, imm=width), 0),
            (encode("MMX", rd=R_ACC0, ra=R_ACC0, rb=table, imm=width), 0)]
        batch = max(1, 64 // len(step))
        for first in range(1, windows, batch):
            self._run_many(step * min(batch, windows - first), "exponentiation window")
        self._run_many([(startmmi(rd=R_Z, ra=R_ACC0, rb=R_ONE), 0),   # out of Montgomery form
                        (encode("LDZ", rd=R_EXP), 0)], "exponentiation result")
        z = self.read(R_Z, k)
        self.last_cycles, self.last_core_cycles = self._cycles, self._core_cycles
        return z

    def mod_exp_public(self, base: int, exponent: int, n: int) -> int:
        """base^exponent mod n for a PUBLIC exponent (e.g. RSA's e = 65537): left-to-right square
        and multiply, so the time follows the exponent's bits. Never use it with a secret exponent.
        base may be any value below 2^(2L)."""
        self._cycles = self._core_cycles = 0
        k = self._load_modulus(n, Field.GFP)
        length = 64 * k
        if not 0 <= base < 1 << (2 * length):
            raise UnitError(f"base must be in [0, 2^{2 * length}) (got a {base.bit_length()}-bit value)")
        if exponent < 0:
            raise UnitError("exponent must be non-negative")
        self._to_montgomery(R_X, base, n, k)
        commands = [(encode("LDONE", rd=R_ONE), 0)]
        if exponent == 0:
            commands.append((encode("STARTMMI", rd=R_ACC0, ra=R_ACC1, rb=R_ONE), 0))  # R = "1"
        else:
            commands.append((encode("MOV", rd=R_ACC0, ra=R_X), 0))
            for bit in bin(exponent)[3:]:
                commands.append((encode("STARTMMI", rd=R_ACC0, ra=R_ACC0, rb=R_ACC0), 0))
                if bit == "1":
                    commands.append((encode("STARTMMI", rd=R_ACC0, ra=R_ACC0, rb=R_X), 0))
        commands.append((encode("STARTMMI", rd=R_Z, ra=R_ACC0, rb=R_ONE), 0))
        for first in range(0, len(commands), 64):
            self._run_many(commands[first:first + 64], "public exponentiation")
        z = self.read(R_Z, k)
        self.last_cycles, self.last_core_cycles = self._cycles, self._core_cycles
        return z

    @property
    def window_bits(self) -> int:
        """The window width of mod_exp: the widest table of 2^w registers that leaves R0..R7 free,
        with w dividing 64 (so the ⌈E/w⌉ windows of an E ≤ L-bit exponent fit the L-bit register)."""
        return max(w for w in (1, 2, 4) if (1 << w) + 8 <= self.num_regs)

    def _to_montgomery(self, reg: int, value: int, n: int, k: int) -> None:
        """reg = value·R mod n for any value < 2^(2L), on the unit: value = hi·2^L + lo, so
        value·R = hi·R³·R⁻¹ + lo·R²·R⁻¹ (each product has one factor below n: fully reduced).
        Leaves R² mod n in R_ACC1."""
        length = 64 * k
        self._load_r2(R_ACC1, n, Field.GFP, k)
        self._load_r3(R_Y, n, k)
        self.write(reg, value & ((1 << length) - 1), k)
        self.write(R_Z, value >> length, k)
        self._run_many([(encode("STARTMMI", rd=reg, ra=reg, rb=R_ACC1), 0),
                        (encode("STARTMMI", rd=R_Z, ra=R_Z, rb=R_Y), 0),
                        (encode("MADD", rd=reg, ra=reg, rb=R_Z), 0)], "Montgomery form")

    # ------------------------------------------------------------ helpers
    def _load_modulus(self, n: int, field: Field) -> int:
        field = Field(field)
        if field is Field.GF2M:
            m = gf2m.degree(n)
            if m < 1:
                raise UnitError("reduction polynomial must have degree at least 1")
            if m % 64 == 0:
                raise UnitError(f"a degree-{m} polynomial needs {m + 1} bits: degrees that are "
                                "multiples of 64 are not supported by the unit's 64k-bit registers")
            bits = m + 1
        else:
            if n < 2:
                raise UnitError("modulus must be at least 2")
            bits = n.bit_length()
        guard = self.guard_bits if field is Field.GFP else 0
        if guard and 64 * self.length_words(bits, field) > self.max_bits >= bits:
            raise UnitError(f"a {bits}-bit modulus needs "
                            f"{64 * self.length_words(bits, field)}-bit registers with {guard} "
                            f"guard bits; this unit holds {self.max_bits} bits (max_bits)",
                            code=self._isa.error_code["E_BAD_LENGTH"])
        k = self.configure(bits + guard, field)
        self.write(R_MOD, n, k)
        try:
            self.run("SETMOD", ra=R_MOD)
        except UnitError as exc:
            if field is Field.GF2M:
                msg = (f"reduction polynomial must have constant term 1 for GF(2^m) Montgomery "
                       f"multiplication (got a degree-{gf2m.degree(n)} polynomial divisible by x)")
            else:
                msg = (f"modulus must be odd for GF(p) Montgomery multiplication "
                       f"(got an even {n.bit_length()}-bit modulus)")
            raise UnitError(msg, code=exc.code) from None
        return k

    @staticmethod
    def _check_operand(name: str, value: int, n: int, field: Field) -> None:
        if field is Field.GF2M:
            if value < 0 or gf2m.degree(value) >= gf2m.degree(n):
                raise UnitError(f"{name} must be a polynomial of degree < {gf2m.degree(n)}")
        elif not 0 <= value < n:
            raise UnitError(f"{name} must be in [0, n) (got a {value.bit_length()}-bit value "
                            f"for a {n.bit_length()}-bit modulus)")

    def _load_r2(self, reg: int, n: int, field: Field, k: int) -> None:
        """reg = R² mod n, computed on the unit once per modulus (then reloaded by WMMI).

        Start from 2^(L-64) (< n because n fills its top 64-bit word; for GF(2^m) x^(L-64) has
        degree < deg n), double it 64 times to get R = 2^L mod n, the Montgomery form of 2^0. Then
        walk the bits of L: STARTMMI squares the Montgomery form of 2^j into that of 2^(2j) and
        MDBL turns it into 2^(j+1). Every step is the same for every n of a given length.
        With guard bits n may not fill its top word: the start is then 2^(b-1) for a b-bit n
        (below n), doubled L - b + 1 times to 2^L mod n (the steps depend on b only).
        """
        key = (n, int(field))
        if key in self._r2_cache:
            self._r2_cache.move_to_end(key)
            self.write(reg, self._r2_cache[key], k)
            return
        length = 64 * k
        core_before = self._core_cycles      # a per-modulus constant: not the call's core work
        start = length - 64 if Field(field) is Field.GF2M else min(length - 64, n.bit_length() - 1)
        self.write(reg, 1 << start, k)
        mdbl = (encode("MDBL", rd=reg, ra=reg), 0)
        self._run_many([mdbl] * (length - start + 1), "MDBL")  # doublings to 2^L, one more: j = 1
        square = (encode("STARTMMI", rd=reg, ra=reg, rb=reg), 0)
        for bit in bin(length)[3:]:
            self._run_many([square, mdbl] if bit == "1" else [square], "R^2 step")
        if len(self._r2_cache) >= _CACHE_LIMIT:   # key generation tries many moduli
            self._r2_cache.popitem(last=False)    # least recently used
        self._r2_cache[key] = self.read(reg, k)
        self._core_cycles = core_before

    def _load_r3(self, reg: int, n: int, k: int) -> None:
        """reg = R³ mod n (GF(p)) = R²·R²·R⁻¹, computed on the unit once per modulus. Needs R² in
        R_ACC1 (as _load_r2 leaves it)."""
        if n in self._r3_cache:
            self._r3_cache.move_to_end(n)
            self.write(reg, self._r3_cache[n], k)
            return
        core_before = self._core_cycles
        self.run("STARTMMI", rd=reg, ra=R_ACC1, rb=R_ACC1)
        self._core_cycles = core_before
        if len(self._r3_cache) >= _CACHE_LIMIT:
            self._r3_cache.popitem(last=False)
        self._r3_cache[n] = self.read(reg, k)


# The unit configurations the driver builds by itself, smallest first: the default MaxBits, and a
# larger one for operands that do not fit it (RSA-8192 public operations; its CRT halves fit 4096).
DEFAULT_MAX_BITS = (4096, 8192)
_DEFAULT_UNITS: dict[tuple[str, int, str], Unit] = {}


def default_unit(backend: str = "sim", *, min_bits: int = 0, engine: str = DEFAULT_ENGINE) -> Unit:
    """The process-wide unit the crypto layer uses when it is given none: one per backend,
    multiplier engine and configuration, the smallest of DEFAULT_MAX_BITS whose MaxBits holds
    `min_bits`-bit operands (the paper's mode: no guard bits), Pipelined as the engine's default
    build (montu.config.PIPELINED_BY_DEFAULT).

    Raises UnitError at once (before any command) when no configuration is large enough."""
    fitting = [bits for bits in DEFAULT_MAX_BITS if bits >= min_bits]
    if not fitting:
        raise UnitError(f"{min_bits}-bit operands are larger than the largest unit configuration "
                        f"the driver builds (MaxBits = {DEFAULT_MAX_BITS[-1]})")
    key = (backend, fitting[0], engine)
    if key not in _DEFAULT_UNITS:
        _DEFAULT_UNITS[key] = Unit(backend=backend, max_bits=fitting[0], engine=engine,
                                   pipelined=engine in PIPELINED_BY_DEFAULT)
    return _DEFAULT_UNITS[key]


def unit_for_operands(unit: Unit | None, bits: int) -> Unit:
    """The unit to run `bits`-bit operands on: `unit` itself when it is given and holds them; a
    process default unit (the smallest configuration that holds them, same backend and engine)
    when `unit` is None or is itself a process default unit that is too small. A unit the caller
    built and configured is never swapped: an operand too large for it raises UnitError."""
    if unit is None:
        return default_unit(min_bits=bits)
    if 64 * unit.length_words(bits) <= unit.max_bits:
        return unit
    if any(unit is default for default in _DEFAULT_UNITS.values()):
        return default_unit(unit.backend_name, min_bits=bits, engine=unit.engine)
    guard = f" with {unit.guard_bits} guard bits" if unit.guard_bits else ""
    raise UnitError(f"{bits}-bit operands do not fit this unit{guard} (max_bits={unit.max_bits})")
