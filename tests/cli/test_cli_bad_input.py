"""Bad input to the `montu` command: one `montu: error: …` line, exit status 2, no partial output,
and milliseconds, whatever the input (security review, item 4).

Most runs are in-process (`montu.cli.main(argv)` with capsys); the ones where the process's own
descriptors matter (closed stdin/stdout, a file-size limit, a broken pipe) are subprocesses.
Keys of kinds montu does not make come from the `openssl` command, generated into a temporary
directory once per module.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from montu.cli import main
from montu.errors import MAX_KEY_BYTES, MAX_SIGNATURE_BYTES

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl CLI")

ROOT = Path(__file__).resolve().parents[2]
MESSAGE = b"the message\n"


# ------------------------------------------------------------------------------ helpers
def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `montu argv` run in this process."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_error_line(err: str, *fragments: str) -> None:
    assert err.startswith("montu: error: "), err
    assert err.endswith("\n") and err.count("\n") == 1, err
    for fragment in fragments:
        assert fragment in err, err


def fails(capsys: pytest.CaptureFixture[str], *argv: str | Path, fragments: tuple[str, ...] = ()) -> str:
    """Run montu, expect exit 2 with one error line holding `fragments` and nothing on stdout."""
    status, out, err = run(capsys, *argv)
    assert status == 2, (status, err)
    assert out == "", out
    assert_one_error_line(err, *fragments)
    return err


def montu_process(*args: str | Path, cwd: Path, python_options: tuple[str, ...] = (),
                  **kwargs) -> subprocess.CompletedProcess:
    """`python -m montu args` as a process; stdout and stderr captured unless kwargs say."""
    if "stdout" not in kwargs:
        kwargs["capture_output"] = True
    return subprocess.run([sys.executable, *python_options, "-m", "montu", *map(str, args)],
                          cwd=cwd, timeout=60, **kwargs)


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess:
    """`command` in bash, where `{montu}` is this Python running montu (for <&- and >&-)."""
    montu = f"{sys.executable} -m montu"
    return subprocess.run(["bash", "-c", command.format(montu=montu)], cwd=cwd,
                          capture_output=True, timeout=60)


def process_fails(result: subprocess.CompletedProcess, *fragments: str) -> None:
    err = result.stderr.decode(errors="replace")
    assert result.returncode == 2, (result.returncode, err)
    assert_one_error_line(err, *fragments)


def openssl(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run(["openssl", *map(str, args)], cwd=cwd, capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Keys of every kind the review found mishandled, made by openssl, and a message."""
    d = tmp_path_factory.mktemp("keys")
    (d / "msg").write_bytes(MESSAGE)
    genpkey = {
        "rsa1024.pem": ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"],
        "rsa512.pem": ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:512"],
        "rsa3.pem": ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024",
                     "-pkeyopt", "rsa_keygen_primes:3"],
        "pss.pem": ["-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:1024"],
        "pss_sha256.pem": ["-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:1024",
                           "-pkeyopt", "rsa_pss_keygen_md:sha256"],
        "pss_sha512.pem": ["-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:1024",
                           "-pkeyopt", "rsa_pss_keygen_md:sha512",
                           "-pkeyopt", "rsa_pss_keygen_mgf1_md:sha512",
                           "-pkeyopt", "rsa_pss_keygen_saltlen:32"],
        "ed25519.pem": ["-algorithm", "ed25519"],
        "x25519.pem": ["-algorithm", "x25519"],
        "dh.pem": ["-algorithm", "DH", "-pkeyopt", "group:ffdhe2048"],
    }
    for name, args in genpkey.items():
        openssl("genpkey", *args, "-out", name, cwd=d)
    openssl("genpkey", "-genparam", "-algorithm", "DSA", "-pkeyopt", "dsa_paramgen_bits:1024",
            "-out", "dsa_params.pem", cwd=d)
    openssl("genpkey", "-paramfile", "dsa_params.pem", "-out", "dsa.pem", cwd=d)
    openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "p256.pem", cwd=d)
    openssl("ec", "-in", "p256.pem", "-pubout", "-out", "p256_pub.pem", cwd=d)
    openssl("ec", "-in", "p256.pem", "-pubout", "-conv_form", "compressed", "-out",
            "p256_compressed_pub.pem", cwd=d)
    openssl("ecparam", "-name", "brainpoolP256r1", "-genkey", "-noout", "-out", "brainpool.pem", cwd=d)
    openssl("rsa", "-in", "rsa3.pem", "-traditional", "-outform", "DER", "-out", "rsa3.der", cwd=d)
    for name in ("ed25519", "x25519", "dsa", "dh", "pss", "pss_sha256", "pss_sha512", "rsa1024"):
        openssl("pkey", "-in", f"{name}.pem", "-pubout", "-out", f"{name}_pub.pem", cwd=d)
    return d


