"""RFC 8017 encodings of montu.rsa.padding against pyca/cryptography (OpenSSL) and the PKCS #1
v2.1 example vectors.

The unit does the modular arithmetic in the library; here the TESTS do it with Python's pow to
open up cryptography's signatures and ciphertexts: EM = s^e mod n must equal our encoding, and
our encoding raised to d must verify/decrypt in cryptography.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from asn1crypto.algos import DigestInfo
from asn1crypto.core import Null
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding as cpad
from cryptography.hazmat.primitives.asymmetric import rsa
from hypothesis import given, settings
from hypothesis import strategies as st

from montu.errors import MontuError
from montu.rsa.padding import (
    HASHES, RsaDecryptionError, RsaPaddingError, emsa_pkcs1_v15_encode,
    emsa_pkcs1_v15_encode_digest, emsa_pss_encode, emsa_pss_encode_digest, emsa_pss_verify,
    emsa_pss_verify_digest, hash_info, mgf1, oaep_decode, oaep_encode, oaep_max_message_length,
    pss_max_salt_length, pss_min_modulus_bits,
)

def _load_cavp():
    """tests/rsa/cavp.py under a name of its own (tests/ has no packages; avoids clashes)."""
    if "montu_tests_rsa_cavp" not in sys.modules:
        spec = importlib.util.spec_from_file_location("montu_tests_rsa_cavp",
                                                      Path(__file__).with_name("cavp.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return sys.modules["montu_tests_rsa_cavp"]


cavp = _load_cavp()

HASH_NAMES = ["sha1", "sha224", "sha256", "sha384", "sha512"]
CHASH = {"sha1": hashes.SHA1, "sha224": hashes.SHA224, "sha256": hashes.SHA256,
         "sha384": hashes.SHA384, "sha512": hashes.SHA512}
MSG = b"Montu: the quick brown fox jumps over the lazy dog"


@lru_cache(maxsize=None)
def key(bits: int) -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=bits)


def numbers(bits: int) -> tuple[int, int, int]:
    priv = key(bits).private_numbers()
    return priv.public_numbers.n, priv.public_numbers.e, priv.d


def i2osp(x: int, length: int) -> bytes:
    return x.to_bytes(length, "big")


def os2ip(b: bytes) -> int:
    return int.from_bytes(b, "big")


def private_op(c: int, k) -> int:
    """c^d mod n in the test, by CRT (Garner) with the vector key's p, q, dp, dq, qinv."""
    m1, m2 = pow(c, k.dp, k.p), pow(c, k.dq, k.q)
    return m2 + k.q * ((m1 - m2) * k.qinv % k.p)


# ------------------------------------------------------------------------------ hashes
def test_hash_table_and_digest_info_prefixes():
    assert list(HASHES) == HASH_NAMES
    for name in HASH_NAMES:
        info = hash_info(name)
        assert hash_info(name.upper()) is info
        assert hash_info(name.upper().replace("SHA", "SHA-")) is info
        digest = info.digest(MSG)
        assert len(digest) == info.digest_size
        # an independent DER encoder must give the same DigestInfo
        der = DigestInfo({"digest_algorithm": {"algorithm": name, "parameters": Null()},
                          "digest": digest}).dump()
        assert der == info.digest_info_prefix + digest


@pytest.mark.parametrize("bad", ["md5", "sha3_256", "", "sha", 256])
def test_unknown_hash(bad):
    with pytest.raises(RsaPaddingError, match="unknown hash") as exc:
        hash_info(bad)
    assert isinstance(exc.value, MontuError) and isinstance(exc.value, ValueError)
    with pytest.raises(RsaPaddingError, match="unknown hash"):
        emsa_pkcs1_v15_encode(MSG, bad, 256)
    with pytest.raises(RsaPaddingError, match="unknown hash"):
        oaep_decode(b"\x00" * 256, 256, bad)


