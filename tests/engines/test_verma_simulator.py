"""The verma engine's cycle-exact simulator against the golden model (montu.arith.verma) and
against its instruction table (src/montu/isa/verma.yaml): results bit-exact with ewbr4cmmm (X and
Y, every pass of MPL), errors with their cycles, "an error changes nothing", every instruction's
cycle formula, and the paper's clock counts (Table 3: 547 and 1081 per pass; Table 6: 561,222 and
2,216,050 per MPL).

Opt-in, by environment variable (slow: the word-by-word golden model at full size):
  MONTU_VERMA_SLOW=1   whole 1024- and 2048-bit MPLs with golden=True (every pass through
                       ewbr4cmmm: about 16 s and 125 s) and the exhaustive k = 3, 4 pass check (15 s)
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from montu.arith import verma
from montu.engines.verma import (ISA, CmmmPass, VermaSimulator, decode_slots, encode, mpl_passes,
                                 sizes)
from montu.isa import Command

ERR = ISA.error_code
REG = ISA.register_index
DATA_REGS = ("N", "C", "O", "E", "P", "R", "X", "Y")
WRITABLE = ISA.by_name["WR"].allowed("rd")
FAST = settings(max_examples=150, deadline=None)
SLOW = os.environ.get("MONTU_VERMA_SLOW", "") not in ("", "0")
MASK64 = (1 << 64) - 1


# --- helpers -----------------------------------------------------------------------------------


def table_variables(k: int, w: int = 48, f: int = 0) -> dict[str, int]:
    """verma.yaml's variables for length k, from the golden model's parameters of a k-bit
    modulus (not from the simulator)."""
    prm = verma.cmmm_parameters((1 << (k - 1)) | 1, w)
    return {"k": k, "I": prm.iterations, "m": prm.m, "Wd": -(-prm.operand_bits // 64), "f": f}


def formula(name: str, k: int, w: int = 48, f: int = 0) -> int:
    return ISA.by_name[name].cycle_count("verma", **table_variables(k, w, f))


def ok(sim: VermaSimulator, name: str, data: int = 0, **slots) -> int:
    """Run one command that must succeed with its formula's cycles; its data."""
    k = sim.k
    rsp = sim.execute(encode(name, **slots), data)
    assert rsp.err == 0, (name, rsp)
    assert rsp.flags == 0
    assert rsp.cycles == formula(name, k, sim.w, slots.get("f", 0) if name == "CMMM" else 0)
    return rsp.data


def write(sim: VermaSimulator, reg: str, value: int) -> None:
    for j in range(sim.words):
        ok(sim, "WR", (value >> (64 * j)) & MASK64, rd=reg)


def read(sim: VermaSimulator, reg: str) -> int:
    return sum(ok(sim, "RD", ra=reg) << (64 * j) for j in range(sim.words))


def setup(k: int, n: int, k_max: int | None = None, w: int = 48, golden: bool = False
          ) -> VermaSimulator:
    """A simulator with length k, N = n loaded and SETMOD done."""
    sim = VermaSimulator(k_max or max(k, 64), w, golden=golden)
    ok(sim, "SETLEN", k)
    write(sim, "N", n)
    ok(sim, "SETMOD")
    return sim


def state(sim: VermaSimulator) -> tuple:
    """Everything architectural, internal view: k, registers, 2n/3n, pointers, modulus bit."""
    return (sim.k, dict(sim.regs), sim.twice_n, sim.thrice_n, sim.wptr, sim.rptr,
            sim.modulus_valid)


def readback(sim: VermaSimulator) -> tuple[int, ...]:
    """The registers as the command port reads them (RD each full register: the read pointer
    ends where it started)."""
    return tuple(read(sim, reg) for reg in DATA_REGS)


def expect_error(sim: VermaSimulator, insn: int, data: int, error: str) -> None:
    """The command fails with `error` after error_cycles and changes nothing (internal state
    and what reads back)."""
    before, seen = state(sim), readback(sim)
    rsp = sim.execute(insn, data)
    assert (rsp.err, rsp.cycles, rsp.data, rsp.flags) == (ERR[error], ISA.error_cycles, 0, 0), \
        (error, rsp)
    assert sim.last_passes == () and sim.last_core_cycles == 0
    assert state(sim) == before
    assert readback(sim) == seen


def reference_ladder(p: int, e: int, c: int, o: int, n: int, k: int, w: int = 48
                     ) -> list[tuple[int, int, int, int]]:
    """MPL's k + 2 passes by verma.yaml's description, each pass by the golden ewbr4cmmm:
    (P, R, X, Y) of every pass."""
    out = []

    def run(pp: int, rr: int) -> tuple[int, int]:
        (x, y), _ = verma.ewbr4cmmm(pp, rr, n, w=w)
        out.append((pp, rr, x, y))
        return x, y

    r1, r0 = run(p, c)[0], o
    for position in reversed(range(k)):
        if (e >> position) & 1:
            r0, r1 = run(r1, r0)
        else:
            r1, r0 = run(r0, r1)
    run(r0, 1)
    return out


def montgomery_constants(n: int) -> tuple[int, int]:
    """(C, O) = (F² mod n, F mod n) with F = 4^I, as the host computes them."""
    factor = verma.montgomery_factor(n)
    return factor * factor % n, factor % n