# ------------------------------------------------------------- size limits, linear parsing
def test_limits_are_generous_for_real_keys_and_signatures() -> None:
    assert MAX_KEY_BYTES == 1 << 20 and MAX_SIGNATURE_BYTES == 64 << 10
    largest = ROOT / "tests" / "rsa" / "data" / "rsa-16384.pem"
    if largest.exists():
        assert largest.stat().st_size < MAX_KEY_BYTES // 16


def test_a_huge_key_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    # the review: 1 MB of junk took 11 s, 4 MB over 2 minutes (quadratic DER framing)
    (tmp_path / "huge.der").write_bytes(b"\x30\x84\x00\x40\x00\x00" + b"\x02\x01\x01" * (4 << 18))
    (tmp_path / "msg").write_bytes(MESSAGE)
    start = time.monotonic()
    result = montu_process("sign", "-k", "huge.der", "-i", "msg", cwd=tmp_path)
    assert time.monotonic() - start < 20
    process_fails(result, "huge.der", "too large for a key file", "1 MiB")
    # the same from stdin: only 1 MiB + 1 bytes are read
    result = montu_process("sign", "-k", "-", "-i", "msg", cwd=tmp_path,
                           input=(tmp_path / "huge.der").read_bytes())
    process_fails(result, "stdin", "1 MiB")


def _der_of_small_elements(size: int) -> bytes:
    count = (size - 8) // 3
    body = b"\x02\x01\x01" * count
    return b"\x30\x84" + len(body).to_bytes(4, "big") + body


