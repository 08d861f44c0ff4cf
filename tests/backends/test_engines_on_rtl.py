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
