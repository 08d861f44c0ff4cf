"""EC key and signature file formats: SEC1, PKCS#8, SubjectPublicKeyInfo, Ecdsa-Sig-Value.

Reads and writes the files OpenSSL reads and writes, through `asn1crypto` (no hand-written DER):

| PEM label          | structure                                    | OpenSSL writes it with       |
|--------------------|----------------------------------------------|------------------------------|
| `EC PRIVATE KEY`   | SEC1 ECPrivateKey, named curve + public key  | `openssl ecparam -genkey`    |
| `PRIVATE KEY`      | PKCS#8 PrivateKeyInfo around an ECPrivateKey | `openssl genpkey`            |
| `PUBLIC KEY`       | SubjectPublicKeyInfo, uncompressed point     | `openssl ec -pubout`         |

Only named curves (an OID, RFC 5480) are supported. Points are read uncompressed (`04 || X || Y`)
or compressed (`02 || X`, `03 || X`; SEC1 2.3.3, `openssl ec -conv_form compressed`) and written
uncompressed. A compressed point is returned as a `CompressedPoint` (x and the bit that picks y):
finding y needs a square root in the field, which is field arithmetic, and field arithmetic runs
on the unit (`montu.ec.compressed`, called by `montu.ec.load_pem`), not on the host. The private
scalar is written with the byte length of the group order n and point coordinates with the byte
length of the field, as OpenSSL does. Both lengths come from the curve table `montu.ec.curves`
(looked up by OID) unless the caller passes them.

This module only converts between bytes and integers: it does not check that a point is on its
curve or that a scalar is in [1, n-1]; `montu.ec` does that when it builds a key.

Hostile input costs milliseconds: key data over `montu.errors.MAX_KEY_BYTES` (1 MiB) and
signatures over `MAX_SIGNATURE_BYTES` (64 KiB) are refused before parsing, and parsing takes
time linear in the input (PEM read in one pass, only the first elements of a DER SEQUENCE
framed to tell the structures apart). `key_algorithm` names the algorithm of any key file from
its label or algorithm identifier alone, so a caller can hand it to the right loader.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Literal

from asn1crypto import algos, core, keys, parser, pem

from montu.errors import MAX_KEY_BYTES, MAX_SIGNATURE_BYTES, MontuError, size_text

__all__ = [
    "EcFormatError",
    "ParsedEcKey",
    "CompressedPoint",
    "load_key",
    "key_algorithm",
    "dump_private",
    "dump_public",
    "encode_signature",
    "decode_signature",
]

_EC_PUBLIC_KEY_OID = "1.2.840.10045.2.1"  # id-ecPublicKey (RFC 5480)
_RSA_OIDS = {"1.2.840.113549.1.1.1", "1.2.840.113549.1.1.10"}  # rsaEncryption, RSASSA-PSS
_KEY_LABELS = ("EC PRIVATE KEY", "PRIVATE KEY", "PUBLIC KEY")
# What asn1crypto raises on malformed input: mostly ValueError, but a damaged field can also
# surface as a TypeError, a KeyError (an OID-selected spec it does not know), an AttributeError
# (a value of an unexpected universal type), an IndexError/OverflowError, or a RecursionError
# (thousands of nested SEQUENCEs in a field it decodes generically, e.g. PKCS#8 attributes).
_ASN1_ERRORS = (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError,
                RecursionError)


class EcFormatError(MontuError, ValueError):
    """An EC key or signature file is malformed or uses a form Montu does not support."""


@dataclass(frozen=True)
class CompressedPoint:
    """A compressed SEC1 point (`02 || X` or `03 || X`): x and y_bit, the prefix byte minus 2 —
    the parity of y over GF(p), bit 0 of y/x over GF(2^m). `montu.ec.compressed.decompress`
    finds y on the unit."""

    x: int
    y_bit: int


@dataclass(frozen=True)
class ParsedEcKey:
    """The integers of an EC key file: the curve's OID, the private scalar d and/or the point Q."""

    curve_oid: str
    private: int | None
    public: tuple[int, int] | CompressedPoint | None


