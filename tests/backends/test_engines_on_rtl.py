"""The other papers' engines on the RTL backend: RtlModel.engine builds an engine's top (same
ports as the unit, one harness) and the engine objects run on it exactly as on their simulators.

Small builds (yeh: NBits = 128); the engines' own cocotb benches (tests/hw) cover the sizes.
"""

from __future__ import annotations

import random

import pytest

import montu.engines
from montu.backends.verilator import RtlBuildError, RtlModel
from montu.backends.verilator.build import RtlConfig
from verilator_env import missing_tool


@pytest.fixture(scope="module")
def yeh_rtl():
    try:
        return montu.engines.open("yeh", backend="rtl", nbits=128)
    except RtlBuildError as exc:
        if "not installed" in str(exc):
            missing_tool(str(exc))
        raise


def test_yeh_on_rtl_computes_and_counts_exactly_as_its_simulator(yeh_rtl):
    sim = montu.engines.open("yeh", backend="sim", nbits=128)
    rng = random.Random(7)
    for bits in (128, 127, 65, 64, 10):
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        x, y, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(bits)
        for engine in (yeh_rtl, sim):
            assert engine.mod_mul(x, y, n) == x * y % n
        assert yeh_rtl.last_cycles == sim.last_cycles and yeh_rtl.core_cycles == sim.core_cycles
        for engine in (yeh_rtl, sim):
            assert engine.mod_exp(x, e, n) == pow(x, e, n)
        assert yeh_rtl.last_cycles == sim.last_cycles and yeh_rtl.core_cycles == sim.core_cycles
        raw = yeh_rtl.bsr4(x, y, n)
        assert raw == sim.bsr4(x, y, n) and raw % n == x * y * pow(2, -yeh_rtl.length, n) % n


def test_yeh_on_rtl_answers_bad_input_and_stays_usable(yeh_rtl):
    with pytest.raises(Exception, match="odd"):
        yeh_rtl.mod_exp(3, 5, 1 << 100)
    with pytest.raises(Exception, match="128"):
        yeh_rtl.mod_exp(3, 5, (1 << 200) + 1)         # wider than NBits
    n = (1 << 127) + 45
    assert yeh_rtl.mod_exp(2, n - 1, n) == pow(2, n - 1, n)


def test_an_engine_build_needs_its_core_and_64_bit_words():
    with pytest.raises(Exception, match="no FuseSoC core"):
        RtlModel.engine("nope", {})
    with pytest.raises(RtlBuildError, match="64-bit data words"):
        RtlConfig(word_bits=32, core="montu:ip:yeh")


@pytest.fixture(scope="module")
def verma_rtl():
    try:
        return montu.engines.open("verma", backend="rtl", k=200)
    except RtlBuildError as exc:
        if "not installed" in str(exc):
            missing_tool(str(exc))
        raise


def test_verma_on_rtl_computes_and_counts_exactly_as_its_simulator(verma_rtl):
    """K = 200 (m = 5 PEs of 48 bits each kind): mod_mul (three passes), the k-bit ladder and
    the raw common-multiplicand pass, RTL against the simulator, result and cycles."""
    sim = montu.engines.open("verma", backend="sim", k=200)
    rng = random.Random(8)
    for bits in (200, 199, 97, 48, 3):
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        x, y, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(bits)
        for engine in (verma_rtl, sim):
            assert engine.mod_mul(x, y, n) == x * y % n
        assert verma_rtl.last_cycles == sim.last_cycles and verma_rtl.core_cycles == sim.core_cycles
        for engine in (verma_rtl, sim):
            assert engine.mod_exp(x, e, n) == pow(x, e, n)
        assert verma_rtl.last_cycles == sim.last_cycles and verma_rtl.core_cycles == sim.core_cycles
        assert verma_rtl.cmmm(x, y, n) == sim.cmmm(x, y, n)


def test_verma_on_rtl_answers_bad_input_and_stays_usable(verma_rtl):
    with pytest.raises(Exception, match="odd"):
        verma_rtl.mod_exp(3, 5, 1 << 100)
    with pytest.raises(Exception, match="200"):
        verma_rtl.mod_exp(3, 5, (1 << 300) + 1)         # wider than K
    n = (1 << 199) + 75
    assert verma_rtl.mod_exp(2, n - 1, n) == pow(2, n - 1, n)


@pytest.fixture(scope="module")
def antao_rtl():
    try:
        return montu.engines.open("antao", backend="rtl", bits=192)
    except RtlBuildError as exc:
        if "not installed" in str(exc):
            missing_tool(str(exc))
        raise


def test_antao_on_rtl_computes_and_counts_exactly_as_its_simulator(antao_rtl):
    """Every microprogram entry (montmul, modmul, both exponentiations, EC k·P) on the Verilated
    antao_top and on its model: the same values and the same cycles, loads included."""
    sim = montu.engines.open("antao", backend="sim", bits=192)
    rng = random.Random(11)
    for bits in (192, 130, 64):
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        x, y, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(bits)
        for call in (lambda g: g.rns_mont_mul(x, y, n), lambda g: g.mod_mul(x, y, n),
                     lambda g: g.mod_exp(x, e, n), lambda g: g.mod_exp(x, e, n, ladder=False)):
            assert call(antao_rtl) == call(sim)
            assert (antao_rtl.last_cycles, antao_rtl.core_cycles) == (sim.last_cycles, sim.core_cycles)
    k = rng.getrandbits(191)
    assert antao_rtl.scalar_mult("prime192v1", k) == sim.scalar_mult("prime192v1", k)
    assert (antao_rtl.last_cycles, antao_rtl.core_cycles) == (sim.last_cycles, sim.core_cycles)


def test_antao_on_rtl_answers_bad_input_and_stays_usable(antao_rtl):
    with pytest.raises(Exception, match="odd"):
        antao_rtl.mod_exp(3, 5, 1 << 100)
    program = antao_rtl.assemble("main:\n  op xsel=IN ysel=ONE d=0 wr=RED pop\n  halt\n")
    with pytest.raises(Exception, match="E_IN"):
        antao_rtl.run(program, [], entry="main")
    n = (1 << 150) + 3
    assert antao_rtl.mod_exp(2, n - 1, n) == pow(2, n - 1, n)
