"""The simulator of the unit built on cilardo2008's multiplier (UnitConfig(engine="cilardo")):
STARTMMI and MMX compute what cilardo_mont computes for any register contents (the word-level
golden model fios_rows, then one correction, truncated to L bits), take the ISA table's cycles,
and the bie2021 build's semantics are unchanged."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montu import Unit
from montu.arith.cilardo_fios import fios_correct, fios_rows
from montu.arith.field import Field
from montu.backends.sim import Simulator
from montu.config import ConfigError, UnitConfig
from montu.isa import encode, load

ISA = load()
OK = 0


def _sim(engine: str = "cilardo", **params) -> Simulator:
    return Simulator(config=UnitConfig(engine=engine, **params))


def _load(sim: Simulator, k: int, gf2m: int, regs: dict[int, int]) -> None:
    assert sim.execute(encode("SETMMI", imm=k, f=gf2m)).err == OK
    for reg, value in regs.items():
        for j in range(k):
            sim.execute(encode("WMMI", rd=reg), (value >> (64 * j)) & ((1 << 64) - 1))


def _read(sim: Simulator, reg: int, k: int) -> int:
    return sum(sim.execute(encode("RMMI", ra=reg)).data << (64 * j) for j in range(k))


def _golden(a: int, b: int, n: int, k: int, field: Field) -> int:
    """cilardo_mont's result from the word-level model: the last FIOS row, one correction,
    two's-complement truncation to L = 64k bits."""
    p = fios_rows(a, b, n, field=field, word_bits=64, words=k)[-1].p
    return fios_correct(p, n, field=field) % (1 << (64 * k))


def _startmmi_cycles(k: int, gf2m: int = 0) -> int:
    config = UnitConfig(engine="cilardo")
    return ISA.by_name["STARTMMI"].cycle_count(engine="cilardo", **config.variables(k=k, gf2m=gf2m))


@st.composite
def _registers(draw):
    k = draw(st.sampled_from([1, 2, 3, 4, 5, 8, 9, 16, 32]))
    length = 64 * k
    word = st.one_of(st.integers(0, (1 << length) - 1),
                     st.sampled_from([0, 1, (1 << length) - 1, 1 << (length - 1)]))
    n = draw(st.integers(3, (1 << length) - 1)) | 1
    return k, n, draw(word), draw(word)


@settings(max_examples=60, deadline=None)
@given(case=_registers(), gf2m=st.sampled_from([0, 1]))
def test_startmmi_is_the_golden_models_product_for_any_registers(case, gf2m):
    k, n, a, b = case
    sim = _sim()
    _load(sim, k, gf2m, {0: n, 1: a, 2: b})
    assert sim.execute(encode("SETMOD", ra=0)).err == OK
    rsp = sim.execute(encode("STARTMMI", rd=3, ra=1, rb=2))
    assert rsp.err == OK and rsp.cycles == _startmmi_cycles(k, gf2m)
    field = Field.GF2M if gf2m else Field.GFP
    assert _read(sim, 3, k) == _golden(a, b, n, k, field)


def test_fully_reduced_when_operands_are_below_n_and_negative_p_is_corrected():
    """Random operands below N give a·b·2^-L mod N; a case where the last row's P is negative
    (signed quotient digits) comes out corrected, not as a two's-complement number."""
    rng = random.Random(19)
    negatives = 0
    for _ in range(400):
        k = rng.choice([1, 2, 4])
        n = rng.getrandbits(64 * k) | 1 | (1 << (64 * k - 1))
        a, b = rng.randrange(n), rng.randrange(n)
        negatives += fios_rows(a, b, n, field=Field.GFP, words=k)[-1].p < 0
        sim = _sim()
        _load(sim, k, 0, {0: n, 1: a, 2: b})
        sim.execute(encode("SETMOD", ra=0))
        sim.execute(encode("STARTMMI", rd=3, ra=1, rb=2))
        assert _read(sim, 3, k) == a * b * pow(2, -64 * k, n) % n
    assert negatives > 0     # the correction P + N was exercised


