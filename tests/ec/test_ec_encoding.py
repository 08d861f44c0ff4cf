"""montu.ec.encoding against files OpenSSL wrote: SEC1, PKCS#8, SubjectPublicKeyInfo, signatures.

The fixtures in data/openssl/ were written by OpenSSL 3.0 (data/openssl/regenerate.sh): for
each of the 15 NIST curves and secp256k1 a SEC1 key (`openssl ecparam -genkey -noout`), a
PKCS#8 key (`openssl genpkey`), the SEC1 key's public key (`openssl ec -pubout`) and `openssl
pkey -text` of both private keys; plus inputs Montu must reject. Tests marked "live" run the
installed `openssl` too and are skipped without it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from asn1crypto import core, keys, pem
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)
from hypothesis import given
from hypothesis import strategies as st

from montu.ec.encoding import (
    EcFormatError,
    ParsedEcKey,
    decode_signature,
    dump_private,
    dump_public,
    encode_signature,
    load_key,
)
from montu.errors import MontuError

DATA = Path(__file__).parent / "data" / "openssl"

# NIST name -> (OpenSSL name, OID)
CURVES = {
    "P-192": ("prime192v1", "1.2.840.10045.3.1.1"),
    "P-224": ("secp224r1", "1.3.132.0.33"),
    "P-256": ("prime256v1", "1.2.840.10045.3.1.7"),
    "P-384": ("secp384r1", "1.3.132.0.34"),
    "P-521": ("secp521r1", "1.3.132.0.35"),
    "K-163": ("sect163k1", "1.3.132.0.1"),
    "K-233": ("sect233k1", "1.3.132.0.26"),
    "K-283": ("sect283k1", "1.3.132.0.16"),
    "K-409": ("sect409k1", "1.3.132.0.36"),
    "K-571": ("sect571k1", "1.3.132.0.38"),
    "B-163": ("sect163r2", "1.3.132.0.15"),
    "B-233": ("sect233r1", "1.3.132.0.27"),
    "B-283": ("sect283r1", "1.3.132.0.17"),
    "B-409": ("sect409r1", "1.3.132.0.37"),
    "B-571": ("sect571r1", "1.3.132.0.39"),
    "secp256k1": ("secp256k1", "1.3.132.0.10"),  # in Montu's table too, though not a NIST curve
}
# (field bytes, order bytes) as OpenSSL writes them: ceil(m/8) or ceil(bits(p)/8), ceil(bits(n)/8)
SIZES = {
    "P-192": (24, 24), "P-224": (28, 28), "P-256": (32, 32), "P-384": (48, 48),
    "P-521": (66, 66), "K-163": (21, 21), "K-233": (30, 29), "K-283": (36, 36),
    "K-409": (52, 51), "K-571": (72, 72), "B-163": (21, 21), "B-233": (30, 30),
    "B-283": (36, 36), "B-409": (52, 52), "B-571": (72, 72), "secp256k1": (32, 32),
}

OPENSSL = shutil.which("openssl")
live = pytest.mark.skipif(OPENSSL is None, reason="the openssl command is not installed")


def der_of(path: Path) -> bytes:
    _label, _headers, der = pem.unarmor(path.read_bytes())
    return der


def openssl_text(path: Path) -> tuple[int, tuple[int, int], str]:
    """(d, Q, OID name) from `openssl pkey -text -noout` output."""
    text = path.read_text()
    blocks = dict(re.findall(r"^(priv|pub):\n((?:    .*\n)+)", text, re.M))
    hexes = {k: bytes.fromhex(re.sub(r"[\s:]", "", v)) for k, v in blocks.items()}
    point = hexes["pub"]
    assert point[0] == 4
    half = (len(point) - 1) // 2
    qx, qy = int.from_bytes(point[1 : 1 + half], "big"), int.from_bytes(point[1 + half :], "big")
    (oid_name,) = re.findall(r"^ASN1 OID: (\S+)", text, re.M)
    return int.from_bytes(hexes["priv"], "big"), (qx, qy), oid_name


def named_curve(oid: str) -> bytes:
    """DER ECParameters naming curve `oid` (the body of an EC PARAMETERS block)."""
    der: bytes = keys.ECDomainParameters(name="named", value=oid).dump()
    return der


def run_openssl(*args: str, stdin: bytes | None = None) -> bytes:
    assert OPENSSL is not None
    done = subprocess.run([OPENSSL, *args], input=stdin, capture_output=True, check=True)
    return done.stdout


# ---------------------------------------------------------------------------------------------
# OpenSSL's files: parse, compare with `openssl pkey -text`, write back byte for byte
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize("fmt", ["sec1", "pkcs8"])
def test_private_key_matches_openssl_text_and_round_trips(name: str, fmt: str) -> None:
    ossl_name, oid = CURVES[name]
    field_bytes, order_bytes = SIZES[name]
    path = DATA / f"{name}.{fmt}.pem"
    d, q, text_oid_name = openssl_text(DATA / f"{name}.{fmt}.txt")
    assert text_oid_name == ossl_name

    parsed = load_key(path.read_bytes())
    assert parsed == ParsedEcKey(curve_oid=oid, private=d, public=q)
    assert load_key(der_of(path)) == parsed  # raw DER too

    kind = "sec1" if fmt == "sec1" else "pkcs8"
    pem_out = dump_private(oid, d, q, fmt=kind)
    assert pem_out == path.read_bytes()
    assert dump_private(oid, d, q, fmt=kind, encoding="der") == der_of(path)
    # explicit lengths give the same bytes as the curve table's
    explicit = dump_private(
        oid, d, q, fmt=kind, field_bytes=field_bytes, order_bytes=order_bytes
    )
    assert explicit == pem_out


@pytest.mark.parametrize("name", CURVES)
def test_public_key_matches_private_and_round_trips(name: str) -> None:
    _ossl_name, oid = CURVES[name]
    path = DATA / f"{name}.pub.pem"
    private = load_key((DATA / f"{name}.sec1.pem").read_bytes())
    parsed = load_key(path.read_bytes())
    assert parsed == ParsedEcKey(curve_oid=oid, private=None, public=private.public)
    assert load_key(der_of(path)) == parsed
    assert private.public is not None
    assert dump_public(oid, private.public) == path.read_bytes()
    assert dump_public(oid, private.public, encoding="der") == der_of(path)
    assert dump_public(oid, private.public, field_bytes=SIZES[name][0]) == path.read_bytes()


@pytest.mark.parametrize("name", CURVES)
def test_curve_oids_agree_with_the_curve_table(name: str) -> None:
    from montu.ec import get_curve

    assert get_curve(name).oid == CURVES[name][1]


def test_scalar_and_coordinates_are_padded_to_order_and_field_length() -> None:
    # K-233: the field has 30 bytes (m = 233) but the order only 29 (bits(n) = 232), and
    # OpenSSL writes each with its own length; small values keep their leading zeros.
    oid = CURVES["K-233"][1]
    sec1 = keys.ECPrivateKey.load(dump_private(oid, 5, (1, 2), encoding="der"))
    assert sec1["private_key"].contents == bytes(28) + b"\x05"
    assert sec1["public_key"].native == b"\x04" + bytes(29) + b"\x01" + bytes(29) + b"\x02"
    assert load_key(dump_private(oid, 5, (1, 2))) == ParsedEcKey(oid, 5, (1, 2))


def test_private_key_without_public_point() -> None:
    oid = CURVES["B-283"][1]
    for fmt in ("sec1", "pkcs8"):
        out = dump_private(oid, 12345, None, fmt=fmt)  # type: ignore[arg-type]
        assert load_key(out) == ParsedEcKey(curve_oid=oid, private=12345, public=None)


def test_ec_parameters_block_before_the_key_is_accepted_if_it_matches() -> None:
    # `openssl ecparam -genkey` without -noout writes an EC PARAMETERS block first
    key = (DATA / "K-283.sec1.pem").read_bytes()
    params = pem.armor("EC PARAMETERS", named_curve(CURVES["K-283"][1]))
    assert load_key(params + key) == load_key(key)
    other = pem.armor("EC PARAMETERS", named_curve(CURVES["P-256"][1]))
    with pytest.raises(EcFormatError, match="EC PARAMETERS block names curve"):
        load_key(other + key)


# ---------------------------------------------------------------------------------------------
# Live OpenSSL: fresh keys, and OpenSSL's own format conversions, must match Montu's output
# ---------------------------------------------------------------------------------------------


@live
@pytest.mark.parametrize("name", CURVES)
def test_fresh_openssl_keys_and_conversions(name: str, tmp_path: Path) -> None:
    ossl_name, oid = CURVES[name]
    sec1 = run_openssl("ecparam", "-name", ossl_name, "-genkey", "-noout")
    (tmp_path / "k.pem").write_bytes(sec1)
    parsed = load_key(sec1)
    assert parsed.private is not None and parsed.public is not None
    assert dump_private(oid, parsed.private, parsed.public) == sec1

    # `openssl pkey` writes PKCS#8; `openssl ec -pubout` SubjectPublicKeyInfo; `-no_public` a
    # SEC1 key without the point; `-outform DER` the same as DER
    key = str(tmp_path / "k.pem")
    pkcs8 = run_openssl("pkey", "-in", key)
    assert dump_private(oid, parsed.private, parsed.public, fmt="pkcs8") == pkcs8
    pub = run_openssl("ec", "-in", key, "-pubout")
    assert dump_public(oid, parsed.public) == pub
    no_public = run_openssl("ec", "-in", key, "-no_public")
    assert dump_private(oid, parsed.private, None) == no_public
    assert load_key(no_public) == ParsedEcKey(oid, parsed.private, None)
    sec1_der = run_openssl("ec", "-in", key, "-outform", "DER")
    assert dump_private(oid, parsed.private, parsed.public, encoding="der") == sec1_der

    # and OpenSSL reads what Montu writes, PEM and DER, and finds the same numbers
    (tmp_path / "m.der").write_bytes(
        dump_private(oid, parsed.private, parsed.public, fmt="pkcs8", encoding="der")
    )
    text = run_openssl("pkey", "-in", str(tmp_path / "m.der"), "-inform", "DER", "-text", "-noout")
    (tmp_path / "m.txt").write_bytes(text)
    assert openssl_text(tmp_path / "m.txt") == (parsed.private, parsed.public, ossl_name)


# ---------------------------------------------------------------------------------------------
# Inputs Montu rejects, each with the fact the user needs
# ---------------------------------------------------------------------------------------------

REJECTED_FILES = {
    "bad.rsa.pkcs8.pem": "RSA key",
    "bad.rsa.pkcs1.pem": "RSA key",
    "bad.rsa.pub.pem": "RSA key",
    "bad.ed25519.pkcs8.pem": r"not an EC key.*1\.3\.101\.112",
    "bad.explicit.sec1.pem": "explicit EC curve parameters are not supported, only named curves",
    "bad.explicit.pub.pem": "explicit EC curve parameters are not supported, only named curves",
    "bad.brainpool.sec1.pem":
        r"unsupported elliptic curve brainpoolp256r1 \(OID 1\.3\.36\.3\.3\.2\.8\.1\.1\.7\)",
    "bad.brainpool.pub.pem": r"unsupported elliptic curve brainpoolp256r1",
    "bad.encrypted.pkcs8.pem": "encrypted",
}


@pytest.mark.parametrize("filename", REJECTED_FILES)
@pytest.mark.parametrize("form", ["pem", "der"])
def test_rejected_files(filename: str, form: str) -> None:
    path = DATA / filename
    data = path.read_bytes() if form == "pem" else der_of(path)
    with pytest.raises(EcFormatError, match=REJECTED_FILES[filename]):
        load_key(data)


def test_format_error_is_a_montu_error_and_a_value_error() -> None:
    assert issubclass(EcFormatError, MontuError)
    assert issubclass(EcFormatError, ValueError)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "malformed DER"),
        (b"hello, world", "malformed DER"),
        (bytes(range(256)), "malformed DER"),
        (b"\x02\x01\x01", "malformed DER: the data is not a DER SEQUENCE"),
        (b"-----BEGIN EC PRIVATE KEY-----\nAAAA\n", "malformed PEM"),
        (b"-----BEGIN EC PRIVATE KEY-----\n!!!!\n-----END EC PRIVATE KEY-----\n", "malformed"),
        (pem.armor("CERTIFICATE", b"\x30\x00"), "unexpected PEM block 'CERTIFICATE'"),
        (pem.armor("EC PARAMETERS", named_curve("1.3.132.0.16")),
         "expected exactly one key in the PEM data, found 0"),
    ],
)
def test_malformed_input(data: bytes, message: str) -> None:
    with pytest.raises(EcFormatError, match=message):
        load_key(data)


def test_two_keys_in_one_pem_file() -> None:
    key = (DATA / "P-256.sec1.pem").read_bytes()
    with pytest.raises(EcFormatError, match="exactly one key.*found 2"):
        load_key(key + key)


@pytest.mark.parametrize("filename", ["P-256.sec1.pem", "B-163.pkcs8.pem", "K-409.pub.pem"])
def test_every_truncation_and_trailing_data_is_rejected(filename: str) -> None:
    der = der_of(DATA / filename)
    for length in range(len(der)):
        with pytest.raises(EcFormatError):
            load_key(der[:length])
    with pytest.raises(EcFormatError, match="trailing data"):
        load_key(der + b"\x00")
    # the key still loads: no state is left behind by the failures
    assert load_key(der).curve_oid


FUZZ_SEEDS = [der_of(path) for path in sorted(DATA.glob("*.pem"))]


@given(
    st.sampled_from(FUZZ_SEEDS),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255), st.sampled_from("sid")),
             min_size=1, max_size=4),
)
def test_damaged_keys_give_format_errors_only(seed: bytes, edits: list) -> None:
    # Set, insert or delete bytes anywhere: the result parses or raises EcFormatError, never
    # an asn1crypto KeyError/AttributeError (found by fuzzing: unknown algorithm OIDs did that).
    data = bytearray(seed)
    for position, value, kind in edits:
        at = position % len(data) if data else 0
        if kind == "s" and data:
            data[at] = value
        elif kind == "i":
            data.insert(at, value)
        elif data:
            del data[at]
    try:
        parsed = load_key(bytes(data))
    except EcFormatError:
        return
    assert isinstance(parsed, ParsedEcKey)


def test_unknown_algorithm_oid_is_reported_not_crashed_on() -> None:
    der = bytearray(der_of(DATA / "P-256.pub.pem"))
    ec_oid = bytes.fromhex("2a8648ce3d0201")  # 1.2.840.10045.2.1
    at = der.index(ec_oid)
    der[at + 6] = 0x07  # 1.2.840.10045.2.7: an OID asn1crypto has no key spec for
    with pytest.raises(EcFormatError, match=r"not an EC key.*algorithm 1\.2\.840\.10045\.2\.7"):
        load_key(bytes(der))


def test_trailing_data_inside_pkcs8_octet_string() -> None:
    info = keys.PrivateKeyInfo.load(der_of(DATA / "P-256.pkcs8.pem"))
    padded = keys.PrivateKeyInfo(
        {
            "version": 0,
            "private_key_algorithm": info["private_key_algorithm"],
            "private_key": core.ParsableOctetString(info["private_key"].contents + b"\x00"),
        }
    )
    assert len(padded.dump()) == len(info.dump()) + 1
    with pytest.raises(EcFormatError, match="trailing data"):
        load_key(padded.dump())


def _spki(oid: str, point: bytes) -> bytes:
    algorithm = keys.PublicKeyAlgorithm(
        {"algorithm": "ec", "parameters": keys.ECDomainParameters(name="named", value=oid)}
    )
    der: bytes = keys.PublicKeyInfo(
        {"algorithm": algorithm, "public_key": keys.ECPointBitString(point)}
    ).dump()
    return der


@pytest.mark.parametrize(
    "point, message",
    [
        (b"\x04" + bytes(63), "uncompressed point on this curve is 65 bytes"),  # one byte short
        (b"\x04" + bytes(66), "uncompressed point on this curve is 65 bytes"),  # one byte long
        (b"\x04", "uncompressed point on this curve is 65 bytes"),
        (b"\x02" + bytes(31), "a compressed point on this curve is 33 bytes"),   # one byte short
        (b"\x03" + bytes(33), "a compressed point on this curve is 33 bytes"),   # one byte long
        (b"\x06" + bytes(64), "hybrid form"),
        (b"\x00", "point at infinity"),
        (b"\x05" + bytes(64), "unknown point encoding"),
        (b"", "public point is empty"),
    ],
)
def test_bad_points(point: bytes, message: str) -> None:
    with pytest.raises(EcFormatError, match=message):
        load_key(_spki(CURVES["P-256"][1], point))


def test_unknown_curve_oid() -> None:
    der = _spki("1.2.3.4.5", b"\x04" + bytes(64))
    supported = r"Montu supports.*prime256v1 \(P-256\).*sect571r1 \(B-571\)"
    unknown = r"unsupported elliptic curve OID 1\.2\.3\.4\.5; "
    with pytest.raises(EcFormatError, match=unknown + supported):
        load_key(der)
    with pytest.raises(EcFormatError, match="unsupported elliptic curve OID 1.2.3.4.5"):
        dump_public("1.2.3.4.5", (1, 2))  # no lengths given and none in the table


def test_secp224k1_is_not_a_supported_curve() -> None:
    der = _spki("1.3.132.0.32", b"\x04" + bytes(58))
    with pytest.raises(EcFormatError, match=r"unsupported elliptic curve secp224k1"):
        load_key(der)


def test_sec1_with_wrong_version_or_oversized_scalar() -> None:
    der = dump_private(CURVES["P-256"][1], 7, None, encoding="der")
    key = keys.ECPrivateKey.load(der)
    key["version"] = 2
    with pytest.raises(EcFormatError, match="version must be 1"):
        load_key(key.dump(force=True))
    key = keys.ECPrivateKey.load(der)
    key["private_key"] = core.IntegerOctetString(1 << 256)
    with pytest.raises(EcFormatError, match="private scalar is 33 bytes.*has 32"):
        load_key(key.dump(force=True))


def test_pkcs8_inner_curve_must_match_outer() -> None:
    info = keys.PrivateKeyInfo.load(der_of(DATA / "P-256.pkcs8.pem"))
    inner = keys.ECPrivateKey.load(info["private_key"].contents)
    inner["parameters"] = keys.ECDomainParameters(name="named", value=CURVES["P-384"][1])
    info["private_key"] = core.ParsableOctetString(inner.dump(force=True))
    with pytest.raises(EcFormatError, match="PKCS#8 algorithm names 1.2.840.10045.3.1.7"):
        load_key(info.dump(force=True))


def test_load_key_wants_bytes() -> None:
    with pytest.raises(TypeError):
        load_key("-----BEGIN PUBLIC KEY-----")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"d": 0}, "positive integer"),
        ({"d": -1}, "positive integer"),
        ({"d": 1 << 256}, r"does not fit the 32-byte group order"),
        ({"public_xy": (1 << 256, 1)}, "at most 32 bytes"),
        ({"public_xy": (1, -1)}, "non-negative"),
        ({"fmt": "pkcs1"}, "unknown private key format 'pkcs1'"),
        ({"encoding": "base64"}, "unknown encoding 'base64'"),
    ],
)
def test_dump_private_argument_errors(kwargs: dict, message: str) -> None:
    args = {"curve_oid": CURVES["P-256"][1], "d": 1, "public_xy": (1, 2)} | kwargs
    with pytest.raises(ValueError, match=message):
        dump_private(**args)


# ---------------------------------------------------------------------------------------------
# Signatures
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["P-256", "P-521", "K-163", "B-571"])
def test_openssl_signature_round_trips(name: str) -> None:
    der = (DATA / f"{name}.sig.der").read_bytes()
    r, s = decode_signature(der)
    assert (r, s) == decode_dss_signature(der)
    assert encode_signature(r, s) == der


@given(st.integers(1, 1 << 600), st.integers(1, 1 << 600))
def test_signature_encoding_matches_pyca(r: int, s: int) -> None:
    der = encode_signature(r, s)
    assert der == encode_dss_signature(r, s)  # pyca/cryptography, an independent DER writer
    assert decode_signature(der) == (r, s)


@pytest.mark.parametrize(
    "der, message",
    [
        ("", "malformed ECDSA signature"),
        ("30060201010201", "malformed ECDSA signature"),  # truncated
        ("3006020101020101" + "00", "trailing data"),
        ("300702020001020101", "canonical DER"),  # r = 00 01: non-minimal
        ("3006020181020101", "must be positive"),  # r = 0x81: negative
        ("3006020100020101", "must be positive"),  # r = 0
        ("308106020101020101", "canonical DER"),  # long-form length of the SEQUENCE
        ("3009020101020101020101", "canonical DER"),  # three integers
        ("3006040101020101", "malformed ECDSA signature"),  # OCTET STRING for r
        ("3180" + "020101020101" + "0000", "malformed ECDSA signature"),  # BER indefinite SET
        ("3003020101", "malformed ECDSA signature"),  # s missing
    ],
)
def test_malformed_signatures(der: str, message: str) -> None:
    with pytest.raises(EcFormatError, match=message):
        decode_signature(bytes.fromhex(der))


def test_encode_signature_rejects_non_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        encode_signature(0, 1)
    with pytest.raises(ValueError, match="positive"):
        encode_signature(1, -5)


# ---------------------------------------------------------------------------------------------
# Review item 4: input size, time linear in it, and routing a file to the right loader
# ---------------------------------------------------------------------------------------------


def test_oversized_keys_and_signatures_are_refused_before_parsing() -> None:
    from montu.errors import MAX_KEY_BYTES, MAX_SIGNATURE_BYTES

    key = (DATA / "P-256.sec1.pem").read_bytes()
    with pytest.raises(EcFormatError, match="at most 1 MiB"):
        load_key(key + b"\n" * MAX_KEY_BYTES)
    with pytest.raises(EcFormatError, match="at most 64 KiB"):
        decode_signature(b"\x30" * (MAX_SIGNATURE_BYTES + 1))
    assert load_key(key).curve_oid == CURVES["P-256"][1]


@pytest.mark.parametrize("shape", ["many-elements", "many-lines"])
def test_parsing_time_is_linear_in_the_input(shape: str) -> None:
    import time

    from montu.errors import MAX_KEY_BYTES

    # before: the DER framing sliced the rest of the data after every element, and asn1crypto's
    # PEM reader appends line by line: seconds to minutes for 1 MiB
    if shape == "many-elements":
        body = b"\x02\x01\x01" * ((MAX_KEY_BYTES - 8) // 3)
        data = b"\x30\x84" + len(body).to_bytes(4, "big") + body
    else:
        data = (b"-----BEGIN EC PRIVATE KEY-----\n" + b"A\n" * ((MAX_KEY_BYTES - 80) // 2)
                + b"-----END EC PRIVATE KEY-----\n")
    # CPU time of this process, not the wall clock: a loaded machine (the full suite beside a
    # place and route) stretched the wall clock to 0.64 s; the quadratic parsers took seconds
    start = time.process_time()
    with pytest.raises(EcFormatError):
        load_key(data)
    assert time.process_time() - start < 1.0


def test_an_encrypted_traditional_pem_key_says_so() -> None:
    key = (DATA / "P-256.sec1.pem").read_bytes().replace(
        b"-----\n", b"-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n", 1)
    with pytest.raises(EcFormatError, match="encrypted"):
        load_key(key)


def test_key_algorithm_reads_only_the_label_or_the_algorithm_identifier() -> None:
    from montu.ec.encoding import key_algorithm

    for path in sorted(DATA.glob("*.pem")):
        if not path.name.startswith("bad."):
            assert key_algorithm(path.read_bytes()) == "ec", path.name
            assert key_algorithm(der_of(path)) == "ec", path.name
    # keys Montu cannot load are still recognised as EC keys
    for name in ("bad.brainpool.sec1.pem", "bad.brainpool.pub.pem", "bad.explicit.pub.pem"):
        assert key_algorithm((DATA / name).read_bytes()) == "ec", name
    assert key_algorithm((DATA / "bad.ed25519.pkcs8.pem").read_bytes()) == "ed25519"
    assert key_algorithm((DATA / "bad.rsa.pkcs1.pem").read_bytes()) == "rsa"
    assert key_algorithm(der_of(DATA / "bad.rsa.pkcs1.pem")) == "rsa"
    for nothing in (b"", b"hello", b"\x30\x00", (DATA / "bad.encrypted.pkcs8.pem").read_bytes()):
        assert key_algorithm(nothing) is None
