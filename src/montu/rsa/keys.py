"""RSA keys whose arithmetic runs on the unit: sign/verify (PKCS#1 v1.5, PSS), OAEP.

    key = montu.rsa.generate(2048)              # on the simulator unless unit= is given
    sig = key.sign(b"msg", "sha256", pss=True)
    key.public_key().verify(sig, b"msg", "sha256", pss=True)   # True
    key.last_cycles                             # unit cycles of the last operation

Bytes in, bytes out, exactly as OpenSSL writes them (signatures and ciphertexts are k-byte
big-endian strings, k = ⌈bits(n)/8⌉).
"""

from __future__ import annotations

from montu.driver import Unit, default_unit
from montu.errors import MontuError
from montu.rsa import operations, padding
from montu.rsa.operations import CrtKey

MIN_MODULUS_BITS = 512   # the CAVP vectors start at 1024; below 512 bits nothing is secure


class RsaKeyError(MontuError, ValueError):
    """Key numbers that cannot form an RSA key (even modulus, e out of range, too large...)."""


def _int_from_bytes(data: bytes) -> int:
    return int.from_bytes(data, "big")


class RsaPublicKey:
    """An RSA public key (n, e) bound to a unit."""

    def __init__(self, n: int, e: int, unit: Unit | None = None):
        if n.bit_length() < MIN_MODULUS_BITS or n % 2 == 0:
            raise RsaKeyError(f"RSA modulus must be odd and at least {MIN_MODULUS_BITS} bits "
                              f"(got a {n.bit_length()}-bit {'even' if n % 2 == 0 else 'odd'} number)")
        if not 3 <= e < n or e % 2 == 0:
            raise RsaKeyError("RSA public exponent must be odd and in [3, n)")
        self.n = n
        self.e = e
        self.unit = unit if unit is not None else default_unit()
        if n.bit_length() > self.unit.max_bits:
            raise RsaKeyError(f"a {n.bit_length()}-bit modulus does not fit this unit "
                              f"(max_bits={self.unit.max_bits})")
        self.last_cycles = 0

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
        k = self.size_bytes
        if len(signature) != k:
            return False
        s = _int_from_bytes(signature)
        if s >= self.n:
            return False
        em = self._public_op(s).to_bytes(k, "big")
        if pss:
            return padding.emsa_pss_verify_digest(digest, em, self.bits - 1, hash, salt_length)
        try:
            expected = padding.emsa_pkcs1_v15_encode_digest(digest, hash, k)
        except padding.RsaPaddingError:
            return False
        return em == expected

    def encrypt(self, message: bytes, hash: str = "sha256", label: bytes = b"") -> bytes:
        """RSA-OAEP encryption (MGF1 with the same hash), as `openssl pkeyutl -encrypt
        -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:<hash>`."""
        k = self.size_bytes
        em = padding.oaep_encode(message, k, hash, label)
        return self._public_op(_int_from_bytes(em)).to_bytes(k, "big")

    # ---------------------------------------------------------------- formats
    def to_pem(self, fmt: str = "spki") -> bytes:
        """SubjectPublicKeyInfo ("spki", as `openssl pkey -pubout`) or PKCS#1 ("pkcs1")."""
        from montu.rsa import encoding

        return encoding.dump_public(self.n, self.e, fmt=fmt, encoding="pem")

    def to_der(self, fmt: str = "spki") -> bytes:
        from montu.rsa import encoding

        return encoding.dump_public(self.n, self.e, fmt=fmt, encoding="der")


class RsaPrivateKey:
    """An RSA private key bound to a unit. With p, q (and the CRT exponents, computed on the unit
    when absent) the private operation uses the CRT; with (n, e, d) only, one full exponentiation.
    Either way it is constant-time in unit cycles and checked (m^e = c) before anything leaves."""

    def __init__(self, n: int, e: int, d: int, p: int | None = None, q: int | None = None,
                 dp: int | None = None, dq: int | None = None, qinv: int | None = None,
                 unit: Unit | None = None):
        self._public = RsaPublicKey(n, e, unit)
        self.unit = self._public.unit
        if not 1 <= d < n:
            raise RsaKeyError("RSA private exponent must be in [1, n)")
        self.d = d
        self.p, self.q = p, q
        self._crt: CrtKey | None = None
        if (p is None) != (q is None):
            raise RsaKeyError("give both primes p and q, or neither")
        if p is not None and q is not None:
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

    @property
    def crt(self) -> CrtKey | None:
        return self._crt

    def public_key(self) -> RsaPublicKey:
        return self._public

    def __repr__(self) -> str:
        return f"RsaPrivateKey(bits={self.bits}, e={self.e}, crt={self._crt is not None})"

    # ------------------------------------------------------------- operations
    def _private_op(self, x: int) -> int:
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
        if pss:
            if salt is None:
                longest = padding.pss_max_salt_length(self.bits - 1, hash)
                # default as OpenSSL 3.1+: the digest length, or the longest salt that fits
                length = min(info.digest_size, longest) if salt_length is None else salt_length
                if not 0 <= length <= longest:
                    raise padding.RsaPaddingError(
                        f"PSS salt length must be in 0 .. {longest} for this key and hash (got {length})")
                salt = secrets.token_bytes(length)
            em = padding.emsa_pss_encode_digest(digest, hash, self.bits - 1, salt)
        else:
            em = padding.emsa_pkcs1_v15_encode_digest(digest, hash, k)
        return self._private_op(_int_from_bytes(em)).to_bytes(k, "big")

    def decrypt(self, ciphertext: bytes, hash: str = "sha256", label: bytes = b"") -> bytes:
        """RSA-OAEP decryption; every failure is the same RsaDecryptionError."""
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
            return RsaKeyNumbers(n=self.n, e=self.e, d=self.d)
        return RsaKeyNumbers(n=self.n, e=self.e, d=self.d, p=crt.p, q=crt.q, dp=crt.dp, dq=crt.dq,
                             qinv=crt.qinv)

    def to_pem(self, fmt: str = "pkcs8") -> bytes:
        """PKCS#8 ("pkcs8", as `openssl genpkey` writes) or PKCS#1 ("pkcs1", `RSA PRIVATE KEY`)."""
        from montu.rsa import encoding

        return encoding.dump_private(self._numbers(), fmt=fmt, encoding="pem")

    def to_der(self, fmt: str = "pkcs8") -> bytes:
        from montu.rsa import encoding

        return encoding.dump_private(self._numbers(), fmt=fmt, encoding="der")
