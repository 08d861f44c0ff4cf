"""Instruction-level, cycle-exact model of the verma engine (Verma et al.'s EWBR4CMMM and MPL).

    sim = VermaSimulator(k_max=1024, w=48)
    sim.execute(encode("SETLEN"), 1024)           -> Response(err, flags, data, cycles)
    sim.execute(encode("CMMM", ra="P", rb="R"))   # X = P·R·F^-1, Y = P·P·F^-1 (mod n)
    sim.execute(encode("MPL"))                    # X = P^E mod n by the powering ladder
    sim.last_passes                               # (P, R, X, Y) of every pass the command ran
    sim.last_core_cycles                          # the paper's clocks: (I + m + 1) per pass

Everything about the instruction set comes from its table, src/montu/isa/verma.yaml: opcodes,
slots, register numbers, the registers each slot allows, the error codes and the cycle formulas
(evaluated here, never restated). The Verilated verma_top must give the same response (error,
flags, data, cycles) to every command.

Architectural state: the modulus length k (SETLEN; K = `k_max` after reset) and the sizes it
fixes (`sizes(k, w)`: g, h, t, D, I, m, Wd), the registers N, C, O, E (k bits) and P, R, X, Y
(2D bits), the multiples 2n and 3n formed by SETMOD, the word pointers wptr/rptr (mod Wd) and the
modulus-valid bit. ONE (the constant 1) is a multiplier only. The engine has no flags.

One EWBR4CMMM pass is, bit for bit, montu.arith.verma.ewbr4cmmm. By default the simulator runs
the pass's recurrences on whole integers instead of word by word (about 80 times faster, which
makes a 2048-bit MPL of 2050 passes take about a second instead of two minutes):

    T[0] = P;  T[i] = (T[i-1] + q_i·n) / 4,  q_i = -T[i-1]·n^-1 mod 4   (i = 1 … I, exact)
    X = Σ r_(I-i)·T[i],  Y = Σ p_(I-i)·T[i]   (i = g-t+1 … I), both modulo 2^(m·w)

which is what the PEs compute: the early-word top bits of T[i] are exact (the top word keeps its
carry) and the X/Y accumulators drop only the carries out of their top word. `golden=True` runs
every pass through ewbr4cmmm itself; tests/engines/test_verma_simulator.py checks the two against
each other (exhaustively for small k, and every pass of whole MPL runs).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from montu.arith.verma_cmmm import DEFAULT_WORD_BITS, MIN_WORD_BITS, cmmm_parameters, ewbr4cmmm
from montu.isa import encoding
from montu.isa.encoding import Command, Response
from montu.isa.table import Instruction, InstructionSet, load_engine

ENGINE = "verma"
ISA: InstructionSet = load_engine(ENGINE)
WORD_BITS = 64                      # the data word of the command/response shell
WORD_MASK = (1 << WORD_BITS) - 1
INSN_BITS = ISA.width
REG = ISA.register_index            # {"N": 0, "C": 1, "O": 2, "E": 3, "P": 4, "R": 5, "X": 6, ...}
REG_NAME = {index: name for name, index in REG.items()}
DATA_REGS = tuple(name for name in REG if name != "ONE")    # the registers that hold a value
NARROW_REGS = ("N", "C", "O", "E")  # k bits wide; P, R, X, Y are 2D bits wide
MIN_K = 2                           # SETLEN's smallest k (verma.yaml: E_BAD_LENGTH)
DEFAULT_K = 1024                    # the paper's 1024-bit build (K)
DEFAULT_W = DEFAULT_WORD_BITS       # the paper's 48-bit DSP48E word (W)


def encode(name: str, *, rd: int | str = 0, ra: int | str = 0, rb: int | str = 0, f: int = 0,
           imm: int = 0) -> int:
    """The verma instruction word of `name` (from verma.yaml); register slots take an index or a
    register name ("N", "C", "O", "E", "P", "R", "X", "Y", "ONE"); unused slots stay 0."""
    return encoding.encode(name, rd=rd, ra=ra, rb=rb, f=f, imm=imm, isa=ISA)


def decode_slots(insn: int) -> dict[str, int]:
    """Split a verma instruction word into its slots (op, rd, ra, rb, f, imm)."""
    return encoding.decode_slots(insn, ISA)


@dataclass(frozen=True)
class Sizes:
    """The sizes SETLEN derives from k (verma.yaml's header; montu.arith.verma.cmmm_parameters)."""

    k: int   # modulus length
    g: int   # guard bits 1 + bit_length(k)
    h: int   # ceil(k/2)
    t: int   # ceil(g/2)
    D: int   # radix-4 digits h + t of P, R, X, Y
    I: int   # reduction iterations h + g: F = 4^I
    m: int   # W-bit PE words ceil(2D / W)
    Wd: int  # 64-bit data words ceil(2D / 64) of every register
    w: int   # the PE word W

    @property
    def operand_bits(self) -> int:
        """2D: the width of P, R, X and Y."""
        return 2 * self.D

    @property
    def pass_cycles(self) -> int:
        """The clocks of one EWBR4CMMM pass, the paper's quantity: 1 load clock + word m-1 of the
        last iteration in clock I + m - 1 + the accumulation one clock behind = I + m + 1 (the
        golden model's Stats.cycles; Table 2's k/2 + g + m + 1)."""
        return self.I + self.m + 1

    def variables(self, f: int = 0) -> dict[str, int]:
        """The variables of verma.yaml's cycle formulas."""
        return {"k": self.k, "I": self.I, "m": self.m, "Wd": self.Wd, "f": f}


@functools.lru_cache(maxsize=256)
def sizes(k: int, w: int = DEFAULT_W) -> Sizes:
    """The sizes for modulus length k >= 2 and PE word w (those of any k-bit modulus)."""
    if k < MIN_K:
        raise ValueError(f"k must be at least {MIN_K} (got {k})")
    prm = cmmm_parameters((1 << (k - 1)) | 1, w)
    return Sizes(k=k, g=prm.g, h=prm.h, t=prm.t, D=prm.digits, I=prm.iterations, m=prm.m,
                 Wd=-(-prm.operand_bits // WORD_BITS), w=w)


def mpl_passes(k: int) -> int:
    """The EWBR4CMMM passes of one MPL: the conversion, k ladder steps, the conversion out."""
    return k + 2


class CmmmPass(NamedTuple):
    """One EWBR4CMMM pass: its operands P (the common multiplicand) and R, and its outputs
    X = P·R·F^-1, Y = P·P·F^-1 (mod n) as the PEs leave them (before any f = 1 clock)."""

    p: int
    r: int
    x: int
    y: int


class _Fault(Exception):
    """An error found while executing a command (always answered after error_cycles)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class VermaSimulator:
    """The architectural state of one verma engine (K = `k_max`, W = `w`) and every
    instruction's semantics and timing. `reset()` is the power-on state (what rst_ni does):
    k = K, every register and pointer cleared, modulus invalid.

    `golden=True` computes every pass with montu.arith.verma.ewbr4cmmm (word by word, slow);
    the default computes the same values on whole integers (see the module docstring)."""

    def __init__(self, k_max: int = DEFAULT_K, w: int = DEFAULT_W, *, golden: bool = False):
        for name, value in (("k_max", k_max), ("w", w)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int (got {type(value).__name__})")
        if k_max < MIN_K:
            raise ValueError(f"k_max (K) must be at least {MIN_K} bits (got {k_max})")
        if w < MIN_WORD_BITS:
            raise ValueError(f"w (W, the PE word) must be at least {MIN_WORD_BITS} bits: the "
                             f"early-word step reads bits 3..2 of a word (got {w})")
        self.k_max = k_max
        self.w = w
        self.golden = bool(golden)
        self.isa = ISA
        self._err = ISA.error_code
        self._handlers = {ins.name: getattr(self, f"_op_{ins.name.lower()}", None)
                          for ins in ISA.instructions}
        missing = sorted(name for name, handler in self._handlers.items() if handler is None)
        if missing:
            raise RuntimeError(f"the verma simulator has no semantics for {missing}")
        self.cycle_count = 0    # every cycle since the simulator was made (cycle_count_o)
        self.reset()

    # ----------------------------------------------------------------- state
    def reset(self) -> None:
        """Power-on state: k = K, registers, 2n/3n and pointers cleared, modulus invalid."""
        self.k = self.k_max
        self._clear()
        self.last_passes: tuple[CmmmPass, ...] = ()
        self.last_core_cycles = 0

    def _clear(self) -> None:
        """What SETLEN and WIPE clear: every register, 2n and 3n, the pointers, the modulus."""
        self.regs = {name: 0 for name in DATA_REGS}
        self.twice_n = 0
        self.thrice_n = 0
        self.wptr = 0
        self.rptr = 0
        self.modulus_valid = False

    @property
    def sizes(self) -> Sizes:
        """The sizes of the current k."""
        return sizes(self.k, self.w)

    @property
    def words(self) -> int:
        """Wd = ceil(2D / 64): the data words of every register at the current k."""
        return self.sizes.Wd

    @property
    def flags(self) -> int:
        """The engine has no flags (verma.yaml: flags: [])."""
        return 0

    def width(self, register: str) -> int:
        """The width of `register` at the current k: k for N, C, O, E; 2D for P, R, X, Y."""
        return self.k if register in NARROW_REGS else self.sizes.operand_bits

    def variables(self, f: int = 0) -> dict[str, int]:
        """The variables of verma.yaml's cycle formulas at the current k."""
        return self.sizes.variables(f)

    def cycles_of(self, name: str, f: int = 0) -> int:
        """Cycles of instruction `name` at the current k (CMMM: give f)."""
        return _cycles(name, self.k, self.w, f)

    # --------------------------------------------------------------- execute
    def execute(self, insn: int, data: int = 0) -> Response:
        """Run one command and return the engine's response."""
        if not 0 <= insn < 1 << INSN_BITS:
            raise ValueError(f"instruction word {insn:#x} does not fit {INSN_BITS} bits")
        if not 0 <= data <= WORD_MASK:
            raise ValueError(f"data {data:#x} does not fit the {WORD_BITS}-bit word")
        self.last_passes = ()
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
            cycles = ISA.error_cycles
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
        """E_BAD_REG from the table: the registers each slot allows (`regs`); slots an
        instruction does not use are ignored."""
        for slot in ins.uses:
            allowed = ins.allowed(slot)
            if allowed is not None and REG_NAME.get(slots[slot]) not in allowed:
                raise _Fault("E_BAD_REG")

    # ------------------------------------------------------- the datapath
    def _pass(self, p: int, r: int) -> CmmmPass:
        """One EWBR4CMMM pass on the loaded modulus (see the module docstring)."""
        if self.golden:
            (x, y), _ = ewbr4cmmm(p, r, self.regs["N"], w=self.w)
            return CmmmPass(p, r, x, y)
        s = self.sizes
        multiples = (0, self.regs["N"], self.twice_n, self.thrice_n)   # the 4:1 MUX
        n_low = self.regs["N"] & 3             # n^-1 ≡ n (mod 4) for odd n
        t, x, y = p, 0, 0
        first = s.I - s.D                      # g - t reduction-only iterations
        for i in range(1, s.I + 1):
            t = (t + multiples[-(t & 3) * n_low & 3]) >> 2
            if i > first:
                shift = 2 * (s.I - i)          # digit I - i of R (XPEs) and of P (YPEs)
                r_digit, p_digit = (r >> shift) & 3, (p >> shift) & 3
                if r_digit:
                    x += r_digit * t
                if p_digit:
                    y += p_digit * t
        mask = (1 << (s.m * s.w)) - 1
        return CmmmPass(p, r, x & mask, y & mask)

    def _finish(self, passes: list[CmmmPass]) -> None:
        self.last_passes = tuple(passes)
        self.last_core_cycles = len(passes) * self.sizes.pass_cycles

    # ------------------------------------------------------- instructions
    # Each returns (response data, cycles) or raises _Fault before changing anything.
    def _op_nop(self, s: dict[str, int], data: int) -> tuple[int, int]:
        return 0, self.cycles_of("NOP")

    def _op_setlen(self, s: dict[str, int], data: int) -> tuple[int, int]:
        if not MIN_K <= data <= self.k_max:
            raise _Fault("E_BAD_LENGTH")
        cycles = self.cycles_of("SETLEN")
        self.k = data
        self._clear()
        return 0, cycles

    def _op_wr(self, s: dict[str, int], data: int) -> tuple[int, int]:
        name = REG_NAME[s["rd"]]
        shift = self.wptr * WORD_BITS
        if data >> max(self.width(name) - shift, 0):
            raise _Fault("E_RANGE")          # bits at or above the register's width
        self.regs[name] = (self.regs[name] & ~(WORD_MASK << shift)) | (data << shift)
        if name == "N":
            self.modulus_valid = False
        self.wptr = (self.wptr + 1) % self.words
        return 0, self.cycles_of("WR")

    def _op_rd(self, s: dict[str, int], data: int) -> tuple[int, int]:
        word = (self.regs[REG_NAME[s["ra"]]] >> (self.rptr * WORD_BITS)) & WORD_MASK
        self.rptr = (self.rptr + 1) % self.words
        return word, self.cycles_of("RD")

    def _op_setmod(self, s: dict[str, int], data: int) -> tuple[int, int]:
        n = self.regs["N"]
        if n % 2 == 0 or not (n >> (self.k - 1)) & 1:
            raise _Fault("E_BAD_MODULUS")    # not an odd k-bit modulus (N < 2^k by WR)
        self.twice_n, self.thrice_n = 2 * n, 3 * n
        self.modulus_valid = True
        return 0, self.cycles_of("SETMOD")

    def _operand(self, index: int) -> int:
        return 1 if REG_NAME[index] == "ONE" else self.regs[REG_NAME[index]]

    def _op_cmmm(self, s: dict[str, int], data: int) -> tuple[int, int]:
        one = self._pass(self._operand(s["ra"]), self._operand(s["rb"]))
        x = 0 if s["f"] and one.x == self.regs["N"] else one.x
        self.regs["X"], self.regs["Y"] = x, one.y
        self._finish([one])
        return 0, self.cycles_of("CMMM", f=s["f"])

    def _op_mpl(self, s: dict[str, int], data: int) -> tuple[int, int]:
        e, passes = self.regs["E"], []

        def run(p: int, r: int) -> CmmmPass:
            passes.append(self._pass(p, r))
            return passes[-1]

        r0, r1 = self.regs["O"], run(self.regs["P"], self.regs["C"]).x   # into Montgomery form
        for position in reversed(range(self.k)):   # all k bits, MSB first: constant time
            if (e >> position) & 1:
                step = run(r1, r0)                 # common multiplicand R1 (the 2:1 MUX)
                r0, r1 = step.x, step.y
            else:
                step = run(r0, r1)                 # common multiplicand R0
                r1, r0 = step.x, step.y
        last = run(r0, 1)                          # out of Montgomery form: X <= N
        self.regs["X"] = 0 if last.x == self.regs["N"] else last.x   # the f = 1 clock
        self.regs["Y"] = last.y
        assert len(passes) == mpl_passes(self.k)
        self._finish(passes)
        return 0, self.cycles_of("MPL")

    def _op_wipe(self, s: dict[str, int], data: int) -> tuple[int, int]:
        cycles = self.cycles_of("WIPE")
        self._clear()
        return 0, cycles


@functools.lru_cache(maxsize=1024)
def _cycles(name: str, k: int, w: int, f: int) -> int:
    return ISA.by_name[name].cycle_count(ENGINE, **sizes(k, w).variables(f))
