"""The verma engine object (montu.engines.verma.open): results against Python and the golden
model, the cycle counters against the instruction table and the paper (Table 6: 561,222 clocks
per 1024-bit MPL, 2,216,050 per 2048-bit one), constant time, and bad input as exceptions that
leave the engine usable."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import montu.engines
from montu.arith import verma
from montu.arith.field import Field
from montu.backends import UnknownBackend
from montu.engines import verma as verma_engine
from montu.engines.verma import (ISA, VermaEngine, VermaError, VermaModulusError, VermaSimulator,
                                 encode, params_for_bits, sizes)
from montu.errors import ModulusError, MontuError

FAST = settings(max_examples=100, deadline=None)


def cycles(name: str, k: int, w: int = 48, f: int = 0) -> int:
    return ISA.by_name[name].cycle_count("verma", **sizes(k, w).variables(f))


def spent(engine: VermaEngine, call, *args):
    """(result, cycles the backend counted) of one engine call."""
    before = engine.backend.cycle_count
    result = call(*args)
    return result, engine.backend.cycle_count - before


@st.composite
def modulus(draw: st.DrawFn, max_bits: int) -> int:
    """An odd modulus >= 3 of any width up to max_bits, edges weighted in."""
    bits = draw(st.integers(2, max_bits))
    return draw(st.one_of(st.just((1 << bits) - 1), st.just((1 << (bits - 1)) | 1),
                          st.integers(1 << (bits - 1), (1 << bits) - 1).map(lambda v: v | 1)))


def random_modulus(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


# --- open(), the registry, the RTL backend -----------------------------------------------------


def test_open_builds_a_simulator_engine() -> None:
    engine = verma_engine.open()
    assert isinstance(engine, VermaEngine) and isinstance(engine.backend, VermaSimulator)
    assert (engine.max_bits, engine.word_bits, engine.name) == (1024, 48, "verma")
    assert engine.build == {"K": 1024, "W": 48}
    assert (engine.backend.k_max, engine.backend.w) == (1024, 48)
    small = verma_engine.open("sim", k=200, w=64)
    assert small.build == {"K": 200, "W": 64} and small.backend.k == 200


def test_the_registry_opens_verma_on_the_simulator() -> None:
    entry = montu.engines.get("verma")
    assert (entry.core, entry.top, entry.adapter) == ("montu:ip:verma", "verma_top",
                                                      "montu.engines.verma")
    assert isinstance(montu.engines.open("verma", k=256), VermaEngine)
    assert montu.engines.open_for_bits("verma", 1500).max_bits == 2048


def test_params_for_bits_picks_the_papers_builds() -> None:
    assert [params_for_bits(b) for b in (2, 17, 1024, 1025, 2048, 2049, 3072)] == \
        [{"k": 1024}] * 3 + [{"k": 2048}] * 2 + [{"k": 2049}, {"k": 3072}]


def test_open_refuses_bad_parameters() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        verma_engine.open(k=1)
    with pytest.raises(ValueError, match="at least 4"):
        verma_engine.open(w=3)
    with pytest.raises(TypeError, match="unknown verma engine parameter"):
        verma_engine.open(lanes=2)
    with pytest.raises(TypeError, match="must be an int"):
        verma_engine.open(k=1024.0)
    with pytest.raises(UnknownBackend, match="'sim' or 'rtl'"):
        verma_engine.open(backend="fpga")


def test_the_rtl_backend_is_the_verilated_verma_top(monkeypatch: pytest.MonkeyPatch) -> None:
    """backend="rtl" asks RtlModel.engine for verma_top with K and W (here answered by a
    simulator, so that this runs without a Verilator build); the engine drives it the same way."""
    from montu.backends.verilator import RtlModel

    asked = []

    def fake_engine(name: str, parameters: dict[str, int] | None = None, **options):
        asked.append((name, parameters))
        return VermaSimulator(parameters["K"], parameters["W"])

    monkeypatch.setattr(RtlModel, "engine", staticmethod(fake_engine))
    engine = verma_engine.open(backend="rtl", k=128)
    assert asked == [("verma", {"K": 128, "W": 48})] and engine.backend_name == "rtl"
    n = (1 << 127) + 45
    assert engine.mod_exp(3, n - 1, n) == pow(3, n - 1, n)
    with pytest.raises(ValueError, match="at least 2"):
        verma_engine.open(backend="rtl", k=1)
    assert len(asked) == 1                         # checked before any build


# --- cmmm, mod_mul -----------------------------------------------------------------------------


@given(st.data())
@FAST
def test_cmmm_is_the_papers_primitive(data: st.DataObject) -> None:
    """One EWBR4CMMM pass: (X, Y) bit-exact with the golden model, unreduced, operands up to
    2^(2D) - 1; core_cycles is the pass's I + m + 1 (the golden model's Stats.cycles)."""
    w = data.draw(st.sampled_from([48, 64]))
    engine = verma_engine.open(k=160, w=w)
    n = data.draw(modulus(160))
    top = (1 << sizes(n.bit_length()).operand_bits) - 1
    p = data.draw(st.one_of(st.sampled_from([0, 1, n - 1, n, top]), st.integers(0, top)))
    r = data.draw(st.one_of(st.sampled_from([0, 1, n - 1, n, top]), st.integers(0, top)))
    (x, y), stats = verma.ewbr4cmmm(p, r, n, w=w)
    result, backend_cycles = spent(engine, engine.cmmm, p, r, n)
    assert result == (x, y)
    assert engine.core_cycles == stats.cycles == sizes(n.bit_length(), w).pass_cycles
    assert engine.last_cycles == backend_cycles and engine.k == n.bit_length()


@given(st.data())
@FAST
def test_mod_mul_is_x_times_y_mod_n(data: st.DataObject) -> None:
    k_max = data.draw(st.sampled_from([64, 200]))
    engine = verma_engine.open(k=k_max)
    first = data.draw(modulus(k_max))
    for n in (first, data.draw(st.one_of(st.just(first), modulus(k_max)))):   # maybe cached
        x = data.draw(st.one_of(st.sampled_from([0, 1, n - 1]), st.integers(0, n - 1)))
        y = data.draw(st.one_of(st.sampled_from([0, 1, n - 1]), st.integers(0, n - 1)))
        result, backend_cycles = spent(engine, engine.mod_mul, x, y, n)
        assert result == x * y % n
        assert engine.core_cycles == 3 * sizes(n.bit_length()).pass_cycles
        assert engine.last_cycles == backend_cycles > engine.core_cycles


@pytest.mark.parametrize("bits", [1024, 2048])
def test_mod_mul_at_the_papers_sizes(bits: int) -> None:
    engine = verma_engine.open(k=bits)
    rng = random.Random(bits)
    for n in (random_modulus(rng, bits), (1 << bits) - 1, (1 << (bits - 1)) | 1):
        for x, y in ((rng.randrange(n), rng.randrange(n)), (n - 1, n - 1), (0, n - 1), (1, 1)):
            assert engine.mod_mul(x, y, n) == x * y % n
            assert engine.core_cycles == 3 * {1024: 547, 2048: 1081}[bits]


def test_the_modulus_and_constants_are_loaded_once_and_every_call_counts_what_it_sent() -> None:
    k_max, k = 200, 130
    engine = verma_engine.open(k=k_max)
    n1, n2 = (1 << 129) + 111, (1 << 129) + 333
    wd = sizes(k).Wd
    wr, rd, cmmm = cycles("WR", k), cycles("RD", k), cycles("CMMM", k)
    modulus_load = wd * wr + cycles("SETMOD", k)
    mul_body = 2 * wd * wr + 2 * cmmm + cycles("CMMM", k, f=1) + wd * rd
    # first call: SETLEN, N, SETMOD, O = F^3 mod n
    assert engine.mod_mul(5, 7, n1) == 35
    assert engine.last_cycles == cycles("SETLEN", k) + modulus_load + wd * wr + mul_body
    assert engine.mod_mul(6, 7, n1) == 42 and engine.last_cycles == mul_body
    # mod_exp needs C = F^2 and O = F (not F^3): both are written
    exp_body = 2 * wd * wr + cycles("MPL", k) + wd * rd
    assert engine.mod_exp(3, 1000, n1) == pow(3, 1000, n1)
    assert engine.last_cycles == 2 * wd * wr + exp_body
    assert engine.mod_exp(3, 1001, n1) == pow(3, 1001, n1) and engine.last_cycles == exp_body
    # cmmm needs no constant; mod_exp afterwards still has C and O
    engine.cmmm(5, 7, n1)
    assert engine.last_cycles == 2 * wd * wr + cmmm + 2 * wd * rd
    assert engine.mod_exp(3, 5, n1) == 243 and engine.last_cycles == exp_body
    # another modulus of the same length: N, SETMOD and the constants, no SETLEN
    assert engine.mod_exp(3, 5, n2) == 243
    assert engine.last_cycles == modulus_load + 2 * wd * wr + exp_body
    # another length: everything again
    n3 = (1 << 63) + 29
    assert engine.mod_mul(6, 7, n3) == 42
    s = sizes(64)
    assert engine.last_cycles == (cycles("SETLEN", 64) + s.Wd * cycles("WR", 64)
                                  + cycles("SETMOD", 64) + s.Wd * cycles("WR", 64)
                                  + 2 * s.Wd * cycles("WR", 64) + 2 * cycles("CMMM", 64)
                                  + cycles("CMMM", 64, f=1) + s.Wd * cycles("RD", 64))
    assert engine.total_cycles == engine.backend.cycle_count


# --- mod_exp -----------------------------------------------------------------------------------


@given(st.data())
@FAST
def test_mod_exp_is_pow_and_core_cycles_are_the_golden_models(data: st.DataObject) -> None:
    engine = verma_engine.open(k=96)
    n = data.draw(modulus(96))
    k = n.bit_length()
    b = data.draw(st.one_of(st.sampled_from([0, 1, 2, n - 1]), st.integers(0, n - 1)))
    e = data.draw(st.one_of(st.sampled_from([0, 1, 2, 3, (1 << k) - 1]),
                            st.integers(0, (1 << k) - 1)))
    result, backend_cycles = spent(engine, engine.mod_exp, b, e, n)
    value, stats = verma.mpl_powmod(b, e, n, exponent_bits=k)
    assert result == value == pow(b, e, n)
    assert engine.core_cycles == stats.cycles == (k + 2) * sizes(k).pass_cycles
    assert engine.last_cycles == backend_cycles
    assert engine.last_cycles - engine.core_cycles >= 2     # MPL's decode and f = 1 clocks


@pytest.mark.parametrize("bits,core", [(1024, 561_222), (2048, 2_216_050)])
def test_mod_exp_at_the_papers_sizes_takes_its_clocks(bits: int, core: int) -> None:
    """Verma et al., Table 6: MPL with EWBR4CMMM takes 561,222 clocks at 1024 bits and
    2,216,050 at 2048 (core_cycles); last_cycles adds the loads, the MPL command's 2 clocks and
    the read-out, exactly the table's formulas."""
    engine = verma_engine.open(k=bits)
    rng = random.Random(bits)
    n = random_modulus(rng, bits)
    e = rng.getrandbits(bits) | (1 << (bits - 1))        # a full-length exponent
    b = rng.randrange(n)
    assert engine.mod_exp(b, e, n) == pow(b, e, n)
    assert engine.core_cycles == core == verma.paper_cycles_mpl(bits)
    wd, wr = sizes(bits).Wd, cycles("WR", bits)
    assert engine.last_cycles == (cycles("SETLEN", bits) + wd * wr + cycles("SETMOD", bits)
                                  + 4 * wd * wr + cycles("MPL", bits) + wd * cycles("RD", bits))
    assert cycles("MPL", bits) == core + 2


