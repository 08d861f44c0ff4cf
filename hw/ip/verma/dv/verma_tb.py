"""cocotb benches of verma_top, the verma engine (run by tests/hw/test_verma_cocotb.py, not
directly).

Every command is checked against
  * the golden model montu.arith.verma (ewbr4cmmm: X, Y and, through its trace, the T, X and Y
    words of every PE after every iteration; mpl_powmod) and Python's pow(),
  * the cycle formulas of src/montu/isa/verma.yaml (montu.isa.table.load_engine("verma")): every
    response's cycles, errors included (error_cycles), and rsp_cycles_o against the clock edges
    actually counted,
  * the engine's cycle-exact simulator montu.engines.verma.simulator.VermaSimulator, fed the same
    command stream, response by response (err, flags, data, cycles), when it is importable.

Internal signals read (verma_top's hierarchy; Verilator builds with --public-flat-rw), sampled at
the falling clock edge, i.e. in the middle of a clock, showing the registers after the edge that
ended the clock before:
  core_start                 this clock is a pass's load clock (clock 0)
  t_words, x_words, y_words  the T words of the reduction PEs and X, Y of the XPEs and YPEs
                             (M words of W bits; word j of iteration i is written by the edge
                             that ends clock i + j of the pass)

Environment: VERMA_CFG (JSON, {"K": 64, "W": 48}), VERMA_SUITE ("full": every bench; "big": the
few that a 1024-bit or larger build runs), MONTU_SEED, VERMA_STREAM (commands of the random
stream).
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, First, ReadOnly, RisingEdge, Timer

from montu.arith import verma_cmmm as golden
from montu.arith.verma_exp import mpl_powmod
from montu.isa.encoding import Response
from montu.isa.table import load_engine

CFG = json.loads(os.environ.get("VERMA_CFG", '{"K": 64, "W": 48}'))
K = int(CFG["K"])
W = int(CFG.get("W", 48))
SUITE = os.environ.get("VERMA_SUITE", "full")
SEED = int(os.environ.get("MONTU_SEED", "1"))
STREAM = int(os.environ.get("VERMA_STREAM", "500"))
ISA = load_engine("verma")
E = ISA.error_code
REG = ISA.register_index
MASK64 = (1 << 64) - 1
WMASK = (1 << W) - 1
BIG_ONLY = SUITE != "full"     # skip the benches that are not part of the big builds' subset


# ----------------------------------------------------------------------------- sizes
@dataclass(frozen=True)
class Sizes:
    """verma.yaml's variables for modulus length k (montu.arith.verma.cmmm_parameters)."""

    k: int
    g: int
    h: int
    t: int
    D: int
    I: int
    m: int
    Wd: int

    @property
    def pass_cycles(self) -> int:
        return self.I + self.m + 1