@dataclass(frozen=True)
class _Sizes:
    field_bytes: int  # ceil(m/8) for GF(2^m), ceil(bits(p)/8) for GF(p)
    order_bytes: int  # ceil(bits(n)/8)


# --------------------------------------------------------------------------------------------
# The curve table (owned by montu.ec.curves; imported lazily so this module stays independent of
# the scalar-multiplication code)
# --------------------------------------------------------------------------------------------


def _curve_sizes(oid: str) -> _Sizes:
    """Byte lengths of the named curve `oid`, or EcFormatError if Montu does not support it."""
    from montu.ec import curves  # lazy: montu.ec.keys imports this module

    curve = curves.curve_by_oid(oid)
    if curve is None:
        raise EcFormatError(
            f"unsupported elliptic curve {_curve_label(oid)}; Montu supports the "
            "named curves "
            + ", ".join(f"{c.name} ({c.aliases[0]})" if c.aliases else c.name
                        for c in curves.CURVES.values())
        )
    return _Sizes(field_bytes=curve.field_bytes, order_bytes=curve.order_bytes)


def _curve_label(oid: str) -> str:
    """`name (OID …)` for the curves asn1crypto knows by name, else `OID …` (error messages)."""
    name = keys.NamedCurve._map.get(oid)  # noqa: SLF001 (asn1crypto's OID table)
    return f"{name} (OID {oid})" if name else f"OID {oid}"


def _sizes(curve_oid: str, field_bytes: int | None, order_bytes: int | None) -> _Sizes:
    if field_bytes is not None and order_bytes is not None:
        return _Sizes(field_bytes=field_bytes, order_bytes=order_bytes)
    table = _curve_sizes(curve_oid)
    return _Sizes(
        field_bytes=table.field_bytes if field_bytes is None else field_bytes,
        order_bytes=table.order_bytes if order_bytes is None else order_bytes,
    )


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


def load_key(data: bytes) -> ParsedEcKey:
    """Parse an EC key: PEM (`EC PRIVATE KEY`, `PRIVATE KEY`, `PUBLIC KEY`) or raw DER.

    For a private key, `public` is the point embedded in the file, or None if there is none.
    An `EC PARAMETERS` block before the key (what `openssl ecparam -genkey` writes without
    `-noout`) is accepted if it names the same curve as the key.
    """
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"load_key takes bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) > MAX_KEY_BYTES:
        raise EcFormatError(
            f"the key data is {len(data):,} bytes, more than any key file "
            f"(at most {size_text(MAX_KEY_BYTES)} is read)"
        )
    if pem.detect(data):
        label, der, params_oid = _unarmor_key(data)
        parsed = _PARSERS[label](der)
        if params_oid is not None and params_oid != parsed.curve_oid:
            raise EcFormatError(
                f"the EC PARAMETERS block names curve {params_oid} but the key is on "
                f"{parsed.curve_oid}"
            )
        return parsed
    return _load_der(data)


def _unarmor_key(data: bytes) -> tuple[str, bytes, str | None]:
    """(label, DER, OID of a preceding EC PARAMETERS block or None) of the one key in a PEM file."""
    params_oid: str | None = None
    key_blocks: list[tuple[str, bytes]] = []
    for label, headers, der in _pem_blocks(data):
        if "ENCRYPTED" in headers.get("Proc-Type", ""):
            raise EcFormatError(
                f"this {label} is encrypted (Proc-Type: 4,ENCRYPTED), which is not supported; "
                "decrypt it first (openssl pkey -in key.pem -out plain.pem)"
            )
        if label == "EC PARAMETERS":
            params_oid = _named_curve_oid(_strict_load(keys.ECDomainParameters, der, label))
        elif label in _KEY_LABELS:
            key_blocks.append((label, der))
        elif label in ("RSA PRIVATE KEY", "RSA PUBLIC KEY"):
            raise EcFormatError(f"this is an RSA key ({label}), not an EC key")
        elif label == "ENCRYPTED PRIVATE KEY":
            raise EcFormatError(
                "encrypted PKCS#8 keys are not supported; decrypt it first "
                "(openssl pkey -in key.pem -out plain.pem)"
            )
        else:
            raise EcFormatError(
                f"unexpected PEM block {label!r}; expected one of "
                + ", ".join(repr(k) for k in _KEY_LABELS)
            )
    if len(key_blocks) != 1:
        raise EcFormatError(f"expected exactly one key in the PEM data, found {len(key_blocks)}")
    label, der = key_blocks[0]
    return label, der, params_oid


