"""`montu demo`: the README's main job — RSA and ECC end to end on the unit, checked by OpenSSL.

1. RSA-2048: key generation on the unit, sign/verify (PKCS#1 v1.5 and PSS), OAEP encrypt/decrypt;
   OpenSSL checks the key, verifies the signatures and decrypts the ciphertext.
2. ECDSA on P-256 and sect283k1 and an ECDH exchange, each checked by OpenSSL.
3. The five papers' golden models on a 2048-bit GF(p) and a 283-bit GF(2^m) example.

Every step prints the unit cycles it took (the simulator's count, which equals the RTL's).
"""

from __future__ import annotations

import importlib
import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from montu.arith import gf2m
from montu.driver import Unit
from montu.errors import MontuError

# Each model module exposes demo_report(p, poly) -> list[str]; the demo prints them in this order.
MODEL_MODULES = ("bie", "yeh", "cilardo", "verma", "antao")
Out = Callable[[str], None]


def example_operands(seed: int = 2021) -> tuple[int, int]:
    """A fixed odd 2048-bit modulus with its top bit set, and the NIST 283-bit polynomial."""
    rng = random.Random(seed)
    p = rng.getrandbits(2048) | (1 << 2047) | 1
    return p, gf2m.NIST_POLYNOMIALS[283]


class _Steps:
    """Runs named steps on a unit and prints their unit cycles."""

    def __init__(self, unit: Unit, out: Out):
        self.unit, self.out = unit, out

    def __call__(self, what: str, action: Callable[[], object]) -> object:
        cycles, start = self.unit.total_cycles, time.perf_counter()
        result = action()
        self.out(f"  {what:<42} {self.unit.total_cycles - cycles:>12,} cycles"
                 f"   ({time.perf_counter() - start:.2f} s host)")
        return result


class _OpenSsl:
    """The `openssl` CLI in a scratch directory; `check` raises if a command fails."""

    def __init__(self, workdir: Path, out: Out):
        self.workdir, self.out = workdir, out
        self.available = shutil.which("openssl") is not None
        if not self.available:
            out("  (openssl not found on PATH: the OpenSSL cross-checks are skipped)")

    def write(self, name: str, data: bytes) -> str:
        (self.workdir / name).write_bytes(data)
        return name

    def read(self, name: str) -> bytes:
        return (self.workdir / name).read_bytes()

    def check(self, what: str, *args: str) -> bytes:
        if not self.available:
            return b""
        result = subprocess.run(["openssl", *args], cwd=self.workdir, capture_output=True, timeout=120)
        if result.returncode != 0:
            raise MontuError(f"OpenSSL rejected {what}: {result.stderr.decode(errors='replace').strip()}")
        self.out(f"  openssl: {what}: ok")
        return result.stdout


def run(out: Out = print) -> None:
    unit = Unit(backend="sim")
    out(f"Montu demo — unit: Word={unit.word_bits}, Lanes={unit.lanes}, {unit.max_bits}-bit registers "
        "(cycle-exact simulator)")
    with tempfile.TemporaryDirectory(prefix="montu-demo-") as tmp:
        ossl = _OpenSsl(Path(tmp), out)
        _rsa(unit, ossl, out)
        _ecc(unit, ossl, out)
    _models(out)