def test_mod_exp_is_constant_time() -> None:
    """20 random keys (a fresh 1024-bit modulus each: the same loads every time) with random
    full-length exponents and bases, and 4 exponents of one key (nothing to reload), E = 0 and
    E = 2^k - 1 among them: the same last_cycles and core_cycles within each group."""
    engine = verma_engine.open(k=1024)
    rng = random.Random(0xC7)
    engine.mod_exp(2, 3, random_modulus(rng, 1024))      # SETLEN once, outside the groups
    fresh, same = set(), set()
    for _ in range(20):
        n = random_modulus(rng, 1024)
        b, e = rng.randrange(n), rng.getrandbits(1024)
        assert engine.mod_exp(b, e, n) == pow(b, e, n)
        fresh.add((engine.last_cycles, engine.core_cycles))
    for e in (0, (1 << 1024) - 1, 1, rng.getrandbits(1024)):
        assert engine.mod_exp(3, e, n) == pow(3, e, n)
        same.add((engine.last_cycles, engine.core_cycles))
    assert len(fresh) == 1 and len(same) == 1
    assert fresh.pop()[1] == same.pop()[1] == 561_222


# --- bad input and errors ----------------------------------------------------------------------


def assert_usable(engine: VermaEngine) -> None:
    """After an error, the next calls work and are right."""
    n = (1 << 127) + 1155
    assert engine.mod_mul(3, n - 2, n) == 3 * (n - 2) % n
    assert engine.mod_exp(7, 65537, n) == pow(7, 65537, n)
    assert engine.cmmm(5, 9, n) == verma.ewbr4cmmm(5, 9, n)[0]


