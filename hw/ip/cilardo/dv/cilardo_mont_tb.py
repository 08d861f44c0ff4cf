"""cocotb bench of cilardo_mont, the STARTMMI/MMX engine of montu_top with MulCore = 1 (run by
tests/hw/test_cilardo_cocotb.py).

The engine is driven on its own ports as montu_top drives it (hw/ip/montu/dv/mont_tb.py's
timing): a one-cycle start_i with s_i (W) and gf2m_i held, the register file modelled as one
flat array of NumRegs x MaxWords words with one cycle of read latency on ports a (x = ra), b
(y = rb) and n (the modulus register), rd written through the write port, and the scratch
memory T of MaxWords + 2 words; words that are not operand words are random junk.
Every product is checked against:
  - the STARTMMI semantics of the cilardo engine: P = fios_rows(A, B, N, field, words=W)[-1].p,
    rd = fios_correct(P, N) mod 2^(64W) (GF(p)), rd = P (GF(2^m)); for A, B < N also
    A*B*2^(-64W) mod N (fully reduced);
  - montu.backends.sim.Simulator with UnitConfig(engine="cilardo") (result and response cycles),
    running SETMMI/WMMI/SETMOD/STARTMMI/RMMI on the same register contents;
  - the cycles from start_i to done_o (both counted) against
    ISA.by_name["STARTMMI"].cycle_count("cilardo", W=...), exactly.
Beside that: done_o is a one-cycle pulse, rd gets each of its W words exactly once, nothing else
in the register file changes, nothing is written while idle; and a reset in the middle of a
product leaves an engine that computes the next one correctly.
"""

from __future__ import annotations

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from cilardo_common import startmmi_semantics
from montu.arith import gf2m
from montu.isa import encode, load

CFG = json.loads(os.environ.get("CILARDO_CFG", '{"Word": 64, "MaxWords": 10}'))
WORD, MAX_WORDS = CFG["Word"], CFG["MaxWords"]
ALL = bool(os.environ.get("MONTU_RTL_ALL"))
NUM_REGS = 16
ISA = load()
SEED = int(os.environ.get("MONTU_SEED", "1"))
MASK = (1 << WORD) - 1
RF_DEPTH = NUM_REGS * MAX_WORDS
RF_AW = max(0, (RF_DEPTH - 1).bit_length())
T_DEPTH = MAX_WORDS + 2


def expected_cycles(W: int, gf2m_mode: bool) -> int:
    return ISA.by_name["STARTMMI"].cycle_count(
        "cilardo", k=W, W=W, Word=WORD, Lanes=2, NumRegs=NUM_REGS, MaxWords=MAX_WORDS,
        Pipelined=0, gf2m=int(gf2m_mode))


def words_of(value: int, count: int) -> list[int]:
    return [(value >> (WORD * j)) & MASK for j in range(count)]


class SimMirror:
    def __init__(self) -> None:
        from montu.backends.sim import Simulator
        from montu.config import UnitConfig
        self.sim = Simulator(config=UnitConfig(word_bits=WORD, lanes=2, max_bits=MAX_WORDS * WORD,
                                               num_regs=NUM_REGS, engine="cilardo"))

    def cmd(self, name: str, data: int = 0, **slots: int):
        rsp = self.sim.execute(encode(name, **slots), data)
        assert rsp.err == 0, f"simulator: {name} {slots} answered error {rsp.err}"
        return rsp

    def startmmi(self, x: int, y: int, n: int, W: int, gf2m_mode: bool, regs: dict[str, int]):
        self.cmd("SETMMI", imm=W, f=int(gf2m_mode))
        for name, value in (("ra", x), ("rb", y), ("rm", n)):
            for word in words_of(value, W):
                self.cmd("WMMI", word, rd=regs[name])
        self.cmd("SETMOD", ra=regs["rm"])
        rsp = self.cmd("STARTMMI", rd=regs["rd"], ra=regs["ra"], rb=regs["rb"])
        result = sum(self.cmd("RMMI", ra=regs["rd"]).data << (WORD * j) for j in range(W))
        return result, rsp.cycles