def check_ladder_chain(passes: tuple[CmmmPass, ...], k: int, p: int, e: int, c: int, o: int
                       ) -> None:
    """The passes of an MPL follow verma.yaml's ladder from each other's outputs: the
    conversion (P, C), then per bit, MSB first, the common multiplicand R_b with R_(1-b) as the
    multiplier, then (R0, ONE)."""
    assert len(passes) == mpl_passes(k) == k + 2
    assert passes[0][:2] == (p, c)
    r0, r1 = o, passes[0].x
    for position, step in zip(reversed(range(k)), passes[1:-1]):
        if (e >> position) & 1:
            assert step[:2] == (r1, r0)
            r0, r1 = step.x, step.y
        else:
            assert step[:2] == (r0, r1)
            r1, r0 = step.x, step.y
    assert passes[-1][:2] == (r0, 1)


@st.composite
def sized_modulus(draw: st.DrawFn, k_max: int) -> tuple[int, int]:
    """(k, n): a length 2 <= k <= k_max and an odd k-bit n, edges weighted in (all ones, the
    smallest, lengths around the 48- and 64-bit words)."""
    k = draw(st.sampled_from([2, 3, 4, 5, 47, 48, 49, 63, 64, 65, 95, 96, 97, k_max]
                             + [draw(st.integers(2, k_max))]))
    k = min(k, k_max)
    low, high = (1 << (k - 1)) | 1, (1 << k) - 1
    n = draw(st.one_of(st.just(high), st.just(low), st.integers(low, high).map(lambda v: v | 1)))
    return k, n


def operand(draw: st.DrawFn, n: int, k: int) -> int:
    """A CMMM operand below 2^(2D): edges (0, 1, n - 1, n, 2^(2D) - 1) or anything."""
    top = (1 << sizes(k).operand_bits) - 1
    return draw(st.one_of(st.sampled_from([0, 1, 2, n - 1, n, 2 * n, top, top - 1]),
                          st.integers(0, top)))


# --- construction, reset, encoding ------------------------------------------------------------


@pytest.mark.parametrize("k_max,w", [(1, 48), (0, 48), (-64, 48), (64, 3), (64, 0)])
def test_bad_parameters_are_refused(k_max: int, w: int) -> None:
    with pytest.raises(ValueError, match="at least"):
        VermaSimulator(k_max, w)


def test_parameters_must_be_ints() -> None:
    with pytest.raises(TypeError, match="k_max"):
        VermaSimulator(128.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="w"):
        VermaSimulator(128, True)


def test_reset_is_the_power_on_state() -> None:
    n = (1 << 199) + 1
    sim = setup(200, n, 256)
    write(sim, "P", 12345)
    ok(sim, "CMMM", ra="P", rb="ONE")
    ok(sim, "RD", ra="X")
    sim.reset()
    assert (sim.k, sim.wptr, sim.rptr, sim.modulus_valid) == (256, 0, 0, False)
    assert all(v == 0 for v in sim.regs.values()) and sim.twice_n == sim.thrice_n == 0
    assert sim.last_passes == () and sim.last_core_cycles == 0
    assert sim.execute(encode("CMMM", ra="P", rb="R")).err == ERR["E_NO_MODULUS"]


def test_encode_and_decode_use_the_verma_table() -> None:
    insn = encode("CMMM", ra="X", rb="ONE", f=1)
    assert decode_slots(insn) == {"op": 0x10, "rd": 0, "ra": 6, "rb": 8, "f": 1, "imm": 0}
    assert encode("WR", rd="E") == encode("WR", rd=3) == (0x02 << 24) | (3 << 19)
    assert REG == {"N": 0, "C": 1, "O": 2, "E": 3, "P": 4, "R": 5, "X": 6, "Y": 7, "ONE": 8}
    with pytest.raises(ValueError, match="unknown register"):
        encode("WR", rd="Q")
    with pytest.raises(ValueError, match="does not fit"):
        encode("WR", rd=32)


def test_command_words_out_of_range_are_refused() -> None:
    sim = VermaSimulator(128)
    with pytest.raises(ValueError, match="32 bits"):
        sim.execute(1 << 32)
    with pytest.raises(ValueError, match="64-bit"):
        sim.execute(encode("NOP"), 1 << 64)


def test_execute_many_is_execute_in_order() -> None:
    n = (1 << 127) + 15
    wd = sizes(128).Wd
    commands = [(encode("SETLEN"), 128)]
    commands += [(encode("WR", rd="N"), (n >> (64 * j)) & MASK64) for j in range(wd)]
    commands += [Command(encode("SETMOD")), (encode("CMMM", ra="P", rb="C"), 0)]
    commands += [(encode("RD", ra="N"), 0)] * wd + [(0xFF << 24, 0)]
    a, b = VermaSimulator(128), VermaSimulator(128)
    many = a.execute_many(commands)
    one = [b.execute(c.insn, c.data) if isinstance(c, Command) else b.execute(*c) for c in commands]
    assert many == one
    assert [r.err for r in many] == [0] * (len(commands) - 1) + [ERR["E_BAD_OPCODE"]]
    assert sum(r.data << (64 * j) for j, r in enumerate(many[-1 - wd:-1])) == n
    assert a.cycle_count == b.cycle_count == sum(r.cycles for r in many)


# --- sizes and cycles --------------------------------------------------------------------------


