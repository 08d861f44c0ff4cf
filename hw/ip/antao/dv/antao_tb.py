"""cocotb benches of antao_top, the antao engine (run by tests/hw/test_antao_cocotb.py, not
directly).

Every command goes to the RTL and to the engine's cycle-exact simulator
(montu.engines.antao.simulator.AntaoSimulator, same parameters), and every response (err, flags,
data, cycles) must be equal; rsp_cycles_o must equal the clock edges actually counted from the
accepting edge to rsp_valid_o. On top of that the benches check the arithmetic against Python
(`%`), the cycle formulas of antao.yaml for the shell commands, and exact interlock stall counts
computed by hand from antao_ucode.yaml.

Microprograms are hand-encoded with montu.isa.ucode.load_format().encode({...}).

Environment: ANTAO_CFG (JSON of antao_top's parameters), MONTU_SEED, ANTAO_STREAM (commands of
the random stream).
"""

from __future__ import annotations

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, First, ReadOnly, RisingEdge, Timer

from montu.engines.antao.params import AntaoParams
from montu.engines.antao.simulator import AntaoSimulator
from montu.isa.encoding import Response
from montu.isa.table import load_engine
from montu.isa.ucode import load_format

CFG = json.loads(os.environ.get("ANTAO_CFG", '{"W": 64, "P": 4, "Depth": 64, "UcodeDepth": 256}'))
PARAMS = AntaoParams(**{
    "w": CFG.get("W", 64), "pes": CFG.get("P", 4), "depth": CFG.get("Depth", 256),
    "alpha_bits": CFG.get("AlphaBits", 4), "mul_stages": CFG.get("MulStages", 2),
    "ucode_depth": CFG.get("UcodeDepth", 1024), "e_words": CFG.get("EWords", 4),
    "in_depth": CFG.get("InDepth", 4096), "out_depth": CFG.get("OutDepth", 128),
    "mul_share": CFG.get("MulShare", 1)})