_PEM_BEGIN = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----")


def _pem_blocks(data: bytes) -> list[tuple[str, dict[str, str], bytes]]:
    """(label, headers, DER) of each PEM block in `data`, text around the blocks ignored.

    One pass over the lines (asn1crypto's `pem.unarmor` grows its buffer a line at a time, which
    is quadratic in the number of lines). The base64 must be clean: a character outside the
    alphabet is an error, as it is for OpenSSL.
    """
    blocks: list[tuple[str, dict[str, str], bytes]] = []
    label: str | None = None
    headers: dict[str, str] = {}
    body: list[bytes] = []
    for line in data.splitlines():
        line = line.strip()
        if label is None:
            begin = _PEM_BEGIN.match(line)
            if begin:
                label, headers, body = begin.group(1).decode("ascii"), {}, []
            continue
        if line.startswith(b"-----"):
            if line != f"-----END {label}-----".encode("ascii"):
                raise EcFormatError(f"malformed PEM: the {label} block does not end with "
                                    f"-----END {label}-----")
            blocks.append((label, headers, _base64_body(label, body)))
            label = None
        elif not body and b":" in line:   # RFC 1421 headers, e.g. Proc-Type: 4,ENCRYPTED
            name, _colon, value = line.decode("ascii", "replace").partition(":")
            headers[name.strip()] = value.strip()
        elif line:
            body.append(line)
    if label is not None:
        raise EcFormatError(f"malformed PEM: the {label} block has no -----END {label}----- line")
    if not blocks:
        raise EcFormatError("malformed PEM: no -----BEGIN ...----- / -----END ...----- block")
    return blocks


def _base64_body(label: str, lines: list[bytes]) -> bytes:
    try:
        return base64.b64decode(b"".join(lines), validate=True)
    except binascii.Error:
        raise EcFormatError(f"malformed PEM: the {label} block is not valid base64") from None


def _load_der(der: bytes) -> ParsedEcKey:
    """Raw DER: tell the three structures (and RSA keys) apart by their first fields."""
    try:
        layout = _der_layout(_first_children(der, _SNIFFED_CHILDREN))
    except _ASN1_ERRORS as exc:
        raise EcFormatError(f"malformed DER: {exc}") from None
    if layout in _DER_PARSERS:
        return _DER_PARSERS[layout](der)
    if layout == "EncryptedPrivateKeyInfo":
        raise EcFormatError(
            "this is an encrypted PKCS#8 key (EncryptedPrivateKeyInfo), which is not supported; "
            "decrypt it first (openssl pkey -in key.der -inform DER -out plain.pem)"
        )
    if layout in ("RSAPrivateKey", "RSAPublicKey"):
        raise EcFormatError(f"this is an RSA key (PKCS#1 {layout}), not an EC key")
    raise EcFormatError(
        "DER data is not an EC key: expected SEC1 ECPrivateKey, PKCS#8 PrivateKeyInfo or "
        "SubjectPublicKeyInfo"
    )


