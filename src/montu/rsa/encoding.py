"""RSA key files: PEM and DER in the four layouts OpenSSL reads and writes.

    read                                          written by
    -----------------------------------------     -----------------------------------------
    PKCS#8 "PRIVATE KEY" (unencrypted)            openssl genpkey -algorithm RSA   (default)
    PKCS#1 "RSA PRIVATE KEY"                      openssl genrsa -traditional
    SubjectPublicKeyInfo "PUBLIC KEY"             openssl pkey -pubout              (default)
    PKCS#1 "RSA PUBLIC KEY"                       openssl rsa -RSAPublicKey_out

DER is the same without the PEM armour (note: `openssl pkey -outform DER` writes PKCS#1 DER for
an RSA key; `openssl pkcs8 -topk8 -nocrypt -outform DER` writes PKCS#8). The ASN.1 is read and written by pyca/cryptography's
serialization (no hand-written DER); this module only chooses the layout and turns failures into
one-line RsaFormatError messages. Loading a private key checks that its numbers are consistent
(OpenSSL's RSA key check); no number of a key ever appears in an error message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import dh, dsa, ec, ed448, ed25519, rsa, x448, x25519

from montu.errors import MontuError

__all__ = ["RsaFormatError", "RsaKeyNumbers", "dump_private", "dump_public", "is_rsa_key",
           "load_key"]


class RsaFormatError(MontuError, ValueError):
    """Key data that is not a readable, unencrypted RSA key in PEM or DER."""


@dataclass(frozen=True)
class RsaKeyNumbers:
    """The integers of an RSA key (RFC 8017 §3): a public key has only n and e."""

    n: int
    e: int
    d: int | None = field(default=None, repr=False)
    p: int | None = field(default=None, repr=False)
    q: int | None = field(default=None, repr=False)
    dp: int | None = field(default=None, repr=False)
    dq: int | None = field(default=None, repr=False)
    qinv: int | None = field(default=None, repr=False)

    @property
    def is_private(self) -> bool:
        return self.d is not None

    @property
    def bits(self) -> int:
        return self.n.bit_length()


_PEM_BLOCK = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----.*?-----END \1-----", re.S)

_PRIVATE_LABELS = {b"PRIVATE KEY", b"RSA PRIVATE KEY"}
_PUBLIC_LABELS = {b"PUBLIC KEY", b"RSA PUBLIC KEY"}
_ENCRYPTED_HINT = ("the key is encrypted and passwords are not supported: decrypt it first "
                   "(openssl pkey -in KEY -out PLAIN)")
_OTHER_LABELS = {
    b"EC PRIVATE KEY": "this is an EC private key, not RSA",
    b"DSA PRIVATE KEY": "this is a DSA private key, not RSA",
    b"OPENSSH PRIVATE KEY": "this is an OpenSSH private key, not a PEM/DER RSA key "
                            "(convert it with ssh-keygen -p -m PEM)",
    b"CERTIFICATE": "this is an X.509 certificate, not a key "
                    "(extract its key with openssl x509 -pubkey -noout)",
    b"CERTIFICATE REQUEST": "this is a certificate request, not a key",
    b"X509 CRL": "this is a certificate revocation list, not a key",
    b"DH PARAMETERS": "these are DH parameters, not a key",
    b"PARAMETERS": "these are key parameters, not a key",
}


def _describe(key: object) -> str:
    """What kind of (non-RSA) key `key` is, for an error message."""
    if isinstance(key, (ec.EllipticCurvePrivateKey, ec.EllipticCurvePublicKey)):
        return f"an EC key (curve {key.curve.name})"
    kinds = [((ed25519.Ed25519PrivateKey, ed25519.Ed25519PublicKey), "an Ed25519 key"),
             ((ed448.Ed448PrivateKey, ed448.Ed448PublicKey), "an Ed448 key"),
             ((x25519.X25519PrivateKey, x25519.X25519PublicKey), "an X25519 key"),
             ((x448.X448PrivateKey, x448.X448PublicKey), "an X448 key"),
             ((dsa.DSAPrivateKey, dsa.DSAPublicKey), "a DSA key"),
             ((dh.DHPrivateKey, dh.DHPublicKey), "a DH key")]
    for types, name in kinds:
        if isinstance(key, types):
            return name
    return f"a {type(key).__name__.lstrip('_')} key"


def _not_rsa(key: object) -> RsaFormatError:
    return RsaFormatError(f"this is {_describe(key)}, not RSA")


def _numbers(key: object) -> RsaKeyNumbers:
    if isinstance(key, rsa.RSAPrivateKey):
        priv = key.private_numbers()
        pub = priv.public_numbers
        return RsaKeyNumbers(n=pub.n, e=pub.e, d=priv.d, p=priv.p, q=priv.q, dp=priv.dmp1,
                             dq=priv.dmq1, qinv=priv.iqmp)
    if isinstance(key, rsa.RSAPublicKey):
        pub = key.public_numbers()
        return RsaKeyNumbers(n=pub.n, e=pub.e)
    raise _not_rsa(key)


def _load_pem(data: bytes) -> RsaKeyNumbers:
    blocks = [(m.group(1), m.group(0)) for m in _PEM_BLOCK.finditer(data)]
    if not blocks:
        raise RsaFormatError("malformed PEM: a -----BEGIN ...----- line without its matching "
                             "-----END ...----- line")
    labels = [label for label, _ in blocks]
    # `openssl ecparam -genkey` writes EC PARAMETERS before the key: skip parameter blocks
    keys = [(label, block) for label, block in blocks
            if label in _PRIVATE_LABELS | _PUBLIC_LABELS | {b"ENCRYPTED PRIVATE KEY"}
            | set(_OTHER_LABELS) - {b"PARAMETERS", b"DH PARAMETERS"}]
    if not keys:
        label = labels[0]
        if label in _OTHER_LABELS:
            raise RsaFormatError(_OTHER_LABELS[label])
        if label == b"EC PARAMETERS":
            raise RsaFormatError("these are EC parameters, not a key")
        raise RsaFormatError(f"PEM block {label.decode()!r} is not a key: expected PRIVATE KEY, "
                             f"RSA PRIVATE KEY, PUBLIC KEY or RSA PUBLIC KEY")
    label, block = keys[0]
    name = label.decode()
    if label == b"ENCRYPTED PRIVATE KEY" or (label in _PRIVATE_LABELS
                                             and b"Proc-Type: 4,ENCRYPTED" in block):
        raise RsaFormatError(_ENCRYPTED_HINT)
    if label in _OTHER_LABELS and label not in (b"EC PRIVATE KEY", b"DSA PRIVATE KEY"):
        raise RsaFormatError(_OTHER_LABELS[label])
    try:
        if label in _PUBLIC_LABELS:
            key = serialization.load_pem_public_key(block)
        else:       # PRIVATE KEY, RSA PRIVATE KEY; EC/DSA ones are loaded to say what they are
            key = serialization.load_pem_private_key(block, password=None)
    except TypeError:                      # "Password was not given but private key is encrypted"
        raise RsaFormatError(_ENCRYPTED_HINT) from None
    except UnsupportedAlgorithm:
        raise RsaFormatError(f"the {name} block holds a key type this build cannot read; "
                             f"it is not an RSA key") from None
    except ValueError as exc:
        raise RsaFormatError(_value_error_message(exc, f"malformed PEM {name}")) from None
    return _numbers(key)


def _is_key_check_failure(exc: ValueError) -> bool:
    return "invalid private key" in str(exc).lower()


def _value_error_message(exc: ValueError, what: str) -> str:
    # only the kind of failure is reported: cryptography's text is not passed on
    if _is_key_check_failure(exc):
        return f"{what}: the RSA key numbers are inconsistent (they fail the RSA key check)"
    return f"{what}: the data could not be decoded as a key"


def _load_der(data: bytes) -> RsaKeyNumbers:
    try:
        key: object = serialization.load_der_private_key(data, password=None)
    except TypeError:
        raise RsaFormatError(_ENCRYPTED_HINT) from None
    except UnsupportedAlgorithm:
        raise RsaFormatError("the DER private key is of a type this build cannot read; "
                             "it is not an RSA key") from None
    except ValueError as private_error:
        if _is_key_check_failure(private_error):
            raise RsaFormatError(_value_error_message(private_error, "DER private key")) from None
        try:
            key = serialization.load_der_public_key(data)
        except UnsupportedAlgorithm:
            raise RsaFormatError("the DER public key is of a type this build cannot read; "
                                 "it is not an RSA key") from None
        except ValueError:
            raise RsaFormatError("malformed DER: not a PKCS#8, PKCS#1 or SubjectPublicKeyInfo "
                                 "key") from None
    return _numbers(key)


def load_key(data: bytes) -> RsaKeyNumbers:
    """The numbers of the RSA key in `data`: PEM or DER; PKCS#1, PKCS#8 or SubjectPublicKeyInfo.

    Raises RsaFormatError for anything else, saying what it is when it can tell (an EC key, an
    encrypted key, a certificate, text that is not PEM).
    """
    if isinstance(data, str):
        data = data.encode()
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise RsaFormatError(f"key data must be bytes (got {type(data).__name__})")
    data = bytes(data)
    if not data.strip():
        raise RsaFormatError("empty input: expected an RSA key in PEM or DER")
    if b"-----BEGIN " in data:
        return _load_pem(data)
    if data[:1] != b"\x30":   # every DER key is a SEQUENCE
        if data.lstrip()[:4] in (b"ssh-", b"ecds"):
            raise RsaFormatError("this is an OpenSSH public key line, not a PEM/DER key "
                                 "(convert it with ssh-keygen -e -m PKCS8)")
        raise RsaFormatError("not a key: expected PEM (-----BEGIN ...-----) or DER "
                             "(an ASN.1 SEQUENCE)")
    return _load_der(data)


def is_rsa_key(data: bytes) -> bool:
    """True if load_key(data) would succeed (for dispatching on the kind of a key file)."""
    try:
        load_key(data)
    except RsaFormatError:
        return False
    return True


# ------------------------------------------------------------------------------ writing
_ENCODINGS = {"pem": serialization.Encoding.PEM, "der": serialization.Encoding.DER}
_PRIVATE_FORMATS = {"pkcs8": serialization.PrivateFormat.PKCS8,
                    "pkcs1": serialization.PrivateFormat.TraditionalOpenSSL}
_PUBLIC_FORMATS = {"spki": serialization.PublicFormat.SubjectPublicKeyInfo,
                   "pkcs1": serialization.PublicFormat.PKCS1}


def _choice(kind: str, value: str, table: dict) -> object:
    try:
        return table[value.lower()]
    except (KeyError, AttributeError):
        raise RsaFormatError(f"unknown {kind} {value!r}: choose one of "
                             f"{', '.join(table)}") from None


def dump_private(numbers: RsaKeyNumbers, fmt: str = "pkcs8", encoding: str = "pem") -> bytes:
    """An unencrypted private key file: PKCS#8 ("pkcs8", as `openssl genpkey` writes) or PKCS#1
    ("pkcs1", `RSA PRIVATE KEY`), PEM or DER. Needs every number (n, e, d, p, q, dp, dq, qinv):
    both layouts store the CRT parameters, and this host-side module computes none of them."""
    private_format = _choice("private key format", fmt, _PRIVATE_FORMATS)
    enc = _choice("encoding", encoding, _ENCODINGS)
    missing = [name for name in ("d", "p", "q", "dp", "dq", "qinv")
               if getattr(numbers, name) is None]
    if missing:
        raise RsaFormatError(f"cannot write a private key file without {', '.join(missing)}: "
                             f"PKCS#1 and PKCS#8 store all of d, p, q, dp, dq, qinv")
    try:
        key = rsa.RSAPrivateNumbers(
            p=numbers.p, q=numbers.q, d=numbers.d, dmp1=numbers.dp, dmq1=numbers.dq,
            iqmp=numbers.qinv, public_numbers=rsa.RSAPublicNumbers(numbers.e, numbers.n),
        ).private_key()
    except (ValueError, TypeError):
        raise RsaFormatError("the RSA key numbers are inconsistent (they fail the RSA key "
                             "check); refusing to write them") from None
    return key.private_bytes(enc, private_format, serialization.NoEncryption())


def dump_public(n: int, e: int, fmt: str = "spki", encoding: str = "pem") -> bytes:
    """A public key file: SubjectPublicKeyInfo ("spki", as `openssl pkey -pubout` writes) or
    PKCS#1 ("pkcs1", `RSA PUBLIC KEY`, as `openssl rsa -RSAPublicKey_out`), PEM or DER."""
    public_format = _choice("public key format", fmt, _PUBLIC_FORMATS)
    enc = _choice("encoding", encoding, _ENCODINGS)
    invalid = RsaFormatError(f"(n, e) is not a valid RSA public key: n must be odd, e odd and "
                             f"3 ≤ e < n (got a {n.bit_length()}-bit n)")
    if n % 2 == 0 or e % 2 == 0 or not 3 <= e < n:
        raise invalid
    try:
        key = rsa.RSAPublicNumbers(e, n).public_key()
    except (ValueError, TypeError):
        raise invalid from None
    return key.public_bytes(enc, public_format)
