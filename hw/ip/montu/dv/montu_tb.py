"""cocotb benches of montu_top (run by tests/hw/test_montu_cocotb.py, not directly).

Every command is checked three ways: against plain Python formulas for its result, against the
cycle formula of instructions.yaml, and (response by response: err, flags, data, cycles) against
the instruction-level simulator montu.backends.sim.Simulator fed the same command stream.
"""

from __future__ import annotations

import json
import os
import random
from collections import defaultdict
from math import gcd

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, First, ReadOnly, RisingEdge, Timer

from inv_tb import poly_gcd, rsa_lambda
from montu.arith import gf2m as gf2m_arith
from montu.isa import Response, encode, load
from montu.backends.sim import Simulator
from montu.backends.sim.inversion import run_inversion
from montu.arith.cilardo_fios import fios_correct, fios_rows
from montu.arith.field import Field
from montu.config import MUL_CORES, UnitConfig

CFG = json.loads(os.environ.get("MONTU_CFG", '{"Word": 64, "Lanes": 2, "MaxBits": 4096, "NumRegs": 32}'))
WORD, LANES, MAX_BITS, NUM_REGS = CFG["Word"], CFG["Lanes"], CFG["MaxBits"], CFG["NumRegs"]
PIPELINED = int(CFG.get("Pipelined", 0))
# the Montgomery multiplier of STARTMMI/MMX: MulCore = 1 is cilardo2008's (montu.config.MUL_CORES)
ENGINE = {v: k for k, v in MUL_CORES.items()}[int(CFG.get("MulCore", 0))]
MAX_WORDS = MAX_BITS // WORD
ISA = load()
E = ISA.error_code
SEED = int(os.environ.get("MONTU_SEED", "1"))
# No command may take longer than this: twice the documented worst case of the slowest one (MINV
# at the maximum length), so an RTL that never answers fails the bench instead of hanging it.
RESPONSE_LIMIT = 2 * max(ISA.by_name["MINV"].worst_case_cycles(
    k=MAX_BITS // 64, W=MAX_WORDS, Word=WORD, Lanes=LANES, NumRegs=NUM_REGS, MaxWords=MAX_WORDS,
    Pipelined=PIPELINED, gf2m=g) for g in (0, 1)) + NUM_REGS * MAX_WORDS