def test_mgf1_matches_rfc_construction():
    # MGF1 = Hash(seed||0) || Hash(seed||1) ..., checked on a length that cuts a block
    seed = b"seed"
    h = hash_info("sha256")
    expect = h.digest(seed + b"\0\0\0\0") + h.digest(seed + b"\0\0\0\1")
    assert mgf1(seed, 40, "sha256") == expect[:40]
    assert mgf1(seed, 0, "sha256") == b""


# ------------------------------------------------------------------- EMSA-PKCS1-v1_5
@pytest.mark.parametrize("bits", [1024, 2048, 1025, 2047])
@pytest.mark.parametrize("hash", HASH_NAMES)
def test_pkcs1_v15_encoding_equals_cryptography_signature(bits, hash):
    n, e, _ = numbers(bits)
    k = (bits + 7) // 8
    sig = key(bits).sign(MSG, cpad.PKCS1v15(), CHASH[hash]())
    em = emsa_pkcs1_v15_encode(MSG, hash, k)
    assert len(em) == k
    assert em == i2osp(pow(os2ip(sig), e, n), k)
    assert emsa_pkcs1_v15_encode_digest(hash_info(hash).digest(MSG), hash, k) == em
    assert emsa_pkcs1_v15_encode(MSG + b"!", hash, k) != em


def test_pkcs1_v15_key_too_small():
    # sha512: DigestInfo is 19 + 64 = 83 bytes, so the key needs 94 bytes
    assert len(emsa_pkcs1_v15_encode(MSG, "sha512", 94)) == 94
    with pytest.raises(RsaPaddingError, match="intended encoded message length too short"):
        emsa_pkcs1_v15_encode(MSG, "sha512", 93)
    with pytest.raises(RsaPaddingError, match="has 32 bytes"):
        emsa_pkcs1_v15_encode_digest(b"\0" * 31, "sha256", 256)
    with pytest.raises(RsaPaddingError, match="positive integer"):
        emsa_pkcs1_v15_encode(MSG, "sha256", 0)


def test_pkcs1_v15_vectors_file():
    # pkcs1v15sign-vectors.txt (15 keys, 1024-2048 bits, SHA-1): s^e mod n must be our encoding
    examples = cavp.read_pkcs1_examples(cavp.RSA_VECTORS / "pkcs1v15sign-vectors.txt")
    assert len(examples) == 300
    for ex in examples:
        k = (ex.key.n.bit_length() + 7) // 8
        em = i2osp(pow(os2ip(ex.fields["Signature"]), ex.key.e, ex.key.n), k)
        assert emsa_pkcs1_v15_encode(ex.fields["Message to be signed"], "sha1", k) == em, ex.name


# ---------------------------------------------------------------------------- EMSA-PSS
@pytest.mark.parametrize("bits", [1024, 1025, 2048, 2047])
@pytest.mark.parametrize("hash", HASH_NAMES)
def test_pss_verify_accepts_cryptography_signatures(bits, hash):
    n, e, _ = numbers(bits)
    k = (bits + 7) // 8
    em_bits = bits - 1
    for salt_len in (0, 20, pss_max_salt_length(em_bits, hash)):
        sig = key(bits).sign(MSG, cpad.PSS(cpad.MGF1(CHASH[hash]()), salt_len), CHASH[hash]())
        em = i2osp(pow(os2ip(sig), e, n), k)       # k bytes: a leading 0 when bits ≡ 1 mod 8
        assert emsa_pss_verify(MSG, em, em_bits, hash)                  # auto salt length
        assert emsa_pss_verify(MSG, em, em_bits, hash, salt_length=salt_len)
        assert not emsa_pss_verify(MSG, em, em_bits, hash, salt_length=salt_len + 1)
        if salt_len:
            assert not emsa_pss_verify(MSG, em, em_bits, hash, salt_length=salt_len - 1)
        assert not emsa_pss_verify(MSG + b"x", em, em_bits, hash)
        assert emsa_pss_verify_digest(hash_info(hash).digest(MSG), em, em_bits, hash)


