"""The Unit driver on the simulator backend: the API the crypto layer relies on."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montu import Field, MontuError, Unit, UnitError
from montu.arith import gf2m

SIZES = [64, 65, 127, 256, 521, 1000, 1024, 2048, 4096]


@pytest.fixture(scope="module")
def unit() -> Unit:
    return Unit(backend="sim")


@settings(max_examples=30, deadline=None)
@given(bits=st.sampled_from(SIZES), data=st.data())
def test_mont_mul_and_mod_mul_gfp(unit, bits, data):
    n = data.draw(st.integers(1 << (bits - 1), (1 << bits) - 1)) | 1
    x = data.draw(st.integers(0, n - 1))
    y = data.draw(st.integers(0, n - 1))
    L = 64 * -(-bits // 64)
    assert unit.mont_mul(x, y, n) == x * y * pow(2, -L, n) % n
    assert unit.last_cycles > 0
    assert unit.mod_mul(x, y, n) == x * y % n


@pytest.mark.parametrize("m", sorted(gf2m.NIST_POLYNOMIALS))
def test_mod_mul_gf2m_nist(unit, m):
    rng = random.Random(m)
    f = gf2m.NIST_POLYNOMIALS[m]
    for _ in range(3):
        a, b = rng.getrandbits(m), rng.getrandbits(m)
        assert unit.mod_mul(a, b, f, field=Field.GF2M) == gf2m.mulmod(a, b, f)
        L = 64 * -(-(m + 1) // 64)
        expected = gf2m.mulmod(gf2m.mulmod(a, b, f), gf2m.inv(gf2m.powmod(2, L, f), f), f)
        assert unit.mont_mul(a, b, f, field=Field.GF2M) == expected


def test_mod_mul_gf2m_random_irreducible(unit):
    rng = random.Random(7)
    for m in (7, 100, 200):
        f = gf2m.random_irreducible(m, rng)
        a, b = rng.getrandbits(m), rng.getrandbits(m)
        assert unit.mod_mul(a, b, f, field=Field.GF2M) == gf2m.mulmod(a, b, f)


@pytest.mark.parametrize("bits", [64, 256, 521])
def test_mod_exp_matches_pow_with_edge_operands(unit, bits):
    rng = random.Random(bits)
    n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
    for base, exponent in [(0, 5), (1, rng.getrandbits(bits)), (n - 1, 2), (rng.randrange(n), 0),
                           (rng.randrange(n), 1), (rng.randrange(n), rng.getrandbits(bits))]:
        assert unit.mod_exp(base, exponent, n) == pow(base, exponent, n)


def test_mod_exp_cycles_do_not_depend_on_the_exponent(unit):
    rng = random.Random(3)
    n = rng.getrandbits(256) | 1 | (1 << 255)
    unit.mod_exp(2, 3, n)  # the first call also computes R² mod n, which later calls reuse
    cycles = set()
    for exponent in (1, 2**255 - 1, rng.getrandbits(256), 1 << 200):
        unit.mod_exp(rng.randrange(n), exponent, n)
        cycles.add(unit.last_cycles)
    assert len(cycles) == 1


def test_edge_operands_gfp(unit):
    n = (1 << 256) - 189  # a 256-bit prime
    for x in (0, 1, n - 1):
        for y in (0, 1, n - 1):
            assert unit.mod_mul(x, y, n) == x * y % n


def test_even_modulus_raises_unit_error_and_the_unit_stays_usable(unit):
    with pytest.raises(UnitError, match="modulus must be odd") as info:
        unit.mont_mul(3, 5, 1 << 100)
    assert info.value.code == 4
    assert isinstance(info.value, MontuError)
    assert unit.mod_mul(3, 5, 7) == 1


def test_gf2m_polynomial_divisible_by_x_is_rejected(unit):
    with pytest.raises(UnitError, match="constant term 1"):
        unit.mont_mul(1, 1, (1 << 163) | 2, field=Field.GF2M)


def test_operands_out_of_range_are_rejected_before_sending(unit):
    with pytest.raises(UnitError, match=r"x must be in \[0, n\)"):
        unit.mod_mul(11, 1, 11)
    with pytest.raises(UnitError, match="do not fit"):
        unit.mod_mul(1, 1, (1 << 4097) + 1)
    with pytest.raises(UnitError, match="unknown backend"):
        Unit(backend="fpga")


@settings(max_examples=25, deadline=None)
@given(bits=st.sampled_from([64, 100, 256, 521, 1024, 2048]), data=st.data())
def test_mod_inv_any_modulus_including_even(unit, bits, data):
    import math

    from montu import NoInverse

    n = data.draw(st.integers(max(2, 1 << (bits - 1)), (1 << bits) - 1))
    a = data.draw(st.integers(0, n - 1))
    if math.gcd(a, n) == 1:
        z = unit.mod_inv(a, n)
        assert 0 <= z < n and z * a % n == 1 % n
    else:
        with pytest.raises(NoInverse):
            unit.mod_inv(a, n)
        assert unit.mod_mul(3, 5, 7) == 1  # the unit stays usable


def test_mod_inv_rsa_private_exponent(unit):
    p, q = 2**127 - 1, 2**89 - 1  # Mersenne primes
    lam = (p - 1) * (q - 1) // 2  # even modulus
    d = unit.mod_inv(65537, lam)
    assert d * 65537 % lam == 1


@pytest.mark.parametrize("m", sorted(gf2m.NIST_POLYNOMIALS))
def test_mod_inv_gf2m(unit, m):
    rng = random.Random(m)
    f = gf2m.NIST_POLYNOMIALS[m]
    for a in (1, 2, rng.getrandbits(m)):
        assert unit.mod_inv(a, f, field=Field.GF2M) == gf2m.inv(a, f)
    with pytest.raises(UnitError, match="no inverse"):
        unit.mod_inv(0, f, field=Field.GF2M)


@pytest.mark.parametrize("lanes", [2, 4])
def test_pipelined_unit_gives_the_same_results_in_its_own_time(lanes):
    pm, default = Unit(backend="sim", lanes=lanes, pipelined=True), Unit(backend="sim", lanes=lanes)
    assert pm.pipelined is True and default.pipelined is False
    n = (1 << 1023) | 12345
    x, y = 3 ** 500 % n, 7 ** 400 % n
    assert pm.mod_mul(x, y, n) == default.mod_mul(x, y, n) == x * y % n
    startmmi = pm.isa.by_name["STARTMMI"]
    variables = dict(k=16, W=16, Word=64, Lanes=lanes, NumRegs=32, MaxWords=64, gf2m=0)
    pm.mont_mul(x, y, n)
    default.mont_mul(x, y, n)
    assert pm.last_cycles - default.last_cycles == (startmmi.cycle_count(**variables, Pipelined=1)
                                                    - startmmi.cycle_count(**variables, Pipelined=0))


def test_pipelined_needs_two_or_four_lanes():
    with pytest.raises(ValueError, match="Pipelined needs Lanes = 2 or 4"):
        Unit(backend="sim", lanes=1, pipelined=True)