@pytest.mark.parametrize("call,args,error,match", [
    ("mod_mul", (1, 2, 100), VermaModulusError, "must be odd"),
    ("mod_exp", (1, 2, 1), VermaModulusError, ">= 3"),
    ("cmmm", (1, 2, -7), VermaModulusError, "positive odd"),
    ("mod_mul", (1, 2, (1 << 128) + 1), VermaModulusError, "129-bit modulus is longer than .* K = 128"),
    ("mod_exp", (2, 3, (1 << 200) + 1), VermaModulusError, "open one with k >= 201"),
    ("mod_mul", (101, 2, 101), VermaError, r"x must be in \[0, n\)"),
    ("mod_mul", (1, -1, 101), VermaError, "negative"),
    ("mod_exp", (101, 3, 101), VermaError, r"base must be in \[0, n\).*reduce it"),
    ("mod_exp", (-5, 3, 101), VermaError, "base .* negative"),
    ("mod_exp", (5, -3, 101), VermaError, "exponent must be non-negative"),
    ("mod_exp", (5, 1 << 7, 101), VermaError, r"below 2\^k = 2\^7 for a 7-bit modulus"),
    ("cmmm", (1 << 12, 1, 101), VermaError, r"p must be in \[0, 2\^12\).*2D = 12 bits"),
    ("cmmm", (1, -1, 101), VermaError, "r must be in"),
    ("mod_mul", (1.0, 2, 101), TypeError, "x must be an int"),
    ("mod_exp", (2, 3, 101.0), TypeError, "modulus must be an int"),
    ("mod_exp", (2, True, 101), TypeError, "exponent must be an int"),
])
def test_bad_input_raises_before_any_command(call: str, args: tuple, error: type, match: str) -> None:
    engine = verma_engine.open(k=128)
    assert_usable(engine)
    before = engine.backend.cycle_count
    with pytest.raises(error, match=match) as info:
        getattr(engine, call)(*args)
    if error is not TypeError:
        assert isinstance(info.value, (MontuError, ValueError))
    if isinstance(info.value, VermaError):
        assert info.value.code is None and info.value.error is None
    if error is VermaModulusError:
        assert isinstance(info.value, ModulusError)
    assert engine.backend.cycle_count == before and engine.last_cycles == 0
    assert_usable(engine)


