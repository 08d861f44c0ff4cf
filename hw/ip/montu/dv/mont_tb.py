"""cocotb benches of the Montgomery engine montu_mont (run by tests/hw/test_mont_cocotb.py).

The engine is driven through its own ports, as montu_top drives it for STARTMMI: a one-cycle
start_i with s_i (W), gf2m_i and the Montgomery constant w_i held, and the bench in the place of
montu_top's memories, modelled as the RTL builds them:
  - the register file (montu_regfile: three copies of montu_ram_1r1w written together) as one
    flat array of NumRegs x MaxWords words, word address r*MaxWords + idx truncated to its
    address width; a read port's data is the word at the address of the cycle before in which
    re_o was high (one cycle of latency, held while re_o is low, the old word when that address
    is written in the same cycle). x is read from ra on port a, y from rb on port b, n from the
    modulus register on port n; result words go to rd.
  - the scratch memory T (montu_ram_1r1w of MaxWords + 2 words), the same way.
Words that are not operand words (above W, other registers, T before it is written) hold random
junk, so a result that depends on a bubble's read shows up.

Every product is checked three ways:
  - the result against the exact STARTMMI semantics of instructions.yaml for any operands
    (mont_exact), and for reduced operands against x*y*R^-1 mod N (R = 2^L, x^L in GF(2^m)) and,
    where its operand rules hold, the bie2021 Alg. 2 golden model montu.arith.bie.mont_mul;
  - the result and the response's cycle count against montu.backends.sim.Simulator running
    SETMMI, WMMI, SETMOD, STARTMMI, RMMI on the same register contents (the bench's w_i is the
    simulator's SETMOD constant, checked against montgomery_word_constant);
  - the cycles from start_i to done_o, both counted (the cycle start_i is high is cycle 0,
    done_o's cycle the last), against ISA.by_name["STARTMMI"].cycle_count(...) exactly.
    montu_top raises mm_start in its decode cycle, the first cycle of the command (cyc_q = 0),
    and answers rsp_cycles = cyc_q + 1 from the cycle mm_done is high, so the instruction's
    count and the engine's count are the same number: the fixed offset is 0.
Beside that: done_o is a one-cycle pulse; rd gets each of its W words exactly once; nothing else
in the register file changes; no write of either memory happens while the engine is idle (in
montu_top the engine's write enables reach the memories whenever the last command was STARTMMI
or MMX). MMX is not the engine's business: montu_top only adds X to the port-b register number
(test_montu_cocotb.py runs it).

Lengths: W = L / Word with L = 64k, so with Word 32 every W is even (W = 1 and odd W exist only
with Word 64), as in montu_top.
"""

from __future__ import annotations

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from montu.arith import bie, gf2m
from montu.arith.bie_montmul import montgomery_word_constant
from montu.arith.field import Field
from montu.backends.sim import Simulator
from montu.isa import encode, load

CFG = json.loads(os.environ.get("MONTU_MONT_CFG", '{"Word": 64, "Lanes": 2, "MaxWords": 16}'))
WORD, LANES, MAX_WORDS = CFG["Word"], CFG["Lanes"], CFG["MaxWords"]
PIPELINED = int(CFG.get("Pipelined", 0))
NUM_REGS = 16                       # registers of the modelled register file (and the simulator)
MAX_BITS = MAX_WORDS * WORD         # a multiple of 64: MaxWords = MaxBits / Word
ISA = load()
SEED = int(os.environ.get("MONTU_SEED", "1"))
PERIOD = 10  # ns
MASK = (1 << WORD) - 1
WORDS_PER_K = 64 // WORD            # W is a multiple of this (W = 64k / Word)


def clog2(n: int) -> int:
    return max(0, (n - 1).bit_length())


# the shortest row period of montu_mont's schedule (its header): rows of W < MinP words are padded
MIN_P = {(1, 0): 4, (2, 0): 4, (4, 0): 8, (2, 1): 13, (4, 1): 26}[(LANES, PIPELINED)]
RF_DEPTH = NUM_REGS * MAX_WORDS
RF_AW = clog2(RF_DEPTH)
T_DEPTH = MAX_WORDS + 2
T_AW = clog2(T_DEPTH)