def test_sizes_are_the_golden_models_and_the_papers() -> None:
    """k = 1024: g = 12, h = 512, t = 6, D = 518 (1036-bit operands), I = 524, m = 22 (the
    paper's 22 PEs of each kind, 66 in all: Table 3), Wd = 17. k = 2048: g = 13, D = 1031,
    I = 1037 (the paper's k/2 + g), m = 43 (129 PEs)."""
    s = sizes(1024)
    assert (s.g, s.h, s.t, s.D, s.I, s.m, s.Wd, s.operand_bits) == (12, 512, 6, 518, 524, 22, 17,
                                                                    1036)
    s = sizes(2048)
    assert (s.g, s.h, s.t, s.D, s.I, s.m, s.Wd, s.operand_bits) == (13, 1024, 7, 1031, 1037, 43,
                                                                    33, 2062)
    assert (sizes(2).D, sizes(2).I, sizes(2).m, sizes(2).Wd) == (3, 4, 1, 1)
    rng = random.Random(5)
    for k in [*range(2, 70), 95, 96, 97, 200, 1023, 1025, 2047]:
        for w in (4, 5, 48, 64):
            n = rng.getrandbits(k) | (1 << (k - 1)) | 1
            prm = verma.cmmm_parameters(n, w)
            s = sizes(k, w)
            assert (s.k, s.g, s.h, s.t, s.D, s.I, s.m) == (prm.k, prm.g, prm.h, prm.t, prm.digits,
                                                           prm.iterations, prm.m)
            assert s.Wd == -(-prm.operand_bits // 64) and s.variables(1) == table_variables(k, w, 1)


@pytest.mark.parametrize("k", [2, 3, 47, 48, 64, 65, 100, 200])
def test_every_instruction_takes_its_table_formula(k: int) -> None:
    n = (1 << (k - 1)) | 1
    sim = setup(k, n, 256)
    v = table_variables(k)
    i, m = v["I"], v["m"]
    expected = {name: formula(name, k) for name in ("NOP", "SETLEN", "WR", "RD", "SETMOD", "CMMM",
                                                    "MPL", "WIPE")}
    # the formulas by hand, once, so that a wrong variable binding cannot hide
    assert expected == {"NOP": 1, "SETLEN": 2, "WR": 1, "RD": 2, "SETMOD": m + 2,
                        "CMMM": i + m + 2, "MPL": (k + 2) * (i + m + 1) + 2, "WIPE": 2}
    assert formula("CMMM", k, f=1) == i + m + 3
    runs = [("NOP", 0, {}), ("WR", 1, {"rd": "P"}), ("RD", 0, {"ra": "P"}), ("SETMOD", 0, {}),
            ("CMMM", 0, {"ra": "P", "rb": "R"}), ("CMMM", 0, {"ra": "X", "rb": "ONE", "f": 1}),
            ("MPL", 0, {}), ("WIPE", 0, {}), ("SETLEN", k, {})]
    for name, data, slots in runs:
        rsp = sim.execute(encode(name, **slots), data)
        want = expected[name] + (slots.get("f", 0) if name == "CMMM" else 0)
        assert rsp.err == 0 and rsp.cycles == want, name
        if name in ("CMMM", "MPL"):
            assert sim.last_core_cycles == len(sim.last_passes) * (i + m + 1)
        else:
            assert sim.last_passes == () and sim.last_core_cycles == 0


@pytest.mark.parametrize("k,core", [(1024, 547), (2048, 1081)])
def test_a_pass_takes_the_papers_clocks_and_is_the_golden_models(k: int, core: int) -> None:
    """Verma et al., Table 3: EWBR4CMMM takes 547 clocks at 1024 bits and 1081 at 2048 (the
    pass, I + m + 1); the command adds its decode clock, and f = 1 one more."""
    rng = random.Random(k)
    n = rng.getrandbits(k) | (1 << (k - 1)) | 1
    sim = setup(k, n, k)
    top = (1 << sizes(k).operand_bits) - 1
    for p, r, f in ((rng.getrandbits(2 * sizes(k).D), rng.randrange(n), 0), (top, top, 1)):
        write(sim, "P", p)
        write(sim, "R", r)
        rsp = sim.execute(encode("CMMM", ra="P", rb="R", f=f))
        (x, y), stats = verma.ewbr4cmmm(p, r, n)
        assert rsp.cycles == core + 1 + f and sim.last_core_cycles == core == stats.cycles
        assert sim.last_passes == (CmmmPass(p, r, x, y),)
        assert (read(sim, "X"), read(sim, "Y")) == (x, y)
    assert verma.paper_cycles_ewbr4cmmm(k) == core


def test_mpl_at_1024_bits_takes_the_papers_561222_clocks() -> None:
    """Verma et al., Table 6 (and Table 5's (k + 2)(k/2 + g + m + 1)): MPL with EWBR4CMMM takes
    561,222 clocks at 1024 bits; the command adds its decode clock and the f = 1 clock. The whole
    ladder runs; its passes chain as verma.yaml says, and a sample of them (the first two, the
    last two and 8 random ones) is checked against the word-by-word golden model."""
    k = 1024
    rng = random.Random(1024)
    n = rng.getrandbits(k) | (1 << (k - 1)) | 1
    sim = setup(k, n, k)
    c, o = montgomery_constants(n)
    p, e = rng.randrange(n), rng.getrandbits(k) | (1 << (k - 1))
    for reg, value in (("C", c), ("O", o), ("P", p), ("E", e)):
        write(sim, reg, value)
    rsp = sim.execute(encode("MPL"))
    passes = sim.last_passes
    assert rsp.err == 0 and rsp.cycles == 561_222 + 2 == formula("MPL", k)
    assert sim.last_core_cycles == 561_222 == verma.paper_cycles_mpl(k) == 1026 * 547
    assert read(sim, "X") == pow(p, e, n)
    check_ladder_chain(passes, k, p, e, c, o)
    for index in [0, 1, k, k + 1, *rng.sample(range(2, k), 8)]:
        step = passes[index]
        assert verma.ewbr4cmmm(step.p, step.r, n)[0] == (step.x, step.y), index
    assert read(sim, "Y") == passes[-1].y
    assert [read(sim, reg) for reg in ("N", "C", "O", "E", "P")] == [n, c, o, e, p]


def test_mpl_at_2048_bits_takes_the_papers_2216050_clocks() -> None:
    """Table 6: 2,216,050 clocks at 2048 bits — the formula, and a whole 2048-bit MPL on the
    simulator (its 2050 passes take about 2 s; the word-by-word golden model of every pass is
    the opt-in MONTU_VERMA_SLOW run)."""
    k = 2048
    assert formula("MPL", k) == 2_216_050 + 2 == 2050 * 1081 + 2
    assert verma.paper_cycles_mpl(k) == 2_216_050
    rng = random.Random(2048)
    n = rng.getrandbits(k) | (1 << (k - 1)) | 1
    sim = setup(k, n, k)
    c, o = montgomery_constants(n)
    p, e = rng.randrange(n), n - 2
    for reg, value in (("C", c), ("O", o), ("P", p), ("E", e)):
        write(sim, reg, value)
    rsp = sim.execute(encode("MPL"))
    passes = sim.last_passes
    assert rsp.cycles == 2_216_052 and sim.last_core_cycles == 2_216_050
    assert read(sim, "X") == pow(p, e, n)
    check_ladder_chain(passes, k, p, e, c, o)
    step = passes[-1]
    assert verma.ewbr4cmmm(step.p, step.r, n)[0] == (step.x, step.y)


@pytest.mark.skipif(not SLOW, reason="MONTU_VERMA_SLOW=1: the word-by-word golden model runs "
                                     "every pass of whole 1024/2048-bit MPLs (about 140 s)")
@pytest.mark.parametrize("k", [1024, 2048])
def test_whole_mpl_with_the_golden_model_at_the_papers_sizes(k: int) -> None:
    rng = random.Random(k + 1)
    n = rng.getrandbits(k) | (1 << (k - 1)) | 1
    c, o = montgomery_constants(n)
    p, e = rng.randrange(n), rng.getrandbits(k)
    results = []
    for golden in (False, True):
        sim = setup(k, n, k, golden=golden)
        for reg, value in (("C", c), ("O", o), ("P", p), ("E", e)):
            write(sim, reg, value)
        rsp = sim.execute(encode("MPL"))
        results.append((rsp, sim.last_passes, dict(sim.regs)))
    assert results[0] == results[1]
    assert results[0][2]["X"] == pow(p, e, n)


def test_mpl_cycles_do_not_depend_on_the_exponent_or_the_key() -> None:
    """Constant time: 24 random (modulus, base, exponent) at k = 256, and the extremes E = 0 and
    E = 2^k − 1: the same response cycles and core cycles every time."""
    k = 256
    rng = random.Random(0x5A)
    seen = set()
    cases = [(rng.getrandbits(k) | (1 << (k - 1)) | 1, rng.getrandbits(k)) for _ in range(24)]
    cases += [(cases[0][0], 0), (cases[0][0], (1 << k) - 1)]
    for n, e in cases:
        sim = setup(k, n, k)
        c, o = montgomery_constants(n)
        p = rng.randrange(n)
        for reg, value in (("C", c), ("O", o), ("P", p), ("E", e)):
            write(sim, reg, value)
        rsp = sim.execute(encode("MPL"))
        seen.add((rsp.cycles, sim.last_core_cycles, len(sim.last_passes)))
        assert read(sim, "X") == pow(p, e, n)
    assert seen == {(formula("MPL", k), (k + 2) * sizes(k).pass_cycles, k + 2)}


# --- the pass: bit-exact with ewbr4cmmm --------------------------------------------------------


def test_the_pass_is_the_golden_models_for_every_operand_at_k_2() -> None:
    """k = 2 (n = 3, 6-bit operands, W = 4, 5 and 48): every (P, R) gives ewbr4cmmm's X and Y."""
    for w in (4, 5, 48):
        sim = setup(2, 3, 8, w=w)
        top = 1 << sizes(2, w).operand_bits
        for p in range(top):
            sim.regs["P"] = p                      # internal shortcut: 4096 passes
            for r in range(top):
                sim.regs["R"] = r
                assert sim.execute(encode("CMMM", ra="P", rb="R")).err == 0
                assert sim.last_passes[0][2:] == verma.ewbr4cmmm(p, r, 3, w=w)[0], (w, p, r)


@pytest.mark.skipif(not SLOW, reason="MONTU_VERMA_SLOW=1: every (n, P, R) at k = 3 and 4 "
                                     "through the word-by-word golden model (about 15 s)")
@pytest.mark.parametrize("k", [3, 4])
def test_the_pass_is_the_golden_models_for_every_operand(k: int) -> None:
    for n in range((1 << (k - 1)) | 1, 1 << k, 2):
        sim = setup(k, n, 8, w=5)
        top = 1 << sizes(k, 5).operand_bits
        for p in range(top):
            sim.regs["P"] = p
            for r in range(top):
                sim.regs["R"] = r
                sim.execute(encode("CMMM", ra="P", rb="R"))
                assert sim.last_passes[0][2:] == verma.ewbr4cmmm(p, r, n, w=5)[0], (n, p, r)


@given(st.data())
@FAST
def test_cmmm_matches_the_golden_model(data: st.DataObject) -> None:
    """Any length (not multiples of W = 48 or 64 included), any operands below 2^(2D), every
    allowed (ra, rb), f = 0 or 1: X and Y bit-exact, X ≡ P·R·F^-1 and Y ≡ P·P·F^-1 (mod n),
    both below 2^(2D), the other registers unchanged."""
    w = data.draw(st.sampled_from([48, 48, 64, 5]))
    k, n = data.draw(sized_modulus(200))
    sim = setup(k, n, 200, w=w)
    cmmm = ISA.by_name["CMMM"]
    ra = data.draw(st.sampled_from(cmmm.allowed("ra")))
    rb = data.draw(st.sampled_from(cmmm.allowed("rb")))
    f = data.draw(st.integers(0, 1))
    c, o = montgomery_constants(n)
    values = {"P": operand(data.draw, n, k), "R": operand(data.draw, n, k), "C": c, "O": o,
              "E": data.draw(st.integers(0, (1 << k) - 1))}
    for reg, value in values.items():
        write(sim, reg, value)
    if ra in ("X", "Y") or rb in ("X", "Y"):       # leave X and Y from an earlier pass
        ok(sim, "CMMM", ra="P", rb="R")
    values.update(X=sim.regs["X"], Y=sim.regs["Y"])
    p, r = values[ra], 1 if rb == "ONE" else values[rb]
    (x, y), stats = verma.ewbr4cmmm(p, r, n, w=w)
    ok(sim, "CMMM", ra=ra, rb=rb, f=f)
    assert sim.last_passes == (CmmmPass(p, r, x, y),)
    assert sim.last_core_cycles == stats.cycles == sizes(k, w).pass_cycles
    fixed = 0 if f and x == n else x
    assert (read(sim, "X"), read(sim, "Y")) == (fixed, y)
    bound = 1 << sizes(k, w).operand_bits
    assert x < bound and y < bound
    f_inv = pow(verma.montgomery_factor(n), -1, n)
    assert x % n == p * r * f_inv % n and y % n == p * p * f_inv % n
    assert [read(sim, reg) for reg in ("N", "C", "O", "E", "P", "R")] == \
        [n, c, o, values["E"], values["P"], values["R"]]
    event(f"f=1 fixed X == N: {f == 1 and x == n}")


@pytest.mark.parametrize("k", [2, 3, 5, 8, 13, 64, 100])
def test_f1_sets_x_to_zero_exactly_when_x_equals_n(k: int) -> None:
    """CMMM(P, ONE) with P = n or 2n keeps T[i] = n, so the pass leaves X = n: f = 1 makes it 0,
    f = 0 keeps it; other X are untouched by f = 1; Y never."""
    rng = random.Random(k)
    for n in {(1 << k) - 1, (1 << (k - 1)) | 1, rng.getrandbits(k) | (1 << (k - 1)) | 1}:
        sim = setup(k, n, 128)
        for p in (n, 2 * n):
            write(sim, "P", p)
            assert verma.ewbr4cmmm(p, 1, n)[0][0] == n
            ok(sim, "CMMM", ra="P", rb="ONE", f=1)
            assert sim.regs["X"] == 0 and sim.last_passes[0].x == n
            y = sim.regs["Y"]
            ok(sim, "CMMM", ra="P", rb="ONE", f=0)
            assert sim.regs["X"] == n and sim.regs["Y"] == y
        write(sim, "P", n - 1)
        ok(sim, "CMMM", ra="P", rb="ONE", f=1)
        assert sim.regs["X"] == sim.last_passes[0].x != n


# --- MPL -------------------------------------------------------------------------------------


@given(st.data())
@FAST
def test_mpl_matches_the_golden_model(data: st.DataObject) -> None:
    """MPL against pow() and montu.arith.verma.mpl_powmod (exponent_bits = k): the value, the
    core cycles, and every one of its k + 2 passes bit-exact with a ladder of ewbr4cmmm passes;
    Y is the last pass's Y; N, C, O, E, P, R unchanged."""
    w = data.draw(st.sampled_from([48, 64, 5]))
    k, n = data.draw(sized_modulus(96))
    sim = setup(k, n, 96, w=w)
    c, o = montgomery_constants(n)
    p = data.draw(st.one_of(st.sampled_from([0, 1, 2, n - 1]), st.integers(0, n - 1)))
    e = data.draw(st.one_of(st.sampled_from([0, 1, 2, 3, (1 << k) - 1, 1 << (k - 1)]),
                            st.integers(0, (1 << k) - 1)))
    r = data.draw(st.integers(0, (1 << sizes(k, w).operand_bits) - 1))
    for reg, value in (("C", c), ("O", o), ("P", p), ("E", e), ("R", r)):
        write(sim, reg, value)
    ok(sim, "MPL")
    passes, core = sim.last_passes, sim.last_core_cycles
    value, stats = verma.mpl_powmod(p, e, n, w=w, exponent_bits=k)
    assert read(sim, "X") == value == pow(p, e, n)
    assert core == stats.cycles
    assert stats.counts["cmmm_passes"] == len(passes) == k + 2
    assert list(passes) == reference_ladder(p, e, c, o, n, k, w)
    check_ladder_chain(passes, k, p, e, c, o)
    assert read(sim, "Y") == passes[-1].y
    assert [read(sim, reg) for reg in ("N", "C", "O", "E", "P", "R")] == [n, c, o, e, p, r]


@given(st.data())
@FAST
def test_mpl_with_any_constants_runs_the_ladder_as_given(data: st.DataObject) -> None:
    """C and O are whatever the host wrote (any k-bit values) and P anything below 2^(2D): the
    passes are still verma.yaml's ladder, and X is the ladder's closed form."""
    k, n = data.draw(sized_modulus(80))
    sim = setup(k, n, 80)
    c, o = data.draw(st.integers(0, (1 << k) - 1)), data.draw(st.integers(0, (1 << k) - 1))
    p = data.draw(st.integers(0, (1 << sizes(k).operand_bits) - 1))
    e = data.draw(st.integers(0, (1 << k) - 1))
    for reg, value in (("C", c), ("O", o), ("P", p), ("E", e)):
        write(sim, reg, value)
    ok(sim, "MPL")
    passes = reference_ladder(p, e, c, o, n, k)
    assert list(sim.last_passes) == passes
    last_x = passes[-1][2]
    assert sim.regs["X"] == (0 if last_x == n else last_x) <= n
    # each pass multiplies with one F^-1: with a = O·F^-1 and b = P·C·F^-2 (R0 and R1 over F),
    # the ladder leaves R0 = a^(2^k - e)·b^e over F (it is homogeneous of degree 2 per bit)
    f_inv = pow(verma.montgomery_factor(n), -1, n)
    a, b = o * f_inv % n, p * c * f_inv * f_inv % n
    assert sim.regs["X"] % n == pow(a, (1 << k) - e, n) * pow(b, e, n) % n


def test_mpl_fixes_a_last_pass_that_leaves_n() -> None:
    """O = n and E = 0 keep R0 a multiple of n through the ladder, so X ≡ 0 and the last pass
    (R0, ONE) can leave X = n (it does for n = 3): the f = 1 clock makes X = 0."""
    hits = 0
    for k, n in ((2, 3), (5, 0b10111), (64, (1 << 64) - 59)):
        sim = setup(k, n, 64)
        write(sim, "O", n)
        write(sim, "E", 0)
        ok(sim, "MPL")
        hits += sim.last_passes[-1].x == n
        assert sim.regs["X"] == 0
    assert hits


@pytest.mark.parametrize("bits", [2, 3, 47, 48, 49, 64, 65, 97, 200])
def test_mpl_edge_moduli_bases_and_exponents(bits: int) -> None:
    rng = random.Random(bits)
    for n in {(1 << bits) - 1, (1 << (bits - 1)) | 1, rng.getrandbits(bits) | (1 << (bits - 1)) | 1}:
        sim = setup(bits, n, 256)
        c, o = montgomery_constants(n)
        write(sim, "C", c)
        write(sim, "O", o)
        for e in sorted({0, 1, 2, (1 << bits) - 1, n - 2, rng.getrandbits(bits)}):
            for p in sorted({0, 1, n - 1, rng.randrange(n)}):
                write(sim, "P", p)
                write(sim, "E", e)
                ok(sim, "MPL")
                assert sim.regs["X"] == pow(p, e, n), (n, p, e)
                assert sim.last_core_cycles == (bits + 2) * sizes(bits).pass_cycles


def test_golden_mode_gives_the_same_responses_and_passes() -> None:
    """golden=True (every pass by ewbr4cmmm) and the default give the same responses, passes
    and registers on the same command stream, MPL included."""
    rng = random.Random(77)
    for k in (2, 13, 48, 130):
        n = rng.getrandbits(k) | (1 << (k - 1)) | 1
        c, o = montgomery_constants(n)
        sims = [setup(k, n, 192, golden=g) for g in (False, True)]
        loads = (("C", c), ("O", o), ("P", rng.randrange(n)), ("E", 0))
        for sim in sims:
            for reg, value in loads:
                write(sim, reg, value)
        top = (1 << sizes(k).operand_bits) - 1
        stream = [(encode("WR", rd="E"), rng.getrandbits(min(k, 64))), (encode("MPL"), 0)]
        stream += [(encode("WR", rd="R"), rng.getrandbits(min(64, top.bit_length())))]
        stream += [(encode("CMMM", ra=ra, rb=rb, f=rng.getrandbits(1)), 0)
                   for ra in ("P", "X", "Y") for rb in ("R", "C", "O", "X", "Y", "ONE")]
        stream += [(encode("RD", ra=reg), 0) for reg in ("X", "Y")]
        for insn, data in stream:
            got = [sim.execute(insn, data) for sim in sims]
            assert got[0] == got[1] and sims[0].last_passes == sims[1].last_passes
            assert state(sims[0]) == state(sims[1])


# --- SETLEN, WR, RD, SETMOD, WIPE --------------------------------------------------------------


@pytest.mark.parametrize("k", [0, 1, 201, 256, 1 << 40, MASK64])
def test_setlen_refuses_bad_lengths_and_changes_nothing(k: int) -> None:
    sim = setup(130, (1 << 129) + 7, 200)
    write(sim, "P", 99)
    expect_error(sim, encode("SETLEN"), k, "E_BAD_LENGTH")


@pytest.mark.parametrize("k", [2, 3, 47, 48, 64, 65, 199, 200])
def test_setlen_sets_k_and_clears_everything(k: int) -> None:
    sim = setup(200, (1 << 199) + 1, 200)
    write(sim, "P", 5)
    ok(sim, "CMMM", ra="P", rb="ONE")
    ok(sim, "RD", ra="P")                       # rptr = 1
    ok(sim, "WR", 1, rd="R")                    # wptr = 1
    rsp = sim.execute(encode("SETLEN"), k)
    assert (rsp.err, rsp.cycles) == (0, formula("SETLEN", 200))
    assert (sim.k, sim.wptr, sim.rptr, sim.modulus_valid) == (k, 0, 0, False)
    assert sim.words == sizes(k).Wd
    assert readback(sim) == (0,) * 8
    assert sim.execute(encode("MPL")).err == ERR["E_NO_MODULUS"]


@given(st.data())
@FAST
def test_wr_rd_round_trip_with_pointer_wrap(data: st.DataObject) -> None:
    k = data.draw(st.integers(2, 200))
    sim = VermaSimulator(200)
    ok(sim, "SETLEN", k)
    values = {reg: data.draw(st.integers(0, (1 << sim.width(reg)) - 1)) for reg in WRITABLE}
    for reg, value in values.items():
        write(sim, reg, value)
        assert sim.wptr == 0                       # Wd words bring the pointer around
    for reg, value in values.items():
        assert read(sim, reg) == value
        assert sim.rptr == 0
    assert read(sim, "X") == read(sim, "Y") == 0


@pytest.mark.parametrize("k", [2, 3, 47, 48, 63, 64, 65, 128, 130, 200])
def test_wr_refuses_bits_at_or_above_the_registers_width(k: int) -> None:
    """k bits for N, C, O, E (their words above k are 0); 2D bits for P and R."""
    sim = VermaSimulator(200)
    ok(sim, "SETLEN", k)
    s = sizes(k)
    assert sim.width("N") == sim.width("E") == k and sim.width("P") == sim.width("X") == 2 * s.D
    for reg in WRITABLE:
        width = sim.width(reg)
        for j in range(s.Wd):
            valid = min(max(width - 64 * j, 0), 64)    # bits of word j inside the register
            if valid < 64:
                expect_error(sim, encode("WR", rd=reg), 1 << valid, "E_RANGE")
                expect_error(sim, encode("WR", rd=reg), MASK64, "E_RANGE")
            ok(sim, "WR", (1 << valid) - 1, rd=reg)
        assert read(sim, reg) == (1 << width) - 1


@pytest.mark.parametrize("slot,name", [("rd", "WR"), ("ra", "RD")])
def test_wr_and_rd_refuse_registers_the_table_does_not_allow(slot: str, name: str) -> None:
    sim = setup(128, (1 << 127) + 3)
    allowed = {REG[r] for r in ISA.by_name[name].allowed(slot)}
    assert allowed == ({0, 1, 2, 3, 4, 5} if name == "WR" else {0, 1, 2, 3, 4, 5, 6, 7})
    for reg in range(32):
        if reg not in allowed:
            expect_error(sim, encode(name, **{slot: reg}), 0, "E_BAD_REG")


def test_cmmm_registers_come_from_the_table() -> None:
    sim = setup(64, (1 << 63) + 3)
    ra_ok = {REG[r] for r in ISA.by_name["CMMM"].allowed("ra")}
    rb_ok = {REG[r] for r in ISA.by_name["CMMM"].allowed("rb")}
    assert (ra_ok, rb_ok) == ({4, 6, 7}, {5, 1, 2, 6, 7, 8})
    for ra in range(32):
        for rb in range(32):
            insn = encode("CMMM", ra=ra, rb=rb, rd=(ra * 7 + rb) % 32, f=rb & 1)
            if ra in ra_ok and rb in rb_ok:
                assert sim.execute(insn).err == 0
            else:
                expect_error(sim, insn, 0, "E_BAD_REG")


def test_unknown_opcodes_are_refused_after_error_cycles() -> None:
    sim = setup(64, (1 << 63) + 3)
    write(sim, "P", 7)
    known = {ins.opcode for ins in ISA.instructions}
    for op in range(256):
        if op not in known:
            expect_error(sim, op << 24, 0, "E_BAD_OPCODE")


@pytest.mark.parametrize("k,n", [(64, 0), (64, 2), (64, (1 << 63) + 2), (64, (1 << 63) - 1),
                                 (64, 3), (2, 1), (2, 2), (3, 3), (3, 5 - 1), (65, (1 << 64) - 1),
                                 (200, (1 << 198) + 1)])
def test_setmod_refuses_what_is_not_an_odd_k_bit_modulus(k: int, n: int) -> None:
    sim = VermaSimulator(200)
    ok(sim, "SETLEN", k)
    write(sim, "N", n)
    expect_error(sim, encode("SETMOD"), 0, "E_BAD_MODULUS")
    assert sim.execute(encode("CMMM", ra="P", rb="R")).err == ERR["E_NO_MODULUS"]
    assert sim.execute(encode("MPL")).err == ERR["E_NO_MODULUS"]


@pytest.mark.parametrize("k,n", [(2, 3), (3, 5), (3, 7), (48, (1 << 48) - 1), (64, (1 << 63) + 1),
                                 (65, (1 << 64) + 1), (200, (1 << 200) - 1)])
def test_setmod_accepts_odd_k_bit_moduli_and_forms_2n_3n(k: int, n: int) -> None:
    sim = VermaSimulator(200)
    ok(sim, "SETLEN", k)
    write(sim, "N", n)
    ok(sim, "SETMOD")
    assert sim.modulus_valid and (sim.twice_n, sim.thrice_n) == (2 * n, 3 * n)
    assert verma.cmmm_parameters(n).k == k


def test_writing_n_wipe_and_setlen_invalidate_the_modulus() -> None:
    n = (1 << 127) + 45
    sim = setup(128, n, 128)
    write(sim, "N", n)                          # the same value still invalidates
    assert not sim.modulus_valid
    expect_error(sim, encode("CMMM", ra="P", rb="ONE"), 0, "E_NO_MODULUS")
    ok(sim, "SETMOD")
    for reg in DATA_REGS[1:6]:
        write(sim, reg, 1 << 100)
    ok(sim, "CMMM", ra="P", rb="R")
    ok(sim, "RD", ra="P")
    ok(sim, "WIPE")
    assert (sim.k, sim.wptr, sim.rptr, sim.modulus_valid) == (128, 0, 0, False)
    assert readback(sim) == (0,) * 8
    expect_error(sim, encode("MPL"), 0, "E_NO_MODULUS")


def test_error_precedence() -> None:
    sim = VermaSimulator(64)
    ok(sim, "SETLEN", 64)
    # E_BAD_REG before E_NO_MODULUS
    expect_error(sim, encode("CMMM", ra="R", rb="P"), 0, "E_BAD_REG")
    expect_error(sim, encode("CMMM", ra="P", rb="R"), 0, "E_NO_MODULUS")
    expect_error(sim, encode("MPL"), 0, "E_NO_MODULUS")
    # E_BAD_REG before E_RANGE
    ok(sim, "SETLEN", 2)
    expect_error(sim, encode("WR", rd="X"), 1 << 40, "E_BAD_REG")
    expect_error(sim, encode("WR", rd="N"), 1 << 40, "E_RANGE")
    # an even N fails SETMOD and leaves the modulus invalid
    ok(sim, "WR", 2, rd="N")
    expect_error(sim, encode("SETMOD"), 0, "E_BAD_MODULUS")
    expect_error(sim, encode("CMMM", ra="P", rb="R"), 0, "E_NO_MODULUS")


# --- a random command stream -----------------------------------------------------------------


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_random_command_streams_follow_the_table(data: st.DataObject) -> None:
    """Any command (invalid ones included): the response's cycles are the formula's, an error
    is one the instruction lists and changes nothing, registers stay within their widths."""
    k_max = data.draw(st.sampled_from([8, 64, 100]))
    sim = VermaSimulator(k_max)
    if data.draw(st.booleans()):                   # start from a valid modulus half the time
        k, n = data.draw(sized_modulus(k_max))
        sim = setup(k, n, k_max)
    names = [ins.name for ins in ISA.instructions]
    ran = set()
    for _ in range(data.draw(st.integers(1, 30))):
        kind = data.draw(st.sampled_from(["insn", "insn", "insn", "raw"]))
        if kind == "raw":
            insn = data.draw(st.integers(0, (1 << 32) - 1))
        else:
            name = data.draw(st.sampled_from(names))
            insn = encode(name, rd=data.draw(st.integers(0, 9)), ra=data.draw(st.integers(0, 9)),
                          rb=data.draw(st.integers(0, 9)), f=data.draw(st.integers(0, 1)))
        word = data.draw(st.one_of(st.integers(0, MASK64), st.integers(0, 8),
                                   st.sampled_from([2, 3, 48, 64, k_max, (1 << 62) + 1,
                                                    (1 << (min(k_max, 64) - 1)) | 1])))
        before = state(sim)
        k_before = sim.k
        rsp = sim.execute(insn, word)
        ins = ISA.by_opcode.get(decode_slots(insn)["op"])
        assert rsp.flags == 0
        if rsp.err:
            assert state(sim) == before and rsp.cycles == ISA.error_cycles and rsp.data == 0
            name = next(e.name for e in ISA.errors if e.code == rsp.err)
            if ins is None:
                assert name == "E_BAD_OPCODE"
            else:
                assert name in ins.errors
        else:
            f = decode_slots(insn)["f"] if ins.name == "CMMM" else 0
            assert rsp.cycles == formula(ins.name, k_before, f=f)
            ran.add(ins.name)
            for reg in DATA_REGS:
                assert sim.regs[reg] >> sim.width(reg) == 0, reg
    event(f"CMMM ran: {'CMMM' in ran}, MPL ran: {'MPL' in ran}")