def _der_layout(children: list[tuple[int, int, bytes]]) -> str | None:
    """Which key structure a DER SEQUENCE is, from the universal tags of its first elements:
    "SubjectPublicKeyInfo", "PrivateKeyInfo", "ECPrivateKey", "EncryptedPrivateKeyInfo",
    "RSAPrivateKey", "RSAPublicKey", "DSAPrivateKey" (OpenSSL's), or None."""
    tags = [(cls, tag) for cls, tag, _encoding in children]
    universal = [tag for cls, tag in tags if cls == 0]
    seq, integer, octets, bits = 16, 2, 4, 3
    if tags[:2] == [(0, seq), (0, bits)]:
        return "SubjectPublicKeyInfo"
    if tags[:3] == [(0, integer), (0, seq), (0, octets)]:
        return "PrivateKeyInfo"
    if tags[:2] == [(0, integer), (0, octets)]:
        return "ECPrivateKey"
    if tags == [(0, seq), (0, octets)]:
        return "EncryptedPrivateKeyInfo"
    if len(tags) >= 9 and universal[:9] == [integer] * 9:
        return "RSAPrivateKey"      # two-prime, or multi-prime with otherPrimeInfos after
    if tags == [(0, integer), (0, integer)]:
        return "RSAPublicKey"
    if tags == [(0, integer)] * 6:
        return "DSAPrivateKey"      # version, p, q, g, y, x
    return None


# What each key layout and PEM label is for (key_algorithm); PKCS#8 and SubjectPublicKeyInfo
# name their algorithm inside.
_LAYOUT_ALGORITHMS = {"ECPrivateKey": "ec", "RSAPrivateKey": "rsa", "RSAPublicKey": "rsa",
                      "DSAPrivateKey": "dsa"}
_LABEL_ALGORITHMS = {"EC PRIVATE KEY": "ec", "RSA PRIVATE KEY": "rsa", "RSA PUBLIC KEY": "rsa",
                     "DSA PRIVATE KEY": "dsa"}
_ALGORITHM_POSITION = {"SubjectPublicKeyInfo": 0, "PrivateKeyInfo": 1}


def key_algorithm(data: bytes) -> str | None:
    """What algorithm a key file is for, from its PEM label or AlgorithmIdentifier only.

    No key field is decoded, so a key Montu cannot load is still recognised (a curve it does not
    support, a multi-prime RSA key, a damaged point): "ec", "rsa", "rsassa_pss", "ed25519",
    "x25519", "dsa", ... (asn1crypto's names), the dotted OID of an algorithm without a name, or
    None when `data` is no key file this can place (not PEM/DER, encrypted, no key block, over
    MAX_KEY_BYTES). For routing a file to the right loader, whose errors then say what is wrong.
    """
    if not isinstance(data, (bytes, bytearray)) or len(data) > MAX_KEY_BYTES:
        return None
    data = bytes(data)
    if not pem.detect(data):
        return _der_algorithm(data)
    try:
        blocks = _pem_blocks(data)
    except EcFormatError:
        return None
    for label, _headers, der in blocks:
        if label in _LABEL_ALGORITHMS:
            return _LABEL_ALGORITHMS[label]
        if label in ("PRIVATE KEY", "PUBLIC KEY"):
            return _der_algorithm(der)
    return None


def _der_algorithm(der: bytes) -> str | None:
    try:
        children = _first_children(der, _SNIFFED_CHILDREN)
        layout = _der_layout(children)
        if layout not in _ALGORITHM_POSITION:
            return _LAYOUT_ALGORITHMS.get(layout or "")
        _cls, _tag, encoding = children[_ALGORITHM_POSITION[layout]]
        oid: str = _AlgorithmIdentifier.load(encoding, strict=True)["algorithm"].dotted
    except _ASN1_ERRORS:
        return None
    name: str = keys.PublicKeyAlgorithmId._map.get(oid, oid)  # noqa: SLF001
    return name


# Telling the structures apart needs the tags of at most this many elements: nine INTEGERs
# make an RSAPrivateKey, and one more element shows whether a sequence has more than two.
_SNIFFED_CHILDREN = 10


def _first_children(der: bytes, count: int) -> list[tuple[int, int, bytes]]:
    """(class, tag, encoding) of the first `count` elements of the DER SEQUENCE `der` (all of them
    if it has fewer); ValueError if it is not one. Reads only the tag-length framing, so no field
    is interpreted yet, and only of those elements: the time is linear in len(der) however many
    elements the sequence holds."""
    cls, _method, tag, _header, contents, _trailer = parser.parse(der, strict=True)
    if (cls, tag) != (0, 16):
        raise ValueError("the data is not a DER SEQUENCE")
    children = []
    offset = 0
    while offset < len(contents) and len(children) < count:
        rest = contents[offset:] if offset else contents
        cls, _method, tag, header, body, trailer = parser.parse(rest)
        size = len(header) + len(body) + len(trailer)
        children.append((cls, tag, rest[:size]))
        offset += size
    return children


