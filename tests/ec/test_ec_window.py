"""Variable-base k·P by the signed fixed window (SHLX/MMX table selection)."""

from __future__ import annotations

import random

import pytest

import reference as ref
from montu import Unit
from montu.ec import get_curve, window


@pytest.fixture(scope="module")
def unit() -> Unit:
    return Unit(backend="sim")


def test_recoding_reconstructs_the_scalar() -> None:
    curve = get_curve("prime256v1")
    rng = random.Random(11)
    for k in [1, 2, curve.n - 1] + [rng.randrange(1, curve.n) for _ in range(50)]:
        indices, negate = window.recode(k, curve)
        assert len(indices) == window.digits(curve)
        total = 0
        for u, neg in zip(indices, negate):
            total = (total << window.WIDTH) + (-(2 * u + 1) if neg else 2 * u + 1)
        assert total % curve.n == k
        assert indices[0] >= 0 and not negate[0]


@pytest.mark.parametrize("name", ["prime192v1", "secp224r1", "secp384r1", "secp521r1", "secp256k1"])
def test_window_matches_reference(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    rng = random.Random(f"window-{name}")
    base = ref.mul(curve, rng.randrange(1, curve.n), curve.generator)
    for k in (2, curve.n - 3, rng.randrange(1, curve.n)):
        assert window.multiply(unit, curve, k, base) == ref.mul(curve, k, base), k


def test_exceptional_addition_is_detected(unit: Unit) -> None:
    """For k = n − 2 one window addition meets equal or opposite points; the CMP(H, 0) must report
    it, so that points.multiply takes another path instead of returning a wrong point."""
    curve = get_curve("prime256v1")
    assert window.multiply(unit, curve, curve.n - 2, curve.generator) is None
    assert window.multiply(unit, curve, curve.n - 4, curve.generator) == ref.mul(curve, curve.n - 4, curve.generator)
