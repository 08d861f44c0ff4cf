"""cocotb benches of the inversion engine montu_inv (run by tests/hw/test_inv_cocotb.py).

Every inversion is checked three ways: the result against pow(y, -1, x) (GF(p)) or
clmul(d, y) mod x = 1 with deg d < deg x (GF(2^m)); the result and the pass counts against the
pass-exact reference montu.backends.sim.inversion.run_inversion; and the cycles from start to done against
the module's stated formula with those pass counts, exactly.
"""

from __future__ import annotations

import json
import os
import random
from math import gcd

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, First, RisingEdge, Timer
from cocotb.utils import get_sim_time

from montu.arith import gf2m
from montu.backends.sim.inversion import run_inversion
from montu.arith.primes import random_prime

CFG = json.loads(os.environ.get("MONTU_INV_CFG", '{"Word": 64, "MaxWords": 32}'))
WORD, MAX_WORDS = CFG["Word"], CFG["MaxWords"]
PIPELINED = int(CFG.get("Pipelined", 0))
SEED = int(os.environ.get("MONTU_SEED", "1"))
PERIOD = 10  # ns
TIMES_OUT = os.environ.get("MONTU_INV_CYCLES_OUT")


# ----------------------------------------------------------------------------- the timing model
def expected_cycles(W: int, passes: int, fixes: int, ok: bool, load_fail: bool,
                    gaps: int = 0) -> int:
    """Cycles from start_i (cycle 0) to done_o (montu_inv.sv), operand words on cycles 1..W
    (plus `gaps` idle cycles inside the load, which overlaps the Word-cycle Hensel lifting)."""
    # Pipelined = 1: registered load words, memory reads and writes, S1 in three cycles, m and
    # the lanes pipelined
    # (montu_inv.sv's header)
    P = max(W + 2, 14) if PIPELINED else max(W, 6)
    fix = max(W + 11, 14) if PIPELINED else W + 6
    if load_fail:
        return W + gaps + 1 + PIPELINED
    setup = max(W + gaps, WORD)
    if not ok:
        return setup + (12 if PIPELINED else 7) + passes * P
    return setup + W + (14 if PIPELINED else 9) + passes * P + fixes * fix


