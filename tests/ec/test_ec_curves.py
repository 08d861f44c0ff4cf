"""The curve table: parameters as OpenSSL has them, the algebra they promise, names and OIDs."""

from __future__ import annotations

import subprocess

import pytest
from asn1crypto import keys

import reference as ref
from montu.arith import gf2m
from montu.ec import CURVES, UnknownCurve, curve_by_oid, curve_names, get_curve

ALL = curve_names()


def _openssl_params(name: str) -> dict[str, int]:
    der = subprocess.run(["openssl", "ecparam", "-name", name, "-param_enc", "explicit",
                          "-outform", "DER"], capture_output=True, check=True).stdout
    spec = keys.SpecifiedECDomain.load(der)
    field_id = spec["field_id"]
    if field_id["field_type"].native == "prime_field":
        modulus = field_id["parameters"].native
    else:
        params = field_id["parameters"]
        m, basis = params["m"].native, params["parameters"].native
        exponents = [m, basis, 0] if isinstance(basis, int) else [m, *basis.values(), 0]
        modulus = sum(1 << e for e in exponents)
    point = spec["base"].native
    half = (len(point) - 1) // 2
    return {"modulus": modulus, "a": int.from_bytes(spec["curve"]["a"].native, "big"),
            "b": int.from_bytes(spec["curve"]["b"].native, "big"),
            "gx": int.from_bytes(point[1:1 + half], "big"), "gy": int.from_bytes(point[1 + half:], "big"),
            "n": spec["order"].native, "h": spec["cofactor"].native}


def test_sixteen_curves_six_prime_ten_binary() -> None:
    assert len(CURVES) == 16
    assert sum(c.is_binary for c in CURVES.values()) == 10


@pytest.mark.parametrize("name", ALL)
def test_parameters_match_openssl(name: str) -> None:
    curve = get_curve(name)
    expected = _openssl_params(name)
    assert {k: getattr(curve, k) for k in expected} == expected


@pytest.mark.parametrize("name", ALL)
def test_generator_on_curve_with_order_n(name: str) -> None:
    curve = get_curve(name)
    assert ref.on_curve(curve, curve.generator)
    assert ref.mul(curve, curve.n, curve.generator) is None
    assert ref.mul(curve, curve.n - 1, curve.generator) == ref.neg(curve, curve.generator)
    if curve.is_binary:
        assert gf2m.degree(curve.modulus) == curve.bits


@pytest.mark.parametrize("name", ALL)
def test_oid_matches_asn1crypto_table(name: str) -> None:
    curve = get_curve(name)
    known = keys.NamedCurve._map[curve.oid]  # noqa: SLF001
    assert known in (curve.name, *curve.aliases)
    assert curve_by_oid(curve.oid) is curve


@pytest.mark.parametrize(("alias", "name"), [
    ("P-256", "prime256v1"), ("secp256r1", "prime256v1"), ("p-384", "secp384r1"), ("P-192", "prime192v1"),
    ("K-283", "sect283k1"), ("B-283", "sect283r1"), ("B-571", "sect571r1"), ("K-163", "sect163k1")])
def test_aliases(alias: str, name: str) -> None:
    assert get_curve(alias).name == name


def test_unknown_curve_names_the_supported_ones() -> None:
    with pytest.raises(UnknownCurve, match="prime256v1"):
        get_curve("P-257")
    assert curve_by_oid("1.2.3.4") is None
