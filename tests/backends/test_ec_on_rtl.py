"""The EC programs on the Verilated RTL: same points and the same cycle counts as the simulator."""

from __future__ import annotations

import pytest

from ec import reference as ref   # tests/ec/reference.py (tests/ is on sys.path: tests/conftest.py)
from montu import Unit
from montu.ec import EcPrivateKey, get_curve, points


@pytest.fixture(scope="module")
def rtl() -> Unit:
    return Unit(backend="rtl")


@pytest.mark.parametrize("name", ["prime192v1", "sect163k1"])
def test_rtl_scalar_mult_and_ecdsa_match_simulator(rtl: Unit, name: str) -> None:
    curve = get_curve(name)
    sim = Unit(backend="sim")
    k = curve.n // 3
    results = []
    for unit in (sim, rtl):
        before = unit.total_cycles
        results.append((points.multiply(unit, curve, k, curve.generator), unit.total_cycles - before))
    assert results[0] == results[1]
    assert results[0][0] == ref.mul(curve, k, curve.generator)
    key = EcPrivateKey(curve, 0x1234567, rtl)
    sig = key.sign(b"on the RTL", deterministic=True)
    assert key.public_key().verify(sig, b"on the RTL")
    assert EcPrivateKey(curve, 0x1234567, sim).sign(b"on the RTL", deterministic=True) == sig
