"""Elliptic curves on the unit: ECDSA and ECDH over GF(p) and GF(2^m) (docs/ecc.md).

    from montu import ec
    key = ec.generate("sect283k1")               # or P-256, secp384r1, B-409, …
    sig = key.sign(b"msg", "sha256")             # DER Ecdsa-Sig-Value
    key.public_key().verify(sig, b"msg", "sha256")
    secret = key.exchange(peer_public_key)       # ECDH: x coordinate, field-length bytes

Every field operation (and every operation modulo n) runs on a `montu.Unit` (by default one shared
simulator unit); scalar multiplication by a secret is a constant-time Montgomery ladder.
"""

from montu.ec.curves import CURVES, Curve, curve_by_oid, curve_names, get_curve
from montu.ec.errors import (CurveMismatch, EcFaultError, InvalidPrivateKey, InvalidPublicKey,
                             UnknownCurve, UnsupportedHash)
from montu.ec.keys import (EcPrivateKey, EcPublicKey, default_unit, generate, load_der, load_pem,
                           public_key_from_private)

__all__ = ["CURVES", "Curve", "CurveMismatch", "EcFaultError", "EcPrivateKey", "EcPublicKey", "InvalidPrivateKey",
           "InvalidPublicKey", "UnknownCurve", "UnsupportedHash", "curve_by_oid", "curve_names",
           "default_unit", "generate", "get_curve", "load_der", "load_pem", "public_key_from_private"]