W, P, DEPTH, UDEPTH = PARAMS.w, PARAMS.pes, PARAMS.depth, PARAMS.ucode_depth
S, L = PARAMS.s, PARAMS.latency
N = PARAMS.mul_share          # clocks per step of a run
WP = PARAMS.fifo_parts
SEED = int(os.environ.get("MONTU_SEED", "1"))
STREAM = int(os.environ.get("ANTAO_STREAM", "400"))
ISA = load_engine("antao")
E = ISA.error_code
F = load_format()
MASK64 = (1 << 64) - 1
WMASK = (1 << W) - 1
CMASK = (1 << (W // 4)) - 1


def insn(name: str) -> int:
    return ISA.by_name[name].opcode << ISA.slots["op"].lsb


def u(**fields: int | str) -> int:
    """A microinstruction word. Defaults that read no RAM and write nothing: xsel = R,
    ysel = ZERO (so a hand-written program stalls only where it means to)."""
    values: dict[str, int | str] = {"xsel": "R", "ysel": "ZERO"}
    values.update(fields)
    return F.encode(values)


HALT = u(seq="HALT")


def run_cycles(steps: int) -> int:
    """A RUN's response cycles for a run of `steps` steps (antao.yaml: 2 + MulShare * run)."""
    return 2 + N * steps


def fifo_parts(word: int) -> list[int]:
    return [(word >> (64 * i)) & MASK64 for i in range(WP)]


# ----------------------------------------------------------------------------- driver
class Engine:
    """Drives the command/response ports; every response is checked against the simulator."""

    def __init__(self, dut):
        self.dut = dut
        self.sim = AntaoSimulator(PARAMS)
        self.limit = 1 << 32
        self.max_wait = 200_000     # clocks any one response may take in these benches

    async def start(self) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns", impl="gpi").start())
        dut.cmd_valid_i.value = 0
        dut.cmd_insn_i.value = 0
        dut.cmd_data_i.value = 0
        dut.rsp_ready_i.value = 1
        await self.reset()
        await self.power_on_state()

    async def power_on_state(self) -> None:
        """The memories have no reset: zero the microcode (UCW) and the PE RAMs (WIPE), the
        simulator's power-on state."""
        await self.load([0] * UDEPTH)
        await self.cmd("WIPE")

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
        self.sim.reset()
        self.limit = 1 << 32

    async def send(self, insn_word: int, data: int = 0) -> Response:
        """One command and its response, with the handshake checks of the shell."""
        dut = self.dut
        await FallingEdge(dut.clk_i)
        while not int(dut.cmd_ready_o.value):
            await FallingEdge(dut.clk_i)
        dut.cmd_insn_i.value = insn_word
        dut.cmd_data_i.value = data
        dut.cmd_valid_i.value = 1
        await RisingEdge(dut.clk_i)                 # the accepting edge
        dut.cmd_valid_i.value = 0
        await ReadOnly()
        t0 = int(dut.cycle_count_o.value)
        assert int(dut.cmd_ready_o.value) == 0 and int(dut.busy_o.value) == 1
        if not int(dut.rsp_valid_o.value):
            timeout = Timer(self.max_wait * 10, unit="ns")
            fired = await First(RisingEdge(dut.rsp_valid_o), timeout)
            assert fired is not timeout, \
                f"insn {insn_word:#010x} data {data:#x}: no response in {self.max_wait} cycles"
            await ReadOnly()
        n = int(dut.cycle_count_o.value) - t0
        rsp = Response(err=int(dut.rsp_err_o.value), flags=int(dut.rsp_flags_o.value),
                       data=int(dut.rsp_data_o.value), cycles=int(dut.rsp_cycles_o.value))
        assert rsp.cycles == n, f"rsp_cycles_o {rsp.cycles} but rsp_valid after {n} edges"
        assert int(dut.done_o.value) == 1 and int(dut.err_o.value) == rsp.err
        assert int(dut.busy_o.value) == 0 and int(dut.cmd_ready_o.value) == 0
        await RisingEdge(dut.clk_i)                 # the response is taken (rsp_ready_i = 1)
        return rsp

    async def cmd(self, name: str, data: int = 0, *, expect: str | None = "E_OK",
                  raw_insn: int | None = None) -> Response:
        """A command on the RTL and the simulator: equal responses, and the expected error."""
        word = insn(name) if raw_insn is None else raw_insn
        known = ISA.by_opcode.get((word >> ISA.slots["op"].lsb) & 0xFF)
        name = known.name if known is not None else name
        rsp = await self.send(word, data)
        ref = self.sim.execute(word, data)
        if rsp != ref and name == "RUN":
            pc = ref.data % UDEPTH
            near = {a: F.decode(self.sim.proc.ucode[a]) for a in range(max(0, pc - 2), pc + 1)}
            raise AssertionError(f"RUN data={data:#x}: RTL {rsp} != simulator {ref}; "
                                 f"microcode near the stop PC: {near}")
        assert rsp == ref, f"{name} data={data:#x}: RTL {rsp} != simulator {ref}"
        if expect is not None:
            assert rsp.err == E[expect], f"{name} data={data:#x}: {rsp}, expected {expect}"
        if rsp.err and name != "RUN":
            assert rsp.cycles == ISA.error_cycles
        if name == "LIMIT" and rsp.err == 0:
            self.limit = data
        return rsp

    # -- helpers
    async def load(self, words: list[int], addr: int = 0) -> None:
        await self.cmd("UCADDR", addr)
        for w in words:
            for part in F.parts_of(w):
                await self.cmd("UCW", part)

    async def push(self, *words: int) -> None:
        for w in words:
            for part in fifo_parts(w):
                await self.cmd("PUSH", part)

    async def pop_word(self) -> int:
        word = 0
        for i in range(WP):
            word |= (await self.cmd("POP")).data << (64 * i)
        return word

    async def run(self, entry: int = 0, *, expect: str | None = "E_OK") -> Response:
        return await self.cmd("RUN", entry, expect=expect)

    async def program(self, words: list[int], *, expect: str | None = "E_OK") -> Response:
        """Load `words` at 0 and run them."""
        await self.load(words)
        return await self.run(0, expect=expect)

    async def drain_out(self) -> list[int]:
        out = []
        while (await self.cmd("STATUS")).data >> 16:
            out.append(await self.pop_word())
        return out


# ----------------------------------------------------------------------------- microprograms
def set_constants(c1: list[int], c2: list[int]) -> tuple[list[int], list[int]]:
    """(input words, microprogram) that load c1_e, c2_e into every PE: P SHINs (the first word
    ends up in PE P-1), STOREC B1; the same for B2."""
    words, prog = [], []
    for base, cs in (("B1", c1), ("B2", c2)):
        words += list(reversed(cs))
        prog += [u(ring="SHIN")] * P + [u(ring="STOREC", base=base)]
    return words, prog


def load_per_pe(d: int, values: list[int]) -> tuple[list[int], list[int]]:
    """(input words, microprogram) that write values[e] (raw) to RAM[d] of PE e."""
    return list(reversed(values)), [u(ring="SHIN")] * P + [u(wr="RAW", d=d)]


def dump(addr: int) -> list[int]:
    """A microprogram that pushes RAM[addr] of PE P-1, P-2, ..., 0 to the output FIFO (through
    the ring and the output accumulator: ADD, LIMB with ALPHA = 0, OUT)."""
    prog = [u(ring="LOAD", a=addr, alpha="CLR")]
    for _ in range(P):
        prog += [u(oacc="CLR"), u(oacc="ADD"), u(oacc="LIMB"), u(oacc="RST"), u(oacc="OUT"),
                 u(ring="HOP")]
    return prog


async def read_ram(eng: Engine, addr: int) -> list[int]:
    """RAM[addr] of every PE (PE 0 first)."""
    await eng.program(dump(addr) + [HALT])
    out = await eng.drain_out()
    assert len(out) == P
    return list(reversed(out))


def rand_constants(rng: random.Random) -> list[int]:
    return [rng.randrange(1, CMASK + 1) for _ in range(P)]


# ----------------------------------------------------------------------------- benches
@cocotb.test()
async def test_shell_commands(dut):
    """Every shell command and its errors; cycles from antao.yaml."""
    eng = Engine(dut)
    await eng.start()
    for name in ("NOP", "STATUS", "LIMIT"):
        rsp = await eng.cmd(name, 5 if name == "LIMIT" else 0)
        assert rsp.cycles == 1
    await eng.cmd("LIMIT", 1 << 32)
    await eng.cmd("NOP", expect="E_BAD_OPCODE", raw_insn=0x07 << 24)
    await eng.cmd("NOP", expect="E_BAD_OPCODE", raw_insn=0xFF << 24)
    await eng.cmd("UCADDR", UDEPTH, expect="E_RANGE")
    await eng.cmd("UCADDR", MASK64, expect="E_RANGE")
    await eng.cmd("UCADDR", UDEPTH - 1)
    await eng.cmd("UCW", MASK64)
    await eng.cmd("UCW", 1 << 16, expect="E_RANGE")       # part 1 holds 16 bits
    await eng.cmd("UCW", 0xFFFF)                          # wraps uptr to 0
    await eng.cmd("RUN", UDEPTH, expect="E_RANGE")
    await eng.cmd("POP", expect="E_EMPTY")
    # fill the input FIFO
    for i in range(PARAMS.in_depth):
        await eng.push(i * 0x9E3779B97F4A7C15 & WMASK)
    rsp = await eng.cmd("STATUS")
    assert rsp.data == PARAMS.in_depth
    await eng.cmd("PUSH", 1, expect="E_FULL")
    if W % 64:
        await eng.cmd("WIPE")
        for _ in range(WP - 1):
            await eng.cmd("PUSH", MASK64)
        await eng.cmd("PUSH", 1 << (W % 64), expect="E_RANGE")
        await eng.cmd("PUSH", (1 << (W % 64)) - 1)
    rsp = await eng.cmd("WIPE")
    assert rsp.cycles == DEPTH + 2
    assert (await eng.cmd("STATUS")).data == 0
    # the output FIFO through OUT, and E_OUT when it is full
    await eng.load([u(oacc="OUT")] * (PARAMS.out_depth + 1) + [HALT])
    rsp = await eng.run(0, expect="E_OUT")
    assert rsp.data == PARAMS.out_depth
    assert (await eng.cmd("STATUS")).data == PARAMS.out_depth << 16
    for _ in range(PARAMS.out_depth):
        assert await eng.pop_word() == 0
    await eng.cmd("POP", expect="E_EMPTY")


@cocotb.test()
async def test_arithmetic(dut):
    """MUL, ADD, SUB (A + NEGB), NEGA, IN operands and MAC in both bases, against Python %."""
    eng = Engine(dut)
    await eng.start()
    rng = random.Random(SEED)
    for _ in range(3):
        c1, c2 = rand_constants(rng), rand_constants(rng)
        words, prog = set_constants(c1, c2)
        xs = [rng.randrange(1 << W) for _ in range(P)]
        ys = [rng.randrange(1 << W) for _ in range(P)]
        w2, p2 = load_per_pe(1, xs)
        w3, p3 = load_per_pe(2, ys)
        k = rng.randrange(1 << W)
        prog += p2 + p3 + [
            u(xsel="A", ysel="B", a=1, b=2, wr="RED", d=3),                     # x*y mod m1
            u(xsel="A", ysel="B", a=1, b=2, wr="RED", d=4, base="B2"),          # x*y mod m2
            u(xsel="A", ysel="ONE", zsel="B", a=1, b=2, wr="RED", d=5),         # x+y mod m1
            u(xsel="A", ysel="ONE", zsel="NEGB", a=3, b=4, wr="RED", d=6, base="B2"),
            u(xsel="IN", ysel="B", zsel="NEGA", a=3, b=2, wr="RED", d=7, pop=1),  # k*y + m1 - r3
            u(xsel="A", ysel="B", a=1, b=2, accwr=1),                           # ACC = x*y
            u(xsel="A", ysel="B", a=1, b=1, accin=1, accwr=1),                  # ACC += x*x
            u(xsel="ALPHA", ysel="ONE", zsel="ZERO", accin=1, wr="RED", d=8, base="B2"),
            HALT,
        ]
        await eng.push(*(words + w2 + w3 + [k]))
        await eng.program(prog)
        m1 = [(1 << W) - c for c in c1]
        m2 = [(1 << W) - c for c in c2]
        r3 = [x * y % m for x, y, m in zip(xs, ys, m1)]
        r4 = [x * y % m for x, y, m in zip(xs, ys, m2)]
        want = {
            1: xs, 2: ys, 3: r3, 4: r4,
            5: [(x + y) % m for x, y, m in zip(xs, ys, m1)],
            6: [(a + m - b) % m for a, b, m in zip(r3, r4, m2)],
            7: [(k * y + m - a) % m for y, a, m in zip(ys, r3, m1)],
            8: [(x * y + x * x) % m for x, y, m in zip(xs, ys, m2)],
        }
        for addr, vals in want.items():
            got = await read_ram(eng, addr)
            assert got == vals, f"RAM[{addr}]: {[hex(v) for v in got]} != {[hex(v) for v in vals]}"


@cocotb.test()
async def test_ring_alpha_oacc(dut):
    """Ring HOP/SHIN/LOAD/ACC, the alpha accumulator, every oacc operation."""
    eng = Engine(dut)
    await eng.start()
    rng = random.Random(SEED + 1)
    vals = [rng.randrange(1 << W) for _ in range(P)]
    words, prog = load_per_pe(0, vals)
    # alpha: HALF, then ACC over P hops of the values; RAM[9] = ALPHA * 1 (c = 0: m = 2^W)
    prog += [u(ring="LOAD", a=0, alpha="HALF")]
    for _ in range(P):
        prog += [u(alpha="ACC"), u(ring="HOP")]
    prog += [u(xsel="ALPHA", ysel="ONE", wr="RED", d=9)]
    # ring = ACC: ACC = x*x (2W bits), R = ACC, store raw low half
    prog += [u(xsel="A", ysel="B", a=0, b=0, accwr=1), u(ring="ACC"), u(wr="RAW", d=10)]
    # oacc: LDN / LDD the P+1 limbs, CLR, ADD, LIMB, SUB, COMMIT, OUT
    ns = [rng.randrange(1 << W) for _ in range(P + 1)]
    ds = [rng.randrange(1 << W) for _ in range(P + 1)]
    words += ns + ds
    prog += [u(oacc="RST")] + [u(oacc="LDN")] * (P + 1) + [u(oacc="LDD")] * (P + 1)
    prog += [u(oacc="CLR"), u(oacc="ADD"), u(oacc="ADD")] + [u(oacc="LIMB")] * (P + 1)
    prog += [u(oacc="RST")] + [u(oacc="SUB")] * (P + 1) + [u(oacc="COMMIT")]
    prog += [u(oacc="OUT")] * (P + 1) + [HALT]
    await eng.push(*words)
    await eng.program(prog)
    out = await eng.drain_out()
    assert len(out) == P + 1
    alpha_sum = (1 << (PARAMS.alpha_bits - 1)) + sum(v >> (W - PARAMS.alpha_bits) for v in vals)
    alpha = (alpha_sum % (1 << (PARAMS.alpha_bits + 8))) >> PARAMS.alpha_bits
    assert await read_ram(eng, 9) == [alpha] * P            # c = 0: m = 2^W
    assert await read_ram(eng, 10) == [v * v & WMASK for v in vals]


@cocotb.test()
async def test_sequencer(dut):
    """LOOP (nested, count from LCR, count 0), BIT, JMP, ELD, LCLD, the loop index; E_PC,
    E_STACK, E_UCODE, E_IN, E_LIMIT; the PC in the response."""
    eng = Engine(dut)
    await eng.start()
    # nested loops with the loop index, LCR, ELD and BIT
    ew = PARAMS.e_words
    k = 6 + ew
    prog = [
        u(seq="LCLD", pop=1),                                        # 0: LCR = 3
        u(seq="LOOP", imm=(2 << 8) | 3),                             # 1: 2 x body 2..4
        u(seq="LOOP", imm=(0 << 8) | 1),                             # 2: LCR x body 3
        u(xsel="IN", ysel="ONE", wr="RED", d=20, di=1),              # 3: RAM[20+i] = IN
        u(xsel="A", ysel="ONE", a=20, ai=1, wr="RED", d=30, di=1),   # 4
        u(pop=1),                                                    # 5
        *[u(seq="ELD", pop=1)] * ew,                                 # 6..: E = words
        u(seq="BIT", imm=(1 << 12) | 1),                             # k: taken if top bit 1
        u(seq="HALT"),                                               # k+1
        u(seq="JMP", imm=0),                                         # k+2
        u(seq="HALT"),                                               # k+3
    ]
    await eng.push(3, 7, 1 << (W - 1), *[0] * (ew - 1))
    rsp = await eng.program(prog)
    assert rsp.data == k + 3
    assert await read_ram(eng, 22) == [7] * P and await read_ram(eng, 31) == [7] * P
    await eng.push(3, 7, *[0] * ew)
    assert (await eng.program(prog)).data == k + 1
    # E_IN at stage 1 (the FIFO is empty), E_UCODE, E_PC, E_STACK, E_LIMIT
    rsp = await eng.program([u(), u(xsel="IN"), u(), HALT], expect="E_IN")
    assert rsp.data == 1
    for bad in (u(wr=3), u(zsel=6), u(ring=7), u(oacc=10), u(seq=7), u(seq="LOOP", imm=5 << 8)):
        rsp = await eng.program([u(), bad, HALT], expect="E_UCODE")
        assert rsp.data == 1
    await eng.program([u(seq="JMP", imm=UDEPTH)], expect="E_PC")
    await eng.program([u(seq="LOOP", imm=(2 << 8) | 2), u(seq="JMP", imm=5), u(), HALT],
                      expect="E_PC")
    await eng.program([u(seq="LOOP", imm=(2 << 8) | 5), u(seq="LOOP", imm=(2 << 8) | 3),
                       u(seq="LOOP", imm=(2 << 8) | 1), u(), u(), u(), HALT], expect="E_STACK")
    # E_STACK is decided in the LOOP's first clock, with LCR as the in-order machine has it
    # (the LCLD just before is still in stage 1): LCR = 5 -> E_STACK; LCR = 0 -> skip the body
    deep = [u(seq="LOOP", imm=(2 << 8) | 7), u(seq="LOOP", imm=(2 << 8) | 5),
            u(seq="LCLD", pop=1), u(seq="LOOP", imm=1), u(), u(), u(), u(), HALT]
    await eng.push(5)
    rsp = await eng.program(deep, expect="E_STACK")
    assert rsp.data == 3
    await eng.push(0, 0, 0, 0)
    await eng.program(deep)
    await eng.load([u(seq="LOOP", imm=(255 << 8) | 1), u(), HALT], UDEPTH - 3)
    await eng.run(UDEPTH - 3)
    await eng.load([u()], UDEPTH - 1)
    await eng.run(UDEPTH - 1, expect="E_PC")
    for limit in (0, 1, 5, 300):
        await eng.cmd("LIMIT", limit)
        await eng.load([u(seq="LOOP", imm=(255 << 8) | 1), u(), HALT])
        rsp = await eng.run(0, expect="E_LIMIT" if limit < 258 else "E_OK")
        if limit < 258:   # the watchdog counts steps: E_LIMIT at step `limit`, then the drain
            assert rsp.cycles == run_cycles(limit + L), rsp
    await eng.cmd("LIMIT", 1 << 32)


@cocotb.test()
async def test_interlocks(dut):
    """Exact stall counts: RAM read after write (L), ring = ACC after accwr (S), STOREC (empty
    pipeline), BIT after ELD and LOOP(LCR) after LCLD (2)."""
    eng = Engine(dut)
    await eng.start()
    cases = [
        # (program, issue clock of HALT)
        ([u(wr="RAW", d=5), u(xsel="A", a=5, accwr=1), HALT], L + 1),
        ([u(wr="RAW", d=5), u(xsel="A", a=5), HALT], 2),                 # keeps no SUM
        ([u(wr="RAW", d=5), u(xsel="A", a=6, accwr=1), HALT], 2),
        ([u(wr="RAW", d=5), u(), u(zsel="NEGB", b=5, wr="RED", d=6), HALT], L + 1),
        ([u(wr="RED", d=5), u(ysel="B", b=5, wr="RED", d=5), HALT], L + 1),
        ([u(wr="RED", d=5), u(ring="LOAD", a=5), HALT], L + 1),
        ([u(accwr=1), u(ring="ACC"), HALT], S + 1),
        ([u(accwr=1), u(accin=1, accwr=1), HALT], 2),
        ([u(), u(ring="STOREC"), HALT], L + 1),
        ([u(seq="ELD", pop=1), u(seq="BIT"), HALT], 3),
        ([u(seq="LCLD", pop=1), u(seq="LOOP", imm=1), u(), HALT], None),
    ]
    for prog, t_halt in cases:
        await eng.push(1)
        rsp = await eng.program(prog)
        if t_halt is not None:
            assert rsp.cycles == run_cycles(t_halt + 1 + L), f"{rsp} (HALT should issue at {t_halt})"
        await eng.cmd("WIPE")


async def spec_corner(eng: Engine, what: str, entry: int, want: Response) -> None:
    """A RUN whose answer the bench derives from antao_ucode.yaml, where the simulator answers
    otherwise or raises: the RTL must give `want`; the simulator's answer is only logged (the
    simulator's state is not trusted afterwards: each corner is the last use of it in a test)."""
    rsp = await eng.send(insn("RUN"), entry)
    try:
        ref = eng.sim.execute(insn("RUN"), entry)
    except Exception as exc:           # noqa: BLE001 (a simulator bug is reported, not fatal)
        ref = f"raised {exc!r}"
    assert rsp == want, f"{what}: RTL {rsp}, antao_ucode.yaml says {want}"
    assert ref == rsp, f"{what}: RTL {rsp} (as the spec says), simulator {ref}"


@cocotb.test()
async def test_storec_at_run_start(dut):
    """STOREC as the first instruction of a run: the pipeline is empty (the previous run has
    drained), so per antao_ucode.yaml it issues at t = 0 and HALT at t = 1."""
    eng = Engine(dut)
    await eng.start()
    await eng.load([u(ring="STOREC"), HALT])
    await spec_corner(eng, "STOREC at a run's start", 0, Response(0, 0, 1, run_cycles(2 + L)))


@cocotb.test()
async def test_loop_skip_past_the_end(dut):
    """LOOP with count 0 (LCR = 0) whose body ends at UcodeDepth - 1: the next PC, end + 1, is
    UcodeDepth: E_PC, the LOOP issued at t = 0."""
    eng = Engine(dut)
    await eng.start()
    await eng.load([u(seq="LOOP", imm=1)], UDEPTH - 2)
    await spec_corner(eng, "LOOP(LCR = 0) skipping to UcodeDepth", UDEPTH - 2,
                      Response(E["E_PC"], 0, UDEPTH - 2, run_cycles(1 + L)))


@cocotb.test()
async def test_out_full_and_in_empty(dut):
    """OUT with the output FIFO full and pop with the input FIFO empty in one instruction:
    E_OUT (the simulator's precedence), nothing pushed, nothing popped. (The simulator pops its
    empty deque.)"""
    eng = Engine(dut)
    await eng.start()
    n = PARAMS.out_depth
    await eng.load([u(oacc="OUT")] * n + [u(oacc="OUT", pop=1), HALT])
    await spec_corner(eng, "E_OUT and E_IN together", 0, Response(E["E_OUT"], 0, n, run_cycles(n + 1 + L)))
    status = await eng.send(insn("STATUS"), 0)
    assert status.data == n << 16, status


@cocotb.test()
async def test_reset_mid_run(dut):
    """Reset in the middle of a RUN; the engine then answers as after power-on."""
    eng = Engine(dut)
    await eng.start()
    prog = [u(seq="LOOP", imm=(200 << 8) | 3), u(seq="LOOP", imm=(200 << 8) | 1),
            u(xsel="A", ysel="B", a=1, b=1, wr="RED", d=1), u(), HALT]
    await eng.load(prog)
    dut.cmd_insn_i.value = insn("RUN")
    dut.cmd_data_i.value = 0
    await FallingEdge(dut.clk_i)
    dut.cmd_valid_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.cmd_valid_i.value = 0
    await ClockCycles(dut.clk_i, 500)
    assert int(dut.busy_o.value) == 1
    await eng.reset()
    await eng.cmd("WIPE")                   # the PE RAMs are not reset by rst_ni
    await eng.cmd("LIMIT", 1000)
    await eng.run(0, expect="E_LIMIT")
    await eng.cmd("LIMIT", 1 << 32)
    await eng.push(5)
    await eng.program([u(xsel="IN", ysel="ONE", wr="RED", d=1, pop=1), HALT])
    assert await read_ram(eng, 1) == [5] * P


class Recorder:
    """A backend for montu.engines.antao.engine.AntaoEngine: runs the commands on the bench's
    simulator and records them with their responses, for the RTL to replay."""

    def __init__(self, sim: AntaoSimulator):
        self.sim = sim
        self.log: list[tuple[int, int, Response]] = []

    def reset(self) -> None:
        raise AssertionError("the bench does not reset the engine through the backend")

    def execute_many(self, commands) -> list[Response]:
        out = []
        for word, data in commands:
            rsp = self.sim.execute(word, data)
            self.log.append((word, data, rsp))
            out.append(rsp)
        return out


async def replay(eng: Engine, rec: Recorder) -> int:
    """Send the recorded commands to the RTL; every response must equal the simulator's.
    Returns the cycles of the RUNs."""
    run_cycles = 0
    for word, data, ref in rec.log:
        rsp = await eng.send(word, data)
        assert rsp == ref, f"insn {word:#010x} data {data:#x}: RTL {rsp} != simulator {ref}"
        if word == insn("RUN"):
            run_cycles += rsp.cycles
    rec.log.clear()
    return run_cycles


@cocotb.test()
async def test_programs(dut):
    """The engine's own microprograms (programs/modexp.rns through AntaoEngine: the modulus
    setup, RNS Montgomery products, mod_mul, mod_exp by the ladder and by square-and-multiply),
    command by command on the RTL against the simulator, and the results against pow()."""
    from montu.engines.antao.engine import AntaoEngine
    from montu.engines.antao.host import max_modulus_bits

    eng = Engine(dut)
    await eng.start()
    rec = Recorder(eng.sim)
    try:
        antao = AntaoEngine(rec, PARAMS)
        antao.mod_mul(1, 1, 3)
    except Exception as exc:          # the build is too small for the program: nothing to run
        cocotb.log.warning(f"test_programs skipped on this build: {exc}")
        return
    await replay(eng, rec)
    rng = random.Random(SEED + 3)
    bits = min(max_modulus_bits(PARAMS), 192)
    for i in range(3):
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        x, y = rng.randrange(n), rng.randrange(n)
        assert antao.mod_mul(x, y, n) == x * y % n
        await replay(eng, rec)
        e = rng.getrandbits(bits if i == 0 else 24)
        assert antao.mod_exp(x, e, n, ladder=(i == 0)) == pow(x, e, n)
        cycles = await replay(eng, rec)
        cocotb.log.info(f"mod_exp {bits}-bit modulus, {e.bit_length()}-bit exponent: "
                        f"RUN cycles {cycles}")


def random_micro(rng: random.Random) -> int:
    """A random microinstruction biased to legal, short-running encodings (some reserved)."""
    vals: dict[str, int] = {}
    for f in F.fields:
        if f.values:
            legal = [v for _, v in f.values]
            vals[f.name] = rng.choice(legal) if rng.random() < 0.97 else rng.randrange(1 << f.bits)
        else:
            vals[f.name] = rng.randrange(1 << f.bits)
    for name in ("d", "a", "b"):
        vals[name] = rng.randrange(8) if rng.random() < 0.8 else vals[name]
    for name in ("pop",):
        vals[name] = int(rng.random() < 0.15)
    vals["lenx"] = 0 if rng.random() < 0.95 else vals["lenx"]
    r = rng.random()
    if r < 0.55:
        vals["seq"] = 0
    elif r < 0.65:
        vals["seq"] = 1
        vals["imm"] = (rng.choice([0, 1, 2, 3, 40]) << 8) | rng.randrange(0, 5)
    elif r < 0.75:
        vals["seq"] = rng.choice([2, 3])
        offset = rng.randrange(4) if rng.random() < 0.95 else rng.randrange(4096)
        vals["imm"] = (rng.randrange(2) << 12) | offset
    if vals["ring"] == 5 and rng.random() < 0.7:
        vals["ring"] = 0
    for name in ("xsel", "ysel", "zsel", "oacc"):
        if rng.random() < 0.5:
            vals[name] = {"xsel": 1, "ysel": 2, "zsel": 0, "oacc": 0}[name]
    return F.encode(vals)


@cocotb.test()
async def test_random_stream(dut):
    """A random stream of commands: random (also reserved) microprograms, inputs, runs with small
    limits, pops, status, wipes, bad opcodes; every response equal to the simulator's."""
    eng = Engine(dut)
    await eng.start()
    rng = random.Random(SEED + 7)
    await eng.cmd("LIMIT", 2000)
    starts = [0]
    outcomes: dict[int, int] = {}
    for _ in range(STREAM):
        r = rng.random()
        if r < 0.15:
            addr = rng.randrange(UDEPTH)
            n = rng.randrange(1, 12)
            words = [random_micro(rng) for _ in range(n)]
            if rng.random() < 0.8:
                words.append(HALT)
            words = words[:UDEPTH - addr]          # no wrap past the end of the memory
            await eng.load(words, addr)
            end = addr + len(words)
            starts = [a for a in starts if not addr <= a < end] + [addr]
        elif r < 0.35:
            for _ in range(rng.randrange(1, 6)):
                for part in fifo_parts(rng.randrange(1 << W)):
                    await eng.cmd("PUSH", part, expect=None)
        elif r < 0.6:
            entry = rng.choice(starts) if rng.random() < 0.97 else rng.randrange(UDEPTH, 1 << 64)
            rsp = await eng.cmd("RUN", entry, expect=None)
            outcomes[rsp.err] = outcomes.get(rsp.err, 0) + 1
        elif r < 0.7:
            await eng.cmd("POP", expect=None)
        elif r < 0.75:
            await eng.cmd("STATUS")
        elif r < 0.8:
            await eng.cmd("LIMIT", rng.choice([0, 1, 7, 30, 500, 3000, 3000, 3000]))
        elif r < 0.82:
            await eng.cmd("WIPE")
        elif r < 0.85:
            await eng.cmd("NOP", expect=None, raw_insn=rng.randrange(1 << 32))
        elif r < 0.9:
            await eng.cmd("UCADDR", rng.randrange(UDEPTH + 2), expect=None)
        else:
            part = rng.randrange(1 << 64) if rng.random() < 0.2 else rng.randrange(1 << 16)
            await eng.cmd("UCW", part, expect=None)
    names = {v: k for k, v in E.items()}
    counts = ", ".join(f"{names[k]} {v}" for k, v in sorted(outcomes.items()))
    cocotb.log.info(f"RUN outcomes: {counts}")