def test_gf2m_is_refused_with_what_the_engine_can_do() -> None:
    engine = verma_engine.open(k=128)
    with pytest.raises(VermaError, match=r"GF\(p\) only.*bie2021"):
        engine.mod_mul(1, 2, 0b1011, field=Field.GF2M)
    assert engine.mod_mul(3, 4, 11, field=Field.GFP) == 1
    assert_usable(engine)


def test_an_engine_error_code_is_a_typed_exception_naming_it() -> None:
    engine = verma_engine.open(k=128)
    with pytest.raises(VermaError, match="E_NO_MODULUS") as info:
        engine.run("CMMM", ra="P", rb="R")
    assert info.value.code == ISA.error_code["E_NO_MODULUS"] and info.value.error == "E_NO_MODULUS"
    assert engine.last_cycles == ISA.error_cycles and engine.core_cycles == 0
    rsp = engine.send("CMMM", ra="R", rb="P")      # send: the response as it is
    assert rsp.err == ISA.error_code["E_BAD_REG"]
    with pytest.raises(VermaError, match="E_BAD_LENGTH"):
        engine.run("SETLEN", data=129)
    engine.run("SETLEN", data=2)
    with pytest.raises(VermaError, match="E_RANGE"):
        engine.run("WR", rd="N", data=4)
    assert_usable(engine)


def test_an_engine_changed_behind_the_hosts_back_fails_loudly_then_recovers() -> None:
    """The host caches k, N, C and O; if the engine loses them (here: a WIPE sent straight to
    the backend), the next call gets the engine's E_NO_MODULUS as a VermaError, and the call
    after it reloads everything and is right."""
    engine = verma_engine.open(k=128)
    n = (1 << 127) + 1155
    assert engine.mod_mul(3, 5, n) == 15
    engine.backend.execute(encode("WIPE"))
    with pytest.raises(VermaError, match="rejected CMMM in mod_mul: E_NO_MODULUS"):
        engine.mod_mul(3, 5, n)
    assert engine.last_cycles > 0 and engine.core_cycles == 0    # what was sent is counted
    assert engine.mod_mul(3, 5, n) == 15
    assert_usable(engine)


def test_reset_keeps_the_engine_usable() -> None:
    engine = verma_engine.open(k=128)
    n = (1 << 127) + 1155
    assert engine.mod_exp(2, 100, n) == pow(2, 100, n)
    engine.reset()
    assert engine.backend.k == 128 and not engine.backend.modulus_valid
    assert engine.mod_exp(2, 100, n) == pow(2, 100, n)


def test_the_docstring_states_the_contract() -> None:
    doc = VermaEngine.__doc__
    assert "Constant time" in doc
    assert "F² mod n" in doc and "host" in doc
