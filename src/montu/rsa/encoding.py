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

RSA-PSS keys (`openssl genpkey -algorithm RSA-PSS`: algorithm id-RSASSA-PSS instead of
rsaEncryption, RFC 4055) load with their restriction (`RsaKeyNumbers.pss`: PSS signatures only,
and the hash, MGF1 hash and minimum salt length their parameters name), and are written back
with it (PKCS#8 and SubjectPublicKeyInfo; asn1crypto swaps the algorithm identifier in).
Multi-prime keys (`rsa_keygen_primes:3`) are refused: the CRT here uses two primes.
Key data over `montu.errors.MAX_KEY_BYTES` is refused before it is parsed.
"""

from __future__ import annotations

import base64
import binascii
import re
import warnings
from dataclasses import dataclass, field

from asn1crypto import algos, core, parser
from asn1crypto import keys as asn1_keys
from asn1crypto import pem as asn1_pem
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import dh, dsa, ec, ed448, ed25519, rsa, x448, x25519

from montu.driver import DEFAULT_MAX_BITS
from montu.errors import MAX_KEY_BYTES, MontuError, size_text
from montu.rsa.padding import HASHES

MAX_MODULUS_BITS = DEFAULT_MAX_BITS[-1]   # the largest unit configuration the driver builds

__all__ = ["PssRestriction", "RsaFormatError", "RsaKeyNumbers", "dump_private", "dump_public",
           "is_rsa_key", "load_key"]

# What asn1crypto raises on malformed input (as in montu.ec.encoding)
_ASN1_ERRORS = (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError,
                RecursionError)


class RsaFormatError(MontuError, ValueError):
    """Key data that is not a readable, unencrypted RSA key in PEM or DER."""


@dataclass(frozen=True)
class PssRestriction:
    """What an RSA-PSS key (algorithm id-RSASSA-PSS, RFC 4055 §1.2 and §3.1) allows.

    Such a key signs and verifies with PSS only: never PKCS#1 v1.5, never OAEP. Its parameters,
    when it has any, also fix the hash and the MGF1 hash and set a minimum salt length (OpenSSL's
    reading of saltLength for keys); a key without parameters (hash None) takes any hash, MGF1
    over the same hash, and any salt.
    """

    hash: str | None = None
    mgf1_hash: str | None = None
    min_salt_length: int = 0
    parameters: bytes | None = field(default=None, repr=False)  # their DER, written back as read


@dataclass(frozen=True)
class RsaKeyNumbers:
    """The integers of an RSA key (RFC 8017 §3): a public key has only n and e. `pss` is set for
    an RSA-PSS key (id-RSASSA-PSS), which is restricted to PSS signatures."""

    n: int
    e: int
    d: int | None = field(default=None, repr=False)
    p: int | None = field(default=None, repr=False)
    q: int | None = field(default=None, repr=False)
    dp: int | None = field(default=None, repr=False)
    dq: int | None = field(default=None, repr=False)
    qinv: int | None = field(default=None, repr=False)
    pss: PssRestriction | None = None

    @property
    def is_private(self) -> bool:
        return self.d is not None

    @property
    def bits(self) -> int:
        return self.n.bit_length()


_PEM_MARKER = re.compile(rb"-----(BEGIN|END) ([A-Z0-9 ]+)-----")

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


def _numbers(key: object, der: bytes | None) -> RsaKeyNumbers:
    """The numbers of a key cryptography loaded from `der` (its DER, for the RSA-PSS check)."""
    if isinstance(key, rsa.RSAPrivateKey):
        priv = key.private_numbers()
        pub = priv.public_numbers
        return RsaKeyNumbers(n=pub.n, e=pub.e, d=priv.d, p=priv.p, q=priv.q, dp=priv.dmp1,
                             dq=priv.dmq1, qinv=priv.iqmp, pss=_pss_restriction(der, private=True))
    if isinstance(key, rsa.RSAPublicKey):
        pub = key.public_numbers()
        return RsaKeyNumbers(n=pub.n, e=pub.e, pss=_pss_restriction(der, private=False))
    raise _not_rsa(key)


# ------------------------------------------------------------------------------ RSA-PSS keys
_RSASSA_PSS_OID = "1.2.840.113549.1.1.10"


def _pss_restriction(der: bytes | None, *, private: bool) -> PssRestriction | None:
    """The restriction of an RSA-PSS key in PKCS#8 or SubjectPublicKeyInfo DER; None for any
    other key (rsaEncryption, PKCS#1 layouts)."""
    if der is None:
        return None
    spec, name = ((asn1_keys.PrivateKeyInfo, "private_key_algorithm") if private
                  else (asn1_keys.PublicKeyInfo, "algorithm"))
    try:
        algorithm = spec.load(der)[name]
        if algorithm["algorithm"].dotted != _RSASSA_PSS_OID:
            return None
    except _ASN1_ERRORS:            # not PKCS#8 / SubjectPublicKeyInfo: PKCS#1 has no OID
        return None
    params = algorithm["parameters"]
    if params is None or isinstance(params, (core.Void, core.Null)):
        return PssRestriction()
    return _pss_parameters(params)


def _pss_parameters(params: core.Asn1Value) -> PssRestriction:
    """RSASSA-PSS-params (RFC 4055 §3.1; absent fields take their defaults: SHA-1, MGF1-SHA-1,
    salt 20, trailer 0xbc) as a restriction montu can honour, or RsaFormatError saying why not."""
    try:
        native = params.native
        hash_name = native["hash_algorithm"]["algorithm"]
        mgf = native["mask_gen_algorithm"]
        salt_length = native["salt_length"]
        trailer = native["trailer_field"]
        mgf1_hash = mgf["parameters"]["algorithm"] if mgf["algorithm"] == "mgf1" else None
        der = params.dump()
    except _ASN1_ERRORS:
        raise RsaFormatError("the RSA-PSS key's parameters (RSASSA-PSS-params) are "
                             "malformed") from None
    if mgf1_hash is None:
        raise RsaFormatError(f"the RSA-PSS key names mask generation function "
                             f"{mgf['algorithm']}; only MGF1 is supported")
    for what, name in (("hash", hash_name), ("MGF1 hash", mgf1_hash)):
        if name not in HASHES:
            raise RsaFormatError(f"the RSA-PSS key is restricted to {what} {name}, which montu "
                                 f"does not support (it has {', '.join(HASHES)})")
    if trailer != "trailer_field_bc" or not isinstance(salt_length, int) or salt_length < 0:
        raise RsaFormatError("the RSA-PSS key's parameters are invalid: RFC 4055 needs trailer "
                             "field 1 and a salt length of 0 or more")
    return PssRestriction(hash=hash_name, mgf1_hash=mgf1_hash, min_salt_length=salt_length,
                          parameters=der)


def _with_pss_algorithm(info: asn1_keys.PrivateKeyInfo | asn1_keys.PublicKeyInfo,
                        pss: PssRestriction) -> bytes:
    """The DER of a PKCS#8 or SubjectPublicKeyInfo RSA key (as cryptography writes it) with its
    algorithm identifier changed from rsaEncryption to id-RSASSA-PSS and the key's parameters."""
    identifier: dict[str, object] = {"algorithm": "rsassa_pss"}
    if pss.parameters is not None:
        identifier["parameters"] = algos.RSASSAPSSParams.load(pss.parameters)
    if isinstance(info, asn1_keys.PrivateKeyInfo):
        rewritten = asn1_keys.PrivateKeyInfo({
            "version": info["version"],
            "private_key_algorithm": asn1_keys.PrivateKeyAlgorithm(identifier),
            "private_key": info["private_key"].parsed,
        })
    else:
        rewritten = asn1_keys.PublicKeyInfo({
            "algorithm": asn1_keys.PublicKeyAlgorithm(identifier),
            "public_key": info["public_key"].parsed,
        })
    der: bytes = rewritten.dump()
    return der


# ------------------------------------------------------------------------------ reading
def _pem_blocks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(label, text from its BEGIN line to its END line) of each PEM block, in one pass over the
    BEGIN/END lines (a BEGIN without its END is skipped, as is anything between blocks)."""
    blocks = []
    open_label, start = None, 0
    for marker in _PEM_MARKER.finditer(data):
        kind, label = marker.group(1), marker.group(2)
        if open_label is None and kind == b"BEGIN":
            open_label, start = label, marker.start()
        elif open_label == label and kind == b"END":
            blocks.append((label, data[start:marker.end()]))
            open_label = None
    return blocks


def _pem_der(block: bytes) -> bytes | None:
    """The DER inside one PEM block (the headers and armour lines dropped); None if its base64
    is damaged (cryptography then says so)."""
    lines = block.splitlines()[1:-1]
    body = b"".join(line.strip() for line in lines if b":" not in line)
    try:
        return base64.b64decode(body, validate=True)
    except binascii.Error:
        return None


def _is_multi_prime(der: bytes | None) -> bool:
    """True if `der` is a multi-prime RSAPrivateKey (RFC 8017 A.1.2: version 1 and a tenth
    element, otherPrimeInfos), alone or inside PKCS#8. Reads the tag-length framing of at most
    ten elements, so it takes time linear in len(der) whatever the data is."""
    try:
        elements = _first_elements(der or b"", 10)
        if [tag for _tag_class, tag, _ in elements[:3]] == [2, 16, 4]:     # PKCS#8 around it
            elements = _first_elements(parser.parse(elements[2][2])[4], 10)
        version = elements[0] if elements else (0, 0, b"")
        return (len(elements) == 10 and version[2] == b"\x02\x01\x01"
                and [(tag_class, tag) for tag_class, tag, _ in elements] == [(0, 2)] * 9 + [(0, 16)])
    except _ASN1_ERRORS:
        return False


def _first_elements(der: bytes, count: int) -> list[tuple[int, int, bytes]]:
    """(class, tag, encoding) of the first `count` elements of the DER SEQUENCE `der`."""
    tag_class, _method, tag, _header, contents, _trailer = parser.parse(der, strict=True)
    if (tag_class, tag) != (0, 16):
        raise ValueError("not a SEQUENCE")
    elements: list[tuple[int, int, bytes]] = []
    offset = 0
    while offset < len(contents) and len(elements) < count:
        rest = contents[offset:]
        tag_class, _method, tag, header, body, trailer = parser.parse(rest)
        size = len(header) + len(body) + len(trailer)
        elements.append((tag_class, tag, rest[:size]))
        offset += size
    return elements


def _private_key_error(exc: ValueError, der: bytes | None, what: str) -> RsaFormatError:
    """The RsaFormatError for a private key cryptography could not load."""
    if _is_multi_prime(der):
        return RsaFormatError("this is a multi-prime RSA key (more than two primes), which is "
                              "not supported: montu's RSA uses two primes (generate keys "
                              "without rsa_keygen_primes)")
    return RsaFormatError(_value_error_message(exc, what))


def _load_pem(data: bytes) -> RsaKeyNumbers:
    blocks = _pem_blocks(data)
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
    der = _pem_der(block)
    try:
        if label in _PUBLIC_LABELS:
            key = serialization.load_pem_public_key(block)
        else:       # PRIVATE KEY, RSA PRIVATE KEY; EC/DSA ones are loaded to say what they are
            key = _load_private(serialization.load_pem_private_key, block)
    except RsaFormatError:                 # refused by Montu itself (e.g. too large)
        raise
    except TypeError:                      # "Password was not given but private key is encrypted"
        raise RsaFormatError(_ENCRYPTED_HINT) from None
    except UnsupportedAlgorithm:
        raise RsaFormatError(f"the {name} block holds a key type this build cannot read; "
                             f"it is not an RSA key") from None
    except ValueError as exc:
        if label in _PUBLIC_LABELS:
            raise RsaFormatError(_value_error_message(exc, f"malformed PEM {name}")) from None
        raise _private_key_error(exc, der, f"malformed PEM {name}") from None
    return _numbers(key, der)


def _load_private(load, data: bytes) -> object:
    """A private key by `load` (cryptography's PEM or DER loader), its size checked first.

    The RSA key check (primality of p and q) takes OpenSSL seconds for 8192 bits and a minute for
    16384: the key is first parsed without it, a modulus larger than every unit configuration is
    refused at once, and only then is it loaded again with the check."""
    key = load(data, password=None, unsafe_skip_rsa_key_validation=True)
    if isinstance(key, rsa.RSAPrivateKey) and key.key_size > MAX_MODULUS_BITS:
        raise RsaFormatError(f"a {key.key_size}-bit RSA key is too large: Montu's units hold RSA "
                             f"keys of at most {MAX_MODULUS_BITS} bits")
    return load(data, password=None)


def _is_key_check_failure(exc: ValueError) -> bool:
    return "invalid private key" in str(exc).lower()


def _value_error_message(exc: ValueError, what: str) -> str:
    # only the kind of failure is reported: cryptography's text is not passed on
    if _is_key_check_failure(exc):
        return f"{what}: the RSA key numbers are inconsistent (they fail the RSA key check)"
    return f"{what}: the data could not be decoded as a key"


def _load_der(data: bytes) -> RsaKeyNumbers:
    try:
        key: object = _load_private(serialization.load_der_private_key, data)
    except RsaFormatError:
        raise
    except TypeError:
        raise RsaFormatError(_ENCRYPTED_HINT) from None
    except UnsupportedAlgorithm:
        raise RsaFormatError("the DER private key is of a type this build cannot read; "
                             "it is not an RSA key") from None
    except ValueError as private_error:
        if _is_key_check_failure(private_error) or _is_multi_prime(data):
            raise _private_key_error(private_error, data, "DER private key") from None
        try:
            key = serialization.load_der_public_key(data)
        except UnsupportedAlgorithm:
            raise RsaFormatError("the DER public key is of a type this build cannot read; "
                                 "it is not an RSA key") from None
        except ValueError:
            raise RsaFormatError("malformed DER: not a PKCS#8, PKCS#1 or SubjectPublicKeyInfo "
                                 "key") from None
    return _numbers(key, data)


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
    if len(data) > MAX_KEY_BYTES:
        raise RsaFormatError(f"the key data is {len(data):,} bytes, more than any key file "
                             f"(at most {size_text(MAX_KEY_BYTES)} is read)")
    if not data.strip():
        raise RsaFormatError("empty input: expected an RSA key in PEM or DER")
    if data[:1] != b"\x30" and b"-----BEGIN " not in data:   # every DER key is a SEQUENCE
        if data.lstrip()[:4] in (b"ssh-", b"ecds"):
            raise RsaFormatError("this is an OpenSSH public key line, not a PEM/DER key "
                                 "(convert it with ssh-keygen -e -m PKCS8)")
        raise RsaFormatError("not a key: expected PEM (-----BEGIN ...-----) or DER "
                             "(an ASN.1 SEQUENCE)")
    # cryptography warns about some key types it still reads (deprecations); the caller gets
    # the RsaFormatError that says what the key is, and nothing else on stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _load_pem(data) if b"-----BEGIN " in data else _load_der(data)


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
    both layouts store the CRT parameters, and this host-side module computes none of them.
    An RSA-PSS key (numbers.pss) is written as PKCS#8 with id-RSASSA-PSS and its parameters."""
    private_format = _choice("private key format", fmt, _PRIVATE_FORMATS)
    enc = _choice("encoding", encoding, _ENCODINGS)
    if numbers.pss is not None and private_format is not serialization.PrivateFormat.PKCS8:
        raise RsaFormatError("an RSA-PSS key can only be written as PKCS#8: PKCS#1 (RSA PRIVATE "
                             "KEY) has no place for its PSS restriction")
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
    if numbers.pss is None:
        return key.private_bytes(enc, private_format, serialization.NoEncryption())
    der = key.private_bytes(serialization.Encoding.DER, private_format,
                            serialization.NoEncryption())
    rewritten = _with_pss_algorithm(asn1_keys.PrivateKeyInfo.load(der), numbers.pss)
    return _armor("PRIVATE KEY", rewritten, enc)


def _armor(label: str, der: bytes, encoding: serialization.Encoding) -> bytes:
    if encoding is serialization.Encoding.DER:
        return der
    armored: bytes = asn1_pem.armor(label, der)
    return armored


def dump_public(n: int, e: int, fmt: str = "spki", encoding: str = "pem", *,
                pss: PssRestriction | None = None) -> bytes:
    """A public key file: SubjectPublicKeyInfo ("spki", as `openssl pkey -pubout` writes) or
    PKCS#1 ("pkcs1", `RSA PUBLIC KEY`, as `openssl rsa -RSAPublicKey_out`), PEM or DER. With
    `pss` (an RSA-PSS key), SubjectPublicKeyInfo with id-RSASSA-PSS and the key's parameters."""
    public_format = _choice("public key format", fmt, _PUBLIC_FORMATS)
    enc = _choice("encoding", encoding, _ENCODINGS)
    if pss is not None and public_format is not serialization.PublicFormat.SubjectPublicKeyInfo:
        raise RsaFormatError("an RSA-PSS public key can only be written as SubjectPublicKeyInfo: "
                             "PKCS#1 (RSA PUBLIC KEY) has no place for its PSS restriction")
    invalid = RsaFormatError(f"(n, e) is not a valid RSA public key: n must be odd, e odd and "
                             f"3 ≤ e < n (got a {n.bit_length()}-bit n)")
    if n % 2 == 0 or e % 2 == 0 or not 3 <= e < n:
        raise invalid
    try:
        key = rsa.RSAPublicNumbers(e, n).public_key()
    except (ValueError, TypeError):
        raise invalid from None
    if pss is None:
        return key.public_bytes(enc, public_format)
    der = key.public_bytes(serialization.Encoding.DER, public_format)
    return _armor("PUBLIC KEY", _with_pss_algorithm(asn1_keys.PublicKeyInfo.load(der), pss), enc)
