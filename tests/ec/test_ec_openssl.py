"""Montu's EC keys, ECDSA and ECDH against the `openssl` command, on every supported curve.

Through the Python API (the CLI has its own tests): Montu's keys pass OpenSSL's key checks and
OpenSSL derives the same public key from Montu's private scalar; signatures verify in both
directions and tampering is caught on both sides; ECDH agrees with `openssl pkeyutl -derive`;
off-curve and small-subgroup public keys are refused by Montu (and by OpenSSL's -pubcheck).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

import pytest
import reference

from montu import ec
from montu.arith import gf2m
from montu.ec.encoding import decode_signature, dump_private, dump_public, encode_signature

OPENSSL = shutil.which("openssl")
pytestmark = pytest.mark.skipif(OPENSSL is None, reason="the openssl command is not installed")

NIST_CURVES = [
    "P-192", "P-224", "P-256", "P-384", "P-521",
    "K-163", "K-233", "K-283", "K-409", "K-571",
    "B-163", "B-233", "B-283", "B-409", "B-571",
    "secp256k1",  # not a NIST curve, but in Montu's curve table
]
BINARY_CURVES = [name for name in NIST_CURVES if name[0] in "KB"]  # cofactor 2 or 4
MESSAGE = b"Montu <-> OpenSSL interoperability, issue #5\n"


def openssl(*args: str | Path, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    assert OPENSSL is not None
    done = subprocess.run([OPENSSL, *map(str, args)], capture_output=True)
    if check and done.returncode != 0:
        raise AssertionError(f"openssl {' '.join(map(str, args))} failed:\n{done.stderr.decode()}")
    return done


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("openssl")
    (path / "msg").write_bytes(MESSAGE)
    (path / "other").write_bytes(MESSAGE + b"!")
    return path


@functools.cache
def montu_key(name: str) -> ec.EcPrivateKey:
    """One Montu-generated key per curve, shared by the tests of this module."""
    return ec.generate(name)


def write_montu_key(work: Path, name: str) -> tuple[Path, Path, Path]:
    """(SEC1, PKCS#8, public) PEM files of montu_key(name)."""
    key = montu_key(name)
    files = (work / f"montu-{name}.pem", work / f"montu-{name}.p8.pem",
             work / f"montu-{name}.pub.pem")
    files[0].write_bytes(key.to_pem())
    files[1].write_bytes(key.to_pem("pkcs8"))
    files[2].write_bytes(key.public_key().to_pem())
    return files


def openssl_key(work: Path, name: str) -> tuple[Path, Path]:
    """(private, public) PEM files of a fresh OpenSSL key on curve `name`, made once per module."""
    private, public = work / f"ossl-{name}.pem", work / f"ossl-{name}.pub.pem"
    if not private.exists():
        openssl("ecparam", "-name", ec.get_curve(name).name, "-genkey", "-noout", "-out", private)
        openssl("ec", "-in", private, "-pubout", "-out", public)
    return private, public


# ---------------------------------------------------------------------------------------------
# Montu's keys and signatures, checked by OpenSSL
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NIST_CURVES)
def test_montu_keys_pass_openssl_checks(name: str, work: Path) -> None:
    sec1, pkcs8, public = write_montu_key(work, name)
    assert b"EC Key valid" in openssl("ec", "-in", sec1, "-check", "-noout").stderr
    for path in (sec1, pkcs8):
        assert b"Key is valid" in openssl("pkey", "-in", path, "-check", "-noout").stdout
    assert b"Key is valid" in openssl("pkey", "-pubin", "-in", public, "-pubcheck", "-noout").stdout

    # OpenSSL computes d·G itself from a key file without the point: the same Q as Montu's ladder
    key = montu_key(name)
    bare = work / f"montu-{name}.bare.pem"
    bare.write_bytes(dump_private(key.curve.oid, key.private_value, None))
    assert openssl("ec", "-in", bare, "-pubout").stdout == key.public_key().to_pem()


@pytest.mark.parametrize("name", NIST_CURVES)
def test_montu_signature_verifies_with_openssl(name: str, work: Path) -> None:
    _sec1, _pkcs8, public = write_montu_key(work, name)
    signature = work / f"montu-{name}.sig"
    signature.write_bytes(montu_key(name).sign(MESSAGE, "sha256"))
    verify = ("dgst", "-sha256", "-verify", public, "-signature", signature)
    assert openssl(*verify, work / "msg").stdout.strip() == b"Verified OK"
    refused = openssl(*verify, work / "other", check=False)  # the check is not vacuous
    assert refused.returncode == 1 and b"Verification failure" in refused.stdout


