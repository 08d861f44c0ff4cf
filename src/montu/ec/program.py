"""Straight-line command programs for the unit: named registers, pre-encoded commands, one batch.

A `Program` is a list of (instruction word, data) pairs built once per curve and sent with
`Unit.send_many`, so the host never chooses a command from a value it computed: every branch of an
EC program is a CSWAP on a unit flag. `Registers` names the unit's registers (R0 is the modulus by
the driver's convention; SETMOD reads it there).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from montu.arith.field import Field
from montu.driver import R_MOD, Unit, UnitError
from montu.ec import pairing
from montu.isa import Response, encode, load

FLAG_BIT = load().flag_bit  # {"C": 0, "EQ": 1, "LT": 2, "NEG": 3}


class Registers:
    """Names for the unit registers R1 … R(NumRegs-1); R0 holds the modulus."""

    def __init__(self, names: Iterable[str], num_regs: int = 32, aliases: dict[str, str] | None = None):
        self._number: dict[str, int] = {}
        for name in names:
            if name in self._number:
                raise ValueError(f"register name {name!r} used twice")
            if len(self._number) + 1 >= num_regs:
                raise ValueError(f"program needs more than the unit's {num_regs - 1} free registers")
            self._number[name] = len(self._number) + 1
        for alias, name in (aliases or {}).items():   # a second name for a register in another role
            self._number[alias] = self._number[name]

    def __getitem__(self, name: str) -> int:
        return self._number[name]

    def __contains__(self, name: str) -> bool:
        return name in self._number


class Program:
    """Commands to run on the unit, written with register names (d = destination)."""

    def __init__(self, regs: Registers):
        self.regs = regs
        self.commands: list[tuple[int, int]] = []

    def _emit(self, name: str, **slots: int) -> None:
        self.commands.append((encode(name, **slots), 0))

    def mul(self, d: str, a: str, b: str) -> None:
        """d = a·b·R⁻¹ (Montgomery product; R = 2^L or x^L)."""
        r = self.regs
        self._emit("STARTMMI", rd=r[d], ra=r[a], rb=r[b])

    def sqr(self, d: str, a: str) -> None:
        self.mul(d, a, a)

    def add(self, d: str, a: str, b: str) -> None:
        """d = a + b mod N (GF(p)); XOR (GF(2^m))."""
        r = self.regs
        self._emit("MADD", rd=r[d], ra=r[a], rb=r[b])

    def sub(self, d: str, a: str, b: str) -> None:
        """d = a − b mod N (GF(p)); XOR (GF(2^m))."""
        r = self.regs
        self._emit("MSUB", rd=r[d], ra=r[a], rb=r[b])

    def lin(self, d: str, ca: int, a: str, cb: int = 0, b: str | None = None) -> None:
        """d = ca·a + cb·b mod N for constants in −3 … 3 (MLIN, one instruction; GF(2^m): the
        constants act mod 2)."""
        r = self.regs
        self._emit("MLIN", rd=r[d], ra=r[a], rb=r[b if b is not None else a],
                   imm=(ca & 0xF) | ((cb & 0xF) << 4))

    def half(self, d: str) -> None:
        """d = (N + 1)/2, the plain integer 1/2 mod N (N odd): LDONE, ADD with R0, SHR1."""
        r = self.regs
        self._emit("LDONE", rd=r[d])
        self._emit("ADD", rd=r[d], ra=r[d], rb=R_MOD)
        self._emit("SHR1", rd=r[d], ra=r[d])

    def dbl(self, d: str, a: str) -> None:
        """d = 2·a mod N."""
        r = self.regs
        self._emit("MDBL", rd=r[d], ra=r[a])

    def xor(self, d: str, a: str, b: str) -> None:
        """d = a XOR b: GF(2^m) addition with the one-pass ADD (clears the C flag)."""
        r = self.regs
        self._emit("ADD", rd=r[d], ra=r[a], rb=r[b])

    def mov(self, d: str, a: str) -> None:
        r = self.regs
        self._emit("MOV", rd=r[d], ra=r[a])

    def zero(self, d: str) -> None:
        self._emit("LDZ", rd=self.regs[d])

    def one(self, d: str) -> None:
        """d = the integer 1 (not Montgomery form)."""
        self._emit("LDONE", rd=self.regs[d])

    def shift_flag(self, reg: str) -> None:
        """reg <<= 1 with its top bit into the C flag (the next secret bit leaves the unit here)."""
        r = self.regs[reg]
        self._emit("SHL1", rd=r, ra=r)

    def shift_window(self, reg: str, width: int) -> None:
        """reg <<= width with its top `width` bits into the unit's window register X (SHLX)."""
        r = self.regs[reg]
        self._emit("SHLX", rd=r, ra=r, imm=width)

    def mul_table(self, d: str, a: str, table: str, width: int) -> None:
        """d = a · R[table + X] · R⁻¹ (MMX): the unit picks the table entry by its window X."""
        r = self.regs
        self._emit("MMX", rd=r[d], ra=r[a], rb=r[table], imm=width)

    def cswap(self, a: str, b: str, flag: str = "C") -> None:
        """Swap a and b if the unit's flag is set; same time and writes either way."""
        r = self.regs
        self._emit("CSWAP", ra=r[a], rb=r[b], imm=FLAG_BIT[flag])

    def compare(self, a: str, b: str) -> None:
        """Flags EQ = (a == b), LT = (a < b)."""
        r = self.regs
        self._emit("CMP", ra=r[a], rb=r[b])

    def inverse(self, d: str, a: str) -> None:
        """d = a⁻¹ mod R0 by MINV on plain (non-Montgomery) integers. Variable time: public or
        blinded operands only."""
        r = self.regs
        self._emit("MINV", rd=r[d], ra=r[a], rb=R_MOD)

    def power(self, d: str, a: str, exponent: int, table: Sequence[str]) -> None:
        """d = a^exponent for a public exponent ≥ 1, by whichever of two methods takes fewer
        commands for this exponent: a left-to-right sliding window over odd powers, or runs of
        ones (good for Fermat exponents such as p − 2 of the NIST primes: P-256 in 255 S + 13 M).

        `table` names scratch registers; d must not be in it or be a. Only the exponent (public)
        decides the commands, never a.
        """
        candidates = []
        trial = Program(self.regs)
        self._power_sliding_window(trial, d, a, exponent, table)
        candidates.append(trial.commands)
        for block_log in range(len(table) + 1):
            trial = Program(self.regs)
            self._power_by_runs(trial, d, a, exponent, table, block_log)
            candidates.append(trial.commands)
        self.commands.extend(min(candidates, key=len))

    @staticmethod
    def _power_sliding_window(p: Program, d: str, a: str, exponent: int, table: Sequence[str]) -> None:
        """`table`: 1 + 2^(w-1) registers (a², a, a³, …)."""
        width = 1
        while 1 + (1 << width) <= len(table) and width < 6:
            width += 1
        odd_count = 1 << (width - 1)
        square, odd = table[0], list(table[1:1 + odd_count])
        p.mov(odd[0], a)
        p.sqr(square, a)
        for i in range(1, odd_count):
            p.mul(odd[i], odd[i - 1], square)
        first = True
        bits = bin(exponent)[2:]
        i = 0
        while i < len(bits):
            if bits[i] == "0":
                p.sqr(d, d)
                i += 1
                continue
            j = min(i + width, len(bits))
            while bits[j - 1] == "0":
                j -= 1
            value = int(bits[i:j], 2)
            if first:
                p.mov(d, odd[value >> 1])
                first = False
            else:
                for _ in range(j - i):
                    p.sqr(d, d)
                p.mul(d, d, odd[value >> 1])
            i = j

    @staticmethod
    def _power_by_runs(p: Program, d: str, a: str, exponent: int, table: Sequence[str],
                       block_log: int) -> None:
        """x_(2^j) = a^(2^(2^j) − 1) for j ≤ t (x_1 = a, x_(2c) = x_c^(2^c)·x_c, in table[j − 1]),
        then each run of ℓ ones of the exponent is ℓ // 2^t pieces 2^t and the binary digits of
        ℓ mod 2^t: d ← d^(2^b)·x_b per piece b; one squaring per zero."""
        pairs = _runs_and_gaps(exponent)
        t = min(max(ones for ones, _ in pairs).bit_length() - 1, block_log)
        block = {1: a}
        for j in range(1, t + 1):
            half, reg = block[1 << (j - 1)], table[j - 1]
            p.sqr(reg, half)
            for _ in range((1 << (j - 1)) - 1):
                p.sqr(reg, reg)
            p.mul(reg, reg, half)
            block[1 << j] = reg
        top, first = 1 << t, True
        for ones, zeros in pairs:
            rest = ones % top
            pieces = [top] * (ones // top) + [1 << i for i in range(rest.bit_length() - 1, -1, -1) if rest >> i & 1]
            for piece in pieces:
                if first:
                    p.mov(d, block[piece])
                    first = False
                else:
                    for _ in range(piece):
                        p.sqr(d, d)
                    p.mul(d, d, block[piece])
            for _ in range(zeros):
                p.sqr(d, d)

    def extend(self, other: Program) -> None:
        self.commands.extend(other.commands)


def _runs_and_gaps(exponent: int) -> list[tuple[int, int]]:
    """The exponent's bits from the top as (run of ones, run of zeros after it) pairs."""
    bits = bin(exponent)[2:]
    pairs, i = [], 0
    while i < len(bits):
        j = i
        while j < len(bits) and bits[j] == "1":
            j += 1
        k = j
        while k < len(bits) and bits[k] == "0":
            k += 1
        pairs.append((j - i, k - j))
        i = k
    return pairs


def execute(unit: Unit, commands: Sequence[tuple[int, int]], what: str, *, k: int | None = None,
            field: Field = Field.GFP) -> list[Response]:
    """Send a batch; raise UnitError naming `what` if the unit rejects any command.

    With k, the unit's current length (L = 64k bits, in `field`): when pairing pays on this unit
    (montu.ec.pairing), the batch sent is the program with its independent products paired by
    MMQ (scheduled once per program, then cached). One response per command of `commands`, in
    their order either way (see `PairedProgram.positions`)."""
    if k is None or not pairing.pairs_on(unit, k, int(field)):
        return _send(unit, commands, what)
    paired = pairing.scheduled(tuple(commands))
    responses = _send(unit, paired.commands, what)
    return [responses[i] for i in paired.positions]


def _send(unit: Unit, commands: Sequence[tuple[int, int]], what: str) -> list[Response]:
    responses = unit.send_many(commands)
    for rsp in responses:
        if rsp.err:
            raise UnitError(f"unit rejected a command of {what}: error code {rsp.err}", code=rsp.err)
    return responses
