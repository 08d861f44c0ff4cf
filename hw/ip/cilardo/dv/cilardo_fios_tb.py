"""cocotb bench of cilardo_fios_core: cilardo2008 Alg. 2 (FIOS) on the 8-stage word unit, row by
row against the golden model (run by tests/hw/test_cilardo_cocotb.py).

For every product, every row j of the RTL is compared bit-exactly with
montu.arith.cilardo_fios.fios_rows(a, b, n, field, word_bits=64, recoded=True, words=...):
  - the row's Booth digits (the 33 (inv, trp, shl) triples the word unit used, against
    booth_digits; the 33rd, the extra PPG, only in the last row) and their value b_word,
  - the quotient digits the right modules generated on the row's first word, by value q_word,
  - every P word as it leaves the unit, the signed top word included: the row's P.
And the clocks: the issue schedule runs exactly pipeline_schedule(m).cycles = m*max(m+1, 9)
clocks (clock 0 = start_i; clocks 1 .. m*P are the rows') and the last row's top word leaves in
clock last_word_out + 1. Two modes: Alg. 2's (words=None: m = fios_word_count(n), operands below
2N) and the paper's (words = ceil(bits/64), any m-word operands).
The memories are modelled as montu_top builds them (one clock of read latency; T junk-filled).
"""

from __future__ import annotations

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from cilardo_common import Memories, digits_of, digits_value, signed
from montu.arith import gf2m
from montu.arith.cilardo_fios import fios_rows, fios_word_count, pipeline_schedule
from montu.arith.cilardo_recoding import booth_digits, fsel_of
from montu.arith.field import Field

CFG = json.loads(os.environ.get("CILARDO_CFG", '{"Word": 64, "MaxWords": 16}'))
WORD, MAX_WORDS = CFG["Word"], CFG["MaxWords"]
ALL = bool(os.environ.get("MONTU_RTL_ALL"))
SEED = int(os.environ.get("MONTU_SEED", "1"))
HALF = WORD // 2
T_DEPTH = MAX_WORDS + 2