class MontBench:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.rng = random.Random(SEED ^ 0xC11A)
        self.rf = [self.rng.getrandbits(WORD) for _ in range(RF_DEPTH)]
        self.t = [self.rng.getrandbits(WORD) for _ in range(T_DEPTH)]
        self.sim = SimMirror()
        self.products = 0
        self.regs = {"ra": 1, "rb": 2, "rd": 3, "rm": 4}

    def rf_addr(self, reg: int, idx: int) -> int:
        return (reg * MAX_WORDS + idx) & ((1 << RF_AW) - 1)

    def rf_read(self, reg: int, idx: int) -> int:
        addr = self.rf_addr(reg, idx)
        return self.rf[addr] if addr < RF_DEPTH else self.rng.getrandbits(WORD)

    def load(self, reg: int, value: int, W: int) -> None:
        for j, word in enumerate(words_of(value, W)):
            self.rf[self.rf_addr(reg, j)] = word

    async def reset(self, first: bool = True) -> None:
        dut = self.dut
        dut.start_i.value = 0
        dut.gf2m_i.value = 0
        dut.s_i.value = 1
        for port in (dut.x_i, dut.y_i, dut.n_i, dut.t_rdata_i):
            port.value = self.rng.getrandbits(WORD)
        dut.rst_ni.value = 0
        if first:
            Clock(dut.clk_i, 10, unit="ns", impl="gpi").start()
        for _ in range(3):
            await RisingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)
        await self.idle(2)

    async def idle(self, cycles: int) -> None:
        dut = self.dut
        for _ in range(cycles):
            await ReadOnly()
            assert not dut.rf_we_o.value, "rf_we_o while the engine is idle"
            assert not dut.t_we_o.value, "t_we_o while the engine is idle"
            assert not dut.done_o.value, "done_o while the engine is idle"
            await FallingEdge(dut.clk_i)

    async def run(self, W: int, gf2m_mode: bool, gap: int = 2, stop_after: int | None = None
                  ) -> tuple[int, dict[int, int]]:
        """One STARTMMI: (cycles from start_i to done_o, {idx: word} written to rd). With
        stop_after, return after that many cycles (for a reset in the middle)."""
        dut = self.dut
        ra, rb, rd, rm = (self.regs[r] for r in ("ra", "rb", "rd", "rm"))
        dut.s_i.value = W
        dut.gf2m_i.value = int(gf2m_mode)
        await self.idle(gap)
        limit = 4 * expected_cycles(W, gf2m_mode) + 100
        writes: dict[int, int] = {}
        dut.start_i.value = 1
        nxt = nxt_t = None
        cycle = 0
        while True:
            await ReadOnly()
            if dut.re_o.value:
                nxt = (self.rf_read(ra, int(dut.x_idx_o.value)),
                       self.rf_read(rb, int(dut.y_idx_o.value)),
                       self.rf_read(rm, int(dut.n_idx_o.value)))
            if dut.t_re_o.value:
                addr = int(dut.t_raddr_o.value)
                nxt_t = self.t[addr] if addr < T_DEPTH else self.rng.getrandbits(WORD)
            if dut.t_we_o.value:
                addr = int(dut.t_waddr_o.value)
                assert addr < T_DEPTH, f"cycle {cycle}: T write at {addr}"
                self.t[addr] = int(dut.t_wdata_o.value)
            if dut.rf_we_o.value:
                idx = int(dut.rf_idx_o.value)
                assert idx < W, f"cycle {cycle}: write of rd word {idx}, W = {W}"
                assert idx not in writes, f"cycle {cycle}: rd word {idx} written twice"
                writes[idx] = int(dut.rf_wdata_o.value)
                self.rf[self.rf_addr(rd, idx)] = writes[idx]
            done = bool(dut.done_o.value)
            await FallingEdge(dut.clk_i)
            if done:
                break
            cycle += 1
            if stop_after is not None and cycle == stop_after:
                return cycle, writes
            assert cycle < limit, f"no done_o within {limit} cycles (W = {W})"
            if cycle == 1:
                dut.start_i.value = 0
            if nxt is not None:
                dut.x_i.value, dut.y_i.value, dut.n_i.value = nxt
                nxt = None
            if nxt_t is not None:
                dut.t_rdata_i.value = nxt_t
                nxt_t = None
        if nxt is not None:
            dut.x_i.value, dut.y_i.value, dut.n_i.value = nxt
        if nxt_t is not None:
            dut.t_rdata_i.value = nxt_t
        return cycle + 1, writes

    async def check(self, x: int, y: int, n: int, W: int, gf2m_mode: bool, label: str = "",
                    regs: dict[str, int] | None = None, gap: int = 2) -> int:
        L = W * WORD
        self.regs = regs or {"ra": 1, "rb": 2, "rd": 3, "rm": 4}
        what = (f"{label} W={W} {'GF(2^m)' if gf2m_mode else 'GF(p)'} regs={self.regs} "
                f"x={x:#x} y={y:#x} n={n:#x}")
        for name, value in (("ra", x), ("rb", y), ("rm", n)):
            self.load(self.regs[name], value, W)
        # operands as the engine reads them (aliased registers hold the last value loaded)
        x_rd = sum(self.rf_read(self.regs["ra"], j) << (WORD * j) for j in range(W))
        y_rd = sum(self.rf_read(self.regs["rb"], j) << (WORD * j) for j in range(W))
        n_rd = sum(self.rf_read(self.regs["rm"], j) << (WORD * j) for j in range(W))
        before = list(self.rf)
        cycles, writes = await self.run(W, gf2m_mode, gap)
        self.products += 1
        assert sorted(writes) == list(range(W)), f"{what}: rd words written {sorted(writes)}"
        got = sum(writes[j] << (WORD * j) for j in range(W))
        want, p = startmmi_semantics(x_rd, y_rd, n_rd, W, gf2m_mode, WORD)
        assert got == want, f"{what}: RTL {got:#x} != semantics {want:#x} (P = {p:#x})"
        if not gf2m_mode and n_rd > 1 and x_rd < n_rd and y_rd < n_rd:
            assert got == x_rd * y_rd * pow(2, -L, n_rd) % n_rd, f"{what}: not x*y*R^-1 mod N"
        if gf2m_mode and gf2m.degree(n_rd) >= 1 and max(gf2m.degree(x_rd), gf2m.degree(y_rd)) \
                < gf2m.degree(n_rd):
            assert gf2m.mulmod(got, 1, n_rd) == gf2m.mulmod(
                gf2m.clmul(x_rd, y_rd), gf2m.inv(1 << L, n_rd), n_rd), f"{what}: not x*y*x^-L"
        formula = expected_cycles(W, gf2m_mode)
        assert cycles == formula, f"{what}: {cycles} cycles from start to done, formula {formula}"
        sim_z, sim_cycles = self.sim.startmmi(x_rd, y_rd, n_rd, W, gf2m_mode, self.regs)
        assert sim_z == got, f"{what}: simulator {sim_z:#x} != RTL {got:#x}"
        assert sim_cycles == cycles, f"{what}: simulator {sim_cycles} cycles, RTL {cycles}"
        rd_addrs = {self.rf_addr(self.regs["rd"], j) for j in range(W)}
        changed = [a for a in range(RF_DEPTH) if self.rf[a] != before[a] and a not in rd_addrs]
        assert not changed, f"{what}: register-file words {changed} changed"
        return got


