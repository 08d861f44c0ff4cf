"""Instruction-level, cycle-exact model of the yeh engine (Yeh et al.'s BSR4 RSA chip).

    sim = YehSimulator(nbits=1024)
    sim.execute(encode("SETLEN"), 1024)           -> Response(err, flags, data, cycles)
    sim.execute(encode("BSR4", ra="X", rb="M", f=1))
    sim.last_bsr4_runs                             # montu.arith.yeh.Bsr4Run of each BSR4 it ran
    sim.last_core_cycles                           # nb·(L/2 + 1): the BSR4 core cycles alone

Everything about the instruction set comes from its table, src/montu/isa/yeh.yaml: opcodes,
slots, register numbers, the registers each slot allows, the error codes and the cycle formulas
(evaluated here, never restated). The Verilated yeh_top must give the same response (error,
flags, data, cycles) to every command.

Architectural state: the operand length L (SETLEN; NBits after reset), the registers N, C, M, E
(NBits bits each; only the low L bits can be non-zero) and X (L + 1 bits: bit L is flag XL, the
only flag, returned with every response), the paper's 3N register, the word pointers wptr/rptr
(mod W = ceil(L/64)) and the modulus-valid bit. ONE (the constant 1) is a multiplicand only.

BSR4 is computed in closed form: the paper's loop adds Q·N with Q = Σ k_i·4^i, k_i ∈ {0..3},
i < L/2, so Q is the unique value in [0, 2^L) with A·B + Q·N ≡ 0 (mod 2^L), i.e. Q =
A·B·(−N⁻¹) mod 2^L; then P[L] + C1 = (A·B + Q·N) / 2^L, C1 = ⌊A·B / 2^L⌋ and the k_i are the
radix-4 digits of Q. `last_bsr4_runs` builds the golden model's Bsr4Run records from that on
demand (tests/engines/test_yeh_simulator.py checks them against montu.arith.yeh.bsr4, which runs
the loop step by step).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from montu.arith.yeh import Bsr4Run
from montu.isa import encoding
from montu.isa.encoding import Command, Response
from montu.isa.table import Instruction, InstructionSet, evaluate_formula, load_engine

ENGINE = "yeh"
ISA: InstructionSet = load_engine(ENGINE)
WORD_BITS = 64                      # the data word of the command/response shell
WORD_MASK = (1 << WORD_BITS) - 1
INSN_BITS = ISA.width
REG = ISA.register_index            # {"N": 0, "C": 1, "M": 2, "E": 3, "X": 4, "ONE": 5}
REG_NAME = {index: name for name, index in REG.items()}
XL_FLAG = 1 << ISA.flag_bit["XL"]


def encode(name: str, *, rd: int | str = 0, ra: int | str = 0, rb: int | str = 0, f: int = 0,
           imm: int = 0) -> int:
    """The yeh instruction word of `name` (from yeh.yaml); register slots take an index or a
    register name ("N", "C", "M", "E", "X", "ONE"); unused slots stay 0."""
    return encoding.encode(name, rd=rd, ra=ra, rb=rb, f=f, imm=imm, isa=ISA)


def decode_slots(insn: int) -> dict[str, int]:
    """Split a yeh instruction word into its slots (op, rd, ra, rb, f, imm)."""
    return encoding.decode_slots(insn, ISA)


def exp_multiplications(exponent: int) -> int:
    """nb of EXP: the number of BSR4s the H-type sequence runs for `exponent` (yeh.yaml):
    bit_length + popcount for E >= 1 (conversion in, squarings, multiplications, conversion
    out), 2 for E = 0 (the Montgomery form of 1, then the conversion out)."""
    if exponent == 0:
        return 2
    return exponent.bit_length() + bin(exponent).count("1")


class _Fault(Exception):
    """An error found while executing a command: the error's name and when it is answered."""

    def __init__(self, name: str, cycles: int | None = None):
        super().__init__(name)
        self.name = name
        self.cycles = cycles   # None: the table's error_cycles (found at decode)


