"""MMQ: a queued Montgomery product runs with the next STARTMMI/MMX — both results exactly as two
products, the paired cycle formula, every E_BAD_PAIR case, and the queue's lifetime."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montu.isa import encode, load
from montu.backends.sim import Simulator

ISA = load()
ERR = ISA.error_code


def _unit(k: int, n: int, values: dict[int, int], *, pipelined: bool = True, lanes: int = 2) -> Simulator:
    sim = Simulator(pipelined=pipelined, lanes=lanes)
    assert sim.execute(encode("SETMMI", imm=k)).err == 0
    for reg, value in {0: n, **values}.items():
        for j in range(sim.words):
            sim.execute(encode("WMMI", rd=reg), (value >> (64 * j)) % (1 << 64))
    assert sim.execute(encode("SETMOD", ra=0)).err == 0
    return sim


def _mont(x: int, y: int, n: int, k: int) -> int:
    return x * y * pow(2, -64 * k, n) % n


@settings(max_examples=30, deadline=None)
@given(k=st.sampled_from([1, 2, 4, 5, 7, 16]), pipelined=st.booleans(), data=st.data())
def test_a_pair_gives_both_products(k, pipelined, data):
    n = data.draw(st.integers(3, (1 << 64 * k) - 1)) | 1
    values = {r: data.draw(st.integers(0, n - 1)) for r in range(1, 5)}
    sim = _unit(k, n, values, pipelined=pipelined)
    assert sim.execute(encode("MMQ", rd=5, ra=1, rb=2)) .cycles == 1
    rsp = sim.execute(encode("STARTMMI", rd=6, ra=3, rb=4))
    assert rsp.err == 0
    assert sim.regs[5] == _mont(values[1], values[2], n, k)
    assert sim.regs[6] == _mont(values[3], values[4], n, k)
    alone = ISA.by_name["STARTMMI"].cycle_count(**sim.config.variables(k=k))
    assert rsp.cycles == ISA.by_name["STARTMMI"].cycle_count(paired=1, **sim.config.variables(k=k))
    assert rsp.cycles > alone and rsp.cycles < 2 * alone   # interleaved: cheaper than two
    assert sim.queued is None
    assert sim.execute(encode("STARTMMI", rd=6, ra=3, rb=4)).cycles == alone


def test_pipelined_ecc_sizes_pay_little_for_the_second_product():
    sim = _unit(4, (1 << 255) - 19, {1: 3, 2: 5})
    variables = sim.config.variables(k=4)
    assert ISA.by_name["STARTMMI"].cycle_count(**variables) == 57
    assert ISA.by_name["STARTMMI"].cycle_count(paired=1, **variables) == 65


@pytest.mark.parametrize("lanes", [4])
def test_four_lanes_run_the_queued_product_after_the_other(lanes):
    n = (1 << 255) - 19
    sim = _unit(4, n, {1: 7, 2: 11, 3: 13, 4: 17}, pipelined=False, lanes=lanes)
    sim.execute(encode("MMQ", rd=5, ra=1, rb=2))
    rsp = sim.execute(encode("STARTMMI", rd=6, ra=3, rb=4))
    assert rsp.cycles == 2 * ISA.by_name["STARTMMI"].cycle_count(**sim.config.variables(k=4))
    assert (sim.regs[5], sim.regs[6]) == (_mont(7, 11, n, 4), _mont(13, 17, n, 4))


def test_mmx_runs_a_pair_with_its_table_entry():
    n = (1 << 255) - 19
    rng = random.Random(1)
    table = {r: rng.randrange(n) for r in range(8, 12)}
    sim = _unit(4, n, {1: 5, 2: 6, 3: 7, 7: 3 << 254, **table})
    sim.execute(encode("SHLX", rd=7, ra=7, imm=2))                    # X = 3
    sim.execute(encode("MMQ", rd=4, ra=1, rb=2))
    assert sim.execute(encode("MMX", rd=5, ra=3, rb=8, imm=2)).err == 0
    assert sim.regs[4] == _mont(5, 6, n, 4)
    assert sim.regs[5] == _mont(7, table[11], n, 4)


@pytest.mark.parametrize("slots", [
    {"rd": 5, "ra": 3, "rb": 4},     # same destination
    {"rd": 1, "ra": 3, "rb": 4},     # writes the queued product's operand
    {"rd": 2, "ra": 3, "rb": 4},
    {"rd": 6, "ra": 5, "rb": 4},     # reads the queued product's destination
    {"rd": 6, "ra": 3, "rb": 5},
    {"rd": 0, "ra": 3, "rb": 4},     # writes the modulus
])
def test_dependent_pairs_are_refused_and_change_nothing(slots):
    sim = _unit(2, (1 << 127) - 1, {1: 1, 2: 2, 3: 3, 4: 4, 5: 55, 6: 66})
    sim.execute(encode("MMQ", rd=5, ra=1, rb=2))
    before = list(sim.regs)
    rsp = sim.execute(encode("STARTMMI", **slots))
    assert rsp.err == ERR["E_BAD_PAIR"] and rsp.cycles == ISA.error_cycles
    assert sim.regs == before and sim.queued == (5, 1, 2)          # the queue waits on
    assert sim.execute(encode("STARTMMI", rd=6, ra=3, rb=4)).err == 0
    assert sim.queued is None


def test_the_queue_holds_one_product_and_is_emptied_by_setmmi_and_wipe():
    sim = _unit(2, (1 << 127) - 1, {1: 1, 2: 2})
    assert sim.execute(encode("MMQ", rd=5, ra=1, rb=2)).err == 0
    assert sim.execute(encode("MMQ", rd=6, ra=1, rb=2)).err == ERR["E_BAD_PAIR"]
    assert sim.execute(encode("MMQ", rd=40 % 32, ra=1, rb=2)).err == ERR["E_BAD_PAIR"]
    sim.execute(encode("SETMMI", imm=2))
    assert sim.queued is None
    sim.execute(encode("MMQ", rd=5, ra=1, rb=2))
    sim.execute(encode("WIPE"))
    assert sim.queued is None


def test_a_queued_product_writing_the_modulus_is_refused():
    sim = _unit(2, (1 << 127) - 1, {1: 1, 2: 2})
    sim.execute(encode("MMQ", rd=0, ra=1, rb=2))
    assert sim.execute(encode("STARTMMI", rd=6, ra=1, rb=2)).err == ERR["E_BAD_PAIR"]


def test_mmx_table_conflict_does_not_depend_on_the_window():
    sim = _unit(2, (1 << 127) - 1, {1: 1, 2: 2})
    sim.execute(encode("MMQ", rd=10, ra=1, rb=2))       # R10 is entry 2 of the table R[8..11]
    for window in (0, 1, 2, 3):
        sim.window = window
        assert sim.execute(encode("MMX", rd=6, ra=1, rb=8, imm=2)).err == ERR["E_BAD_PAIR"]
