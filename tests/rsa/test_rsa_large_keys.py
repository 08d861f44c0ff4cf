"""RSA keys larger than the default unit (issue #16 item 4): 8192-bit keys run on a larger unit
configuration that the driver picks by itself; larger keys are refused before any validation.

The key files are OpenSSL's (`openssl genrsa 8192`, `openssl genrsa 16384`; tests/rsa/data/make.sh).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding as pyca_padding

import montu.rsa
from montu import Unit
from montu.driver import DEFAULT_MAX_BITS, UnitError, default_unit, unit_for_operands
from montu.errors import MontuError
from montu.rsa import RsaKeyError

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def key_8192() -> bytes:
    return (DATA / "rsa-8192.pem").read_bytes()


def test_an_8192_bit_key_signs_on_the_larger_default_unit(key_8192: bytes) -> None:
    key = montu.rsa.load_pem(key_8192)
    assert key.bits == 8192
    assert key.unit.max_bits == 8192 and key.unit is default_unit(min_bits=8192)
    signature = key.sign(b"eight thousand bits", "sha256")
    reference = serialization.load_pem_private_key(key_8192, password=None).public_key()
    reference.verify(signature, b"eight thousand bits", pyca_padding.PKCS1v15(), hashes.SHA256())
    assert key.public_key().verify(signature, b"eight thousand bits", "sha256")
    assert not key.public_key().verify(signature, b"another message", "sha256")


def test_a_too_small_default_unit_is_exchanged_but_a_callers_unit_is_not(key_8192: bytes) -> None:
    small_default = default_unit()
    assert small_default.max_bits == DEFAULT_MAX_BITS[0] == 4096
    assert montu.rsa.load_pem(key_8192, unit=small_default).unit.max_bits == 8192
    own_unit = Unit(backend="sim")                  # built by the caller: never swapped
    with pytest.raises(RsaKeyError, match="8192-bit RSA modulus is too large.*max_bits=4096"):
        montu.rsa.load_pem(key_8192, unit=own_unit)
    assert unit_for_operands(own_unit, 2048) is own_unit


def test_operands_beyond_every_configuration_are_refused_at_once() -> None:
    with pytest.raises(UnitError, match="largest unit configuration"):
        default_unit(min_bits=DEFAULT_MAX_BITS[-1] + 1)
    with pytest.raises(RsaKeyError, match="16384-bit RSA modulus is too large"):
        montu.rsa.RsaPublicKey((1 << 16383) | 1, 65537)


def test_a_16384_bit_key_is_refused_before_the_key_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The RSA key check of a 16384-bit key (primality of p and q) takes OpenSSL a minute: the size
    is read first, and the checking loader is never called for a key that cannot be used."""
    from montu.rsa import encoding

    data = (DATA / "rsa-16384.pem").read_bytes()
    checked: list[bool] = []
    real_load = serialization.load_pem_private_key

    def spy(block: bytes, password: bytes | None, *args: object, **kwargs: object):
        checked.append(not kwargs.get("unsafe_skip_rsa_key_validation", False))
        return real_load(block, password, *args, **kwargs)

    monkeypatch.setattr(encoding.serialization, "load_pem_private_key", spy)
    with pytest.raises(MontuError, match="16384-bit.*at most 8192"):
        montu.rsa.load_pem(data)
    assert checked == [False]          # one parse without the check; the check never ran