class _AlgorithmIdentifier(core.Sequence):
    """AlgorithmIdentifier with opaque parameters: reads the OID of any key type (asn1crypto's
    typed PrivateKeyInfo/PublicKeyInfo raise KeyError on algorithms they do not know)."""

    _fields = [("algorithm", core.ObjectIdentifier), ("parameters", core.Any, {"optional": True})]


def _algorithm_oid(der: bytes, position: int, what: str) -> str:
    """The algorithm OID of a PKCS#8 (position 1) or SubjectPublicKeyInfo (position 0) key."""
    try:
        children = _first_children(der, position + 1)
        cls, tag, encoding = children[position]
        if (cls, tag) != (0, 16):
            raise ValueError("the algorithm identifier is not a SEQUENCE")
        oid: str = _AlgorithmIdentifier.load(encoding, strict=True)["algorithm"].dotted
    except _ASN1_ERRORS as exc:
        raise EcFormatError(f"malformed {what}: {exc}") from None
    return oid


def _strict_load(spec: type[core.Asn1Value], der: bytes, what: str) -> core.Asn1Value:
    """Parse `der` as `spec` completely (asn1crypto is lazy), rejecting trailing data."""
    try:
        value = spec.load(der, strict=True)
        value.native  # noqa: B018 (forces the parse of every nested field)
    except _ASN1_ERRORS as exc:
        raise EcFormatError(f"malformed {what}: {exc}") from None
    return value


def _named_curve_oid(params: core.Asn1Value) -> str:
    """The OID of ECParameters that name a curve; EcFormatError for explicit/implicit ones."""
    if params.name == "specified":
        raise EcFormatError(
            "explicit EC curve parameters are not supported, only named curves "
            "(write the key with `openssl ec -param_enc named_curve`)"
        )
    if params.name == "implicit_ca":
        raise EcFormatError("implicitlyCA EC parameters are not supported, only named curves")
    oid: str = params.chosen.dotted
    return oid


def _parse_sec1(der: bytes, outer_oid: str | None = None) -> ParsedEcKey:
    """SEC1 ECPrivateKey (`EC PRIVATE KEY`), alone or inside PKCS#8 (then the outer OID rules)."""
    what = "SEC1 EC private key" if outer_oid is None else "EC private key inside PKCS#8"
    key = _strict_load(keys.ECPrivateKey, der, what)
    if key["version"].native != "ecPrivkeyVer1":
        raise EcFormatError(f"{what}: version must be 1, got {key['version'].native}")
    params = key["parameters"]
    inner_oid = None if isinstance(params, core.Void) else _named_curve_oid(params)
    if outer_oid is None and inner_oid is None:
        raise EcFormatError(f"{what}: no curve parameters, cannot tell which curve it is on")
    if outer_oid is not None and inner_oid is not None and inner_oid != outer_oid:
        raise EcFormatError(
            f"{what}: names curve {inner_oid} but the PKCS#8 algorithm names {outer_oid}"
        )
    oid = outer_oid if outer_oid is not None else inner_oid
    assert oid is not None
    sizes = _curve_sizes(oid)
    scalar = key["private_key"].contents
    if len(scalar) > sizes.order_bytes:
        raise EcFormatError(
            f"{what}: private scalar is {len(scalar)} bytes, the group order of curve {oid} "
            f"has {sizes.order_bytes}"
        )
    point = key["public_key"]
    public = None if isinstance(point, core.Void) else _decode_point(point, sizes, what)
    return ParsedEcKey(curve_oid=oid, private=int.from_bytes(scalar, "big"), public=public)


