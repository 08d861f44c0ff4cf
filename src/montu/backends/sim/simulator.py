"""Instruction-level, cycle-exact model of the Montu unit.

Each command's result comes from fast integer arithmetic; its cycle count comes from the cycle
formula in instructions.yaml, which states the RTL's timing. The simulator and the RTL must give
identical responses (error, flags, data, cycles) to every command stream — the differential tests
in tests/hw and tests/backends check exactly that.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from montu.arith import gf2m
from montu.arith.cilardo_fios import fios_correct, fios_product
from montu.arith.field import Field
from montu.config import UnitConfig
from montu.isa import Response, decode_slots, load
from montu.isa.table import Instruction
from montu.backends.sim.inversion import run_inversion

MAX_WINDOW_BITS = load().imm_rule["window"].max            # SHLX/MMX window width: imm in 1 .. 5
MLIN_MAX_CONSTANT = load().imm_rule["small_constants"].max  # MLIN: each constant in -3 .. 3
MLIN_CHAINS = 7        # MLIN: carry chains V + (o - i)·N, i = 0 .. 6
PAIRING = ("STARTMMI", "MMX")   # the instructions that run a product MMQ queued


class _Fault(Exception):
    """An error detected at decode; carries the unit's error code name."""

    def __init__(self, name: str, cycles: int | None = None):
        super().__init__(name)
        self.name = name
        self.cycles = cycles  # None: reported after the ISA's error_cycles


