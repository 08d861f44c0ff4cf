"""Errors of the EC layer (all MontuError subclasses)."""

from __future__ import annotations

from montu.ec.curves import UnknownCurve
from montu.errors import MontuError


class InvalidPublicKey(MontuError, ValueError):
    """A public key (point) is not usable: out of range, not on the curve, infinity, or outside the
    prime-order subgroup."""


class InvalidPrivateKey(MontuError, ValueError):
    """A private scalar is not in [1, n − 1]."""


class UnsupportedHash(MontuError, ValueError):
    """The hash name is not one of sha1, sha224, sha256, sha384, sha512."""


class CurveMismatch(MontuError, ValueError):
    """Two keys that must be on the same curve are not."""


class EcFaultError(MontuError):
    """An ECDSA signature failed its check before release (a fault in the unit, or in a constant it
    cached): no signature was released."""


__all__ = ["CurveMismatch", "EcFaultError", "InvalidPrivateKey", "InvalidPublicKey", "UnknownCurve",
           "UnsupportedHash"]