# ----------------------------------------------------------------------------- golden models
def poly_inv_mod_xk(n: int, k: int) -> int:
    """n(x)^-1 mod x^k for n with constant term 1 (one coefficient at a time)."""
    w, r = 0, 1
    for i in range(k):
        if (r >> i) & 1:
            w |= 1 << i
            r ^= n << i
    return w


def mont_exact(x: int, y: int, n: int, L: int, gf2m_mode: bool) -> int:
    """STARTMMI as instructions.yaml defines it for any operands: Z = (x*y + q*N) / 2^L with
    q = -x*y*N^-1 mod 2^L, rd = Z - N if Z >= N else Z truncated to L bits (GF(p)); Z =
    (x*y + q*N) / x^L with q = x*y*N^-1 mod x^L, no subtraction (GF(2^m))."""
    R = 1 << L
    if gf2m_mode:
        xy = gf2m.clmul(x, y)
        q = gf2m.clmul(xy & (R - 1), poly_inv_mod_xk(n, L)) & (R - 1)
        return (xy ^ gf2m.clmul(q, n)) >> L
    q = (-x * y * pow(n, -1, R)) % R
    z = (x * y + q * n) >> L
    return (z - n if z >= n else z) & (R - 1)


def alg2_golden(x: int, y: int, n: int, L: int, gf2m_mode: bool) -> int | None:
    """bie2021 Alg. 2 (montu.arith.bie.mont_mul) where its operand rules hold and its word count
    (from the modulus length) is W; None where they do not."""
    if gf2m_mode:
        deg = gf2m.degree(n)
        if not (n & 1 and deg >= 1 and -(-deg // WORD) * WORD == L
                and gf2m.degree(x) < deg and gf2m.degree(y) < deg):
            return None
        field = Field.GF2M
    else:
        if not (n & 1 and n >= 3 and -(-n.bit_length() // WORD) * WORD == L and x < n and y < n):
            return None
        field = Field.GFP
    z, _ = bie.mont_mul(x, y, n, field=field, word_bits=WORD)
    return z


def mont_property(x: int, y: int, n: int, L: int, gf2m_mode: bool) -> int | None:
    """The algebra for reduced operands: x*y*2^-L mod N (GF(p), x, y < N), x*y*x^-L mod N(x)
    (GF(2^m), deg x, deg y < deg N); None for other operands (or N = 1, degree 0)."""
    if gf2m_mode:
        deg = gf2m.degree(n)
        if deg < 1 or gf2m.degree(x) >= deg or gf2m.degree(y) >= deg:
            return None
        return gf2m.mulmod(gf2m.clmul(x, y), gf2m.inv(1 << L, n), n)
    if n < 2 or x >= n or y >= n:
        return None
    return x * y * pow(2, -L, n) % n


def expected_cycles(W: int, gf2m_mode: bool) -> int:
    return ISA.by_name["STARTMMI"].cycle_count(
        k=W * WORD // 64, W=W, Word=WORD, Lanes=LANES, NumRegs=NUM_REGS, MaxWords=MAX_WORDS,
        Pipelined=PIPELINED, gf2m=int(gf2m_mode))


def words_of(value: int, count: int) -> list[int]:
    return [(value >> (WORD * j)) & MASK for j in range(count)]


def value_of(words: list[int]) -> int:
    return sum(w << (WORD * j) for j, w in enumerate(words))


# ----------------------------------------------------------------------------- the simulator
class SimMirror:
    """The instruction-level simulator fed the command stream montu_top would get."""

    def __init__(self) -> None:
        self.sim = Simulator(word_bits=WORD, lanes=LANES, max_bits=MAX_BITS, num_regs=NUM_REGS,
                             pipelined=bool(PIPELINED))

    def cmd(self, name: str, data: int = 0, **slots: int):
        rsp = self.sim.execute(encode(name, **slots), data)
        assert rsp.err == 0, f"simulator: {name} {slots} answered error {rsp.err}"
        return rsp

    def startmmi(self, x: int, y: int, n: int, W: int, gf2m_mode: bool, regs: dict[str, int],
                 ) -> tuple[int, int, int]:
        """(result, response cycles, Montgomery constant w) of STARTMMI on the simulator."""
        k = W * WORD // 64
        self.cmd("SETMMI", imm=k, f=int(gf2m_mode))
        # in register order, so that aliased registers end up with the same value as in the RTL
        for name, value in (("ra", x), ("rb", y), ("rm", n)):
            for word in words_of(value, W):
                self.cmd("WMMI", word, rd=regs[name])
        self.cmd("SETMOD", ra=regs["rm"])
        w = self.sim.mont_const
        rsp = self.cmd("STARTMMI", rd=regs["rd"], ra=regs["ra"], rb=regs["rb"])
        result = value_of([self.cmd("RMMI", ra=regs["rd"]).data for _ in range(W)])
        return result, rsp.cycles, w


# ----------------------------------------------------------------------------- the bench
class MontBench:
    """montu_mont with montu_top's register file and scratch memory T around it."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.rng = random.Random(SEED ^ 0x5EED)
        self.rf = [self.rng.getrandbits(WORD) for _ in range(RF_DEPTH)]
        self.t = [self.rng.getrandbits(WORD) for _ in range(T_DEPTH)]
        self.sim = SimMirror()
        self.products = 0
        # montu_top's register numbers of the command (ra, rb, rd, modulus register)
        self.regs = {"ra": 1, "rb": 2, "rd": 3, "rm": 4}

    # ------------------------------------------------------------------ memories
    def rf_addr(self, reg: int, idx: int) -> int:
        return (reg * MAX_WORDS + idx) & ((1 << RF_AW) - 1)

    def rf_read(self, reg: int, idx: int) -> int:
        addr = self.rf_addr(reg, idx)
        return self.rf[addr] if addr < RF_DEPTH else self.rng.getrandbits(WORD)

    def t_read(self, addr: int) -> int:
        return self.t[addr] if addr < T_DEPTH else self.rng.getrandbits(WORD)

    def load(self, reg: int, value: int, W: int) -> None:
        for j, word in enumerate(words_of(value, W)):
            self.rf[self.rf_addr(reg, j)] = word

    # ------------------------------------------------------------------ engine
    async def reset(self) -> None:
        dut = self.dut
        dut.start_i.value = 0
        dut.gf2m_i.value = 0
        dut.s_i.value = 1
        dut.w_i.value = 0
        for port in (dut.x_i, dut.y_i, dut.n_i, dut.t_rdata_i):
            port.value = self.rng.getrandbits(WORD)
        dut.rst_ni.value = 0
        Clock(dut.clk_i, PERIOD, unit="ns", impl="gpi").start()
        for _ in range(3):
            await RisingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)
        await self.idle(2)

    async def idle(self, cycles: int) -> None:
        """Idle cycles between commands: the engine must write nothing (montu_top's write muxes
        still select it until the next command is decoded)."""
        dut = self.dut
        for _ in range(cycles):
            await ReadOnly()
            assert not dut.rf_we_o.value, "rf_we_o while the engine is idle"
            assert not dut.t_we_o.value, "t_we_o while the engine is idle"
            assert not dut.done_o.value, "done_o while the engine is idle"
            await FallingEdge(dut.clk_i)

    async def run(self, W: int, gf2m_mode: bool, w: int, gap: int = 2
                  ) -> tuple[int, dict[int, int]]:
        """One STARTMMI on the engine: returns (cycles from start_i to done_o, {idx: word} written
        to rd). Called at a falling edge; s_i, gf2m_i and w_i change `gap` cycles before start_i
        (montu_top: SETMMI and SETMOD are earlier commands; the engine is idle at least two
        cycles between two of its commands: StResp and StIdle)."""
        dut = self.dut
        ra, rb, rd, rm = (self.regs[r] for r in ("ra", "rb", "rd", "rm"))
        dut.s_i.value = W
        dut.gf2m_i.value = int(gf2m_mode)
        dut.w_i.value = w
        await self.idle(gap)
        h_re, h_xi, h_yi, h_ni = dut.re_o, dut.x_idx_o, dut.y_idx_o, dut.n_idx_o
        h_tre, h_tra, h_twe, h_twa, h_twd = (dut.t_re_o, dut.t_raddr_o, dut.t_we_o, dut.t_waddr_o,
                                             dut.t_wdata_o)
        h_we, h_widx, h_wd, h_done = dut.rf_we_o, dut.rf_idx_o, dut.rf_wdata_o, dut.done_o
        p_x, p_y, p_n, p_t = dut.x_i, dut.y_i, dut.n_i, dut.t_rdata_i
        limit = 4 * expected_cycles(W, gf2m_mode) + 100
        writes: dict[int, int] = {}
        dut.start_i.value = 1
        nxt: tuple[int, int, int] | None = None   # read data for the next cycle (port a, b, n)
        nxt_t: int | None = None
        cycle = 0
        while True:
            await ReadOnly()
            # the memories' clock edge at the end of this cycle: reads see the old words
            if h_re.value:
                nxt = (self.rf_read(ra, int(h_xi.value)), self.rf_read(rb, int(h_yi.value)),
                       self.rf_read(rm, int(h_ni.value)))
            if h_tre.value:
                nxt_t = self.t_read(int(h_tra.value))
            if h_twe.value:
                addr = int(h_twa.value)
                assert addr < T_DEPTH, f"cycle {cycle}: T write at {addr} >= {T_DEPTH}"
                self.t[addr] = int(h_twd.value)
            if h_we.value:
                idx = int(h_widx.value)
                assert idx < W, f"cycle {cycle}: write of rd word {idx}, W = {W}"
                assert idx not in writes, f"cycle {cycle}: rd word {idx} written twice"
                writes[idx] = int(h_wd.value)
                self.rf[self.rf_addr(rd, idx)] = writes[idx]
            done = bool(h_done.value)
            await FallingEdge(dut.clk_i)
            if done:
                break
            cycle += 1
            assert cycle < limit, f"no done_o within {limit} cycles (W = {W})"
            if cycle == 1:
                dut.start_i.value = 0
            if nxt is not None:
                p_x.value, p_y.value, p_n.value = nxt
                nxt = None
            if nxt_t is not None:
                p_t.value = nxt_t
                nxt_t = None
        # read data still pending from done_o's cycle reaches the ports as montu_top's would;
        # the next cycles are idle() (which also checks that done_o was a one-cycle pulse)
        if nxt is not None:
            p_x.value, p_y.value, p_n.value = nxt
        if nxt_t is not None:
            p_t.value = nxt_t
        return cycle + 1, writes

    async def check(self, x: int, y: int, n: int, W: int, gf2m_mode: bool, label: str = "",
                    regs: dict[str, int] | None = None, gap: int = 2) -> int:
        """One product, checked against the golden models, the simulator and the formula."""
        L = W * WORD
        assert W % WORDS_PER_K == 0 and 1 <= W <= MAX_WORDS, f"bench: W = {W} is not a length"
        self.regs = regs or {"ra": 1, "rb": 2, "rd": 3, "rm": 4}
        what = (f"{label} W={W} {'GF(2^m)' if gf2m_mode else 'GF(p)'} regs={self.regs} "
                f"x={x:#x} y={y:#x} n={n:#x}")
        # the simulator first (its SETMOD gives w_i), then the same register writes in the bench
        sim_z, sim_cycles, w = self.sim.startmmi(x, y, n, W, gf2m_mode, self.regs)
        field = Field.GF2M if gf2m_mode else Field.GFP
        assert w == montgomery_word_constant(n & MASK, field, WORD), f"{what}: SETMOD constant"
        for name, value in (("ra", x), ("rb", y), ("rm", n)):
            self.load(self.regs[name], value, W)
        before = list(self.rf)
        cycles, writes = await self.run(W, gf2m_mode, w, gap)
        self.products += 1

        assert sorted(writes) == list(range(W)), f"{what}: rd words written {sorted(writes)}"
        got = value_of([writes[j] for j in range(W)])
        want = mont_exact(x, y, n, L, gf2m_mode)
        assert got == want, f"{what}: RTL {got:#x} != exact STARTMMI {want:#x}"
        prop = mont_property(x, y, n, L, gf2m_mode)
        assert prop is None or prop == want, f"{what}: x*y*R^-1 mod N {prop:#x} != exact {want:#x}"
        alg2 = alg2_golden(x, y, n, L, gf2m_mode)
        assert alg2 is None or alg2 == want, f"{what}: Alg. 2 model {alg2:#x} != exact {want:#x}"
        assert sim_z == got, f"{what}: simulator {sim_z:#x} != RTL {got:#x}"
        formula = expected_cycles(W, gf2m_mode)
        assert cycles == formula, f"{what}: {cycles} cycles from start to done, formula {formula}"
        assert sim_cycles == cycles, f"{what}: simulator {sim_cycles} cycles, RTL {cycles}"
        # nothing but rd's low W words changed
        rd_addrs = {self.rf_addr(self.regs["rd"], j) for j in range(W)}
        changed = [a for a in range(RF_DEPTH) if self.rf[a] != before[a] and a not in rd_addrs]
        assert not changed, f"{what}: register-file words {changed} changed"
        return got


# ----------------------------------------------------------------------------- operands
def lengths() -> list[int]:
    """W = 1, 2, 3, odd ones, every row-period boundary of the configuration (P = max(W, MinP):
    forwarded at MinP and MinP + 1, through T above), and MaxWords."""
    return sizes(1, 2, 3, 4, 5, 7, 9, MIN_P - 1, MIN_P, MIN_P + 1, MIN_P + 2, 2 * MIN_P + 1,
                 MAX_WORDS)


def sizes(*ws: int) -> list[int]:
    """Those of the lengths ws this configuration has."""
    return sorted({W for W in ws if 1 <= W <= MAX_WORDS and W % WORDS_PER_K == 0})


def rand_gfp_modulus(rng: random.Random, L: int) -> int:
    return rng.getrandbits(L) | 1 | (1 << (L - 1))


def rand_poly_modulus(rng: random.Random, L: int) -> int:
    deg = L - 1 - rng.randrange(min(WORD - 1, 4))
    return (1 << deg) | rng.getrandbits(deg) | 1


# ----------------------------------------------------------------------------- tests
@cocotb.test()
async def gfp_edges(dut) -> None:
    """GF(p), every length: random and all-ones-like moduli with the top bit set; operands 0, 1,
    N - 1, random below N, and unreduced ones (2^L - 1, > N) for the exact semantics."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED)
    for W in lengths():
        L = W * WORD
        top = (1 << L) - 1
        moduli = [rand_gfp_modulus(rng, L), top, top - 2, (1 << (L - 1)) | 1]
        for i, n in enumerate(moduli):
            r1, r2 = rng.randrange(n), rng.randrange(n)
            pairs = [(r1, r2), (0, r2), (1, r2), (n - 1, n - 1), (n - 1, 1)]
            if W > 8:                      # long products: fewer of them
                pairs = pairs[:1] + pairs[3:4]
            if i == 0:
                pairs.append((top, top))   # unreduced: Z up to 2^L + N
            if i >= 2 and W > 8:
                pairs = pairs[:1]
            for x, y in pairs:
                await tb.check(x, y, n, W, False, label=f"gfp n#{i}")
    await tb.idle(2)
    dut._log.info(f"{tb.products} GF(p) products")


@cocotb.test()
async def gfp_small_moduli(dut) -> None:
    """GF(p) with moduli far below 2^L (N = 1, 3, one word, up to L - Word bits) and operands
    above N: the exact semantics of STARTMMI outside the reduced range."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 1)
    for W in sizes(WORDS_PER_K, 3, 4, 9):
        L = W * WORD
        for n in (1, 3, rng.getrandbits(WORD) | 1, rng.getrandbits(max(1, L - WORD)) | 1):
            x, y = rng.getrandbits(L), rng.randrange(n) if n > 1 else 0
            await tb.check(x, y, n, W, False, label="small n")
            await tb.check(rng.getrandbits(L), rng.getrandbits(L), n, W, False, label="small n")
    await tb.idle(2)


@cocotb.test()
async def gf2m_products(dut) -> None:
    """GF(2^m): the NIST reduction polynomials, random moduli of degree L-1 .. L-4, the all-ones
    polynomial, x^(L-1) + 1; operands 0, 1, random of lower degree, unreduced ones."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 2)
    for m, f in gf2m.NIST_POLYNOMIALS.items():
        W = -(-(m + 1) // WORD)
        W += -W % WORDS_PER_K
        if W <= MAX_WORDS:
            for _ in range(2):
                await tb.check(rng.getrandbits(m), rng.getrandbits(m), f, W, True, label=f"nist{m}")
    for W in lengths():
        L = W * WORD
        moduli = [rand_poly_modulus(rng, L), (1 << L) - 1, (1 << (L - 1)) | 1]
        for i, n in enumerate(moduli):
            deg = gf2m.degree(n)
            r1, r2 = rng.getrandbits(deg), rng.getrandbits(deg)
            pairs = [(r1, r2), (0, r2), (1, r2), (rng.getrandbits(L), rng.getrandbits(L))]
            if W > 8:
                pairs = pairs[:1] + pairs[3:] if i == 0 else pairs[:1]
            for x, y in pairs:
                await tb.check(x, y, n, W, True, label=f"gf2m n#{i}")
    await tb.idle(2)
    dut._log.info(f"{tb.products} GF(2^m) products")


@cocotb.test()
async def register_aliasing(dut) -> None:
    """rd = ra, rd = rb, rd = the modulus register, ra = rb (squaring), all one register: rd's
    words are written only after every read of them (montu_top allows any of these)."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 3)
    cases = [{"ra": 5, "rb": 6, "rd": 5, "rm": 7}, {"ra": 5, "rb": 6, "rd": 6, "rm": 7},
             {"ra": 5, "rb": 6, "rd": 7, "rm": 7}, {"ra": 5, "rb": 5, "rd": 8, "rm": 7},
             {"ra": 5, "rb": 5, "rd": 5, "rm": 7}]
    for W in sizes(WORDS_PER_K, 3, 4, 5, 9, 14, 27):
        L = W * WORD
        for g in (False, True):
            n = rand_poly_modulus(rng, L) if g else rand_gfp_modulus(rng, L)
            for regs in cases:
                x = rng.getrandbits(gf2m.degree(n)) if g else rng.randrange(n)
                y = x if regs["ra"] == regs["rb"] else (rng.getrandbits(gf2m.degree(n)) if g
                                                        else rng.randrange(n))
                await tb.check(x, y, n, W, g, label="alias", regs=regs)
    await tb.idle(2)


@cocotb.test()
async def random_mix(dut) -> None:
    """Random lengths, fields, operands and registers back to back, with montu_top's shortest
    gap between two products (2 idle cycles) and longer ones."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 4)
    ws = sizes(*range(1, max(2 * MIN_P + 2, 16) + 1))
    for _ in range(int(os.environ.get("MONTU_MONT_MIX", "40"))):
        W = rng.choice(ws)
        L = W * WORD
        g = rng.random() < 0.4
        n = rand_poly_modulus(rng, L) if g else rand_gfp_modulus(rng, L)
        bound = (1 << gf2m.degree(n)) if g else n
        x = rng.randrange(bound) if rng.random() < 0.8 else rng.getrandbits(L)
        y = rng.randrange(bound) if rng.random() < 0.8 else rng.getrandbits(L)
        regs = dict(zip(("ra", "rb", "rd", "rm"), rng.sample(range(NUM_REGS), 4)))
        if rng.random() < 0.3:
            regs["rd"] = rng.choice([regs["ra"], regs["rb"], regs["rm"]])
        if rng.random() < 0.2:
            regs["rb"], y = regs["ra"], x
        await tb.check(x, y, n, W, g, label="mix", regs=regs, gap=rng.choice([2, 2, 3, 7]))
    await tb.idle(2)
