"""The Unit API on the RTL backend (Verilated montu_top): the same answers as on the simulator,
and the same cycle counts."""

import random

import pytest

from montu import Field, NoInverse, Unit, UnitError
from montu.arith import gf2m

CONFIG = dict(word_bits=64, lanes=2, max_bits=1024, num_regs=16)


@pytest.fixture(scope="module")
def units() -> tuple[Unit, Unit]:
    return Unit(backend="rtl", **CONFIG), Unit(backend="sim", **CONFIG)


def both(units, method: str, *args, **kwargs):
    rtl, sim = units
    got = getattr(rtl, method)(*args, **kwargs)
    expected = getattr(sim, method)(*args, **kwargs)
    assert got == expected
    assert rtl.last_cycles == sim.last_cycles
    return got


@pytest.mark.parametrize("bits", [64, 255, 521, 1024])
def test_gfp_operations_match_the_simulator(units, bits):
    rng = random.Random(bits)
    n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
    x, y = rng.randrange(n), rng.randrange(n)
    L = 64 * -(-bits // 64)
    assert both(units, "mont_mul", x, y, n) == x * y * pow(2, -L, n) % n
    assert both(units, "mod_mul", x, y, n) == x * y % n


def test_mod_exp_on_rtl(units):
    rng = random.Random(1)
    n = rng.getrandbits(256) | 1 | (1 << 255)
    b, e = rng.randrange(n), rng.getrandbits(256)
    assert both(units, "mod_exp", b, e, n) == pow(b, e, n)


@pytest.mark.parametrize("m", [163, 283, 571])
def test_gf2m_operations_match_the_simulator(units, m):
    rng = random.Random(m)
    f = gf2m.NIST_POLYNOMIALS[m]
    a, b = rng.getrandbits(m), rng.getrandbits(m)
    assert both(units, "mod_mul", a, b, f, field=Field.GF2M) == gf2m.mulmod(a, b, f)
    assert both(units, "mod_inv", a, f, field=Field.GF2M) == gf2m.inv(a, f)


def test_inversion_with_an_even_modulus_on_rtl(units):
    p, q = 2**127 - 1, 2**89 - 1
    lam = (p - 1) * (q - 1) // 2
    assert both(units, "mod_inv", 65537, lam) * 65537 % lam == 1


def test_errors_on_rtl_and_the_unit_stays_usable(units):
    rtl, _ = units
    with pytest.raises(UnitError, match="modulus must be odd"):
        rtl.mont_mul(1, 2, 1 << 70)
    with pytest.raises(NoInverse):
        rtl.mod_inv(6, 9)
    assert rtl.mod_mul(3, 5, 7) == 1


@pytest.mark.parametrize("lanes", [2, 4])
def test_pipelined_unit_matches_the_simulator(lanes):
    """montu_top with Pipelined = 1 (its own build): the simulator's results and cycles."""
    config = CONFIG | {"lanes": lanes, "pipelined": True}
    pair = Unit(backend="rtl", **config), Unit(backend="sim", **config)
    assert pair[0].pipelined and "Pipelined" in pair[0]._backend.config.generics
    rng = random.Random(lanes)
    for bits in (64, 256, 1024):
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        x, y = rng.randrange(n), rng.randrange(n)
        assert both(pair, "mod_mul", x, y, n) == x * y % n
    f = gf2m.NIST_POLYNOMIALS[283]
    a, b = rng.getrandbits(283), rng.getrandbits(283)
    assert both(pair, "mod_mul", a, b, f, field=Field.GF2M) == gf2m.mulmod(a, b, f)