@dataclass(frozen=True)
class _Bsr4Record:
    """One BSR4 as the simulator computed it (closed form); `run()` gives the golden model's
    Bsr4Run: P[L] = raw − C1, the k_i = the radix-4 digits of Q."""

    a: int
    b: int
    raw: int        # P[L] + C1, before the f = 1 subtraction
    c1: int
    q: int          # Q = Σ k_i·4^i
    width: int      # L

    def run(self) -> Bsr4Run:
        q, digits = self.q, []
        for _ in range(self.width // 2):
            digits.append(q & 3)
            q >>= 2
        return Bsr4Run(result=self.raw, p_final=self.raw - self.c1, c1=self.c1,
                       multiples=tuple(digits), width=self.width)


class YehSimulator:
    """The architectural state of one yeh engine (NBits = `nbits`) and every instruction's
    semantics and timing. `reset()` is the power-on state (what rst_ni does): L = NBits, every
    register, flag and pointer cleared, modulus invalid."""

    def __init__(self, nbits: int = 1024):
        if isinstance(nbits, bool) or not isinstance(nbits, int):
            raise TypeError(f"nbits must be an int (got {type(nbits).__name__})")
        if nbits < WORD_BITS or nbits % WORD_BITS:
            raise ValueError(f"nbits must be a multiple of {WORD_BITS} and at least {WORD_BITS} "
                             f"(got {nbits})")
        self.nbits = nbits
        self.nwords = nbits // WORD_BITS
        self.isa = ISA
        self._err = ISA.error_code
        self._handlers = {ins.name: getattr(self, f"_op_{ins.name.lower()}", None)
                          for ins in ISA.instructions}
        missing = sorted(name for name, handler in self._handlers.items() if handler is None)
        if missing:
            raise RuntimeError(f"the yeh simulator has no semantics for {missing}")
        self._pairs = {ins.name: frozenset((REG[a], REG[b]) for a, b in ins.pairs)
                       for ins in ISA.instructions if ins.pairs}
        self.cycle_count = 0    # every cycle since the simulator was made (cycle_count_o)
        self.reset()

    # ----------------------------------------------------------------- state
    def reset(self) -> None:
        """Power-on state: L = NBits, registers, XL, pointers and 3N cleared, modulus invalid."""
        self.length = self.nbits
        self._clear()
        self._last_records: tuple[_Bsr4Record, ...] = ()
        self.last_core_cycles = 0

    def _clear(self) -> None:
        """What SETLEN and WIPE clear: every register and flag, 3N, the pointers, the modulus."""
        self.regs = {name: 0 for name in ("N", "C", "M", "E", "X")}
        self.three_n = 0
        self.wptr = 0
        self.rptr = 0
        self.modulus_valid = False
        self._nprime = 0   # −N⁻¹ mod 2^L, the closed form's view of the k_i selection

    @property
    def words(self) -> int:
        """W = ceil(L / 64): the data words of an L-bit operand."""
        return -(-self.length // WORD_BITS)

    @property
    def flags(self) -> int:
        """The flag register: XL = bit L of X."""
        return XL_FLAG if (self.regs["X"] >> self.length) & 1 else 0

    @property
    def last_bsr4_runs(self) -> tuple[Bsr4Run, ...]:
        """The golden model's record (result, p_final, c1, multiples) of every BSR4 the last
        command ran, in order (EXP: all nb of them; results before the f = 1 subtraction)."""
        return tuple(record.run() for record in self._last_records)

    def variables(self, **data_dependent: int) -> dict[str, int]:
        """The variables of yeh.yaml's cycle formulas at the current length."""
        return {"L": self.length, "W": self.words, "NWords": self.nwords, "NBits": self.nbits,
                **data_dependent}

    def cycles_of(self, name: str, **data_dependent: int) -> int:
        """Cycles of instruction `name` at the current length (EXP: give nb)."""
        return _cycles(name, self.length, self.nbits, tuple(sorted(data_dependent.items())))

    def range_error_cycles(self, name: str) -> int:
        """When BSR4/EXP answer E_RANGE (their range_error_cycles at the current length)."""
        return evaluate_formula(ISA.by_name[name].range_error_cycles, self.variables())

    # --------------------------------------------------------------- execute
    def execute(self, insn: int, data: int = 0) -> Response:
        """Run one command and return the engine's response."""
        if not 0 <= insn < 1 << INSN_BITS:
            raise ValueError(f"instruction word {insn:#x} does not fit {INSN_BITS} bits")
        if not 0 <= data <= WORD_MASK:
            raise ValueError(f"data {data:#x} does not fit the {WORD_BITS}-bit word")
        self._last_records = ()
        self.last_core_cycles = 0
        slots = decode_slots(insn)
        ins = ISA.by_opcode.get(slots["op"])
        try:
            if ins is None:
                raise _Fault("E_BAD_OPCODE")
            self._check_registers(ins, slots)
            if ins.needs_modulus and not self.modulus_valid:
                raise _Fault("E_NO_MODULUS")
            out, cycles = self._handlers[ins.name](slots, data)
        except _Fault as fault:
            cycles = ISA.error_cycles if fault.cycles is None else fault.cycles
            self.cycle_count += cycles
            return Response(err=self._err[fault.name], flags=self.flags, data=0, cycles=cycles)
        self.cycle_count += cycles
        return Response(err=0, flags=self.flags, data=out, cycles=cycles)

    def execute_many(self, commands: Iterable[tuple[int, int] | Command]) -> list[Response]:
        """Run (instruction, data) pairs (or Commands) in order; every response."""
        out = []
        for command in commands:
            insn, data = ((command.insn, command.data) if isinstance(command, Command)
                          else command)
            out.append(self.execute(insn, data))
        return out

    def _check_registers(self, ins: Instruction, slots: dict[str, int]) -> None:
        """E_BAD_REG from the table: the registers each slot allows (`regs`) and the allowed
        (ra, rb) `pairs`; slots an instruction does not use are ignored."""
        for slot in ins.uses:
            allowed = ins.allowed(slot)
            if allowed is not None and REG_NAME.get(slots[slot]) not in allowed:
                raise _Fault("E_BAD_REG")
        pairs = self._pairs.get(ins.name)
        if pairs is not None and (slots["ra"], slots["rb"]) not in pairs:
            raise _Fault("E_BAD_REG")

    # ------------------------------------------------------- instructions
    # Each returns (response data, cycles) or raises _Fault before changing anything.
    def _op_nop(self, s: dict[str, int], data: int) -> tuple[int, int]:
        return 0, self.cycles_of("NOP")

    def _op_setlen(self, s: dict[str, int], data: int) -> tuple[int, int]:
        if data % 2 or not 2 <= data <= self.nbits:
            raise _Fault("E_BAD_LENGTH")
        cycles = self.cycles_of("SETLEN")
        self.length = data
        self._clear()
        return 0, cycles

    def _op_wr(self, s: dict[str, int], data: int) -> tuple[int, int]:
        shift = self.wptr * WORD_BITS
        if data >> max(self.length - shift, 0):
            raise _Fault("E_RANGE")          # bits at or above L
        name = REG_NAME[s["rd"]]
        value = self.regs[name]
        if name == "X":
            value &= ~(1 << self.length)     # writing X clears XL
        self.regs[name] = (value & ~(WORD_MASK << shift)) | (data << shift)
        if name == "N":
            self.modulus_valid = False
        self.wptr = (self.wptr + 1) % self.words
        return 0, self.cycles_of("WR")

    def _op_rd(self, s: dict[str, int], data: int) -> tuple[int, int]:
        # X's word W − 1 includes bit L (XL) when L is not a multiple of 64.
        word = (self.regs[REG_NAME[s["ra"]]] >> (self.rptr * WORD_BITS)) & WORD_MASK
        self.rptr = (self.rptr + 1) % self.words
        return word, self.cycles_of("RD")

    def _op_setmod(self, s: dict[str, int], data: int) -> tuple[int, int]:
        n = self.regs["N"]
        if n % 2 == 0 or n < 3 or n < 1 << (self.length - 2):
            raise _Fault("E_BAD_MODULUS")
        self.three_n = 3 * n
        self._nprime = -pow(n, -1, 1 << self.length) % (1 << self.length)
        self.modulus_valid = True
        return 0, self.cycles_of("SETMOD")

    def _op_xtom(self, s: dict[str, int], data: int) -> tuple[int, int]:
        if self.regs["X"] >> self.length:
            raise _Fault("E_RANGE")
        self.regs["M"] = self.regs["X"]
        return 0, self.cycles_of("XTOM")

    def _operand(self, index: int) -> int:
        return 1 if REG_NAME[index] == "ONE" else self.regs[REG_NAME[index]]

    def _bsr4(self, a: int, b: int, reduce: bool, records: list[_Bsr4Record]) -> int:
        """One BSR4 (closed form, see the module docstring); f = 1: minus N when >= N."""
        n, width = self.regs["N"], self.length
        ab = a * b
        q = ((ab & ((1 << width) - 1)) * self._nprime) & ((1 << width) - 1)
        raw = (ab + q * n) >> width
        records.append(_Bsr4Record(a, b, raw, ab >> width, q, width))
        return raw - n if reduce and raw >= n else raw

    def _op_bsr4(self, s: dict[str, int], data: int) -> tuple[int, int]:
        a, b, n = self._operand(s["ra"]), self._operand(s["rb"]), self.regs["N"]
        if a >= n or b >= n:
            raise _Fault("E_RANGE", self.range_error_cycles("BSR4"))
        records: list[_Bsr4Record] = []
        self.regs["X"] = self._bsr4(a, b, bool(s["f"]), records)
        self._finish_core(records)
        return 0, self.cycles_of("BSR4")

    def _op_exp(self, s: dict[str, int], data: int) -> tuple[int, int]:
        n, c, m, e = self.regs["N"], self.regs["C"], self.regs["M"], self.regs["E"]
        if m >= n or c >= n:
            raise _Fault("E_RANGE", self.range_error_cycles("EXP"))
        records: list[_Bsr4Record] = []
        if e == 0:
            x_bar = self._bsr4(c, 1, True, records)          # the Montgomery form of 1
        else:
            m_bar = self._bsr4(c, m, True, records)          # conversion in: C·M·R⁻¹ = M̄
            x_bar = m_bar
            for i in range(e.bit_length() - 2, -1, -1):      # H-type, MSB first
                x_bar = self._bsr4(x_bar, x_bar, True, records)
                if (e >> i) & 1:
                    x_bar = self._bsr4(x_bar, m_bar, True, records)
            if e >= 2:
                self.regs["M"] = m_bar                       # captured during the 1st squaring
        self.regs["X"] = self._bsr4(x_bar, 1, True, records)  # conversion out
        nb = len(records)
        assert nb == exp_multiplications(e)
        self._finish_core(records)
        return 0, self.cycles_of("EXP", nb=nb)

    def _finish_core(self, records: list[_Bsr4Record]) -> None:
        self._last_records = tuple(records)
        self.last_core_cycles = len(records) * (self.length // 2 + 1)

    def _op_wipe(self, s: dict[str, int], data: int) -> tuple[int, int]:
        cycles = self.cycles_of("WIPE")
        self._clear()
        return 0, cycles


@functools.lru_cache(maxsize=1024)
def _cycles(name: str, length: int, nbits: int, data_dependent: tuple[tuple[str, int], ...]) -> int:
    variables = {"L": length, "W": -(-length // WORD_BITS), "NWords": nbits // WORD_BITS,
                 "NBits": nbits, **dict(data_dependent)}
    return ISA.by_name[name].cycle_count(ENGINE, **variables)
