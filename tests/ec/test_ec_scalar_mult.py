"""Scalar multiplication on the unit against the host-side affine reference, and its constant time.

Set MONTU_EC_ALL_CURVES=1 to run the constant-time test on all sixteen curves (about two minutes on
the simulator); by default it runs on a representative set of both fields.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference as ref
from montu import Unit
from montu.ec import curve_names, get_curve, points

ALL = curve_names()
EDGE_CURVES = ("prime192v1", "secp256k1", "sect163k1", "sect233r1")  # every exceptional scalar
CT_CURVES = ALL if os.environ.get("MONTU_EC_ALL_CURVES") else [
    "prime192v1", "prime256v1", "secp256k1", "sect163r2", "sect233k1", "sect283k1"]


@pytest.fixture(scope="module")
def unit() -> Unit:
    return Unit(backend="sim")


@pytest.mark.parametrize("name", ALL)
def test_multiply_matches_reference(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    rng = random.Random(name)
    base = ref.mul(curve, rng.randrange(1, curve.n), curve.generator) if curve.bits < 400 else curve.generator
    edges = (1, 2, 3, curve.n - 3, curve.n - 2, curve.n - 1) if name in EDGE_CURVES else (curve.n - 2,)
    for k in (*edges, rng.randrange(1, curve.n)):
        assert points.multiply(unit, curve, k, base) == ref.mul(curve, k, base), k


@pytest.mark.parametrize("name", ["prime192v1", "secp224r1", "prime256v1", "secp384r1", "secp521r1", "secp256k1"])
def test_co_z_ladder_matches_reference(unit: Unit, name: str) -> None:
    """The GF(p) co-Z ladder (the fallback of the window method) on its own."""
    curve = get_curve(name)
    rng = random.Random(f"ladder-{name}")
    for k in (2, 3, curve.n - 3, rng.randrange(2, curve.n - 2)):
        assert points.ladder(unit, curve, k, curve.generator) == ref.mul(curve, k, curve.generator), k


@settings(max_examples=8, deadline=None)
@given(k=st.integers(min_value=1), name=st.sampled_from(["prime256v1", "sect283k1", "sect163r2"]))
def test_multiply_property(unit: Unit, k: int, name: str) -> None:
    curve = get_curve(name)
    k = k % (curve.n - 2) + 1
    assert points.multiply(unit, curve, k, curve.generator) == ref.mul(curve, k, curve.generator)


@pytest.mark.parametrize("name", ["prime256v1", "sect283k1"])
def test_public_multiples_cover_the_ladders_gaps(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    g = curve.generator
    assert points.multiply_public(unit, curve, 0, g) is None
    assert points.multiply_public(unit, curve, curve.n, g) is None
    assert points.multiply_public(unit, curve, curve.n - 1, g) == ref.neg(curve, g)
    assert points.multiply_public(unit, curve, curve.n + 5, g) == ref.mul(curve, 5, g)


@pytest.mark.parametrize("name", ALL)
def test_add_public_matches_reference(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    g = curve.generator
    g2 = ref.mul(curve, 2, g)
    assert points.add(unit, curve, g, g2) == ref.mul(curve, 3, g)      # P + Q
    assert points.add(unit, curve, g, g) == g2                          # doubling
    assert points.add(unit, curve, g, ref.neg(curve, g)) is None         # P + (−P)
    assert points.add(unit, curve, None, g) == g


@pytest.mark.parametrize(("name", "method"), [(c, "multiply") for c in CT_CURVES]
                         + [("prime256v1", "ladder"), ("secp256k1", "ladder")])
def test_constant_time_cycles(name: str, method: str) -> None:
    """Identical unit cycles for 22 scalars, including the extremes, on a fresh unit, for one
    public base point (the window method's table costs depend on the point, not on k)."""
    curve = get_curve(name)
    unit = Unit(backend="sim")
    rng = random.Random(f"ct-{name}")
    multiply = getattr(points, method)
    base = ref.mul(curve, rng.randrange(1, curve.n), curve.generator)
    multiply(unit, curve, 3, base)  # per-unit one-time constants (R², √b)
    scalars = [2, 3, curve.n - 3, (1 << (curve.n.bit_length() - 1)) - 1] + \
        [rng.randrange(3, curve.n - 3) for _ in range(18)]
    cycles = set()
    for i, k in enumerate(scalars):
        before = unit.total_cycles
        result = multiply(unit, curve, k, base)
        cycles.add(unit.total_cycles - before)
        if i < 3:  # the path measured is the path that computes correctly
            assert result == ref.mul(curve, k, base)
    assert len(cycles) == 1, f"{name}: cycle counts differ across scalars: {sorted(cycles)}"