class FiosBench:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.rng = random.Random(SEED)
        self.mem = Memories(self.rng, WORD, T_DEPTH)
        self.products = 0

    async def reset(self) -> None:
        dut = self.dut
        dut.start_i.value = 0
        dut.gf2m_i.value = 0
        dut.m_i.value = 1
        for port in (dut.a_i, dut.b_i, dut.n_i, dut.t_rdata_i):
            port.value = self.rng.getrandbits(WORD)
        dut.rst_ni.value = 0
        Clock(dut.clk_i, 10, unit="ns", impl="gpi").start()
        for _ in range(3):
            await RisingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)

    async def run(self, a: int, b: int, n: int, m: int, gf2m_mode: bool):
        """One product; returns (rows of P words, trace digits per row, busy clocks, done clock)."""
        dut = self.dut
        self.mem.load("a", a, m)
        self.mem.load("b", b, m)
        self.mem.load("n", n, m)
        dut.m_i.value = m
        dut.gf2m_i.value = int(gf2m_mode)
        await FallingEdge(dut.clk_i)
        dut.start_i.value = 1
        words: list[tuple[int, int, int]] = []   # (idx, value, top)
        traces: list[tuple[int, int]] = []
        busy = 0
        cycle = 0
        nxt = nxt_t = None
        limit = 4 * pipeline_schedule(m).last_word_out + 100
        while True:
            await ReadOnly()
            if dut.re_o.value:
                nxt = (self.mem.read("a", int(dut.a_idx_o.value)),
                       self.mem.read("b", int(dut.b_idx_o.value)),
                       self.mem.read("n", int(dut.n_idx_o.value)))
            if dut.t_re_o.value:
                addr = int(dut.t_raddr_o.value)
                nxt_t = self.mem.t[addr] if addr < T_DEPTH else self.rng.getrandbits(WORD)
            if dut.t_we_o.value:
                addr = int(dut.t_waddr_o.value)
                assert addr < T_DEPTH
                self.mem.t[addr] = int(dut.t_wdata_o.value)
            busy += int(dut.busy_o.value)
            if dut.p_v_o.value:
                top = int(dut.p_top_o.value)
                value = int(dut.p_o.value)
                words.append((int(dut.p_idx_o.value), signed(value, WORD + 3) if top else value, top))
            if dut.tr_v_o.value:
                traces.append((int(dut.tr_bd_o.value), int(dut.tr_qd_o.value)))
            done = bool(dut.done_o.value)
            await FallingEdge(dut.clk_i)
            if done:
                break
            cycle += 1
            assert cycle < limit, f"no done_o within {limit} clocks (m = {m})"
            if cycle == 1:
                dut.start_i.value = 0
            if nxt is not None:
                dut.a_i.value, dut.b_i.value, dut.n_i.value = nxt
                nxt = None
            if nxt_t is not None:
                dut.t_rdata_i.value = nxt_t
                nxt_t = None
        if nxt is not None:
            dut.a_i.value, dut.b_i.value, dut.n_i.value = nxt
        if nxt_t is not None:
            dut.t_rdata_i.value = nxt_t
        for _ in range(2):
            await ReadOnly()
            assert not dut.busy_o.value and not dut.p_v_o.value
            await FallingEdge(dut.clk_i)
        return words, traces, busy, cycle

    async def check(self, a: int, b: int, n: int, gf2m_mode: bool, words: int | None,
                    label: str = "") -> None:
        field = Field.GF2M if gf2m_mode else Field.GFP
        fsel = fsel_of(field)
        rows = fios_rows(a, b, n, field=field, word_bits=WORD, recoded=True, words=words)
        m = len(rows)
        if words is None:
            assert m == fios_word_count(n, field=field, word_bits=WORD)
        what = (f"{label} m={m} {'GF(2^m)' if gf2m_mode else 'GF(p)'} mode="
                f"{'paper' if words else 'Alg2'} a={a:#x} b={b:#x} n={n:#x}")
        out, traces, busy, done = await self.run(a, b, n, m, gf2m_mode)
        self.products += 1
        assert len(out) == m * m, f"{what}: {len(out)} P words left the unit, want {m * m}"
        assert len(traces) == m, f"{what}: {len(traces)} row traces, want {m}"
        for j, row in enumerate(rows):
            chunk = out[j * m:(j + 1) * m]
            assert [w[0] for w in chunk] == list(range(m)), f"{what}: row {j} word order {chunk}"
            assert [w[2] for w in chunk] == [0] * (m - 1) + [1], f"{what}: row {j} top flags"
            p = sum(w[1] << (WORD * i) for i, w in enumerate(chunk))
            bd = digits_of(traces[j][0], HALF + 1)
            qd = digits_of(traces[j][1], HALF)
            last = j == m - 1
            want_bd = booth_digits(b, j * HALF, HALF + (1 if last else 0), fsel)
            assert bd[:len(want_bd)] == [(d.inv, d.trp, d.shl) for d in want_bd], \
                f"{what}: row {j} Booth digits {bd} != golden"
            if not last:
                assert bd[HALF] == (0, 0, 0), f"{what}: row {j} used the extra PPG"
            assert digits_value(bd, fsel) == row.b_word, f"{what}: row {j} b_word"
            assert digits_value(qd, fsel) == row.q_word, \
                f"{what}: row {j} q_word {digits_value(qd, fsel):#x} != {row.q_word:#x}"
            assert p == row.p, f"{what}: row {j} P {p:#x} != golden {row.p:#x}"
        sched = pipeline_schedule(m)
        assert busy == sched.cycles == m * max(m + 1, 9), \
            f"{what}: {busy} clocks of rows, schedule {sched.cycles}"
        assert done == sched.last_word_out + 1, \
            f"{what}: top word out in clock {done}, schedule {sched.last_word_out + 1}"


def gfp_cases(rng: random.Random, bits: int, m: int) -> list[tuple[int, int, int]]:
    """(a, b, n) for a `bits`-bit modulus: random, edge operands, all-ones, top bit set."""
    L = m * WORD
    n_rand = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
    n_ones = (1 << bits) - 1
    cases = [(rng.randrange(n_rand), rng.randrange(n_rand), n_rand),
             (0, rng.randrange(n_rand), n_rand), (1, 1, n_rand),
             (n_rand - 1, n_rand - 1, n_rand), (n_ones - 1, n_ones - 2, n_ones)]
    if bits == L:   # any m-word operands (the paper's mode only)
        cases.append(((1 << L) - 1, (1 << L) - 1, n_rand))
        cases.append((rng.getrandbits(L) | (1 << (L - 1)), (1 << (L - 1)) | 1, n_ones))
    return cases