def lengths() -> list[int]:
    ws = range(1, MAX_WORDS + 1) if ALL else (1, 2, 3, 4, 5, 7, 8, 9, 10, MAX_WORDS)
    return sorted({W for W in ws if 1 <= W <= MAX_WORDS})


def rand_gfp_modulus(rng: random.Random, L: int) -> int:
    return rng.getrandbits(L) | 1 | (1 << (L - 1))


def rand_poly_modulus(rng: random.Random, L: int) -> int:
    deg = L - 1 - rng.randrange(4)
    return (1 << deg) | rng.getrandbits(deg) | 1


@cocotb.test()
async def gfp_edges(dut) -> None:
    """GF(p), every length: random, all-ones and 2^(L-1)+1 moduli; operands 0, 1, N-1, random
    below N, and any L-bit operands (P >= N and negative P: both corrections)."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED)
    for W in lengths():
        L = W * WORD
        top = (1 << L) - 1
        for i, n in enumerate([rand_gfp_modulus(rng, L), top, (1 << (L - 1)) | 1]):
            r1, r2 = rng.randrange(n), rng.randrange(n)
            pairs = [(r1, r2), (0, r2), (1, r2), (n - 1, n - 1), (top, top),
                     (rng.getrandbits(L), rng.getrandbits(L))]
            if W > 5 and not ALL:
                pairs = [pairs[0], pairs[3], pairs[4]] if i == 0 else pairs[:1]
            for x, y in pairs:
                await tb.check(x, y, n, W, False, label=f"gfp n#{i}")
    await tb.idle(2)
    dut._log.info(f"{tb.products} GF(p) products")


@cocotb.test()
async def gfp_small_moduli(dut) -> None:
    """GF(p) with N = 1, 3, one-word N and N far below 2^L, operands above N."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 1)
    for W in sorted({1, 3, min(9, MAX_WORDS)}):
        L = W * WORD
        for n in (1, 3, rng.getrandbits(WORD) | 1, rng.getrandbits(max(2, L - WORD)) | 1):
            await tb.check(rng.getrandbits(L), rng.getrandbits(L), n, W, False, label="small n")
            await tb.check((1 << L) - 1, (1 << L) - 1, n, W, False, label="small n")


