"""cocotb benches of the word-serial engine montu_wordop (run by tests/hw/test_wordop_cocotb.py).

The engine is driven through its own ports, as montu_top drives it: a one-cycle start_i with
op_i, gf2m_i, s_i (W), cond_i (CSWAP: flag imm[1:0]) and shamt_i, ca_i, cb_i (imm[2:0], imm[3:0],
imm[7:4] of the instruction, whatever the instruction) held. The bench stands in for montu_top's
register file (montu_regfile: three copies of montu_ram_1r1w written together), modelled as the
RTL builds it: one flat array of NumRegs x MaxWords words, word address r*MaxWords + idx
truncated to the address width, reads enabled in every cycle (montu_top's rf_re for word
instructions), a port's data being the word addressed in the cycle before (the old word if that
address is written in the same cycle). Port a reads ra at idx_o, port b rb at idx_o, port n the
modulus register (ra when n_from_ra_o) at n_idx_o; a write goes to rd, ra or rb by wreg_o. Words
above W hold random junk, so a result that depends on them shows up.

Every instruction is checked against montu.backends.sim.Simulator, which runs the same command
stream (SETMMI, WMMI for the operands, SETMOD for the modular ones, then the instruction):
  - the registers it writes (every word of them, the words above W included) and the registers
    it must leave alone;
  - the flag register after it (the bench applies flags_o where flags_we_o says, as montu_top
    does) and flags_we_o itself: exactly the flags the instruction sets (found by running the
    simulator once more from the complementary flags);
  - SHLX's window bits (win_o) against the simulator's window register X;
  - the cycles from start_i to done_o, both counted (start_i's cycle is cycle 0), against the
    instruction's formula in instructions.yaml and the simulator's response. montu_top starts
    the engine in its decode cycle (cyc_q = 0) and answers rsp_cycles = cyc_q + 1 from the cycle
    wo_done is high, so the fixed offset between the engine's count and the instruction's is 0.
Beside that: done_o is a one-cycle pulse; every destination word is written exactly once (two
for CSWAP: ra and rb), CMP writes nothing; nothing is written while the engine is idle (montu_top
feeds the engine's write port to the register file for every command that is not STARTMMI, MMX,
MINV or WMMI).

The simulator's flag register is set by assignment before most instructions (random flags, so
that a flag written by mistake shows up); in random_stream the flags only change by instructions.
Lengths: W = L / Word with L = 64k, so with Word 32 every W is even, as in montu_top.
"""

from __future__ import annotations

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from montu.arith import gf2m
from montu.backends.sim import Simulator
from montu.isa import encode, load

CFG = json.loads(os.environ.get("MONTU_WORDOP_CFG", '{"Word": 64, "MaxWords": 16}'))
WORD, MAX_WORDS = CFG["Word"], CFG["MaxWords"]
PIPELINED = int(CFG.get("Pipelined", 0))
NUM_REGS = 16                       # registers of the modelled register file (and the simulator)
MAX_BITS = MAX_WORDS * WORD         # a multiple of 64: MaxWords = MaxBits / Word
LANES = 2                           # the word engine does not depend on it
ISA = load()
SEED = int(os.environ.get("MONTU_SEED", "1"))
PERIOD = 10  # ns
MASK = (1 << WORD) - 1
WORDS_PER_K = 64 // WORD            # W is a multiple of this (W = 64k / Word)

# The instructions montu_wordop runs, and the ones it does not (montu_top, montu_mont, montu_inv):
# a new instruction in instructions.yaml fails this bench until it is placed.
WORD_OPS = ("MADD", "MSUB", "MDBL", "MLIN", "ADD", "SUB", "SADD", "SSUB", "SHL1", "SHR1", "SHLW",
            "SHRW", "SHLX", "CMP", "MOV", "LDZ", "LDONE", "CSWAP")
OTHER_OPS = ("NOP", "SETMMI", "WMMI", "RMMI", "SETMOD", "STARTMMI", "MMX", "MMQ", "MINV", "WIPE")
MODULAR = tuple(n for n in WORD_OPS if ISA.by_name[n].needs_modulus)
WREG = {0: "rd", 1: "ra", 2: "rb"}  # wreg_o


