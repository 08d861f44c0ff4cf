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


@pytest.mark.parametrize("name", ["prime256v1", "secp256k1", "secp224r1", "secp521r1"])
def test_recoding_reconstructs_the_scalar(name: str) -> None:
    """D = ⌈bits(n)/4⌉ odd digits (one fewer than k + n would need on P-256) and a last flag that
    negates the result; the digits reconstruct ±k mod n, the top one positive."""
    curve = get_curve(name)
    rng = random.Random(11)
    evens_near_n = [curve.n - 1 - 2 * j for j in range(3)]
    for k in [1, 2, 4, 30, curve.n - 1] + evens_near_n + [rng.randrange(1, curve.n) for _ in range(50)]:
        indices, negate = window.recode(k, curve)
        assert len(indices) == window.digits(curve) == -(-curve.n.bit_length() // window.WIDTH)
        assert len(negate) == len(indices) + 1
        total = 0
        for u, neg in zip(indices, negate):
            total = (total << window.WIDTH) + (-(2 * u + 1) if neg else 2 * u + 1)
        assert (-total if negate[-1] else total) % curve.n == k
        assert indices[0] >= 0 and not negate[0]


@pytest.mark.parametrize("name", ["prime192v1", "secp224r1", "prime256v1", "secp256k1", "secp384r1", "secp521r1"])
def test_exceptional_scalars_are_exactly_the_enumerated_ones(unit: Unit, name: str) -> None:
    """`window.exceptional_scalars` (derived: only the last addition can be exceptional) is what
    the unit reports: every k within 40 of 0 or n is exceptional iff it is listed, and the listed
    ones are few and next to n."""
    curve = get_curve(name)
    listed = window.exceptional_scalars(curve)
    assert len(listed) <= 3 and all(curve.n - 30 <= k < curve.n for k in listed)
    for k in list(range(1, 41)) + [curve.n - j for j in range(1, 41)]:
        result = window.multiply(unit, curve, k, curve.generator)
        assert (result is None) == (k in listed), k
        if result is not None and (k < 6 or k > curve.n - 6):
            assert result == ref.mul(curve, k, curve.generator), k


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
