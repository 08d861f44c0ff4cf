"""EC private and public keys: generation, ECDSA, ECDH, PEM/DER (through montu.ec.encoding)."""

from __future__ import annotations

import secrets
import threading

from montu.driver import Unit
from montu.ec import ecdsa, points
from montu.ec.curves import Curve, get_curve
from montu.ec.errors import CurveMismatch, InvalidPrivateKey, InvalidPublicKey

_DEFAULT_UNIT: Unit | None = None
_DEFAULT_LOCK = threading.Lock()


def default_unit() -> Unit:
    """The module's shared simulator unit, created on first use."""
    global _DEFAULT_UNIT
    with _DEFAULT_LOCK:
        if _DEFAULT_UNIT is None:
            _DEFAULT_UNIT = Unit(backend="sim")
        return _DEFAULT_UNIT


def _digest(message: bytes, hash_name: str) -> bytes:
    return ecdsa.hash_message(message, hash_name)


class EcPublicKey:
    """A validated point Q of a named curve's prime-order subgroup."""

    def __init__(self, curve: Curve | str, x: int, y: int, unit: Unit | None = None):
        self.curve = get_curve(curve)
        self.unit = unit if unit is not None else default_unit()
        points.validate(self.unit, self.curve, x, y)
        self.x = x
        self.y = y

    @classmethod
    def _trusted(cls, curve: Curve, x: int, y: int, unit: Unit) -> EcPublicKey:
        """A key computed by this library (d·G), which needs no validation."""
        key = cls.__new__(cls)
        key.curve, key.unit, key.x, key.y = curve, unit, x, y
        return key

    @property
    def point(self) -> tuple[int, int]:
        return (self.x, self.y)

    def verify(self, signature: bytes, message: bytes, hash: str = "sha256") -> bool:  # noqa: A002
        """True iff `signature` (DER Ecdsa-Sig-Value) signs `message`; False for any bad or
        malformed signature, including one that is not bytes (an unsupported hash name of a
        well-formed signature raises UnsupportedHash)."""
        from montu.ec import encoding
        from montu.errors import MontuError

        try:
            r, s = encoding.decode_signature(signature)
        except (MontuError, TypeError):     # malformed DER, or not bytes at all
            return False
        return self.verify_digest_rs(r, s, _digest(message, hash))

    def verify_digest(self, signature: bytes, digest: bytes) -> bool:
        """True iff `signature` (DER Ecdsa-Sig-Value) signs the precomputed digest; False for any
        bad or malformed signature, including one that is not bytes."""
        from montu.ec import encoding
        from montu.errors import MontuError

        try:
            r, s = encoding.decode_signature(signature)
        except (MontuError, TypeError):     # malformed DER, or not bytes at all
            return False
        return self.verify_digest_rs(r, s, digest)

    def verify_digest_rs(self, r: int, s: int, digest: bytes) -> bool:
        """Raw ECDSA verification of (r, s) over a precomputed digest (CAVP SigVer): True or
        False for every pair of integers and every digest, valid or not."""
        e = ecdsa.digest_to_integer(digest, self.curve.n)
        return ecdsa.verify_integers(self.unit, self.curve, self.point, e, r, s)

    def to_der(self) -> bytes:
        from montu.ec import encoding

        return encoding.dump_public(self.curve.oid, self.point, encoding="der")

    def to_pem(self) -> bytes:
        from montu.ec import encoding

        return encoding.dump_public(self.curve.oid, self.point, encoding="pem")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, EcPublicKey) and other.curve == self.curve
                and other.point == self.point)

    def __hash__(self) -> int:
        return hash((self.curve.name, self.x, self.y))

    def __repr__(self) -> str:
        return f"EcPublicKey({self.curve.name}, x={self.x:#x}, y={self.y:#x})"


