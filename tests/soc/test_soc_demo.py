"""`montu soc demo`'s host side: the line protocol and the OpenSSL checks (montu.soc.demo).

The firmware's part runs in the demo itself (a command: it takes minutes) and, piece by piece, in
tests/soc/test_fw_*.py. Here the checker gets the lines a correct firmware prints — keys,
signatures, ciphertexts and secrets made by OpenSSL — and must pass them, and the same lines with
one value wrong, and must fail with a message that names the step.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from montu.ec import encoding as ec_encoding
from montu.soc import demo, firmware

def _words(value: int, words: int) -> str:
    return " ".join(f"{(value >> (64 * i)) & (2**64 - 1):016x}" for i in reversed(range(words)))


def _step(name: str, error: int = 0) -> str:
    return f"step {name} system=1000 unit=900 err={error}"


def _rsa_lines() -> list[str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    v = key.private_numbers()
    numbers = {"n": v.public_numbers.n, "d": v.d, "p": v.p, "q": v.q, "dp": v.dmp1, "dq": v.dmq1,
               "qinv": v.iqmp}
    signature = key.sign(demo.MESSAGE, padding.PKCS1v15(), hashes.SHA256())
    oaep = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
    ciphertext = key.public_key().encrypt(demo.MESSAGE, oaep)
    invalid = firmware.error_code("MONTU_ERR_RSA_SIGNATURE")
    return ["progress .", "progress *",
            *[f"number rsa.{k} {_words(x, 16 if k in ('n', 'd') else 8)}" for k, x in numbers.items()],
            "number rsa.e 0000000000010001", _step("rsa.keygen"),
            f"bytes rsa.signature {signature.hex()}", _step("rsa.sign"), _step("rsa.verify"),
            _step("rsa.verify_tampered", invalid),
            f"bytes rsa.ciphertext {ciphertext.hex()}", _step("rsa.encrypt"),
            f"bytes rsa.plaintext {demo.MESSAGE.hex()}", _step("rsa.decrypt")]


def _openssl_key(curve: str, tmp_path) -> tuple[int, tuple[int, int], bytes]:
    pem = subprocess.run(["openssl", "ecparam", "-name", curve, "-genkey", "-noout"],
                         capture_output=True, check=True).stdout
    parsed = ec_encoding.load_key(pem)
    assert parsed.private is not None and isinstance(parsed.public, tuple)
    return parsed.private, parsed.public, pem


def _ec_lines(tag: str, tmp_path) -> list[str]:
    curve = demo.CURVES[tag]
    words = 4 if tag == "p256" else 5
    d, q, pem = _openssl_key(curve, tmp_path)
    e, peer, peer_pem = _openssl_key(curve, tmp_path)
    (tmp_path / "key.pem").write_bytes(pem)
    (tmp_path / "peer_pub.pem").write_bytes(ec_encoding.dump_public(ec_encoding.load_key(peer_pem).curve_oid, peer))
    (tmp_path / "message").write_bytes(demo.MESSAGE)
    sig = subprocess.run(["openssl", "dgst", "-sha256", "-sign", "key.pem", "message"], cwd=tmp_path,
                         capture_output=True, check=True).stdout
    r, s = ec_encoding.decode_signature(sig)
    shared = int.from_bytes(subprocess.run(
        ["openssl", "pkeyutl", "-derive", "-inkey", "key.pem", "-peerkey", "peer_pub.pem"],
        cwd=tmp_path, capture_output=True, check=True).stdout, "big")
    invalid = firmware.error_code("MONTU_ERR_EC_SIGNATURE")
    number = lambda name, value: f"number {tag}.{name} {_words(value, words)}"  # noqa: E731
    return [number("d", d), number("qx", q[0]), number("qy", q[1]), _step(f"{tag}.keygen"),
            number("r", r), number("s", s), _step(f"{tag}.sign"), _step(f"{tag}.verify"),
            _step(f"{tag}.verify_tampered", invalid),
            number("peer_d", e), number("peer_qx", peer[0]), number("peer_qy", peer[1]),
            _step(f"{tag}.peer_keygen"),
            number("shared", shared), _step(f"{tag}.ecdh"), number("peer_shared", shared),
            _step(f"{tag}.ecdh_peer")]


@pytest.fixture(scope="module")
def good_lines(tmp_path_factory) -> list[str]:
    tmp = tmp_path_factory.mktemp("demo-lines")
    return [_step("seed"), f"bytes sha256 {hashlib.sha256(demo.MESSAGE).hexdigest()}", _step("sha256"),
            *_rsa_lines(), *_ec_lines("p256", tmp), *_ec_lines("sect283k1", tmp)]


def _session(lines: list[str], tmp_path, exit_code: int = 0) -> tuple[demo.DemoResult, list[str]]:
    printed: list[str] = []
    session = demo.DemoSession(tmp_path, printed.append)
    for line in lines:
        session.feed(line)
    return session.finish(exit_code, 12345), printed


def test_a_correct_firmware_transcript_passes_every_check(good_lines, tmp_path):
    result, printed = _session(good_lines, tmp_path)
    assert {s.name for s in result.steps} == set(demo.TITLES)
    assert "FAILED" not in result.checks
    assert sum("openssl" in check for check in result.checks) == 13   # 3 RSA + 5 per curve
    assert any("[.*]" in line and "90.0%" in line for line in printed)   # progress, unit share


@pytest.mark.parametrize("name, change", [
    ("rsa.signature", lambda text: text[:-2] + ("00" if text[-2:] != "00" else "01")),
    ("rsa.ciphertext", lambda text: "00" + text[2:]),
    ("rsa.d", lambda text: text[:-1] + ("3" if text[-1] != "3" else "5")),
    ("p256.s", lambda text: text[:-1] + ("3" if text[-1] != "3" else "5")),
    ("sect283k1.qx", lambda text: text[:-1] + ("3" if text[-1] != "3" else "5")),
    ("sect283k1.shared", lambda text: text[:-1] + ("3" if text[-1] != "3" else "5")),
    ("rsa.plaintext", lambda text: text[:-2] + "21"),
])
def test_one_wrong_value_fails_its_step(good_lines, tmp_path, name, change):
    lines = [(" ".join(line.split(" ", 2)[:2]) + " " + change(line.split(" ", 2)[2]))
             if line.split(" ")[1] == name else line for line in good_lines]
    assert lines != good_lines
    step = {"rsa.signature": "rsa.sign", "rsa.ciphertext": "rsa.encrypt", "rsa.d": "rsa.keygen",
            "p256.s": "p256.sign", "sect283k1.qx": "sect283k1.keygen",
            "sect283k1.shared": "sect283k1.ecdh", "rsa.plaintext": "rsa.decrypt"}[name]
    with pytest.raises(demo.DemoError, match=step.replace(".", r"\.") + "|OpenSSL rejected"):
        _session(lines, tmp_path)


def test_an_accepted_tampered_signature_a_missing_step_and_a_bad_exit_fail(good_lines, tmp_path):
    accepted = [_step("p256.verify_tampered") if "p256.verify_tampered" in line else line for line in good_lines]
    with pytest.raises(demo.DemoError, match=r"p256\.verify_tampered: the firmware answered 0"):
        _session(accepted, tmp_path)
    with pytest.raises(demo.DemoError, match=r"without the steps sect283k1\.ecdh_peer"):
        _session(good_lines[:-1], tmp_path)
    with pytest.raises(demo.DemoError, match="exited with 3"):
        _session(good_lines, tmp_path, exit_code=3)


def test_the_generated_definitions_carry_the_entropy_and_the_message():
    entropy = demo.entropy_from_seed("x")
    assert entropy == demo.entropy_from_seed("x") != demo.entropy_from_seed("y")
    assert len(demo.entropy_from_seed(None)) == demo.ENTROPY_BYTES
    text = demo.demo_source(entropy)
    assert f"montu_demo_seed[{demo.ENTROPY_BYTES}] = {{{entropy[0]}, " in text
    assert f'"{demo.MESSAGE.decode()}"' in text
    with pytest.raises(ValueError, match="48 bytes"):
        demo.demo_source(b"short")


def test_the_demo_command_reports_a_run_that_does_not_finish_in_one_line():
    done = subprocess.run([sys.executable, "-m", "montu", "soc", "demo", "--seed", "t",
                           "--max-cycles", "200000"], capture_output=True, text=True, timeout=900)
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.startswith("montu: error:")]
    assert errors == ["montu: error: demo.elf did not exit within 200,000 cycles"], done.stderr
    assert "seed the Hash_DRBG" in done.stdout          # the steps before the limit were shown
