"""The MMQ pairing pass (montu.ec.pairing): a paired program leaves the unit exactly as the
original does, the unit accepts every pair it emits, and k·P gets faster and stays in constant
time."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montu.backends.sim.simulator import Simulator
from montu.benchmarks.ecc import warm_peer
from montu.config import UnitConfig
from montu.driver import R_MOD, Unit
from montu.ec import get_curve, pairing, points, window
from montu.isa import decode_slots, encode, load

ISA = load()
MMQ = ISA.by_name["MMQ"].opcode
REGS = range(1, 9)                 # the registers random programs use (R0: the modulus)
MODULI = {0: (1 << 64) - 59, 1: (1 << 63) | (1 << 4) | (1 << 3) | (1 << 1) | 1}  # GF(p), GF(2^m)
BARRIERS = ("NOP", "RMMI")         # instructions the pass does not move anything across


# ------------------------------------------------------------------ random straight-line programs

def _instruction(draw, name: str) -> int:
    reg = st.sampled_from(REGS)
    if name in ("STARTMMI", "MADD", "MSUB", "ADD", "SUB", "SADD", "SSUB"):
        return encode(name, rd=draw(reg), ra=draw(reg), rb=draw(reg))
    if name == "MLIN":
        constants = draw(st.tuples(st.integers(-3, 3), st.integers(-3, 3)))
        return encode(name, rd=draw(reg), ra=draw(reg), rb=draw(reg),
                      imm=(constants[0] & 0xF) | ((constants[1] & 0xF) << 4))
    if name == "MMX":
        width = draw(st.integers(1, 2))
        return encode(name, rd=draw(reg), ra=draw(reg), rb=draw(st.integers(1, 9 - (1 << width))),
                      imm=width)
    if name == "SHLX":
        return encode(name, rd=draw(reg), ra=draw(reg), imm=draw(st.integers(1, 3)))
    if name == "CSWAP":
        return encode(name, ra=draw(reg), rb=draw(reg), imm=draw(st.integers(0, 3)))
    if name == "CMP":
        return encode(name, ra=draw(reg), rb=draw(reg))
    if name in ("LDZ", "LDONE"):
        return encode(name, rd=draw(reg))
    if name == "RMMI":
        return encode(name, ra=draw(reg))
    if name == "NOP":
        return encode(name)
    return encode(name, rd=draw(reg), ra=draw(reg))          # MOV, MDBL, SHL1, SHR1, SHLW, SHRW


NAMES = ("STARTMMI", "STARTMMI", "STARTMMI", "STARTMMI", "MMX", "MMX", "MLIN", "MADD", "MSUB",
         "MDBL", "MOV", "ADD", "SUB", "SADD", "SSUB", "SHL1", "SHR1", "SHLW", "SHRW", "SHLX",
         "SHLX", "CSWAP", "CSWAP", "CMP", "LDZ", "LDONE", *BARRIERS)


@st.composite
def programs(draw) -> list[tuple[int, int]]:
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=40))
    return [(_instruction(draw, name), 0) for name in names]


def _unit_state(pipelined: bool, gf2m: int, k: int, values: list[int]) -> Simulator:
    """A simulator with modulus R0 set up and R1 … R8 loaded with `values`."""
    sim = Simulator(pipelined=pipelined)
    modulus = (MODULI[gf2m] << (64 * (k - 1))) | 1
    setup = [(encode("SETMMI", imm=k, f=gf2m), 0)]
    for reg, value in ((R_MOD, modulus), *zip(REGS, values)):
        setup += [(encode("WMMI", rd=reg), (value >> (64 * j)) & ((1 << 64) - 1)) for j in range(k)]
    setup.append((encode("SETMOD", ra=R_MOD), 0))
    assert all(rsp.err == 0 for rsp in sim.execute_many(setup))
    return sim


def _observable(sim: Simulator) -> tuple:
    return list(sim.regs), sim.flags, sim.window, sim.queued, sim.modulus_reg


def _check_pairing_changes_nothing(program, pipelined, gf2m, k, values) -> int:
    """Run `program` and its paired schedule on two equal units: same registers, flags, window,
    modulus, no product left queued; every response err 0; a CMP's, NOP's or RMMI's response
    exactly the original's. Returns the number of pairs."""
    original, paired = (_unit_state(pipelined, gf2m, k, values) for _ in range(2))
    expected = original.execute_many(program)
    result = pairing.schedule(program)
    responses = paired.execute_many(result.commands)
    assert all(rsp.err == 0 for rsp in expected)
    assert all(rsp.err == 0 for rsp in responses)       # never a pair the unit refuses
    assert _observable(paired) == _observable(original)
    assert len(result.commands) == len(program)             # a queued product is its MMQ
    assert len(set(result.positions)) == len(program) - result.pairs
    for i, (insn, _) in enumerate(program):
        name = ISA.by_opcode[decode_slots(insn)["op"]].name
        if name in ("CMP", *BARRIERS):                    # flags and data exactly as the original
            assert responses[result.positions[i]] == expected[i]
    return result.pairs