def sizes(k: int) -> Sizes:
    g = golden.paper_guard_bits(k)
    h, t = (k + 1) // 2, (g + 1) // 2
    d = h + t
    return Sizes(k=k, g=g, h=h, t=t, D=d, I=h + g, m=-(-2 * d // W), Wd=-(-2 * d // 64))


M = sizes(K).m          # PEs of each kind in this build
# No command may take longer than this: MPL at k = K plus slack, so an RTL that never answers
# fails instead of hanging the bench.
RESPONSE_LIMIT = (K + 2) * sizes(K).pass_cycles + 64


def expected_cycles(name: str, k: int, f: int = 0) -> int:
    s = sizes(k)
    return ISA.by_name[name].cycle_count("verma", k=k, I=s.I, m=s.m, Wd=s.Wd, f=f)


def width_of(reg: str, k: int) -> int:
    """What WR accepts: k bits for N, C, O, E; 2D bits for P, R (X, Y hold 2D-bit values)."""
    return k if reg in ("N", "C", "O", "E") else 2 * sizes(k).D


def encode(name: str, *, rd: int = 0, ra: int = 0, rb: int = 0, f: int = 0, imm: int = 0) -> int:
    """The instruction word of `name` (verma.yaml's slots); register slots take indices."""
    values = {"op": ISA.by_name[name].opcode, "rd": rd, "ra": ra, "rb": rb, "f": f, "imm": imm}
    word = 0
    for slot, value in values.items():
        s = ISA.slots[slot]
        assert 0 <= value < 1 << s.width, (name, slot, value)
        word |= value << s.lsb
    return word


def op_of(insn: int) -> int:
    s = ISA.slots["op"]
    return (insn >> s.lsb) & ((1 << s.width) - 1)


def simulator_class():
    """The engine's cycle-exact simulator, if it is there (imported lazily)."""
    try:
        from montu.engines.verma.simulator import VermaSimulator
    except ImportError:
        return None
    return VermaSimulator


def words_of(value: int, count: int) -> list[int]:
    return [(value >> (W * j)) & WMASK for j in range(count)]


# ----------------------------------------------------------------------------- pass monitor
class PassMonitor:
    """Samples core_start and the T, X, Y words of every PE at every falling clock edge while it
    runs; `passes()` cuts the record at each load clock."""

    def __init__(self, dut):
        self.dut = dut
        self.samples: list[tuple[int, int, int, int]] = []
        self._task = None

    def start(self) -> None:
        self.samples = []
        self._task = cocotb.start_soon(self._watch())

    def stop(self) -> list[tuple[int, int, int, int]]:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        return self.samples

    async def _watch(self) -> None:
        dut = self.dut
        while True:
            await FallingEdge(dut.clk_i)
            self.samples.append((int(dut.core_start.value), int(dut.t_words.value),
                                 int(dut.x_words.value), int(dut.y_words.value)))

    def loads(self) -> list[int]:
        """Indices of the samples taken in a load clock."""
        return [i for i, smp in enumerate(self.samples) if smp[0]]


def check_pass(samples: list, s: int, p: int, r: int, n: int, what: str) -> tuple[int, int]:
    """The pass whose load clock is samples[s], against ewbr4cmmm(p, r, n) and its trace: T[0] = P
    and X = Y = 0 after the load clock; for every iteration i = 1 .. I+1 and word j < m, the T, X,
    Y words after clock i + j (the sample of clock i + j + 1); every word >= m stays 0. Returns the
    golden (X, Y)."""
    prm = golden.cmmm_parameters(n, W)
    m = prm.m
    trace: list[tuple[int, list[int], list[int], list[int]]] = []
    (x, y), stats = golden.ewbr4cmmm(p, r, n, w=W,
                                     trace=lambda i, t, xs, ys: trace.append((i, t, xs, ys)))
    assert stats.cycles == prm.iterations + m + 1, f"{what}: golden cycles {stats.cycles}"
    assert len(samples) > s + prm.iterations + m + 1, f"{what}: the record ends too early"
    _, t0, x0, y0 = samples[s + 1]
    assert words_of(t0, m) == words_of(p, m) and x0 == 0 and y0 == 0, \
        f"{what}: after the load clock T != P or X, Y != 0"
    for i, t_ref, x_ref, y_ref in trace:
        for j in range(m):
            _, t, xv, yv = samples[s + 1 + i + j]
            got = ((t >> (W * j)) & WMASK, (xv >> (W * j)) & WMASK, (yv >> (W * j)) & WMASK)
            want = (t_ref[j], x_ref[j], y_ref[j])
            assert got == want, (f"{what}: iteration {i} word {j}: (T, X, Y) = "
                                 f"{tuple(hex(v) for v in got)}, golden "
                                 f"{tuple(hex(v) for v in want)}")
    _, t_end, x_end, y_end = samples[s + prm.iterations + m + 1]
    for v, name in ((t_end, "T"), (x_end, "X"), (y_end, "Y")):
        assert v >> (W * m) == 0, f"{what}: {name} words at and above m = {m} are not 0"
    assert (x_end, y_end) == (x, y), f"{what}: final X, Y differ"
    return x, y


# ----------------------------------------------------------------------------- driver
class Engine:
    """Drives the command/response ports, checks cycles against verma.yaml and mirrors every
    command on the simulator (when present)."""

    def __init__(self, dut, *, check_sim: bool = True):
        self.dut = dut
        self.sim_cls = simulator_class() if check_sim else None
        self.sim = self.sim_cls(k_max=K, w=W) if self.sim_cls is not None else None
        self.k = K
        self.wptr = self.rptr = 0
        self.monitor = PassMonitor(dut)

    @property
    def sz(self) -> Sizes:
        return sizes(self.k)

    async def start(self) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns", impl="gpi").start())
        dut.cmd_valid_i.value = 0
        dut.cmd_insn_i.value = 0
        dut.cmd_data_i.value = 0
        dut.rsp_ready_i.value = 1
        await self.reset()

    async def reset(self) -> None:
        """Assert rst_ni (asynchronously, mid-cycle) and wait until the engine takes commands."""
        dut = self.dut
        dut.cmd_valid_i.value = 0
        dut.rst_ni.value = 0
        await Timer(13, unit="ns")
        await FallingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        waited = 0
        while True:
            await FallingEdge(dut.clk_i)
            if int(dut.cmd_ready_o.value):
                break
            waited += 1
            assert waited <= 2, "no cmd_ready_o after reset"
        assert int(dut.busy_o.value) == 0 and int(dut.rsp_valid_o.value) == 0
        if self.sim is not None:
            if hasattr(self.sim, "reset"):
                self.sim.reset()
            else:
                self.sim = self.sim_cls(k_max=K, w=W)
        self.k = K
        self.wptr = self.rptr = 0

    async def send(self, insn: int, data: int = 0) -> Response:
        """One command and its response, with the handshake checks of the shell."""
        dut = self.dut
        await FallingEdge(dut.clk_i)
        while not int(dut.cmd_ready_o.value):
            await FallingEdge(dut.clk_i)
        dut.cmd_insn_i.value = insn
        dut.cmd_data_i.value = data
        dut.cmd_valid_i.value = 1
        await RisingEdge(dut.clk_i)                 # the accepting edge
        dut.cmd_valid_i.value = 0
        await ReadOnly()
        t0 = int(dut.cycle_count_o.value)
        assert int(dut.cmd_ready_o.value) == 0 and int(dut.busy_o.value) == 1
        if not int(dut.rsp_valid_o.value):
            timeout = Timer(RESPONSE_LIMIT * 10, unit="ns")
            fired = await First(RisingEdge(dut.rsp_valid_o), timeout)
            assert fired is not timeout, \
                f"insn {insn:#010x}: no response in {RESPONSE_LIMIT} cycles"
            await ReadOnly()
        n = int(dut.cycle_count_o.value) - t0
        rsp = Response(err=int(dut.rsp_err_o.value), flags=int(dut.rsp_flags_o.value),
                       data=int(dut.rsp_data_o.value), cycles=int(dut.rsp_cycles_o.value))
        assert rsp.cycles == n, f"rsp_cycles_o {rsp.cycles} but rsp_valid after {n} edges"
        assert int(dut.done_o.value) == 1 and int(dut.err_o.value) == rsp.err
        assert int(dut.busy_o.value) == 0 and int(dut.cmd_ready_o.value) == 0
        await RisingEdge(dut.clk_i)                 # the response is taken (rsp_ready_i = 1)
        return rsp

    async def cmd(self, name: str, data: int = 0, *, expect: str = "E_OK", **slots: int
                  ) -> Response:
        """A named command: checks its error, its cycles (formula) and the simulator."""
        insn = encode(name, **slots)
        rsp = await self.send(insn, data)
        assert rsp.err == E[expect], \
            f"{name} {slots} data={data:#x}: err {rsp.err}, expected {expect}"
        if rsp.err == E["E_OK"]:
            want = expected_cycles(name, self.k, f=slots.get("f", 0) if name == "CMMM" else 0)
        else:
            want = ISA.error_cycles
        assert rsp.cycles == want, \
            f"{name} {slots} k={self.k}: {rsp.cycles} cycles, verma.yaml says {want}"
        assert rsp.flags == 0 and (name == "RD" or rsp.data == 0), f"{name}: {rsp}"
        self._track(name, rsp.err, data)
        self.check_sim(insn, data, rsp)
        return rsp

    def _track(self, name: str, err: int, data: int) -> None:
        if err:
            return
        if name == "SETLEN":
            self.k, self.wptr, self.rptr = data, 0, 0
        elif name == "WIPE":
            self.wptr = self.rptr = 0
        elif name == "WR":
            self.wptr = (self.wptr + 1) % self.sz.Wd
        elif name == "RD":
            self.rptr = (self.rptr + 1) % self.sz.Wd

    def check_sim(self, insn: int, data: int, rsp: Response) -> None:
        if self.sim is not None:
            ref = self.sim.execute(insn, data)
            assert rsp == ref, f"insn {insn:#010x} data {data:#x}: RTL {rsp} != simulator {ref}"

    async def setlen(self, k: int) -> None:
        await self.cmd("SETLEN", k)

    async def write(self, reg: str, value: int) -> None:
        assert self.wptr == 0
        for j in range(self.sz.Wd):
            await self.cmd("WR", (value >> (64 * j)) & MASK64, rd=REG[reg])

    async def read(self, reg: str) -> int:
        assert self.rptr == 0
        value = 0
        for j in range(self.sz.Wd):
            value |= (await self.cmd("RD", ra=REG[reg])).data << (64 * j)
        return value

    async def snapshot(self) -> dict[str, int]:
        """Every register as RD returns it."""
        return {r: await self.read(r) for r in ("N", "C", "O", "E", "P", "R", "X", "Y")}

    async def load(self, **regs: int) -> None:
        for reg, value in regs.items():
            await self.write(reg, value)


ZERO = {r: 0 for r in ("N", "C", "O", "E", "P", "R", "X", "Y")}


# ----------------------------------------------------------------------------- operands
def moduli(rng: random.Random, k: int) -> list[int]:
    """k-bit odd moduli: random with the top bit set, all ones, 2^(k-1) + 1 (the smallest),
    and one with bit 1 clear / set (the quotient's n1)."""
    if k == 2:
        return [3]
    out = [rng.getrandbits(k) | 1 | (1 << (k - 1)), (1 << k) - 1, (1 << (k - 1)) + 1]
    if k > 3:
        out.append((rng.getrandbits(k) | 1 | (1 << (k - 1))) ^ 2)
    return list(dict.fromkeys(out))


def operands(rng: random.Random, n: int) -> list[int]:
    """Edge and random operands below 2^(2D): 0, 1, n-1, n, 2^(2D)-1, 2^(2D-1), random."""
    top = 1 << (2 * sizes(n.bit_length()).D)
    return list(dict.fromkeys([0, 1, n - 1, n, top - 1, top >> 1, rng.randrange(top),
                               rng.randrange(n), rng.randrange(top)]))


def lengths() -> list[int]:
    """Modulus lengths: tiny, odd, around the word sizes (W and 64), and the full width."""
    base = [2, 3, 4, 5, 7, 8, 13, 31, 47, 48, 49, 63, 64, 65, 95, 100, 127, 128, 129, 191,
            K - 1, K]
    return sorted({k for k in base if 2 <= k <= K})


async def setup_modulus(u: Engine, k: int, n: int) -> None:
    if u.k != k:
        await u.setlen(k)
    await u.write("N", n)
    await u.cmd("SETMOD")


async def cmmm_case(u: Engine, n: int, ra: str, rb: str, f: int, *, p: int | None = None,
                    r: int | None = None, trace: bool = True) -> tuple[int, int]:
    """CMMM(ra, rb, f) with P = p (written to ra if ra is P) and R = r (written to rb if rb is R;
    for X, Y, C, O the registers' current values are used, read back first). Checks X, Y against
    ewbr4cmmm (and every iteration's PE words when `trace`)."""
    if ra == "P" and p is not None:
        await u.write("P", p)
    if rb == "R" and r is not None:
        await u.write("R", r)
    regs = {name: await u.read(name) for name in {ra, rb} - {"ONE"}}
    p_val = regs[ra]
    r_val = 1 if rb == "ONE" else regs[rb]
    if trace:
        u.monitor.start()
    await u.cmd("CMMM", ra=REG[ra], rb=REG[rb], f=f)
    what = f"CMMM({ra}, {rb}) f={f} k={u.k} n={n:#x} P={p_val:#x} R={r_val:#x}"
    if trace:
        samples = u.monitor.stop()
        loads = [i for i, smp in enumerate(samples) if smp[0]]
        assert len(loads) == 1, f"{what}: {len(loads)} load clocks"
        x_ref, y_ref = check_pass(samples, loads[0], p_val, r_val, n, what)
    else:
        (x_ref, y_ref), _ = golden.ewbr4cmmm(p_val, r_val, n, w=W)
    if f and x_ref == n:
        x_ref = 0
    x, y = await u.read("X"), await u.read("Y")
    assert (x, y) == (x_ref, y_ref), f"{what}: X {x:#x}, Y {y:#x}; golden {x_ref:#x}, {y_ref:#x}"
    f_inv = pow(4 ** sizes(u.k).I, -1, n)
    assert x % n == p_val * r_val * f_inv % n and y % n == p_val * p_val * f_inv % n, what
    bound = 1 << (2 * sizes(u.k).D)
    assert x < bound and y < bound, f"{what}: X or Y >= 2^(2D)"
    return x, y


# ----------------------------------------------------------------------------- tests
@cocotb.test(skip=BIG_ONLY)
async def test_basics_and_decode_errors(dut):
    """NOP; SETLEN, WR, RD round trips; every decode error, each changing nothing; WIPE and
    SETLEN clear everything."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED)
    await u.cmd("NOP")
    assert await u.snapshot() == ZERO
    # bad opcodes: a sample of the opcodes not in the table
    known = {ins.opcode for ins in ISA.instructions}
    for op in [op for op in range(256) if op not in known][::7] + [0xFF, 0x3E, 0x12, 0x05]:
        rsp = await u.send(op << 24)
        assert rsp.err == E["E_BAD_OPCODE"] and rsp.cycles == ISA.error_cycles, (op, rsp)
        u.check_sim(op << 24, 0, rsp)
    # SETLEN errors
    for bad in (0, 1, K + 1, K + 2, 1 << 40, MASK64, MASK64 - 1, (1 << 32) + 64):
        await u.cmd("SETLEN", bad, expect="E_BAD_LENGTH")
    k = K - 1 if K % 2 == 0 else K      # odd k: h, t round up
    await u.setlen(k)
    # round trips through N, C, O, E, P, R (every bit of their widths)
    vals = {r: rng.getrandbits(width_of(r, k)) for r in ("N", "C", "O", "E", "P", "R")}
    await u.load(**vals)
    for r, v in vals.items():
        assert await u.read(r) == v, r
    # bad registers: WR rd outside {N, C, O, E, P, R}; RD ra outside {N .. Y}
    for bad in (6, 7, 8, 9, 17, 31):
        await u.cmd("WR", 1, rd=bad, expect="E_BAD_REG")
    for bad in (8, 9, 17, 31):
        await u.cmd("RD", ra=bad, expect="E_BAD_REG")
    # CMMM (ra, rb): ra in {P, X, Y}, rb in {R, C, O, X, Y, ONE}
    ras = {REG[x] for x in ISA.by_name["CMMM"].allowed("ra")}
    rbs = {REG[x] for x in ISA.by_name["CMMM"].allowed("rb")}
    for ra in list(range(10)) + [31]:
        for rb in list(range(10)) + [31]:
            if ra not in ras or rb not in rbs:
                await u.cmd("CMMM", ra=ra, rb=rb, f=rng.getrandbits(1), expect="E_BAD_REG")
    # without a modulus: E_NO_MODULUS (after the register check)
    for ra in sorted(ras):
        for rb in sorted(rbs):
            await u.cmd("CMMM", ra=ra, rb=rb, f=rng.getrandbits(1), expect="E_NO_MODULUS")
    await u.cmd("MPL", expect="E_NO_MODULUS")
    # SETMOD on bad moduli: even, top bit (k-1) clear, 0, 1; N keeps its value
    for bad_n in (vals["N"] | (1 << (k - 1))) & ~1, (vals["N"] | 1) & ~(1 << (k - 1)), 0, 1:
        await u.write("N", bad_n)
        await u.cmd("SETMOD", expect="E_BAD_MODULUS")
        assert await u.read("N") == bad_n
    # WR: bits at or above the register's width (k or 2D), in every word
    sz = u.sz
    for reg in ("N", "E", "P", "R"):
        width = width_of(reg, k)
        for j in range(sz.Wd):
            lo = 64 * j
            if lo + 64 <= width:
                await u.cmd("WR", MASK64, rd=REG[reg])
            else:
                bad = 1 << (max(width - lo, 0) + rng.randrange(64 - max(width - lo, 0)))
                await u.cmd("WR", bad, rd=REG[reg], expect="E_RANGE")
                await u.cmd("WR", MASK64, rd=REG[reg], expect="E_RANGE")
                await u.cmd("WR", (1 << max(width - lo, 0)) - 1, rd=REG[reg])
        assert await u.read(reg) == (1 << width) - 1, reg
    # every error above changed nothing: a full snapshot, then errors, then the same snapshot
    before = await u.snapshot()
    rsp = await u.send(0xEE000000)
    assert rsp == Response(E["E_BAD_OPCODE"], 0, 0, ISA.error_cycles)
    u.check_sim(0xEE000000, 0, rsp)
    await u.cmd("SETLEN", K + 1, expect="E_BAD_LENGTH")
    await u.cmd("WR", 0, rd=REG["X"], expect="E_BAD_REG")
    await u.cmd("RD", ra=REG["ONE"], expect="E_BAD_REG")
    await u.cmd("CMMM", ra=REG["R"], rb=REG["P"], expect="E_BAD_REG")
    await u.cmd("MPL", expect="E_NO_MODULUS")
    await u.write("N", 2)
    await u.cmd("SETMOD", expect="E_BAD_MODULUS")
    await u.write("N", before["N"])
    assert await u.snapshot() == before
    # WIPE: everything 0, k kept; SETLEN also clears
    await u.cmd("WIPE")
    assert await u.snapshot() == ZERO
    assert u.k == k
    await u.load(N=5, C=7, P=9)
    await u.setlen(K)
    assert await u.snapshot() == ZERO


@cocotb.test(skip=BIG_ONLY)
async def test_pointers_and_errors_keep_state(dut):
    """Errors move no pointer and change no register: interleave errors with a word-wise write
    and a word-wise read; a write of N invalidates the modulus."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 1)
    k = K
    n = rng.getrandbits(k) | 1 | (1 << (k - 1))
    await setup_modulus(u, k, n)
    value = rng.getrandbits(2 * u.sz.D)
    for j in range(u.sz.Wd):
        await u.cmd("WR", (value >> (64 * j)) & MASK64, rd=REG["P"])
        await u.cmd("WR", 3, rd=REG["ONE"], expect="E_BAD_REG")
        await u.cmd("SETLEN", 0, expect="E_BAD_LENGTH")
        await u.cmd("CMMM", ra=REG["R"], rb=REG["R"], expect="E_BAD_REG")
    got = 0
    for j in range(u.sz.Wd):
        got |= (await u.cmd("RD", ra=REG["P"])).data << (64 * j)
        await u.cmd("RD", ra=REG["ONE"], expect="E_BAD_REG")
    assert got == value
    # the modulus survives errors; a write of N (even the same value) invalidates it
    await u.cmd("CMMM", ra=REG["P"], rb=REG["ONE"])
    await u.write("N", n)
    await u.cmd("CMMM", ra=REG["P"], rb=REG["ONE"], expect="E_NO_MODULUS")
    await u.cmd("MPL", expect="E_NO_MODULUS")
    await u.cmd("SETMOD")
    await u.cmd("CMMM", ra=REG["P"], rb=REG["ONE"])
    await u.cmd("WIPE")
    await u.cmd("CMMM", ra=REG["P"], rb=REG["ONE"], expect="E_NO_MODULUS")


@cocotb.test()
async def test_cmmm_bit_exact(dut):
    """CMMM against montu.arith.verma.ewbr4cmmm: X, Y and the T, X, Y words of every PE after
    every iteration (the wavefront: word j of iteration i in clock i + j), over moduli lengths
    around W and 64, odd lengths, all-ones moduli, the smallest moduli, edge operands
    (0, 1, n-1, n, 2^(2D)-1, ...) and every (ra, rb) pair, f = 0 and 1."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 2)
    pairs = [("P", "R"), ("P", "C"), ("P", "O"), ("P", "ONE"), ("X", "Y"), ("Y", "X"),
             ("X", "X"), ("Y", "R"), ("P", "X"), ("X", "ONE"), ("Y", "Y"), ("Y", "C")]
    if BIG_ONLY:
        k = K
        n = moduli(rng, k)[0]
        await setup_modulus(u, k, n)
        top = 1 << (2 * u.sz.D)
        await cmmm_case(u, n, "P", "R", 0, p=rng.randrange(top), r=rng.randrange(top))
        await cmmm_case(u, n, "X", "Y", 1)
        await cmmm_case(u, n, "P", "R", 0, p=top - 1, r=top - 1, trace=False)
        return
    for k in lengths():
        for n in moduli(rng, k):
            await setup_modulus(u, k, n)
            ops = operands(rng, n)
            await u.load(C=rng.randrange(n), O=n - 1)
            cases = 8 if k in (K, 2, 47, 64) else 4
            for t in range(cases):
                ra, rb = pairs[t % len(pairs)] if t < len(pairs) else rng.choice(pairs)
                await cmmm_case(u, n, ra, rb, f=t & 1, p=ops[t % len(ops)], r=rng.choice(ops))
            # the largest operands, and X = N exactly before the f = 1 clock is exercised by
            # test_cmmm_fix
            top = (1 << (2 * u.sz.D)) - 1
            await cmmm_case(u, n, "P", "R", 0, p=top, r=top)


@cocotb.test(skip=BIG_ONLY)
async def test_cmmm_fix(dut):
    """f = 1: X = 0 exactly when the pass leaves X == N, else X is untouched; Y never changes.
    CMMM(P, ONE) with P = n (or 2n) keeps T[i] = n in every iteration, so X = T[I] = n."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 3)
    for k in [kk for kk in (2, 3, 5, 8, 13, 64, K) if kk <= K]:
        for n in moduli(rng, k):
            await setup_modulus(u, k, n)
            for p in (n, 2 * n):
                assert golden.ewbr4cmmm(p, 1, n, w=W)[0][0] == n
                x, _ = await cmmm_case(u, n, "P", "ONE", 1, p=p)
                assert x == 0
                await cmmm_case(u, n, "P", "ONE", 0, p=p)
                assert await u.read("X") == n
            top = 1 << (2 * u.sz.D)
            await cmmm_case(u, n, "P", "ONE", 1, p=rng.randrange(top))


def mpl_passes(p: int, e: int, c: int, o: int, n: int, k: int) -> list[tuple[int, int]]:
    """The (P, R) of each of MPL's k + 2 passes (verma.yaml's ladder, mpl_powmod's order)."""
    out = [(p, c)]
    (r1, _), _ = golden.ewbr4cmmm(p, c, n, w=W)
    r0 = o
    for pos in reversed(range(k)):
        if (e >> pos) & 1:
            out.append((r1, r0))
            (r0, r1), _ = golden.ewbr4cmmm(r1, r0, n, w=W)
        else:
            out.append((r0, r1))
            (r1, r0), _ = golden.ewbr4cmmm(r0, r1, n, w=W)
    out.append((r0, 1))
    return out


async def mpl_case(u: Engine, n: int, p: int, e: int, *, monitor: bool = False) -> int:
    """MPL with P = p, E = e (C, O host-computed); X against pow() and mpl_powmod, Y against the
    last pass, P, E, C, O unchanged; with `monitor`, every pass bit-exact (load sources and
    the PE words of every iteration). Returns the cycles."""
    k = u.k
    f_mont = 4 ** u.sz.I
    c, o = f_mont * f_mont % n, f_mont % n
    await u.load(P=p, E=e, C=c, O=o)
    if monitor:
        u.monitor.start()
    rsp = await u.cmd("MPL")
    what = f"MPL k={k} n={n:#x} P={p:#x} E={e:#x}"
    x = await u.read("X")
    want, stats = mpl_powmod(p, e, n, w=W, exponent_bits=k)
    assert x == want == pow(p, e, n), f"{what}: X {x:#x}, pow {pow(p, e, n):#x}, golden {want:#x}"
    assert stats.cycles + 2 == rsp.cycles, f"{what}: golden passes {stats.cycles} + 2 clocks"
    passes = mpl_passes(p, e, c, o, n, k)
    (_, y_last), _ = golden.ewbr4cmmm(*passes[-1], n, w=W)
    assert await u.read("Y") == y_last, f"{what}: Y is not the last pass's Y"
    assert (await u.read("P"), await u.read("E"), await u.read("C"), await u.read("O")) == \
        (p, e, c, o), f"{what}: P, E, C or O changed"
    if monitor:
        samples = u.monitor.stop()
        loads = [i for i, smp in enumerate(samples) if smp[0]]
        assert len(loads) == k + 2, f"{what}: {len(loads)} passes"
        for q, (s, (pp, rr)) in enumerate(zip(loads, passes)):
            if q:   # back to back: each load clock right after the previous pass's last clock
                assert s - loads[q - 1] == u.sz.pass_cycles, f"{what}: a gap before pass {q}"
            check_pass(samples, s, pp, rr, n, f"{what} pass {q}")
    return rsp.cycles


@cocotb.test()
async def test_mpl(dut):
    """MPL against pow() and montu.arith.verma.mpl_powmod (exponent_bits = k): X = P^E mod n,
    Y the last pass's Y, P, E, C, O unchanged; every pass bit-exact at small sizes; the same
    cycles for every exponent (constant time: >= 20 exponents, 0 and all-ones included)."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 5)
    if BIG_ONLY:
        k = K
        n = moduli(rng, k)[0]
        await setup_modulus(u, k, n)
        e = rng.getrandbits(k) | (1 << (k - 1))
        cycles = await mpl_case(u, n, rng.randrange(n), e)
        assert cycles == (k + 2) * u.sz.pass_cycles + 2
        cocotb.log.info("MPL k=%d: %d cycles", k, cycles)
        return
    for k in [kk for kk in (2, 3, 4, 7, 13, 48, 64, 65, K) if kk <= K]:
        for n in moduli(rng, k)[:2]:
            await setup_modulus(u, k, n)
            top = 1 << (2 * u.sz.D)
            for p, e in ((rng.randrange(n), rng.getrandbits(k)), (0, 5 % (1 << k)),
                         (1, (1 << k) - 1), (n - 1, 1 << (k - 1)), (top - 1, rng.getrandbits(k)),
                         (rng.randrange(top), 0)):
                await mpl_case(u, n, p, e, monitor=(k <= 65))
    # constant time: 20+ exponents, one modulus, the same cycles
    k = K
    n = moduli(rng, k)[0]
    await setup_modulus(u, k, n)
    exps = [0, 1, (1 << k) - 1, 1 << (k - 1)] + [rng.getrandbits(k) for _ in range(18)]
    seen = {await mpl_case(u, n, rng.randrange(n), e) for e in exps}
    assert seen == {(k + 2) * u.sz.pass_cycles + 2}, seen


@cocotb.test(skip=BIG_ONLY)
async def test_response_hold(dut):
    """rsp_valid_o and its data hold until rsp_ready_i; cmd_ready_o stays low meanwhile."""
    u = Engine(dut)
    await u.start()
    await u.write("E", 0x1234)
    dut.rsp_ready_i.value = 0
    insn = encode("RD", ra=REG["E"])
    await FallingEdge(dut.clk_i)
    dut.cmd_insn_i.value = insn
    dut.cmd_valid_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.cmd_valid_i.value = 0
    await RisingEdge(dut.rsp_valid_o)
    for _ in range(5):
        await FallingEdge(dut.clk_i)
        assert int(dut.rsp_valid_o.value) == 1 and int(dut.cmd_ready_o.value) == 0
        assert int(dut.rsp_data_o.value) == 0x1234 and int(dut.rsp_cycles_o.value) == 2
        assert int(dut.busy_o.value) == 0
    dut.rsp_ready_i.value = 1
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    assert int(dut.rsp_valid_o.value) == 0 and int(dut.cmd_ready_o.value) == 1
    u.check_sim(insn, 0, Response(0, 0, 0x1234, 2))


async def start_and_reset(u: Engine, insn: int, after: int) -> None:
    """Accept a command, let it run `after` clocks, then reset in the middle of it."""
    dut = u.dut
    await FallingEdge(dut.clk_i)
    assert int(dut.cmd_ready_o.value)
    dut.cmd_insn_i.value = insn
    dut.cmd_valid_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.cmd_valid_i.value = 0
    await ClockCycles(dut.clk_i, after)
    await FallingEdge(dut.clk_i)
    assert int(dut.busy_o.value) == 1 and int(dut.rsp_valid_o.value) == 0
    assert int(dut.u_core.busy_o.value) == 1, "reset should hit the PE array while it runs"
    await u.reset()


@cocotb.test()
async def test_reset_mid_operation(dut):
    """Reset in the middle of CMMM and of MPL (inside a ladder pass): the engine is in its
    power-on state (k = K, every register 0, no modulus) and the next commands work."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 6)
    k = K
    n = moduli(rng, k)[0]
    sz = sizes(k)
    cases = (("CMMM", {"ra": REG["P"], "rb": REG["R"], "f": 1}, 2 + sz.I // 2),
             ("MPL", {}, 1 + 3 * sz.pass_cycles + sz.I // 3))
    for name, slots, after in cases:
        await setup_modulus(u, k, n)
        f_mont = 4 ** sz.I
        await u.load(C=f_mont * f_mont % n, O=f_mont % n, P=rng.randrange(n), R=rng.randrange(n),
                     E=(1 << k) - 1)
        await start_and_reset(u, encode(name, **slots), after)
        assert await u.snapshot() == ZERO
        await u.cmd("CMMM", ra=REG["P"], rb=REG["R"], expect="E_NO_MODULUS")
        # a correct command sequence
        await setup_modulus(u, k, n)
        a = rng.randrange(n)
        await cmmm_case(u, n, "P", "R", 1, p=a, r=rng.randrange(n), trace=False)
        if not BIG_ONLY:     # (the big builds run their one full MPL in test_mpl)
            await mpl_case(u, n, a, 5)


def random_command(rng: random.Random, state: dict) -> tuple[int, int]:
    """A random command, valid or not: mostly instructions of the table with random or
    plausible register fields and data, some unknown opcodes."""
    k = state["k"]
    if rng.random() < 0.06:
        return rng.getrandbits(32), rng.getrandbits(64)
    names = [ins.name for ins in ISA.instructions]
    weights = {"NOP": 1, "SETLEN": 1, "WR": 8, "RD": 4, "SETMOD": 2, "CMMM": 4, "MPL": 1.5,
               "WIPE": 0.5}
    name = rng.choices(names, [weights[nm] for nm in names])[0]

    def reg() -> int:
        return rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 31] if rng.random() < 0.15
                          else [0, 1, 2, 3, 4, 5, 6, 7])

    slots = {"rd": reg(), "ra": reg(), "rb": reg(), "f": rng.getrandbits(1),
             "imm": rng.getrandbits(8) if rng.random() < 0.1 else 0}
    data = 0
    if name == "SETLEN":
        data = rng.choice([2, 3, 4, 5, 8, 13, 47, 64, K, rng.randrange(2, K + 1), 0, 1, K + 1,
                           rng.getrandbits(64)])
    elif name == "WR":
        reg_name = next((r for r, i in REG.items() if i == slots["rd"]), "P")
        width = width_of(reg_name, k)
        lo = 64 * state["wptr"]
        bits = max(0, min(64, width - lo))
        data = rng.getrandbits(bits) if (rng.random() < 0.9 and bits) else rng.getrandbits(64)
        if slots["rd"] == REG["N"] and rng.random() < 0.7:
            data |= 1
    elif name == "CMMM":
        if rng.random() < 0.8:
            slots["ra"] = REG[rng.choice(ISA.by_name["CMMM"].allowed("ra"))]
            slots["rb"] = REG[rng.choice(ISA.by_name["CMMM"].allowed("rb"))]
    return encode(name, **slots), data


@cocotb.test(skip=BIG_ONLY)
async def test_random_stream(dut):
    """A random command stream, invalid commands included, never hangs; each response equals
    the simulator's (when it is there); the cycle counts agree with the clock edges and with
    verma.yaml. Now and then valid operands are loaded (word by word from wherever wptr
    stands), so that CMMM and MPL really run."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 7)
    opcode = {ins.name: ins.opcode for ins in ISA.instructions}
    by_op = {ins.opcode: ins.name for ins in ISA.instructions}
    state = {"k": 8, "wptr": 0, "modulus": False}
    await u.setlen(8)
    stats: dict[str, int] = {}

    async def run(insn: int, data: int) -> Response:
        rsp = await u.send(insn, data)
        u.check_sim(insn, data, rsp)
        op = op_of(insn)
        name = by_op.get(op, "unknown")
        if rsp.err == 0:
            f = (insn >> ISA.slots["f"].lsb) & 1 if name == "CMMM" else 0
            want = expected_cycles(name, state["k"], f=f)
        else:
            want = ISA.error_cycles
        assert rsp.cycles == want, f"{name} k={state['k']}: {rsp.cycles} != {want}"
        key = f"{name}:{'ok' if rsp.err == 0 else rsp.err}"
        stats[key] = stats.get(key, 0) + 1
        if rsp.err == 0:
            if op == opcode["SETLEN"]:
                state["k"], state["wptr"] = data, 0
                u.k = data
            elif op == opcode["WIPE"]:
                state["wptr"] = 0
            elif op == opcode["WR"]:
                state["wptr"] = (state["wptr"] + 1) % sizes(state["k"]).Wd
        return rsp

    async def load_valid() -> None:
        k = state["k"]
        n = rng.getrandbits(k) | 1 | (1 << (k - 1))
        top = 1 << (2 * sizes(k).D)
        values = {"N": n, "C": rng.randrange(n), "O": rng.randrange(n), "P": rng.randrange(top),
                  "R": rng.randrange(top), "E": rng.getrandbits(k)}
        for reg, value in values.items():
            for _ in range(sizes(k).Wd):
                j = state["wptr"]
                await run(encode("WR", rd=REG[reg]), (value >> (64 * j)) & MASK64)
            if reg == "N":
                await run(encode("SETMOD"), 0)

    for i in range(STREAM):
        insn, data = random_command(rng, state)
        op = op_of(insn)
        if op == opcode["SETLEN"] and 2 <= data <= K and data > 64 and rng.random() < 0.8:
            data = rng.choice([5, 8, 13, 47, 64])     # keep MPL short: small lengths mostly
        await run(insn, data)
        if i % 29 == 28:
            await load_valid()
    cocotb.log.info("random stream (instruction:result -> count): %s",
                    ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    assert stats.get("CMMM:ok", 0) >= 5 and stats.get("MPL:ok", 0) >= 2, stats
    if u.sim is None:
        cocotb.log.warning("montu.engines.verma.simulator is not importable: the stream was "
                           "checked against verma.yaml's cycles, the clock edges and for never "
                           "hanging only")
