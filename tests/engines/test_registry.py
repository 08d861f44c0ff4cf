"""The engine registry: names, opening an engine, the contract's cycle counters."""

import pytest

import montu.engines
from montu.engines import UnknownEngine
from montu.isa import load


def test_the_registry_lists_the_unit_and_refuses_unknown_names():
    assert montu.engines.names() == ("bie2021", "yeh", "verma", "cilardo", "antao")
    with pytest.raises(UnknownEngine,
                       match="unknown engine 'nope': choose one of bie2021, yeh, verma, cilardo"):
        montu.engines.open("nope")


@pytest.mark.parametrize("name", ["bie2021", "cilardo"])   # the builds of the unit
def test_the_unit_builds_multiply_and_count_the_core_cycles_apart(name):
    engine = montu.engines.open(name, backend="sim", max_bits=1024)
    n = (1 << 1023) + 1155
    x, y = 3 ** 600 % n, 7 ** 500 % n
    assert engine.mod_mul(x, y, n) == x * y % n
    startmmi = load().by_name["STARTMMI"].cycle_count(name, k=16, W=16, Word=64, Lanes=2,
                                                       NumRegs=32, MaxWords=16, Pipelined=0,
                                                       gf2m=0)
    assert engine.core_cycles == 2 * startmmi            # x·y·R⁻¹, then ·R²·R⁻¹
    assert engine.last_cycles > engine.core_cycles       # loads and the read-out come on top
    assert engine.mod_exp(5, n - 1, n) == pow(5, n - 1, n)
    assert 0 < engine.core_cycles < engine.last_cycles