@pytest.mark.parametrize("name", NIST_CURVES)
def test_openssl_signature_verifies_with_montu(name: str, work: Path) -> None:
    private, public = openssl_key(work, name)
    der = openssl("dgst", "-sha256", "-sign", private, work / "msg").stdout
    key = ec.load_pem(public.read_bytes())
    assert isinstance(key, ec.EcPublicKey)
    assert key.verify(der, MESSAGE, "sha256")
    assert not key.verify(der, MESSAGE + b"!", "sha256")  # tampered message
    r, s = decode_signature(der)
    assert not key.verify(encode_signature(r, s ^ 1), MESSAGE, "sha256")  # tampered s
    assert not key.verify(der[:-1], MESSAGE, "sha256")  # truncated DER: False, not an exception


@pytest.mark.parametrize("name", NIST_CURVES)
def test_ecdh_matches_openssl(name: str, work: Path) -> None:
    montu_private, _pkcs8, montu_public = write_montu_key(work, name)
    ossl_private, ossl_public = openssl_key(work, name)
    expected = openssl(
        "pkeyutl", "-derive", "-inkey", ossl_private, "-peerkey", montu_public
    ).stdout
    assert len(expected) == ec.get_curve(name).field_bytes

    peer = ec.load_pem(ossl_public.read_bytes())
    assert isinstance(peer, ec.EcPublicKey)
    assert montu_key(name).exchange(peer) == expected
    # OpenSSL with Montu's private key file agrees as well
    assert openssl(
        "pkeyutl", "-derive", "-inkey", montu_private, "-peerkey", ossl_public
    ).stdout == expected


@pytest.mark.parametrize("name", ["P-256", "P-521", "K-283", "B-409"])
def test_ecdh_with_openssls_private_key_file(name: str, work: Path) -> None:
    # the other direction: Montu loads OpenSSL's private key (checking its point is d·G) and
    # derives with Montu's public key (a sample of curves: two more ladders each)
    _sec1, _pkcs8, montu_public = write_montu_key(work, name)
    ossl_private, _ossl_public = openssl_key(work, name)
    expected = openssl(
        "pkeyutl", "-derive", "-inkey", ossl_private, "-peerkey", montu_public
    ).stdout
    ossl_key = ec.load_pem(ossl_private.read_bytes())
    assert isinstance(ossl_key, ec.EcPrivateKey)
    assert ossl_key.exchange(montu_key(name).public_key()) == expected


# ---------------------------------------------------------------------------------------------
# Invalid public keys: refused when loading, so they never reach verify or derive
# ---------------------------------------------------------------------------------------------


def assert_refused(work: Path, name: str, point: tuple[int, int], message: str) -> None:
    curve = ec.get_curve(name)
    path = work / f"bad-{name}-{point[0] % 1000}.pub.pem"
    path.write_bytes(dump_public(curve.oid, point))
    with pytest.raises(ec.InvalidPublicKey, match=message):
        ec.load_pem(path.read_bytes())
    with pytest.raises(ec.InvalidPublicKey, match=message):
        ec.EcPublicKey(curve, *point)
    # OpenSSL refuses the same file (at load or at -pubcheck)
    checked = openssl("pkey", "-pubin", "-in", path, "-pubcheck", "-noout", check=False)
    assert checked.returncode != 0


@pytest.mark.parametrize("name", NIST_CURVES)
def test_off_curve_public_key_is_refused(name: str, work: Path) -> None:
    curve = ec.get_curve(name)
    x, y = montu_key(name).public_key().point
    bad_y = y ^ 1 if curve.is_binary else (y + 1) % curve.modulus
    assert not reference.on_curve(curve, (x, bad_y))
    assert_refused(work, name, (x, bad_y), "not on the curve")


@pytest.mark.parametrize("name", BINARY_CURVES)
def test_small_subgroup_public_keys_are_refused(name: str, work: Path) -> None:
    # T = (0, sqrt(b)) has order 2 on y^2 + xy = x^3 + ax^2 + b (sqrt(b) = b^(2^(m-1))), and
    # G + T has order 2n: both are on the curve, neither is in the subgroup of prime order n.
    curve = ec.get_curve(name)
    m = curve.bits
    t = (0, gf2m.powmod(curve.b, 1 << (m - 1), curve.modulus))
    g_plus_t = reference.add(curve, curve.generator, t)
    assert reference.on_curve(curve, t) and reference.add(curve, t, t) is None
    assert g_plus_t is not None and reference.on_curve(curve, g_plus_t)
    assert_refused(work, name, t, "order 2|subgroup")
    assert_refused(work, name, g_plus_t, "subgroup")


@pytest.mark.parametrize("name", ["P-256", "K-283", "B-163"])
def test_private_key_with_a_wrong_public_point_is_refused(name: str) -> None:
    key = montu_key(name)
    x, y = key.public_key().point
    wrong = reference.neg(key.curve, (x, y))  # on the curve, but -Q, not d·G
    assert wrong is not None
    pem = dump_private(key.curve.oid, key.private_value, wrong)
    with pytest.raises(ec.InvalidPrivateKey, match="not d·G"):
        ec.load_pem(pem)