# ----------------------------------------------------------------------------- golden formulas
def clmul(a: int, b: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        b >>= 1
    return r


def poly_inv_mod_xn(n: int, bits: int) -> int:
    """n(x)^-1 mod x^bits for n with constant term 1 (Hensel, one bit at a time)."""
    w, r = 0, 1          # r = n*w + 1 (GF(2)[x]) shifted
    for i in range(bits):
        if (r >> i) & 1:
            w |= 1 << i
            r ^= n << i
    return w


def mont_ref(x: int, y: int, n: int, L: int, gf2m: bool) -> int:
    """STARTMMI exactly as instructions.yaml defines it for any operands (on the cilardo build:
    the golden model's rows, fios_rows over L/64 words, then fios_correct)."""
    R = 1 << L
    if ENGINE == "cilardo" and not gf2m:
        p = fios_rows(x, y, n, field=Field.GFP, word_bits=64, words=L // 64)[-1].p
        return fios_correct(p, n, field=Field.GFP) & (R - 1)
    if gf2m:
        q = clmul(clmul(x, y), poly_inv_mod_xn(n, L)) & (R - 1)
        return (clmul(x, y) ^ clmul(q, n)) >> L
    q = (-x * y * pow(n, -1, R)) % R
    z = (x * y + q * n) >> L
    return (z - n if z >= n else z) & (R - 1)


def expected_cycles(name: str, W: int, gf2m: int = 0, **data_dependent: int) -> int:
    return ISA.by_name[name].cycle_count(ENGINE, k=W * WORD // 64, W=W, Word=WORD, Lanes=LANES,
                                         NumRegs=NUM_REGS, MaxWords=MAX_WORDS,
                                         Pipelined=PIPELINED, gf2m=gf2m,
                                         **data_dependent)


# ----------------------------------------------------------------------------- driver
class Unit:
    """Drives the command/response ports; mirrors every command on the simulator."""

    def __init__(self, dut):
        self.dut = dut
        self.sim = Simulator(config=UnitConfig(word_bits=WORD, lanes=LANES, max_bits=MAX_BITS,
                                               num_regs=NUM_REGS, pipelined=bool(PIPELINED),
                                               engine=ENGINE))
        self.W = 64 // WORD
        self.gf2m = 0
        self.check_sim = True

    async def start(self) -> None:
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        dut.cmd_valid_i.value = 0
        dut.cmd_insn_i.value = 0
        dut.cmd_data_i.value = 0
        dut.rsp_ready_i.value = 1
        await self.reset()

    async def reset(self) -> None:
        dut = self.dut
        dut.rst_ni.value = 0
        await Timer(3, unit="ns")
        await RisingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await RisingEdge(dut.clk_i)
        self.sim.reset()
        self.W = 64 // WORD
        self.gf2m = 0

    async def cmd(self, name_or_insn, data: int = 0, *, expect_err: str = "E_OK", **slots) -> Response:
        dut = self.dut
        insn = encode(name_or_insn, **slots) if isinstance(name_or_insn, str) else name_or_insn
        paired = int(self.sim.queued is not None and name_or_insn in ("STARTMMI", "MMX"))
        rsp = await _exchange(dut, insn, data)
        assert rsp.err == E[expect_err], f"{name_or_insn} {slots}: err {rsp.err}, expected {expect_err}"
        if self.check_sim:
            ref = self.sim.execute(insn, data)
            assert rsp == ref, f"{name_or_insn} {slots}: RTL {rsp} != simulator {ref}"
        if isinstance(name_or_insn, str) and rsp.err == 0:
            if name_or_insn == "SETMMI":
                self.W = slots["imm"] * 64 // WORD
                self.gf2m = slots.get("f", 0)
            elif name_or_insn == "WIPE":
                self.W, self.gf2m = 64 // WORD, 0
            if name_or_insn != "MINV":
                state = {"paired": paired} if paired else {}
                want = expected_cycles(name_or_insn, self.W, self.gf2m, **state)
                assert rsp.cycles == want, \
                    f"{name_or_insn} W={self.W} {state}: {rsp.cycles} cycles, formula says {want}"
        return rsp

    async def setmmi(self, L: int, gf2m: int = 0) -> None:
        await self.cmd("SETMMI", imm=L // 64, f=gf2m)

    async def write(self, r: int, value: int) -> None:
        for j in range(self.W):
            await self.cmd("WMMI", (value >> (WORD * j)) & ((1 << WORD) - 1), rd=r)

    async def read(self, r: int) -> int:
        v = 0
        for j in range(self.W):
            v |= (await self.cmd("RMMI", ra=r)).data << (WORD * j)
        return v


def rand_odd(rng: random.Random, L: int) -> int:
    return rng.getrandbits(L) | 1 | (1 << (L - 1))


def rand_modulus(rng: random.Random, L: int, gf2m: int) -> int:
    """An odd L-bit modulus (GF(p)), or a polynomial with constant term 1 of degree L-1 .. L-3."""
    if not gf2m:
        return rand_odd(rng, L)
    deg = L - 1 - rng.randrange(0, 3)
    return (1 << deg) | rng.getrandbits(deg) | 1


def lengths() -> list[int]:
    return [L for L in (64, 128, 192, 256, 320, 384, 512, 576, 1024, 2048, 4096) if L <= MAX_BITS]


# ----------------------------------------------------------------------------- tests
@cocotb.test()
async def test_errors_and_basics(dut):
    """NOP/SETMMI/WMMI/RMMI round trip; every error code, each followed by a working command."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED)
    await u.cmd("NOP")
    await u.cmd(0xFF000000, expect_err="E_BAD_OPCODE")
    await u.cmd(0x05000000, expect_err="E_BAD_OPCODE")
    await u.cmd("NOP")
    await u.cmd("SETMMI", imm=0, expect_err="E_BAD_LENGTH")
    await u.cmd("SETMMI", imm=MAX_BITS // 64 + 1, expect_err="E_BAD_LENGTH")
    await u.cmd("SETMMI", imm=255, expect_err="E_BAD_LENGTH")
    await u.setmmi(128)
    for name in ("STARTMMI", "MADD", "MSUB", "MDBL"):
        await u.cmd(name, rd=1, ra=2, rb=3, expect_err="E_NO_MODULUS")
    # round trip through registers
    vals = {r: rng.getrandbits(128) for r in range(NUM_REGS)}
    for r, v in vals.items():
        await u.write(r, v)
    for r, v in vals.items():
        assert await u.read(r) == v
    # even modulus / constant term 0, in both fields; the old modulus stays valid
    await u.write(4, rand_odd(rng, 128))
    await u.cmd("SETMOD", ra=4)
    await u.write(5, rng.getrandbits(128) & ~1)
    await u.cmd("SETMOD", ra=5, expect_err="E_EVEN_MODULUS")
    await u.cmd("MADD", rd=6, ra=0, rb=1)          # modulus register 4 still valid
    await u.cmd("WMMI", 1, rd=4)                   # writing the modulus register invalidates it
    await u.cmd("MADD", rd=6, ra=0, rb=1, expect_err="E_NO_MODULUS")
    await u.setmmi(128, 1)
    await u.cmd("SETMOD", ra=5, expect_err="E_EVEN_MODULUS")
    await u.write(5, rng.getrandbits(128) | 1)
    await u.cmd("SETMOD", ra=5)
    await u.cmd("MOV", rd=5, ra=0)                 # rd == modulus register invalidates
    await u.cmd("STARTMMI", rd=1, ra=2, rb=3, expect_err="E_NO_MODULUS")
    # bad register numbers (only when NumRegs < 32), precedence over the other errors
    if NUM_REGS < 32:
        bad = NUM_REGS
        for ins in ISA.instructions:
            for field in ("rd", "ra", "rb"):
                if field in ins.uses:
                    await u.cmd(ins.name, **{field: bad}, expect_err="E_BAD_REG")
                    await u.cmd("NOP")
        await u.cmd("LDZ", rd=0, ra=bad, rb=bad)   # unused fields are not checked
        await u.cmd("STARTMMI", rd=bad, ra=1, rb=2, expect_err="E_BAD_REG")   # > E_NO_MODULUS
    # errors change nothing: pointers, length and the modulus survive
    await u.setmmi(128)
    await u.write(7, 12345)
    await u.cmd("WMMI", 99, rd=8)                  # wptr = 1
    await u.cmd(0xEE000000, expect_err="E_BAD_OPCODE")
    await u.cmd("SETMMI", imm=0, expect_err="E_BAD_LENGTH")
    await u.cmd("WMMI", 77, rd=8)                  # word 1 of r8
    assert await u.read(8) == 99 | (77 << WORD) if WORD == 64 else True


@cocotb.test()
async def test_response_hold(dut):
    """rsp_valid_o and its data hold until rsp_ready_i; cmd_ready_o stays low meanwhile."""
    u = Unit(dut)
    await u.start()
    await u.setmmi(64)
    await u.write(3, 0x1234)
    dut.rsp_ready_i.value = 0
    dut.cmd_insn_i.value = encode("RMMI", ra=3)
    dut.cmd_valid_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.cmd_valid_i.value = 0
    # the unit captures the command word whenever it could accept one (valid or not): commands
    # on the bus without cmd_valid_i, while the response waits and while idle, must do nothing
    ignored = [(encode("WIPE"), 0), (encode("WMMI", rd=3), 0xdead), (encode("LDZ", rd=3), 0)]
    await RisingEdge(dut.rsp_valid_o)
    for i in range(5):
        dut.cmd_insn_i.value, dut.cmd_data_i.value = ignored[i % len(ignored)]
        await RisingEdge(dut.clk_i)
        await Timer(1, unit="ns")
        assert int(dut.rsp_valid_o.value) == 1 and int(dut.cmd_ready_o.value) == 0
        assert int(dut.rsp_data_o.value) == 0x1234 and int(dut.rsp_cycles_o.value) == 2
    dut.rsp_ready_i.value = 1
    await RisingEdge(dut.clk_i)
    await Timer(1, unit="ns")
    assert int(dut.rsp_valid_o.value) == 0 and int(dut.cmd_ready_o.value) == 1
    u.sim.execute(encode("RMMI", ra=3))          # keep the simulator in step
    for i in range(4):                           # idle, with commands on the bus but not valid
        dut.cmd_insn_i.value, dut.cmd_data_i.value = ignored[i % len(ignored)]
        await RisingEdge(dut.clk_i)
    for _ in range(u.W):                         # R3 unchanged (checked against the simulator)
        await u.cmd("RMMI", ra=3)


async def mont_case(u: Unit, L: int, gf2m: int, x: int, y: int, n: int, *, rd=3, ra=1, rb=2, rn=4):
    await u.write(ra, x)
    if rb != ra:
        await u.write(rb, y)
    await u.write(rn, n)
    await u.cmd("SETMOD", ra=rn)
    rsp = await u.cmd("STARTMMI", rd=rd, ra=ra, rb=rb)
    got = await u.read(rd)
    ref = mont_ref(x, y, n, L, bool(gf2m))
    assert got == ref, f"L={L} gf2m={gf2m} x={x:#x} y={y:#x} n={n:#x}: {got:#x} != {ref:#x}"
    if not gf2m and x < n and y < n:
        assert got == x * y * pow(2, -L, n) % n
    return rsp.cycles


@cocotb.test()
async def test_back_to_back(dut):
    """cmd_valid_i and rsp_ready_i held high: the unit takes each next command at the edge that
    takes the previous response, so a stream costs N + 1 cycles per command (N = the command's
    cycle count), and every response is the simulator's."""
    u = Unit(dut)
    await u.start()
    await u.setmmi(128)
    n = random.Random(SEED + 7).getrandbits(128) | (1 << 127) | 1
    words = 128 // WORD
    stream = [(encode("WMMI", rd=1), (n >> (WORD * i)) & ((1 << WORD) - 1)) for i in range(words)]
    stream += [(encode("SETMOD", ra=1), 0), (encode("NOP"), 0), (encode("LDONE", rd=2), 0),
               (encode("STARTMMI", rd=3, ra=2, rb=2), 0), (encode("MADD", rd=4, ra=3, rb=3), 0),
               (encode("RMMI", ra=4), 0), (encode("NOP"), 0)]
    expected = [u.sim.execute(insn, data) for insn, data in stream]
    responses: list[Response] = []
    edges = 0

    async def drive() -> None:
        for insn, data in stream:
            dut.cmd_insn_i.value = insn
            dut.cmd_data_i.value = data
            dut.cmd_valid_i.value = 1
            while True:
                await ReadOnly()
                ready = int(dut.cmd_ready_o.value)
                await RisingEdge(dut.clk_i)
                if ready:
                    break
        dut.cmd_valid_i.value = 0

    dut.rsp_ready_i.value = 1
    driver = cocotb.start_soon(drive())
    while len(responses) < len(stream):
        await ReadOnly()
        if int(dut.rsp_valid_o.value):
            assert int(dut.cmd_ready_o.value) == 1, "cmd_ready_o low in a response cycle with rsp_ready_i"
            responses.append(Response(err=int(dut.rsp_err_o.value), flags=int(dut.rsp_flags_o.value),
                                      data=int(dut.rsp_data_o.value), cycles=int(dut.rsp_cycles_o.value)))
        await RisingEdge(dut.clk_i)
        edges += 1
        assert edges <= 50 * len(stream) + 1000, "the stream stalled"
    await driver
    assert responses == expected
    # the first accept is the first edge; then N + 1 edges per command
    assert edges == 1 + sum(r.cycles + 1 for r in expected)


@cocotb.test()
async def test_startmmi(dut):
    """Montgomery multiplication: every length, both fields, edge operands and moduli."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED + 1)
    measured = {}
    for L in lengths():
        for gf2m in (0, 1):
            await u.setmmi(L, gf2m)
            M = (1 << L) - 1
            n = rand_modulus(rng, L, gf2m)
            red = (lambda v: v % n) if not gf2m else (lambda v: v & ((1 << (n.bit_length() - 1)) - 1))
            cases = [(red(rng.getrandbits(L)), red(rng.getrandbits(L))) for _ in range(2)]
            cases += [(0, red(rng.getrandbits(L))), (1, 1), (red(n - 1), red(n - 1))]
            if L <= 1024:
                cases += [(M, M), (1 << (L - 1), M)]          # out-of-range operands: exact Alg. 2
            for x, y in cases:
                measured[(L, gf2m)] = await mont_case(u, L, gf2m, x, y, n)
            if L <= 512:
                for nn in (M, (1 << (L - 1)) | 1, 1 if gf2m else 3):    # N = 2^L-1, top bit, tiny
                    await mont_case(u, L, gf2m, red(rng.getrandbits(L)) % nn, rng.getrandbits(L) % nn, nn)
            # aliasing: rd == ra == rb, rd == modulus register
            x = red(rng.getrandbits(L))
            await mont_case(u, L, gf2m, x, x, n, rd=1, ra=1, rb=1)
            await mont_case(u, L, gf2m, x, red(rng.getrandbits(L)), n, rd=4, ra=1, rb=2, rn=4)
            await u.cmd("STARTMMI", rd=5, ra=1, rb=2, expect_err="E_NO_MODULUS")
    dut._log.info("STARTMMI cycles: %s", measured)
    with open(os.environ.get("MONTU_CYCLES_OUT", os.devnull), "w") as f:
        json.dump({f"{L}/{g}": c for (L, g), c in measured.items()}, f)


@cocotb.test()
async def test_word_ops(dut):
    """Every word-serial instruction on random and edge operands, both fields, with aliasing."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED + 2)
    for L in [x for x in lengths() if x <= 1024]:
        for gf2m in (0, 1):
            await u.setmmi(L, gf2m)
            M = (1 << L) - 1
            n = rand_odd(rng, L) if not gf2m else ((1 << (L - 1)) | rng.getrandbits(L - 1) | 1)
            await u.write(9, n)
            await u.cmd("SETMOD", ra=9)
            edge = [0, 1, M, 1 << (L - 1), M >> 1, n - 1, rng.getrandbits(L), rng.getrandbits(L)]
            vals = edge + [rng.getrandbits(L) for _ in range(3)]
            for t in range(len(vals) if L <= 128 else 3 if L <= 512 else 2):
                a, b = vals[t], vals[rng.randrange(len(vals))]
                if not gf2m:
                    am, bm = a % n, b % n
                else:
                    am, bm = a >> 1, b >> 1                # degree < deg N
                await u.write(1, a)
                await u.write(2, b)
                await u.write(11, am)
                await u.write(12, bm)
                # flags for CSWAP: set C from an ADD
                for name in ("ADD", "SUB", "SADD", "SSUB", "CMP"):
                    await u.cmd(name, rd=3, ra=1, rb=2)
                for name in ("SHL1", "SHR1", "SHLW", "SHRW", "MOV"):
                    await u.cmd(name, rd=3, ra=1)
                    await u.read(3)
                for name in ("MADD", "MSUB"):
                    await u.cmd(name, rd=3, ra=11, rb=12)
                    r = await u.read(3)
                    if not gf2m:
                        assert r == ((am + bm) % n if name == "MADD" else (am - bm) % n)
                    else:
                        assert r == am ^ bm
                await u.cmd("MDBL", rd=3, ra=11)
                r = await u.read(3)
                if not gf2m:
                    assert r == 2 * am % n
                else:
                    s = am << 1
                    assert r == (s ^ n if (s >> (n.bit_length() - 1)) & 1 else s)
                for flag in range(4):
                    await u.cmd("CMP", ra=1, rb=2)
                    await u.cmd("CSWAP", ra=1, rb=2, imm=flag)
                    await u.cmd("CSWAP", ra=2, rb=2, imm=flag)
                await u.read(1)
                await u.read(2)
                # aliasing rd == ra == rb
                for name in ("ADD", "SUB", "SADD", "SSUB", "MADD", "MSUB"):
                    await u.write(11, am)
                    await u.cmd(name, rd=11, ra=11, rb=11)
                    await u.read(11)
                for name in ("SHL1", "SHR1", "SHLW", "SHRW", "MOV", "MDBL"):
                    await u.write(12, bm)
                    await u.cmd(name, rd=12, ra=12)
                    await u.read(12)
            await u.cmd("LDZ", rd=5)
            assert await u.read(5) == 0
            await u.cmd("LDONE", rd=5)
            assert await u.read(5) == 1
            await u.cmd("MADD", rd=9, ra=1, rb=2)      # writes the modulus register
            await u.cmd("MADD", rd=3, ra=1, rb=2, expect_err="E_NO_MODULUS")
    # words above W are untouched
    await u.setmmi(128)
    big = rng.getrandbits(128)
    await u.write(6, big)
    await u.setmmi(64)
    await u.cmd("LDONE", rd=6)
    await u.setmmi(128)
    assert await u.read(6) == (big & ~((1 << 64) - 1)) | 1


# ----------------------------------------------------------------------------- MLIN
MLIN_CONSTANTS = range(-3, 4)
MLIN_BAD_NIBBLES = range(4, 13)          # 4 .. 7 and, as two's complement, -8 .. -4


def mlin_imm(ca: int, cb: int) -> int:
    return (ca & 0xF) | ((cb & 0xF) << 4)


def mlin_ref(a: int, b: int, n: int, ca: int, cb: int, L: int, gf2m: bool) -> int:
    """MLIN exactly as instructions.yaml defines it, for any operands."""
    if gf2m:
        return (a if ca & 1 else 0) ^ (b if cb & 1 else 0)
    v = ca * a + cb * b
    o = max(-ca, 0) + max(-cb, 0)
    s = sum(1 for i in range(1, 7) if v + (o - i) * n >= 0)
    return (v + (o - s) * n) & ((1 << L) - 1)


async def mlin_case(u: Unit, L: int, gf2m: int, a: int, b: int, n: int, ca: int, cb: int, *,
                    rd: int = 3, ra: int = 1, rb: int = 2, write: bool = True) -> None:
    """rd = ca*ra + cb*rb mod N (the modulus is already set); checks the result against the
    table's formula, against ca*a + cb*b mod N for reduced GF(p) operands, and the cycles."""
    if ra == rb:
        b = a
    if write:
        await u.write(ra, a)
        if rb != ra:
            await u.write(rb, b)
    rsp = await u.cmd("MLIN", rd=rd, ra=ra, rb=rb, imm=mlin_imm(ca, cb))
    assert rsp.cycles == expected_cycles("MLIN", u.W, gf2m) and rsp.data == 0
    got = await u.read(rd)
    what = f"MLIN L={L} gf2m={gf2m} ca={ca} cb={cb} rd=r{rd} ra=r{ra} rb=r{rb} a={a:#x} b={b:#x} n={n:#x}"
    assert got == mlin_ref(a, b, n, ca, cb, L, bool(gf2m)), f"{what}: {got:#x}"
    if not gf2m and a < n and b < n:     # V + o*N in [0, 6N]: 6N for ca = cb = -3, a = b = 0
        assert got == (ca * a + cb * b) % n, f"{what}: {got:#x} != {(ca * a + cb * b) % n:#x}"


@cocotb.test()
async def test_mlin(dut):
    """MLIN: every constant pair -3 .. 3 x -3 .. 3 on random and edge operands, both fields,
    short and long operands (W = 1 included), aliasing, E_BAD_IMM / E_NO_MODULUS / E_BAD_REG and
    their precedence, each error followed by a check that nothing changed."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED + 8)
    pairs = [(ca, cb) for ca in MLIN_CONSTANTS for cb in MLIN_CONSTANTS]
    all_lengths = lengths()
    for L in sorted({*all_lengths[:3], *[x for x in all_lengths if x in (576, 1024)], all_lengths[-1]}):
        long = L > 256         # long operands: fewer operand sets and aliasing cases
        for gf2m in (0, 1):
            await u.setmmi(L, gf2m)
            M = (1 << L) - 1
            n = rand_modulus(rng, L, gf2m)
            await u.cmd("MLIN", rd=3, ra=1, rb=2, imm=mlin_imm(1, 1), expect_err="E_NO_MODULUS")
            await u.write(9, n)
            await u.cmd("SETMOD", ra=9)
            x, y = rng.randrange(n), rng.randrange(n)
            operands = [(x, y), (0, n - 1)] if long else [(x, y), (0, 0), (n - 1, n - 1), (0, n - 1)]
            for a, b in operands:          # each pair of operands written once, all 49 pairs
                await u.write(1, a)
                await u.write(2, b)
                for ca, cb in pairs:
                    await mlin_case(u, L, gf2m, a, b, n, ca, cb, write=False)
            # ra == rb, rd == ra, rd == rb (rd is overwritten: rewritten for every pair)
            for ca, cb in (pairs if not long else rng.sample(pairs, 6)):
                a, b = rng.randrange(n), rng.randrange(n)
                await mlin_case(u, L, gf2m, a, a, n, ca, cb, rd=3, ra=1, rb=1)
                await mlin_case(u, L, gf2m, a, b, n, ca, cb, rd=1, ra=1, rb=2)
                await mlin_case(u, L, gf2m, a, b, n, ca, cb, rd=2, ra=1, rb=2)
                if not long:
                    await mlin_case(u, L, gf2m, a, a, n, ca, cb, rd=1, ra=1, rb=1)
            if not long:
                # operands at or above N (exact table formula), tiny and all-ones moduli
                for a, b in ((M, M), (n, M - 1), (M, 0)):
                    await u.write(1, a)
                    await u.write(2, b)
                    for ca, cb in pairs:
                        await mlin_case(u, L, gf2m, a, b, n, ca, cb, write=False)
                for nn in ((M, 3, 1) if not gf2m else (M, 3, 1 | (1 << (L - 1)))):
                    await u.write(10, nn)
                    await u.cmd("SETMOD", ra=10)
                    a, b = rng.randrange(nn), rng.randrange(nn)
                    await u.write(1, a)
                    await u.write(2, b)
                    for ca, cb in pairs:
                        await mlin_case(u, L, gf2m, a, b, nn, ca, cb, write=False)
                await u.cmd("SETMOD", ra=9)
            # E_BAD_IMM for every bad nibble in either constant; rd and the modulus survive
            a, b = rng.randrange(n), rng.randrange(n)
            await u.write(1, a)
            await u.write(2, b)
            await u.write(3, 0x5A5A)
            for bad in MLIN_BAD_NIBBLES:
                for imm in (bad, bad << 4, bad | (bad << 4), bad | (0xD << 4), 0x3 | (bad << 4)):
                    rsp = await u.cmd("MLIN", rd=3, ra=1, rb=2, imm=imm, expect_err="E_BAD_IMM")
                    assert rsp.cycles == ISA.error_cycles
            assert await u.read(3) == 0x5A5A
            await mlin_case(u, L, gf2m, a, b, n, 3, -3, write=False)     # modulus still valid
            # MLIN into the modulus register invalidates it; E_BAD_IMM takes precedence over
            # E_NO_MODULUS, E_BAD_REG over both
            await u.cmd("MLIN", rd=9, ra=1, rb=2, imm=mlin_imm(2, -1))
            assert await u.read(9) == mlin_ref(a, b, n, 2, -1, L, bool(gf2m))
            await u.cmd("MLIN", rd=3, ra=1, rb=2, imm=mlin_imm(1, -1), expect_err="E_NO_MODULUS")
            await u.cmd("MLIN", rd=3, ra=1, rb=2, imm=0x44, expect_err="E_BAD_IMM")
            if NUM_REGS < 32:
                for field in ("rd", "ra", "rb"):
                    await u.cmd("MLIN", **{"rd": 3, "ra": 1, "rb": 2, field: NUM_REGS}, imm=0x8C,
                                expect_err="E_BAD_REG")
            await u.cmd("NOP")


@cocotb.test()
async def test_window_ops(dut):
    """SHLX loads the hidden window register X from the top bits; MMX multiplies by table entry
    rb + X. Checked against the reference: window values, every width, aliasing, errors, WIPE."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED + 7)
    for L in [x for x in lengths() if x <= 1024][:3] + [min(1024, MAX_BITS)]:
        for gf2m in (0, 1):
            await u.setmmi(L, gf2m)
            n = rand_odd(rng, L)
            red = (lambda v: v % n) if not gf2m else (lambda v: v & ((1 << (n.bit_length() - 1)) - 1))
            await u.write(0, n)
            await u.cmd("SETMOD", ra=0)
            for w in range(1, 6):
                size = 1 << w
                if size + 3 > NUM_REGS:
                    continue
                base = NUM_REGS - size
                table = [red(rng.getrandbits(L)) for _ in range(size)]
                for i, t in enumerate(table):
                    await u.write(base + i, t)
                e = rng.getrandbits(L)
                acc = red(rng.getrandbits(L))
                await u.write(1, e)
                await u.write(2, acc)
                for _ in range(min(L // w, 4)):
                    idx = e >> (L - w)
                    e = (e << w) & ((1 << L) - 1)
                    await u.cmd("SHLX", rd=1, ra=1, imm=w)
                    assert await u.read(1) == e
                    await u.cmd("MMX", rd=2, ra=2, rb=base, imm=w)
                    acc = mont_ref(acc, table[idx], n, L, bool(gf2m))
                    assert await u.read(2) == acc, f"L={L} w={w} idx={idx}"
                # SHLX into another register leaves ra alone
                await u.cmd("SHLX", rd=3, ra=1, imm=w)
                assert await u.read(1) == e
            await u.cmd("SHLX", rd=1, ra=1, imm=0, expect_err="E_BAD_IMM")
            await u.cmd("SHLX", rd=1, ra=1, imm=6, expect_err="E_BAD_IMM")
            await u.cmd("MMX", rd=2, ra=2, rb=NUM_REGS - 3, imm=2, expect_err="E_BAD_REG")
            await u.cmd("MMX", rd=2, ra=2, rb=1, imm=9, expect_err="E_BAD_IMM")
    # WIPE clears X: MMX then selects the table's first entry
    await u.setmmi(64)
    await u.write(1, (0b111 << 61) | 5)
    await u.cmd("SHLX", rd=1, ra=1, imm=3)
    await u.cmd("WIPE")
    await u.setmmi(64)
    await u.write(0, 0xFFFF_FFFF_FFFF_FFC5)
    await u.cmd("SETMOD", ra=0)
    for i in range(8):
        await u.write(8 + i, i + 2)
    await u.write(2, 1 << 63)
    await u.cmd("MMX", rd=3, ra=2, rb=8, imm=3)
    assert await u.read(3) == mont_ref(1 << 63, 2, 0xFFFF_FFFF_FFFF_FFC5, 64, False)


@cocotb.test()
async def test_pairs(dut):
    """MMQ + STARTMMI/MMX: two products in one instruction (rows interleaved with Lanes 1, 2; one
    after the other with Lanes 4 and on cilardo) at every length class of the row schedule (2s
    below, at and above the shortest row period: forwarded, one beat late, through T), both
    fields; both results against the reference, cycles against the formula (paired = 1), every
    E_BAD_PAIR case, the queue kept by a refused instruction and emptied by SETMMI and WIPE."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED + 9)
    await u.cmd("WIPE")
    for gf2m in (0, 1):
        for L in sorted({L for L in (*lengths(), 448) if L <= min(1024, MAX_BITS)} | {MAX_BITS}):
            await u.setmmi(L, gf2m)
            n = rand_modulus(rng, L, gf2m)
            top = n.bit_length() - 1 if gf2m else L
            vals = {r: (rng.getrandbits(top) if gf2m else rng.randrange(n)) for r in range(1, 7)}
            await u.write(0, n)
            for r, v in vals.items():
                await u.write(r, v)
            await u.cmd("SETMOD", ra=0)
            # a pair, and a pair of squarings with a product that overwrites its own operand
            await u.cmd("MMQ", rd=7, ra=1, rb=2)
            await u.cmd("STARTMMI", rd=8, ra=3, rb=4)
            assert await u.read(7) == mont_ref(vals[1], vals[2], n, L, bool(gf2m)), f"L={L} queued"
            assert await u.read(8) == mont_ref(vals[3], vals[4], n, L, bool(gf2m)), f"L={L} running"
            await u.cmd("MMQ", rd=5, ra=5, rb=5)
            await u.cmd("STARTMMI", rd=9, ra=6, rb=6)
            assert await u.read(5) == mont_ref(vals[5], vals[5], n, L, bool(gf2m))
            assert await u.read(9) == mont_ref(vals[6], vals[6], n, L, bool(gf2m))
            if L > 512:
                continue
            # MMX with a queued product: table R[12..15] indexed by the window register X
            for r in range(12, 16):
                await u.write(r, rng.getrandbits(top) if gf2m else rng.randrange(n))
            await u.write(10, rng.getrandbits(L))
            await u.cmd("SHLX", rd=10, ra=10, imm=2)
            await u.cmd("MMQ", rd=11, ra=1, rb=3)
            await u.cmd("MMX", rd=6, ra=2, rb=12, imm=2)
            # E_BAD_PAIR: the two products must be independent, and never write the modulus
            await u.cmd("MMQ", rd=7, ra=1, rb=2)
            await u.cmd("MMQ", rd=9, ra=1, rb=2, expect_err="E_BAD_PAIR")      # one is waiting
            for bad in ({"rd": 7, "ra": 3, "rb": 4}, {"rd": 1, "ra": 3, "rb": 4},
                        {"rd": 2, "ra": 3, "rb": 4}, {"rd": 8, "ra": 7, "rb": 4},
                        {"rd": 8, "ra": 3, "rb": 7}, {"rd": 0, "ra": 3, "rb": 4}):
                await u.cmd("STARTMMI", **bad, expect_err="E_BAD_PAIR")
            if NUM_REGS < 32:                                                     # queue kept
                await u.cmd("STARTMMI", rd=NUM_REGS, ra=3, rb=4, expect_err="E_BAD_REG")
            await u.cmd("MMX", rd=8, ra=3, rb=12, imm=9, expect_err="E_BAD_IMM")
            await u.cmd("MMX", rd=8, ra=3, rb=6, imm=2, expect_err="E_BAD_PAIR")  # 7 in R[6..9]
            await u.cmd("STARTMMI", rd=8, ra=3, rb=4)                             # the pair runs
            await u.cmd("MMQ", rd=0, ra=1, rb=2)
            await u.cmd("STARTMMI", rd=8, ra=3, rb=4, expect_err="E_BAD_PAIR")    # writes N
            await u.setmmi(L, gf2m)                                                # empties it
            await u.cmd("SETMOD", ra=0)
            await u.cmd("STARTMMI", rd=8, ra=3, rb=4)
    await u.cmd("MMQ", rd=7, ra=1, rb=2)
    await u.cmd("WIPE")
    await u.cmd("SETMOD", ra=0, expect_err="E_EVEN_MODULUS")


@cocotb.test()
async def test_wipe_and_reset(dut):
    """WIPE clears everything; reset in the middle of STARTMMI returns to idle, k=1, GF(p)."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED + 3)
    L = min(MAX_BITS, 2048)
    await u.setmmi(L)
    n = rand_odd(rng, L)
    await u.write(1, rng.getrandbits(L) % n)
    await u.write(2, rng.getrandbits(L) % n)
    await u.write(4, n)
    await u.cmd("SETMOD", ra=4)
    await u.cmd("CMP", ra=1, rb=1)                  # EQ set
    # reset in the middle of a long STARTMMI
    dut.cmd_insn_i.value = encode("STARTMMI", rd=3, ra=1, rb=2)
    dut.cmd_valid_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.cmd_valid_i.value = 0
    await ClockCycles(dut.clk_i, 37)
    await Timer(1, unit="ns")
    assert int(dut.busy_o.value) == 1
    await u.reset()
    assert int(dut.cmd_ready_o.value) == 1 and int(dut.busy_o.value) == 0
    assert int(dut.rsp_valid_o.value) == 0
    # after reset: k = 1, GF(p), modulus invalid, flags 0 (the simulator's reset agrees)
    await u.cmd("STARTMMI", rd=3, ra=1, rb=2, expect_err="E_NO_MODULUS")
    assert (await u.cmd("NOP")).flags == 0
    assert await u.read(4) == n & ((1 << 64) - 1)   # memories keep their contents over reset
    # a MINV leaves x, y and the coefficients in the inversion engine's scratch memories ...
    await u.write(5, 3)
    await u.cmd("MINV", rd=6, ra=5, rb=4)
    inv_mems = [dut.u_inv.g_mem[k].u_ram.mem_q for k in range(8)]
    assert any(int(mem[0].value) for mem in inv_mems)
    await u.cmd("WIPE")
    # ... and WIPE clears them too
    assert all(int(mem[j].value) == 0 for mem in inv_mems for j in range(len(mem)))
    for r in range(NUM_REGS):
        await u.setmmi(MAX_BITS)
        assert await u.read(r) == 0
        await u.cmd("WIPE") if r == NUM_REGS - 1 else None
    await u.cmd("MADD", rd=1, ra=2, rb=3, expect_err="E_NO_MODULUS")
    rsp = await u.cmd("NOP")
    assert rsp.flags == 0
    u.check_sim = True
    # after WIPE: k = 1, GF(p)
    await u.write(4, 0xFFFFFFFFFFFFFFC5)          # 2^64 - 59 (prime)
    await u.write(1, 5)
    await u.write(2, 7)
    await u.cmd("SETMOD", ra=4)
    await u.cmd("STARTMMI", rd=3, ra=1, rb=2)
    n64 = 0xFFFFFFFFFFFFFFC5
    assert await u.read(3) == 35 * pow(2, -64, n64) % n64


# ----------------------------------------------------------------------------- MINV
MINV_LENGTHS = (64, 128, 192, 256, 320, 512, 576, 1024, 2048, 4096)


def gf2m_length(m: int) -> int:
    """The shortest operand length L = 64k that holds a polynomial of degree m."""
    return 64 * (m // 64 + 1)


async def minv_case(u: Unit, y: int, x: int, *, rd: int = 3, ra: int = 1, rb: int = 2,
                    label: str = "", measured: dict | None = None, write: bool = True,
                    one_bit: bool = False) -> Response:
    """rd = ra^-1 mod rb with ra = y, rb = x (written first unless `write` is false; x when
    ra == rb). Checks the error,
    the result (pow / polynomial inverse), that rd is unchanged on E_NO_INVERSE, and the cycles
    against the MINV formula with the reference's pass counts (the simulator checks them too)."""
    L = u.W * WORD
    gf = u.gf2m
    if rb == ra:
        y = x
    if write:
        await u.write(ra, y)
        if rb != ra:
            await u.write(rb, x)
    ref = run_inversion(y, x, gf2m_mode=bool(gf), word_bits=WORD, one_bit=one_bit)
    before = await u.read(rd) if ref.inverse is None else None
    rsp = await u.cmd("MINV", rd=rd, ra=ra, rb=rb, imm=int(one_bit),
                      expect_err="E_OK" if ref.inverse is not None else "E_NO_INVERSE")
    what = f"MINV {label} L={L} {'GF(2^m)' if gf else 'GF(p)'} x={x:#x} y={y:#x}"
    want = expected_cycles("MINV", u.W, gf, passes=ref.passes, fixes=ref.fixes,
                           ok=int(ref.inverse is not None))
    assert rsp.cycles == want, f"{what}: {rsp.cycles} cycles, formula {want}"
    got = await u.read(rd)
    if ref.inverse is None:
        assert got == before, f"{what}: rd changed on E_NO_INVERSE"
    elif gf:
        assert got == ref.inverse and gf2m_arith.degree(got) < gf2m_arith.degree(x), what
        one = 1 if gf2m_arith.degree(x) > 0 else 0
        assert gf2m_arith.reduce(gf2m_arith.clmul(got, y), x) == one, what
    else:
        assert got == ref.inverse == pow(y, -1, x), what
    if measured is not None and ref.inverse is not None:
        measured[f"{label}/{L}/{gf}"].append(rsp.cycles)
    return rsp


def coprime_to(x: int, L: int, rng: random.Random, *, gf: int = 0, odd: bool = False) -> int:
    """A random L-bit value with an inverse modulo x (GF(p): gcd 1; GF(2^m): polynomial gcd 1)."""
    while True:
        y = rng.getrandbits(L) | (1 if odd else 0)
        if y and (poly_gcd(x, y) == 1 if gf else gcd(x, y) == 1):
            return y


@cocotb.test()
async def test_minv(dut):
    """MINV through the top: odd and even (RSA λ) moduli at every length, NIST and random
    polynomials, no-inverse cases (each followed by a good one), rd aliasing and the modulus."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED + 5)
    measured: dict[str, list[int]] = defaultdict(list)
    # GF(p): odd moduli (y < x and y > x), an even modulus, e = 65537 modulo λ(n) (even)
    for L in [L for L in MINV_LENGTHS if L <= MAX_BITS]:
        await u.setmmi(L)
        for i in range(3 if L <= 576 else 1):
            x = rand_odd(rng, L)
            await minv_case(u, coprime_to(x, L, rng) % x if i != 1 else coprime_to(x, L, rng) | x,
                            x, label="odd", measured=measured)
        x = rng.getrandbits(L) & ~1 | (1 << (L - 1))
        await minv_case(u, coprime_to(x, L, rng, odd=True), x, label="even", measured=measured)
        # λ(n) of a real RSA modulus up to 2048 bits; at 4096 an even number of the same shape
        # (prime generation in Python would dominate the bench)
        lam = rsa_lambda(L, rng) if L <= 2048 else (rng.getrandbits(L - 2) | (1 << (L - 3))) * 2
        while gcd(65537, lam) != 1:
            lam += 2
        await minv_case(u, 65537, lam, label="rsa", measured=measured)
        if L <= 576:  # imm[0] = 1: one halving per pass, bie2021 Alg. 3 as printed
            await minv_case(u, 65537, lam, label="rsa-alg3", measured=measured, one_bit=True)
    # GF(2^m): NIST reduction polynomials, then random odd and even polynomial moduli
    for m, f in gf2m_arith.NIST_POLYNOMIALS.items():
        L = gf2m_length(m)
        if L > MAX_BITS:
            continue
        await u.setmmi(L, 1)
        for _ in range(2):
            await minv_case(u, rng.getrandbits(m) or 1, f, label=f"nist{m}", measured=measured)
        await minv_case(u, rng.getrandbits(m) or 1, f, label=f"nist{m}-alg3", measured=measured,
                        one_bit=True)
    for L in [L for L in (64, 128, 192, 320, 576, 1024, 4096) if L <= MAX_BITS]:
        await u.setmmi(L, 1)
        for i in range(2 if L <= 1024 else 1):
            x = rng.getrandbits(L) | (1 << (L - 1 - rng.randrange(8)))
            x = x | 1 if i == 0 else x & ~1
            await minv_case(u, coprime_to(x, L, rng, gf=1, odd=i == 1), x, label="gf2m",
                            measured=measured)
    # no inverse (x = 0, y = 0, both even, common factor, y = x), each followed by a good MINV
    for gf in (0, 1):
        L = min(256, MAX_BITS)
        await u.setmmi(L, gf)
        M = (1 << L) - 1
        good_x = rand_odd(rng, L)
        good_y = coprime_to(good_x, L, rng, gf=gf)
        common = ((lambda a: gf2m_arith.clmul(a, 3) & M) if gf else (lambda a: 3 * a & M))
        for y, x, label in ((0, good_x, "y=0"), (good_y, 0, "x=0"), (0, 0, "both 0"),
                            (rng.getrandbits(L) & ~1, rng.getrandbits(L) & ~1 | 2, "both even"),
                            (common(rng.getrandbits(L - 2) | 1), common(rng.getrandbits(L - 2) | 1),
                             "common factor"),
                            (good_x, good_x, "y=x")):
            await u.write(3, rng.getrandbits(L))
            rsp = await minv_case(u, y, x, label=label)
            assert rsp.err == E["E_NO_INVERSE"], f"{label}: an inverse was reported"
            await minv_case(u, good_y, good_x, label="after " + label)
        # aliasing: rd == ra, rd == rb, rd == ra == rb (y = x: an inverse only for x = 1)
        await minv_case(u, good_y, good_x, rd=1, ra=1, rb=2, label="rd=ra")
        await minv_case(u, good_y, good_x, rd=2, ra=1, rb=2, label="rd=rb")
        await minv_case(u, 1, 1, rd=1, ra=1, rb=1, label="rd=ra=rb x=1")
        await minv_case(u, good_x, good_x, rd=1, ra=1, rb=1, label="rd=ra=rb")
        # MINV neither needs nor disturbs SETMOD, except by writing the modulus register
        await u.write(9, good_x)
        await u.write(1, good_y)
        await u.cmd("SETMOD", ra=9)
        await minv_case(u, good_y, good_x, rd=3, ra=1, rb=9, label="rb=modulus", write=False)
        await u.cmd("MADD", rd=4, ra=1, rb=1)
        await minv_case(u, 0, good_x, rd=9, ra=1, rb=2, label="failed into modulus")
        await u.cmd("MADD", rd=4, ra=1, rb=1)              # still valid: rd was not written
        await minv_case(u, good_y, good_x, rd=9, ra=1, rb=2, label="into modulus")
        await u.cmd("MADD", rd=4, ra=1, rb=1, expect_err="E_NO_MODULUS")
    if NUM_REGS < 32:
        for field in ("rd", "ra", "rb"):
            await u.cmd("MINV", **{"rd": 1, "ra": 2, "rb": 3, field: NUM_REGS}, expect_err="E_BAD_REG")
    averages = {key: sum(c) / len(c) for key, c in sorted(measured.items())}
    dut._log.info("MINV cycles (averages): %s", averages)
    with open(os.environ.get("MONTU_MINV_CYCLES_OUT", os.devnull), "w") as f:
        json.dump(measured, f)


@cocotb.test()
async def test_wipe_right_after_minv(dut):
    """WIPE as the very next command after each MINV outcome (an inverse, refused at load, no
    inverse after full passes, a decode error): the inversion engine's scratch memories end up
    all zero (its write port belongs to WIPE alone: montu_inv asserts that no engine source
    writes during WIPE), and the next MINV is right."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED + 9)
    L = min(256, MAX_BITS)
    inv_mems = [dut.u_inv.g_mem[k].u_ram.mem_q for k in range(8)]
    x = rand_odd(rng, L)
    y = coprime_to(x, L, rng)
    common_y, common_x = 3 * (rng.getrandbits(L - 3) | 1), 3 * (rng.getrandbits(L - 3) | 1)
    cases = [("inverse", y, x, "E_OK"), ("refused at load (y = 0)", 0, x, "E_NO_INVERSE"),
             ("no inverse after passes", common_y, common_x, "E_NO_INVERSE")]
    if NUM_REGS < 32:      # MINV's only decode error is a register out of range
        cases.append(("decode error", y, x, "E_BAD_REG"))
    for label, yy, xx, err in cases:
        await u.setmmi(L)
        await u.write(1, yy)
        await u.write(2, xx)
        if err == "E_BAD_REG":
            await u.cmd("MINV", rd=3, ra=1, rb=NUM_REGS, expect_err=err)
        else:
            await u.cmd("MINV", rd=3, ra=1, rb=2, expect_err=err)
        await u.cmd("WIPE")
        assert all(int(mem[j].value) == 0 for mem in inv_mems for j in range(len(mem))), label
        await u.setmmi(L)
        await minv_case(u, y, x, label="after WIPE after " + label)


@cocotb.test()
async def test_random_stream(dut):
    """A random command stream (bad ones included) compared response by response with montu.backends.sim."""
    u = Unit(dut)
    await u.start()
    rng = random.Random(SEED + 4)
    await u.cmd("WIPE")                         # the simulator starts from zeroed registers
    names = [i.name for i in ISA.instructions if i.name not in ("WIPE", "SETMMI")]
    small = [L for L in lengths() if L <= 512]
    for _ in range(int(os.environ.get("MONTU_STREAM", "400"))):
        if rng.random() < 0.05:
            L = rng.choice(small)
            await _raw(u, encode("SETMMI", imm=L // 64, f=rng.randrange(2)), 0)
            continue
        name = rng.choice(names)
        regs = {f: (rng.randrange(32) if rng.random() < 0.05 else rng.randrange(4))
                for f in ("rd", "ra", "rb")}
        if name == "SETMOD" and rng.random() < 0.5 and regs["ra"] < NUM_REGS:
            await _raw(u, encode("WMMI", rd=regs["ra"]), rng.getrandbits(WORD) | 1)
        if rng.random() < 0.02:
            insn = rng.getrandbits(32)          # anything, bad opcodes included
        else:
            imm = rng.randrange(256)
            if name == "MLIN" and rng.random() < 0.7:   # mostly legal constants
                imm = mlin_imm(rng.choice(MLIN_CONSTANTS), rng.choice(MLIN_CONSTANTS))
            insn = encode(name, **regs, imm=imm)
        await _raw(u, insn, rng.getrandbits(WORD))


async def _exchange(dut, insn: int, data: int) -> Response:
    """Send one command, wait for its response, complete the handshake (rsp_ready_i held 1)."""
    dut.cmd_insn_i.value = insn
    dut.cmd_data_i.value = data
    dut.cmd_valid_i.value = 1
    await RisingEdge(dut.clk_i)                 # accept edge
    dut.cmd_valid_i.value = 0                   # one command (the unit may take the next one
    await ReadOnly()                            # in its response cycle: back to back)
    t0 = int(dut.cycle_count_o.value)
    assert int(dut.cmd_ready_o.value) == 0 and int(dut.busy_o.value) == 1
    if int(dut.rsp_valid_o.value) == 0:
        timeout = Timer(RESPONSE_LIMIT * 10, unit="ns")
        fired = await First(RisingEdge(dut.rsp_valid_o), timeout)
        assert fired is not timeout, f"insn {insn:#010x}: no response within {RESPONSE_LIMIT} cycles"
        await ReadOnly()
    n = int(dut.cycle_count_o.value) - t0
    rsp = Response(err=int(dut.rsp_err_o.value), flags=int(dut.rsp_flags_o.value),
                   data=int(dut.rsp_data_o.value), cycles=int(dut.rsp_cycles_o.value))
    assert rsp.cycles == n, f"rsp_cycles_o {rsp.cycles} but rsp_valid after {n} edges"
    assert int(dut.done_o.value) == 1 and int(dut.err_o.value) == rsp.err
    # rsp_ready_i is held 1: the unit would take a next command at the handshake edge
    assert int(dut.busy_o.value) == 0 and int(dut.cmd_ready_o.value) == 1
    await RisingEdge(dut.clk_i)                 # response handshake
    return rsp


async def _raw(u: Unit, insn: int, data: int) -> Response:
    """One command whose reference is the simulator's response."""
    rsp = await _exchange(u.dut, insn, data)
    ref = u.sim.execute(insn, data)
    assert rsp == ref, f"insn {insn:#010x}: RTL {rsp} != simulator {ref}"
    return rsp