@settings(max_examples=300, deadline=None)
@given(program=programs(), pipelined=st.booleans(), gf2m=st.integers(0, 1), k=st.integers(1, 2),
       values=st.lists(st.integers(0, (1 << 128) - 1), min_size=8, max_size=8))
def test_a_paired_program_leaves_the_unit_exactly_as_the_original(program, pipelined, gf2m, k, values):
    _check_pairing_changes_nothing(program, pipelined, gf2m, k, values)


def test_a_cmp_reports_the_carry_of_the_original():
    """CMP's response carries C and NEG too: a C writer after it stays after it, even when it
    is ready first (the CMP waits for a product)."""
    top_bit = [1 << 63] * 8
    program = [(encode("STARTMMI", rd=1, ra=2, rb=3), 0), (encode("STARTMMI", rd=6, ra=7, rb=7), 0),
               (encode("CMP", ra=1, rb=4), 0), (encode("SHL1", rd=5, ra=5), 0)]
    assert _check_pairing_changes_nothing(program, False, 0, 1, top_bit) == 1


# ------------------------------------------------------------------ the E_BAD_PAIR rule

@settings(max_examples=400, deadline=None)
@given(queued=st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(0, 8)),
       runner=st.tuples(st.sampled_from(("STARTMMI", "MMX")), st.integers(0, 8), st.integers(0, 8),
                        st.integers(0, 6), st.integers(1, 2)))
def test_may_pair_is_exactly_the_units_rule(queued, runner):
    """may_pair predicts the unit's answer (E_BAD_PAIR or not) for every pair of products."""
    sim = _unit_state(False, 0, 1, list(range(3, 11)))
    rd, ra, rb = queued
    name, r_rd, r_ra, r_rb, width = runner
    queued_insn = encode("MMQ", rd=rd, ra=ra, rb=rb)
    runner_insn = encode(name, rd=r_rd, ra=r_ra, rb=r_rb, imm=width if name == "MMX" else 0)
    assert sim.execute(queued_insn).err == 0
    accepted = sim.execute(runner_insn).err == 0
    predicted = pairing.may_pair(pairing.effects(encode("STARTMMI", rd=rd, ra=ra, rb=rb)),
                                 pairing.effects(runner_insn))
    assert predicted == accepted


def test_an_mmx_is_never_queued_and_products_never_pair_across_a_barrier():
    mmx = encode("MMX", rd=1, ra=2, rb=4, imm=1)
    mmx2 = encode("MMX", rd=3, ra=2, rb=4, imm=1)
    assert pairing.schedule([(mmx, 0), (mmx2, 0)]).pairs == 0
    independent = [(encode("STARTMMI", rd=1, ra=2, rb=2), 0),
                   (encode("STARTMMI", rd=3, ra=4, rb=4), 0)]
    paired = pairing.schedule(independent)
    assert paired.pairs == 1
    assert [decode_slots(insn)["op"] for insn, _ in paired.commands] == \
        [MMQ, ISA.by_name["STARTMMI"].opcode]
    split = [independent[0], (encode("NOP"), 0), independent[1]]
    assert pairing.schedule(split).commands == tuple(split)
    writes_modulus = [(encode("STARTMMI", rd=R_MOD, ra=2, rb=2), 0), independent[1]]
    assert pairing.schedule(writes_modulus).pairs == 0


def test_a_program_that_already_queues_products_is_left_alone():
    program = [(encode("MMQ", rd=1, ra=2, rb=2), 0), (encode("STARTMMI", rd=3, ra=4, rb=4), 0),
               (encode("STARTMMI", rd=5, ra=6, rb=6), 0), (encode("STARTMMI", rd=7, ra=6, rb=6), 0)]
    assert pairing.schedule(program).commands == tuple(program)


