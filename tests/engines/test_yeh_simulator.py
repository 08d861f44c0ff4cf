"""The yeh engine's cycle-exact simulator against the golden model (montu.arith.yeh) and against
its instruction table (src/montu/isa/yeh.yaml): results, unreduced intermediates, errors with
their cycles, "an error changes nothing", and every instruction's cycle formula."""

from __future__ import annotations

import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from montu.arith import yeh
from montu.engines.yeh import ISA, YehSimulator, decode_slots, encode, exp_multiplications
from montu.isa import Command
from montu.isa.table import evaluate_formula

ERR = ISA.error_code
REG = ISA.register_index
XL = 1 << ISA.flag_bit["XL"]
DATA_REGS = ("N", "C", "M", "E", "X")
FAST = settings(max_examples=200, deadline=None)


# --- helpers -----------------------------------------------------------------------------------


def words(length: int) -> int:
    return -(-length // 64)


def formula(name: str, sim: YehSimulator, **extra: int) -> int:
    """The table's cycle formula for `name` at the simulator's current length."""
    return ISA.by_name[name].cycle_count("yeh", L=sim.length, W=words(sim.length),
                                         NWords=sim.nbits // 64, NBits=sim.nbits, **extra)


def ok(sim: YehSimulator, name: str, data: int = 0, **slots) -> int:
    """Run one command that must succeed with its formula's cycles; its data."""
    rsp = sim.execute(encode(name, **slots), data)
    assert rsp.err == 0, (name, rsp)
    if name != "EXP":
        assert rsp.cycles == formula(name, sim)
    return rsp.data


def write(sim: YehSimulator, reg: str, value: int) -> None:
    for j in range(words(sim.length)):
        ok(sim, "WR", (value >> (64 * j)) & ((1 << 64) - 1), rd=reg)


def read(sim: YehSimulator, reg: str) -> int:
    return sum(ok(sim, "RD", ra=reg) << (64 * j) for j in range(words(sim.length)))


def setup(nbits: int, n: int, length: int | None = None) -> YehSimulator:
    """A simulator with L = datapath_width(n) (or `length`), N = n loaded and SETMOD done."""
    sim = YehSimulator(nbits)
    ok(sim, "SETLEN", length or yeh.datapath_width(n))
    write(sim, "N", n)
    ok(sim, "SETMOD")
    return sim


def state(sim: YehSimulator) -> tuple:
    """Everything architectural, internal view: length, registers, 3N, pointers, modulus bit."""
    return (sim.length, dict(sim.regs), sim.three_n, sim.wptr, sim.rptr, sim.modulus_valid,
            sim.flags)


def readback(sim: YehSimulator) -> tuple:
    """The registers and the flag as the command port reads them (RD each full register: the
    read pointer ends where it started)."""
    values = tuple(read(sim, reg) for reg in DATA_REGS)
    return values, sim.execute(encode("NOP")).flags


def expect_error(sim: YehSimulator, insn: int, data: int, error: str, cycles: int) -> None:
    """The command fails with `error` after `cycles` and changes nothing (internal state and
    what reads back)."""
    before, seen = state(sim), readback(sim)
    rsp = sim.execute(insn, data)
    assert (rsp.err, rsp.cycles, rsp.data) == (ERR[error], cycles, 0), (error, rsp)
    assert rsp.flags == before[-1]
    assert sim.last_bsr4_runs == () and sim.last_core_cycles == 0
    assert state(sim) == before
    assert readback(sim) == seen


def reference_exp(c: int, m: int, e: int, n: int) -> tuple[int, int, list[yeh.Bsr4Run]]:
    """EXP's sequence on the golden model, step by step: (X, M afterwards, every Bsr4Run)."""
    runs: list[yeh.Bsr4Run] = []

    def step(a: int, b: int) -> int:
        run = yeh.bsr4(a, b, n)
        runs.append(run)
        return run.result - n if run.result >= n else run.result

    m_after = m
    if e == 0:
        x_bar = step(c, 1)
    else:
        m_bar = x_bar = step(c, m)
        for i in range(e.bit_length() - 2, -1, -1):
            x_bar = step(x_bar, x_bar)
            if (e >> i) & 1:
                x_bar = step(x_bar, m_bar)
        if e >= 2:
            m_after = m_bar
    return step(x_bar, 1), m_after, runs


@st.composite
def sized_modulus(draw: st.DrawFn, nbits: int) -> tuple[int, int]:
    """(L, N): an even length L <= nbits and an odd N with 2^(L-2) <= N < 2^L (so N has L or
    L − 1 bits: odd widths included), edges weighted in."""
    length = draw(st.sampled_from([2, 4, 62, 64, 66, 126, 128, 130, nbits - 2, nbits]
                                  + [draw(st.integers(1, nbits // 2)) * 2]))
    length = min(length, nbits)
    low, high = 1 << (length - 2), (1 << length) - 1
    n = draw(st.one_of(st.just(high), st.just(low | 1), st.just((1 << (length - 1)) | 1),
                       st.just((1 << (length - 1)) - 1), st.integers(low, high))) | 1
    return length, max(n, 3)


# --- construction, reset, encoding ------------------------------------------------------------


@pytest.mark.parametrize("nbits", [0, 32, 63, 65, 100, 1000, -64])
def test_nbits_must_be_a_positive_multiple_of_64(nbits: int) -> None:
    with pytest.raises(ValueError, match="multiple of 64"):
        YehSimulator(nbits)


def test_nbits_must_be_an_int() -> None:
    with pytest.raises(TypeError):
        YehSimulator(128.0)  # type: ignore[arg-type]


def test_reset_is_the_power_on_state() -> None:
    sim = setup(192, (1 << 191) + 1)
    write(sim, "M", 12345)
    assert sim.execute(encode("BSR4", ra="C", rb="M")).err == 0
    sim.reset()
    assert (sim.length, sim.wptr, sim.rptr, sim.modulus_valid, sim.flags) == (192, 0, 0, False, 0)
    assert all(v == 0 for v in sim.regs.values())
    assert sim.execute(encode("BSR4", ra="C", rb="M")).err == ERR["E_NO_MODULUS"]


def test_encode_and_decode_use_the_yeh_table() -> None:
    insn = encode("BSR4", ra="X", rb="ONE", f=1)
    assert decode_slots(insn) == {"op": 0x10, "rd": 0, "ra": 4, "rb": 5, "f": 1, "imm": 0}
    assert encode("WR", rd="E") == encode("WR", rd=3) == (0x02 << 24) | (3 << 19)
    with pytest.raises(ValueError, match="unknown register"):
        encode("WR", rd="Q")
    with pytest.raises(ValueError, match="does not fit"):
        encode("WR", rd=32)


def test_command_words_out_of_range_are_refused() -> None:
    sim = YehSimulator(128)
    with pytest.raises(ValueError, match="32 bits"):
        sim.execute(1 << 32)
    with pytest.raises(ValueError, match="64-bit"):
        sim.execute(encode("NOP"), 1 << 64)


def test_execute_many_is_execute_in_order() -> None:
    n = (1 << 127) + 15
    commands = [(encode("SETLEN"), 128), (encode("WR", rd="N"), n & (2**64 - 1)),
                (encode("WR", rd="N"), n >> 64), Command(encode("SETMOD")),
                (encode("BSR4", ra="C", rb="ONE"), 0), (encode("RD", ra="N"), 0),
                (encode("RD", ra="N"), 0), (0xFF << 24, 0)]
    a, b = YehSimulator(128), YehSimulator(128)
    many = a.execute_many(commands)
    one = [b.execute(c.insn, c.data) if isinstance(c, Command) else b.execute(*c) for c in commands]
    assert many == one
    assert [r.err for r in many] == [0] * 7 + [ERR["E_BAD_OPCODE"]]
    assert many[5].data | many[6].data << 64 == n
    assert a.cycle_count == b.cycle_count == sum(r.cycles for r in many)


# --- cycles: every instruction evaluates its table formula -------------------------------------


@pytest.mark.parametrize("nbits,length", [(64, 2), (64, 64), (128, 66), (192, 130), (1024, 1024),
                                          (1024, 1022)])
def test_every_instruction_takes_its_table_formula(nbits: int, length: int) -> None:
    n = (1 << (length - 1)) | 1 if length > 2 else 3
    sim = setup(nbits, n, length)
    w, nwords = words(length), nbits // 64
    variables = dict(L=length, W=w, NWords=nwords, NBits=nbits)
    expected = {name: ISA.by_name[name].cycle_count("yeh", **variables)
                for name in ("NOP", "WR", "RD", "SETMOD", "XTOM", "BSR4", "SETLEN", "WIPE")}
    # the formulas by hand, once, so that a wrong variable binding cannot hide
    assert expected == {"NOP": 1, "WR": 1, "RD": 2, "SETMOD": w + 2, "XTOM": 1,
                        "BSR4": 2 * w + length // 2 + 4, "SETLEN": nwords + 1, "WIPE": nwords + 1}
    runs = [("NOP", 0, {}), ("WR", 1, {"rd": "M"}), ("RD", 0, {"ra": "M"}), ("SETMOD", 0, {}),
            ("XTOM", 0, {}), ("BSR4", 0, {"ra": "C", "rb": "M", "f": 1}),
            ("BSR4", 0, {"ra": "X", "rb": "X"}), ("WIPE", 0, {}), ("SETLEN", length, {})]
    for name, data, slots in runs:
        rsp = sim.execute(encode(name, **slots), data)
        assert rsp.err == 0 and rsp.cycles == expected[name], name
        if name == "WIPE":   # put the modulus back for what follows
            write(sim, "N", n)
            ok(sim, "SETMOD")
    write(sim, "N", n)
    ok(sim, "SETMOD")
    for e in sorted({0, 1, 2, 3, 5, (1 << length) - 1}):
        if e >> length:
            continue
        write(sim, "E", e)
        rsp = sim.execute(encode("EXP"))
        nb = exp_multiplications(e)
        assert rsp.err == 0
        assert rsp.cycles == ISA.by_name["EXP"].cycle_count("yeh", nb=nb, **variables)
        assert rsp.cycles == 2 * w + nb * (length // 2 + 1) + 4
        assert sim.last_core_cycles == nb * (length // 2 + 1) == len(sim.last_bsr4_runs) * (length // 2 + 1)
    assert ISA.by_name["EXP"].worst_case_cycles("yeh", **variables) == \
        2 * w + 2 * length * (length // 2 + 1) + 4


def test_nb_counts_the_h_type_multiplications() -> None:
    assert [exp_multiplications(e) for e in (0, 1, 2, 3, 4, 7, 65537)] == [2, 2, 3, 4, 4, 6, 19]
    for e in (1, 2, 3, 0xF0F0, (1 << 64) - 1):
        # 1 conversion in + (bits − 1) squarings + (weight − 1) multiplications + 1 out
        assert exp_multiplications(e) == 1 + (e.bit_length() - 1) + (bin(e).count("1") - 1) + 1


# --- SETLEN, WR, RD, SETMOD, XTOM, WIPE --------------------------------------------------------


@pytest.mark.parametrize("length", [0, 1, 3, 129, 194, 256, 1 << 40, (1 << 64) - 2])
def test_setlen_refuses_bad_lengths_and_changes_nothing(length: int) -> None:
    sim = setup(192, (1 << 129) + 7, 130)
    write(sim, "M", 99)
    expect_error(sim, encode("SETLEN"), length, "E_BAD_LENGTH", ISA.error_cycles)


@pytest.mark.parametrize("length", [2, 4, 64, 66, 128, 190, 192])
def test_setlen_sets_l_and_clears_everything(length: int) -> None:
    sim = setup(192, (1 << 191) + 1)
    write(sim, "M", 5)
    ok(sim, "RD", ra="M")                       # rptr = 1
    rsp = sim.execute(encode("SETLEN"), length)
    assert (rsp.err, rsp.cycles) == (0, 192 // 64 + 1)
    assert (sim.length, sim.wptr, sim.rptr, sim.modulus_valid, sim.flags) == (length, 0, 0, False, 0)
    assert readback(sim) == ((0,) * 5, 0)
    assert sim.execute(encode("EXP")).err == ERR["E_NO_MODULUS"]


@given(st.data())
@FAST
def test_wr_rd_round_trip_with_pointer_wrap(data: st.DataObject) -> None:
    nbits = data.draw(st.sampled_from([128, 192]))
    length = data.draw(st.integers(1, nbits // 2)) * 2
    sim = YehSimulator(nbits)
    ok(sim, "SETLEN", length)
    values = {reg: data.draw(st.integers(0, (1 << length) - 1)) for reg in DATA_REGS}
    for reg, value in values.items():
        write(sim, reg, value)
        assert sim.wptr == 0                       # W words bring the pointer around
    for reg, value in values.items():
        assert read(sim, reg) == value
    assert sim.flags == 0


@pytest.mark.parametrize("length", [2, 62, 64, 66, 128, 130])
def test_wr_refuses_bits_at_or_above_l(length: int) -> None:
    sim = YehSimulator(192)
    ok(sim, "SETLEN", length)
    w = words(length)
    top_bits = length - 64 * (w - 1)               # valid bits of word W − 1
    for _ in range(w - 1):
        ok(sim, "WR", (1 << 64) - 1, rd="E")       # full words below the top one
    if top_bits < 64:
        for reg in DATA_REGS:
            expect_error(sim, encode("WR", rd=reg), 1 << top_bits, "E_RANGE", ISA.error_cycles)
            expect_error(sim, encode("WR", rd=reg), (1 << 64) - 1, "E_RANGE", ISA.error_cycles)
    ok(sim, "WR", (1 << top_bits) - 1, rd="E")
    assert read(sim, "E") == (1 << length) - 1


@pytest.mark.parametrize("slot,name", [("rd", "WR"), ("ra", "RD")])
def test_wr_and_rd_refuse_one_and_unknown_registers(slot: str, name: str) -> None:
    sim = setup(128, (1 << 127) + 3)
    for reg in [REG["ONE"], *range(6, 32)]:
        expect_error(sim, encode(name, **{slot: reg}), 0, "E_BAD_REG", ISA.error_cycles)


def test_unknown_opcodes_are_refused_after_error_cycles() -> None:
    sim = setup(128, (1 << 127) + 3)
    known = {ins.opcode for ins in ISA.instructions}
    for op in range(256):
        if op not in known:
            expect_error(sim, op << 24, 0, "E_BAD_OPCODE", ISA.error_cycles)


def test_writing_n_invalidates_the_modulus_and_x_clears_xl() -> None:
    length = 64
    n = (1 << 64) - 59                             # close to 2^L: raw results reach 2^L
    sim = setup(128, n)
    rng = random.Random(7)
    while True:                                   # find a raw BSR4 result >= 2^L (XL = 1)
        a, b = rng.randrange(n - 2**20, n), rng.randrange(n - 2**20, n)
        if yeh.bsr4(a, b, n).result >> length:
            break
    write(sim, "X", a)
    write(sim, "M", b)
    rsp = sim.execute(encode("BSR4", ra="X", rb="M", f=0))
    assert rsp.flags == XL and sim.regs["X"] == yeh.bsr4(a, b, n).result
    assert sim.execute(encode("NOP")).flags == XL  # every response carries XL
    expect_error(sim, encode("XTOM"), 0, "E_RANGE", ISA.error_cycles)
    expect_error(sim, encode("BSR4", ra="X", rb="ONE"), 0, "E_RANGE", words(length) + 3)
    # L = 64: bit L is outside the readable words, only the flag shows it
    assert read(sim, "X") == sim.regs["X"] - (1 << length)
    ok(sim, "WR", 5, rd="X")                     # writing X clears XL
    assert sim.flags == 0 and read(sim, "X") == 5
    ok(sim, "XTOM")
    assert read(sim, "M") == 5
    write(sim, "N", n)                            # the same value still invalidates
    assert not sim.modulus_valid
    assert sim.execute(encode("BSR4", ra="X", rb="M")).err == ERR["E_NO_MODULUS"]


def test_rd_of_x_includes_xl_in_the_top_word_when_l_is_not_a_multiple_of_64() -> None:
    length = 66
    n = (1 << length) - 3
    sim = setup(128, n)
    rng = random.Random(3)
    while True:
        a, b = rng.randrange(n - 2**30, n), rng.randrange(n - 2**30, n)
        raw = yeh.bsr4(a, b, n).result
        if raw >> length:
            break
    write(sim, "X", a)
    write(sim, "M", b)
    assert sim.execute(encode("BSR4", ra="X", rb="M")).flags == XL
    assert read(sim, "X") == raw                  # bit 66 = bit 2 of word 1
    assert (raw >> 64) & 0b100


@pytest.mark.parametrize("length", [64, 66])
def test_a_raw_result_of_exactly_two_to_the_l_sets_xl(length: int) -> None:
    """X = 2^L exactly: XL = 1 with every data bit 0; XTOM and BSR4 refuse it (X >= 2^L >= N)."""
    n = (1 << length) - 5
    radix = 1 << length
    rng = random.Random(length)
    for _ in range(1000):                          # B = R²·A⁻¹: the result is ≡ R, often = R
        a = rng.randrange(n - 2**40, n)
        b = radix * radix * pow(a, -1, n) % n
        if yeh.bsr4(a, b, n).result == radix:
            break
    else:
        pytest.fail("no A, B with P[L] + C1 = 2^L found")
    sim = setup(128, n)
    write(sim, "X", a)
    write(sim, "M", b)
    assert sim.execute(encode("BSR4", ra="X", rb="M")).flags == XL
    assert sim.regs["X"] == radix and read(sim, "X") == (radix if length % 64 else 0)
    expect_error(sim, encode("XTOM"), 0, "E_RANGE", ISA.error_cycles)
    expect_error(sim, encode("BSR4", ra="X", rb="X"), 0, "E_RANGE", words(length) + 3)
    assert sim.execute(encode("BSR4", ra="X", rb="M", f=1)).err == ERR["E_RANGE"]


@pytest.mark.parametrize("p,q", [(3, 5), (2**31 - 1, 2**61 - 1), (2**61 - 1, 2**61 - 1)])
def test_a_raw_result_of_exactly_n_is_reduced_to_zero(p: int, q: int) -> None:
    """A·B = N (a composite N): Q = R − 1 and P[L] + C1 = N exactly; f = 1 makes it 0, f = 0
    keeps N (the paper's unreduced result)."""
    n = p * q
    sim = setup(128, n)
    write(sim, "X", p)
    write(sim, "M", q)
    gold = yeh.bsr4(p, q, n)
    assert gold.result == n
    assert sim.execute(encode("BSR4", ra="X", rb="M", f=1)).err == 0
    assert sim.last_bsr4_runs == (gold,) and sim.regs["X"] == 0
    write(sim, "X", p)
    assert sim.execute(encode("BSR4", ra="X", rb="M", f=0)).err == 0
    assert sim.regs["X"] == n
    expect_error(sim, encode("BSR4", ra="X", rb="ONE"), 0, "E_RANGE", words(sim.length) + 3)


@pytest.mark.parametrize("length,n", [(64, 0), (64, 1), (64, (1 << 63) + 2), (64, (1 << 62) - 1),
                                      (64, 3), (66, (1 << 64) - 1), (2, 1), (2, 2), (4, 2),
                                      (128, (1 << 126) - 1)])
def test_setmod_refuses_bad_moduli(length: int, n: int) -> None:
    sim = YehSimulator(128)
    ok(sim, "SETLEN", length)
    write(sim, "N", n)
    expect_error(sim, encode("SETMOD"), 0, "E_BAD_MODULUS", ISA.error_cycles)
    assert sim.execute(encode("BSR4", ra="C", rb="ONE")).err == ERR["E_NO_MODULUS"]


@pytest.mark.parametrize("length,n", [(2, 3), (4, 5), (4, 15), (64, (1 << 62) + 1),
                                      (64, (1 << 64) - 1), (66, (1 << 65) + 1)])
def test_setmod_accepts_the_edges_and_forms_3n(length: int, n: int) -> None:
    sim = YehSimulator(128)
    ok(sim, "SETLEN", length)
    write(sim, "N", n)
    ok(sim, "SETMOD")
    assert sim.modulus_valid and sim.three_n == 3 * n
    assert yeh.datapath_width(n) == length         # the length fits the modulus


def test_wipe_clears_everything_but_l() -> None:
    sim = setup(192, (1 << 129) + 1, 130)
    for reg in DATA_REGS:
        write(sim, reg, 1 << 100)
    ok(sim, "RD", ra="M")
    ok(sim, "WIPE")
    assert (sim.length, sim.wptr, sim.rptr, sim.modulus_valid) == (130, 0, 0, False)
    assert readback(sim) == ((0,) * 5, 0)


# --- BSR4 ------------------------------------------------------------------------------------


def test_bsr4_register_pairs_come_from_the_table() -> None:
    n = (1 << 127) + 3
    sim = setup(128, n)
    allowed = {(REG[a], REG[b]) for a, b in ISA.by_name["BSR4"].pairs}
    assert allowed == {(1, 2), (1, 5), (4, 2), (4, 5), (4, 4)}
    for ra in range(32):
        for rb in range(32):
            insn = encode("BSR4", ra=ra, rb=rb, rd=(ra * 7 + rb) % 32, f=rb & 1)
            if (ra, rb) in allowed:
                assert sim.execute(insn).err == 0
            else:
                expect_error(sim, insn, 0, "E_BAD_REG", ISA.error_cycles)


def test_error_precedence() -> None:
    sim = YehSimulator(128)
    ok(sim, "SETLEN", 128)
    ok(sim, "WR", 1, rd="X")                      # X = 1 < N, but no modulus yet
    # E_BAD_REG before E_NO_MODULUS
    expect_error(sim, encode("BSR4", ra="M", rb="C"), 0, "E_BAD_REG", ISA.error_cycles)
    expect_error(sim, encode("BSR4", ra="C", rb="M"), 0, "E_NO_MODULUS", ISA.error_cycles)
    expect_error(sim, encode("EXP"), 0, "E_NO_MODULUS", ISA.error_cycles)
    # E_NO_MODULUS before E_RANGE: operands >= N (N = 0 here) are not looked at
    write(sim, "N", 4)                             # even: SETMOD fails, the modulus stays invalid
    expect_error(sim, encode("SETMOD"), 0, "E_BAD_MODULUS", ISA.error_cycles)
    expect_error(sim, encode("BSR4", ra="X", rb="X"), 0, "E_NO_MODULUS", ISA.error_cycles)
    # E_BAD_REG before E_RANGE: at L = 2, data 1 << 5 is out of range for any register
    ok(sim, "SETLEN", 2)
    expect_error(sim, encode("WR", rd="ONE"), 1 << 5, "E_BAD_REG", ISA.error_cycles)
    expect_error(sim, encode("WR", rd="M"), 1 << 5, "E_RANGE", ISA.error_cycles)


@pytest.mark.parametrize("nbits,length", [(128, 128), (192, 130), (128, 2)])
def test_bsr4_and_exp_refuse_operands_at_or_above_n(nbits: int, length: int) -> None:
    n = (1 << (length - 1)) + 1 if length > 2 else 3
    sim = setup(nbits, n, length)
    range_cycles = evaluate_formula(ISA.by_name["BSR4"].range_error_cycles,
                                    {"L": length, "W": words(length)})
    assert range_cycles == words(length) + 3
    assert evaluate_formula(ISA.by_name["EXP"].range_error_cycles,
                            {"L": length, "W": words(length)}) == range_cycles
    for reg, pairs in (("C", [("C", "M"), ("C", "ONE")]), ("M", [("C", "M"), ("X", "M")]),
                       ("X", [("X", "M"), ("X", "ONE"), ("X", "X")])):
        for value in sorted({n, n + 1, (1 << length) - 1} - {1 << length}):
            write(sim, reg, value)
            for ra, rb in pairs:
                for f in (0, 1):
                    expect_error(sim, encode("BSR4", ra=ra, rb=rb, f=f), 0, "E_RANGE", range_cycles)
            if reg in ("C", "M"):
                expect_error(sim, encode("EXP"), 0, "E_RANGE", range_cycles)
        write(sim, reg, n - 1)
    write(sim, "E", 3)
    ok(sim, "EXP")                                 # C, M = N − 1: in range


@given(st.data())
@FAST
def test_bsr4_matches_the_golden_model_step_by_step(data: st.DataObject) -> None:
    nbits = data.draw(st.sampled_from([128, 192]))
    length, n = data.draw(sized_modulus(nbits))
    edge = st.sampled_from([0, 1, 2, n - 1, n - 2, n // 2])
    a = data.draw(st.one_of(edge, st.integers(0, n - 1)))
    b = data.draw(st.one_of(edge, st.integers(0, n - 1)))
    f = data.draw(st.integers(0, 1))
    ra, rb = data.draw(st.sampled_from(ISA.by_name["BSR4"].pairs))
    values = {"C": a if ra == "C" else 0, "X": a if ra == "X" else 0, "M": b if rb == "M" else 0}
    if rb == "ONE":
        b = 1
    if rb == "X":
        b = a
    sim = setup(nbits, n, length)
    for reg, value in values.items():
        write(sim, reg, value)
    gold = yeh.bsr4(a, b, n)
    rsp = sim.execute(encode("BSR4", ra=ra, rb=rb, f=f))
    assert rsp.err == 0 and rsp.cycles == 2 * words(length) + length // 2 + 4
    assert sim.last_bsr4_runs == (gold,)           # result, P[L], C1, every k_i, width
    assert gold.width == length
    assert sim.last_core_cycles == length // 2 + 1
    expected = gold.result - n if f and gold.result >= n else gold.result
    assert sim.regs["X"] == expected
    assert rsp.flags == (XL if expected >> length else 0)
    assert read(sim, "X") & ((1 << length) - 1) == expected & ((1 << length) - 1)
    assert expected % n == a * b * pow(2, -length, n) % n
    assert (sim.regs["N"], sim.regs["M"], sim.regs["C"]) == (n, values["M"], values["C"])


# --- EXP -------------------------------------------------------------------------------------


def run_exp(nbits: int, length: int, n: int, m: int, e: int, c: int | None = None) -> YehSimulator:
    sim = setup(nbits, n, length)
    write(sim, "C", pow(2, 2 * length, n) if c is None else c)
    write(sim, "M", m)
    write(sim, "E", e)
    rsp = sim.execute(encode("EXP"))
    assert rsp.err == 0 and rsp.flags == 0
    assert rsp.cycles == 2 * words(length) + exp_multiplications(e) * (length // 2 + 1) + 4
    return sim


@given(st.data())
@FAST
def test_exp_matches_the_golden_model(data: st.DataObject) -> None:
    nbits = data.draw(st.sampled_from([128, 192]))
    length, n = data.draw(sized_modulus(nbits))
    m = data.draw(st.one_of(st.sampled_from([0, 1, n - 1]), st.integers(0, n - 1)))
    e = data.draw(st.one_of(st.sampled_from([0, 1, 2, 3, (1 << length) - 1]),
                            st.integers(0, (1 << length) - 1)))
    sim = run_exp(nbits, length, n, m, e)
    value, stats = yeh.mod_exp(m, e, n)
    assert sim.regs["X"] == value == pow(m, e, n)
    assert sim.last_core_cycles == stats.cycles
    assert len(sim.last_bsr4_runs) == stats.counts["bsr4_calls"] == exp_multiplications(e)
    x, m_after, runs = reference_exp(pow(2, 2 * length, n), m, e, n)
    assert sim.last_bsr4_runs == tuple(runs)       # every intermediate, unreduced
    assert read(sim, "M") == m_after == (m if e < 2 else m * (1 << length) % n)
    assert (read(sim, "N"), read(sim, "E")) == (n, e)


@given(st.data())
@FAST
def test_exp_with_a_wrong_constant_runs_the_sequence_as_given(data: st.DataObject) -> None:
    nbits = 128
    length, n = data.draw(sized_modulus(nbits))
    c = data.draw(st.integers(0, n - 1))
    m = data.draw(st.integers(0, n - 1))
    e = data.draw(st.one_of(st.sampled_from([0, 1, 2, 3]), st.integers(0, (1 << length) - 1)))
    sim = run_exp(nbits, length, n, m, e, c)
    x, m_after, runs = reference_exp(c, m, e, n)
    assert sim.regs["X"] == x and sim.regs["M"] == m_after
    assert sim.last_bsr4_runs == tuple(runs)
    r_inv = pow(2, -length, n)                     # X = (C·M·R⁻²)^E, or C·R⁻² for E = 0
    assert x == (c * r_inv * r_inv % n if e == 0 else pow(c * m * r_inv * r_inv, e, n))


@pytest.mark.parametrize("bits", [3, 63, 64, 65, 127, 128, 191, 192])
def test_exp_edge_moduli_and_exponents(bits: int) -> None:
    rng = random.Random(bits)
    for n in {(1 << bits) - 1, (1 << (bits - 1)) | 1, rng.getrandbits(bits) | (1 << (bits - 1)) | 1}:
        length = yeh.datapath_width(n)
        for e in (0, 1, 2, 3, (1 << length) - 1, rng.getrandbits(length)):
            for m in (0, 1, n - 1, rng.randrange(n)):
                sim = run_exp(192, length, n, m, e)
                value, stats = yeh.mod_exp(m, e, n)
                assert sim.regs["X"] == value == pow(m, e, n)
                assert sim.last_core_cycles == stats.cycles


# --- a random command stream -----------------------------------------------------------------


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_random_command_streams_follow_the_table(data: st.DataObject) -> None:
    """Any command (invalid ones included): the response's cycles are the formula's, and an
    error changes nothing."""
    nbits = data.draw(st.sampled_from([64, 128]))
    sim = YehSimulator(nbits)
    if data.draw(st.booleans()):                   # start from a valid modulus half the time
        length, n = data.draw(sized_modulus(nbits))
        sim = setup(nbits, n, length)
    names = [ins.name for ins in ISA.instructions]
    done = {"BSR4": 0, "EXP": 0}
    for _ in range(data.draw(st.integers(1, 40))):
        kind = data.draw(st.sampled_from(["insn", "insn", "insn", "raw"]))
        if kind == "raw":
            insn = data.draw(st.integers(0, (1 << 32) - 1))
        else:
            name = data.draw(st.sampled_from(names))
            insn = encode(name, rd=data.draw(st.integers(0, 6)), ra=data.draw(st.integers(0, 6)),
                          rb=data.draw(st.integers(0, 6)), f=data.draw(st.integers(0, 1)))
        word = data.draw(st.one_of(st.integers(0, 2**64 - 1), st.integers(0, 8),
                                   st.sampled_from([2, 4, 62, 64, 66, nbits, (1 << 62) + 1,
                                                    (1 << 63) + 3])))
        before = state(sim)
        w_before = words(sim.length)
        rsp = sim.execute(insn, word)
        ins = ISA.by_opcode.get(insn >> 24)
        if rsp.err:
            assert state(sim) == before
            name = next(e.name for e in ISA.errors if e.code == rsp.err)
            if name == "E_RANGE" and ins.range_error_cycles:
                assert rsp.cycles == w_before + 3
            else:
                assert rsp.cycles == ISA.error_cycles
            assert ins is None or name in ins.errors
        else:
            extra = {"nb": len(sim.last_bsr4_runs)} if ins.name == "EXP" else {}
            variables = dict(L=before[0], W=w_before, NWords=nbits // 64, NBits=nbits, **extra)
            assert rsp.cycles == ins.cycle_count("yeh", **variables)
            done[ins.name] = done.get(ins.name, 0) + 1
            assert sim.regs["X"] >> (sim.length + 1) == 0
            assert all(sim.regs[r] >> sim.length == 0 for r in ("N", "C", "M", "E"))
        assert rsp.flags == sim.flags
    event(f"BSR4 ran: {bool(done['BSR4'])}, EXP ran: {bool(done['EXP'])}")