def _parse_pkcs8(der: bytes) -> ParsedEcKey:
    """PKCS#8 PrivateKeyInfo (`PRIVATE KEY`) holding an EC key."""
    what = "PKCS#8 private key"
    _require_ec_algorithm(_algorithm_oid(der, 1, what), what)
    try:
        info = keys.PrivateKeyInfo.load(der, strict=True)
        algorithm = info["private_key_algorithm"]
        version = info["version"].native
    except _ASN1_ERRORS as exc:
        raise EcFormatError(f"malformed {what}: {exc}") from None
    if version != 0:
        raise EcFormatError(f"{what}: version must be 0, got {version}")
    try:
        params = algorithm["parameters"]
        params.native  # noqa: B018
        inner = info["private_key"].contents
        attributes = info["attributes"]
    except _ASN1_ERRORS as exc:
        raise EcFormatError(f"malformed {what}: {exc}") from None
    _check_attributes(attributes, what)
    if not isinstance(params, keys.ECDomainParameters):
        raise EcFormatError(f"{what}: the EC algorithm has no curve parameters")
    return _parse_sec1(inner, outer_oid=_named_curve_oid(params))


# PKCS#8 attributes are allowed (RFC 5208) and carry nothing Montu uses; OpenSSL writes none.
# They are checked to be well formed, up to this size (decoding is slow on asn1crypto).
_MAX_ATTRIBUTES_BYTES = 16 << 10


def _check_attributes(attributes: core.Asn1Value, what: str) -> None:
    if isinstance(attributes, core.Void):
        return
    size = len(attributes.contents or b"")
    if size > _MAX_ATTRIBUTES_BYTES:
        raise EcFormatError(f"{what}: {size:,} bytes of PKCS#8 attributes; keys with more than "
                            f"{size_text(_MAX_ATTRIBUTES_BYTES)} of them are not read")
    try:
        attributes.native  # noqa: B018 (forces the parse)
    except _ASN1_ERRORS as exc:
        raise EcFormatError(f"malformed {what}: {exc}") from None


def _parse_spki(der: bytes) -> ParsedEcKey:
    """SubjectPublicKeyInfo (`PUBLIC KEY`) holding an EC point."""
    what = "SubjectPublicKeyInfo"
    _require_ec_algorithm(_algorithm_oid(der, 0, what), what)
    try:
        info = keys.PublicKeyInfo.load(der, strict=True)
        algorithm = info["algorithm"]
        params = algorithm["parameters"]
        params.native  # noqa: B018
        point = info["public_key"]
        point.native  # noqa: B018
    except _ASN1_ERRORS as exc:
        raise EcFormatError(f"malformed {what}: {exc}") from None
    if not isinstance(params, keys.ECDomainParameters):
        raise EcFormatError(f"{what}: the EC algorithm has no curve parameters")
    oid = _named_curve_oid(params)
    sizes = _curve_sizes(oid)
    return ParsedEcKey(curve_oid=oid, private=None, public=_decode_point(point, sizes, what))


def _require_ec_algorithm(algorithm_oid: str, what: str) -> None:
    if algorithm_oid == _EC_PUBLIC_KEY_OID:
        return
    if algorithm_oid in _RSA_OIDS:
        raise EcFormatError(
            f"this is an RSA key ({what} with algorithm OID {algorithm_oid}), not an EC key"
        )
    name = keys.PublicKeyAlgorithmId._map.get(algorithm_oid)  # noqa: SLF001
    label = f"{algorithm_oid} ({name})" if name else algorithm_oid
    raise EcFormatError(
        f"not an EC key: the {what} has algorithm {label}, "
        f"expected id-ecPublicKey ({_EC_PUBLIC_KEY_OID})"
    )


