"""Files in and out for the CLI: key files of either kind, message/signature bytes, stdin/stdout."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Union

from montu.driver import Unit
from montu.errors import MontuError

# the key classes the CLI handles (imported lazily: RSA and EC load their libraries on demand)
Key = Union["montu.rsa.RsaPrivateKey", "montu.rsa.RsaPublicKey",  # noqa: F821
            "montu.ec.EcPrivateKey", "montu.ec.EcPublicKey"]      # noqa: F821


def read_input(path: str) -> bytes:
    """The bytes of a file, or of stdin for "-"."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise MontuError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise MontuError(f"{path}: is a directory, not a file") from None
    except PermissionError:
        raise MontuError(f"{path}: permission denied") from None


def write_output(path: str | None, data: bytes, *, private: bool = False) -> None:
    """Write to a file (private keys: mode 0600) or to stdout when path is None or "-"."""
    if path in (None, "-"):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        if private:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(data)
        else:
            Path(path).write_bytes(data)
    except FileNotFoundError:
        raise MontuError(f"{path}: the directory does not exist") from None
    except IsADirectoryError:
        raise MontuError(f"{path}: is a directory") from None
    except PermissionError:
        raise MontuError(f"{path}: permission denied") from None


def load_key(path: str, unit: Unit) -> Key:
    """An RSA or EC key (private or public; PEM or DER, any of the supported containers)."""
    import montu.ec
    import montu.rsa
    from montu.ec.encoding import EcFormatError
    from montu.rsa import encoding as rsa_encoding

    data = read_input(path)
    if b"-----BEGIN " not in data and data[:1] != b"\x30":
        raise MontuError(f"{path}: not a key file (expected PEM '-----BEGIN ...' or DER)")
    if rsa_encoding.is_rsa_key(data):
        try:
            return montu.rsa.load_pem(data, unit=unit)
        except MontuError as exc:
            raise MontuError(f"{path}: {exc}") from None
    try:
        return montu.ec.load_pem(data, unit=unit)
    except EcFormatError as exc:
        try:                       # let the RSA parser say what is wrong if it looks like RSA
            rsa_encoding.load_key(data)
        except MontuError as rsa_exc:
            if "RSA" in str(rsa_exc) and "EC" not in str(exc):
                raise MontuError(f"{path}: {rsa_exc}") from None
        raise MontuError(f"{path}: {exc}") from None
    except MontuError as exc:
        raise MontuError(f"{path}: {exc}") from None


def is_rsa(key: object) -> bool:
    from montu.rsa import RsaPrivateKey, RsaPublicKey

    return isinstance(key, (RsaPrivateKey, RsaPublicKey))


def is_private(key: object) -> bool:
    from montu.ec import EcPrivateKey
    from montu.rsa import RsaPrivateKey

    return isinstance(key, (RsaPrivateKey, EcPrivateKey))
