"""Host-side RSA message encodings of RFC 8017 (PKCS #1 v2.2): EMSA-PKCS1-v1_5, EMSA-PSS with
MGF1, and EME-OAEP.

These are byte manipulations and hashes only; every modular operation (s = m^d mod n and
m = s^e mod n) runs on the unit, in `montu.rsa`. The functions here sit on either side of it:

    sign:    em = emsa_pkcs1_v15_encode(msg, "sha256", k)         -> unit: s = em^d mod n
    verify:  unit: em = s^e mod n -> emsa_pss_verify(msg, em, mod_bits - 1, "sha256")
    encrypt: em = oaep_encode(msg, k, "sha256")                   -> unit: c = em^e mod n
    decrypt: unit: em = c^d mod n -> oaep_decode(em, k, "sha256")

k is the modulus length in bytes; PSS works on em_bits = bits(n) - 1 (RFC 8017 §8.1.1), so its
encoded message has ⌈em_bits/8⌉ bytes, one fewer than k when bits(n) ≡ 1 (mod 8).

Hash names are "sha1", "sha224", "sha256", "sha384", "sha512" (case and a dash are ignored, so
the CAVP spelling "SHA256" and "SHA-256" work too). MGF1 always uses the same hash as the
scheme, which is what `openssl pkeyutl -pkeyopt rsa_oaep_md:sha256` and
`openssl dgst -sigopt rsa_padding_mode:pss` do when no separate MGF1 digest is given; `mgf1_hash`
overrides it for interoperating with peers that split them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from montu.errors import MontuError

__all__ = [
    "HASHES", "HashInfo", "RsaDecryptionError", "RsaPaddingError", "emsa_pkcs1_v15_encode",
    "emsa_pkcs1_v15_encode_digest", "emsa_pss_encode", "emsa_pss_encode_digest",
    "emsa_pss_verify", "emsa_pss_verify_digest", "hash_info", "mgf1", "oaep_decode",
    "oaep_encode", "oaep_max_message_length", "pss_max_salt_length", "pss_min_modulus_bits",
]


class RsaPaddingError(MontuError, ValueError):
    """A message cannot be encoded: unknown hash, key too small, message too long, bad salt."""


class RsaDecryptionError(MontuError, ValueError):
    """An RSA ciphertext did not decrypt to a well-formed encoding.

    The message is always the same ("decryption failed"), whatever was wrong, so that a caller
    who shows it reveals nothing about where the padding broke (Manger's and Bleichenbacher's
    attacks feed on exactly that difference).
    """

    def __init__(self, message: str = "decryption failed"):
        super().__init__(message)


@dataclass(frozen=True)
class HashInfo:
    """A hash function as PKCS #1 uses it."""

    name: str                 # hashlib name: "sha256"
    digest_size: int          # hLen, bytes
    digest_info_prefix: bytes  # DER of DigestInfo up to the digest (RFC 8017 §9.2 note 1)

    def digest(self, data: bytes) -> bytes:
        return hashlib.new(self.name, data).digest()


# DER prefixes of DigestInfo ::= SEQUENCE { AlgorithmIdentifier {oid, NULL}, OCTET STRING }, as
# printed in RFC 8017 §9.2, note 1: the digest follows each prefix.
HASHES: dict[str, HashInfo] = {
    info.name: info
    for info in (
        HashInfo("sha1", 20, bytes.fromhex("3021300906052b0e03021a05000414")),
        HashInfo("sha224", 28, bytes.fromhex("302d300d06096086480165030402040500041c")),
        HashInfo("sha256", 32, bytes.fromhex("3031300d060960864801650304020105000420")),
        HashInfo("sha384", 48, bytes.fromhex("3041300d060960864801650304020205000430")),
        HashInfo("sha512", 64, bytes.fromhex("3051300d060960864801650304020305000440")),
    )
}


def hash_info(name: str) -> HashInfo:
    """The HashInfo of `name` ("sha256", "SHA256", "SHA-256", ...); RsaPaddingError if unknown."""
    key = name.lower().replace("-", "") if isinstance(name, str) else name
    try:
        return HASHES[key]
    except (KeyError, TypeError):
        raise RsaPaddingError(f"unknown hash {name!r} for RSA: choose one of "
                              f"{', '.join(HASHES)}") from None