def _decode_point(bits: core.Asn1Value, sizes: _Sizes,
                  what: str) -> tuple[int, int] | CompressedPoint:
    """(x, y) of an uncompressed SEC1 point, or x and the y bit of a compressed one, in a BIT
    STRING of whole bytes. Coordinates are not range-checked here (the curve does that)."""
    try:
        raw: bytes = bits.native
    except _ASN1_ERRORS as exc:  # e.g. unused bits in the BIT STRING
        raise EcFormatError(f"{what}: malformed public point: {exc}") from None
    fb = sizes.field_bytes
    if not raw:
        raise EcFormatError(f"{what}: the public point is empty")
    kind = raw[0]
    if kind in (0x02, 0x03):
        if len(raw) != 1 + fb:
            raise EcFormatError(
                f"{what}: a compressed point on this curve is {1 + fb} bytes "
                f"(0x{kind:02x} || X, {fb}-byte x), got {len(raw)}"
            )
        return CompressedPoint(x=int.from_bytes(raw[1:], "big"), y_bit=kind - 0x02)
    if kind in (0x06, 0x07):
        raise EcFormatError(
            f"{what}: the public point is in hybrid form (first byte 0x{kind:02x}); only "
            "uncompressed (0x04) and compressed (0x02, 0x03) points are supported (convert with "
            "`openssl ec -conv_form uncompressed`)"
        )
    if kind == 0x00:
        raise EcFormatError(f"{what}: the public point is the point at infinity")
    if kind != 0x04:
        raise EcFormatError(f"{what}: unknown point encoding (first byte 0x{kind:02x})")
    if len(raw) != 1 + 2 * fb:
        raise EcFormatError(
            f"{what}: an uncompressed point on this curve is {1 + 2 * fb} bytes "
            f"(04 || X || Y, {fb}-byte coordinates), got {len(raw)}"
        )
    return int.from_bytes(raw[1 : 1 + fb], "big"), int.from_bytes(raw[1 + fb :], "big")


_PARSERS = {
    "EC PRIVATE KEY": _parse_sec1,
    "PRIVATE KEY": _parse_pkcs8,
    "PUBLIC KEY": _parse_spki,
}
_DER_PARSERS = {
    "ECPrivateKey": _parse_sec1,
    "PrivateKeyInfo": _parse_pkcs8,
    "SubjectPublicKeyInfo": _parse_spki,
}


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def dump_private(
    curve_oid: str,
    d: int,
    public_xy: tuple[int, int] | None,
    fmt: Literal["sec1", "pkcs8"] = "sec1",
    encoding: Literal["pem", "der"] = "pem",
    field_bytes: int | None = None,
    order_bytes: int | None = None,
) -> bytes:
    """An EC private key as OpenSSL writes it.

    `fmt="sec1"`: ECPrivateKey with the named curve and the public point (`openssl ecparam
    -genkey`, label `EC PRIVATE KEY`). `fmt="pkcs8"`: PrivateKeyInfo whose ECPrivateKey carries
    the public point but not the curve, which is in the algorithm identifier (`openssl genpkey`,
    label `PRIVATE KEY`). `field_bytes`/`order_bytes` default to the curve table's.
    """
    sizes = _sizes(curve_oid, field_bytes, order_bytes)
    if not isinstance(d, int) or d <= 0:
        raise ValueError(f"the private scalar must be a positive integer, got {d!r}")
    if d.bit_length() > 8 * sizes.order_bytes:
        raise ValueError(
            f"the private scalar ({d.bit_length()} bits) does not fit the "
            f"{sizes.order_bytes}-byte group order of curve {curve_oid}"
        )
    named = keys.ECDomainParameters(name="named", value=curve_oid)
    ec_key = keys.ECPrivateKey({"version": "ecPrivkeyVer1", "private_key": d})
    if fmt == "sec1":
        ec_key["parameters"] = named
    if public_xy is not None:
        ec_key["public_key"] = keys.ECPointBitString(_encode_point(public_xy, sizes.field_bytes))
    ec_key.set_key_size(sizes.order_bytes)
    if fmt == "sec1":
        return _armor("EC PRIVATE KEY", ec_key.dump(), encoding)
    if fmt == "pkcs8":
        info = keys.PrivateKeyInfo(
            {
                "version": 0,
                "private_key_algorithm": keys.PrivateKeyAlgorithm(
                    {"algorithm": "ec", "parameters": named}
                ),
                "private_key": ec_key,
            }
        )
        return _armor("PRIVATE KEY", info.dump(), encoding)
    raise ValueError(f"unknown private key format {fmt!r}; expected 'sec1' or 'pkcs8'")


