"""Files in and out for the CLI: key files of either kind, message/signature bytes, stdin/stdout.

Reading: key files are refused above MAX_KEY_BYTES and signature files above MAX_SIGNATURE_BYTES
before they are read to the end. Writing a file goes to a temporary file in the same directory
that is renamed over the target, so a failed write leaves the old file as it was and no partial
file behind; private keys are written with mode 0600, also when they replace an existing file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
import warnings
from pathlib import Path
from typing import BinaryIO, Union

from montu.driver import Unit
from montu.errors import MAX_KEY_BYTES, MAX_SIGNATURE_BYTES, MontuError, size_text

# the key classes the CLI handles (imported lazily: RSA and EC load their libraries on demand)
Key = Union["montu.rsa.RsaPrivateKey", "montu.rsa.RsaPublicKey",  # noqa: F821
            "montu.ec.EcPrivateKey", "montu.ec.EcPublicKey"]      # noqa: F821

STDIN = "-"

# key algorithms montu cannot use, by the name montu.ec.encoding.key_algorithm gives them
_OTHER_ALGORITHMS = {"ed25519": "an Ed25519 key", "ed448": "an Ed448 key",
                     "x25519": "an X25519 key", "x448": "an X448 key", "dsa": "a DSA key",
                     "dh": "a DH key", "1.2.840.113549.1.3.1": "a DH key",
                     "rsaes_oaep": "an RSAES-OAEP key (RSA restricted to OAEP, not supported)"}


# ------------------------------------------------------------------------------------ reading
def read_input(path: str, *, limit: int | None = None, what: str = "file") -> bytes:
    """The bytes of a file, or of stdin for "-"; MontuError if there are more than `limit`
    (then only limit + 1 bytes are read)."""
    if path == STDIN:
        if sys.stdin is None:
            raise MontuError(f"stdin is closed: nothing to read the {what} from "
                             f"(give a file instead of '-')")
        return _read_limited(sys.stdin.buffer, "stdin", limit, what)
    try:
        with open(path, "rb") as file:
            return _read_limited(file, path, limit, what)
    except FileNotFoundError:
        raise MontuError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise MontuError(f"{path}: is a directory, not a file") from None
    except PermissionError:
        raise MontuError(f"{path}: permission denied") from None


def _read_limited(stream: BinaryIO, name: str, limit: int | None, what: str) -> bytes:
    data = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise MontuError(f"{name}: more than {size_text(limit)}, too large for a {what} "
                         f"(montu reads {what}s of at most {size_text(limit)}); is it the "
                         f"right file?")
    return data


def read_signature(path: str) -> bytes:
    return read_input(path, limit=MAX_SIGNATURE_BYTES, what="signature file")


def refuse_two_stdin_inputs(inputs: dict[str, str | None]) -> None:
    """MontuError if more than one of the inputs ({option: path}) is stdin: one stream cannot
    be both (the first would read it all and the second get nothing)."""
    from_stdin = [option for option, path in inputs.items() if path == STDIN]
    if len(from_stdin) > 1:
        raise MontuError(f"{' and '.join(from_stdin)} both read stdin ('-'); only one input can "
                         f"come from stdin, give the others as files")


# ------------------------------------------------------------------------------------ writing
def write_output(path: str | None, data: bytes, *, private: bool = False) -> None:
    """Write to stdout when path is None or "-", else replace the file atomically (private keys:
    mode 0600). Devices and pipes (/dev/null, /dev/stdout, a FIFO) are written in place."""
    if path in (None, STDIN):
        write_stdout(data)
        return
    assert path is not None
    try:
        if _is_special_file(path):
            with open(path, "wb") as out:
                out.write(data)
        else:
            _replace_atomically(Path(os.path.realpath(path)), data, private)
    except FileNotFoundError:
        raise MontuError(f"{path}: the directory does not exist") from None
    except IsADirectoryError:
        raise MontuError(f"{path}: is a directory") from None
    except PermissionError:
        raise MontuError(f"{path}: permission denied") from None
    except OSError as exc:
        raise MontuError(f"{path}: cannot write it: {exc.strerror or exc} "
                         f"(an existing file was left as it was)") from None


def write_stdout(data: bytes) -> None:
    """Write to stdout; MontuError if stdout is closed (`>&-`)."""
    if sys.stdout is None:
        raise MontuError("stdout is closed: nowhere to write the output (give -o FILE)")
    try:
        sys.stdout.flush()            # text printed before stays before
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        raise MontuError("cannot write to stdout: the reading end of the pipe was closed") from None
    except OSError as exc:
        raise MontuError(f"cannot write to stdout: {exc.strerror or exc}") from None


def print_line(text: str) -> None:
    """A line on stdout (a verdict, a result); MontuError if stdout is closed."""
    write_stdout(f"{text}\n".encode())


def _is_special_file(path: str) -> bool:
    """True for an existing file that is not a regular file (a device, FIFO or socket), which
    cannot be replaced by a rename (and must not be: /dev/null)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _replace_atomically(target: Path, data: bytes, private: bool) -> None:
    """Write `data` to a temporary file beside `target` and rename it over `target`: readers see
    the old file or the new one, never a part; on failure the temporary file is removed."""
    if target.is_dir():
        raise IsADirectoryError(str(target))
    mode = 0o600 if private else _public_mode(target)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), mode)
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _public_mode(target: Path) -> int:
    """The mode of the file being replaced, or of a new file under the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


# ------------------------------------------------------------------------------------ keys
def load_key(path: str, unit: Unit | None, *, engine_for_bits=None, engine_name: str = "") -> Key:
    """An RSA or EC key (private or public; PEM or DER, any of the supported containers).

    The key's algorithm (PEM label, or the OID in PKCS#8 / SubjectPublicKeyInfo) picks the
    loader, so a key montu cannot load is reported by the loader of its own kind (an EC key on
    an unsupported curve as such, not as "not RSA"). Library warnings are kept off stderr.
    `engine_for_bits(bits)`: an RSA key runs on that engine object instead of `unit` (an engine
    other than the bie2021 unit; EC keys are refused then).
    """
    data = read_input(path, limit=MAX_KEY_BYTES, what="key file")
    if b"-----BEGIN " not in data and data[:1] != b"\x30":
        raise MontuError(f"{path}: not a key file (expected PEM '-----BEGIN ...' or DER)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _load_key_data(data, unit, engine_for_bits, engine_name)
        except MontuError as exc:
            raise MontuError(f"{path}: {exc}") from None


def _load_key_data(data: bytes, unit: Unit | None, engine_for_bits=None, engine_name: str = "") -> Key:
    from montu.ec import encoding as ec_encoding
    from montu.rsa import encoding as rsa_encoding

    algorithm = ec_encoding.key_algorithm(data)
    if algorithm == "ec" and engine_for_bits is not None:
        import montu.engines

        if montu.engines.get(engine_name).can("derive"):
            raise MontuError(f"this is an EC key; the {engine_name} engine uses EC keys for derive "
                             "(ECDH) only (ECDSA needs --engine bie2021)")
        raise MontuError(f"this is an EC key; the {engine_name} engine runs RSA only "
                         "(EC keys need --engine bie2021)")
    if algorithm == "ec":
        import montu.ec

        return montu.ec.load_pem(data, unit=unit)
    if algorithm is not None and algorithm not in ("rsa", "rsassa_pss"):
        kind = _OTHER_ALGORITHMS.get(algorithm, f"a key of algorithm {algorithm}")
        raise MontuError(f"this is {kind}; montu uses RSA keys and EC keys (ECDSA, ECDH) only")
    # RSA, RSA-PSS, or a file that names no algorithm (certificates, encrypted keys, junk):
    # the RSA reader tells those apart best
    from montu.rsa.keys import key_from_numbers

    numbers = rsa_encoding.load_key(data)
    if engine_for_bits is not None:
        return key_from_numbers(numbers, engine=engine_for_bits(numbers.n.bit_length()))
    return key_from_numbers(numbers, unit)


def load_ec_numbers(path: str, *, private: bool):
    """The integers of an EC key file (montu.ec.encoding.ParsedEcKey) without building a key on
    the unit: for engines that do the curve arithmetic themselves. `private`: d is required."""
    from montu.ec import encoding as ec_encoding

    data = read_input(path, limit=MAX_KEY_BYTES, what="key file")
    if ec_encoding.key_algorithm(data) != "ec":
        raise MontuError(f"{path}: derive (ECDH) needs an EC key")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            parsed = ec_encoding.load_key(data)
        except MontuError as exc:
            raise MontuError(f"{path}: {exc}") from None
    if private and parsed.private is None:
        raise MontuError(f"{path}: derive (ECDH) needs an EC private key, this is a public key")
    return parsed


def is_rsa(key: object) -> bool:
    from montu.rsa import RsaPrivateKey, RsaPublicKey

    return isinstance(key, (RsaPrivateKey, RsaPublicKey))


def is_private(key: object) -> bool:
    from montu.ec import EcPrivateKey
    from montu.rsa import RsaPrivateKey

    return isinstance(key, (RsaPrivateKey, EcPrivateKey))