class Simulator:
    """The architectural state of one Montu unit and the semantics of every instruction."""

    def __init__(self, word_bits: int = 64, lanes: int = 2, max_bits: int = 4096, num_regs: int = 32,
                 pipelined: bool = False, *, config: UnitConfig | None = None):
        """A unit of `config`, or of the parameters given one by one (validated by UnitConfig)."""
        if config is None:
            config = UnitConfig(word_bits=word_bits, lanes=lanes, max_bits=max_bits,
                                num_regs=num_regs, pipelined=pipelined)
        self.config = config
        self.word_bits = config.word_bits
        self.lanes = config.lanes
        self.max_bits = config.max_bits
        self.num_regs = config.num_regs
        self.pipelined = config.pipelined
        self.max_words = config.max_words
        self._isa = load()
        self._err = self._isa.error_code
        self._flag = self._isa.flag_bit
        self._handlers: dict[str, Callable[[dict[str, int], int], Any]] = {
            name[len("_op_"):].upper(): getattr(self, name) for name in dir(self) if name.startswith("_op_")
        }
        missing = {i.name for i in self._isa.instructions} - set(self._handlers)
        if missing:
            raise RuntimeError(f"simulator has no semantics for {sorted(missing)}")
        self._inverse_cache: dict[tuple[int, int, int], int] = {}
        self._cycles_cache: dict[tuple[str, int, int], int] = {}
        self.cycle_count = 0
        self.reset()

    # ----------------------------------------------------------------- state
    def reset(self) -> None:
        """What rst_ni does: idle, k = 1, GF(p), modulus invalid. Registers keep their contents."""
        if not hasattr(self, "regs"):
            self.regs = [0] * self.num_regs
        self.k = 1
        self.gf2m = 0
        self.wptr = 0
        self.rptr = 0
        self.flags = 0
        self.modulus_reg: int | None = None
        self.mont_const = 0
        self.window = 0  # X: the window register SHLX loads and MMX indexes by (never read out)
        self.queued: tuple[int, int, int] | None = None   # (rd, ra, rb) of the product MMQ queued

    @property
    def length_bits(self) -> int:
        return 64 * self.k

    @property
    def words(self) -> int:
        return self.length_bits // self.word_bits

    def _mask(self) -> int:
        return (1 << self.length_bits) - 1

    def _read(self, r: int) -> int:
        return self.regs[r] & self._mask()

    def _write(self, r: int, value: int) -> None:
        mask = self._mask()
        self.regs[r] = (self.regs[r] & ~mask) | (value & mask)
        if r == self.modulus_reg:
            self.modulus_reg = None

    def _set_flag(self, name: str, value: bool) -> None:
        bit = 1 << self._flag[name]
        self.flags = (self.flags | bit) if value else (self.flags & ~bit)

    # --------------------------------------------------------------- execute
    def cycles_of(self, name: str, paired: int = 0, **data_dependent: int) -> int:
        """The cycle count of instruction `name` at the current length and field (STARTMMI/MMX:
        `paired` = 1 when they run a product MMQ queued; MINV also takes its data-dependent pass
        counts)."""
        key = (name, self.k, self.gf2m, paired)
        if not data_dependent and key in self._cycles_cache:    # the hot path: one lookup
            return self._cycles_cache[key]
        state = {"paired": paired} if paired else {}
        cycles = self._isa.by_name[name].cycle_count(
            engine=self.config.engine, **self.config.variables(k=self.k, gf2m=self.gf2m),
            **state, **data_dependent)
        if data_dependent:
            return cycles
        self._cycles_cache[key] = cycles
        return cycles

    def execute(self, insn: int, data: int = 0) -> Response:
        """Run one command and return the unit's response."""
        slots = decode_slots(insn)
        ins = self._isa.by_opcode.get(slots["op"])
        try:
            if ins is None:
                raise _Fault("E_BAD_OPCODE")
            self._check(ins, slots)
            if ins.name == "MINV":  # the one instruction whose time depends on the operands
                out, cycles = self._op_minv(slots, data)
            elif ins.name in PAIRING and self.queued is not None:
                self._check_pair(slots, ins.name == "MMX")
                cycles = self.cycles_of(ins.name, paired=1)
                out = self._run_pair(ins.name, slots, data)
            else:
                cycles = self.cycles_of(ins.name)  # before the op: SETMMI/WIPE change k
                out = self._handlers[ins.name](slots, data)
        except _Fault as fault:
            cycles = self._isa.error_cycles if fault.cycles is None else fault.cycles
            self.cycle_count += cycles
            return Response(err=self._err[fault.name], flags=self.flags, data=0, cycles=cycles)
        self.cycle_count += cycles
        return Response(err=0, flags=self.flags, data=out, cycles=cycles)

    def execute_many(self, commands: Iterable[tuple[int, int]]) -> list[Response]:
        return [self.execute(insn, data) for insn, data in commands]

    def _check(self, ins: Instruction, slots: dict[str, int]) -> None:
        """The decode-time errors, all derived from the table: the register slots the instruction
        `uses`, its `table`, its `imm_rule`, and E_NO_MODULUS where it lists it. Precedence:
        E_BAD_REG, then the imm rule's error, then E_NO_MODULUS, then E_EVEN_MODULUS (SETMOD)."""
        if any(slots[r] >= self.num_regs for r in ("rd", "ra", "rb") if r in ins.uses):
            raise _Fault("E_BAD_REG")
        rule = self._isa.imm_rule[ins.imm_rule] if ins.imm_rule else None
        imm_ok = rule is None or rule.accepts(slots["imm"], max_length=self.max_bits // 64)
        if ins.table is not None and imm_ok and slots[ins.table] + (1 << slots["imm"]) > self.num_regs:
            raise _Fault("E_BAD_REG")   # the table R[base] .. R[base + 2^imm - 1] must exist
        if not imm_ok:
            raise _Fault(rule.error)
        if ins.needs_modulus and self.modulus_reg is None:
            raise _Fault("E_NO_MODULUS")
        if ins.name == "SETMOD" and not self._read(slots["ra"]) & 1:
            raise _Fault("E_EVEN_MODULUS")

    def _check_pair(self, s: dict[str, int], table: bool) -> None:
        """E_BAD_PAIR unless this product and the queued one are independent: neither writes a
        register the other reads or writes, neither writes the modulus register. MMX's operand
        is its whole table R[rb] .. R[rb + 2^imm - 1], so the check never depends on X."""
        assert self.queued is not None
        qrd, qra, qrb = self.queued
        reads = {s["ra"], *(range(s["rb"], s["rb"] + (1 << s["imm"])) if table else (s["rb"],))}
        if (s["rd"] in (qrd, qra, qrb) or qrd in reads
                or self.modulus_reg in (s["rd"], qrd)):
            raise _Fault("E_BAD_PAIR")

    def _run_pair(self, name: str, s: dict[str, int], data: int) -> int:
        """This product and the queued one: both read their operands before either writes."""
        assert self.queued is not None
        qrd, qra, qrb = self.queued
        queued = self._product(self._read(qra), self._read(qrb))
        self._handlers[name](s, data)
        self._write(qrd, queued)
        self.queued = None
        return 0

    # ------------------------------------------------------- configuration
    def _op_mmq(self, s: dict[str, int], data: int) -> int:
        if self.queued is not None:
            raise _Fault("E_BAD_PAIR")
        self.queued = (s["rd"], s["ra"], s["rb"])
        return 0

    def _op_nop(self, s: dict[str, int], data: int) -> int:
        return 0

    def _op_setmmi(self, s: dict[str, int], data: int) -> int:
        self.k = s["imm"]
        self.gf2m = s["f"]
        self.wptr = self.rptr = 0
        self.modulus_reg = None
        self.queued = None
        return 0

    def _op_wmmi(self, s: dict[str, int], data: int) -> int:
        shift = self.wptr * self.word_bits
        word_mask = ((1 << self.word_bits) - 1) << shift
        value = (self.regs[s["rd"]] & ~word_mask) | ((data << shift) & word_mask)
        self._write(s["rd"], value)
        self.wptr = (self.wptr + 1) % self.words
        return 0

    def _op_rmmi(self, s: dict[str, int], data: int) -> int:
        word = (self.regs[s["ra"]] >> (self.rptr * self.word_bits)) & ((1 << self.word_bits) - 1)
        self.rptr = (self.rptr + 1) % self.words
        return word

    def _op_setmod(self, s: dict[str, int], data: int) -> int:
        n0 = self._read(s["ra"]) & ((1 << self.word_bits) - 1)
        if self.gf2m:
            self.mont_const = _poly_inverse_mod_xk(n0, self.word_bits)
        else:
            self.mont_const = (-pow(n0, -1, 1 << self.word_bits)) % (1 << self.word_bits)
        self.modulus_reg = s["ra"]
        return 0

    def _op_wipe(self, s: dict[str, int], data: int) -> int:
        self.regs = [0] * self.num_regs
        self.reset()
        return 0

    # ------------------------------------------------------- modular
    def _modulus(self) -> int:
        assert self.modulus_reg is not None
        return self._read(self.modulus_reg)

    def _op_startmmi(self, s: dict[str, int], data: int) -> int:
        self._write(s["rd"], self._product(self._read(s["ra"]), self._read(s["rb"])))
        return 0

    def _product(self, a: int, b: int) -> int:
        """STARTMMI's result for operands a, b on this unit's multiplier."""
        n, bits = self._modulus(), self.length_bits
        if self.config.engine == "cilardo":
            return self._cilardo_product(a, b, n)
        if self.gf2m:
            ab = gf2m.clmul(a, b)
            q = gf2m.clmul(ab & self._mask(), self._inverse(n, bits, 1)) & self._mask()
            z = (ab ^ gf2m.clmul(q, n)) >> bits
        else:
            ab = a * b
            q = (-ab * self._inverse(n, bits, 0)) & self._mask()
            z = (ab + q * n) >> bits
            if z >= n:
                z -= n
        return z

    def _cilardo_product(self, a: int, b: int, n: int) -> int:
        """cilardo_mont (cilardo2008 Alg. 2, the paper's recoded word unit, W = k words of 64
        bits): the last FIOS row's P, then one correction (GF(p): P + N if P < 0, P − N if
        P ≥ N), truncated to L bits (two's complement). Exactly the hardware's result for any
        register contents; fully reduced (in [0, N)) when one operand is below N and the other
        below 2^L."""
        field = Field.GF2M if self.gf2m else Field.GFP
        bits = self.length_bits
        p = fios_product(a, b, n, field=field, words=bits // 64, word_bits=64,
                         n_inverse=self._inverse(n, bits, self.gf2m))
        return fios_correct(p, n, field=field) & self._mask()

    def _op_mmx(self, s: dict[str, int], data: int) -> int:
        index = self.window & ((1 << s["imm"]) - 1)
        return self._op_startmmi({**s, "rb": s["rb"] + index}, data)

    def _inverse(self, n: int, bits: int, field: int) -> int:
        key = (n, bits, field)
        if key not in self._inverse_cache:
            if len(self._inverse_cache) > 64:
                self._inverse_cache.clear()
            self._inverse_cache[key] = (_poly_inverse_mod_xk(n, bits) if field
                                        else pow(n, -1, 1 << bits))
        return self._inverse_cache[key]

    def _op_madd(self, s: dict[str, int], data: int) -> int:
        a, b, n = self._read(s["ra"]), self._read(s["rb"]), self._modulus()
        if self.gf2m:
            self._write(s["rd"], a ^ b)
        else:
            t = a + b
            self._write(s["rd"], t - n if t >= n else t)
        return 0

    def _op_msub(self, s: dict[str, int], data: int) -> int:
        a, b, n = self._read(s["ra"]), self._read(s["rb"]), self._modulus()
        if self.gf2m:
            self._write(s["rd"], a ^ b)
        else:
            d = a - b
            self._write(s["rd"], d + n if d < 0 else d)
        return 0

    def _op_mdbl(self, s: dict[str, int], data: int) -> int:
        t, n = self._read(s["ra"]) << 1, self._modulus()
        if self.gf2m:
            self._write(s["rd"], t ^ n if (t ^ n) < t else t)
        else:
            self._write(s["rd"], t - n if t >= n else t)
        return 0

    def _op_mlin(self, s: dict[str, int], data: int) -> int:
        ca, cb = mlin_constants(s["imm"])
        a, b, n = self._read(s["ra"]), self._read(s["rb"]), self._modulus()
        if self.gf2m:
            self._write(s["rd"], (a if ca & 1 else 0) ^ (b if cb & 1 else 0))
            return 0
        v = ca * a + cb * b
        offset = max(-ca, 0) + max(-cb, 0)
        chosen = sum(1 for i in range(1, MLIN_CHAINS) if v + (offset - i) * n >= 0)
        self._write(s["rd"], v + (offset - chosen) * n)
        return 0

    def _op_minv(self, s: dict[str, int], data: int) -> tuple[int, int]:
        """rd = ra^-1 mod rb; returns (data, cycles) or raises _Fault with the run's cycles."""
        run = run_inversion(self._read(s["ra"]), self._read(s["rb"]), gf2m_mode=bool(self.gf2m),
                            word_bits=self.word_bits, one_bit=bool(s["imm"] & 1))
        cycles = self.cycles_of("MINV", passes=run.passes, fixes=run.fixes, ok=int(run.inverse is not None))
        if run.inverse is None:
            raise _Fault("E_NO_INVERSE", cycles)
        self._write(s["rd"], run.inverse)
        return 0, cycles

    # ------------------------------------------------------- integer
    def _add_sub(self, s: dict[str, int], subtract: bool, signed: bool) -> int:
        a, b = self._read(s["ra"]), self._read(s["rb"])
        if self.gf2m:
            r, carry = a ^ b, False
        elif subtract:
            r, carry = a - b, a < b
        else:
            r = a + b
            carry = r >> self.length_bits != 0
        r &= self._mask()
        self._write(s["rd"], r)
        self._set_flag("C", carry)
        if signed:
            self._set_flag("NEG", not self.gf2m and bool(r >> (self.length_bits - 1)))
        return 0

    def _op_add(self, s: dict[str, int], data: int) -> int:
        return self._add_sub(s, subtract=False, signed=False)

    def _op_sub(self, s: dict[str, int], data: int) -> int:
        return self._add_sub(s, subtract=True, signed=False)

    def _op_sadd(self, s: dict[str, int], data: int) -> int:
        return self._add_sub(s, subtract=False, signed=True)

    def _op_ssub(self, s: dict[str, int], data: int) -> int:
        return self._add_sub(s, subtract=True, signed=True)

    def _op_shl1(self, s: dict[str, int], data: int) -> int:
        a = self._read(s["ra"])
        self._set_flag("C", bool(a >> (self.length_bits - 1)))
        self._write(s["rd"], a << 1)
        return 0

    def _op_shr1(self, s: dict[str, int], data: int) -> int:
        a = self._read(s["ra"])
        self._set_flag("C", bool(a & 1))
        self._write(s["rd"], a >> 1)
        return 0

    def _op_shlw(self, s: dict[str, int], data: int) -> int:
        self._write(s["rd"], self._read(s["ra"]) << self.word_bits)
        return 0

    def _op_shrw(self, s: dict[str, int], data: int) -> int:
        self._write(s["rd"], self._read(s["ra"]) >> self.word_bits)
        return 0

    def _op_shlx(self, s: dict[str, int], data: int) -> int:
        a, width = self._read(s["ra"]), s["imm"]
        self.window = a >> (self.length_bits - width)
        self._write(s["rd"], a << width)
        return 0

    def _op_cmp(self, s: dict[str, int], data: int) -> int:
        a, b = self._read(s["ra"]), self._read(s["rb"])
        self._set_flag("EQ", a == b)
        self._set_flag("LT", a < b)
        return 0

    def _op_mov(self, s: dict[str, int], data: int) -> int:
        self._write(s["rd"], self._read(s["ra"]))
        return 0

    def _op_ldz(self, s: dict[str, int], data: int) -> int:
        self._write(s["rd"], 0)
        return 0

    def _op_ldone(self, s: dict[str, int], data: int) -> int:
        self._write(s["rd"], 1)
        return 0

    def _op_cswap(self, s: dict[str, int], data: int) -> int:
        a, b = self._read(s["ra"]), self._read(s["rb"])
        if (self.flags >> (s["imm"] & 3)) & 1:
            a, b = b, a
        # Both registers are written whether or not they swap (constant time).
        self._write(s["ra"], a)
        self._write(s["rb"], b)
        return 0


def mlin_constants(imm: int) -> tuple[int, int]:
    """MLIN's (ca, cb): imm[3:0] and imm[7:4] as 4-bit two's-complement numbers."""
    def signed4(nibble: int) -> int:
        return nibble - 16 if nibble & 8 else nibble
    return signed4(imm & 0xF), signed4((imm >> 4) & 0xF)


def _poly_inverse_mod_xk(n: int, k: int) -> int:
    """n(x)^-1 mod x^k for n with constant term 1 (Newton: v <- v*v*n, doubling precision)."""
    if not n & 1:
        raise ValueError("polynomial has no inverse modulo x^k: its constant term is 0")
    v, precision = 1, 1
    while precision < k:
        precision = min(2 * precision, k)
        mask = (1 << precision) - 1
        v = gf2m.clmul(gf2m.clmul(v, v) & mask, n & mask) & mask
    return v & ((1 << k) - 1)