def _pathological_keys() -> dict[str, bytes]:
    """Inputs just under the 1 MiB limit that cost seconds to minutes before (each has
    something super-linear to feed on: elements, lines, BEGIN lines)."""
    limit = MAX_KEY_BYTES
    return {
        "der-of-300k-integers": _der_of_small_elements(limit),
        "der-of-500k-octet-strings": b"\x30\x83" + (limit - 8).to_bytes(3, "big")
                                     + b"\x04\x00" * ((limit - 8) // 2),
        "pem-of-one-byte-lines": b"-----BEGIN PRIVATE KEY-----\n" + b"A\n" * ((limit - 60) // 2)
                                 + b"-----END PRIVATE KEY-----\n",
        "pem-of-begin-lines": b"-----BEGIN PRIVATE KEY-----\n" * (limit // 28),
        "pem-of-many-labels": b"".join(b"-----BEGIN K%d-----\n" % i for i in range(limit // 24)),
    }


@pytest.mark.parametrize("name", list(_pathological_keys()))
def test_pathological_key_files_cost_milliseconds(capsys, tmp_path: Path, name: str) -> None:
    data = _pathological_keys()[name]
    assert len(data) <= MAX_KEY_BYTES
    (tmp_path / "key").write_bytes(data)
    (tmp_path / "msg").write_bytes(MESSAGE)
    start = time.perf_counter()
    fails(capsys, "sign", "-k", tmp_path / "key", "-i", tmp_path / "msg")
    assert time.perf_counter() - start < 1.0, name


def test_deeply_nested_der_is_a_format_error_not_a_recursion_traceback(capsys, keys: Path,
                                                                       tmp_path: Path) -> None:
    from asn1crypto import keys as asn1_keys
    from asn1crypto import parser, pem

    nested = b""
    for _ in range(3000):                 # 3000 SEQUENCEs inside each other: 12 KB
        nested = _tlv(0x30, nested)
    attribute = _tlv(0x30, b"\x06\x03\x2a\x03\x04" + _tlv(0x31, nested))  # OID 1.2.3.4
    _label, _headers, sec1 = pem.unarmor((keys / "p256.pem").read_bytes())
    info = asn1_keys.PrivateKeyInfo({
        "version": 0,
        "private_key_algorithm": {"algorithm": "ec", "parameters": ("named", "secp256r1")},
        "private_key": asn1_keys.ECPrivateKey.load(sec1),
    }).dump()
    pkcs8_with_attributes = _tlv(0x30, parser.parse(info)[4] + _tlv(0xA0, attribute))
    (tmp_path / "nested.der").write_bytes(pkcs8_with_attributes)
    fails(capsys, "sign", "-k", tmp_path / "nested.der", "-i", keys / "msg",
          fragments=("nested.der", "malformed PKCS#8 private key"))


def _tlv(tag: int, body: bytes) -> bytes:
    """One DER element: tag, definite length, body."""
    if len(body) < 0x80:
        return bytes([tag, len(body)]) + body
    octets = len(body).to_bytes((len(body).bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(octets)]) + octets + body


def test_the_library_loaders_refuse_oversized_data_too() -> None:
    from montu.ec import encoding as ec_encoding
    from montu.ec.encoding import EcFormatError
    from montu.rsa import encoding as rsa_encoding
    from montu.rsa.encoding import RsaFormatError

    too_big = _der_of_small_elements(MAX_KEY_BYTES + 64)
    for load, error in ((ec_encoding.load_key, EcFormatError), (rsa_encoding.load_key, RsaFormatError)):
        start = time.perf_counter()
        with pytest.raises(error, match="1 MiB"):
            load(too_big)
        assert time.perf_counter() - start < 0.5
    with pytest.raises(EcFormatError, match="64 KiB"):
        ec_encoding.decode_signature(_der_of_small_elements(MAX_SIGNATURE_BYTES + 64))


def test_a_huge_signature_file_is_refused(capsys, keys: Path, tmp_path: Path) -> None:
    (tmp_path / "sig").write_bytes(b"\x30" * (MAX_SIGNATURE_BYTES + 1))
    fails(capsys, "verify", "-k", keys / "p256_pub.pem", "-i", keys / "msg", "-s", tmp_path / "sig",
          fragments=("sig", "64 KiB", "signature"))


def test_readme_documents_the_limits() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "1 MiB" in readme and "64 KiB" in readme


# ------------------------------------------------------------------ verify with a private key
def test_verify_with_an_ec_private_key_uses_its_public_half(capsys, keys: Path, tmp_path: Path) -> None:
    openssl("dgst", "-sha256", "-sign", keys / "p256.pem", "-out", tmp_path / "sig", keys / "msg",
            cwd=tmp_path)
    status, out, err = run(capsys, "verify", "-k", keys / "p256.pem", "-i", keys / "msg",
                           "-s", tmp_path / "sig")
    assert (status, out, err) == (0, "Verified OK\n", "")
    (tmp_path / "other").write_bytes(MESSAGE + b"!")
    status, out, _err = run(capsys, "verify", "-k", keys / "p256.pem", "-i", tmp_path / "other",
                            "-s", tmp_path / "sig")
    assert (status, out) == (1, "Verification failure\n")


# ------------------------------------------------------------------ closed stdin / stdout
def test_closed_stdin_is_one_error_line(keys: Path) -> None:
    process_fails(shell("{montu} sign -k p256.pem -i - <&-", cwd=keys), "stdin is closed")
    process_fails(shell("{montu} pubkey -k - <&-", cwd=keys), "stdin is closed")


def test_closed_stdout_is_one_error_line(keys: Path, tmp_path: Path) -> None:
    process_fails(shell("{montu} pubkey -k p256.pem >&-", cwd=keys), "stdout is closed", "-o")
    process_fails(shell("{montu} modexp 2 3 5 >&-", cwd=keys), "stdout is closed")
    # a command that writes to a file does not need stdout
    result = shell(f"{{montu}} sign -k p256.pem -i msg -o {tmp_path / 'sig'} >&-", cwd=keys)
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    assert (tmp_path / "sig").read_bytes()[:1] == b"\x30"


def test_full_disk_and_broken_pipe_on_stdout_are_one_error_line(keys: Path) -> None:
    if Path("/dev/full").exists():
        process_fails(shell("{montu} pubkey -k p256.pem > /dev/full", cwd=keys),
                      "cannot write to stdout")
    read_end, write_end = os.pipe()
    os.close(read_end)                       # nobody will ever read: the write gets EPIPE
    try:
        result = montu_process("pubkey", "-k", "p256.pem", cwd=keys, stdout=write_end,
                               stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    process_fails(result, "cannot write to stdout")


# ------------------------------------------------------------------ one stdin, one input
@pytest.mark.parametrize("argv", [
    ["sign", "-k", "-", "-i", "-", "-o", "OUT"],
    ["verify", "-k", "KEY", "-i", "-", "-s", "-"],
    ["verify", "-k", "-", "-i", "MSG", "-s", "-"],
    ["encrypt", "-k", "-", "-i", "-", "-o", "OUT"],
    ["decrypt", "-k", "-", "-i", "-", "-o", "OUT"],
    ["derive", "-k", "-", "--peer", "-", "-o", "OUT"],
])
def test_two_inputs_from_one_stdin_are_refused(capsys, monkeypatch, keys: Path, tmp_path: Path,
                                               argv: list[str]) -> None:
    # stdin holds a valid key: before, `sign -k - -i -` signed the empty message and exited 0
    monkeypatch.setattr(sys, "stdin", open(keys / "p256.pem"))  # noqa: SIM115
    paths = {"KEY": keys / "p256.pem", "MSG": keys / "msg", "OUT": tmp_path / "out"}
    fails(capsys, *[paths.get(a, a) for a in argv], fragments=("stdin", "only one input"))
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ atomic output files
def test_genkey_replaces_an_existing_file_with_a_0600_key(capsys, tmp_path: Path) -> None:
    out = tmp_path / "key.pem"
    out.write_text("an old public file\n")
    out.chmod(0o644)
    status, _out, err = run(capsys, "genkey", "ec", "--curve", "prime256v1", "-o", out)
    assert status == 0, err
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert out.read_bytes().startswith(b"-----BEGIN EC PRIVATE KEY-----")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["key.pem"]      # no temporary left


def test_public_output_keeps_the_mode_of_the_file_it_replaces(capsys, keys: Path, tmp_path: Path) -> None:
    out = tmp_path / "pub.pem"
    out.write_text("old\n")
    out.chmod(0o640)
    status, _out, err = run(capsys, "pubkey", "-k", keys / "p256.pem", "-o", out)
    assert status == 0, err
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert out.read_bytes() == (keys / "p256_pub.pem").read_bytes()
    status, _out, err = run(capsys, "pubkey", "-k", keys / "p256.pem", "-o", "/dev/null")
    assert status == 0 and Path("/dev/null").is_char_device(), err


def _limit_file_size_to_64_bytes() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)       # a write past the limit then fails EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))


@pytest.mark.parametrize("argv, private", [
    (["genkey", "ec", "--curve", "prime256v1", "-o", "OUT"], True),
    (["pubkey", "-k", "KEY", "-o", "OUT"], False),
])
def test_a_failed_write_leaves_the_old_file_untouched(keys: Path, tmp_path: Path, argv: list[str],
                                                      private: bool) -> None:
    out = tmp_path / "out.pem"
    old = (keys / ("p256.pem" if private else "rsa1024_pub.pem")).read_bytes()
    out.write_bytes(old)
    argv = [str(out) if a == "OUT" else str(keys / "p256.pem") if a == "KEY" else a for a in argv]
    result = montu_process(*argv, cwd=tmp_path, preexec_fn=_limit_file_size_to_64_bytes)
    process_fails(result, str(out), "was left as it was")
    assert out.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pem"]      # no temporary left


def test_an_interrupted_write_removes_its_temporary(capsys, monkeypatch, keys: Path, tmp_path: Path) -> None:
    out = tmp_path / "pub.pem"
    out.write_bytes(b"old")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    fails(capsys, "pubkey", "-k", keys / "p256.pem", "-o", out,
          fragments=("No space left on device",))
    assert out.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["pub.pem"]
    monkeypatch.undo()                                # the next good call still works
    assert run(capsys, "pubkey", "-k", keys / "p256.pem", "-o", out)[0] == 0
    assert out.read_bytes() == (keys / "p256_pub.pem").read_bytes()


# ------------------------------------------------------------------ keys montu does not use
@pytest.mark.parametrize("name, kind", [
    ("ed25519.pem", "an Ed25519 key"), ("ed25519_pub.pem", "an Ed25519 key"),
    ("x25519.pem", "an X25519 key"), ("x25519_pub.pem", "an X25519 key"),
    ("dsa.pem", "a DSA key"), ("dsa_pub.pem", "a DSA key"), ("dh.pem", "a DH key"),
    ("dh_pub.pem", "a DH key"),
])
def test_other_key_types_say_what_they_are_and_nothing_else(capsys, monkeypatch, keys: Path,
                                                            name: str, kind: str) -> None:
    # cryptography may warn (CryptographyDeprecationWarning) while it reads such keys: simulate
    # it, and check that no warning leaves the command
    from cryptography.hazmat.primitives import serialization
    from cryptography.utils import CryptographyDeprecationWarning

    def warning_loader(real):
        def load(*args, **kwargs):
            warnings.warn("this key type is deprecated", CryptographyDeprecationWarning, stacklevel=2)
            return real(*args, **kwargs)
        return load

    for loader in ("load_pem_private_key", "load_pem_public_key", "load_der_private_key",
                   "load_der_public_key"):
        monkeypatch.setattr(serialization, loader, warning_loader(getattr(serialization, loader)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for command in (["sign", "-i", keys / "msg"], ["verify", "-i", keys / "msg", "-s", keys / "msg"],
                        ["pubkey"], ["encrypt", "-i", keys / "msg"]):
            fails(capsys, command[0], "-k", keys / name, *command[1:],
                  fragments=(name, f"this is {kind}", "RSA keys and EC keys"))
    assert [str(w.message) for w in caught] == []


def test_other_key_types_print_one_line_as_a_process(keys: Path) -> None:
    for name in ("ed25519.pem", "dsa_pub.pem", "dh.pem"):
        result = montu_process("pubkey", "-k", name, cwd=keys, python_options=("-W", "always"))
        process_fails(result, "montu uses RSA keys and EC keys")


# ------------------------------------------------------------------ messages that say what is wrong
def test_a_compressed_point_key_is_recognised_as_ec(capsys, keys: Path) -> None:
    status, out, err = run(capsys, "pubkey", "-k", keys / "p256_compressed_pub.pem")
    assert "RSA" not in err, err
    if status == 0:       # compressed points are supported: the same key as openssl's
        assert out == (keys / "p256_pub.pem").read_text()
    else:
        assert_one_error_line(err, "compressed")


def test_a_compressed_point_off_the_curve_is_reported_as_an_ec_problem(capsys, keys: Path,
                                                                       tmp_path: Path) -> None:
    from asn1crypto import keys as asn1_keys
    from asn1crypto import pem

    _label, _headers, der = pem.unarmor((keys / "p256_compressed_pub.pem").read_bytes())
    info = asn1_keys.PublicKeyInfo.load(der)
    point = info["public_key"].native
    bad = asn1_keys.PublicKeyInfo({"algorithm": info["algorithm"],
                                   "public_key": asn1_keys.ECPointBitString(point[:1] + b"\xff" * 32)})
    (tmp_path / "bad.pem").write_bytes(pem.armor("PUBLIC KEY", bad.dump()))
    err = fails(capsys, "pubkey", "-k", tmp_path / "bad.pem", fragments=("bad.pem",))
    assert "RSA" not in err


def test_an_unsupported_curve_is_named(capsys, keys: Path) -> None:
    err = fails(capsys, "sign", "-k", keys / "brainpool.pem", "-i", keys / "msg",
                fragments=("unsupported elliptic curve", "prime256v1"))
    assert "brainpoolp256r1" in err.lower() and "RSA" not in err


@pytest.mark.parametrize("name", ["rsa3.pem", "rsa3.der"])
def test_a_multi_prime_rsa_key_is_called_that(capsys, keys: Path, name: str) -> None:
    err = fails(capsys, "sign", "-k", keys / name, "-i", keys / "msg",
                fragments=("multi-prime RSA key", "not supported"))
    assert "EC" not in err


def test_pss_on_a_key_too_small_for_the_hash_says_so(capsys, keys: Path) -> None:
    fails(capsys, "sign", "-k", keys / "rsa512.pem", "-i", keys / "msg", "--pss", "--hash", "sha512",
          fragments=("512-bit key is too small for RSA-PSS with sha512", "at least 522 bits"))
    # the salt message, when a salt is what does not fit
    from montu.rsa import RsaPaddingError, encoding
    from montu.rsa.keys import key_from_numbers

    key = key_from_numbers(encoding.load_key((keys / "rsa512.pem").read_bytes()))
    with pytest.raises(RsaPaddingError, match=r"salt length must be in 0 \.\. 30 .*got 31"):
        key.sign(MESSAGE, "sha256", pss=True, salt_length=31)
    assert key.verify(key.sign(MESSAGE, "sha384", pss=True), MESSAGE, "sha384", pss=True)


# ------------------------------------------------------------------ RSA-PSS keys
@pytest.mark.parametrize("name, digest", [("pss", "sha256"), ("pss_sha256", "sha256"),
                                          ("pss_sha512", "sha512")])
def test_rsa_pss_keys_sign_with_pss_and_openssl_verifies(capsys, keys: Path, tmp_path: Path,
                                                          name: str, digest: str) -> None:
    sig = tmp_path / "sig"
    status, _out, err = run(capsys, "sign", "-k", keys / f"{name}.pem", "-i", keys / "msg", "-o", sig)
    assert status == 0, err
    for key in (f"{name}_pub.pem", f"{name}.pem"):
        verified = openssl("dgst", f"-{digest}", "-verify" if key.endswith("_pub.pem") else "-prverify",
                           key, "-signature", sig, "msg", cwd=keys)
        assert b"Verified OK" in verified.stdout
    # and montu verifies openssl's signature (PSS without --pss: the key says so)
    openssl("dgst", f"-{digest}", "-sign", f"{name}.pem", "-out", tmp_path / "osig", "msg", cwd=keys)
    status, out, err = run(capsys, "verify", "-k", keys / f"{name}_pub.pem", "-i", keys / "msg",
                           "-s", tmp_path / "osig")
    assert (status, out) == (0, "Verified OK\n"), err


def test_rsa_pss_key_restrictions_are_honoured(capsys, keys: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    fails(capsys, "sign", "-k", keys / "pss_sha256.pem", "-i", keys / "msg", "--hash", "sha512",
          "-o", out, fragments=("restricted to sha256",))
    fails(capsys, "encrypt", "-k", keys / "pss_pub.pem", "-i", keys / "msg", "-o", out,
          fragments=("RSA-PSS key", "cannot be used for RSA-OAEP encryption"))
    (tmp_path / "ct").write_bytes(bytes(128))
    fails(capsys, "decrypt", "-k", keys / "pss.pem", "-i", tmp_path / "ct", "-o", out,
          fragments=("RSA-PSS key", "cannot be used for RSA-OAEP decryption"))
    assert not out.exists()
    from montu.rsa import encoding
    from montu.rsa.keys import RsaKeyError, key_from_numbers

    key = key_from_numbers(encoding.load_key((keys / "pss_sha512.pem").read_bytes()))
    with pytest.raises(RsaKeyError, match="PSS signatures only"):
        key.sign(MESSAGE, "sha512")                       # PKCS#1 v1.5
    with pytest.raises(RsaKeyError, match="at least 32 bytes"):
        key.sign(MESSAGE, "sha512", pss=True, salt_length=20)
    assert key.public_key().verify(key.sign(MESSAGE, "sha512", pss=True), MESSAGE, "sha512", pss=True)


@pytest.mark.parametrize("name", ["pss", "pss_sha256", "pss_sha512"])
def test_pubkey_of_an_rsa_pss_key_stays_pss_restricted(capsys, keys: Path, name: str) -> None:
    status, out, err = run(capsys, "pubkey", "-k", keys / f"{name}.pem")
    assert status == 0, err
    assert out == (keys / f"{name}_pub.pem").read_text()      # byte for byte what openssl writes
    from montu.rsa import encoding
    from montu.rsa.keys import key_from_numbers

    private = (keys / f"{name}.pem").read_bytes()
    assert key_from_numbers(encoding.load_key(private)).to_pem() == private


# ------------------------------------------------------------------ usage errors
@pytest.mark.parametrize("argv, fragment, prog", [
    (["sign", "-k", "k", "-i", "m", "--hash", "md5"], "argument --hash: invalid choice: 'md5'", "montu sign"),
    (["frobnicate"], "invalid choice: 'frobnicate'", "montu"),
    (["sign", "-k", "k"], "required: -i/--in", "montu sign"),
    (["genkey", "rsa", "--format", "pem"], "argument --format", "montu genkey rsa"),
    (["bench", "unit", "--inversions", "x"], "argument --inversions", "montu bench unit"),
    (["modexp", "1", "2", "3", "4"], "unrecognized arguments: 4", "montu"),
])
def test_usage_errors_are_one_line_with_a_hint_to_help(capsys, argv: list[str], fragment: str,
                                                       prog: str) -> None:
    fails(capsys, *argv, fragments=(fragment, f"(see '{prog} --help')"))


# ------------------------------------------------------------------ numbers
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "fast", "１００"])
def test_mhz_must_be_a_finite_positive_number(capsys, value: str) -> None:
    fails(capsys, f"--mhz={value}", "modexp", "2", "3", "5", fragments=("--mhz", repr(value)))
    fails(capsys, "modexp", "2", "3", "5", "--stats", f"--mhz={value}", fragments=("--mhz",))
    status, out, err = run(capsys, "--mhz", "250", "modexp", "2", "3", "5")    # a good one works
    assert (status, out) == (0, "3\n"), err


@pytest.mark.parametrize("argv", [
    ["bench", "ecc", "--samples", "0"], ["bench", "ecc", "--samples", "-1"],
    ["bench", "rsa", "--keys", "0"], ["bench", "unit", "--inversions", "0"],
    ["bench", "ecc", "--samples", "３"], ["synth", "--freq", "nan"], ["synth", "--timeout", "0"],
    ["genkey", "rsa", "--bits", "-2048"],
])
def test_counts_must_be_positive_whole_numbers(capsys, argv: list[str]) -> None:
    fails(capsys, *argv, fragments=(f"argument {argv[-2]}", repr(argv[-1])))


@pytest.mark.parametrize("argv, name", [
    (["modexp", "--", "-5", "3", "7"], "b"), (["modexp", "5", "+3", "7"], "e"),
    (["modexp", "１２３", "3", "7"], "b"), (["modmul", "2", "3", "٧"], "n"),
    (["modinv", "3", "0x"], "n"), (["modinv", "", "7"], "a"), (["modinv", "3 4", "7"], "a"),
])
def test_hex_arguments_are_ascii_hex_digits(capsys, argv: list[str], name: str) -> None:
    # before: '-5' was "a 3-bit value" and '１２３' (full-width digits) counted as hex 123
    fails(capsys, *argv, fragments=(f"{name} must be a non-negative hexadecimal number",))


def test_hex_arguments_that_are_fine(capsys) -> None:
    for argv, result in ((["modexp", "0x10", "3", "7"], "1\n"), (["modexp", "1_0", "0X3", "7"], "1\n"),
                         (["modmul", " Ff ", "1", "0x101"], "ff\n")):
        status, out, err = run(capsys, *argv)
        assert (status, out) == (0, result), err