# ---------------------------------------------------------------------------------- helpers
def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


def mgf1(seed: bytes, length: int, hash: str) -> bytes:
    """MGF1 of RFC 8017 §B.2.1: Hash(seed || C) for C = 0, 1, ... (4-byte counters), cut to
    `length` bytes."""
    info = hash_info(hash)
    blocks = -(-length // info.digest_size)
    return b"".join(info.digest(seed + c.to_bytes(4, "big")) for c in range(blocks))[:length]


def _check_length(name: str, value: int) -> None:
    if not isinstance(value, int) or value < 1:
        raise RsaPaddingError(f"{name} must be a positive integer (got {value!r})")


# -------------------------------------------------------------------- EMSA-PKCS1-v1_5 (§9.2)
def emsa_pkcs1_v15_encode(message: bytes, hash: str, em_len: int) -> bytes:
    """EM = 0x00 01 FF..FF 00 || DigestInfo(Hash(message)), em_len bytes (em_len = k)."""
    return emsa_pkcs1_v15_encode_digest(hash_info(hash).digest(message), hash, em_len)


def emsa_pkcs1_v15_encode_digest(digest: bytes, hash: str, em_len: int) -> bytes:
    """EMSA-PKCS1-v1_5 from a digest already computed with `hash`."""
    info = hash_info(hash)
    _check_length("em_len", em_len)
    if len(digest) != info.digest_size:
        raise RsaPaddingError(f"a {info.name} digest has {info.digest_size} bytes "
                              f"(got {len(digest)})")
    t = info.digest_info_prefix + digest
    if em_len < len(t) + 11:
        raise RsaPaddingError(f"intended encoded message length too short: a {em_len * 8}-bit "
                              f"key cannot carry a PKCS#1 v1.5 {info.name} signature "
                              f"(needs at least {(len(t) + 11) * 8} bits)")
    return b"\x00\x01" + b"\xff" * (em_len - len(t) - 3) + b"\x00" + t


# -------------------------------------------------------------------------- EMSA-PSS (§9.1)
def _em_len(em_bits: int) -> int:
    _check_length("em_bits", em_bits)
    return -(-em_bits // 8)


def pss_max_salt_length(em_bits: int, hash: str) -> int:
    """The longest salt EMSA-PSS fits in em_bits (OpenSSL's "max" salt length when signing)."""
    return _em_len(em_bits) - hash_info(hash).digest_size - 2


def pss_min_modulus_bits(hash: str, salt_length: int = 0) -> int:
    """The smallest modulus that carries an EMSA-PSS encoding with this hash and salt length:
    emLen = ⌈(bits − 1)/8⌉ must reach hLen + sLen + 2 (RFC 8017 §9.1.1 step 3)."""
    return 8 * (hash_info(hash).digest_size + salt_length + 1) + 2


def _pss_key_too_small(em_bits: int, info: HashInfo, salt_length: int) -> RsaPaddingError:
    salt = "an empty salt" if salt_length == 0 else f"a {salt_length}-byte salt"
    return RsaPaddingError(f"a {em_bits + 1}-bit key is too small for RSA-PSS with {info.name} "
                           f"and {salt}: it needs at least "
                           f"{pss_min_modulus_bits(info.name, salt_length)} bits")


def emsa_pss_encode(message: bytes, hash: str, em_bits: int, salt: bytes) -> bytes:
    """EMSA-PSS-ENCODE (RFC 8017 §9.1.1) with MGF1 over the same hash; em_bits = bits(n) - 1."""
    return emsa_pss_encode_digest(hash_info(hash).digest(message), hash, em_bits, salt)


def emsa_pss_encode_digest(m_hash: bytes, hash: str, em_bits: int, salt: bytes,
                           *, mgf1_hash: str | None = None) -> bytes:
    """EMSA-PSS from mHash = Hash(M) (the CAVP and `openssl pkeyutl` view of a signature)."""
    info = hash_info(hash)
    em_len = _em_len(em_bits)
    h_len, s_len = info.digest_size, len(salt)
    if len(m_hash) != h_len:
        raise RsaPaddingError(f"a {info.name} digest has {h_len} bytes (got {len(m_hash)})")
    if em_len < h_len + 2:
        raise _pss_key_too_small(em_bits, info, 0)
    if em_len < h_len + s_len + 2:
        raise RsaPaddingError(f"encoding error: a {em_bits + 1}-bit key cannot carry a PSS "
                              f"{info.name} signature with a {s_len}-byte salt "
                              f"(max salt {em_len - h_len - 2} bytes)")
    h = info.digest(b"\x00" * 8 + m_hash + salt)
    db = b"\x00" * (em_len - s_len - h_len - 2) + b"\x01" + salt
    masked_db = bytearray(_xor(db, mgf1(h, em_len - h_len - 1, mgf1_hash or info.name)))
    masked_db[0] &= 0xFF >> (8 * em_len - em_bits)
    return bytes(masked_db) + h + b"\xbc"


def emsa_pss_verify(message: bytes, em: bytes, em_bits: int, hash: str,
                    salt_length: int | None = None) -> bool:
    """EMSA-PSS-VERIFY (RFC 8017 §9.1.2): True if `em` is a PSS encoding of `message`.

    `em` is s^e mod n as big-endian bytes; leading zero bytes beyond ⌈em_bits/8⌉ are allowed (a
    k-byte I2OSP output), a non-zero one makes it inconsistent. salt_length None recovers the
    salt length from the encoding (what `openssl dgst -verify` does by default,
    RSA_PSS_SALTLEN_AUTO); an integer demands exactly that length.
    """
    return emsa_pss_verify_digest(hash_info(hash).digest(message), em, em_bits, hash, salt_length)


def emsa_pss_verify_digest(m_hash: bytes, em: bytes, em_bits: int, hash: str,
                           salt_length: int | None = None, *,
                           mgf1_hash: str | None = None, min_salt_length: int = 0) -> bool:
    """EMSA-PSS-VERIFY from mHash = Hash(M). Verification handles public data only, so it
    returns as soon as the encoding is found inconsistent. `min_salt_length`: a recovered salt
    shorter than this is inconsistent (an RSA-PSS key's restriction, as OpenSSL checks it)."""
    info = hash_info(hash)
    em_len = _em_len(em_bits)
    h_len = info.digest_size
    if salt_length is not None and (not isinstance(salt_length, int) or salt_length < 0):
        raise RsaPaddingError(f"salt_length must be None (auto) or an integer ≥ 0 "
                              f"(got {salt_length!r})")
    if len(m_hash) != h_len:
        raise RsaPaddingError(f"a {info.name} digest has {h_len} bytes (got {len(m_hash)})")
    em = bytes(em)
    if len(em) > em_len:                       # I2OSP(m, emLen) fails when m ≥ 256^emLen
        if any(em[: len(em) - em_len]):
            return False
        em = em[len(em) - em_len:]
    em = em.rjust(em_len, b"\x00")
    if em_len < h_len + (salt_length or 0) + 2 or em[-1] != 0xBC:
        return False
    masked_db, h = em[: em_len - h_len - 1], em[em_len - h_len - 1: -1]
    top_mask = 0xFF >> (8 * em_len - em_bits)
    if masked_db[0] & ~top_mask & 0xFF:
        return False
    db = bytearray(_xor(masked_db, mgf1(h, len(masked_db), mgf1_hash or info.name)))
    db[0] &= top_mask
    if salt_length is None:                    # PS is the run of zeros before the 0x01
        ps_len = len(db) - len(db.lstrip(b"\x00"))
        if ps_len == len(db) or db[ps_len] != 0x01:
            return False
    else:
        ps_len = em_len - h_len - salt_length - 2
        if any(db[:ps_len]) or db[ps_len] != 0x01:
            return False
    salt = bytes(db[ps_len + 1:])
    if len(salt) < min_salt_length:
        return False
    return hmac.compare_digest(h, info.digest(b"\x00" * 8 + m_hash + salt))


# ------------------------------------------------------------------------- EME-OAEP (§7.1)
def oaep_max_message_length(k: int, hash: str) -> int:
    """The longest message RSA-OAEP carries with a k-byte modulus: k - 2·hLen - 2 (may be < 0)."""
    return k - 2 * hash_info(hash).digest_size - 2


def _check_oaep_key(k: int, info: HashInfo) -> None:
    _check_length("k", k)
    if k < 2 * info.digest_size + 2:
        raise RsaPaddingError(f"a {k * 8}-bit key is too small for RSA-OAEP with {info.name} "
                              f"(needs at least {(2 * info.digest_size + 2) * 8} bits)")


def oaep_encode(message: bytes, k: int, hash: str, label: bytes = b"",
                seed: bytes | None = None, *, mgf1_hash: str | None = None) -> bytes:
    """EME-OAEP encoding (RFC 8017 §7.1.1 step 2): EM = 0x00 || maskedSeed || maskedDB, k bytes.

    `seed` (hLen bytes) is drawn from `secrets` when None; give it only to reproduce test
    vectors.
    """
    info = hash_info(hash)
    h_len = info.digest_size
    _check_oaep_key(k, info)
    max_len = k - 2 * h_len - 2
    if len(message) > max_len:
        raise RsaPaddingError(f"message too long for RSA-OAEP with this key and hash: max "
                              f"{max_len} bytes (got {len(message)})")
    if seed is None:
        seed = secrets.token_bytes(h_len)
    elif len(seed) != h_len:
        raise RsaPaddingError(f"an OAEP {info.name} seed has {h_len} bytes (got {len(seed)})")
    mgf = mgf1_hash or info.name
    db = info.digest(label) + b"\x00" * (max_len - len(message)) + b"\x01" + message
    masked_db = _xor(db, mgf1(seed, k - h_len - 1, mgf))
    masked_seed = _xor(seed, mgf1(masked_db, h_len, mgf))
    return b"\x00" + masked_seed + masked_db


def _byte_eq(a: int, b: int) -> int:
    """1 if the bytes a and b are equal, else 0, without a branch."""
    return (((a ^ b) - 1) >> 31) & 1


def oaep_decode(em: bytes, k: int, hash: str, label: bytes = b"", *,
                mgf1_hash: str | None = None) -> bytes:
    """EME-OAEP decoding (RFC 8017 §7.1.2 step 3) of the k-byte EM = c^d mod n.

    Every way the encoding can be wrong (Y ≠ 0, lHash mismatch, a non-zero byte before the 0x01
    separator, no separator) raises the same RsaDecryptionError("decryption failed"), and only
    after the whole encoding has been looked at: the checks accumulate into one `bad` flag with
    integer arithmetic rather than returning at the first problem, so the work done does not
    depend on where the padding broke. (CPython gives no hard constant-time guarantee; this
    removes the branches that would make the difference large.) The length of the recovered
    message — public once it is returned — is the only data-dependent quantity.
    """
    info = hash_info(hash)
    h_len = info.digest_size
    _check_oaep_key(k, info)
    if len(em) != k:
        raise RsaDecryptionError()
    mgf = mgf1_hash or info.name
    y, masked_seed, masked_db = em[0], em[1: h_len + 1], em[h_len + 1:]
    seed = _xor(masked_seed, mgf1(masked_db, h_len, mgf))
    db = _xor(masked_db, mgf1(seed, k - h_len - 1, mgf))

    bad = 1 - _byte_eq(y, 0)
    bad |= 1 - int(hmac.compare_digest(db[:h_len], info.digest(label)))
    found = 0          # 1 once the 0x01 separator has been seen
    index = 0          # its offset in db[h_len:]
    for i, byte in enumerate(db[h_len:]):
        is_one = _byte_eq(byte, 1)
        is_zero = _byte_eq(byte, 0)
        first = is_one & (1 - found)
        index |= -first & i
        bad |= (1 - found) & (1 - is_zero) & (1 - is_one)   # garbage inside PS
        found |= is_one
    bad |= 1 - found
    if bad:
        raise RsaDecryptionError()
    return bytes(db[h_len + index + 1:])