def clog2(n: int) -> int:
    return max(0, (n - 1).bit_length())


RF_DEPTH = NUM_REGS * MAX_WORDS
RF_AW = clog2(RF_DEPTH)


def expected_cycles(name: str, W: int, gf2m_mode: bool) -> int:
    return ISA.by_name[name].cycle_count(
        k=W * WORD // 64, W=W, Word=WORD, Lanes=LANES, NumRegs=NUM_REGS, MaxWords=MAX_WORDS,
        Pipelined=PIPELINED, gf2m=int(gf2m_mode))


def words_of(value: int, count: int) -> list[int]:
    return [(value >> (WORD * j)) & MASK for j in range(count)]


def value_of(words: list[int]) -> int:
    return sum(w << (WORD * j) for j, w in enumerate(words))


def nibble(c: int) -> int:
    return c & 0xF


# ----------------------------------------------------------------------------- the simulator
class SimMirror:
    """The instruction-level simulator fed the command stream montu_top would get, and a probe
    copy that finds which flags an instruction sets."""

    def __init__(self, rf: list[int]) -> None:
        kw = dict(word_bits=WORD, lanes=LANES, max_bits=MAX_BITS, num_regs=NUM_REGS,
                  pipelined=bool(PIPELINED))
        self.sim = Simulator(**kw)
        self.probe = Simulator(**kw)
        self.W = MAX_WORDS
        self.gf2m = False
        # every register, all MaxWords words, as the bench's register file holds them
        self.cmd("SETMMI", imm=MAX_BITS // 64, f=0)
        for r in range(NUM_REGS):
            for j in range(MAX_WORDS):
                self.cmd("WMMI", rf[r * MAX_WORDS + j], rd=r)

    def cmd(self, name: str, data: int = 0, **slots: int):
        rsp = self.sim.execute(encode(name, **slots), data)
        assert rsp.err == 0, f"simulator: {name} {slots} answered error {rsp.err}"
        return rsp

    def length(self, W: int, gf2m_mode: bool) -> None:
        if (W, gf2m_mode) != (self.W, self.gf2m):
            self.cmd("SETMMI", imm=W * WORD // 64, f=int(gf2m_mode))
            self.W, self.gf2m = W, gf2m_mode

    def write(self, reg: int, value: int) -> None:
        for word in words_of(value, self.W):
            self.cmd("WMMI", word, rd=reg)

    def run(self, insn: int):
        """(response, the flags `insn` sets). The flags it sets: run it also on a copy of the
        state with every flag inverted; a flag the instruction writes changes in exactly one of
        the two runs, the others in neither."""
        s, p = self.sim, self.probe
        p.k, p.gf2m, p.regs = s.k, s.gf2m, list(s.regs)
        p.modulus_reg, p.mont_const, p.window = s.modulus_reg, s.mont_const, s.window
        p.flags = s.flags ^ 0xF
        before = s.flags
        probe_after = p.execute(insn).flags
        rsp = s.execute(insn)
        return rsp, (rsp.flags ^ before) | (probe_after ^ before ^ 0xF)


# ----------------------------------------------------------------------------- the bench
class WordopBench:
    """montu_wordop with montu_top's register file and flag/window registers around it."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.rng = random.Random(SEED ^ 0xB0B)
        self.rf = [self.rng.getrandbits(WORD) for _ in range(RF_DEPTH)]
        self.model = SimMirror(self.rf)
        self.flags = 0          # montu_top's flags_q
        self.rm = 0             # montu_top's mreg_q: the register port n reads
        self.ops: dict[str, int] = {}

    # ------------------------------------------------------------------ register file
    def rf_addr(self, reg: int, idx: int) -> int:
        return (reg * MAX_WORDS + idx) & ((1 << RF_AW) - 1)

    def rf_read(self, reg: int, idx: int) -> int:
        addr = self.rf_addr(reg, idx)
        return self.rf[addr] if addr < RF_DEPTH else self.rng.getrandbits(WORD)

    def reg_full(self, reg: int) -> int:
        return value_of(self.rf[reg * MAX_WORDS:(reg + 1) * MAX_WORDS])

    def write(self, reg: int, value: int, W: int, gf2m_mode: bool) -> None:
        """What W WMMI commands do: the low W words of reg, in the bench and the simulator."""
        self.model.length(W, gf2m_mode)
        for j, word in enumerate(words_of(value, W)):
            self.rf[self.rf_addr(reg, j)] = word
        self.model.write(reg, value)

    def setmod(self, reg: int, W: int, gf2m_mode: bool) -> None:
        self.model.length(W, gf2m_mode)
        self.model.cmd("SETMOD", ra=reg)
        self.rm = reg

    def set_flags(self, flags: int) -> None:
        self.flags = flags
        self.model.sim.flags = flags

    # ------------------------------------------------------------------ engine
    async def reset(self) -> None:
        dut = self.dut
        for port, value in ((dut.start_i, 0), (dut.op_i, 0), (dut.gf2m_i, 0), (dut.s_i, 1),
                            (dut.cond_i, 0), (dut.shamt_i, 1), (dut.ca_i, 0), (dut.cb_i, 0)):
            port.value = value
        for port in (dut.a_i, dut.b_i, dut.n_i):
            port.value = self.rng.getrandbits(WORD)
        dut.rst_ni.value = 0
        Clock(dut.clk_i, PERIOD, unit="ns", impl="gpi").start()
        for _ in range(3):
            await RisingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)
        await self.idle(2)

    async def idle(self, cycles: int) -> None:
        """Idle cycles between commands: no write, no done_o, no flag write."""
        dut = self.dut
        for _ in range(cycles):
            await ReadOnly()
            assert not dut.we_o.value, "we_o while the engine is idle"
            assert not dut.done_o.value, "done_o while the engine is idle"
            assert not int(dut.flags_we_o.value), "flags_we_o while the engine is idle"
            await FallingEdge(dut.clk_i)

    async def run(self, name: str, W: int, gf2m_mode: bool, imm: int, regs: dict[str, int],
                  gap: int) -> tuple[int, list[tuple[int, int, int]], int, int, int]:
        """One instruction on the engine: (cycles from start_i to done_o, writes (wreg, idx, word)
        in order, flags_o, flags_we_o, win_o at done_o). Called at a falling edge."""
        dut = self.dut
        ra, rb, rd, rm = regs["ra"], regs["rb"], regs["rd"], self.rm
        dut.s_i.value = W
        dut.gf2m_i.value = int(gf2m_mode)
        await self.idle(gap)
        # montu_top: insn_q (op, imm) changes with the accept; cond_i is flags_q[imm[1:0]]
        dut.op_i.value = ISA.by_name[name].opcode
        dut.shamt_i.value = imm & 7
        dut.ca_i.value = imm & 0xF
        dut.cb_i.value = imm >> 4
        dut.cond_i.value = (self.flags >> (imm & 3)) & 1
        dut.start_i.value = 1
        h_idx, h_nidx, h_nra = dut.idx_o, dut.n_idx_o, dut.n_from_ra_o
        h_we, h_wreg, h_widx, h_wd = dut.we_o, dut.wreg_o, dut.widx_o, dut.wdata_o
        h_done = dut.done_o
        p_a, p_b, p_n = dut.a_i, dut.b_i, dut.n_i
        dest = {0: rd, 1: ra, 2: rb}
        limit = 4 * expected_cycles(name, W, gf2m_mode) + 50
        writes: list[tuple[int, int, int]] = []
        cycle = 0
        while True:
            await ReadOnly()
            # the register file's clock edge at the end of this cycle: reads see the old words
            idx = int(h_idx.value)
            nxt = (self.rf_read(ra, idx), self.rf_read(rb, idx),
                   self.rf_read(ra if h_nra.value else rm, int(h_nidx.value)))
            if h_we.value:
                wreg, widx, word = int(h_wreg.value), int(h_widx.value), int(h_wd.value)
                assert wreg in dest, f"{name} cycle {cycle}: wreg_o = {wreg}"
                assert widx < W, f"{name} cycle {cycle}: write of word {widx}, W = {W}"
                writes.append((wreg, widx, word))
                self.rf[self.rf_addr(dest[wreg], widx)] = word
            done = bool(h_done.value)
            if done:
                flags, flags_we, win = (int(dut.flags_o.value), int(dut.flags_we_o.value),
                                        int(dut.win_o.value))
            await FallingEdge(dut.clk_i)
            p_a.value, p_b.value, p_n.value = nxt
            if done:
                break
            cycle += 1
            assert cycle < limit, f"{name}: no done_o within {limit} cycles (W = {W})"
            if cycle == 1:
                dut.start_i.value = 0
        if cycle == 0:
            dut.start_i.value = 0       # LDZ / LDONE with W = 1: done in the start cycle
        # montu_top: flags_q <= (flags_q & ~we) | (flags & we) at done; SHLX loads X
        self.flags = (self.flags & ~flags_we) | (flags & flags_we)
        return cycle + 1, writes, flags, flags_we, win

    async def check(self, name: str, W: int, gf2m_mode: bool, *, regs: dict[str, int],
                    imm: int = 0, gap: int = 2, label: str = "") -> None:
        """Run `name` on the engine and the simulator with the registers as they are; compare."""
        model = self.model
        model.length(W, gf2m_mode)
        if name in MODULAR:
            assert model.sim.modulus_reg == self.rm, "bench: no valid modulus for a modular op"
        insn = encode(name, rd=regs["rd"], ra=regs["ra"], rb=regs["rb"], f=int(gf2m_mode),
                      imm=imm)
        what = (f"{label} {name} W={W} {'GF(2^m)' if gf2m_mode else 'GF(p)'} imm={imm:#x} "
                f"regs={regs} rm={self.rm} flags={self.flags:#x}")
        low = (1 << (W * WORD)) - 1
        inputs = {"ra": regs["ra"], "rb": regs["rb"], "rm": self.rm}
        what += "".join(f" {r}={self.reg_full(reg) & low:#x}" for r, reg in inputs.items())
        rsp, written = model.run(insn)
        cycles, writes, _, flags_we, win = await self.run(name, W, gf2m_mode, imm, regs, gap)
        self.ops[name] = self.ops.get(name, 0) + 1

        assert rsp.err == 0, f"{what}: simulator error {rsp.err}"
        formula = expected_cycles(name, W, gf2m_mode)
        assert cycles == formula, f"{what}: {cycles} cycles from start to done, formula {formula}"
        assert rsp.cycles == cycles, f"{what}: simulator {rsp.cycles} cycles, RTL {cycles}"
        assert flags_we == written, \
            f"{what}: flags_we_o {flags_we:#06b}, the instruction sets {written:#06b}"
        assert self.flags == rsp.flags, \
            f"{what}: flags {self.flags:#06b}, simulator {rsp.flags:#06b}"
        if name == "SHLX":
            assert win == model.sim.window, \
                f"{what}: win_o {win:#x}, simulator's X {model.sim.window:#x}"
        # each destination word exactly once
        ports = {"CMP": [], "CSWAP": [1, 2]}.get(name, [0])
        for port in ports:
            idxs = sorted(j for p, j, _ in writes if p == port)
            assert idxs == list(range(W)), f"{what}: words {idxs} of {WREG[port]} written"
        assert len(writes) == W * len(ports), f"{what}: {len(writes)} writes"
        # every register the instruction may touch, all MaxWords words, against the simulator
        for r in {regs["rd"], regs["ra"], regs["rb"], self.rm}:
            got, want = self.reg_full(r), model.sim.regs[r]
            if got != want:
                where = "its low W words" if (got ^ want) & low else "the words above W"
                raise AssertionError(f"{what}: register {r} differs from the simulator's in "
                                     f"{where}: low W words {got & low:#x}, simulator "
                                     f"{want & low:#x}")


# ----------------------------------------------------------------------------- operands
def sizes(*ws: int) -> list[int]:
    """Those of the lengths ws this configuration has."""
    return sorted({W for W in ws if 1 <= W <= MAX_WORDS and W % WORDS_PER_K == 0})


def lengths() -> list[int]:
    return sizes(1, 2, 3, 4, 5, 6, 8, MAX_WORDS)


def rand_modulus(rng: random.Random, L: int, gf2m_mode: bool) -> int:
    if gf2m_mode:
        deg = L - 1 - rng.randrange(min(WORD - 1, 4))
        return (1 << deg) | rng.getrandbits(deg) | 1
    return rng.getrandbits(L) | 1 | (1 << (L - 1))


def operand_pairs(rng: random.Random, name: str, n: int, L: int, gf2m_mode: bool
                  ) -> list[tuple[int, int]]:
    """Edge and random (ra, rb) for `name`: reduced and unreduced ones for the modular
    instructions, carry/borrow chains across words, equal and neighbouring values, sign bits."""
    top = (1 << L) - 1
    ones = MASK                                       # a word of ones: carries into the next
    if name in MODULAR:
        bound = (1 << gf2m.degree(n)) if gf2m_mode else n
        r1, r2 = rng.randrange(bound), rng.randrange(bound)
        return [(r1, r2), (0, 0), (bound - 1, bound - 1), (0, bound - 1), (bound - 1, 1),
                (r1, r1), (rng.getrandbits(L), rng.getrandbits(L)), (top, top)]
    r1, r2 = rng.getrandbits(L), rng.getrandbits(L)
    return [(r1, r2), (0, 0), (top, 1), (1, top), (top, top), (r1, r1), (r1, (r1 + 1) & top),
            ((r1 + 1) & top, r1), (ones, ones), (1 << (L - 1), 1 << (L - 1)),
            (top >> 1, 1), (rng.getrandbits(L) | (1 << (L - 1)), rng.getrandbits(L))]


def imm_for(rng: random.Random, name: str, case: int) -> int:
    """The imm slot: the window width (SHLX), two constants (MLIN), a flag number (CSWAP) in
    the low bits, random bits elsewhere (montu_top feeds imm to the engine for every op)."""
    if name == "SHLX":
        return 1 + case % 5
    if name == "MLIN":
        ca, cb = rng.randint(-3, 3), rng.randint(-3, 3)
        return nibble(ca) | nibble(cb) << 4
    return rng.getrandbits(8)


# ----------------------------------------------------------------------------- tests
@cocotb.test()
async def every_instruction(dut) -> None:
    """Every word instruction, both fields, every length, edge and random operands."""
    assert set(WORD_OPS) | set(OTHER_OPS) == set(ISA.by_name), \
        f"instructions placed nowhere: {set(ISA.by_name) - set(WORD_OPS) - set(OTHER_OPS)}"
    tb = WordopBench(dut)
    await tb.reset()
    rng = random.Random(SEED)
    regs = {"ra": 1, "rb": 2, "rd": 3}
    for g in (False, True):
        for W in lengths():
            L = W * WORD
            n = rand_modulus(rng, L, g)
            tb.write(4, n, W, g)
            tb.setmod(4, W, g)
            for name in WORD_OPS:
                pairs = operand_pairs(rng, name, n, L, g)
                if W > 8:
                    pairs = pairs[:3]
                for case, (a, b) in enumerate(pairs):
                    tb.write(1, a, W, g)
                    tb.write(2, b, W, g)
                    tb.set_flags(rng.getrandbits(4))
                    await tb.check(name, W, g, regs=regs, imm=imm_for(rng, name, case),
                                   label=f"case {case}")
    await tb.idle(2)
    dut._log.info(f"instructions run: {tb.ops}")


@cocotb.test()
async def mlin_all_constants(dut) -> None:
    """MLIN with every pair of constants in -3 .. 3, both fields, the extremes of V + o*N
    (0, N - 1, random reduced operands) and unreduced operands; every modulus kind."""
    tb = WordopBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 1)
    regs = {"ra": 5, "rb": 6, "rd": 7}
    ws = sizes(1, 2, 3, 4)[:2]
    for g in (False, True):
        for W in ws:
            L = W * WORD
            moduli = [rand_modulus(rng, L, g), (1 << L) - 1]
            if not g:
                moduli += [(1 << (L - 1)) | 1, 3]
            for n in moduli:
                tb.write(8, n, W, g)
                tb.setmod(8, W, g)
                bound = (1 << gf2m.degree(n)) if g else n
                top = (1 << L) - 1
                for ca in range(-3, 4):
                    for cb in range(-3, 4):
                        pairs = [(rng.randrange(bound), rng.randrange(bound)), (0, 0),
                                 (bound - 1, bound - 1), (0, bound - 1), (bound - 1, 0)]
                        if n == moduli[0] or not g:      # unreduced: E_0 < 0 or E_6 >= 0
                            pairs += [(top, top), (rng.getrandbits(L), rng.getrandbits(L))]
                        if g:
                            pairs = pairs[:2]
                        for a, b in pairs:
                            tb.write(5, a, W, g)
                            tb.write(6, b, W, g)
                            tb.set_flags(rng.getrandbits(4))
                            await tb.check("MLIN", W, g, regs=regs,
                                           imm=nibble(ca) | nibble(cb) << 4,
                                           label=f"ca={ca} cb={cb}")
    await tb.idle(2)
    dut._log.info(f"instructions run: {tb.ops}")


@cocotb.test()
async def register_aliasing(dut) -> None:
    """rd = ra, rd = rb, rd = the modulus register, ra = rb, and all one register, for every
    instruction: a word of rd is written only after every read of it (SHR1/SHRW read word
    j + 1 of ra; two-pass instructions reread every word in pass 2)."""
    tb = WordopBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 2)
    cases = [{"ra": 9, "rb": 10, "rd": 9}, {"ra": 9, "rb": 10, "rd": 10},
             {"ra": 9, "rb": 10, "rd": 11}, {"ra": 9, "rb": 9, "rd": 12},
             {"ra": 9, "rb": 9, "rd": 9}, {"ra": 11, "rb": 10, "rd": 9}]
    for g in (False, True):
        for W in sizes(1, 2, 3, 5, MAX_WORDS):
            L = W * WORD
            for name in WORD_OPS:
                for regs in cases:
                    n = rand_modulus(rng, L, g)
                    tb.write(11, n, W, g)
                    tb.setmod(11, W, g)
                    bound = (1 << gf2m.degree(n)) if (g and name in MODULAR) else \
                        (n if name in MODULAR else 1 << L)
                    for r in dict.fromkeys((regs["ra"], regs["rb"])):
                        if r != 11:                     # ra = the modulus register: ra = N
                            tb.write(r, rng.randrange(bound), W, g)
                    tb.set_flags(rng.getrandbits(4))
                    await tb.check(name, W, g, regs=regs, imm=imm_for(rng, name, rng.randrange(5)),
                                   label="alias")
    await tb.idle(2)
    dut._log.info(f"instructions run: {tb.ops}")


@cocotb.test()
async def random_stream(dut) -> None:
    """A random program: instructions on whatever the registers hold (results feed the next
    ones, flags only change by instructions), new values and moduli now and then, length and
    field changes, montu_top's shortest gap between commands (2 idle cycles) and longer ones."""
    tb = WordopBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 3)
    ws = [W for W in range(1, min(MAX_WORDS, 9) + 1) if W % WORDS_PER_K == 0]
    W, g = rng.choice(ws), False
    for step in range(int(os.environ.get("MONTU_WORDOP_MIX", "400"))):
        if step % 50 == 0:
            W, g = rng.choice(ws), rng.random() < 0.4
            for r in range(NUM_REGS):
                tb.write(r, rng.getrandbits(W * WORD), W, g)
        L = W * WORD
        name = rng.choice(WORD_OPS)
        regs = {"ra": rng.randrange(NUM_REGS), "rb": rng.randrange(NUM_REGS),
                "rd": rng.randrange(NUM_REGS)}
        if rng.random() < 0.1:
            tb.write(regs["ra"], rng.getrandbits(L), W, g)
        if name in MODULAR and tb.model.sim.modulus_reg is None:
            rm = rng.randrange(NUM_REGS)
            tb.write(rm, rand_modulus(rng, L, g), W, g)
            tb.setmod(rm, W, g)
            # modular operands mostly below N (a random register is as likely to be above)
            bound = (1 << gf2m.degree(tb.reg_full(rm) & ((1 << L) - 1))) if g else \
                tb.reg_full(rm) & ((1 << L) - 1)
            for r in {regs["ra"], regs["rb"]} - {rm}:
                tb.write(r, rng.randrange(bound), W, g)
        await tb.check(name, W, g, regs=regs, imm=imm_for(rng, name, rng.randrange(5)),
                       gap=rng.choice([2, 2, 2, 3, 6]), label=f"step {step}")
    await tb.idle(2)
    dut._log.info(f"instructions run: {tb.ops}")
