"""Imported public keys are validated on the unit; bad ones raise InvalidPublicKey saying why."""

from __future__ import annotations

import pytest

import reference as ref
from montu import MontuError, Unit
from montu.arith import gf2m
from montu.ec import EcPrivateKey, EcPublicKey, InvalidPrivateKey, InvalidPublicKey, get_curve


@pytest.fixture(scope="module")
def unit() -> Unit:
    return Unit(backend="sim")


@pytest.mark.parametrize("name", ["prime256v1", "secp521r1", "sect283k1", "sect163r2"])
def test_valid_point_accepted(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    q = ref.mul(curve, 123456789, curve.generator)
    assert EcPublicKey(name, *q, unit=unit).point == q


@pytest.mark.parametrize("name", ["prime256v1", "secp384r1", "sect283k1", "sect233r1"])
def test_off_curve_rejected_then_good_call_works(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    with pytest.raises(InvalidPublicKey, match="not on the curve"):
        EcPublicKey(name, curve.gx, curve.gy ^ 2, unit=unit)
    with pytest.raises(InvalidPublicKey, match="not on the curve"):
        EcPublicKey(name, 0, 0, unit=unit)  # the usual stand-in for infinity
    assert EcPublicKey(name, curve.gx, curve.gy, unit=unit).x == curve.gx


@pytest.mark.parametrize("name", ["prime256v1", "secp256k1"])
def test_out_of_range_prime(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    with pytest.raises(InvalidPublicKey, match=r"\[0, p\)"):
        EcPublicKey(name, curve.gx + curve.modulus, curve.gy, unit=unit)  # same residue, not reduced
    with pytest.raises(InvalidPublicKey, match=r"\[0, p\)"):
        EcPublicKey(name, curve.gx, -curve.gy, unit=unit)


def test_out_of_range_binary(unit: Unit) -> None:
    curve = get_curve("sect283k1")
    with pytest.raises(InvalidPublicKey, match="at most 283 bits"):
        EcPublicKey(curve, curve.gx ^ curve.modulus, curve.gy, unit=unit)  # ≡ gx mod f, unreduced


def _order_two_point(curve) -> tuple[int, int]:
    sqrt_b = gf2m.powmod(curve.b, 1 << (curve.bits - 1), curve.modulus)
    assert ref.on_curve(curve, (0, sqrt_b))
    return (0, sqrt_b)


@pytest.mark.parametrize("name", ["sect163r2", "sect233k1"])  # cofactor 2 and 4
def test_small_subgroup_points_rejected(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    t = _order_two_point(curve)
    with pytest.raises(InvalidPublicKey, match="order 2"):
        EcPublicKey(name, *t, unit=unit)
    mixed = ref.add(curve, curve.generator, t)          # order 2n: on the curve, outside <G>
    assert ref.on_curve(curve, mixed)
    with pytest.raises(InvalidPublicKey, match="subgroup of prime order"):
        EcPublicKey(name, *mixed, unit=unit)


def test_private_key_range_and_stored_public(unit: Unit) -> None:
    curve = get_curve("P-256")
    for d in (0, curve.n, -1):
        with pytest.raises(InvalidPrivateKey):
            EcPrivateKey(curve, d, unit)
    with pytest.raises(InvalidPrivateKey, match="not d·G"):
        EcPrivateKey(curve, 5, unit, public=curve.generator)
    assert issubclass(InvalidPublicKey, MontuError)


@pytest.mark.parametrize("name", ["sect163k1", "sect233r1", "sect283r1"])
def test_trace_criterion_agrees_with_n_times_q(unit: Unit, name: str) -> None:
    """Cofactor 2: Tr(x + a) = 0 ⟺ n·Q = O, on points inside and outside the subgroup."""
    from montu.ec import binary

    curve = get_curve(name)
    t = _order_two_point(curve)
    inside = [curve.generator, ref.mul(curve, 0xC0FFEE, curve.generator)]
    outside = [ref.add(curve, q, t) for q in inside]
    for q in inside + outside:
        assert binary.in_prime_subgroup_cofactor_2(unit, curve, q) == \
            binary.is_infinity_multiple(unit, curve, curve.n, q) == (q in inside)
