"""RSA keys whose arithmetic runs on the unit: sign/verify (PKCS#1 v1.5, PSS), OAEP.

    key = montu.rsa.generate(2048)              # on the simulator unless unit= is given
    sig = key.sign(b"msg", "sha256", pss=True)
    key.public_key().verify(sig, b"msg", "sha256", pss=True)   # True
    key.last_cycles                             # unit cycles of the last operation

Bytes in, bytes out, exactly as OpenSSL writes them (signatures and ciphertexts are k-byte
big-endian strings, k = ⌈bits(n)/8⌉).

An RSA-PSS key (`openssl genpkey -algorithm RSA-PSS`; `pss_restriction` set) signs and verifies
with PSS only, with the hash, MGF1 hash and minimum salt length its parameters name; anything
else (PKCS#1 v1.5, OAEP, another hash) raises RsaKeyError, as OpenSSL refuses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from montu.driver import Unit, UnitError, unit_for_operands
from montu.errors import MontuError
from montu.rsa import operations, padding
from montu.rsa.operations import CrtKey

if TYPE_CHECKING:
    from montu.rsa.encoding import PssRestriction, RsaKeyNumbers

MIN_MODULUS_BITS = 512   # the CAVP vectors start at 1024; below 512 bits nothing is secure


class RsaKeyError(MontuError, ValueError):
    """Key numbers that cannot form an RSA key (even modulus, e out of range, too large...)."""


def _int_from_bytes(data: bytes) -> int:
    return int.from_bytes(data, "big")


class RsaPublicKey:
    """An RSA public key (n, e) bound to a unit; `pss`: the restriction of an RSA-PSS key."""

    def __init__(self, n: int, e: int, unit: Unit | None = None, *,
                 pss: PssRestriction | None = None, engine=None):
        if n.bit_length() < MIN_MODULUS_BITS or n % 2 == 0:
            raise RsaKeyError(f"RSA modulus must be odd and at least {MIN_MODULUS_BITS} bits "
                              f"(got a {n.bit_length()}-bit {'even' if n % 2 == 0 else 'odd'} number)")
        if not 3 <= e < n or e % 2 == 0:
            raise RsaKeyError("RSA public exponent must be odd and in [3, n)")
        self.n = n
        self.e = e
        self.engine = engine   # an engine object (montu.engines.open): its mod_exp does the work
        if engine is None:
            try:
                self.unit = unit_for_operands(unit, n.bit_length())
            except UnitError as exc:
                raise RsaKeyError(f"a {n.bit_length()}-bit RSA modulus is too large: {exc}") from None
        else:
            self.unit = None
            if n.bit_length() > engine.max_bits:
                raise RsaKeyError(f"a {n.bit_length()}-bit RSA modulus is too large for the "
                                  f"{engine.name} engine built for {engine.max_bits} bits")
        self.pss_restriction = pss
        self.last_cycles = 0

    @property
    def pss_only(self) -> bool:
        """True for an RSA-PSS key (id-RSASSA-PSS): PSS signatures only, no v1.5, no OAEP."""
        return self.pss_restriction is not None

    def _pss_terms(self, hash_name: str, pss: bool, salt_length: int | None) -> tuple[str | None, int]:
        """(MGF1 hash, or None for the signature's own; minimum salt length) for a signature with
        `hash_name`; RsaKeyError if this key's RSA-PSS restriction forbids that signature."""
        restriction = self.pss_restriction
        if restriction is None:
            return None, 0
        if not pss:
            raise RsaKeyError("this is an RSA-PSS key (id-RSASSA-PSS): it is for PSS signatures "
                              "only, not PKCS#1 v1.5 (use pss=True)")
        if restriction.hash is not None and hash_name != restriction.hash:
            raise RsaKeyError(f"this RSA-PSS key is restricted to {restriction.hash} signatures "
                              f"(its parameters say so), not {hash_name}")
        if salt_length is not None and salt_length < restriction.min_salt_length:
            raise RsaKeyError(f"this RSA-PSS key needs a salt of at least "
                              f"{restriction.min_salt_length} bytes (got {salt_length})")
        return restriction.mgf1_hash, restriction.min_salt_length

    def _refuse_encryption_if_pss_only(self, operation: str) -> None:
        if self.pss_only:
            raise RsaKeyError(f"this is an RSA-PSS key (id-RSASSA-PSS): it is for PSS signatures "
                              f"only and cannot be used for RSA-OAEP {operation}")

    @property
    def bits(self) -> int:
        return self.n.bit_length()

    @property
    def size_bytes(self) -> int:
        """k: the length of signatures, ciphertexts and encoded messages in bytes."""
        return -(-self.bits // 8)

    def __repr__(self) -> str:
        return f"RsaPublicKey(bits={self.bits}, e={self.e})"

    # ------------------------------------------------------------- operations
    def _public_op(self, x: int) -> int:
        if self.engine is not None:
            self.last_cycles = 0
            result, self.last_cycles = operations.public_on_engine(self.engine, x, self.n, self.e)
            return result
        start = self.unit.total_cycles
        try:
            return operations.public(self.unit, x, self.n, self.e)
        finally:
            self.last_cycles = self.unit.total_cycles - start

    def verify(self, signature: bytes, message: bytes, hash: str = "sha256", *, pss: bool = False,
               salt_length: int | None = None) -> bool:
        """True if `signature` is a valid PKCS#1 v1.5 (or PSS) signature of `message`."""
        return self.verify_digest(signature, padding.hash_info(hash).digest(message), hash,
                                  pss=pss, salt_length=salt_length)

    def verify_digest(self, signature: bytes, digest: bytes, hash: str = "sha256", *,
                      pss: bool = False, salt_length: int | None = None) -> bool:
        """As verify, from the message's digest."""
        info = padding.hash_info(hash)
        if len(digest) != info.digest_size:
            raise padding.RsaPaddingError(f"a {info.name} digest has {info.digest_size} bytes "
                                          f"(got {len(digest)})")
        mgf1_hash, min_salt_length = self._pss_terms(info.name, pss, salt_length)
        k = self.size_bytes
        if len(signature) != k:
            return False
        s = _int_from_bytes(signature)
        if s >= self.n:
            return False
        em = self._public_op(s).to_bytes(k, "big")
        if pss:
            return padding.emsa_pss_verify_digest(digest, em, self.bits - 1, hash, salt_length,
                                                  mgf1_hash=mgf1_hash,
                                                  min_salt_length=min_salt_length)
        try:
            expected = padding.emsa_pkcs1_v15_encode_digest(digest, hash, k)
        except padding.RsaPaddingError:
            return False
        return em == expected

    def encrypt(self, message: bytes, hash: str = "sha256", label: bytes = b"") -> bytes:
        """RSA-OAEP encryption (MGF1 with the same hash), as `openssl pkeyutl -encrypt
        -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:<hash>`."""
        self._refuse_encryption_if_pss_only("encryption")
        k = self.size_bytes
        em = padding.oaep_encode(message, k, hash, label)
        return self._public_op(_int_from_bytes(em)).to_bytes(k, "big")

    # ---------------------------------------------------------------- formats
    def to_pem(self, fmt: str = "spki") -> bytes:
        """SubjectPublicKeyInfo ("spki", as `openssl pkey -pubout`) or PKCS#1 ("pkcs1"); an
        RSA-PSS key keeps its id-RSASSA-PSS algorithm and parameters (spki only)."""
        from montu.rsa import encoding

        return encoding.dump_public(self.n, self.e, fmt=fmt, encoding="pem",
                                    pss=self.pss_restriction)

    def to_der(self, fmt: str = "spki") -> bytes:
        from montu.rsa import encoding

        return encoding.dump_public(self.n, self.e, fmt=fmt, encoding="der",
                                    pss=self.pss_restriction)


class RsaPrivateKey:
    """An RSA private key bound to a unit. With p, q (and the CRT exponents, computed on the unit
    when absent) the private operation uses the CRT; with (n, e, d) only, one full exponentiation.
    Either way it is constant-time in unit cycles and checked (m^e = c) before anything leaves."""

    def __init__(self, n: int, e: int, d: int, p: int | None = None, q: int | None = None,
                 dp: int | None = None, dq: int | None = None, qinv: int | None = None,
                 unit: Unit | None = None, *, pss: PssRestriction | None = None, engine=None):
        self._public = RsaPublicKey(n, e, unit, pss=pss, engine=engine)
        self.unit = self._public.unit
        self.engine = engine
        if not 1 <= d < n:
            raise RsaKeyError("RSA private exponent must be in [1, n)")
        self.d = d
        self.p, self.q = p, q
        self._crt: CrtKey | None = None
        if (p is None) != (q is None):
            raise RsaKeyError("give both primes p and q, or neither")
        if p is not None and q is not None and engine is None:   # engines: no CRT
            if p < 3 or q < 3 or p % 2 == 0 or q % 2 == 0:
                raise RsaKeyError("RSA primes must be odd and at least 3")
            length = max(operations.exponent_length(p), operations.exponent_length(q))
            if n.bit_length() > 2 * min(operations.exponent_length(p), operations.exponent_length(q)) \
                    or length > self.unit.max_bits:
                raise RsaKeyError("the primes of this key are too unbalanced for the CRT on this unit")
            if dp is None or dq is None or qinv is None:
                dp, dq, qinv = self._crt_parameters(e, p, q)
            self._crt = CrtKey(n=n, e=e, p=p, q=q, dp=dp, dq=dq, qinv=qinv)
        self.last_cycles = 0

    def _crt_parameters(self, e: int, p: int, q: int) -> tuple[int, int, int]:
        """dp = e⁻¹ mod (p−1), dq = e⁻¹ mod (q−1) (even moduli) and qinv = q⁻¹ mod p, by MINV."""
        from montu.rsa.keygen import crt_parameters

        return crt_parameters(self.unit, e, p, q)

    # ------------------------------------------------------------- properties
    n = property(lambda self: self._public.n)
    e = property(lambda self: self._public.e)
    bits = property(lambda self: self._public.bits)
    size_bytes = property(lambda self: self._public.size_bytes)
    pss_restriction = property(lambda self: self._public.pss_restriction)
    pss_only = property(lambda self: self._public.pss_only)

    @property
    def crt(self) -> CrtKey | None:
        return self._crt

    def public_key(self) -> RsaPublicKey:
        return self._public

    def __repr__(self) -> str:
        return f"RsaPrivateKey(bits={self.bits}, e={self.e}, crt={self._crt is not None})"

    # ------------------------------------------------------------- operations
    def _private_op(self, x: int) -> int:
        if self.engine is not None:
            self.last_cycles = 0
            result, self.last_cycles = operations.private_on_engine(self.engine, x, self.n, self.d,
                                                                    self.e)
            return result
        start = self.unit.total_cycles
        try:
            if self._crt is not None:
                return operations.private_crt(self.unit, x, self._crt)
            return operations.private_plain(self.unit, x, self.n, self.d, self.e)
        finally:
            self.last_cycles = self.unit.total_cycles - start

    def sign(self, message: bytes, hash: str = "sha256", *, pss: bool = False,
             salt: bytes | None = None, salt_length: int | None = None) -> bytes:
        """A PKCS#1 v1.5 signature (or PSS with MGF1 of the same hash) of `message`, as
        `openssl dgst -<hash> -sign` writes it. PSS salt: `salt` if given (for test vectors),
        else `salt_length` random bytes (default: the digest length, or less when the key is too
        small for it, as OpenSSL 3.1+ does)."""
        return self.sign_digest(padding.hash_info(hash).digest(message), hash, pss=pss, salt=salt,
                                salt_length=salt_length)

    def sign_digest(self, digest: bytes, hash: str = "sha256", *, pss: bool = False,
                    salt: bytes | None = None, salt_length: int | None = None) -> bytes:
        """As sign, from the message's digest."""
        import secrets

        info = padding.hash_info(hash)
        if len(digest) != info.digest_size:
            raise padding.RsaPaddingError(f"a {info.name} digest has {info.digest_size} bytes "
                                          f"(got {len(digest)})")
        k = self.size_bytes
        mgf1_hash, min_salt_length = self._public._pss_terms(
            info.name, pss, len(salt) if salt is not None else salt_length)
        if pss:
            if salt is None:
                salt = secrets.token_bytes(self._pss_salt_length(info, salt_length, min_salt_length))
            em = padding.emsa_pss_encode_digest(digest, hash, self.bits - 1, salt,
                                                mgf1_hash=mgf1_hash)
        else:
            em = padding.emsa_pkcs1_v15_encode_digest(digest, hash, k)
        return self._private_op(_int_from_bytes(em)).to_bytes(k, "big")

    def _pss_salt_length(self, info: padding.HashInfo, asked: int | None, least: int) -> int:
        """The salt length of a PSS signature: `asked`; by default the salt length an RSA-PSS
        key's parameters name (`least`, what OpenSSL signs with and insists on when it
        verifies), else (as OpenSSL 3.1+) the digest length, or less when the key is too small
        for it."""
        longest = padding.pss_max_salt_length(self.bits - 1, info.name)
        if longest < least:
            salt = "" if least == 0 else f" and a salt of at least {least} bytes"
            raise padding.RsaPaddingError(
                f"a {self.bits}-bit key is too small for RSA-PSS with {info.name}{salt}: it needs "
                f"at least {padding.pss_min_modulus_bits(info.name, least)} bits")
        restriction = self.pss_restriction
        if asked is not None:
            length = asked
        elif restriction is not None and restriction.parameters is not None:
            length = least
        else:
            length = min(info.digest_size, longest)
        if not least <= length <= longest:
            raise padding.RsaPaddingError(f"PSS salt length must be in {least} .. {longest} for "
                                          f"this key and {info.name} (got {length})")
        return length

    def decrypt(self, ciphertext: bytes, hash: str = "sha256", label: bytes = b"") -> bytes:
        """RSA-OAEP decryption; every failure is the same RsaDecryptionError."""
        self._public._refuse_encryption_if_pss_only("decryption")
        k = self.size_bytes
        if len(ciphertext) != k:
            raise padding.RsaDecryptionError()
        c = _int_from_bytes(ciphertext)
        if c >= self.n:
            raise padding.RsaDecryptionError()
        em = self._private_op(c).to_bytes(k, "big")
        return padding.oaep_decode(em, k, hash, label)

    # wrappers so a private key can verify/encrypt like its public half
    def verify(self, signature: bytes, message: bytes, hash: str = "sha256", *, pss: bool = False,
               salt_length: int | None = None) -> bool:
        return self._public.verify(signature, message, hash, pss=pss, salt_length=salt_length)

    def encrypt(self, message: bytes, hash: str = "sha256", label: bytes = b"") -> bytes:
        return self._public.encrypt(message, hash, label)

    # ---------------------------------------------------------------- formats
    def _numbers(self):
        from montu.rsa.encoding import RsaKeyNumbers

        crt = self._crt
        if crt is None:
            return RsaKeyNumbers(n=self.n, e=self.e, d=self.d, pss=self.pss_restriction)
        return RsaKeyNumbers(n=self.n, e=self.e, d=self.d, p=crt.p, q=crt.q, dp=crt.dp, dq=crt.dq,
                             qinv=crt.qinv, pss=self.pss_restriction)

    def to_pem(self, fmt: str = "pkcs8") -> bytes:
        """PKCS#8 ("pkcs8", as `openssl genpkey` writes) or PKCS#1 ("pkcs1", `RSA PRIVATE KEY`)."""
        from montu.rsa import encoding

        return encoding.dump_private(self._numbers(), fmt=fmt, encoding="pem")

    def to_der(self, fmt: str = "pkcs8") -> bytes:
        from montu.rsa import encoding

        return encoding.dump_private(self._numbers(), fmt=fmt, encoding="der")


def key_from_numbers(numbers: RsaKeyNumbers, unit: Unit | None = None, *,
                     engine=None) -> RsaPrivateKey | RsaPublicKey:
    """The key of `montu.rsa.encoding.load_key`'s numbers, bound to `unit` (or to an engine
    object: montu.engines.open), with an RSA-PSS key's restriction."""
    if numbers.d is None:
        return RsaPublicKey(numbers.n, numbers.e, unit=unit, pss=numbers.pss, engine=engine)
    return RsaPrivateKey(numbers.n, numbers.e, numbers.d, numbers.p, numbers.q, numbers.dp,
                         numbers.dq, numbers.qinv, unit=unit, pss=numbers.pss, engine=engine)
