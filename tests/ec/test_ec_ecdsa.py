"""ECDSA and ECDH end to end on the simulator, against `cryptography` (OpenSSL) where it has the
curve and against the algebra everywhere."""

from __future__ import annotations

import pytest
from asn1crypto.algos import DSASignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec as cec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

import reference as ref
from montu import Unit
from montu.ec import EcPrivateKey, EcPublicKey, UnsupportedHash, generate, get_curve

PRIME = {"prime192v1": cec.SECP192R1, "secp224r1": cec.SECP224R1, "prime256v1": cec.SECP256R1,
         "secp384r1": cec.SECP384R1, "secp521r1": cec.SECP521R1, "secp256k1": cec.SECP256K1}
HASH = {"sha1": hashes.SHA1, "sha224": hashes.SHA224, "sha256": hashes.SHA256,
        "sha384": hashes.SHA384, "sha512": hashes.SHA512}


@pytest.fixture(scope="module")
def unit() -> Unit:
    return Unit(backend="sim")


@pytest.mark.parametrize(("name", "hash_name"), [
    ("prime256v1", "sha256"), ("secp384r1", "sha384"), ("secp256k1", "sha1"), ("prime192v1", "sha512"),
    ("secp224r1", "sha224"), ("sect283k1", "sha256"), ("sect163r2", "sha512"), ("sect233k1", "sha1")])
def test_sign_verify_and_tampering(unit: Unit, name: str, hash_name: str) -> None:
    key = generate(name, unit)
    pub = key.public_key()
    assert ref.mul(key.curve, key.private_value, key.curve.generator) == pub.point
    message = b"Montu signs on the unit"
    sig = key.sign(message, hash_name)
    assert pub.verify(sig, message, hash_name)
    assert not pub.verify(sig, message + b"!", hash_name)
    assert not pub.verify(sig, message, "sha256" if hash_name != "sha256" else "sha384")
    assert not generate(name, unit).public_key().verify(sig, message, hash_name)
    tampered = bytearray(sig)
    tampered[-1] ^= 1
    assert not pub.verify(bytes(tampered), message, hash_name)
    assert not pub.verify(sig[:-1], message, hash_name)  # malformed DER


@pytest.mark.parametrize("name", ["prime256v1", "sect163k1"])
def test_r_s_out_of_range_rejected(unit: Unit, name: str) -> None:
    key = generate(name, unit)
    pub, n = key.public_key(), key.curve.n
    digest = b"\x11" * 32
    r, s = key.sign_digest_rs(digest)
    assert pub.verify_digest_rs(r, s, digest)
    for bad in ((0, s), (r, 0), (r + n, s), (r, s + n), (n, s), (r, n)):
        assert not pub.verify_digest_rs(*bad, digest)
        assert not pub.verify_digest(DSASignature({"r": bad[0], "s": bad[1]}).dump(), digest)


def test_rfc6979_p256_sha256_sample(unit: Unit) -> None:
    """RFC 6979 A.2.5, P-256 with SHA-256, message "sample"."""
    d = 0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721
    key = EcPrivateKey("P-256", d, unit)
    sig = key.sign(b"sample", "sha256", deterministic=True)
    assert decode_dss_signature(sig) == (
        0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716,
        0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8)
    assert key.sign(b"sample", "sha256", deterministic=True) == sig
    assert key.sign(b"sample", "sha256") != sig


@pytest.mark.parametrize("name", list(PRIME))
def test_interoperates_with_openssl(unit: Unit, name: str) -> None:
    key = generate(name, unit)
    theirs = cec.derive_private_key(key.private_value, PRIME[name]())
    numbers = theirs.public_key().public_numbers()
    assert (numbers.x, numbers.y) == key.public_key().point
    hash_name = "sha384" if key.curve.bits > 300 else "sha256"
    theirs.public_key().verify(key.sign(b"abc", hash_name), b"abc", cec.ECDSA(HASH[hash_name]()))
    r, s = decode_dss_signature(theirs.sign(b"xyz", cec.ECDSA(HASH[hash_name]())))
    assert key.public_key().verify(encode_dss_signature(r, s), b"xyz", hash_name)
    peer = cec.generate_private_key(PRIME[name]())
    pn = peer.public_key().public_numbers()
    assert key.exchange(EcPublicKey(name, pn.x, pn.y, unit)) == theirs.exchange(cec.ECDH(), peer.public_key())


@pytest.mark.parametrize("name", ["sect163r2", "sect283k1", "prime256v1"])
def test_ecdh_agrees_and_has_field_length(unit: Unit, name: str) -> None:
    a, b = generate(name, unit), generate(name, unit)
    secret = a.exchange(b.public_key())
    assert secret == b.exchange(a.public_key())
    assert len(secret) == get_curve(name).field_bytes
    expected = ref.mul(a.curve, a.private_value * b.private_value, a.curve.generator)
    assert int.from_bytes(secret, "big") == expected[0]


def test_unsupported_hash(unit: Unit) -> None:
    key = EcPrivateKey("P-256", 12345, unit)
    with pytest.raises(UnsupportedHash, match="sha256"):
        key.sign(b"m", "md5")
