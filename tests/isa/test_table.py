"""The instruction table: consistent, encodable, and the generated files are current."""

import pytest

from montu.isa import decode_slots, encode, evaluate_formula, load
from montu.isa import generate


def test_generated_files_are_current():
    for path, text in generate.outputs().items():
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run python3 -m montu.isa.generate"


def test_opcodes_unique_and_papers_four_instructions_present():
    isa = load()
    assert len({i.opcode for i in isa.instructions}) == len(isa.instructions)
    assert {"SETMMI", "WMMI", "STARTMMI", "RMMI"} <= set(isa.by_name)


@pytest.mark.parametrize("name", [i.name for i in load().instructions])
def test_encode_decode_round_trip(name):
    word = encode(name, rd=31, ra=17, rb=5, f=1, imm=200)
    slots = decode_slots(word)
    assert (slots["op"], slots["rd"], slots["ra"], slots["rb"], slots["f"], slots["imm"]) == (
        load().by_name[name].opcode, 31, 17, 5, 1, 200)


def test_encode_rejects_a_value_too_wide_for_its_slot():
    with pytest.raises(ValueError, match="rd=32"):
        encode("MOV", rd=32)


@pytest.mark.parametrize("name", [i.name for i in load().instructions])
def test_every_cycle_formula_evaluates_to_a_positive_int(name):
    ins = load().by_name[name]
    for k in (1, 4, 8, 64):
        for word in (32, 64):
            for gf2m in (0, 1):
                for lanes, pipelined in ((1, 0), (2, 0), (4, 0), (2, 1), (4, 1)):
                    cycles = ins.cycle_count(k=k, W=64 * k // word, Word=word, Lanes=lanes, NumRegs=32,
                                             MaxWords=4096 // word, Pipelined=pipelined, gf2m=gf2m,
                                             passes=100, fixes=1, ok=1)
                    assert cycles >= 1


def test_startmmi_formula_with_pipelined_lanes_by_hand():
    ins = load().by_name["STARTMMI"]

    def cycles(words: int, lanes: int, pipelined: int) -> int:
        return ins.cycle_count(k=words, W=words, Word=64, Lanes=lanes, NumRegs=32, MaxWords=64,
                               Pipelined=pipelined, gf2m=0)

    assert cycles(4, 2, 1) == (4 - 1) * max(4, 11) + 2 * 4 + 16 == 57
    assert cycles(32, 2, 1) == 31 * 32 + 64 + 16 == 1072
    assert cycles(32, 4, 1) == (16 - 1) * max(32, 22) + 2 * 32 + 27
    assert cycles(4, 2, 0) == (4 - 1) * 4 + 2 * 4 + 6   # the default unit is unchanged
    with pytest.raises(NameError, match="Pipelined"):
        ins.cycle_count(k=4, W=4, Word=64, Lanes=2, NumRegs=32, MaxWords=64, gf2m=0)


@pytest.mark.parametrize("name, default", [("ADD", "W + 1"), ("CMP", "W + 1"), ("MADD", "2W + 1"),
                                           ("MLIN", "2W + 1"), ("CSWAP", "2W + 1"), ("LDZ", "W")])
def test_word_instructions_take_four_cycles_more_when_pipelined_except_the_write_only_ones(name, default):
    ins = load().by_name[name]

    def cycles(words: int, pipelined: int) -> int:
        return ins.cycle_count(k=words, W=words, Word=64, Lanes=2, NumRegs=32, MaxWords=64,
                               Pipelined=pipelined, gf2m=0)

    for words in (1, 4, 32):
        base = {"W + 1": words + 1, "2W + 1": 2 * words + 1, "W": words}[default]
        assert cycles(words, 0) == base
        assert cycles(words, 1) == base + (0 if name == "LDZ" else 4)


def test_formula_evaluator_refuses_anything_but_arithmetic():
    assert evaluate_formula("W * max(W, 4) + 6", {"W": 2}) == 14
    with pytest.raises(ValueError):
        evaluate_formula("__import__('os')", {})
    with pytest.raises(ValueError):
        evaluate_formula("W.bit_length()", {"W": 3})


def test_the_table_knows_the_engines_the_configuration_accepts():
    from montu.config import ENGINES

    assert load().engines == ENGINES


def test_cycle_formulas_are_keyed_by_engine_and_an_unknown_engine_is_refused():
    startmmi = load().by_name["STARTMMI"]
    variables = dict(k=4, W=4, Word=64, Lanes=2, NumRegs=32, MaxWords=64, Pipelined=0, gf2m=0)
    assert startmmi.cycle_count(engine="bie2021", **variables) == startmmi.cycle_count(**variables)
    # the cilardo build has its own STARTMMI formula: Fig. 9's W*max(W+1, 9) rows at its core
    assert startmmi.cycle_count(engine="cilardo", **variables) >= 4 * max(5, 9)
    assert startmmi.cycle_count(engine="cilardo", **variables) != startmmi.cycle_count(**variables)
    with pytest.raises(ValueError, match="no cycle formula for engine 'antao'"):
        startmmi.cycle_count(engine="antao", **variables)
    assert load().by_name["ADD"].cycle_count(engine="any-engine", **variables) == 5   # one formula for all


def test_cases_apply_in_order_and_the_last_is_the_otherwise():
    from montu.isa.table import _timing

    timing = _timing([{"when": "W > 4", "is": "100"}, {"when": "W > 2", "is": "10"}, {"is": "1"}], "T")
    assert [timing.evaluate("bie2021", {"W": w}) for w in (5, 3, 1)] == [100, 10, 1]
    with pytest.raises(ValueError, match="last cycle case needs no `when`"):
        _timing([{"when": "W > 4", "is": "100"}], "T")


@pytest.mark.parametrize("name", [i.name for i in load().instructions])
def test_the_simulator_asks_for_a_modulus_exactly_where_the_table_lists_e_no_modulus(name):
    from montu.backends.sim import Simulator

    isa = load()
    ins = isa.by_name[name]
    sim = Simulator()
    imm = {"window": 2, "small_constants": 0x11, "length": 1}.get(ins.imm_rule, 0)
    rsp = sim.execute(encode(name, rd=1, ra=2, rb=3, imm=imm))
    assert (rsp.err == isa.error_code["E_NO_MODULUS"]) == ins.needs_modulus


@pytest.mark.parametrize("rule, good, bad", [
    ("window", [1, 5], [0, 6, 255]),
    ("small_constants", [0x00, 0x33, 0xDD, 0x3D], [0x04, 0x40, 0xCC, 0x0C, 0x7F]),
    ("length", [1, 64], [0, 65]),
])
def test_imm_rules_accept_and_refuse_their_ranges(rule, good, bad):
    checker = load().imm_rule[rule]
    assert all(checker.accepts(imm, max_length=64) for imm in good)
    assert not any(checker.accepts(imm, max_length=64) for imm in bad)


def test_the_generated_decode_attributes_follow_the_table():
    attributes = generate.decode_attributes(load())
    assert attributes["MMX"] == {"known": True, "uses_rd": True, "uses_ra": True, "uses_rb": True,
                                 "needs_modulus": True, "imm_length": False, "imm_window": True,
                                 "imm_small_constants": False, "rb_table": True}
    assert attributes["CMP"]["uses_rd"] is False and attributes["SETMMI"]["imm_length"] is True
    package = generate.render_package(load())
    assert "function automatic op_attr_t op_attr(" in package
    assert "localparam int unsigned WindowMax = 5;" in package
