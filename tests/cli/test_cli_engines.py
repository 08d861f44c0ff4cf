"""`montu --engine NAME`: the other papers' engines behind the same CLI (ENGINES.md §3).

RSA keys from OpenSSL, results checked by OpenSSL; commands an engine cannot run fail with one
line that says what it can run; EC keys are refused by RSA-only engines. The simulator backend
(the RTL backend of each engine is checked against it in tests/hw).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from test_cli_crypto import montu, ok, one_line_error, openssl

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl CLI")


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("engines")
    (d / "msg").write_bytes(random.Random(2).randbytes(700))
    for bits in (1024, 2048):
        ok(openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", f"rsa_keygen_bits:{bits}",
                   "-out", f"rsa{bits}.pem", cwd=d))
        ok(openssl("pkey", "-in", f"rsa{bits}.pem", "-pubout", "-out", f"rsa{bits}_pub.pem", cwd=d))
    ok(openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ec.pem", cwd=d))
    return d


# The engines with their own RSA path (yeh and verma are RSA chips; antao runs RSA and ECDH);
# yeh's exponentiation follows the exponent's bits (a warning on private operations), verma's and
# antao's ladders are constant time.
RSA_ENGINES = ("yeh", "verma", "antao")
CONSTANT_TIME = {"yeh": False, "verma": True, "antao": True}
RSA_ONLY = ("yeh", "verma")
RTL_ENGINES = ("yeh", "verma", "antao")


@pytest.mark.parametrize("engine", RSA_ENGINES)
@pytest.mark.parametrize("bits", [1024, 2048])
def test_rsa_engine_signs_what_openssl_verifies_and_verifies_what_openssl_signs(
        keys: Path, engine: str, bits: int) -> None:
    signed = ok(montu("--engine", engine, "sign", "-k", f"rsa{bits}.pem", "-i", "msg",
                      "-o", f"{engine}{bits}.sig", "--stats", cwd=keys))
    err = signed.stderr.decode()
    warning = [line for line in err.splitlines() if line.startswith("montu: warning:")]
    if CONSTANT_TIME[engine]:
        assert not warning, err
    else:
        assert len(warning) == 1 and "not constant time" in warning[0], err
    assert f"{engine} engine cycles" in err, err
    assert b"Verified OK" in ok(openssl("dgst", "-sha256", "-verify", f"rsa{bits}_pub.pem",
                                        "-signature", f"{engine}{bits}.sig", "msg", cwd=keys)).stdout
    ok(openssl("dgst", "-sha256", "-sign", f"rsa{bits}.pem", "-out", f"ossl{bits}.sig", "msg", cwd=keys))
    verified = ok(montu("--engine", engine, "verify", "-k", f"rsa{bits}_pub.pem", "-i", "msg",
                        "-s", f"ossl{bits}.sig", cwd=keys))
    assert verified.stdout == b"Verified OK\n"
    assert b"warning" not in verified.stderr          # a public operation warns of nothing
    (keys / "bad.sig").write_bytes(bytes(b ^ 1 for b in (keys / f"ossl{bits}.sig").read_bytes()))
    rejected = montu("--engine", engine, "verify", "-k", f"rsa{bits}_pub.pem", "-i", "msg",
                     "-s", "bad.sig", cwd=keys)
    assert rejected.returncode == 1 and rejected.stdout == b"Verification failure\n"


@pytest.mark.parametrize("engine", RSA_ENGINES)
def test_rsa_engine_decrypts_what_openssl_encrypts(keys: Path, engine: str) -> None:
    (keys / "secret").write_bytes(f"the {engine} engine decrypts this".encode())
    ok(openssl("pkeyutl", "-encrypt", "-pubin", "-inkey", "rsa1024_pub.pem", "-in", "secret",
               "-out", "secret.enc", "-pkeyopt", "rsa_padding_mode:oaep",
               "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt", "rsa_mgf1_md:sha256", cwd=keys))
    out = ok(montu("--engine", engine, "decrypt", "-k", "rsa1024.pem", "-i", "secret.enc", cwd=keys))
    assert out.stdout == f"the {engine} engine decrypts this".encode()
    ok(montu("--engine", engine, "encrypt", "-k", "rsa1024_pub.pem", "-i", "secret", "-o", "mine.enc",
             cwd=keys))
    back = ok(openssl("pkeyutl", "-decrypt", "-inkey", "rsa1024.pem", "-in", "mine.enc",
                      "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256",
                      "-pkeyopt", "rsa_mgf1_md:sha256", cwd=keys))
    assert back.stdout == f"the {engine} engine decrypts this".encode()


@pytest.mark.parametrize("engine", RSA_ENGINES)
def test_rsa_engine_modexp_and_modmul_in_hex(keys: Path, engine: str) -> None:
    n = (1 << 1023) | 0x1234567
    b, e = 0xABCDEF, (1 << 1023) - 3
    out = ok(montu("--engine", engine, "modexp", f"{b:x}", f"{e:x}", f"{n:x}", "--stats", cwd=keys))
    assert int(out.stdout, 16) == pow(b, e, n)
    assert f"{engine} engine cycles" in out.stderr.decode()
    out = ok(montu("modmul", "1234", "5678", f"{n:x}", "--engine", engine, cwd=keys))
    assert int(out.stdout, 16) == 0x1234 * 0x5678 % n


@pytest.mark.parametrize("engine", RSA_ENGINES)
@pytest.mark.parametrize("argv, fragment", [
    (["modinv", "3", "7"], "cannot run modinv; it runs modmul, modexp"),
    (["genkey", "rsa", "--bits", "1024"], "cannot run genkey"),
    (["modexp", "3", "5", "8"], "odd"),
    (["modmul", "3", "5", "7", "--field", "gf2m"], "GF(p) only"),
])
def test_rsa_engine_refuses_with_one_line(keys: Path, engine: str, argv: list[str], fragment: str) -> None:
    one_line_error(montu("--engine", engine, *argv, cwd=keys), fragment.format(engine=engine))


@pytest.mark.parametrize("engine", RSA_ONLY)
@pytest.mark.parametrize("argv, fragment", [
    (["derive", "-k", "ec.pem", "--peer", "ec.pem"], "cannot run derive"),
    (["sign", "-k", "ec.pem", "-i", "msg"], "EC key; the {engine} engine runs RSA only"),
])
def test_rsa_only_engine_refuses_ec_with_one_line(keys: Path, engine: str, argv: list[str],
                                                 fragment: str) -> None:
    one_line_error(montu("--engine", engine, *argv, cwd=keys), fragment.format(engine=engine))


@pytest.mark.parametrize("curve", ["prime256v1", "secp224r1"])
def test_antao_derives_what_openssl_derives(keys: Path, curve: str) -> None:
    """ECDH on the antao engine's EC microprogram (the paper's P-224 case study, and P-256)."""
    for name in ("mine", "peer"):
        ok(openssl("ecparam", "-name", curve, "-genkey", "-noout", "-out", f"{name}_{curve}.pem", cwd=keys))
    ok(openssl("pkey", "-in", f"peer_{curve}.pem", "-pubout", "-out", f"peer_{curve}_pub.pem", cwd=keys))
    ok(openssl("pkeyutl", "-derive", "-inkey", f"mine_{curve}.pem", "-peerkey", f"peer_{curve}_pub.pem",
               "-out", f"ossl_{curve}.bin", cwd=keys))
    derived = ok(montu("--engine", "antao", "derive", "-k", f"mine_{curve}.pem", "--peer",
                       f"peer_{curve}_pub.pem", "-o", f"antao_{curve}.bin", "--stats", cwd=keys))
    assert "antao engine cycles" in derived.stderr.decode()
    assert (keys / f"antao_{curve}.bin").read_bytes() == (keys / f"ossl_{curve}.bin").read_bytes()


@pytest.mark.parametrize("argv, fragment", [
    (["sign", "-k", "ec.pem", "-i", "msg"], "uses EC keys for derive (ECDH) only"),
    (["derive", "-k", "rsa1024.pem", "--peer", "ec.pem"], "needs an EC key"),
    (["derive", "-k", "rsa1024_pub.pem", "--peer", "ec.pem"], "needs an EC key"),
    (["derive", "-k", "ec.pem", "--peer", "peer_secp224r1_pub.pem"], "the peer key is on secp224r1"),
])
def test_antao_derive_refuses_with_one_line(keys: Path, argv: list[str], fragment: str) -> None:
    if not (keys / "peer_secp224r1_pub.pem").exists():
        ok(openssl("ecparam", "-name", "secp224r1", "-genkey", "-noout", "-out", "p224.pem", cwd=keys))
        ok(openssl("pkey", "-in", "p224.pem", "-pubout", "-out", "peer_secp224r1_pub.pem", cwd=keys))
    one_line_error(montu("--engine", "antao", *argv, cwd=keys), fragment)


def test_an_unknown_engine_is_a_usage_error(keys: Path) -> None:
    result = montu("--engine", "nope", "modexp", "3", "5", "7", cwd=keys)
    assert result.returncode == 2 and b"invalid choice: 'nope'" in result.stderr


@pytest.mark.parametrize("engine", RTL_ENGINES)
def test_rsa_engine_on_the_rtl_signs_an_openssl_key_and_openssl_verifies(keys: Path, engine: str) -> None:
    """The same command on the engine's Verilated top (its 1024-bit build, built once and cached)."""
    signed = ok(montu("--engine", engine, "--backend", "rtl", "sign", "-k", "rsa1024.pem", "-i", "msg",
                      "-o", f"{engine}_rtl.sig", "--stats", cwd=keys))
    assert "(rtl backend" in signed.stderr.decode()
    assert b"Verified OK" in ok(openssl("dgst", "-sha256", "-verify", "rsa1024_pub.pem",
                                        "-signature", f"{engine}_rtl.sig", "msg", cwd=keys)).stdout
    sim = ok(montu("--engine", engine, "sign", "-k", "rsa1024.pem", "-i", "msg", "-o", f"{engine}_sim.sig",
                   "--stats", cwd=keys))
    assert (keys / f"{engine}_sim.sig").read_bytes() == (keys / f"{engine}_rtl.sig").read_bytes()
    cycles = [line.split(": ")[2].split(f" {engine}")[0]
              for line in (signed.stderr + sim.stderr).decode().splitlines() if "engine cycles" in line]
    assert len(cycles) == 2 and cycles[0] == cycles[1]     # the RTL and its model, cycle for cycle