@cocotb.test()
async def gf2m_products(dut) -> None:
    """GF(2^m): NIST polynomials, random polynomials, all-ones, operands 0, 1, random, unreduced."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 2)
    for m, f in gf2m.NIST_POLYNOMIALS.items():
        W = -(-(m + 1) // WORD)
        if W <= MAX_WORDS:
            await tb.check(rng.getrandbits(m), rng.getrandbits(m), f, W, True, label=f"nist{m}")
    for W in lengths():
        L = W * WORD
        for i, n in enumerate([rand_poly_modulus(rng, L), (1 << L) - 1]):
            deg = gf2m.degree(n)
            pairs = [(rng.getrandbits(deg), rng.getrandbits(deg)), (0, 1),
                     (rng.getrandbits(L), rng.getrandbits(L))]
            for x, y in (pairs if (W <= 5 or ALL) and i == 0 else pairs[:1]):
                await tb.check(x, y, n, W, True, label=f"gf2m n#{i}")


@cocotb.test()
async def register_aliasing_and_mix(dut) -> None:
    """rd = ra, rb or the modulus register, ra = rb, random registers and gaps, both fields."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 3)
    cases = [{"ra": 5, "rb": 6, "rd": 5, "rm": 7}, {"ra": 5, "rb": 6, "rd": 6, "rm": 7},
             {"ra": 5, "rb": 6, "rd": 7, "rm": 7}, {"ra": 5, "rb": 5, "rd": 5, "rm": 7}]
    for W in sorted({1, 4, min(10, MAX_WORDS)}):
        L = W * WORD
        for regs in cases:
            g = rng.random() < 0.3
            n = rand_poly_modulus(rng, L) if g else rand_gfp_modulus(rng, L)
            x = rng.getrandbits(L)
            y = x if regs["ra"] == regs["rb"] else rng.getrandbits(L)
            await tb.check(x, y, n, W, g, label="alias", regs=regs)
    for _ in range(int(os.environ.get("MONTU_CILARDO_RANDOM", "100" if ALL else "8"))):
        W = rng.randrange(1, MAX_WORDS + 1)
        L = W * WORD
        g = rng.random() < 0.4
        n = rand_poly_modulus(rng, L) if g else rand_gfp_modulus(rng, L)
        regs = dict(zip(("ra", "rb", "rd", "rm"), rng.sample(range(NUM_REGS), 4)))
        await tb.check(rng.getrandbits(L), rng.getrandbits(L), n, W, g, label="mix", regs=regs,
                       gap=rng.choice([2, 3, 7]))


@cocotb.test()
async def reset_mid_multiplication(dut) -> None:
    """A reset in the rows, in the drain and in the correction pass; the next product is exact."""
    tb = MontBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 4)
    W = min(9, MAX_WORDS)
    L = W * WORD
    total = expected_cycles(W, False)
    for stop in (3, W * max(W + 1, 9) // 2, W * max(W + 1, 9) + 2, total - 2):
        n = rand_gfp_modulus(rng, L)
        for name, value in (("ra", rng.getrandbits(L)), ("rb", rng.getrandbits(L)), ("rm", n)):
            tb.load(tb.regs[name], value, W)
        await tb.run(W, False, stop_after=stop)
        await tb.reset(first=False)
        await tb.check(rng.randrange(n), rng.randrange(n), n, W, False, label=f"after reset@{stop}")
        await tb.check(rng.getrandbits(L), rng.getrandbits(L), n | 1, 2, True, label="after reset")