def test_modulus_one_and_operands_above_n_follow_the_hardware():
    """N = 1 (odd: SETMOD takes it) and operands ≥ N: the result is fios_correct(P) truncated,
    whatever it means arithmetically."""
    from montu.arith.cilardo_fios import fios_product

    sim = _sim()
    rng = random.Random(3)
    a, b = rng.getrandbits(128), rng.getrandbits(128)
    _load(sim, 2, 0, {0: 1, 1: a, 2: b})
    assert sim.execute(encode("SETMOD", ra=0)).err == OK
    sim.execute(encode("STARTMMI", rd=3, ra=1, rb=2))
    p = fios_product(a, b, 1, field=Field.GFP, words=2)
    assert _read(sim, 3, 2) == fios_correct(p, 1, field=Field.GFP) % (1 << 128)


def test_mmx_multiplies_by_the_table_entry_the_window_selects():
    rng = random.Random(5)
    k = 4
    n = rng.getrandbits(256) | 1 | (1 << 255)
    table = [rng.randrange(1 << 256) for _ in range(4)]
    a = rng.randrange(1 << 256)
    exponent = 0b10 << 254                    # SHLX moves the top 2 bits, 0b10, into the window
    sim = _sim()
    _load(sim, k, 0, {0: n, 1: a, **{8 + i: v for i, v in enumerate(table)}, 6: exponent})
    sim.execute(encode("SETMOD", ra=0))
    assert sim.execute(encode("SHLX", rd=6, ra=6, imm=2)).err == OK
    rsp = sim.execute(encode("MMX", rd=3, ra=1, rb=8, imm=2))
    assert rsp.err == OK and rsp.cycles == _startmmi_cycles(k)
    assert _read(sim, 3, k) == _golden(a, table[0b10], n, k, Field.GFP)


def test_bie2021_build_is_unchanged_by_the_engine_option():
    """The default build still computes bie2021's product (q in [0, 2^L), one subtraction) for
    operands above N, where the two multipliers differ."""
    rng = random.Random(11)
    differ = 0
    for _ in range(50):
        k = 2
        n = rng.getrandbits(100) | 1 | (1 << 127)                  # a·b/2^L > N: unreduced
        a, b = (3 << 126) | rng.getrandbits(126), (3 << 126) | rng.getrandbits(126)
        results = {}
        for engine in ("bie2021", "cilardo"):
            sim = _sim(engine)
            _load(sim, k, 0, {0: n, 1: a, 2: b})
            sim.execute(encode("SETMOD", ra=0))
            sim.execute(encode("STARTMMI", rd=3, ra=1, rb=2))
            results[engine] = _read(sim, 3, k)
        q = (-a * b * pow(n, -1, 1 << 128)) % (1 << 128)
        z = (a * b + q * n) >> 128
        assert results["bie2021"] == (z - n if z >= n else z) % (1 << 128)
        assert results["cilardo"] == _golden(a, b, n, k, Field.GFP)
        differ += results["bie2021"] != results["cilardo"]
    assert differ > 0


@pytest.mark.parametrize(("params", "message"), [
    ({"word_bits": 32}, "engine cilardo needs Word = 64 (got 32)"),
])
def test_bad_configurations_are_config_errors_with_the_rule(params, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _sim(**params)
    with pytest.raises(ConfigError, match="engine cilardo"):
        Unit(engine="cilardo", **params)
    with pytest.raises(ConfigError, match="engine must be one of bie2021, cilardo"):
        Unit(engine="montgomery")


def test_error_responses_change_nothing_and_the_unit_stays_usable():
    unit = Unit(engine="cilardo", num_regs=16)
    assert unit.send("STARTMMI", rd=3, ra=1, rb=2).err == ISA.error_code["E_NO_MODULUS"]
    assert unit.send("STARTMMI", rd=20, ra=1, rb=2).err == ISA.error_code["E_BAD_REG"]
    assert unit.send("MMX", rd=3, ra=1, rb=14, imm=2).err == ISA.error_code["E_BAD_REG"]
    n = (1 << 255) + 95
    assert unit.mod_mul(3, 5, n) == 15
    with pytest.raises(Exception, match="odd"):
        unit.mod_mul(3, 5, n + 1)
    assert unit.mod_mul(n - 1, n - 1, n) == 1
    assert unit.mod_exp(2, n - 1, n) == pow(2, n - 1, n)
