"""RSA on the Montu unit: key generation, PKCS#1 v1.5 and PSS signatures, OAEP, PEM/DER keys.

    import montu.rsa
    key = montu.rsa.generate(2048)                      # every modular step on the unit
    sig = key.sign(b"hello", "sha256")                  # as `openssl dgst -sha256 -sign`
    key.public_key().verify(sig, b"hello", "sha256")    # True
    pem = key.to_pem(); montu.rsa.load_pem(pem)

The unit is `montu.driver.default_unit()` (the simulator) unless `unit=` is given.
"""

from __future__ import annotations

from montu.driver import Unit
from montu.rsa.keygen import generate
from montu.rsa.keys import RsaKeyError, RsaPrivateKey, RsaPublicKey, key_from_numbers
from montu.rsa.operations import RsaFaultError
from montu.rsa.padding import RsaDecryptionError, RsaPaddingError

__all__ = ["RsaDecryptionError", "RsaFaultError", "RsaKeyError", "RsaPaddingError", "RsaPrivateKey",
           "RsaPublicKey", "generate", "load_pem"]


def load_pem(data: bytes, unit: Unit | None = None) -> RsaPrivateKey | RsaPublicKey:
    """An RSA key from PEM or DER (PKCS#1, PKCS#8 or SubjectPublicKeyInfo), bound to `unit`."""
    from montu.rsa import encoding

    return key_from_numbers(encoding.load_key(data), unit)
