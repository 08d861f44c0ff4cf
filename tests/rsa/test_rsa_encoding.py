"""montu.rsa.encoding: OpenSSL's key files load as they are, our files read back (in Montu, in
pyca/cryptography and in `openssl`), and every bad input gets a clear RsaFormatError.

The key files in tests/rsa/data/ were made by OpenSSL 3 with data/make.sh.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from montu.errors import MontuError
from montu.rsa.encoding import (
    RsaFormatError, RsaKeyNumbers, dump_private, dump_public, is_rsa_key, load_key,
)

DATA = Path(__file__).with_name("data")
OPENSSL = shutil.which("openssl")


def read(name: str) -> bytes:
    return (DATA / name).read_bytes()


def numbers_of(key: rsa.RSAPrivateKey) -> RsaKeyNumbers:
    pn = key.private_numbers()
    return RsaKeyNumbers(n=pn.public_numbers.n, e=pn.public_numbers.e, d=pn.d, p=pn.p, q=pn.q,
                         dp=pn.dmp1, dq=pn.dmq1, qinv=pn.iqmp)


@pytest.fixture(scope="module")
def reference() -> RsaKeyNumbers:
    """rsa-genpkey.pem as pyca/cryptography reads it: what every form of it must give."""
    return numbers_of(serialization.load_pem_private_key(read("rsa-genpkey.pem"), None))


PRIVATE_FORMS = ["rsa-genpkey.pem", "rsa-genpkey-pkcs8.der", "rsa-genpkey-pkcs1.der"]
PUBLIC_FORMS = ["rsa-genpkey-pub.pem", "rsa-genpkey-pub-pkcs1.pem", "rsa-genpkey-pub.der",
                "rsa-genpkey-pub-pkcs1.der"]


@pytest.mark.parametrize("name", PRIVATE_FORMS)
def test_openssl_private_keys_load(name, reference):
    k = load_key(read(name))
    assert k == reference and k.is_private and k.bits == 1024
    assert k.n == k.p * k.q and k.e == 65537          # the fields are the right ones
    assert k.dp == k.d % (k.p - 1) and k.dq == k.d % (k.q - 1) and k.qinv * k.q % k.p == 1
    assert is_rsa_key(read(name))


@pytest.mark.parametrize("name", PUBLIC_FORMS)
def test_openssl_public_keys_load(name, reference):
    k = load_key(read(name))
    assert k == RsaKeyNumbers(n=reference.n, e=reference.e)
    assert not k.is_private and k.d is None


@pytest.mark.parametrize("name", ["rsa-genrsa.pem", "rsa-genrsa-traditional.pem", "rsa-e3.pem"])
def test_other_openssl_rsa_files(name):
    text = read(name)
    assert text.startswith(b"-----BEGIN RSA PRIVATE KEY-----" if "traditional" in name
                           else b"-----BEGIN PRIVATE KEY-----")
    k = load_key(text)
    ref = numbers_of(serialization.load_pem_private_key(text, None))
    assert k == ref and k.n == k.p * k.q
    if name == "rsa-e3.pem":
        assert k.e == 3


def test_repr_hides_private_numbers(reference):
    text = repr(reference)
    assert str(reference.n) in text
    for secret in (reference.d, reference.p, reference.q, reference.dp, reference.dq,
                   reference.qinv):
        assert str(secret) not in text


# ------------------------------------------------------------------------------ writing
@pytest.mark.parametrize("fmt,encoding,head", [
    ("pkcs8", "pem", b"-----BEGIN PRIVATE KEY-----\n"),
    ("pkcs1", "pem", b"-----BEGIN RSA PRIVATE KEY-----\n"),
    ("pkcs8", "der", b"\x30"),
    ("pkcs1", "der", b"\x30"),
])
def test_private_round_trip(reference, fmt, encoding, head):
    data = dump_private(reference, fmt=fmt, encoding=encoding)
    assert data.startswith(head)
    assert load_key(data) == reference
    # byte-identical to OpenSSL's own files of the same key
    expected = {("pkcs8", "pem"): "rsa-genpkey.pem", ("pkcs8", "der"): "rsa-genpkey-pkcs8.der",
                ("pkcs1", "der"): "rsa-genpkey-pkcs1.der"}.get((fmt, encoding))
    if expected:
        assert data == read(expected)


@pytest.mark.parametrize("fmt,encoding,expected", [
    ("spki", "pem", "rsa-genpkey-pub.pem"),
    ("pkcs1", "pem", "rsa-genpkey-pub-pkcs1.pem"),
    ("spki", "der", "rsa-genpkey-pub.der"),
    ("pkcs1", "der", "rsa-genpkey-pub-pkcs1.der"),
])
def test_public_round_trip(reference, fmt, encoding, expected):
    data = dump_public(reference.n, reference.e, fmt=fmt, encoding=encoding)
    assert data == read(expected)                     # exactly what OpenSSL writes
    assert load_key(data) == RsaKeyNumbers(reference.n, reference.e)


def test_defaults_are_openssls(reference):
    assert dump_private(reference) == read("rsa-genpkey.pem")                # genpkey: PKCS#8
    assert dump_public(reference.n, reference.e) == read("rsa-genpkey-pub.pem")  # -pubout: SPKI
    assert dump_private(reference, fmt="PKCS1", encoding="PEM").startswith(
        b"-----BEGIN RSA PRIVATE KEY-----")


@pytest.mark.parametrize("bits", [1024, 2048, 1031])   # 3072/4096: test_rsa_openssl.py
def test_round_trips_across_sizes(bits):
    k = numbers_of(rsa.generate_private_key(public_exponent=65537, key_size=bits))
    for fmt in ("pkcs8", "pkcs1"):
        for encoding in ("pem", "der"):
            assert load_key(dump_private(k, fmt, encoding)) == k
    for fmt in ("spki", "pkcs1"):
        for encoding in ("pem", "der"):
            assert load_key(dump_public(k.n, k.e, fmt, encoding)) == RsaKeyNumbers(k.n, k.e)


@pytest.mark.skipif(OPENSSL is None, reason="needs the openssl command")
@pytest.mark.parametrize("fmt", ["pkcs8", "pkcs1"])
def test_openssl_reads_and_checks_our_private_files(tmp_path, reference, fmt):
    for encoding in ("pem", "der"):
        path = tmp_path / f"key.{encoding}"
        path.write_bytes(dump_private(reference, fmt=fmt, encoding=encoding))
        out = subprocess.run([OPENSSL, "rsa", "-check", "-noout", "-inform", encoding.upper(),
                              "-in", str(path)], capture_output=True, text=True)
        assert out.returncode == 0 and "RSA key ok" in out.stdout, out.stderr


@pytest.mark.skipif(OPENSSL is None, reason="needs the openssl command")
def test_openssl_reads_our_public_files(tmp_path, reference):
    for fmt, flag in (("spki", "-pubin"), ("pkcs1", "-RSAPublicKey_in")):
        path = tmp_path / f"{fmt}.pem"
        path.write_bytes(dump_public(reference.n, reference.e, fmt=fmt))
        out = subprocess.run([OPENSSL, "rsa", flag, "-in", str(path), "-noout", "-modulus"],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert int(out.stdout.strip().split("=")[1], 16) == reference.n


# ------------------------------------------------------------------------------ errors
@pytest.mark.parametrize("name,message", [
    ("rsa-encrypted-pkcs8.pem", "encrypted and passwords are not supported"),
    ("rsa-encrypted-pkcs8.der", "encrypted and passwords are not supported"),
    ("rsa-encrypted-pkcs1.pem", "encrypted and passwords are not supported"),
    ("ec-p256.pem", "this is an EC key (curve secp256r1), not RSA"),
    ("ec-p256.der", "this is an EC key (curve secp256r1), not RSA"),
    ("ec-p256-pub.pem", "this is an EC key (curve secp256r1), not RSA"),
    ("ec-p384-sec1.pem", "this is an EC key (curve secp384r1), not RSA"),
    ("ed25519.pem", "this is an Ed25519 key, not RSA"),
    ("ed25519-pub.pem", "this is an Ed25519 key, not RSA"),
    ("x25519.pem", "this is an X25519 key, not RSA"),
    ("dsa.pem", "this is a DSA key, not RSA"),
    ("cert.pem", "this is an X.509 certificate, not a key"),
])
def test_not_usable_files(name, message):
    data = read(name)
    with pytest.raises(RsaFormatError) as exc:
        load_key(data)
    assert message in str(exc.value)
    assert "\n" not in str(exc.value)
    assert isinstance(exc.value, MontuError) and isinstance(exc.value, ValueError)
    assert not is_rsa_key(data)


def test_malformed_inputs(reference):
    good = read("rsa-genpkey.pem")
    lines = good.splitlines(keepends=True)
    cases = {
        b"": "empty input",
        b"  \n": "empty input",
        b"hello world": "not a key",
        b"ssh-rsa AAAAB3NzaC1yc2E montu@test": "OpenSSH public key",
        good[:200]: "malformed PEM",                                   # END line cut off
        lines[0] + b"!!!not base64!!!\n" + lines[-1]: "malformed PEM PRIVATE KEY",
        lines[0] + lines[1] + lines[-1]: "malformed PEM PRIVATE KEY",  # truncated body
        b"-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n": "'FOO' is not a key",
        read("rsa-genpkey-pkcs8.der")[:-10]: "malformed DER",
        b"\x30\x03\x02\x01\x00": "malformed DER",
        read("rsa-genpkey-pkcs8.der") + b"\x00": "malformed DER",
    }
    for data, message in cases.items():
        with pytest.raises(RsaFormatError) as exc:
            load_key(data)
        assert message in str(exc.value), (data[:40], str(exc.value))
        assert not is_rsa_key(data)
    with pytest.raises(RsaFormatError, match="must be bytes"):
        load_key(12345)
    # the next good call still works, and str input is accepted
    assert load_key(good.decode()) == reference


def test_pem_with_text_around_and_several_blocks(reference):
    # openssl x509 -text style prose before the block, and a certificate after it
    data = b"Some comment\n" + read("rsa-genpkey.pem") + read("cert.pem")
    assert load_key(data) == reference


def test_inconsistent_private_key_numbers(reference):
    from dataclasses import replace

    bad = replace(reference, d=reference.d + 2)
    with pytest.raises(RsaFormatError, match="inconsistent") as exc:
        dump_private(bad)
    assert str(bad.d) not in str(exc.value)
    # a file carrying inconsistent numbers (written without validation) is refused on load
    pn = rsa.RSAPrivateNumbers(bad.p, bad.q, bad.d, bad.dp, bad.dq, bad.qinv,
                               rsa.RSAPublicNumbers(bad.e, bad.n))
    key = pn.private_key(unsafe_skip_rsa_key_validation=True)
    for encoding in (serialization.Encoding.PEM, serialization.Encoding.DER):
        data = key.private_bytes(encoding, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())
        with pytest.raises(RsaFormatError, match="inconsistent") as exc:
            load_key(data)
        assert str(bad.d) not in str(exc.value) and str(bad.p) not in str(exc.value)


def test_dump_errors(reference):
    with pytest.raises(RsaFormatError, match="without p, q, dp, dq, qinv"):
        dump_private(RsaKeyNumbers(reference.n, reference.e, reference.d))
    with pytest.raises(RsaFormatError, match="without d, p, q, dp, dq, qinv"):
        dump_private(RsaKeyNumbers(reference.n, reference.e))
    with pytest.raises(RsaFormatError, match="unknown private key format 'spki'"):
        dump_private(reference, fmt="spki")
    with pytest.raises(RsaFormatError, match="unknown public key format 'pkcs8'"):
        dump_public(reference.n, reference.e, fmt="pkcs8")
    with pytest.raises(RsaFormatError, match="unknown encoding 'base64'"):
        dump_public(reference.n, reference.e, encoding="base64")
    with pytest.raises(RsaFormatError, match="not a valid RSA public key"):
        dump_public(reference.n + 1, reference.e)        # even modulus
    with pytest.raises(RsaFormatError, match="not a valid RSA public key"):
        dump_public(reference.n, 1)


# ------------------------------------------------------------------ review item 4: bad input
def test_oversized_and_pathological_pem_is_refused_quickly(reference):
    import time

    from montu.errors import MAX_KEY_BYTES

    with pytest.raises(RsaFormatError, match="at most 1 MiB"):
        load_key(read("rsa-genpkey.pem") + b"\n" * MAX_KEY_BYTES)
    # many BEGIN lines without an END: the old non-greedy regex was quadratic (minutes at 1 MiB)
    start = time.perf_counter()
    with pytest.raises(RsaFormatError, match="without its matching"):
        load_key(b"-----BEGIN PRIVATE KEY-----\n" * (MAX_KEY_BYTES // 28))
    assert time.perf_counter() - start < 0.5
    assert load_key(read("rsa-genpkey.pem")) == reference          # the next good call works


@pytest.fixture(scope="module")
def openssl_keys(tmp_path_factory) -> Path:
    """RSA-PSS keys (without and with parameters) and a 3-prime key, made by openssl."""
    if OPENSSL is None:
        pytest.skip("needs the openssl command")
    d = tmp_path_factory.mktemp("rsa-keys")
    made = {"pss.pem": ["-algorithm", "RSA-PSS"],
            "pss-sha384.pem": ["-algorithm", "RSA-PSS", "-pkeyopt", "rsa_pss_keygen_md:sha384",
                               "-pkeyopt", "rsa_pss_keygen_mgf1_md:sha384",
                               "-pkeyopt", "rsa_pss_keygen_saltlen:24"],
            "three-primes.pem": ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_primes:3"]}
    for name, args in made.items():
        subprocess.run([OPENSSL, "genpkey", *args, "-pkeyopt", "rsa_keygen_bits:1024", "-out",
                        str(d / name)], check=True, capture_output=True)
    for name in ("pss", "pss-sha384"):
        subprocess.run([OPENSSL, "pkey", "-in", str(d / f"{name}.pem"), "-pubout", "-out",
                        str(d / f"{name}-pub.pem")], check=True, capture_output=True)
    subprocess.run([OPENSSL, "rsa", "-in", str(d / "three-primes.pem"), "-traditional", "-outform",
                    "DER", "-out", str(d / "three-primes.der")], check=True, capture_output=True)
    return d


def test_rsa_pss_keys_load_with_their_restriction_and_are_written_back_with_it(openssl_keys):
    from montu.rsa.encoding import PssRestriction

    unrestricted = load_key((openssl_keys / "pss.pem").read_bytes())
    assert unrestricted.pss == PssRestriction()
    restricted = load_key((openssl_keys / "pss-sha384.pem").read_bytes())
    assert (restricted.pss.hash, restricted.pss.mgf1_hash, restricted.pss.min_salt_length) == \
        ("sha384", "sha384", 24)
    for name, numbers in (("pss", unrestricted), ("pss-sha384", restricted)):
        assert load_key((openssl_keys / f"{name}-pub.pem").read_bytes()).pss == numbers.pss
        assert dump_private(numbers) == (openssl_keys / f"{name}.pem").read_bytes()
        assert dump_public(numbers.n, numbers.e, pss=numbers.pss) == \
            (openssl_keys / f"{name}-pub.pem").read_bytes()
        with pytest.raises(RsaFormatError, match="only be written as PKCS#8"):
            dump_private(numbers, fmt="pkcs1")
        with pytest.raises(RsaFormatError, match="only be written as SubjectPublicKeyInfo"):
            dump_public(numbers.n, numbers.e, fmt="pkcs1", pss=numbers.pss)
    assert load_key(read("rsa-genpkey.pem")).pss is None


@pytest.mark.parametrize("name", ["three-primes.pem", "three-primes.der"])
def test_multi_prime_keys_are_named_as_such(openssl_keys, name):
    with pytest.raises(RsaFormatError, match="multi-prime RSA key.*not supported"):
        load_key((openssl_keys / name).read_bytes())
