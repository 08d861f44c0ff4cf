"""The antao processor: a ring of P PEs, the alpha and output accumulators, the FIFOs and the
sequencer, executing microinstructions (src/montu/isa/antao_ucode.yaml) cycle-exactly.

The model is ours (the paper gives no cycle counts): one microinstruction issues per clock,
stalled by the interlocks of antao_ucode.yaml. Because every hazard is interlocked, executing the
microinstructions one after the other, in order, gives exactly the RTL's results; the clock of
each issue comes from a scoreboard of when each resource is written:

    RAM word x   readable by instructions issued at t_w + L   (L = MulStages + 4)
    ACC          readable by ring = ACC issued at t_w + S     (S = MulStages + 1)
    STOREC       issues when the pipeline is empty            (t_last + L)
    E, LCR       readable by BIT / LOOP(LCR) at t_w + 2

`Processor.run(entry)` returns (error name, stop PC, run cycles) with run = t_stop + L, the
quantity of the RUN cycle formula in antao.yaml. `trace` (if set) receives every issue.

With MulShare = N > 1 the RTL's run datapath advances one step every N clocks; everything here
(clocks, L, S, the watchdog's `limit`) then counts steps, and the shell's RUN response is
2 + N * run clocks (antao.yaml).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from montu.engines.antao.params import ALPHA_EXTRA_BITS, LCR_BITS, LOOP_DEPTH, AntaoParams
from montu.isa.ucode import MicroFormat, load_format

FORMAT: MicroFormat = load_format()
_F = FORMAT.by_name


def _v(field: str, name: str) -> int:
    return _F[field].value_of[name]


X_A, X_R, X_IN, X_ALPHA = (_v("xsel", n) for n in ("A", "R", "IN", "ALPHA"))
Y_B, Y_ONE, Y_ZERO, Y_IN = (_v("ysel", n) for n in ("B", "ONE", "ZERO", "IN"))
Z_ZERO, Z_A, Z_B, Z_NEGB, Z_IN, Z_NEGA = (_v("zsel", n) for n in ("ZERO", "A", "B", "NEGB", "IN", "NEGA"))
WR_NONE, WR_RED, WR_RAW = (_v("wr", n) for n in ("NONE", "RED", "RAW"))
RING_HOLD, RING_LOAD, RING_HOP, RING_ACC, RING_SHIN, RING_STOREC = (
    _v("ring", n) for n in ("HOLD", "LOAD", "HOP", "ACC", "SHIN", "STOREC"))
AL_HOLD, AL_CLR, AL_HALF, AL_ACC = (_v("alpha", n) for n in ("HOLD", "CLR", "HALF", "ACC"))
(O_NONE, O_CLR, O_ADD, O_LIMB, O_SUB, O_COMMIT, O_OUT, O_LDN, O_LDD, O_RST) = (
    _v("oacc", n) for n in ("NONE", "CLR", "ADD", "LIMB", "SUB", "COMMIT", "OUT", "LDN", "LDD", "RST"))
S_NEXT, S_LOOP, S_BIT, S_JMP, S_ELD, S_LCLD, S_HALT = (
    _v("seq", n) for n in ("NEXT", "LOOP", "BIT", "JMP", "ELD", "LCLD", "HALT"))


@dataclass(frozen=True)
class Micro:
    """A decoded microinstruction (field values as integers) plus what it reads and pops."""

    d: int
    a: int
    b: int
    di: int
    ai: int
    bi: int
    xsel: int
    ysel: int
    zsel: int
    accin: int
    accwr: int
    wr: int
    base: int
    ring: int
    alpha: int
    oacc: int
    pop: int
    seq: int
    imm: int
    lenx: int
    reserved: str | None

    @property
    def reads_a(self) -> bool:
        """Port a's word is used: ring = LOAD, or an operand of a SUM that is kept."""
        return self.ring == RING_LOAD or (self.computes and (self.xsel == X_A
                                                             or self.zsel in (Z_A, Z_NEGA)))

    @property
    def reads_b(self) -> bool:
        """Port b's word is used: an operand of a SUM that is kept."""
        return self.computes and (self.ysel == Y_B or self.zsel in (Z_B, Z_NEGB))

    @property
    def uses_in(self) -> bool:
        return (self.xsel == X_IN or self.ysel == Y_IN or self.zsel == Z_IN or self.pops)

    @property
    def pops(self) -> bool:
        return bool(self.pop or self.ring == RING_SHIN or self.oacc in (O_LDN, O_LDD)
                    or self.seq in (S_ELD, S_LCLD))

    @property
    def computes(self) -> bool:
        """Runs the multiplier/adder (its SUM is used: written to ACC or the RAM)."""
        return bool(self.accwr or self.wr == WR_RED)


