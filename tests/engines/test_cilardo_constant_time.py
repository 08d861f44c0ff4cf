"""Constant time on the cilardo build: the existing constant-time tests of the unit (tests/rsa,
tests/ec, tests/test_driver.py) run here as they are, on Unit(engine="cilardo", pipelined=True) (sim: the engine's build); the RSA-2048
private-operation test is repeated without its bie2021 cycle target (issue #4's 800,000 is the
bie2021 build's target, not cilardo's), in both of cilardo's modes.

Private operations must take the same cycles whatever the secret: the cilardo multiplier's signed
quotient digits and its final correction (P + N, P − N or P) are inside STARTMMI's fixed time."""

from __future__ import annotations

import functools
import importlib.util
import random
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa as pyca_rsa

from montu import Unit
from montu.ec import EcPrivateKey, get_curve
from montu.rsa import RsaPrivateKey

TESTS = Path(__file__).resolve().parents[1]
# the cilardo engine's build (montu.engines.open("cilardo"), the CLI, the bench): the unit's other
# engines pipelined (montu.config.PIPELINED_BY_DEFAULT)
CilardoUnit = functools.partial(Unit, engine="cilardo", pipelined=True)


def _module(relative: str):
    """An existing test module, loaded under its own name (so it can be patched here alone)."""
    path = TESTS / relative
    sys.path.insert(0, str(path.parent))     # its neighbours (tests/ec/reference.py)
    try:
        spec = importlib.util.spec_from_file_location(f"cilardo_ct_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


SCALAR_MULT = _module("ec/test_ec_scalar_mult.py")
COMB = _module("ec/test_ec_comb.py")
RSA_CORE = _module("rsa/test_rsa_core.py")
DRIVER = _module("test_driver.py")


@pytest.fixture(scope="module")
def unit() -> Unit:
    return CilardoUnit(backend="sim")


@pytest.mark.parametrize(("name", "method"), [(c, "multiply") for c in SCALAR_MULT.CT_CURVES]
                         + [("prime256v1", "ladder"), ("secp256k1", "ladder")])
def test_scalar_multiplication_cycles_do_not_depend_on_the_scalar(monkeypatch, name, method):
    monkeypatch.setattr(SCALAR_MULT, "Unit", CilardoUnit)    # the test makes a fresh unit
    SCALAR_MULT.test_constant_time_cycles(name, method)


@pytest.mark.parametrize("name", COMB.PRIME)
def test_comb_cycles_do_not_depend_on_the_scalar(unit, name):
    COMB.test_comb_matches_reference_and_is_constant_time(unit, name)


def test_modexp_cycles_do_not_depend_on_the_exponent(unit):
    RSA_CORE.test_modexp_cycles_do_not_depend_on_the_exponent(unit)
    DRIVER.test_mod_exp_cycles_do_not_depend_on_the_exponent(unit)


@pytest.mark.parametrize("mode_guard_bits", [0, 2], ids=["paper", "alg2"])
def test_rsa_2048_private_cycles_do_not_depend_on_the_key_or_message(mode_guard_bits):
    """As tests/rsa/test_rsa_core.py: random 2048-bit keys, two messages each: identical unit
    cycles, cold (per-modulus constants computed) and warm."""
    unit = CilardoUnit(backend="sim", guard_bits=mode_guard_bits)
    cold, warm = set(), set()
    rng = random.Random(7)
    for _ in range(8):
        numbers = pyca_rsa.generate_private_key(public_exponent=65537, key_size=2048).private_numbers()
        pub = numbers.public_numbers
        key = RsaPrivateKey(pub.n, pub.e, numbers.d, numbers.p, numbers.q, numbers.dmp1,
                            numbers.dmq1, numbers.iqmp, unit=unit)
        key.sign(rng.randbytes(40), "sha256")
        cold.add(key.last_cycles)
        key.sign(rng.randbytes(40), "sha256", pss=True)
        warm.add(key.last_cycles)
    assert len(cold) == 1 and len(warm) == 1, (cold, warm)


@pytest.mark.parametrize("curve_name", ["prime256v1", "sect283k1"])
def test_ecdh_cycles_do_not_depend_on_the_private_key(unit, curve_name):
    curve = get_curve(curve_name)
    rng = random.Random(curve_name)
    peer = EcPrivateKey(curve, rng.randrange(1, curve.n), unit).public_key()
    EcPrivateKey(curve, 5, unit).exchange(peer)          # per-unit constants
    cycles = set()
    # 1 and n − 1 are the exceptional scalars points.multiply answers without a ladder, on
    # every build (as in tests/ec/test_ec_scalar_mult.py, whose scalars are 2 .. n − 3)
    for d in [2, 3, curve.n - 3] + [rng.randrange(3, curve.n - 3) for _ in range(6)]:
        before = unit.total_cycles
        EcPrivateKey(curve, d, unit).exchange(peer)
        cycles.add(unit.total_cycles - before)
    assert len(cycles) == 1, sorted(cycles)
