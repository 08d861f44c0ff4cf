"""cocotb benches of yeh_top, the yeh engine (run by tests/hw/test_yeh_cocotb.py, not directly).

Every command is checked against
  * the golden model montu.arith.yeh (bsr4: the result P[L] + C1, P[L], C1 and the multiple k of
    every iteration; mod_exp) and Python's pow(),
  * the cycle formulas of src/montu/isa/yeh.yaml (montu.isa.table.load_engine("yeh")): every
    response's cycles, errors included (decode errors: error_cycles; E_RANGE of BSR4/EXP:
    range_error_cycles), and rsp_cycles_o against the clock edges actually counted,
  * the engine's cycle-exact simulator montu.engines.yeh.simulator.YehSimulator, fed the same
    command stream, response by response (err, flags, data, cycles), when it is importable.

Internal signals read (yeh_top's hierarchy; Verilator builds with --public-flat-rw), all in the
core instance u_core (hw/ip/yeh/rtl/yeh_core.sv), sampled at the falling clock edge:
  u_core.iter_valid, u_core.k       a radix-4 iteration runs in this clock; its multiple k of N
  u_core.plus1, u_core.ge_n         the +1 clock of a BSR4; s = [P[L] + C1 >= N]
  u_core.p_sum + u_core.p_carry + u_core.p_cy       = P[L]  } after the +1 clock, held until
  u_core.c1_sum + u_core.c1_carry + u_core.c1_cy    = C1    } the next BSR4 is set up

Environment: YEH_CFG (JSON, {"NBits": 128}), YEH_SUITE ("full": every bench; "big": the few
that a 1024-bit or larger build runs), MONTU_SEED, YEH_STREAM (commands of the random stream).
"""

from __future__ import annotations

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, First, ReadOnly, RisingEdge, Timer

from montu.arith import yeh as golden
from montu.isa.encoding import Response
from montu.isa.table import evaluate_formula, load_engine

CFG = json.loads(os.environ.get("YEH_CFG", '{"NBits": 128}'))
NBITS = int(CFG["NBits"])
NWORDS = NBITS // 64
SUITE = os.environ.get("YEH_SUITE", "full")
SEED = int(os.environ.get("MONTU_SEED", "1"))
STREAM = int(os.environ.get("YEH_STREAM", "600"))
ISA = load_engine("yeh")
E = ISA.error_code
REG = ISA.register_index
ONE = REG["ONE"]
MASK64 = (1 << 64) - 1
# No command may take longer than this: the worst case of the slowest (EXP with nb = 2L at
# L = NBits) plus slack, so an RTL that never answers fails instead of hanging the bench.
RESPONSE_LIMIT = ISA.by_name["EXP"].worst_case_cycles(
    "yeh", L=NBITS, W=NWORDS, NWords=NWORDS, NBits=NBITS) + 4 * NWORDS + 16
BIG_ONLY = SUITE != "full"     # skip the benches that are not part of the big builds' subset