def decode(word: int) -> Micro:
    values = FORMAT.decode(word)
    return Micro(**values, reserved=FORMAT.reserved(word))


class RunStop(Exception):
    """The run stops: `error` (None for HALT), at `pc`, with t_stop."""

    def __init__(self, error: str | None, pc: int, t_stop: int) -> None:
        super().__init__(error or "HALT")
        self.error, self.pc, self.t_stop = error, pc, t_stop


@dataclass
class _Loop:
    start: int
    end: int
    count: int
    index: int = 0


class Processor:
    """The architectural state of the antao engine below its shell."""

    def __init__(self, params: AntaoParams) -> None:
        self.p = params
        self.ucode = [0] * params.ucode_depth
        self._decoded: dict[int, Micro] = {}
        self.trace: Callable[[int, int, Micro], None] | None = None
        self.wipe()

    # ------------------------------------------------------------------ state
    def wipe(self) -> None:
        p = self.p
        self.ram = [[0] * p.depth for _ in range(p.pes)]
        self.c = [[0] * p.pes, [0] * p.pes]        # c[base][e]
        self.acc = [0] * p.pes
        self.r = [0] * p.pes
        self.aacc = 0
        self.oacc = 0
        self.lp = 0
        self.br = 0
        self.xbuf = [0] * (p.pes + 1)
        self.ybuf = [0] * (p.pes + 1)
        self.nbuf = [0] * (p.pes + 1)
        self.dbuf = [0] * (p.pes + 1)
        self.in_fifo: deque[int] = deque()
        self.out_fifo: deque[int] = deque()
        self.e_reg = 0
        self.lcr = 0

    def moduli(self, base: int) -> list[int]:
        return [(1 << self.p.w) - c for c in self.c[base]]

    def micro(self, word: int) -> Micro:
        m = self._decoded.get(word)
        if m is None:
            m = self._decoded[word] = decode(word)
        return m

    # ------------------------------------------------------------------ run
    def run(self, entry: int, limit: int) -> tuple[str | None, int, int]:
        """Run from `entry` until HALT or an error: (error name or None, stop PC, run cycles)."""
        try:
            self._run(entry, limit)
        except RunStop as stop:
            return stop.error, stop.pc, stop.t_stop + self.p.latency
        raise AssertionError("unreachable: _run always ends with RunStop")

    def _run(self, entry: int, limit: int) -> None:
        p = self.p
        lat, s_stage = p.latency, p.s
        depth_mask = p.depth - 1
        ram_ready: dict[int, int] = {}
        acc_ready = 0
        e_ready = 0
        last_issue = -lat          # the pipeline is empty when a run starts
        stack: list[_Loop] = []
        pc = entry
        t_prev = -1
        while True:
            m = self.micro(self.ucode[pc])
            t_first = t_prev + 1
            if t_first >= limit:
                raise RunStop("E_LIMIT", pc, limit)
            if m.reserved is not None:
                raise RunStop("E_UCODE", pc, t_first)
            if self._stack_refusal(pc, m, stack):
                raise RunStop("E_STACK", pc, t_first)
            index = stack[-1].index if stack else 0
            a_eff = (m.a + (index if m.ai else 0)) & depth_mask
            b_eff = (m.b + (index if m.bi else 0)) & depth_mask
            d_eff = (m.d + (index if m.di else 0)) & depth_mask
            # interlocks
            t = t_first
            if m.reads_a:
                t = max(t, ram_ready.get(a_eff, 0))
            if m.reads_b:
                t = max(t, ram_ready.get(b_eff, 0))
            if m.ring == RING_ACC:
                t = max(t, acc_ready)
            if m.ring == RING_STOREC:
                t = max(t, last_issue + lat)
            if m.seq == S_BIT or (m.seq == S_LOOP and (m.imm >> 8) == 0):
                t = max(t, e_ready)
            if t >= limit:
                raise RunStop("E_LIMIT", pc, limit)
            # sequencer, stage 0 of clock t
            next_pc, halt, bad_pc, push = self._next_pc(pc, m, stack)
            # issue at t
            if self.trace is not None:
                self.trace(t, pc, m)
            last_issue = t
            err = self._execute(m, a_eff, b_eff, d_eff)
            if m.wr != WR_NONE:
                ram_ready[d_eff] = t + lat
            if m.accwr:
                acc_ready = t + s_stage
            if m.seq in (S_ELD, S_LCLD):
                e_ready = t + 2
            if err is not None:
                raise RunStop(err, pc, t + 1)
            if halt:
                raise RunStop(None, pc, t + 1)
            if bad_pc:
                raise RunStop("E_PC", pc, t + 1)
            if push is not None:
                stack.append(push)
            pc = next_pc
            t_prev = t

    def _loop_body(self, pc: int, m: Micro, stack: list[_Loop]) -> tuple[int, int, bool]:
        """A LOOP's (end, count, bad body: E_PC)."""
        length, count = (m.lenx << 8) | (m.imm & 0xFF), m.imm >> 8
        end = pc + length
        bad = (bool(stack) and end >= stack[-1].end) or end >= self.p.ucode_depth
        return end, (count or self.lcr), bad

    def _stack_refusal(self, pc: int, m: Micro, stack: list[_Loop]) -> bool:
        """E_STACK: a LOOP with a good body and a non-zero count while the stack is full
        (decided at the first clock the LOOP is in stage 0)."""
        if m.seq != S_LOOP or len(stack) < LOOP_DEPTH:
            return False
        _, count, bad = self._loop_body(pc, m, stack)
        return not bad and count != 0

    def _next_pc(self, pc: int, m: Micro, stack: list[_Loop]
                 ) -> tuple[int, bool, bool, _Loop | None]:
        """(next PC, halt, bad PC, the loop a LOOP pushes) of an issuing instruction; the loop
        end's jump back or pop happens here; BIT shifts E here."""
        depth = self.p.ucode_depth
        top = stack[-1] if stack else None
        if m.seq == S_HALT:
            return pc, True, False, None
        if m.seq == S_LOOP:
            end, count, bad = self._loop_body(pc, m, stack)
            if bad:
                return pc, False, True, None
            if count == 0:
                if end + 1 >= depth:
                    return pc, False, True, None
                return end + 1, False, False, None
            return pc + 1, False, False, _Loop(pc + 1, end, count)
        taken = m.seq == S_JMP
        if m.seq == S_BIT:
            top_bit = (self.e_reg >> (self.p.e_bits - 1)) & 1
            self.e_reg = (self.e_reg << 1) & ((1 << self.p.e_bits) - 1)
            taken = top_bit == (m.imm >> 12) & 1
        if taken:
            target = pc + 1 + (m.imm & 0xFFF)
            if target >= depth or (top is not None and target > top.end):
                return pc, False, True, None
            return target, False, False, None
        if top is not None and pc == top.end:
            if top.index + 1 < top.count:
                top.index += 1
                return top.start, False, False, None
            stack.pop()
        if pc + 1 >= depth:
            return pc, False, True, None
        return pc + 1, False, False, None

    # ------------------------------------------------------------------ datapath
    def _execute(self, m: Micro, a: int, b: int, d: int) -> str | None:
        """Every effect of one microinstruction, in pipeline order; the stage-1 error, if any."""
        p = self.p
        w = p.w
        wmask = (1 << w) - 1
        error = None
        in_word = 0
        in_missing = False
        if m.uses_in:
            if self.in_fifo:
                in_word = self.in_fifo[0]
            else:
                error, in_missing = "E_IN", True
        alpha_val = self.aacc >> p.alpha_bits
        pes = p.pes
        old_r = self.r
        old_acc = list(self.acc) if m.ring == RING_ACC else self.acc
        loaded = [self.ram[e][a] for e in range(pes)] if m.ring == RING_LOAD else None
        # STOREC (stage 1) comes before this instruction's own reduction (stage S+1)
        if m.ring == RING_STOREC:
            cmask = (1 << p.c_bits) - 1
            self.c[m.base] = [v & cmask for v in old_r]
        if m.computes or m.wr == WR_RAW:
            cvals = self.c[m.base]
            accmask = (1 << p.acc_bits) - 1
            rams = self.ram
            for e in range(pes):
                ram = rams[e]
                if m.wr == WR_RAW:
                    ram_d = old_r[e] & wmask
                    if not m.computes:
                        ram[d] = ram_d
                        continue
                mod = (1 << w) - cvals[e]
                xs = m.xsel
                if xs == X_A:
                    x = ram[a]
                elif xs == X_R:
                    x = old_r[e] & wmask
                elif xs == X_IN:
                    x = in_word
                else:
                    x = alpha_val
                ys = m.ysel
                if ys == Y_B:
                    y = ram[b]
                elif ys == Y_ONE:
                    y = 1
                elif ys == Y_ZERO:
                    y = 0
                else:
                    y = in_word
                zs = m.zsel
                if zs == Z_ZERO:
                    z = 0
                elif zs == Z_A:
                    z = ram[a]
                elif zs == Z_B:
                    z = ram[b]
                elif zs == Z_NEGB:
                    z = mod - ram[b]
                elif zs == Z_IN:
                    z = in_word
                else:
                    z = mod - ram[a]
                total = x * y + z
                if m.accin:
                    total += self.acc[e]
                total &= accmask
                if m.accwr:
                    self.acc[e] = total
                if m.wr == WR_RED:
                    ram[d] = total % mod
                elif m.wr == WR_RAW:
                    ram[d] = ram_d
        # ring (stage 1, from the values before the clock)
        ring = m.ring
        if ring == RING_LOAD:
            self.r = loaded
        elif ring == RING_HOP:
            self.r = [old_r[-1], *old_r[:-1]]
        elif ring == RING_ACC:
            rmask = (1 << (2 * w)) - 1
            # ACC as it was before this instruction's own stage-S write
            self.r = [v & rmask for v in old_acc]
        elif ring == RING_SHIN:
            self.r = [in_word, *old_r[:-1]]
        # alpha accumulator
        leaving = old_r[-1]
        if m.alpha == AL_CLR:
            self.aacc = 0
        elif m.alpha == AL_HALF:
            self.aacc = 1 << (p.alpha_bits - 1)
        elif m.alpha == AL_ACC:
            top = (leaving & wmask) >> (w - p.alpha_bits)
            self.aacc = (self.aacc + top) & ((1 << (p.alpha_bits + ALPHA_EXTRA_BITS)) - 1)
        # output accumulator
        error = self._oacc(m.oacc, leaving, alpha_val, in_word, error) or error
        # FIFO pop, sequencer registers
        if m.pops and not in_missing:
            self.in_fifo.popleft()
        if not in_missing:
            if m.seq == S_ELD:
                self.e_reg = ((self.e_reg << w) | in_word) & ((1 << p.e_bits) - 1)
            elif m.seq == S_LCLD:
                self.lcr = in_word & ((1 << LCR_BITS) - 1)
        elif m.seq == S_ELD:
            self.e_reg = (self.e_reg << w) & ((1 << p.e_bits) - 1)
        elif m.seq == S_LCLD:
            self.lcr = 0
        return error

    def _oacc(self, op: int, leaving: int, alpha_val: int, in_word: int, error: str | None) -> str | None:
        p = self.p
        w = p.w
        wmask = (1 << w) - 1
        limbs = p.pes + 1
        if op == O_NONE:
            return None
        if op == O_CLR:
            self.oacc, self.lp, self.br = 0, 0, 0
        elif op == O_ADD:
            self.oacc = (self.oacc + (leaving & ((1 << (2 * w)) - 1))) & ((1 << p.acc_bits) - 1)
        elif op == O_LIMB:
            t = self.oacc + alpha_val * self.dbuf[self.lp]
            self.xbuf[self.lp] = t & wmask
            self.oacc = (t >> w) & ((1 << p.acc_bits) - 1)
            self.lp = (self.lp + 1) % limbs
        elif op == O_SUB:
            diff = self.xbuf[self.lp] - self.nbuf[self.lp] - self.br
            self.ybuf[self.lp] = diff & wmask
            self.br = 1 if diff < 0 else 0
            self.lp = (self.lp + 1) % limbs
        elif op == O_COMMIT:
            if self.br == 0:
                self.xbuf = list(self.ybuf)
            self.lp, self.br = 0, 0
        elif op == O_OUT:
            if len(self.out_fifo) >= p.out_depth:
                return "E_OUT"
            self.out_fifo.append(self.xbuf[self.lp])
            self.lp = (self.lp + 1) % limbs
        elif op == O_LDN:
            self.nbuf[self.lp] = in_word
            self.lp = (self.lp + 1) % limbs
        elif op == O_LDD:
            self.dbuf[self.lp] = in_word
            self.lp = (self.lp + 1) % limbs
        elif op == O_RST:
            self.lp, self.br = 0, 0
        return None
