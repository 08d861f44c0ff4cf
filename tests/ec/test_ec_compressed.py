"""Compressed SEC1 points (02/03 || X): decompression on the unit, against three other sources.

- every curve: points whose y the test knows (k·G and −k·G by tests/ec/reference.py, host affine
  arithmetic) compressed in Python, both prefix bits;
- the prime curves: keys made by `cryptography` (OpenSSL's library), compressed by it;
- a few curves, binary ones included: keys compressed by the `openssl` command, and an OpenSSL
  signature verified with the compressed key;
- refusals: x with no y (checked against Euler's criterion / the trace on the host), x ≥ p, bad
  prefixes and lengths, and points the usual validation rejects after decompression.
Tonelli–Shanks (P-224 alone among the curves) is also run on toy primes with 2-adic valuations 1,
2, 3, 16 (q = 1) and 32.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import reference
from asn1crypto import keys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec as crypto_ec

from montu import ec
from montu.arith import gf2m
from montu.arith.field import Field
from montu.driver import Unit
from montu.ec import compressed
from montu.ec.curves import CURVES_LIST, Curve, get_curve
from montu.ec.encoding import CompressedPoint, EcFormatError, load_key

OPENSSL = shutil.which("openssl")
live = pytest.mark.skipif(OPENSSL is None, reason="the openssl command is not installed")
DATA = Path(__file__).parent / "data" / "openssl"

CRYPTOGRAPHY_CURVES = {
    "prime192v1": crypto_ec.SECP192R1, "secp224r1": crypto_ec.SECP224R1,
    "prime256v1": crypto_ec.SECP256R1, "secp384r1": crypto_ec.SECP384R1,
    "secp521r1": crypto_ec.SECP521R1, "secp256k1": crypto_ec.SECP256K1,
}


@pytest.fixture(scope="module")
def unit() -> Unit:
    return Unit(backend="sim")


def y_bit(curve: Curve, point: tuple[int, int]) -> int:
    """SEC 1 §2.3.3: bit 0 of y (GF(p)) or of y/x (GF(2^m)), computed on the host (test only)."""
    x, y = point
    if not curve.is_binary:
        return y & 1
    return gf2m.mulmod(y, gf2m.inv(x, curve.modulus), curve.modulus) & 1


def compress(curve: Curve, point: tuple[int, int]) -> bytes:
    return bytes([2 + y_bit(curve, point)]) + point[0].to_bytes(curve.field_bytes, "big")


def spki(curve: Curve, point: bytes) -> bytes:
    """DER SubjectPublicKeyInfo around the SEC1 point bytes `point`."""
    algorithm = keys.PublicKeyAlgorithm(
        {"algorithm": "ec", "parameters": keys.ECDomainParameters(name="named", value=curve.oid)})
    der: bytes = keys.PublicKeyInfo({"algorithm": algorithm,
                                     "public_key": keys.ECPointBitString(point)}).dump()
    return der


def has_y(curve: Curve, x: int) -> bool:
    """Host criterion (test only): x³ + ax + b a square mod p (Euler), or x = 0 or Tr(β) = 0."""
    if not curve.is_binary:
        c = (x ** 3 + curve.a * x + curve.b) % curve.modulus
        return c == 0 or pow(c, (curve.modulus - 1) // 2, curve.modulus) == 1
    if x == 0:
        return True
    f, m = curve.modulus, gf2m.degree(curve.modulus)
    beta = x ^ curve.a ^ gf2m.mulmod(curve.b, gf2m.sqrmod(gf2m.inv(x, f), f), f)
    trace, power = 0, beta
    for _ in range(m):
        trace ^= power
        power = gf2m.sqrmod(power, f)
    return trace == 0


def openssl(*args: str | Path) -> bytes:
    assert OPENSSL is not None
    return subprocess.run([OPENSSL, *map(str, args)], capture_output=True, check=True).stdout


# ---------------------------------------------------------------------------------------------
# Every curve: both prefix bits, through the unit and through load_pem
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("curve", CURVES_LIST, ids=str)
def test_decompress_both_bits_on_every_curve(unit: Unit, curve: Curve) -> None:
    expected = []
    for k in (1, 2, 3):
        point = reference.mul(curve, k, curve.generator)
        expected += [point, reference.neg(curve, point)]
    assert {y_bit(curve, point) for point in expected} == {0, 1}
    for point in expected:
        assert compressed.decompress(unit, curve, point[0], y_bit(curve, point)) == point
    key = ec.load_pem(spki(curve, compress(curve, expected[-1])), unit=unit)
    assert isinstance(key, ec.EcPublicKey) and key.point == expected[-1]


@pytest.mark.parametrize("curve", CURVES_LIST, ids=str)
def test_x_without_y_is_refused_and_agrees_with_the_host(unit: Unit, curve: Curve) -> None:
    refused = 0
    for x in range(1, 9):
        if has_y(curve, x):
            point = compressed.decompress(unit, curve, x, 1)
            assert reference.on_curve(curve, point) and y_bit(curve, point) == 1
        else:
            refused += 1
            with pytest.raises(ec.InvalidPublicKey,
                               match=rf"x = {x:#x} is not on the curve {curve.name}: no y exists"):
                compressed.decompress(unit, curve, x, 0)
    assert 0 < refused < 8   # x³ + ax + b is a square, or Tr(β) = 0, about half the time
    g = curve.generator      # and the unit still works after a refusal
    assert compressed.decompress(unit, curve, g[0], y_bit(curve, g)) == g


# ---------------------------------------------------------------------------------------------
# Keys from OpenSSL: `cryptography` (prime curves) and the openssl command (binary ones too)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", CRYPTOGRAPHY_CURVES)
def test_cryptography_compressed_keys(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    for _ in range(2):
        public = crypto_ec.generate_private_key(CRYPTOGRAPHY_CURVES[name]()).public_key()
        point = public.public_bytes(serialization.Encoding.X962,
                                    serialization.PublicFormat.CompressedPoint)
        numbers = public.public_numbers()
        key = ec.load_pem(spki(curve, point), unit=unit)
        assert key.point == (numbers.x, numbers.y)
        uncompressed = public.public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo)
        assert key == ec.load_pem(uncompressed, unit=unit)


@live
@pytest.mark.parametrize("name", ["sect163k1", "sect283k1", "sect409r1", "secp224r1", "prime256v1"])
def test_openssl_compressed_keys_and_signature(unit: Unit, tmp_path: Path, name: str) -> None:
    key_pem, message, sig = tmp_path / "k.pem", tmp_path / "msg", tmp_path / "sig"
    openssl("ecparam", "-name", name, "-genkey", "-noout", "-out", key_pem)
    public_pem = openssl("ec", "-in", key_pem, "-pubout", "-conv_form", "compressed")
    private_pem = openssl("ec", "-in", key_pem, "-conv_form", "compressed")
    assert isinstance(load_key(public_pem).public, CompressedPoint)
    assert isinstance(load_key(private_pem).public, CompressedPoint)
    reference_key = ec.load_pem(key_pem.read_bytes(), unit=unit)
    public = ec.load_pem(public_pem, unit=unit)
    assert public == reference_key.public_key()
    assert ec.load_pem(private_pem, unit=unit).public_key() == public   # stored point = d·G
    message.write_bytes(b"signed by openssl, checked with a compressed key")
    openssl("dgst", "-sha256", "-sign", key_pem, "-out", sig, message)
    assert public.verify(sig.read_bytes(), message.read_bytes(), "sha256")
    assert not public.verify(sig.read_bytes(), message.read_bytes() + b"!", "sha256")


def test_openssl_fixture_k283(unit: Unit) -> None:
    """The compressed K-283 files in data/openssl/ (once examples of refusal) load as the key."""
    key = ec.load_pem((DATA / "K-283.sec1.pem").read_bytes(), unit=unit)
    public = ec.load_pem((DATA / "K-283.compressed.pub.pem").read_bytes(), unit=unit)
    private = ec.load_pem((DATA / "K-283.compressed.sec1.pem").read_bytes(), unit=unit)
    assert public == key.public_key() == private.public_key()


# ---------------------------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["prime256v1", "secp521r1", "secp224r1"])
def test_x_at_least_p_is_refused(unit: Unit, name: str) -> None:
    curve = get_curve(name)
    for x in (curve.modulus, curve.modulus + 1, 256 ** curve.field_bytes - 1):
        with pytest.raises(ec.InvalidPublicKey, match=r"x must be in \[0, p\) for " + name):
            ec.load_pem(spki(curve, b"\x02" + x.to_bytes(curve.field_bytes, "big")), unit=unit)


def test_x_beyond_m_bits_is_refused(unit: Unit) -> None:
    curve = get_curve("sect283k1")
    x = curve.gx | 1 << 283
    with pytest.raises(ec.InvalidPublicKey, match=r"x must be an element of GF\(2\^283\)"):
        ec.load_pem(spki(curve, b"\x03" + x.to_bytes(curve.field_bytes, "big")), unit=unit)


@pytest.mark.parametrize(
    "point, message",
    [
        (b"\x02" + bytes(31), r"a compressed point on this curve is 33 bytes .* got 32"),
        (b"\x03" + bytes(34), r"a compressed point on this curve is 33 bytes .* got 35"),
        (b"\x02" + bytes(64), r"a compressed point on this curve is 33 bytes .* got 65"),
        (b"\x04" + bytes(32), r"an uncompressed point on this curve is 65 bytes"),
        (b"\x01" + bytes(32), r"unknown point encoding \(first byte 0x01\)"),
        (b"\x05" + bytes(32), r"unknown point encoding \(first byte 0x05\)"),
        (b"\x06" + bytes(64), r"hybrid form \(first byte 0x06\)"),
        (b"\x07" + bytes(64), r"hybrid form \(first byte 0x07\)"),
    ],
)
def test_wrong_prefix_or_length_is_refused(unit: Unit, point: bytes, message: str) -> None:
    with pytest.raises(EcFormatError, match=message):
        ec.load_pem(spki(get_curve("P-256"), point), unit=unit)


def test_decompressed_points_are_still_validated(unit: Unit) -> None:
    """B-163 (h = 2): an x on the curve with Tr(x + a) = 1 is outside the subgroup of order n;
    x = 0 is the point of order 2."""
    curve = get_curve("sect163r2")
    f = curve.modulus
    x = next(x for x in range(1, 100) if has_y(curve, x) and _trace(x ^ curve.a, f) == 1)
    point = compressed.decompress(unit, curve, x, 0)
    assert reference.on_curve(curve, point)
    with pytest.raises(ec.InvalidPublicKey, match="not in the subgroup of prime order n"):
        ec.load_pem(spki(curve, b"\x02" + x.to_bytes(curve.field_bytes, "big")), unit=unit)
    with pytest.raises(ec.InvalidPublicKey, match="point of order 2"):
        ec.load_pem(spki(curve, b"\x02" + bytes(curve.field_bytes)), unit=unit)
    assert compressed.decompress(unit, curve, 0, 1)[1] == gf2m.powmod(curve.b, 1 << 162, f)


def _trace(value: int, f: int) -> int:
    trace = 0
    for _ in range(gf2m.degree(f)):
        trace ^= value
        value = gf2m.sqrmod(value, f)
    return trace


# ---------------------------------------------------------------------------------------------
# Square roots modulo toy primes: every 2-adic case of Tonelli–Shanks, and y = 0
# ---------------------------------------------------------------------------------------------

def toy_curve(p: int, a: int, b: int) -> Curve:
    return Curve(name=f"toy{p}", oid="0.0", field=Field.GFP, modulus=p, a=a, b=b, gx=0, gy=0,
                 n=1, h=1)


@pytest.mark.parametrize("p", [10007, 10037, 10009, 10193, 65537, 2**64 - 2**32 + 1],
                         ids=["s=1", "s=2", "s=3", "s=4", "s=16,q=1", "s=32"])
def test_square_roots_on_toy_primes(unit: Unit, p: int) -> None:
    curve = toy_curve(p, 3, 5)
    found = 0
    for x in range(40):
        if not has_y(curve, x):
            with pytest.raises(ec.InvalidPublicKey, match="no y exists"):
                compressed.decompress(unit, curve, x, 0)
            continue
        found += 1
        for bit in (0, 1):
            got_x, y = compressed.decompress(unit, curve, x, bit)
            assert got_x == x and y & 1 == bit and (y * y - x ** 3 - 3 * x - 5) % p == 0
    assert found > 10


@pytest.mark.parametrize("p", [10007, 10009], ids=["3 mod 4", "Tonelli-Shanks"])
def test_y_zero_has_no_odd_root(unit: Unit, p: int) -> None:
    x = 1234
    curve = toy_curve(p, 0, (-x ** 3) % p)       # (x, 0) on the curve
    assert compressed.decompress(unit, curve, x, 0) == (x, 0)
    with pytest.raises(ec.InvalidPublicKey, match="prefix 03 asks for an odd y, but the only y"):
        compressed.decompress(unit, curve, x, 1)