# ----------------------------------------------------------------------------- operands
def rsa_lambda(bits: int, rng: random.Random) -> int:
    """λ(n) = lcm(p-1, q-1) of an RSA modulus with gcd(e = 65537, λ) = 1: an even modulus."""
    while True:
        p, q = random_prime(bits // 2, rng), random_prime(bits // 2, rng)
        lam = (p - 1) * (q - 1) // gcd(p - 1, q - 1)
        if p != q and gcd(65537, lam) == 1:
            return lam


def poly_gcd(a: int, b: int) -> int:
    while b:
        while a and gf2m.degree(a) >= gf2m.degree(b):
            a ^= b << (gf2m.degree(a) - gf2m.degree(b))
        a, b = b, a
    return a


def poly_mulmod(a: int, b: int, m: int) -> int:
    return gf2m.reduce(gf2m.clmul(a, b), m)


# ----------------------------------------------------------------------------- driver
class InvDriver:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.runs: list[dict] = []

    async def reset(self) -> None:
        dut = self.dut
        dut.start_i.value = 0
        dut.gf2m_i.value = 0
        dut.words_i.value = 1
        dut.ld_valid_i.value = 0
        dut.ld_x_i.value = 0
        dut.ld_y_i.value = 0
        dut.rst_ni.value = 0
        Clock(dut.clk_i, PERIOD, unit="ns", impl="gpi").start()
        for _ in range(3):
            await RisingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await RisingEdge(dut.clk_i)

    async def invert(self, y: int, x: int, W: int, gf2m_mode: bool, gaps: int = 0
                     ) -> tuple[int | None, int]:
        """Run one MINV; returns (result or None, cycles from start to done)."""
        dut = self.dut
        mask = (1 << WORD) - 1
        await FallingEdge(dut.clk_i)
        dut.start_i.value = 1
        dut.gf2m_i.value = int(gf2m_mode)
        dut.words_i.value = W
        t0 = get_sim_time("ns")   # mid-cycle of cycle 0: the next rising edge samples start_i
        await FallingEdge(dut.clk_i)
        dut.start_i.value = 0
        for j in range(W):
            if gaps and j == 1:
                dut.ld_valid_i.value = 0
                for _ in range(gaps):
                    await FallingEdge(dut.clk_i)
            dut.ld_valid_i.value = 1
            dut.ld_x_i.value = (x >> (WORD * j)) & mask
            dut.ld_y_i.value = (y >> (WORD * j)) & mask
            await FallingEdge(dut.clk_i)
        dut.ld_valid_i.value = 0
        words: list[int] = []
        while True:
            # Sampled mid-cycle (falling edge); between events wait without per-cycle awaits.
            if not dut.done_o.value and not dut.res_valid_o.value:
                await _first_of(dut, 4 * (WORD + 8 * W + 2 * W * W * WORD) + 1000)
                await FallingEdge(dut.clk_i)
            if dut.res_valid_o.value:
                words.append(int(dut.res_word_o.value))
                await FallingEdge(dut.clk_i)
                continue
            if dut.done_o.value:
                break
        # done_o is high in this cycle; rounded: the float times of a later test carry an offset
        # (e.g. 4191345.004 ns) that can make the difference fall just short of a whole period.
        cycles = round((get_sim_time("ns") - t0) / PERIOD)
        noinv = bool(dut.no_inverse_o.value)
        await FallingEdge(dut.clk_i)
        assert not dut.done_o.value, "done_o must be a one-cycle pulse"
        if noinv:
            assert not words, "a result stream was sent although no_inverse_o"
            return None, cycles
        assert len(words) == W, f"{len(words)} result words for W = {W}"
        return sum(w << (WORD * j) for j, w in enumerate(words)), cycles

    async def check(self, y: int, x: int, W: int, gf2m_mode: bool, gaps: int = 0,
                    label: str = "") -> tuple[int | None, int]:
        ref = run_inversion(y, x, gf2m_mode=gf2m_mode, word_bits=WORD)
        self.dut._log.info(f"{label} W={W} gf2m={int(gf2m_mode)} passes={ref.passes} fixes={ref.fixes}")
        got, cycles = await self.invert(y, x, W, gf2m_mode, gaps)
        what = f"{label} W={W} {'GF(2^m)' if gf2m_mode else 'GF(p)'} x={x:#x} y={y:#x}"
        assert got == ref.inverse, f"{what}: RTL {got!r} != reference {ref.inverse!r}"
        if got is not None:
            if gf2m_mode:
                one = 1 if gf2m.degree(x) > 0 else 0          # everything is 0 mod x = 1
                assert gf2m.degree(got) < gf2m.degree(x) and poly_mulmod(got, y, x) == one, what
            else:
                assert got == pow(y, -1, x), what
        load_fail = x == 0 or y == 0 or (x | y) & 1 == 0
        want = expected_cycles(W, ref.passes, ref.fixes, got is not None, load_fail, gaps)
        assert cycles == want, (f"{what}: {cycles} cycles, formula {want} "
                                f"(passes {ref.passes}, fixes {ref.fixes})")
        self.runs.append({"W": W, "gf2m": gf2m_mode, "bits": x.bit_length(), "passes": ref.passes,
                          "fixes": ref.fixes, "ok": got is not None, "cycles": cycles,
                          "label": label})
        return got, cycles

    def dump(self, name: str) -> None:
        if TIMES_OUT:
            path = f"{TIMES_OUT}.{name}.json"
            with open(path, "w") as f:
                json.dump(self.runs, f)


async def _first_of(dut, limit_cycles: int) -> None:
    """Wait for the result stream or done_o, whichever comes first (no per-cycle awaits)."""
    timeout = Timer(limit_cycles * PERIOD, unit="ns")
    fired = await First(RisingEdge(dut.res_valid_o), RisingEdge(dut.done_o), timeout)
    assert fired is not timeout, f"no result and no done_o within {limit_cycles} cycles"


def sizes() -> list[int]:
    """Lengths in words; MaxWords too when it exceeds Word (the load then outlasts the Hensel
    lifting)."""
    ws = [W for W in (1, 2, 3, 4, 8, 9, 32) if W <= MAX_WORDS]
    return ws + ([MAX_WORDS] if MAX_WORDS > max(WORD, 32) else [])


# ----------------------------------------------------------------------------- tests
@cocotb.test()
async def gfp_random(dut) -> None:
    """Random odd and even moduli, random y (odd and even), each size; y >= x included."""
    drv = InvDriver(dut)
    await drv.reset()
    rng = random.Random(SEED)
    for W in sizes():
        L = W * WORD
        n = 2 if W >= 32 else 4
        for i in range(n):
            x = rng.getrandbits(L) | (1 << (L - 1 - rng.randrange(3)))
            x = x & ~1 if i == 1 else x | 1            # i = 1: even modulus
            while True:
                y = rng.getrandbits(L)
                if i == 3:
                    y &= ~1                             # i = 3: even y (x odd)
                if gcd(x, y) == 1:
                    break
            await drv.check(y, x, W, False, label="gfp")
    drv.dump("gfp_random")


@cocotb.test()
async def gfp_rsa_even(dut) -> None:
    """RSA-style private exponents: d = 65537^-1 mod λ(n), λ even (Word-multiple sizes)."""
    drv = InvDriver(dut)
    await drv.reset()
    rng = random.Random(SEED + 1)
    for W in [w for w in (2, 4, 8) if w <= MAX_WORDS]:
        lam = rsa_lambda(W * WORD, rng)
        await drv.check(65537, lam, W, False, label="rsa")
        y = rng.getrandbits(W * WORD) % lam | 1
        while gcd(y, lam) != 1:
            y = (y + 2) % lam
        await drv.check(y, lam, W, False, label="rsa-odd-y")
    drv.dump("gfp_rsa_even")


@cocotb.test()
async def gfp_edges(dut) -> None:
    """x = 1, y = 1, y = x - 1, y > x, tiny and full-length operands, load gaps."""
    drv = InvDriver(dut)
    await drv.reset()
    rng = random.Random(SEED + 2)
    W = min(4, MAX_WORDS)
    L = W * WORD
    await drv.check(1, 1, 1, False, label="x=1")
    await drv.check(5, 1, W, False, label="x=1")
    await drv.check(1, (1 << L) - 1, W, False, label="y=1")
    await drv.check((1 << L) - 2, (1 << L) - 1, W, False, label="y=x-1")
    await drv.check((1 << L) - 1, (1 << L) - 2, W, False, label="y>x even")
    await drv.check(rng.getrandbits(L) | 1, 3, W, False, label="tiny x")
    await drv.check(2, rng.getrandbits(L) | 1, W, False, label="y=2")
    await drv.check(rng.getrandbits(L) | 1 | (1 << (L - 1)), 1 << (L - 1), W, False, label="x=2^(L-1)")
    x = rng.getrandbits(L) | 1
    await drv.check(rng.getrandbits(L) % x, x, W, False, gaps=3, label="gaps")
    drv.dump("gfp_edges")


@cocotb.test()
async def gf2m_nist(dut) -> None:
    """NIST reduction polynomials with random y; random odd and even polynomial moduli."""
    drv = InvDriver(dut)
    await drv.reset()
    rng = random.Random(SEED + 3)
    for m, f in gf2m.NIST_POLYNOMIALS.items():
        W = -(-(m + 1) // WORD)
        if W > MAX_WORDS:
            continue
        for _ in range(2):
            y = rng.getrandbits(m) or 1
            await drv.check(y, f, W, True, label=f"nist{m}")
    for W in sizes():
        L = W * WORD
        for i in range(3):
            while True:
                x = rng.getrandbits(L) | (1 << (L - 1 - rng.randrange(4)))
                x = x | 1 if i != 2 else x & ~1
                y = rng.getrandbits(L) | (1 if i == 2 else 0)
                if y and poly_gcd(x, y) == 1:
                    break
            await drv.check(y, x, W, True, label="gf2m-random")
    await drv.check(1, 1, 1, True, label="gf2m x=1")
    drv.dump("gf2m_nist")


@cocotb.test()
async def no_inverse(dut) -> None:
    """x = 0, y = 0, both even, gcd != 1 (both fields), each followed by a good inversion."""
    drv = InvDriver(dut)
    await drv.reset()
    rng = random.Random(SEED + 4)
    W = min(4, MAX_WORDS)
    L = W * WORD
    good_x = rng.getrandbits(L) | 1
    good_y = rng.getrandbits(L) % good_x or 1
    cases = [
        (0, good_x, False, "y=0"), (good_y, 0, False, "x=0"), (0, 0, False, "both 0"),
        (rng.getrandbits(L) & ~1, rng.getrandbits(L) & ~1 | 2, False, "both even"),
        (3 * rng.getrandbits(L - 2) | 3, 3 * (rng.getrandbits(L - 2) | 1), False, "gcd 3"),
        (good_x, good_x, False, "y=x"),
        (0, good_x, True, "gf2m y=0"),
        (rng.getrandbits(L) & ~1 | 2, rng.getrandbits(L) & ~1 | 4, True, "gf2m both even"),
        (gf2m.clmul(rng.getrandbits(L - 3) | 1, 3), gf2m.clmul(rng.getrandbits(L - 3) | 1, 3),
         True, "gf2m gcd x+1"),
    ]
    for y, x, g, label in cases:
        y &= (1 << L) - 1
        x &= (1 << L) - 1
        got, _ = await drv.check(y, x, W, g, label=label)
        assert got is None, f"{label}: an inverse was reported"
        await drv.check(good_y, good_x, W, False, label="after " + label)
    drv.dump("no_inverse")


@cocotb.test()
async def random_mix(dut) -> None:
    """Many short random inversions, both fields, back to back: odd/even moduli, short and
    long operands, y > x, no-inverse cases mixed in (rare fix-pass and flag paths)."""
    drv = InvDriver(dut)
    await drv.reset()
    rng = random.Random(SEED + 5)
    for _ in range(int(os.environ.get("MONTU_INV_MIX", "300"))):
        W = rng.choice([w for w in (1, 2, 3, 4, 5) if w <= MAX_WORDS])
        L = W * WORD
        g = rng.random() < 0.35
        x = rng.getrandbits(rng.choice([L, L, L, rng.randint(1, L)]))
        y = rng.getrandbits(rng.choice([L, L, rng.randint(1, L)]))
        if rng.random() < 0.8:
            x |= 1 if rng.random() < 0.7 else 0
            y |= 1 if not x & 1 else 0
        await drv.check(y, x, W, g, label="mix")
    drv.dump("random_mix")
