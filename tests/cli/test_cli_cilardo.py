"""`montu --engine cilardo`: the unit built on cilardo2008's multiplier behind the whole CLI.

RSA-2048 and ECDSA/ECDH on P-256 and sect283k1 with keys from OpenSSL, results checked by the
`openssl` command (it has the binary curves; `cryptography` does not). The simulator backend,
and one RSA signature on the Verilated unit with MulCore = 1 (same bytes and cycles).
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from test_cli_crypto import montu, ok, one_line_error, openssl

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl CLI")

OAEP = ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256",
        "-pkeyopt", "rsa_mgf1_md:sha256"]


def cilardo(*args: str, cwd: Path):
    return montu("--engine", "cilardo", *args, cwd=cwd)


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("cilardo")
    (d / "msg").write_bytes(random.Random(3).randbytes(600))
    for bits in (1024, 2048):
        ok(openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", f"rsa_keygen_bits:{bits}",
                   "-out", f"rsa{bits}.pem", cwd=d))
        ok(openssl("pkey", "-in", f"rsa{bits}.pem", "-pubout", "-out", f"rsa{bits}_pub.pem", cwd=d))
    for curve in ("prime256v1", "sect283k1"):
        for who in ("ec", "peer"):
            ok(openssl("ecparam", "-name", curve, "-genkey", "-noout", "-out", f"{who}_{curve}.pem",
                       cwd=d))
            ok(openssl("ec", "-in", f"{who}_{curve}.pem", "-pubout", "-out",
                       f"{who}_{curve}_pub.pem", cwd=d))
    return d


def _cycles(stderr: bytes) -> int:
    match = re.search(r": ([\d,]+) cilardo engine cycles = ", stderr.decode())
    assert match, stderr.decode()
    return int(match.group(1).replace(",", ""))


@pytest.mark.parametrize("pss", [False, True], ids=["v1.5", "pss"])
def test_rsa_2048_signatures_both_ways(keys: Path, pss: bool) -> None:
    pss_args = ["--pss"] if pss else []
    sigopt = ["-sigopt", "rsa_padding_mode:pss"] if pss else []
    signed = ok(cilardo("sign", "-k", "rsa2048.pem", "-i", "msg", "-o", "c.sig", *pss_args,
                        "--stats", cwd=keys))
    assert _cycles(signed.stderr) > 0 and b"warning" not in signed.stderr   # constant time
    assert b"Verified OK" in ok(openssl("dgst", "-sha256", *sigopt, "-verify", "rsa2048_pub.pem",
                                        "-signature", "c.sig", "msg", cwd=keys)).stdout
    if not pss:     # PKCS#1 v1.5 is deterministic: the same bytes as OpenSSL's
        ok(openssl("dgst", "-sha256", "-sign", "rsa2048.pem", "-out", "o.sig", "msg", cwd=keys))
        assert (keys / "c.sig").read_bytes() == (keys / "o.sig").read_bytes()
    ok(openssl("dgst", "-sha256", *sigopt, "-sign", "rsa2048.pem", "-out", "o.sig", "msg", cwd=keys))
    verified = ok(cilardo("verify", "-k", "rsa2048_pub.pem", "-i", "msg", "-s", "o.sig",
                          *pss_args, cwd=keys))
    assert verified.stdout == b"Verified OK\n"
    (keys / "bad.sig").write_bytes(bytes(b ^ 1 for b in (keys / "o.sig").read_bytes()))
    rejected = cilardo("verify", "-k", "rsa2048_pub.pem", "-i", "msg", "-s", "bad.sig",
                       *pss_args, cwd=keys)
    assert rejected.returncode == 1 and rejected.stdout == b"Verification failure\n"


def test_rsa_2048_oaep_both_ways(keys: Path) -> None:
    (keys / "secret").write_bytes(b"cilardo2008 decrypts this")
    ok(openssl("pkeyutl", "-encrypt", "-pubin", "-inkey", "rsa2048_pub.pem", "-in", "secret",
               "-out", "secret.enc", *OAEP, cwd=keys))
    out = ok(cilardo("decrypt", "-k", "rsa2048.pem", "-i", "secret.enc", cwd=keys))
    assert out.stdout == b"cilardo2008 decrypts this"
    ok(cilardo("encrypt", "-k", "rsa2048_pub.pem", "-i", "secret", "-o", "mine.enc", cwd=keys))
    back = ok(openssl("pkeyutl", "-decrypt", "-inkey", "rsa2048.pem", "-in", "mine.enc", *OAEP,
                      cwd=keys))
    assert back.stdout == b"cilardo2008 decrypts this"


@pytest.mark.parametrize("curve", ["prime256v1", "sect283k1"])
def test_ecdsa_and_ecdh_against_openssl(keys: Path, curve: str) -> None:
    key, pub = f"ec_{curve}.pem", f"ec_{curve}_pub.pem"
    peer, peer_pub = f"peer_{curve}.pem", f"peer_{curve}_pub.pem"
    signed = ok(cilardo("sign", "-k", key, "-i", "msg", "-o", f"{curve}.sig", "--stats", cwd=keys))
    assert _cycles(signed.stderr) > 0
    ok(openssl("dgst", "-sha256", "-verify", pub, "-signature", f"{curve}.sig", "msg", cwd=keys))
    ok(openssl("dgst", "-sha384", "-sign", peer, "-out", f"{curve}.psig", "msg", cwd=keys))
    verified = ok(cilardo("verify", "-k", peer_pub, "-i", "msg", "-s", f"{curve}.psig",
                          "--hash", "sha384", cwd=keys))
    assert verified.stdout == b"Verified OK\n"
    assert cilardo("verify", "-k", peer_pub, "-i", "msg", "-s", f"{curve}.psig",
                   cwd=keys).returncode == 1                               # wrong hash
    ok(cilardo("derive", "-k", key, "--peer", peer_pub, "-o", f"{curve}.s_montu", cwd=keys))
    ok(openssl("pkeyutl", "-derive", "-inkey", peer, "-peerkey", pub, "-out", f"{curve}.s_ossl",
               cwd=keys))
    assert (keys / f"{curve}.s_montu").read_bytes() == (keys / f"{curve}.s_ossl").read_bytes()


def test_hex_commands_and_their_cycles(keys: Path) -> None:
    n = (1 << 1023) | 0x1234567
    b, e = 0xABCDEF, (1 << 1023) - 3
    out = ok(cilardo("modexp", f"{b:x}", f"{e:x}", f"{n:x}", "--stats", cwd=keys))
    assert int(out.stdout, 16) == pow(b, e, n)
    bie = ok(montu("modexp", f"{b:x}", f"{e:x}", f"{n:x}", "--stats", cwd=keys))
    assert b"unit cycles" in bie.stderr and _cycles(out.stderr) > 0     # two builds, two counts
    out = ok(montu("modmul", "1234", "5678", f"{n:x}", "--engine", "cilardo", cwd=keys))
    assert int(out.stdout, 16) == 0x1234 * 0x5678 % n
    m = (1 << 283) | (1 << 12) | (1 << 7) | (1 << 5) | 1
    out = ok(cilardo("modmul", "3", "7", f"{m:x}", "--field", "gf2m", cwd=keys))
    assert int(out.stdout, 16) == 9                                    # (x + 1)(x² + x + 1)
    assert int(ok(cilardo("modinv", "3", "a", cwd=keys)).stdout, 16) == 7


@pytest.mark.parametrize("argv, fragment", [
    (["modexp", "3", "5", "8"], "odd"),
    (["modmul", "3", "5", "6", "--field", "gf2m"], "constant term 1"),
    (["modinv", "2", "4"], "no inverse"),
])
def test_bad_input_gives_one_line(keys: Path, argv: list[str], fragment: str) -> None:
    one_line_error(cilardo(*argv, cwd=keys), fragment)


def test_rtl_signs_as_the_simulator_cycle_for_cycle(keys: Path) -> None:
    """One RSA-1024 v1.5 signature on the Verilated montu_top with MulCore = 1: the same bytes
    (OpenSSL verifies them) and the same cycles as the simulator."""
    rtl = ok(cilardo("--backend", "rtl", "sign", "-k", "rsa1024.pem", "-i", "msg", "-o", "rtl.sig",
                     "--stats", cwd=keys))
    assert "(rtl backend" in rtl.stderr.decode()
    sim = ok(cilardo("sign", "-k", "rsa1024.pem", "-i", "msg", "-o", "sim.sig", "--stats", cwd=keys))
    assert (keys / "rtl.sig").read_bytes() == (keys / "sim.sig").read_bytes()
    assert _cycles(rtl.stderr) == _cycles(sim.stderr)
    assert b"Verified OK" in ok(openssl("dgst", "-sha256", "-verify", "rsa1024_pub.pem",
                                        "-signature", "rtl.sig", "msg", cwd=keys)).stdout