@pytest.mark.parametrize("bits", [1024, 1025, 2048, 2047])
@pytest.mark.parametrize("hash", HASH_NAMES)
def test_pss_encoding_verifies_in_cryptography(bits, hash):
    n, _, d = numbers(bits)
    em_bits = bits - 1
    salt = bytes(range(32))
    em = emsa_pss_encode(MSG, hash, em_bits, salt)
    assert len(em) == (em_bits + 7) // 8
    assert emsa_pss_encode_digest(hash_info(hash).digest(MSG), hash, em_bits, salt) == em
    sig = i2osp(pow(os2ip(em), d, n), (bits + 7) // 8)
    key(bits).public_key().verify(sig, MSG, cpad.PSS(cpad.MGF1(CHASH[hash]()), len(salt)),
                                  CHASH[hash]())
    assert emsa_pss_verify(MSG, em, em_bits, hash, salt_length=32)


def test_pss_vectors_pkcs1_v21():
    examples = cavp.read_pkcs1_examples(cavp.RSA_VECTORS / "pkcs-1v2-1d2-vec" / "pss-vect.txt")
    assert len(examples) == 60
    for ex in examples:
        n, e = ex.key.n, ex.key.e
        msg, salt, sig = (ex.fields[f] for f in ("Message to be signed", "Salt", "Signature"))
        em_bits = n.bit_length() - 1
        em = emsa_pss_encode(msg, "sha1", em_bits, salt)
        assert i2osp(pow(os2ip(em), ex.key.d, n), len(sig)) == sig, ex.name
        opened = i2osp(pow(os2ip(sig), e, n), len(sig))
        assert emsa_pss_verify(msg, opened, em_bits, "sha1"), ex.name
        assert emsa_pss_verify(msg, opened, em_bits, "sha1", salt_length=len(salt)), ex.name


def _pss_em(em_bits: int = 1023, hash: str = "sha256", salt: bytes = b"s" * 20) -> bytes:
    return emsa_pss_encode(MSG, hash, em_bits, salt)


def _remask(db: bytes, h: bytes, em_bits: int, hash: str = "sha256") -> bytes:
    masked = bytearray(x ^ y for x, y in zip(db, mgf1(h, len(db), hash)))
    masked[0] &= 0xFF >> (8 * len(db + h + b"x") - em_bits)
    return bytes(masked)


def _pss_parts(em: bytes, hash: str = "sha256") -> tuple[bytes, bytes]:
    h_len = hash_info(hash).digest_size
    masked_db, h = em[: -h_len - 1], em[-h_len - 1: -1]
    db = bytes(x ^ y for x, y in zip(masked_db, mgf1(h, len(masked_db), hash)))
    return db, h


def test_pss_verify_rejects_malformed_encodings():
    em_bits = 1023   # a 1024-bit key: emLen = 128, one spare top bit
    em = _pss_em(em_bits)
    assert emsa_pss_verify(MSG, em, em_bits, "sha256")
    db, h = _pss_parts(em)
    db = bytes([db[0] & 0x7F]) + db[1:]
    assert emsa_pss_verify(MSG, _remask(db, h, em_bits) + h + b"\xbc", em_bits, "sha256")

    bad = {
        "trailer": em[:-1] + b"\xbd",
        "top bit set": bytes([em[0] | 0x80]) + em[1:],
        "H changed": em[:-2] + bytes([em[-2] ^ 1]) + em[-1:],
        "salt changed": em[:-60] + bytes([em[-60] ^ 1]) + em[-59:],
        "PS non-zero": _remask(b"\x01" + db[1:], h, em_bits) + h + b"\xbc",
        "no 0x01 separator": _remask(db.replace(b"\x01", b"\x02", 1), h, em_bits) + h + b"\xbc",
        "all-zero DB": _remask(bytes(len(db)), h, em_bits) + h + b"\xbc",
        "too short": em[1:],
        "non-zero extra leading byte": b"\x01" + em,
        "empty": b"",
    }
    for what, enc in bad.items():
        assert not emsa_pss_verify(MSG, enc, em_bits, "sha256"), what
        assert not emsa_pss_verify(MSG, enc, em_bits, "sha256", salt_length=20), what
    # a k-byte I2OSP output with leading zeros is the same encoding
    assert emsa_pss_verify(MSG, b"\x00\x00" + em, em_bits, "sha256")
    # a salt length that cannot fit is an inconsistency, not an exception
    assert not emsa_pss_verify(MSG, em, em_bits, "sha256", salt_length=10_000)
    with pytest.raises(RsaPaddingError, match="salt_length"):
        emsa_pss_verify(MSG, em, em_bits, "sha256", salt_length=-1)


def test_pss_key_too_small_for_salt():
    em_bits = 1023
    assert pss_max_salt_length(em_bits, "sha512") == 128 - 64 - 2
    emsa_pss_encode(MSG, "sha512", em_bits, b"x" * 62)
    with pytest.raises(RsaPaddingError, match="max salt 62 bytes"):
        emsa_pss_encode(MSG, "sha512", em_bits, b"x" * 63)
    with pytest.raises(RsaPaddingError, match="has 64 bytes"):
        emsa_pss_encode_digest(b"short", "sha512", em_bits, b"")


# ---------------------------------------------------------------------------- EME-OAEP
def _oaep(hash: str, mgf: str | None = None, label: bytes | None = None) -> cpad.OAEP:
    return cpad.OAEP(cpad.MGF1(CHASH[mgf or hash]()), CHASH[hash](), label or None)


@pytest.mark.parametrize("bits", [1024, 2048, 1025])
@pytest.mark.parametrize("hash", HASH_NAMES)
def test_oaep_interop_with_cryptography(bits, hash):
    n, e, d = numbers(bits)
    k = (bits + 7) // 8
    if oaep_max_message_length(k, hash) < 0:
        with pytest.raises(RsaPaddingError, match="too small for RSA-OAEP"):
            oaep_encode(b"", k, hash)
        return
    msg = MSG[: oaep_max_message_length(k, hash)]
    for label in (b"", b"montu label"):
        # ours -> cryptography
        em = oaep_encode(msg, k, hash, label)
        assert len(em) == k and em[0] == 0
        c = i2osp(pow(os2ip(em), e, n), k)
        assert key(bits).decrypt(c, _oaep(hash, label=label)) == msg
        # cryptography -> ours
        c = key(bits).public_key().encrypt(msg, _oaep(hash, label=label))
        assert oaep_decode(i2osp(pow(os2ip(c), d, n), k), k, hash, label) == msg


def test_oaep_randomised_and_seeded():
    k = 256
    assert oaep_encode(MSG, k, "sha256") != oaep_encode(MSG, k, "sha256")
    seed = bytes(32)
    assert oaep_encode(MSG, k, "sha256", seed=seed) == oaep_encode(MSG, k, "sha256", seed=seed)
    with pytest.raises(RsaPaddingError, match="seed has 32 bytes"):
        oaep_encode(MSG, k, "sha256", seed=bytes(20))


@pytest.mark.parametrize("name", ["pkcs-1v2-1d2-vec/oaep-vect.txt"]
                         + [f"oaep-custom/{p.name}" for p in
                            sorted((cavp.RSA_VECTORS / "oaep-custom").glob("*.txt"))])
def test_oaep_vectors(name):
    examples = cavp.read_pkcs1_examples(cavp.RSA_VECTORS / name)
    assert examples
    for ex in examples:
        hash, mgf = ex.hashes
        n = ex.key.n
        k = (n.bit_length() + 7) // 8
        msg, c = ex.fields["Message"], ex.fields["Encryption"]
        em = i2osp(private_op(os2ip(c), ex.key), k)
        if ex.name.endswith(".1") or ex.name.startswith("OAEP Example 1 "):
            assert em == i2osp(pow(os2ip(c), ex.key.d, n), k)   # CRT agrees with plain d
        assert oaep_decode(em, k, hash, mgf1_hash=mgf) == msg, ex.name
        if "Seed" in ex.fields:   # the RFC examples give the seed: the encoding is exact
            assert oaep_encode(msg, k, hash, seed=ex.fields["Seed"], mgf1_hash=mgf) == em
        with pytest.raises(RsaDecryptionError):
            oaep_decode(em, k, hash, label=b"x", mgf1_hash=mgf)


@settings(max_examples=100, deadline=None)
@given(hash=st.sampled_from(HASH_NAMES), k=st.integers(130, 520), data=st.data())
def test_oaep_round_trip(hash, k, data):
    max_len = oaep_max_message_length(k, hash)
    msg = data.draw(st.binary(max_size=max_len))
    label = data.draw(st.binary(max_size=40))
    em = oaep_encode(msg, k, hash, label)
    assert oaep_decode(em, k, hash, label) == msg
    wrong = data.draw(st.binary(max_size=40).filter(lambda x: x != label))
    with pytest.raises(RsaDecryptionError, match="^decryption failed$"):
        oaep_decode(em, k, hash, wrong)


@pytest.mark.parametrize("hash", HASH_NAMES)
def test_oaep_too_long(hash):
    k = 256
    max_len = k - 2 * hash_info(hash).digest_size - 2
    assert oaep_max_message_length(k, hash) == max_len
    assert oaep_decode(oaep_encode(b"m" * max_len, k, hash), k, hash) == b"m" * max_len
    with pytest.raises(RsaPaddingError, match=f"message too long for RSA-OAEP with this key "
                                              f"and hash: max {max_len} bytes"):
        oaep_encode(b"m" * (max_len + 1), k, hash)


def test_oaep_key_too_small():
    with pytest.raises(RsaPaddingError, match="too small for RSA-OAEP with sha512"):
        oaep_encode(b"", 129, "sha512")
    with pytest.raises(RsaPaddingError, match="too small for RSA-OAEP with sha512"):
        oaep_decode(bytes(129), 129, "sha512")
    assert oaep_encode(b"", 130, "sha512")[0] == 0


def _oaep_em(db: bytes, seed: bytes, hash: str = "sha256", y: int = 0) -> bytes:
    h_len = hash_info(hash).digest_size
    masked_db = bytes(a ^ b for a, b in zip(db, mgf1(seed, len(db), hash)))
    masked_seed = bytes(a ^ b for a, b in zip(seed, mgf1(masked_db, h_len, hash)))
    return bytes([y]) + masked_seed + masked_db


def test_oaep_decode_every_failure_is_the_same_error():
    k, hash = 128, "sha256"
    l_hash = hash_info(hash).digest(b"")
    seed = b"\x5a" * 32
    ps = bytes(k - 2 * 32 - 2 - 5)
    good_db = l_hash + ps + b"\x01" + b"hello"
    assert oaep_decode(_oaep_em(good_db, seed), k, hash) == b"hello"
    # a message that itself starts with 0x00 and 0x01 bytes survives (first 0x01 separates)
    db = l_hash + ps[2:] + b"\x01" + b"\x00\x01hello"
    assert oaep_decode(_oaep_em(db, seed), k, hash) == b"\x00\x01hello"
    # an empty message: the 0x01 is the last byte of DB
    db = l_hash + bytes(k - 2 * 32 - 2) + b"\x01"
    assert oaep_decode(_oaep_em(db, seed), k, hash) == b""

    bad = {
        "Y non-zero": _oaep_em(good_db, seed, y=1),
        "lHash wrong": _oaep_em(bytes([l_hash[0] ^ 1]) + good_db[1:], seed),
        "garbage in PS": _oaep_em(l_hash + ps[:-1] + b"\x02" + b"\x01hello", seed),
        "first PS byte non-zero": _oaep_em(l_hash + b"\x07" + ps[1:] + b"\x01hello", seed),
        "no separator": _oaep_em(l_hash + bytes(k - 2 * 32 - 1), seed),
        "separator 0x02": _oaep_em(l_hash + ps + b"\x02hello", seed),
        "too short": _oaep_em(good_db, seed)[1:],
        "too long": b"\x00" + _oaep_em(good_db, seed),
        "all zero": bytes(k),
    }
    for what, em in bad.items():
        with pytest.raises(RsaDecryptionError) as exc:
            oaep_decode(em, k, hash)
        assert str(exc.value) == "decryption failed", what
        assert isinstance(exc.value, MontuError) and isinstance(exc.value, ValueError)
    # after a failure the next good decode still works
    assert oaep_decode(_oaep_em(good_db, seed), k, hash) == b"hello"


def test_oaep_decode_does_the_same_work_for_every_encoding(monkeypatch):
    """No early exit: the byte comparisons made are the same for a good encoding and for each
    bad one (a counting stand-in for the branch-free byte compare)."""
    import montu.rsa.padding as padding

    calls = 0
    real = padding._byte_eq

    def counting(a: int, b: int) -> int:
        nonlocal calls
        calls += 1
        return real(a, b)

    monkeypatch.setattr(padding, "_byte_eq", counting)
    k, hash = 128, "sha256"
    l_hash = hash_info(hash).digest(b"")
    seed = b"\x33" * 32
    ps = bytes(k - 2 * 32 - 2 - 5)
    encodings = [
        _oaep_em(l_hash + ps + b"\x01hello", seed),                       # good
        _oaep_em(l_hash + ps + b"\x01hello", seed, y=9),                  # Y ≠ 0
        _oaep_em(bytes(32) + ps + b"\x01hello", seed),                    # lHash
        _oaep_em(l_hash + b"\x05" + ps[1:] + b"\x01hello", seed),         # PS, first byte
        _oaep_em(l_hash + bytes(k - 2 * 32 - 1), seed),                   # no separator
        _oaep_em(l_hash + b"\x01" + bytes(k - 2 * 32 - 2), seed),         # separator first
    ]
    counts = []
    for em in encodings:
        calls = 0
        try:
            oaep_decode(em, k, hash)
        except RsaDecryptionError:
            pass
        counts.append(calls)
    assert len(set(counts)) == 1 and counts[0] > k - 32, counts


def test_oaep_label_vector_boringssl():
    # oaep-label.txt: a PKCS#8 key, OAEP-SHA512 with a label (BoringSSL's evp_tests)
    from cryptography.hazmat.primitives.serialization import load_der_private_key

    fields = dict(line.split(" = ", 1) for line in
                  (cavp.RSA_VECTORS / "oaep-label.txt").read_text().splitlines()
                  if " = " in line)
    priv = load_der_private_key(bytes.fromhex(fields["KEY"]), None).private_numbers()
    n, d = priv.public_numbers.n, priv.d
    k = (n.bit_length() + 7) // 8
    em = i2osp(pow(os2ip(bytes.fromhex(fields["Input"])), d, n), k)
    label = bytes.fromhex(fields["OAEPLabel"])
    assert fields["OAEPDigest"] == "SHA512"
    assert oaep_decode(em, k, "sha512", label) == fields["Output"].strip('"').encode()
    with pytest.raises(RsaDecryptionError):
        oaep_decode(em, k, "sha512")


def test_pss_min_modulus_bits_is_the_edge_of_what_fits():
    for hash_name, info in HASHES.items():
        for salt_length in (0, info.digest_size):
            bits = pss_min_modulus_bits(hash_name, salt_length)
            assert pss_max_salt_length(bits - 1, hash_name) == salt_length
            assert pss_max_salt_length(bits - 2, hash_name) < salt_length
    assert pss_min_modulus_bits("sha512") == 522
    with pytest.raises(RsaPaddingError, match="512-bit key is too small for RSA-PSS with sha512 "
                                              "and an empty salt: it needs at least 522 bits"):
        emsa_pss_encode(b"m", "sha512", 511, b"")


def test_pss_verify_can_demand_a_minimum_salt_length():
    em = emsa_pss_encode(b"m", "sha256", 1023, bytes(20))
    assert emsa_pss_verify(b"m", em, 1023, "sha256")
    assert emsa_pss_verify_digest(hash_info("sha256").digest(b"m"), em, 1023, "sha256",
                                  min_salt_length=20)
    assert not emsa_pss_verify_digest(hash_info("sha256").digest(b"m"), em, 1023, "sha256",
                                      min_salt_length=21)