@cocotb.test()
async def paper_sizes_gfp(dut) -> None:
    """GF(p) at the paper's table sizes: the paper's m (27/36/36/45/90 clocks) and Alg. 2's m
    (36/36/45/45/90), every row bit-exact."""
    tb = FiosBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 1)
    sizes = (192, 224, 256, 283, 521)
    for bits in sizes:
        m_paper = -(-bits // WORD)
        for (a, b, n) in gfp_cases(rng, bits, m_paper)[: None if ALL else 4]:
            if m_paper <= MAX_WORDS and (a < 1 << (m_paper * WORD)) and b < 1 << (m_paper * WORD):
                await tb.check(a, b, n, False, m_paper, label=f"{bits}b")
            if a < 2 * n and b < 2 * n and fios_word_count(n, field=Field.GFP) <= MAX_WORDS:
                await tb.check(a, b, n, False, None, label=f"{bits}b")
    dut._log.info(f"{tb.products} products")


@cocotb.test()
async def gf2m_rows(dut) -> None:
    """GF(2^m): NIST polynomials (163 .. 571 where they fit), random polynomials, both modes."""
    tb = FiosBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 2)
    for m_deg, f in gf2m.NIST_POLYNOMIALS.items():
        W = -(-(m_deg + 1) // WORD)
        if W > MAX_WORDS or (not ALL and m_deg > 300):
            continue
        a, b = rng.getrandbits(m_deg), rng.getrandbits(m_deg)
        await tb.check(a, b, f, True, None, label=f"nist{m_deg}")
        await tb.check(rng.getrandbits(W * WORD), rng.getrandbits(W * WORD), f, True, W,
                       label=f"nist{m_deg}")
    for W in (1, 2, 3):
        L = W * WORD
        n = (1 << (L - 1)) | rng.getrandbits(L - 1) | 1
        await tb.check((1 << L) - 1, (1 << L) - 1, n, True, W, label="ones")
        await tb.check(rng.getrandbits(L), 0, (1 << L) - 1, True, W, label="zero")


@cocotb.test()
async def every_length(dut) -> None:
    """m = 1 .. MaxWords (stalled rows below 8, the forwarding cases 8 and 9, T above), random
    full-width operands in the paper's mode, GF(p) and GF(2^m), back to back."""
    tb = FiosBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 3)
    lengths = range(1, MAX_WORDS + 1) if ALL else sorted({1, 2, 7, 8, 9, 10, MAX_WORDS})
    for m in lengths:
        if m > MAX_WORDS:
            continue
        L = m * WORD
        n = rng.getrandbits(L) | 1 | (1 << (L - 1))
        await tb.check(rng.getrandbits(L), rng.getrandbits(L), n, False, m, label="len")
        if ALL or m in (1, 9):
            await tb.check(rng.getrandbits(L), rng.getrandbits(L), n | 1, True, m, label="len")
    if MAX_WORDS >= 3:
        # a modulus far below 2^(64m): words = 3 with a one-word modulus
        n = rng.getrandbits(WORD) | 1 | (1 << (WORD - 1))
        await tb.check(rng.getrandbits(3 * WORD), rng.getrandbits(3 * WORD), n, False, 3,
                       label="small n")


@cocotb.test()
async def random_operands(dut) -> None:
    """Random sizes, fields, operands (MONTU_CILARDO_RANDOM products, default 12)."""
    tb = FiosBench(dut)
    await tb.reset()
    rng = random.Random(SEED + 4)
    for _ in range(int(os.environ.get("MONTU_CILARDO_RANDOM", "200" if ALL else "12"))):
        m = rng.randrange(1, MAX_WORDS + 1)
        L = m * WORD
        g = rng.random() < 0.3
        bits = rng.randrange(max(2, L - WORD + 1), L + 1)
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        if rng.random() < 0.5:
            await tb.check(rng.getrandbits(L), rng.getrandbits(L), n, g, m, label="rand")
        else:
            bound = (1 << gf2m.degree(n)) if g else n
            if fios_word_count(n, field=Field.GF2M if g else Field.GFP) <= MAX_WORDS:
                await tb.check(rng.randrange(bound), rng.randrange(bound), n, g, None, label="rand")