def _rsa(unit: Unit, ossl: _OpenSsl, out: Out) -> None:
    import montu.rsa

    out("")
    out("RSA-2048 on the unit")
    step = _Steps(unit, out)
    key = step("key generation (Miller-Rabin, MINV for d)", lambda: montu.rsa.generate(2048, unit=unit))
    public = key.public_key()
    message = b"Montu: RSA and ECC on one dual-field unit"
    ossl.write("rsa_key.pem", key.to_pem())
    ossl.write("rsa_pub.pem", public.to_pem())
    ossl.write("msg", message)
    ossl.check("pkey -check of the Montu key", "pkey", "-in", "rsa_key.pem", "-check", "-noout")
    signature = step("sign, PKCS#1 v1.5 SHA-256", lambda: key.sign(message))
    if not step("verify (e = 65537)", lambda: public.verify(signature, message)):
        raise MontuError("the unit rejected its own signature")
    ossl.write("rsa_sig", signature)
    ossl.check("dgst -verify of the Montu signature", "dgst", "-sha256", "-verify", "rsa_pub.pem",
               "-signature", "rsa_sig", "msg")
    pss = step("sign, PSS SHA-256", lambda: key.sign(message, pss=True))
    ossl.write("rsa_pss", pss)
    ossl.check("dgst -verify of the PSS signature", "dgst", "-sha256", "-sigopt",
               "rsa_padding_mode:pss", "-verify", "rsa_pub.pem", "-signature", "rsa_pss", "msg")
    ciphertext = step("encrypt, OAEP SHA-256", lambda: public.encrypt(b"attack at dawn"))
    ossl.write("rsa_ct", ciphertext)
    if ossl.available:
        plain = ossl.check("pkeyutl -decrypt of the Montu ciphertext", "pkeyutl", "-decrypt", "-inkey",
                           "rsa_key.pem", "-in", "rsa_ct", "-pkeyopt", "rsa_padding_mode:oaep",
                           "-pkeyopt", "rsa_oaep_md:sha256")
        if plain != b"attack at dawn":
            raise MontuError("OpenSSL decrypted the Montu ciphertext to something else")
    if step("decrypt, OAEP SHA-256", lambda: key.decrypt(ciphertext)) != b"attack at dawn":
        raise MontuError("the unit decrypted its own ciphertext to something else")


def _ecc(unit: Unit, ossl: _OpenSsl, out: Out) -> None:
    import montu.ec

    message = b"Montu: RSA and ECC on one dual-field unit"
    for curve in ("prime256v1", "sect283k1"):
        out("")
        out(f"ECDSA and ECDH on {curve} on the unit")
        step = _Steps(unit, out)
        key = step("key generation (constant-time ladder)", lambda: montu.ec.generate(curve, unit=unit))
        public = key.public_key()
        ossl.write(f"{curve}_key.pem", key.to_pem())
        ossl.write(f"{curve}_pub.pem", public.to_pem())
        ossl.check("ec -check of the Montu key", "ec", "-in", f"{curve}_key.pem", "-check", "-noout")
        signature = step("ECDSA sign, SHA-256", lambda: key.sign(message))
        if not step("ECDSA verify", lambda: public.verify(signature, message)):
            raise MontuError("the unit rejected its own ECDSA signature")
        ossl.write(f"{curve}_sig", signature)
        ossl.check("dgst -verify of the Montu ECDSA signature", "dgst", "-sha256", "-verify",
                   f"{curve}_pub.pem", "-signature", f"{curve}_sig", "msg")
        peer = step("peer key generation", lambda: montu.ec.generate(curve, unit=unit))
        ossl.write(f"{curve}_peer.pem", peer.to_pem())
        secret = step("ECDH shared secret", lambda: key.exchange(peer.public_key()))
        if ossl.available:
            theirs = ossl.check("pkeyutl -derive gives the same secret", "pkeyutl", "-derive", "-inkey",
                                f"{curve}_peer.pem", "-peerkey", f"{curve}_pub.pem")
            if theirs != secret:
                raise MontuError(f"ECDH on {curve}: OpenSSL derived a different secret")


def _models(out: Out) -> None:
    p, poly = example_operands()
    out("")
    out(f"Golden models — GF(p) modulus: 2048 bits (0x{p:x}"[:72] + "…)")
    out("                GF(2^m) polynomial: x^283 + x^12 + x^7 + x^5 + 1")
    for name in MODEL_MODULES:
        module = importlib.import_module(f"montu.arith.{name}")
        out("")
        start = time.perf_counter()
        for line in module.demo_report(p, poly):
            out(line)
        out(f"  (host time {time.perf_counter() - start:.2f} s)")