def test_the_schedule_depends_on_the_commands_only():
    program = window.main_program(get_curve("prime256v1"))[0].commands
    first, second = pairing.schedule(program), pairing.schedule(list(program))
    assert first == second
    assert pairing.scheduled(tuple(program)) is pairing.scheduled(tuple(program))   # cached


# ------------------------------------------------------------------ where pairing pays

@pytest.mark.parametrize("pipelined", [False, True])
def test_pairing_pays_at_ecc_lengths_on_both_lane_pair_builds(pipelined):
    config = UnitConfig(pipelined=pipelined)
    startmmi = ISA.by_name["STARTMMI"]
    for k in range(1, 10):
        for gf2m in (0, 1):
            variables = config.variables(k=k, gf2m=gf2m)
            alone = startmmi.cycle_count(engine=config.engine, paired=0, **variables)
            paired = startmmi.cycle_count(engine=config.engine, paired=1, **variables)
            assert pairing.pairing_pays(config, k, gf2m) == (paired + 1 < 2 * alone)
            assert pairing.pairing_pays(config, k, gf2m)


def test_pairing_does_not_pay_where_the_queued_product_runs_after_the_other():
    for config in (UnitConfig(lanes=4), UnitConfig(lanes=4, pipelined=True),
                   UnitConfig(engine="cilardo")):
        assert not any(pairing.pairing_pays(config, k) for k in range(1, 10))


# ------------------------------------------------------------------ k·P on the simulator

class _Recording:
    """A backend that passes every command on and keeps the instruction words."""

    def __init__(self, backend) -> None:
        self._backend = backend
        self.sent: list[int] = []

    def execute_many(self, commands):
        commands = list(commands)
        self.sent += [insn for insn, _ in commands]
        return self._backend.execute_many(commands)

    def __getattr__(self, name: str):
        return getattr(self._backend, name)


def _k_times_p(curve_name: str, pipelined: bool, paired: bool, scalar_seed: int = 0) -> tuple:
    """(cycles, result, instruction words sent) of one k·P, as `montu bench mix` runs it."""
    curve = get_curve(curve_name)
    unit = Unit(backend="sim", pipelined=pipelined)
    pairing.set_pairing(unit, paired)
    rng = random.Random(f"montu-bench-mix-{curve.name}")
    peer = warm_peer(unit, curve, rng)
    k = rng.randrange(2, curve.n - 2)
    for _ in range(scalar_seed):
        k = rng.randrange(2, curve.n - 2)
    recording = _Recording(unit._backend)  # noqa: SLF001
    unit._backend = recording              # noqa: SLF001
    before = unit.total_cycles
    result = points.multiply(unit, curve, k, peer.point)
    return unit.total_cycles - before, result, recording.sent


# Measured on the simulator (Word 64, Lanes 2, lane a taking c late): P-256 204,525 → 141,789
# cycles pipelined (99,373 → 92,838 default); sect283k1 218,942 → 168,556 pipelined
# (115,490 → 111,220 default).
@pytest.mark.parametrize("name, pipelined, bound", [
    ("prime256v1", True, 142_500), ("prime256v1", False, 93_500),
    ("sect283k1", True, 169_500), ("sect283k1", False, 112_000)])
def test_k_times_p_is_faster_paired_and_gives_the_same_point(name, pipelined, bound):
    unpaired_cycles, unpaired, unpaired_sent = _k_times_p(name, pipelined, paired=False)
    paired_cycles, result, sent = _k_times_p(name, pipelined, paired=True)
    assert result == unpaired
    assert not any(decode_slots(insn)["op"] == MMQ for insn in unpaired_sent)
    assert sum(decode_slots(insn)["op"] == MMQ for insn in sent) > 500
    assert paired_cycles < unpaired_cycles
    assert paired_cycles <= bound


@pytest.mark.parametrize("name", ["prime256v1", "sect283k1"])
def test_paired_k_times_p_stays_constant_time(name):
    cycles_a, point_a, sent_a = _k_times_p(name, True, paired=True, scalar_seed=1)
    cycles_b, point_b, sent_b = _k_times_p(name, True, paired=True, scalar_seed=2)
    assert point_a != point_b
    assert cycles_a == cycles_b
    assert sent_a == sent_b           # the same commands: nothing chosen from the scalar
