"""`Unit`: the API the crypto layer uses, the same on every backend.

    from montu import Unit, Field
    u = Unit(backend="sim")                  # or backend="rtl" (Verilator)
    u.mont_mul(x, y, n, field=Field.GFP)     # x·y·2^-L mod n
    u.last_cycles                            # unit cycles of that call

Every arithmetic step runs on the unit as commands of the instruction set (docs/isa.md); the host
only moves words in and out and chooses the command sequence, which never depends on secret data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from montu.arith import gf2m
from montu.arith.field import Field
from montu.errors import MontuError, NoInverse
from montu.isa import Response, encode, load

# Register conventions of the driver's command sequences.
R_MOD, R_X, R_Y, R_Z, R_ACC0, R_ACC1, R_EXP, R_ONE = 0, 1, 2, 3, 4, 5, 6, 7


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


class Backend(Protocol):
    def execute(self, insn: int, data: int = 0) -> Response: ...
    def execute_many(self, commands: Sequence[tuple[int, int]]) -> list[Response]: ...


def _make_backend(backend: str, word_bits: int, lanes: int, max_bits: int, num_regs: int) -> Backend:
    if backend == "sim":
        from montu.sim import Simulator

        return Simulator(word_bits=word_bits, lanes=lanes, max_bits=max_bits, num_regs=num_regs)
    if backend == "rtl":
        from montu.rtl import RtlModel

        return RtlModel(word_bits=word_bits, lanes=lanes, max_bits=max_bits, num_regs=num_regs)
    raise UnitError(f"unknown backend {backend!r}: choose 'sim' or 'rtl'")


class Unit:
    """One Montu unit behind a backend ('sim': cycle-exact simulator, 'rtl': Verilated RTL)."""

    def __init__(self, backend: str = "sim", *, lanes: int = 2, word_bits: int = 64,
                 max_bits: int = 4096, num_regs: int = 32):
        self.backend_name = backend
        self.word_bits = word_bits
        self.lanes = lanes
        self.max_bits = max_bits
        self._backend = _make_backend(backend, word_bits, lanes, max_bits, num_regs)
        self._isa = load()
        self._error_names = {e.code: e.name for e in self._isa.errors}
        self._r2_cache: dict[tuple[int, int], int] = {}
        self.last_cycles = 0
        self.total_cycles = 0  # every cycle this unit has run since it was made (never reset)
        self._cycles = 0

    # ------------------------------------------------------------ low level
    def send(self, name: str, *, data: int = 0, **slots: int) -> Response:
        """Send one command and return the unit's response as it is (errors included)."""
        rsp = self._backend.execute(encode(name, **slots), data)
        self._cycles += rsp.cycles
        self.total_cycles += rsp.cycles
        return rsp

    def send_many(self, commands: Sequence[tuple[int, int]]) -> list[Response]:
        """Send encoded (instruction, data) pairs in one batch; responses as they are."""
        responses = self._backend.execute_many(commands)
        spent = sum(rsp.cycles for rsp in responses)
        self._cycles += spent
        self.total_cycles += spent
        return responses

    def run(self, name: str, *, data: int = 0, **slots: int) -> Response:
        """Send one command; raise UnitError if the unit reports an error."""
        rsp = self.send(name, data=data, **slots)
        if rsp.err:
            raise UnitError(self._describe(name, rsp.err), code=rsp.err)
        return rsp

    def _run_many(self, commands: list[tuple[int, int]], what: str) -> list[Response]:
        responses = self.send_many(commands)
        for rsp in responses:
            if rsp.err:
                raise UnitError(self._describe(what, rsp.err), code=rsp.err)
        return responses

    def _describe(self, name: str, code: int) -> str:
        return f"unit rejected {name}: {self._error_names.get(code, f'error code {code}')}"

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
        """x·y·2^-L mod n (GF(p)) or x(x)·y(x)·x^-L mod n(x) (GF(2^m)), L = 64·⌈bits/64⌉."""
        self._cycles = 0
        k = self._load_modulus(n, field)
        self._check_operand("x", x, n, field)
        self._check_operand("y", y, n, field)
        self.write(R_X, x, k)
        self.write(R_Y, y, k)
        self.run("STARTMMI", rd=R_Z, ra=R_X, rb=R_Y)
        z = self.read(R_Z, k)
        self.last_cycles = self._cycles
        return z

    def mod_mul(self, x: int, y: int, n: int, field: Field = Field.GFP) -> int:
        """x·y mod n (GF(p)) or x(x)·y(x) mod n(x) (GF(2^m))."""
        self._cycles = 0
        k = self._load_modulus(n, field)
        self._check_operand("x", x, n, field)
        self._check_operand("y", y, n, field)
        self._load_r2(R_ACC0, n, field, k)
        self.write(R_X, x, k)
        self.write(R_Y, y, k)
        self.run("STARTMMI", rd=R_Z, ra=R_X, rb=R_Y)        # x·y·R^-1
        self.run("STARTMMI", rd=R_Z, ra=R_Z, rb=R_ACC0)     # · R^2 · R^-1 = x·y
        z = self.read(R_Z, k)
        self.last_cycles = self._cycles
        return z

    def mod_inv(self, a: int, n: int, field: Field = Field.GFP) -> int:
        """a⁻¹ mod n for any modulus n ≥ 2 (even ones included) in GF(p), or a(x)⁻¹ mod n(x) in
        GF(2^m); raises NoInverse (a UnitNoInverse) when gcd(a, n) ≠ 1.

        Runs MINV (bie2021 Alg. 3 on the unit). Its time depends on the operands, so do not use it
        on secret values without blinding them first.
        """
        self._cycles = 0
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
            self.last_cycles = self._cycles
            raise UnitNoInverse(f"no inverse: gcd(a, n) ≠ 1 for this {bits}-bit modulus",
                                code=exc.code) from None
        z = self.read(R_Z, k)
        self.last_cycles = self._cycles
        if (gf2m.degree(z) >= gf2m.degree(n)) if field is Field.GF2M else z >= n:
            raise MontuError(f"unit returned an unreduced inverse for a {bits}-bit modulus; "
                             "this is a unit fault, please report it")
        return z

    def mod_exp(self, base: int, exponent: int, n: int) -> int:
        """base^exponent mod n in GF(p) by a Montgomery ladder on the unit.

        The command sequence is the same for every exponent below 2^L (L = 64·⌈bits(n)/64⌉): each
        of the L exponent bits leaves the unit through SHL1 into the carry flag and steers two
        CSWAPs, so the host never branches on it and the cycle count depends only on L.
        """
        self._cycles = 0
        k = self._load_modulus(n, Field.GFP)
        if not 0 <= base < 1 << (64 * k):
            raise UnitError(f"base must be in [0, 2^{64 * k}) (got a {base.bit_length()}-bit value)")
        if not 0 <= exponent < 1 << (64 * k):
            raise UnitError(f"exponent must be in [0, 2^{64 * k}) (got a {exponent.bit_length()}-bit value)")
        self._load_r2(R_ACC1, n, Field.GFP, k)
        self.write(R_X, base, k)
        self.write(R_EXP, exponent, k)
        self.run("LDONE", rd=R_ONE)
        self.run("STARTMMI", rd=R_ACC0, ra=R_ACC1, rb=R_ONE)  # R0 = R²·1·R^-1 = R mod n  ("1")
        self.run("STARTMMI", rd=R_ACC1, ra=R_X, rb=R_ACC1)    # R1 = base·R mod n, reduced
        c_flag = self._isa.flag_bit["C"]
        step = [
            (encode("SHL1", rd=R_EXP, ra=R_EXP), 0),
            (encode("CSWAP", ra=R_ACC0, rb=R_ACC1, imm=c_flag), 0),
            (encode("STARTMMI", rd=R_ACC1, ra=R_ACC0, rb=R_ACC1), 0),
            (encode("STARTMMI", rd=R_ACC0, ra=R_ACC0, rb=R_ACC0), 0),
            (encode("CSWAP", ra=R_ACC0, rb=R_ACC1, imm=c_flag), 0),
        ]
        for _ in range(64 * k):
            self._run_many(step, "ladder step")
        self.run("STARTMMI", rd=R_Z, ra=R_ACC0, rb=R_ONE)      # out of Montgomery form
        z = self.read(R_Z, k)
        self.last_cycles = self._cycles
        return z

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
        k = self.configure(bits, field)
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
        """
        key = (n, int(field))
        if key in self._r2_cache:
            self.write(reg, self._r2_cache[key], k)
            return
        length = 64 * k
        self.write(reg, 1 << (length - 64), k)
        mdbl = (encode("MDBL", rd=reg, ra=reg), 0)
        self._run_many([mdbl] * 65, "MDBL")  # 64 doublings to 2^L, one more: j = 1
        square = (encode("STARTMMI", rd=reg, ra=reg, rb=reg), 0)
        for bit in bin(length)[3:]:
            self._run_many([square, mdbl] if bit == "1" else [square], "R^2 step")
        self._r2_cache[key] = self.read(reg, k)