def words_of(length: int) -> int:
    return -(-length // 64)


def variables(length: int, **data_dependent: int) -> dict[str, int]:
    return {"L": length, "W": words_of(length), "NWords": NWORDS, "NBits": NBITS, **data_dependent}


def expected_cycles(name: str, length: int, **data_dependent: int) -> int:
    return ISA.by_name[name].cycle_count("yeh", **variables(length, **data_dependent))


def range_error_cycles(name: str, length: int) -> int:
    return evaluate_formula(ISA.by_name[name].range_error_cycles, variables(length))


def encode(name: str, *, rd: int = 0, ra: int = 0, rb: int = 0, f: int = 0, imm: int = 0) -> int:
    """The instruction word of `name` (yeh.yaml's slots); register slots take indices."""
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
        from montu.engines.yeh.simulator import YehSimulator
    except ImportError:
        return None
    return YehSimulator


def exp_nb(e: int) -> int:
    return 2 if e == 0 else e.bit_length() + bin(e).count("1")


def exp_calls(m: int, e: int, c: int, n: int) -> list[tuple[int, int, int]]:
    """The BSR4s of EXP, in order, as (A, B, reduced result): the H-type sequence of yeh.yaml."""
    calls = []

    def step(a: int, b: int) -> int:
        raw = golden.bsr4(a, b, n).result
        out = raw - n if raw >= n else raw
        calls.append((a, b, out))
        return out

    if e == 0:
        x = step(c, 1)
    else:
        m_bar = x = step(c, m)
        for i in range(e.bit_length() - 2, -1, -1):
            x = step(x, x)
            if (e >> i) & 1:
                x = step(x, m_bar)
    step(x, 1)
    return calls


# ----------------------------------------------------------------------------- driver
class CoreMonitor:
    """Records, for every BSR4 the core runs, the k of each iteration, P[L], C1, s, and the
    clocks of its first iteration and of its +1 clock."""

    def __init__(self, dut):
        self.dut = dut
        self.runs: list[dict] = []
        self._ks: list[int] = []
        self._first = 0
        self._task = None

    def start(self) -> None:
        self.runs, self._ks = [], []
        self._task = cocotb.start_soon(self._watch())

    def stop(self) -> list[dict]:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        return self.runs

    async def _watch(self) -> None:
        core = self.dut.u_core
        clock = 0
        while True:
            await FallingEdge(self.dut.clk_i)
            clock += 1
            if int(core.iter_valid.value):
                if not self._ks:
                    self._first = clock
                self._ks.append(int(core.k.value))
            elif int(core.plus1.value):
                # the accumulators still hold P[L] and C1 in the +1 clock
                p = int(core.p_sum.value) + int(core.p_carry.value) + int(core.p_cy.value)
                c1 = int(core.c1_sum.value) + int(core.c1_carry.value) + int(core.c1_cy.value)
                self.runs.append({"ks": tuple(self._ks), "p": p, "c1": c1,
                                  "ge_n": int(core.ge_n.value), "first": self._first,
                                  "plus1": clock})
                self._ks = []


class Engine:
    """Drives the command/response ports, checks cycles against yeh.yaml and mirrors every
    command on the simulator (when present)."""

    def __init__(self, dut, *, check_sim: bool = True):
        self.dut = dut
        sim_cls = simulator_class()
        self.sim = sim_cls(nbits=NBITS) if (sim_cls is not None and check_sim) else None
        self.length = NBITS
        self.wptr = self.rptr = 0
        self.monitor = CoreMonitor(dut)

    @property
    def words(self) -> int:
        return words_of(self.length)

    async def start(self) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns", impl="gpi").start())
        dut.cmd_valid_i.value = 0
        dut.cmd_insn_i.value = 0
        dut.cmd_data_i.value = 0
        dut.rsp_ready_i.value = 1
        await self.reset()

    async def reset(self) -> None:
        """Assert rst_ni (asynchronously, mid-cycle) and wait until the engine takes commands
        (after its NWords-clock clearing of the RAMs)."""
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
            assert waited <= NWORDS + 2, "no cmd_ready_o after reset"
        assert int(dut.busy_o.value) == 0 and int(dut.rsp_valid_o.value) == 0
        if self.sim is not None:
            self.sim.reset()
        self.length = NBITS
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

    async def cmd(self, name: str, data: int = 0, *, expect: str = "E_OK", nb: int | None = None,
                  **slots: int) -> Response:
        """A named command: checks its error, its cycles (formula) and the simulator."""
        insn = encode(name, **slots)
        rsp = await self.send(insn, data)
        assert rsp.err == E[expect], \
            f"{name} {slots} data={data:#x}: err {rsp.err}, expected {expect}"
        length = self.length
        if rsp.err == E["E_OK"]:
            if name == "EXP":
                assert nb is not None, "EXP: give nb"
                want = expected_cycles(name, length, nb=nb)
            else:
                want = expected_cycles(name, length)
        elif name in ("BSR4", "EXP") and rsp.err == E["E_RANGE"]:
            want = range_error_cycles(name, length)
        else:
            want = ISA.error_cycles
        assert rsp.cycles == want, \
            f"{name} {slots} L={length}: {rsp.cycles} cycles, yeh.yaml says {want}"
        self._track(name, rsp.err, data)
        self._check_sim(insn, data, rsp)
        return rsp

    def _track(self, name: str, err: int, data: int) -> None:
        if err:
            return
        if name == "SETLEN":
            self.length, self.wptr, self.rptr = data, 0, 0
        elif name == "WIPE":
            self.wptr = self.rptr = 0
        elif name == "WR":
            self.wptr = (self.wptr + 1) % self.words
        elif name == "RD":
            self.rptr = (self.rptr + 1) % self.words

    def _check_sim(self, insn: int, data: int, rsp: Response) -> None:
        if self.sim is not None:
            ref = self.sim.execute(insn, data)
            assert rsp == ref, f"insn {insn:#010x} data {data:#x}: RTL {rsp} != simulator {ref}"

    async def setlen(self, length: int) -> None:
        await self.cmd("SETLEN", length)

    async def write(self, reg: str, value: int) -> None:
        assert self.wptr == 0
        for j in range(self.words):
            await self.cmd("WR", (value >> (64 * j)) & MASK64, rd=REG[reg])

    async def read(self, reg: str) -> int:
        assert self.rptr == 0
        value = 0
        for j in range(self.words):
            value |= (await self.cmd("RD", ra=REG[reg])).data << (64 * j)
        return value

    async def snapshot(self) -> dict[str, int]:
        """Every register as RD returns it, and the flags."""
        state = {r: await self.read(r) for r in ("N", "C", "M", "E", "X")}
        state["flags"] = int(self.dut.rsp_flags_o.value)
        return state

    async def load(self, **regs: int) -> None:
        for reg, value in regs.items():
            await self.write(reg, value)


# ----------------------------------------------------------------------------- operands
def moduli(rng: random.Random, length: int) -> list[int]:
    """Moduli of the datapath width L: top bit set (k = L), odd width (k = L - 1), all ones,
    the smallest allowed (2^(L-2) + 1) and the largest (2^L - 1 is all ones)."""
    if length == 2:
        return [3]
    out = [rng.getrandbits(length) | 1 | (1 << (length - 1)),
           rng.getrandbits(length - 1) | 1 | (1 << (length - 2)),
           (1 << length) - 1,
           (1 << (length - 2)) + 1]
    if length > 4:
        out.append((1 << (length - 1)) + 1)
    return out


def operands(rng: random.Random, n: int) -> list[int]:
    top = n.bit_length()
    return sorted({0, 1, n - 1, n - 2 if n > 2 else 0, rng.randrange(n), rng.randrange(n),
                   (1 << (top - 1)) - 1 if top > 1 else 0})


def lengths() -> list[int]:
    """Operand lengths: tiny, around the word boundaries, and the full width."""
    base = [2, 4, 6, 10, 62, 64, 66, 100, 126, 128, 130, 190, 192, NBITS - 2, NBITS]
    return sorted({length for length in base if 2 <= length <= NBITS})


def check_run(run: dict, a: int, b: int, n: int, what: str) -> golden.Bsr4Run:
    ref = golden.bsr4(a, b, n)
    # the core: L/2 iterations in consecutive clocks, then the +1 clock: L/2 + 1 clocks
    assert run["plus1"] - run["first"] == len(run["ks"]) == ref.width // 2, \
        f"{what}: the core took {run['plus1'] - run['first'] + 1} clocks, not L/2 + 1"
    assert run["ks"] == ref.multiples, f"{what}: k sequence differs from montu.arith.yeh.bsr4"
    assert run["p"] == ref.p_final, f"{what}: P[L] {run['p']:#x} != {ref.p_final:#x}"
    assert run["c1"] == ref.c1, f"{what}: C1 {run['c1']:#x} != {ref.c1:#x}"
    assert run["ge_n"] == int(ref.result >= n), f"{what}: s = [R >= N] wrong"
    return ref


async def bsr4_case(u: Engine, n: int, a: int, b: int, ra: str, rb: str, f: int, *,
                    with_monitor: bool = True) -> None:
    """Load A and B where BSR4 (ra, rb) takes them, run it, check X, XL, P[L], C1 and the k's."""
    if ra == "C":
        await u.write("C", a)
    else:
        await u.write("X", a)
    if rb == "M":
        await u.write("M", b)
    want_b = {"M": b, "ONE": 1, "X": a}[rb]
    if with_monitor:
        u.monitor.start()
    await u.cmd("BSR4", ra=REG[ra], rb=REG[rb], f=f)
    runs = u.monitor.stop() if with_monitor else []
    ref = golden.bsr4(a, want_b, n)
    result = ref.result - n if (f and ref.result >= n) else ref.result
    what = f"BSR4({ra}, {rb}) f={f} L={u.length} N={n:#x} A={a:#x} B={want_b:#x}"
    if with_monitor:
        assert len(runs) == 1, f"{what}: {len(runs)} +1 clocks"
        check_run(runs[0], a, want_b, n, what)
        core = u.dut.u_core    # P[L] and C1 are still held after the instruction
        p = int(core.p_sum.value) + int(core.p_carry.value) + int(core.p_cy.value)
        c1 = int(core.c1_sum.value) + int(core.c1_carry.value) + int(core.c1_cy.value)
        assert (p, c1) == (ref.p_final, ref.c1), f"{what}: P[L], C1 not held"
    x = await u.read("X")
    xl = (result >> u.length) & 1
    assert int(u.dut.rsp_flags_o.value) & 1 == xl
    # RD returns X's words; bit L (XL) shows in word W - 1 unless L is a multiple of 64
    assert x == result & ((1 << (64 * u.words)) - 1), f"{what}: X {x:#x} != {result:#x}"
    if f:
        assert result < n
    else:
        assert result <= 2 * n - 2


async def setup_modulus(u: Engine, length: int, n: int) -> None:
    if u.length != length:
        await u.setlen(length)
    await u.write("N", n)
    await u.cmd("SETMOD")


# ----------------------------------------------------------------------------- tests
@cocotb.test(skip=BIG_ONLY)
async def test_basics_and_decode_errors(dut):
    """NOP; SETLEN, WR, RD round trips; every decode error, each changing nothing."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED)
    await u.cmd("NOP")
    assert await u.snapshot() == {"N": 0, "C": 0, "M": 0, "E": 0, "X": 0, "flags": 0}
    # bad opcodes: a sample of the opcodes not in the table
    known = {ins.opcode for ins in ISA.instructions}
    for op in [op for op in range(256) if op not in known][:: 7] + [0xFF, 0x3E, 0x12, 0x06]:
        rsp = await u.send(op << 24)
        assert rsp.err == E["E_BAD_OPCODE"] and rsp.cycles == ISA.error_cycles, (op, rsp)
        u._check_sim(op << 24, 0, rsp)
    # SETLEN errors
    for bad in (0, 1, 3, NBITS + 1, NBITS + 2, 1 << 40, MASK64, MASK64 - 1):
        await u.cmd("SETLEN", bad, expect="E_BAD_LENGTH")
    length = min(NBITS, 130) - (0 if NBITS > 128 else 2)   # not a multiple of 64
    await u.setlen(length)
    # round trips through N, C, M, E, X
    vals = {r: rng.getrandbits(length) for r in ("N", "C", "M", "E", "X")}
    await u.load(**vals)
    for r, v in vals.items():
        assert await u.read(r) == v, r
    # bad registers: WR rd and RD ra outside {N, C, M, E, X}
    for bad in (5, 6, 7, 17, 31):
        await u.cmd("WR", 1, rd=bad, expect="E_BAD_REG")
        await u.cmd("RD", ra=bad, expect="E_BAD_REG")
    # BSR4 (ra, rb) pairs: only (C, M), (C, ONE), (X, M), (X, ONE), (X, X) exist
    allowed = {(REG[a], REG[b]) for a, b in ISA.by_name["BSR4"].pairs}
    for ra in list(range(8)) + [31]:
        for rb in list(range(8)) + [31]:
            if (ra, rb) not in allowed:
                await u.cmd("BSR4", ra=ra, rb=rb, f=rng.getrandbits(1), expect="E_BAD_REG")
    # without a modulus: E_NO_MODULUS (after the register check)
    for ra, rb in sorted(allowed):
        await u.cmd("BSR4", ra=ra, rb=rb, expect="E_NO_MODULUS")
    await u.cmd("EXP", expect="E_NO_MODULUS")
    # SETMOD on bad moduli: even, 1, below 2^(L-2); the register keeps its value
    for bad_n in (vals["N"] & ~1, 1, 0, (1 << (length - 2)) - 1, 3 if length > 4 else 2):
        await u.write("N", bad_n)
        await u.cmd("SETMOD", expect="E_BAD_MODULUS")
        assert await u.read("N") == bad_n
    # WR: bits at or above L in the last word
    last_bits = length - 64 * (u.words - 1)
    for j in range(u.words - 1):
        await u.cmd("WR", MASK64, rd=REG["M"])          # words below the last take anything
    if last_bits < 64:
        await u.cmd("WR", 1 << last_bits, rd=REG["M"], expect="E_RANGE")
        await u.cmd("WR", MASK64, rd=REG["X"], expect="E_RANGE")
    await u.cmd("WR", (1 << last_bits) - 1, rd=REG["M"])
    assert await u.read("M") == (1 << length) - 1
    # XTOM: X >= 2^L is E_RANGE; else M = X
    await u.write("X", vals["X"])
    await u.cmd("XTOM")
    assert await u.read("M") == vals["X"]
    # every error above changed nothing: a full snapshot agrees with what was written
    before = await u.snapshot()
    rsp = await u.send(0xEE000000)
    assert rsp == Response(E["E_BAD_OPCODE"], before["flags"], 0, ISA.error_cycles)
    u._check_sim(0xEE000000, 0, rsp)
    await u.cmd("SETLEN", 7, expect="E_BAD_LENGTH")
    await u.cmd("WR", 0, rd=REG["ONE"], expect="E_BAD_REG")
    await u.cmd("SETMOD", expect="E_BAD_MODULUS")     # N is the last bad modulus above
    await u.cmd("BSR4", ra=REG["X"], rb=REG["X"], expect="E_NO_MODULUS")
    assert await u.snapshot() == before
    # WIPE: everything 0, L kept; SETLEN also clears
    await u.cmd("WIPE")
    assert await u.snapshot() == {"N": 0, "C": 0, "M": 0, "E": 0, "X": 0, "flags": 0}
    assert u.words == words_of(length)
    await u.load(N=5, C=7)
    await u.setlen(NBITS)
    assert await u.snapshot() == {"N": 0, "C": 0, "M": 0, "E": 0, "X": 0, "flags": 0}


@cocotb.test(skip=BIG_ONLY)
async def test_pointers_and_errors_keep_state(dut):
    """Errors move no pointer: interleave errors with a word-wise write and a word-wise read."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 1)
    length = NBITS
    await u.setlen(length)
    value = rng.getrandbits(length)
    for j in range(u.words):
        await u.cmd("WR", (value >> (64 * j)) & MASK64, rd=REG["C"])
        await u.cmd("WR", 3, rd=REG["ONE"], expect="E_BAD_REG")
        await u.cmd("EXP", expect="E_NO_MODULUS")
        await u.cmd("SETLEN", 0, expect="E_BAD_LENGTH")
    got = 0
    for j in range(u.words):
        got |= (await u.cmd("RD", ra=REG["C"])).data << (64 * j)
        await u.cmd("RD", ra=REG["ONE"], expect="E_BAD_REG")
        await u.cmd("BSR4", ra=REG["X"], rb=REG["X"], expect="E_NO_MODULUS")
    assert got == value


@cocotb.test()
async def test_bsr4_bit_exact(dut):
    """BSR4 (every operand pair, f = 0 and 1) against montu.arith.yeh.bsr4: X, XL, P[L], C1
    and the k of every iteration, over lengths around the word boundaries (odd-width moduli,
    all-ones moduli, the smallest moduli) and edge operands."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 2)
    pairs = [("C", "M"), ("C", "ONE"), ("X", "M"), ("X", "ONE"), ("X", "X")]
    todo = lengths() if not BIG_ONLY else [NBITS]
    for length in todo:
        for n in moduli(rng, length) if not BIG_ONLY else moduli(rng, length)[:2]:
            await setup_modulus(u, length, n)
            ops = operands(rng, n)
            cases = 6 if not BIG_ONLY else 3
            for t in range(cases):
                ra, rb = pairs[t % len(pairs)] if t < len(pairs) else rng.choice(pairs)
                a = ops[t % len(ops)] if t < len(ops) else rng.randrange(n)
                b = rng.choice(ops)
                await bsr4_case(u, n, a, b, ra, rb, f=t & 1)
            # the worst case for the unreduced range: A = B = N - 1
            await bsr4_case(u, n, n - 1, n - 1, "X", "X", f=0)
            await bsr4_case(u, n, n - 1, n - 1, "C", "M", f=1)


@cocotb.test(skip=BIG_ONLY)
async def test_bsr4_chain_and_xl(dut):
    """Unreduced results feed XTOM and BSR4 again: X >= 2^L (XL) is E_RANGE for XTOM and for
    BSR4 with A = X or B = X, after W + 3 cycles, with nothing changed."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 3)
    for length in [lg for lg in (64, 66, NBITS) if lg <= NBITS]:
        # an all-ones modulus and A = B = N - 1 give R = P[L] + C1 >= 2^L often; search one
        n = (1 << length) - 1
        await setup_modulus(u, length, n)
        found = False
        for _ in range(400):
            a, b = rng.randrange(n // 2, n), rng.randrange(n // 2, n)
            ref = golden.bsr4(a, b, n)
            if ref.result >> length:
                found = True
                break
        assert found, "no operands with P[L] + C1 >= 2^L found"
        await bsr4_case(u, n, a, b, "C", "M", f=0)
        assert int(dut.rsp_flags_o.value) & 1 == 1
        before = await u.snapshot()
        assert before["flags"] == 1
        await u.cmd("XTOM", expect="E_RANGE")
        for ra, rb in (("X", "M"), ("X", "ONE"), ("X", "X")):
            await u.cmd("BSR4", ra=REG[ra], rb=REG[rb], f=1, expect="E_RANGE")
        assert await u.snapshot() == before
        # writing X clears XL (any word: here word 0, while bit L is in word W - 1 or above)
        assert (await u.cmd("WR", 5, rd=REG["X"])).flags == 0
        for _ in range(u.words - 1):
            await u.cmd("WR", 0, rd=REG["X"])
        assert int(dut.rsp_flags_o.value) == 0
        assert await u.read("X") == 5


@cocotb.test(skip=BIG_ONLY)
async def test_range_errors(dut):
    """E_RANGE of BSR4 (A or B >= N) and EXP (M or C >= N) after W + 3 cycles; nothing changes
    (registers, flags, pointers, and P[L]/C1 in the core); the next command works."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 4)
    for length in [lg for lg in (10, 64, 130, NBITS) if lg <= NBITS]:
        n = rng.getrandbits(length) | 1 | (1 << (length - 1))
        await setup_modulus(u, length, n)
        good = rng.randrange(n)
        await bsr4_case(u, n, good, rng.randrange(n), "C", "M", f=1)
        core = u.dut.u_core
        held = [int(getattr(core, s).value) for s in ("p_sum", "p_carry", "p_cy", "c1_sum")]
        top = (1 << length) - 1
        for bad in (n, n + 1, top):
            if bad >= 1 << length:
                continue
            for ra, rb, regs in (("C", "M", {"C": bad, "M": good}),
                                 ("C", "M", {"C": good, "M": bad}),
                                 ("C", "ONE", {"C": bad}),
                                 ("X", "M", {"X": bad, "M": good}),
                                 ("X", "ONE", {"X": bad}),
                                 ("X", "X", {"X": bad})):
                await u.load(**regs)
                before = await u.snapshot()
                await u.cmd("BSR4", ra=REG[ra], rb=REG[rb], f=rng.getrandbits(1), expect="E_RANGE")
                assert await u.snapshot() == before
            for regs in ({"C": bad, "M": good}, {"C": good, "M": bad}, {"C": bad, "M": bad}):
                await u.load(E=rng.getrandbits(length), **regs)
                before = await u.snapshot()
                await u.cmd("EXP", expect="E_RANGE")
                assert await u.snapshot() == before
        assert held == [int(getattr(core, s).value) for s in ("p_sum", "p_carry", "p_cy", "c1_sum")]
        # equal to N is out of range, N - 1 is in
        await u.load(C=n - 1, M=n - 1)
        await u.cmd("BSR4", ra=REG["C"], rb=REG["M"], f=1)


async def exp_case(u: Engine, n: int, m: int, e: int, *, with_monitor: bool = False) -> None:
    length = u.length
    r2 = pow(2, 2 * length, n)
    await u.load(C=r2, M=m, E=e)
    nb = exp_nb(e)
    if with_monitor:
        u.monitor.start()
    rsp = await u.cmd("EXP", nb=nb)
    assert rsp.flags == 0
    x = await u.read("X")
    assert x == pow(m, e, n), f"EXP L={length}: {m:#x}^{e:#x} mod {n:#x}: {x:#x}"
    if e >= 1:
        assert x == golden.mod_exp(m, e, n)[0]
    m_after = await u.read("M")
    m_bar = m * (1 << length) % n
    assert m_after == (m_bar if e >= 2 else m), f"EXP: M after is {m_after:#x}"
    assert await u.read("E") == e and await u.read("C") == r2
    if with_monitor:
        runs = u.monitor.stop()
        calls = exp_calls(m, e, r2, n)
        assert len(runs) == len(calls) == nb
        for i, (run, (a, b, _)) in enumerate(zip(runs, calls)):
            check_run(run, a, b, n, f"EXP BSR4 #{i}")
            if i:   # back to back: iteration 0 in the clock after the previous +1 clock
                assert run["first"] == runs[i - 1]["plus1"] + 1, f"EXP BSR4 #{i}: a gap"


@cocotb.test()
async def test_exp(dut):
    """EXP against pow() with E in {0, 1, 2, 3, random}; nb from the exponent's bits; M holds
    M-bar afterwards for E >= 2; every BSR4 of the sequence bit-exact (small sizes)."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 5)
    if BIG_ONLY:
        length = NBITS
        n = rng.getrandbits(length) | 1 | (1 << (length - 1))
        await setup_modulus(u, length, n)
        await exp_case(u, n, rng.randrange(n), rng.getrandbits(length) | (1 << (length - 1)))
        await exp_case(u, n, rng.randrange(n), 65537)
        return
    for length in [lg for lg in (2, 4, 64, 66, 130, NBITS) if lg <= NBITS]:
        for n in moduli(rng, length)[:3]:
            await setup_modulus(u, length, n)
            for e in (0, 1, 2, 3, rng.getrandbits(min(length, 24)), rng.getrandbits(length)):
                await exp_case(u, n, rng.randrange(n), e, with_monitor=(e < 1 << 24))
            await exp_case(u, n, 0, 5 & ((1 << length) - 1))
            await exp_case(u, n, n - 1, (1 << length) - 1)
    # M-bar stays in M: a second EXP with the same M runs on M-bar
    length = min(NBITS, 128)
    n = rng.getrandbits(length) | 1 | (1 << (length - 1))
    await setup_modulus(u, length, n)
    m = rng.randrange(n)
    await exp_case(u, n, m, 6)


@cocotb.test(skip=BIG_ONLY)
async def test_response_hold(dut):
    """rsp_valid_o and its data hold until rsp_ready_i; cmd_ready_o stays low meanwhile."""
    u = Engine(dut)
    await u.start()
    await u.setlen(64)
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
    u._check_sim(insn, 0, Response(0, 0, 0x1234, 2))


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
    assert int(dut.u_core.busy_o.value) == 1, "reset should hit the BSR4 core while it runs"
    await u.reset()


@cocotb.test()
async def test_reset_mid_operation(dut):
    """Reset in the middle of BSR4 and of EXP: the engine is in its power-on state (L = NBits,
    everything 0, no modulus, the RAMs cleared) and the next commands work."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 6)
    length = NBITS
    n = rng.getrandbits(length) | 1 | (1 << (length - 1))
    cases = (("BSR4", {"ra": REG["X"], "rb": REG["X"], "f": 1}, NWORDS + 2 + NBITS // 4),
             ("EXP", {}, NWORDS + 3 * (NBITS // 2 + 1) + 5))
    for name, slots, after in cases:
        await setup_modulus(u, length, n)
        await u.load(C=pow(2, 2 * length, n), M=rng.randrange(n), E=(1 << length) - 1,
                     X=rng.randrange(n))
        await start_and_reset(u, encode(name, **slots), after)
        assert await u.snapshot() == {"N": 0, "C": 0, "M": 0, "E": 0, "X": 0, "flags": 0}
        await u.cmd("BSR4", ra=REG["C"], rb=REG["M"], expect="E_NO_MODULUS")
        # a correct command sequence
        await setup_modulus(u, length, n)
        a, b = rng.randrange(n), rng.randrange(n)
        await bsr4_case(u, n, a, b, "X", "M", f=1)
        await u.load(C=pow(2, 2 * length, n), M=a, E=5)
        await u.cmd("EXP", nb=exp_nb(5))
        assert await u.read("X") == pow(a, 5, n)


def random_command(rng: random.Random, state: dict) -> tuple[int, int]:
    """A random command, valid or not: mostly instructions of the table with random or
    plausible register fields and data, some unknown opcodes."""
    length = state["L"]
    roll = rng.random()
    if roll < 0.06:
        return rng.getrandbits(32), rng.getrandbits(64)
    names = [ins.name for ins in ISA.instructions]
    weights = {"NOP": 1, "SETLEN": 1, "WR": 8, "RD": 4, "SETMOD": 2, "XTOM": 1, "BSR4": 4,
               "EXP": 2, "WIPE": 0.5}
    name = rng.choices(names, [weights[nm] for nm in names])[0]

    def reg() -> int:   # mostly N, C, M, E, X; sometimes ONE or no register at all
        return rng.choice([0, 1, 2, 3, 4, 5, 6, 31] if rng.random() < 0.15 else [0, 1, 2, 3, 4])

    slots = {"rd": reg(), "ra": reg(), "rb": reg(), "f": rng.getrandbits(1),
             "imm": rng.getrandbits(8) if rng.random() < 0.1 else 0}
    data = 0
    if name == "SETLEN":
        data = rng.choice([2, 4, 6, 8, 10, 64, 66, 126, 128, 130, NBITS,
                           rng.randrange(2, NBITS + 1), 0, 3, NBITS + 2, rng.getrandbits(64)])
    elif name == "WR":
        last = state["wptr"] == words_of(length) - 1
        bits = length - 64 * (words_of(length) - 1) if last else 64
        data = rng.getrandbits(bits) if rng.random() < 0.9 else rng.getrandbits(64)
        if slots["rd"] == REG["N"] and rng.random() < 0.7:
            data |= 1
    elif name == "BSR4":
        if rng.random() < 0.8:
            pairs = ISA.by_name["BSR4"].pairs
            slots["ra"], slots["rb"] = rng.choice([(REG[a], REG[b]) for a, b in pairs])
    return encode(name, **slots), data


@cocotb.test(skip=BIG_ONLY)
async def test_random_stream(dut):
    """A random command stream, invalid commands included, never hangs; each response equals
    the simulator's (when it is there); the cycle counts agree with the clock edges. Now and
    then valid operands are loaded (word by word from wherever wptr stands), so that BSR4 and
    EXP really run."""
    u = Engine(dut)
    await u.start()
    rng = random.Random(SEED + 7)
    sim_cls = simulator_class()
    opcode = {ins.name: ins.opcode for ins in ISA.instructions}
    state = {"L": 8, "wptr": 0}
    await u.setlen(8)
    stats: dict[str, int] = {}

    async def run(insn: int, data: int) -> Response:
        rsp = await u.send(insn, data)
        assert rsp.cycles <= RESPONSE_LIMIT
        u._check_sim(insn, data, rsp)
        op = op_of(insn)
        name = next((nm for nm, oc in opcode.items() if oc == op), "unknown")
        key = f"{name}:{'ok' if rsp.err == 0 else rsp.err}"
        stats[key] = stats.get(key, 0) + 1
        if rsp.err == 0:
            if op == opcode["SETLEN"]:
                state["L"], state["wptr"] = data, 0
            elif op == opcode["WIPE"]:
                state["wptr"] = 0
            elif op == opcode["WR"]:
                state["wptr"] = (state["wptr"] + 1) % words_of(state["L"])
        if u.sim is not None:
            assert (state["L"], state["wptr"]) == (u.sim.length, u.sim.wptr)
        return rsp

    async def load_valid() -> None:
        length = state["L"]
        n = rng.getrandbits(length) | 1 | (1 << (length - 1)) if length > 2 else 3
        values = {"N": n, "C": rng.randrange(n), "M": rng.randrange(n), "X": rng.randrange(n),
                  "E": rng.getrandbits(min(length, 8))}
        for reg, value in values.items():
            for _ in range(words_of(length)):
                j = state["wptr"]
                await run(encode("WR", rd=REG[reg]), (value >> (64 * j)) & MASK64)
            if reg == "N":
                await run(encode("SETMOD"), 0)

    for i in range(STREAM):
        insn, data = random_command(rng, state)
        op = op_of(insn)
        if op == opcode["SETLEN"] and data > 66 and rng.random() < 0.7:
            data = rng.choice([6, 8, 10, 64, 66])     # keep EXP short: small lengths mostly
        rd = (insn >> ISA.slots["rd"].lsb) & 31
        if op == opcode["WR"] and rd == REG["E"] and state["L"] > 16:
            data &= 0xFF                              # and small exponents
        await run(insn, data)
        if i % 37 == 36:
            await load_valid()
    cocotb.log.info("random stream (instruction:result -> count): %s",
                    ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    assert stats.get("BSR4:ok", 0) >= 5 and stats.get("EXP:ok", 0) >= 3, stats
    if sim_cls is None:
        cocotb.log.warning("montu.engines.yeh.simulator is not there: the stream was checked "
                           "for cycles against the edges and for never hanging only")