class EcPrivateKey:
    """A private scalar d in [1, n − 1] of a named curve, with its public key d·G."""

    def __init__(self, curve: Curve | str, d: int, unit: Unit | None = None,
                 public: tuple[int, int] | None = None):
        self.curve = get_curve(curve)
        self.unit = unit if unit is not None else default_unit()
        if not 1 <= d < self.curve.n:
            raise InvalidPrivateKey(f"private key must be in [1, n − 1] for {self.curve.name}")
        self._d = d
        self._public: EcPublicKey | None = None
        if public is not None:
            computed = self.public_key()
            if computed.point != tuple(public):
                raise InvalidPrivateKey(f"the public key stored with this {self.curve.name} private "
                                        "key is not d·G")

    @property
    def private_value(self) -> int:
        return self._d

    def public_key(self) -> EcPublicKey:
        """Q = d·G (constant-time ladder on the unit), computed once."""
        if self._public is None:
            x, y = points.multiply_generator(self.unit, self.curve, self._d)
            self._public = EcPublicKey._trusted(self.curve, x, y, self.unit)
        return self._public

    def sign(self, message: bytes, hash: str = "sha256", *, deterministic: bool = False) -> bytes:  # noqa: A002
        """DER Ecdsa-Sig-Value over hash(message); random nonce (`secrets`) or RFC 6979. Raises
        EcFaultError, releasing nothing, if the signature fails its check (a unit fault)."""
        return self.sign_digest(_digest(message, hash), hash, deterministic=deterministic)

    def sign_digest(self, digest: bytes, hash: str = "sha256", *, deterministic: bool = False) -> bytes:  # noqa: A002
        from montu.ec import encoding

        r, s = self.sign_digest_rs(digest, hash, deterministic=deterministic)
        return encoding.encode_signature(r, s)

    def sign_digest_rs(self, digest: bytes, hash: str = "sha256", *,  # noqa: A002
                       deterministic: bool = False) -> tuple[int, int]:
        """Raw (r, s) over a precomputed digest; `hash` names the HMAC of RFC 6979 nonces.

        Every signature is checked on the unit before it is returned (montu.ec.ecdsa); a fault
        raises EcFaultError and releases nothing, and the next call works again."""
        e = ecdsa.digest_to_integer(digest, self.curve.n)
        nonce = ecdsa.rfc6979_nonce(self.curve, self._d, digest, hash) if deterministic else None
        return ecdsa.sign_integers(self.unit, self.curve, self._d, e, nonce)

    def exchange(self, peer: EcPublicKey) -> bytes:
        """ECDH: the x coordinate of d·Q_peer as field_bytes big-endian bytes (as OpenSSL)."""
        if peer.curve != self.curve:
            raise CurveMismatch(f"peer key is on {peer.curve.name}, this key on {self.curve.name}")
        x, _ = points.multiply(self.unit, self.curve, self._d, peer.point)
        return x.to_bytes(self.curve.field_bytes, "big")

    def to_der(self, fmt: str = "sec1") -> bytes:
        from montu.ec import encoding

        return encoding.dump_private(self.curve.oid, self._d, self.public_key().point, fmt=fmt,
                                     encoding="der")

    def to_pem(self, fmt: str = "sec1") -> bytes:
        from montu.ec import encoding

        return encoding.dump_private(self.curve.oid, self._d, self.public_key().point, fmt=fmt,
                                     encoding="pem")

    def __repr__(self) -> str:
        return f"EcPrivateKey({self.curve.name}, d=<hidden>)"


def generate(curve: str | Curve, unit: Unit | None = None) -> EcPrivateKey:
    """A new key: d uniform in [1, n − 1] from `secrets`, Q = d·G on the unit."""
    c = get_curve(curve)
    key = EcPrivateKey(c, 1 + secrets.randbelow(c.n - 1), unit)
    key.public_key()
    return key


def public_key_from_private(curve: str | Curve, d: int, unit: Unit | None = None) -> EcPublicKey:
    return EcPrivateKey(curve, d, unit).public_key()


def load_pem(data: bytes, unit: Unit | None = None) -> EcPrivateKey | EcPublicKey:
    """A key from PEM or DER (SEC1, PKCS#8 or SubjectPublicKeyInfo); public points are validated,
    a private key's stored public point must equal d·G. A compressed point (02/03 || X) is
    decompressed on the unit first (montu.ec.compressed)."""
    from montu.ec import compressed, encoding
    from montu.ec.curves import curve_by_oid

    parsed = encoding.load_key(data)
    curve = curve_by_oid(parsed.curve_oid)
    if curve is None:
        raise InvalidPublicKey(f"unsupported curve OID {parsed.curve_oid}")
    public = parsed.public
    if isinstance(public, encoding.CompressedPoint):
        public = compressed.decompress(unit if unit is not None else default_unit(), curve,
                                       public.x, public.y_bit)
    if parsed.private is not None:
        return EcPrivateKey(curve, parsed.private, unit, public=public)
    if public is None:
        raise InvalidPublicKey("the key file holds neither a private nor a public key")
    return EcPublicKey(curve, public[0], public[1], unit)


load_der = load_pem
