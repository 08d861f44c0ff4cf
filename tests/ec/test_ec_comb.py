"""Fixed-base k·G by the signed comb (SHLX/MMX table selection): correct, constant time, and the
stored tables are what the unit computes."""

from __future__ import annotations

import random

import pytest

import reference as ref
from montu import Unit
from montu.ec import comb, comb_tables, get_curve

PRIME = ["prime192v1", "secp224r1", "prime256v1", "secp384r1", "secp521r1", "secp256k1"]


@pytest.fixture(scope="module")
def unit() -> Unit:
    return Unit(backend="sim")


@pytest.mark.parametrize("name", PRIME)
def test_stored_table_is_the_curves(name: str) -> None:
    """Every stored entry equals 2^(3d)·G + Σ ±2^(md)·G computed on the host reference."""
    curve = get_curve(name)
    d = comb.columns(curve)
    multiples = [ref.mul(curve, 1 << (m * d), curve.generator) for m in range(comb.TEETH)]
    for u, entry in enumerate(comb_tables.TABLES[curve.name]):
        expected = multiples[3]
        for m in range(comb.TABLE_BITS):
            expected = ref.add(curve, expected, multiples[m] if (u >> m) & 1 else ref.neg(curve, multiples[m]))
        assert entry == expected, u


def test_stored_table_matches_unit_computation(unit: Unit) -> None:
    curve = get_curve("prime192v1")
    assert comb.table(unit, curve, stored=False) == list(comb_tables.TABLES[curve.name])


@pytest.mark.parametrize("name", PRIME)
def test_comb_matches_reference_and_is_constant_time(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    rng = random.Random(f"comb-{name}")
    scalars = [1, 2, 3, curve.n - 3, curve.n - 2, curve.n - 1] + [rng.randrange(1, curve.n) for _ in range(16)]
    comb.multiply_generator(unit, curve, 5)  # warm-up: R² of p computed once per unit
    cycles = set()
    for k in scalars:
        before = unit.total_cycles
        result = comb.multiply_generator(unit, curve, k)
        cycles.add(unit.total_cycles - before)
        assert result == ref.mul(curve, k, curve.generator), k
    assert len(cycles) == 1, f"{name}: comb cycle counts differ: {sorted(cycles)}"


def test_recoding_reconstructs_the_scalar() -> None:
    curve = get_curve("prime256v1")
    d = comb.columns(curve)
    rng = random.Random(7)
    for k in [1, curve.n - 1] + [rng.randrange(1, curve.n) for _ in range(50)]:
        indices, negate = comb.recode(k, curve)
        assert len(indices) == d and len(negate) == d + 1   # the last flag negates the result
        total = 0
        for column, (u, neg) in enumerate(zip(indices, negate)):
            i = d - 1 - column
            value = (1 << (3 * d)) + sum((1 if (u >> m) & 1 else -1) << (m * d) for m in range(3))
            total += (-value if neg else value) << i
        assert (-total if negate[-1] else total) % curve.n == k
