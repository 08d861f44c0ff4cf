"""The engine registry: names, opening an engine, the contract's cycle counters."""

import pytest

import montu.engines
from montu.engines import UnknownEngine
from montu.isa import load


def test_the_registry_lists_the_unit_and_refuses_unknown_names():
    assert montu.engines.names() == ("bie2021", "yeh", "verma")
    with pytest.raises(UnknownEngine, match="unknown engine 'nope': choose one of bie2021, yeh, verma"):
        montu.engines.open("nope")


def test_bie2021_multiplies_and_counts_the_core_cycles_apart():
    engine = montu.engines.open("bie2021", backend="sim", max_bits=1024)
    n = (1 << 1023) + 1155
    x, y = 3 ** 600 % n, 7 ** 500 % n
    assert engine.mod_mul(x, y, n) == x * y % n
    startmmi = load().by_name["STARTMMI"].cycle_count(k=16, W=16, Word=64, Lanes=2, NumRegs=32,
                                                       MaxWords=16, Pipelined=0, gf2m=0)
    assert engine.core_cycles == 2 * startmmi            # x·y·R⁻¹, then ·R²·R⁻¹
    assert engine.last_cycles > engine.core_cycles       # loads and the read-out come on top
    assert engine.mod_exp(5, n - 1, n) == pow(5, n - 1, n)
    assert 0 < engine.core_cycles < engine.last_cycles
