"""`montu soc demo`: RSA and ECC in RISC-V firmware on the simulated SoC, checked by OpenSSL.

The host compiles `fw/demo/demo.c` with the firmware library and two generated definitions — the
DRBG's entropy (48 bytes of `os.urandom`, or derived from `--seed` for a repeatable run) and the
message — runs it on the Verilated SoC (CVA6 + Montu on CV-X-IF) and reads its line protocol
(see demo.c) as it streams: per step the whole-system cycles and the unit's share, and the keys,
signatures, ciphertexts and shared secrets, which the `openssl` CLI checks:

- RSA-1024: `openssl pkey -check` of the key, `openssl dgst -sha256 -verify` of the PKCS#1 v1.5
  signature, `openssl pkeyutl -decrypt` (OAEP, SHA-256) of the firmware's ciphertext;
- P-256 and sect283k1: `openssl pkey -check` of both keys (Q = d·G), `openssl dgst -verify` of the
  ECDSA signature, `openssl pkeyutl -derive` of the shared secret both ways;
- the firmware's own verdicts: the signatures verify, tampered ones are rejected, the decryption
  gives the message back.

The keys are throwaway keys the firmware prints for these checks.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from montu.ec import encoding as ec_encoding
from montu.ec.curves import get_curve
from montu.errors import MontuError
from montu.paths import repo_root
from montu.rsa import encoding as rsa_encoding
from montu.soc import firmware
from montu.soc import run as soc_run
from montu.soc.vectors import parse_words

DEMO_SOURCE = repo_root() / "fw" / "demo" / "demo.c"
MESSAGE = b"Montu SoC demo: RSA and ECC in RISC-V firmware"
ENTROPY_BYTES = 48
MAX_CYCLES = 400_000_000
CURVES = {"p256": "prime256v1", "sect283k1": "sect283k1"}

Out = Callable[[str], None]

TITLES = {
    "seed": "seed the Hash_DRBG with the host's entropy",
    "sha256": "SHA-256 of the message",
    "rsa.keygen": "RSA-1024 key generation (Miller-Rabin on the unit)",
    "rsa.sign": "RSA PKCS#1 v1.5 signature (CRT, checked)",
    "rsa.verify": "RSA signature verification",
    "rsa.verify_tampered": "RSA verification of a tampered signature",
    "rsa.encrypt": "RSA-OAEP encryption (SHA-256)",
    "rsa.decrypt": "RSA-OAEP decryption (CRT, checked)",
}
for _tag, _name in (("p256", "P-256"), ("sect283k1", "sect283k1")):
    TITLES.update({
        f"{_tag}.keygen": f"{_name} ECDSA key generation",
        f"{_tag}.sign": f"{_name} ECDSA signature (checked)",
        f"{_tag}.verify": f"{_name} ECDSA verification",
        f"{_tag}.verify_tampered": f"{_name} verification of a tampered signature",
        f"{_tag}.peer_keygen": f"{_name} peer key generation",
        f"{_tag}.ecdh": f"{_name} ECDH (our key, peer's point)",
        f"{_tag}.ecdh_peer": f"{_name} ECDH (peer's key, our point)",
    })


class DemoError(MontuError):
    """A check of the SoC demo failed (the message says which)."""


@dataclass
class Step:
    name: str
    system: int
    unit: int
    error: int

    @property
    def unit_share(self) -> float:
        return self.unit / self.system if self.system else 0.0


@dataclass
class DemoResult:
    steps: list[Step] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    cycles: int = 0


class _OpenSsl:
    """The `openssl` CLI in a scratch directory; a failing command is a failed check."""

    def __init__(self, workdir: Path):
        if shutil.which("openssl") is None:
            raise DemoError("the openssl CLI is not on PATH: the demo's checks need it "
                            "(Debian: apt-get install openssl)")
        self.workdir = workdir

    def write(self, name: str, data: bytes) -> str:
        (self.workdir / name).write_bytes(data)
        return name

    def __call__(self, what: str, *args: str) -> bytes:
        done = subprocess.run(["openssl", *args], cwd=self.workdir, capture_output=True, timeout=120)
        if done.returncode != 0:
            raise DemoError(f"OpenSSL rejected {what}: {done.stderr.decode(errors='replace').strip()}")
        return done.stdout


class _Checker:
    """Collects the firmware's values and checks each step's results when its line arrives."""

    def __init__(self, ossl: _OpenSsl, message: bytes):
        self.ossl, self.message = ossl, message
        self.numbers: dict[str, int] = {}
        self.bytes: dict[str, bytes] = {}
        self.ossl.write("message", message)

    def value(self, kind: str, name: str, text: str) -> None:
        if kind == "number":
            self.numbers[name] = parse_words(text)
        else:
            self.bytes[name] = bytes.fromhex(text)

    def check(self, step: Step) -> str:
        """What was checked (empty: nothing for this step); raises DemoError on a failure."""
        tag, _, what = step.name.partition(".")
        expect_rejection = what.endswith("tampered")
        if expect_rejection:
            invalid = firmware.error_code("MONTU_ERR_RSA_SIGNATURE" if tag == "rsa"
                                          else "MONTU_ERR_EC_SIGNATURE")
            if step.error != invalid:
                raise DemoError(f"{step.name}: the firmware answered {step.error} for a tampered "
                                f"signature, not {invalid} (invalid signature)")
            return "rejected (firmware)"
        if step.error:
            raise DemoError(f"{step.name}: the firmware returned error {step.error}")
        if tag == "sha256":
            if self.bytes["sha256"] != hashlib.sha256(self.message).digest():
                raise DemoError("the firmware's SHA-256 of the message is wrong")
            return "= hashlib"
        if tag == "rsa":
            return self._rsa(what)
        if tag in CURVES:
            return self._ec(tag, what)
        return ""

    def _rsa(self, what: str) -> str:
        n = self.numbers
        if what == "keygen":
            if n["rsa.n"].bit_length() != 1024:
                raise DemoError(f"rsa.keygen: the modulus has {n['rsa.n'].bit_length()} bits, not 1024")
            numbers = rsa_encoding.RsaKeyNumbers(
                n["rsa.n"], n["rsa.e"], d=n["rsa.d"], p=n["rsa.p"], q=n["rsa.q"], dp=n["rsa.dp"],
                dq=n["rsa.dq"], qinv=n["rsa.qinv"])
            try:
                self.ossl.write("rsa_key.pem", rsa_encoding.dump_private(numbers))
            except rsa_encoding.RsaFormatError as exc:
                raise DemoError(f"rsa.keygen: {exc}") from None
            self.ossl.write("rsa_pub.pem", rsa_encoding.dump_public(n["rsa.n"], n["rsa.e"]))
            self.ossl("the RSA key", "pkey", "-in", "rsa_key.pem", "-check", "-noout")
            return "openssl pkey -check: ok"
        if what == "sign":
            self.ossl.write("rsa_sig", self.bytes["rsa.signature"])
            self.ossl("the RSA signature", "dgst", "-sha256", "-verify", "rsa_pub.pem",
                      "-signature", "rsa_sig", "message")
            return "openssl dgst -verify: ok"
        if what == "verify":
            return "valid (firmware)"
        if what == "encrypt":
            self.ossl.write("rsa_ct", self.bytes["rsa.ciphertext"])
            plain = self.ossl("the RSA-OAEP ciphertext", "pkeyutl", "-decrypt", "-inkey",
                              "rsa_key.pem", "-in", "rsa_ct", "-pkeyopt", "rsa_padding_mode:oaep",
                              "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt", "rsa_mgf1_md:sha256")
            if plain != self.message:
                raise DemoError("rsa.encrypt: OpenSSL decrypts the ciphertext to something else")
            return "openssl pkeyutl -decrypt: = message"
        if what == "decrypt":
            if self.bytes["rsa.plaintext"] != self.message:
                raise DemoError("rsa.decrypt: the firmware's plaintext is not the message")
            return "= message"
        return ""

    def _ec(self, tag: str, what: str) -> str:
        curve = get_curve(CURVES[tag])
        n = self.numbers
        if what in ("keygen", "peer_keygen"):
            prefix = f"{tag}." if what == "keygen" else f"{tag}.peer_"
            name = f"{tag}_{'key' if what == 'keygen' else 'peer'}"
            point = (n[prefix + "qx"], n[prefix + "qy"])
            self.ossl.write(f"{name}.pem", ec_encoding.dump_private(curve.oid, n[prefix + "d"], point))
            self.ossl.write(f"{name}_pub.pem", ec_encoding.dump_public(curve.oid, point))
            self.ossl(f"the {curve.name} key", "pkey", "-in", f"{name}.pem", "-check", "-noout")
            return "openssl pkey -check: ok"
        if what == "sign":
            self.ossl.write(f"{tag}_sig", ec_encoding.encode_signature(n[f"{tag}.r"], n[f"{tag}.s"]))
            self.ossl(f"the {curve.name} signature", "dgst", "-sha256", "-verify", f"{tag}_key_pub.pem",
                      "-signature", f"{tag}_sig", "message")
            return "openssl dgst -verify: ok"
        if what == "verify":
            return "valid (firmware)"
        if what in ("ecdh", "ecdh_peer"):
            ours, theirs, value = ((f"{tag}_key", f"{tag}_peer", f"{tag}.shared") if what == "ecdh"
                                   else (f"{tag}_peer", f"{tag}_key", f"{tag}.peer_shared"))
            secret = self.ossl(f"the {curve.name} exchange", "pkeyutl", "-derive", "-inkey",
                               f"{ours}.pem", "-peerkey", f"{theirs}_pub.pem")
            if int.from_bytes(secret, "big") != n[value]:
                raise DemoError(f"{tag}.{what}: the firmware's shared secret differs from OpenSSL's")
            return "openssl pkeyutl -derive: equal"
        return ""


_LINE = re.compile(r"^(progress|number|bytes|step) (\S+)(?: (.*))?$")
_STEP = re.compile(r"system=(\d+) unit=(\d+) err=(-?\d+)")


def demo_source(entropy: bytes, message: bytes = MESSAGE) -> str:
    """The generated definitions demo.c links against: the entropy and the message."""
    if len(entropy) != ENTROPY_BYTES:
        raise ValueError(f"the demo takes {ENTROPY_BYTES} bytes of entropy")
    text = message.decode("ascii")
    if '"' in text or "\\" in text:
        raise ValueError("the demo message must not hold quotes or backslashes")
    return ("#include <stdint.h>\n"
            f"const uint8_t montu_demo_seed[{ENTROPY_BYTES}] = {{{', '.join(map(str, entropy))}}};\n"
            f'const char montu_demo_message[] = "{text}";\n')


def entropy_from_seed(seed: str | None) -> bytes:
    """48 bytes of os.urandom, or SHAKE-256 of the seed text (repeatable runs)."""
    if seed is None:
        return os.urandom(ENTROPY_BYTES)
    return hashlib.shake_256(b"montu soc demo seed: " + seed.encode()).digest(ENTROPY_BYTES)


class DemoSession:
    """Reads the firmware's lines as they stream, checks each step when its line arrives and
    prints it; `finish` raises DemoError if any check failed or a step is missing."""

    def __init__(self, workdir: Path, out: Out = print, message: bytes = MESSAGE):
        self.checker = _Checker(_OpenSsl(workdir), message)
        self.out = out
        self.result = DemoResult()
        self.failures: list[str] = []
        self.events: list[str] = []

    def header(self) -> None:
        self.out(f"{'step':<56} {'SoC cycles':>12} {'unit':>6}  check")

    def feed(self, line: str) -> None:
        match = _LINE.match(line)
        if match is None:
            self.out(f"  firmware: {line}")
            return
        kind, name, rest = match.groups()
        if kind == "progress":
            self.events.append(name)
        elif kind in ("number", "bytes"):
            self.checker.value(kind, name, rest or "")
        else:
            self._step(name, rest or "", line)

    def _step(self, name: str, rest: str, line: str) -> None:
        numbers = _STEP.search(rest)
        if numbers is None:
            self.failures.append(f"unreadable step line from the firmware: {line!r}")
            return
        step = Step(name, *map(int, numbers.groups()))
        self.result.steps.append(step)
        try:
            verdict = self.checker.check(step)
        except (DemoError, KeyError) as exc:
            verdict = "FAILED"
            self.failures.append(str(exc) if isinstance(exc, DemoError)
                                 else f"{name}: the firmware did not print {exc}")
        title = TITLES.get(name, name)
        if self.events:
            title += f" [{''.join(self.events)}]"
            self.events.clear()
        self.out(f"{title:<56} {step.system:>12,} {100 * step.unit_share:>5.1f}%  {verdict}")
        self.result.checks.append(verdict)

    def finish(self, exit_code: int, cycles: int) -> DemoResult:
        self.result.cycles = cycles
        if self.failures:
            raise DemoError("; ".join(self.failures))
        missing = sorted(set(TITLES) - {s.name for s in self.result.steps})
        if missing:
            raise DemoError(f"the firmware ended (exit {exit_code}) without the steps "
                            f"{', '.join(missing)}")
        if exit_code != 0:
            raise DemoError(f"the demo firmware exited with {exit_code}")
        self.out(f"all {len(self.result.steps)} steps checked; {cycles:,} SoC cycles in all")
        return self.result


def run(*, seed: str | None = None, out: Out = print, max_cycles: int = MAX_CYCLES,
        progress: Callable[[str], None] | None = None) -> DemoResult:
    """Build (cached) and run the demo firmware; print each step as it ends; raise DemoError if a
    check failed (after the firmware has ended: every step is shown)."""
    with tempfile.TemporaryDirectory(prefix="montu-soc-demo-") as tmp:
        workdir = Path(tmp)
        session = DemoSession(workdir, out)
        seed_file = workdir / "demo_seed.c"
        seed_file.write_text(demo_source(entropy_from_seed(seed)))
        # compiled afresh each run (the entropy differs), not into the firmware cache
        elf = firmware.compile_program([seed_file, DEMO_SOURCE], workdir / "demo.elf")
        session.header()
        done = soc_run.run_elf(elf, max_cycles=max_cycles, on_output=session.feed, progress=progress)
        return session.finish(done.exit_code, done.cycles)
