"""Binary-polynomial arithmetic against its algebraic definitions."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montu.arith import gf2m
from montu.errors import ModulusError, NoInverse


def schoolbook_clmul(a: int, b: int) -> int:
    result = 0
    i = 0
    while b >> i:
        if (b >> i) & 1:
            result ^= a << i
        i += 1
    return result


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**600), st.integers(0, 2**600))
def test_clmul_is_the_schoolbook_carry_less_product(a, b):
    assert gf2m.clmul(a, b) == schoolbook_clmul(a, b)
    assert gf2m.clmul(a, b) == gf2m.clmul(b, a)


@pytest.mark.parametrize("m", sorted(gf2m.NIST_POLYNOMIALS))
def test_nist_polynomials_are_irreducible_of_their_degree(m):
    f = gf2m.NIST_POLYNOMIALS[m]
    assert gf2m.degree(f) == m
    assert gf2m.is_irreducible(f)


@pytest.mark.parametrize("m", sorted(gf2m.NIST_POLYNOMIALS))
def test_field_laws_in_each_nist_field(m):
    f = gf2m.NIST_POLYNOMIALS[m]
    rng = random.Random(m)
    for _ in range(5):
        a, b, c = (rng.getrandbits(m) for _ in range(3))
        assert gf2m.mulmod(a, b ^ c, f) == gf2m.mulmod(a, b, f) ^ gf2m.mulmod(a, c, f)
        assert gf2m.sqrmod(a, f) == gf2m.mulmod(a, a, f)
        if a:
            assert gf2m.mulmod(a, gf2m.inv(a, f), f) == 1
    # the multiplicative group has order 2^m - 1
    assert gf2m.powmod(0b10, 2**m - 1, f) == 1


def test_irreducibility_test_against_brute_force_for_small_degrees():
    for f in range(2, 1 << 9):
        d = gf2m.degree(f)
        brute = d >= 1 and all(gf2m.divmod_poly(f, g)[1] != 0 for g in range(2, 1 << (d // 2 + 1))
                               if 1 <= gf2m.degree(g) <= d // 2)
        assert gf2m.is_irreducible(f) == brute, bin(f)


def test_random_irreducible_and_rejecting_reducible():
    rng = random.Random(1)
    for m in (2, 17, 64, 128, 300):
        f = gf2m.random_irreducible(m, rng)
        assert gf2m.degree(f) == m and gf2m.is_irreducible(f)
    reducible = gf2m.clmul(0b111, 0b1011)  # (x^2+x+1)(x^3+x+1)
    assert not gf2m.is_irreducible(reducible)
    with pytest.raises(ModulusError, match="not irreducible"):
        gf2m.require_irreducible(reducible)


def test_inverse_needs_coprime_operand():
    f = gf2m.clmul(0b111, 0b1011)
    with pytest.raises(NoInverse):
        gf2m.inv(0b111, f)
    with pytest.raises(NoInverse):
        gf2m.inv(0, gf2m.NIST_POLYNOMIALS[163])
    assert gf2m.mulmod(0b10, gf2m.inv(0b10, f), f) == 1  # reducible modulus, coprime operand


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**300), st.integers(1, 2**200))
def test_division_identity(a, b):
    q, r = gf2m.divmod_poly(a, b)
    assert gf2m.clmul(q, b) ^ r == a and gf2m.degree(r) < gf2m.degree(b)
    assert gf2m.reduce(a, b) == r


def test_degree_and_bad_inputs():
    assert gf2m.degree(0) == -1 and gf2m.degree(1) == 0 and gf2m.degree(1 << 571) == 571
    with pytest.raises(ValueError):
        gf2m.clmul(-1, 3)
    with pytest.raises(ModulusError):
        gf2m.reduce(5, 0)