def dump_public(
    curve_oid: str,
    xy: tuple[int, int],
    encoding: Literal["pem", "der"] = "pem",
    field_bytes: int | None = None,
) -> bytes:
    """An EC public key: SubjectPublicKeyInfo, uncompressed point (`openssl ec -pubout`)."""
    fb = field_bytes if field_bytes is not None else _curve_sizes(curve_oid).field_bytes
    info = keys.PublicKeyInfo(
        {
            "algorithm": keys.PublicKeyAlgorithm(
                {
                    "algorithm": "ec",
                    "parameters": keys.ECDomainParameters(name="named", value=curve_oid),
                }
            ),
            "public_key": keys.ECPointBitString(_encode_point(xy, fb)),
        }
    )
    return _armor("PUBLIC KEY", info.dump(), encoding)


def _encode_point(xy: tuple[int, int], field_bytes: int) -> bytes:
    """SEC1 2.3.3 uncompressed point: 04 || X || Y, each coordinate `field_bytes` long."""
    x, y = xy
    for name, value in (("x", x), ("y", y)):
        if not isinstance(value, int) or value < 0 or value.bit_length() > 8 * field_bytes:
            raise ValueError(
                f"point coordinate {name} must be a non-negative integer of at most "
                f"{field_bytes} bytes, got {value!r}"
            )
    return b"\x04" + x.to_bytes(field_bytes, "big") + y.to_bytes(field_bytes, "big")


def _armor(label: str, der: bytes, encoding: str) -> bytes:
    if encoding == "der":
        return der
    if encoding == "pem":
        armored: bytes = pem.armor(label, der)
        return armored
    raise ValueError(f"unknown encoding {encoding!r}; expected 'pem' or 'der'")


# --------------------------------------------------------------------------------------------
# Signatures
# --------------------------------------------------------------------------------------------


def encode_signature(r: int, s: int) -> bytes:
    """DER Ecdsa-Sig-Value `SEQUENCE { r INTEGER, s INTEGER }`, as `openssl dgst -sign` writes."""
    for name, value in (("r", r), ("s", s)):
        if not isinstance(value, int) or value <= 0:
            raise ValueError(
                f"signature component {name} must be a positive integer, got {value!r}"
            )
    der: bytes = algos.DSASignature({"r": r, "s": s}).dump()
    return der


def decode_signature(der: bytes) -> tuple[int, int]:
    """(r, s) of a DER Ecdsa-Sig-Value; strict DER: no trailing data, minimal encodings,
    r and s positive. Range checks against the group order are the verifier's job."""
    if not isinstance(der, (bytes, bytearray)):
        raise TypeError(f"decode_signature takes bytes, not {type(der).__name__}")
    der = bytes(der)
    if len(der) > MAX_SIGNATURE_BYTES:
        raise EcFormatError(
            f"malformed ECDSA signature: {len(der):,} bytes, more than any signature "
            f"(at most {size_text(MAX_SIGNATURE_BYTES)} is read)"
        )
    try:
        sig = algos.DSASignature.load(der, strict=True)
        r, s = sig["r"].native, sig["s"].native
        canonical = algos.DSASignature({"r": r, "s": s}).dump()
    except _ASN1_ERRORS as exc:
        raise EcFormatError(f"malformed ECDSA signature (DER Ecdsa-Sig-Value): {exc}") from None
    if canonical != der:
        # asn1crypto accepts BER leniencies (long-form lengths, non-minimal INTEGERs); DER is
        # unique, so anything that does not re-encode to the same bytes is not DER.
        raise EcFormatError(
            "malformed ECDSA signature: not in canonical DER (non-minimal length or integer "
            "encoding, or extra fields)"
        )
    for name, value in (("r", r), ("s", s)):
        if value <= 0:
            raise EcFormatError(f"malformed ECDSA signature: {name} must be positive, got {value}")
    return r, s
