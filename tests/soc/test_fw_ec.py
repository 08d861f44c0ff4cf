"""ECDSA and ECDH in firmware (fw/lib/ecdsa.c, ec.c, ec_binary.c) on P-256 and sect283k1.

One SoC run per curve: the DRBG seeded with fixed bytes, a key generated (Q = d·G checked here),
a signature made (checked by the `openssl` CLI, which has the binary curves that `cryptography`
lacks) and verified in firmware with tampered variants, signatures made by OpenSSL and crafted
ones (u1 = 0, u2 one of the window's exceptional scalars, u2 = n − 1) verified in firmware, ECDH
both ways against host arithmetic, bad peer points refused (then the library still works), and
k·P in the same unit cycles for every scalar (sect283k1: 1 and n − 1 included). One more run per
curve, built with a fault hook, checks that a faulty signature is never released. Host
arithmetic: textbook affine formulas (tests only).
"""

from __future__ import annotations

import hashlib
import random
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from montu.ec import encoding, window
from montu.ec.curves import Curve, get_curve
from montu.soc import run as soc_run
from montu.soc.vectors import c_array, c_table, parse_words

from ec import reference          # tests/ec/reference.py: host EC arithmetic (tests/ is on sys.path)

SEED = bytes(range(100, 148))
CURVES = {"P-256": "MONTU_CURVE_P256", "sect283k1": "MONTU_CURVE_SECT283K1"}


# ------------------------------------------------------------------ OpenSSL (the CLI)

def _openssl(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["openssl", *args], capture_output=True, cwd=tmp, timeout=60)


def _openssl_sign(tmp: Path, c: Curve, d: int, q: tuple[int, int], digest: bytes) -> tuple[int, int]:
    (tmp / "key.pem").write_bytes(encoding.dump_private(c.oid, d, q))
    (tmp / "digest.bin").write_bytes(digest)
    done = _openssl(tmp, "pkeyutl", "-sign", "-inkey", "key.pem", "-in", "digest.bin", "-out", "sig.der")
    assert done.returncode == 0, done.stderr
    return encoding.decode_signature((tmp / "sig.der").read_bytes())


def _openssl_verifies(tmp: Path, c: Curve, q: tuple[int, int], digest: bytes, r: int, s: int) -> bool:
    (tmp / "pub.pem").write_bytes(encoding.dump_public(c.oid, q))
    (tmp / "digest.bin").write_bytes(digest)
    (tmp / "sig.der").write_bytes(encoding.encode_signature(r, s))
    done = _openssl(tmp, "pkeyutl", "-verify", "-pubin", "-inkey", "pub.pem", "-in", "digest.bin",
                    "-sigfile", "sig.der")
    return done.returncode == 0 and b"Signature Verified Successfully" in done.stdout


# ------------------------------------------------------------------ the firmware program

PROGRAM = """\
#include <stdio.h>
#include <string.h>
#include "montu_ec.h"
#include "montu_random.h"
#include "montu_soc.h"
#define CURVE {curve}
#define WORDS {words}
{arrays}
/* one line per call: name, error, system and unit cycles, then labelled numbers */
static uint64_t c0, u0;
static void start(void) {{ c0 = montu_soc_cycles(); u0 = montu_soc_unit_cycles(); }}
static void stop(const char *name, unsigned index, int err) {{
  uint64_t c1 = montu_soc_cycles(), u1 = montu_soc_unit_cycles();
  printf("%s%u err=%d system=%llu unit=%llu", name, index, err, (unsigned long long)(c1 - c0),
         (unsigned long long)(u1 - u0));
}}
static void show(const char *label, const uint64_t *x) {{
  printf(" %s=", label);
  montu_soc_print_number(x, WORDS);
}}
static void verify(const char *name, unsigned index, const uint64_t *qx, const uint64_t *qy,
                   const uint8_t *digest, const uint64_t *r, const uint64_t *s) {{
  start();
  int err = montu_ecdsa_verify_sha256(CURVE, qx, qy, digest, r, s);
  stop(name, index, err);
  printf("\\n");
}}
static void ecdh(const char *name, unsigned index, const uint64_t *d, const uint64_t *px,
                 const uint64_t *py) {{
  static uint64_t x[WORDS];
  start();
  int err = montu_ecdh(CURVE, x, d, px, py);
  stop(name, index, err);
  show("x", x);
  printf("\\n");
}}
int main(void) {{
  static uint64_t d[WORDS], qx[WORDS], qy[WORDS], r[WORDS], s[WORDS], x[WORDS], y[WORDS], k[WORDS];
  int err = montu_ecdsa_generate(CURVE, d, qx, qy);
  printf("unseeded0 err=%d system=0 unit=0\\n", err);
  err = montu_random_seed(SEED, sizeof SEED);
  printf("seed0 err=%d system=0 unit=0\\n", err);

  start();
  err = montu_ecdsa_generate(CURVE, d, qx, qy);
  stop("keygen", 0, err);
  show("d", d); show("qx", qx); show("qy", qy); printf("\\n");
  start();
  err = montu_ecdsa_sign_sha256(CURVE, r, s, d, DIGEST);
  stop("sign", 0, err);
  show("r", r); show("s", s); printf("\\n");

  verify("verify", 0, qx, qy, DIGEST, r, s);
  uint8_t tampered[32];
  memcpy(tampered, DIGEST, sizeof tampered);
  tampered[31] ^= 1;
  verify("tampered_digest", 0, qx, qy, tampered, r, s);
  verify("wrong_key", 0, PEER_X, PEER_Y, DIGEST, r, s);
  for (unsigned i = 0; i < CASES; ++i)
    verify("case", i, CASE_X[i], CASE_Y[i], CASE_DIGEST[i], CASE_R[i], CASE_S[i]);

  ecdh("ecdh", 0, d, PEER_X, PEER_Y);
  ecdh("ecdh_peer", 0, PEER_D, qx, qy);
  for (unsigned i = 0; i < BAD; ++i) ecdh("bad", i, d, BAD_X[i], BAD_Y[i]);
  ecdh("bad_point_zero", 0, d, ZERO, ZERO);
  start();
  err = montu_ec_mul(CURVE, x, y, ZERO, PEER_X, PEER_Y);
  stop("mul_k_zero", 0, err);
  printf("\\n");
  ecdh("after_errors", 0, d, PEER_X, PEER_Y);

  /* constant time (the unit's cycles): each scalar from the same buffers */
  for (unsigned i = 0; i < CT; ++i) {{
    memcpy(k, CT_K[i], sizeof k);
    start();
    err = {ct_mul};
    stop("ct", i, err);
    show("x", x); show("y", y); printf("\\n");
  }}
  return 0;
}}
"""


@dataclass
class Call:
    err: int
    system: int
    unit: int
    values: dict[str, int]


def _parse(output: str) -> dict[str, Call]:
    calls = {}
    for line in output.splitlines():
        tokens = line.split()
        if len(tokens) < 4 or not tokens[1].startswith("err="):
            continue
        name = tokens[0]
        numbers = [int(t.split("=")[1]) for t in tokens[1:4]]
        values, label = {}, None
        for token in tokens[4:]:
            if "=" in token:
                label, first = token.split("=")
                values[label] = first
            else:
                values[label] += " " + token
        calls[name] = Call(*numbers, {key: parse_words(text) for key, text in values.items()})
    return calls


def _c_bytes(name: str, data: bytes) -> str:
    return f"static const uint8_t {name}[{len(data)}] = {{{', '.join(str(b) for b in data)}}};\n"


def _c_digests(name: str, digests: list[bytes]) -> str:
    rows = ",\n  ".join("{" + ", ".join(str(b) for b in d) + "}" for d in digests)
    return f"static const uint8_t {name}[{len(digests)}][32] = {{\n  {rows}\n}};\n"


@dataclass
class Case:
    what: str
    q: tuple[int, int]
    digest: bytes
    r: int
    s: int
    valid: bool


def _crafted(c: Curve, q: tuple[int, int], u1: int, u2: int) -> Case | None:
    """A valid signature with the given u1 = e/s and u2 = r/s (no private key needed): R = u1·G +
    u2·Q, r = x(R) mod n, s = r/u2, e = u1·s — possible when e fits the digest (P-256)."""
    n = c.n
    point = reference.add(c, reference.mul(c, u1, c.generator), reference.mul(c, u2, q))
    r = point[0] % n
    s = r * pow(u2, -1, n) % n
    e = u1 * s % n
    if r == 0 or s == 0 or e >> 256:
        return None
    return Case(f"crafted u1={u1:#x} u2={u2:#x}", q, e.to_bytes(32, "big"), r, s, True)


@dataclass
class Inputs:
    curve: Curve
    source: str                     # the C program
    digest: bytes                   # what the firmware signs
    peer_d: int
    cases: list[Case]               # signatures the firmware verifies
    bad: list[tuple[int, int]]      # peer points it refuses
    ct: list[int]                   # scalars of the constant-time runs
    ct_base: tuple[int, int]


def _inputs(name: str, tmp: Path) -> Inputs:
    c = get_curve(name)
    words = -(-c.bits // 64)
    rng = random.Random(f"fw-ec-{name}")
    peer_d = rng.randrange(1, c.n)
    peer = reference.mul(c, peer_d, c.generator)
    digest = hashlib.sha256(b"signed in firmware").digest()
    other = hashlib.sha256(b"signed by OpenSSL").digest()
    r, s = _openssl_sign(tmp, c, peer_d, peer, other)
    cases = [Case("OpenSSL's signature", peer, other, r, s, True),
             Case("r = 0", peer, other, 0, s, False),
             Case("s = n", peer, other, r, c.n, False)]
    if r + c.n < 1 << (64 * words):
        cases.append(Case("r + n", peer, other, r + c.n, s, False))
    if not c.is_binary:
        cases += [_crafted(c, peer, 0, rng.randrange(1, c.n)),                       # u1·G = O
                  _crafted(c, peer, rng.randrange(1, c.n), window.exceptional_scalars(c)[0]),
                  _crafted(c, peer, rng.randrange(1, c.n), c.n - 1)]                 # u2·Q = −Q
        assert all(cases)
    for case in cases:                      # OpenSSL agrees (r = 0 has no DER encoding)
        verdict = case.r != 0 and _openssl_verifies(tmp, c, case.q, case.digest, case.r, case.s)
        assert verdict == case.valid, case.what
    bad = [(peer[0], peer[1] ^ 1),                                  # off the curve
           (peer[0] | 1 << c.bits if c.is_binary else c.modulus, peer[1])]  # x out of range
    if c.is_binary:
        two_torsion = (0, 1)                                        # (0, √b), order 2
        bad += [two_torsion, reference.add(c, peer, two_torsion)]            # on the curve, order 2n
    # constant time: random scalars, and the edge ones (1, n − 1: −P on the binary ladder)
    ct = [rng.randrange(1, c.n), 1, c.n - 1] if c.is_binary else \
        [rng.randrange(1, c.n) | 1, rng.randrange(1, c.n) & ~1]
    base = peer if c.is_binary else c.generator
    ct_mul = ("montu_ec_sect283k1_mul(x, y, k, PEER_X, PEER_Y)" if c.is_binary
              else "montu_ec_p256_mul_generator(x, y, k)")
    arrays = "".join([
        _c_bytes("SEED", SEED), _c_bytes("DIGEST", digest),
        c_array("PEER_D", peer_d, words), c_array("PEER_X", peer[0], words),
        c_array("PEER_Y", peer[1], words),
        c_array("ZERO", 0, words),
        f"#define CASES {len(cases)}\n",
        c_table("CASE_X", [case.q[0] for case in cases], words),
        c_table("CASE_Y", [case.q[1] for case in cases], words),
        _c_digests("CASE_DIGEST", [case.digest for case in cases]),
        c_table("CASE_R", [case.r for case in cases], words),
        c_table("CASE_S", [case.s for case in cases], words),
        f"#define BAD {len(bad)}\n",
        c_table("BAD_X", [p[0] for p in bad], words), c_table("BAD_Y", [p[1] for p in bad], words),
        f"#define CT {len(ct)}\n", c_table("CT_K", ct, words)])
    source = PROGRAM.format(curve=CURVES[name], words=words, arrays=arrays, ct_mul=ct_mul)
    return Inputs(c, source, digest, peer_d, cases, bad, ct, base)


@pytest.mark.parametrize("name", list(CURVES))
def test_ecdsa_and_ecdh_in_firmware_match_openssl(name, tmp_path):
    inputs = _inputs(name, tmp_path)
    c, digest, peer_d, cases, bad, ct = (inputs.curve, inputs.digest, inputs.peer_d, inputs.cases,
                                         inputs.bad, inputs.ct)
    result = soc_run.run_source(f"fw_ec_{name.replace('-', '')}.c", inputs.source, max_cycles=60_000_000)
    assert result.exit_code == 0, result.output
    calls = _parse(result.output)
    for call_name, call in calls.items():
        print(f"{name} {call_name}: err={call.err} system={call.system:,} unit={call.unit:,}")
    assert calls["unseeded0"].err == 20                 # MONTU_ERR_NO_ENTROPY: nothing drawn
    assert calls["seed0"].err == 0

    # key generation: Q = d·G
    key = calls["keygen0"]
    assert key.err == 0
    d, q = key.values["d"], (key.values["qx"], key.values["qy"])
    assert 1 <= d < c.n and reference.mul(c, d, c.generator) == q

    # the firmware's signature: OpenSSL accepts it, the firmware too, not tampered ones
    sign = calls["sign0"]
    assert sign.err == 0
    r, s = sign.values["r"], sign.values["s"]
    assert _openssl_verifies(tmp_path, c, q, digest, r, s)
    assert calls["verify0"].err == 0
    for tampered in ("tampered_digest0", "wrong_key0"):
        assert calls[tampered].err == 32, tampered                   # MONTU_ERR_EC_SIGNATURE
    # signatures from OpenSSL and crafted ones: the firmware agrees with OpenSSL
    for i, case in enumerate(cases):
        assert calls[f"case{i}"].err == (0 if case.valid else 32), case.what

    # ECDH both ways, equal to the host's x(d·d_peer·G)
    shared = reference.mul(c, d * peer_d % c.n, c.generator)[0]
    assert (calls["ecdh0"].err, calls["ecdh0"].values["x"]) == (0, shared)
    assert (calls["ecdh_peer0"].err, calls["ecdh_peer0"].values["x"]) == (0, shared)
    # bad peer points: MONTU_ERR_POINT, nothing out; then the library still works
    for i in range(len(bad)):
        assert (calls[f"bad{i}"].err, calls[f"bad{i}"].values["x"]) == (18, 0), bad[i]
    assert calls["bad_point_zero0"].err == 18
    assert calls["mul_k_zero0"].err == 16                                # MONTU_ERR_ARGUMENT
    assert (calls["after_errors0"].err, calls["after_errors0"].values["x"]) == (0, shared)

    # k·P: right for every scalar, in the same unit cycles
    runs = [calls[f"ct{i}"] for i in range(len(ct))]
    for k, run in zip(ct, runs):
        assert run.err == 0 and (run.values["x"], run.values["y"]) == reference.mul(c, k, inputs.ct_base), k
    assert len({run.unit for run in runs}) == 1


FAULT_PROGRAM = """\
#include <stdio.h>
#include "montu_ec.h"
#include "montu_random.h"
#include "montu_soc.h"
#define WORDS {words}
{arrays}
extern int montu_ec_fault_test;     /* fw/lib/ecdsa.c, built with -DMONTU_EC_FAULT_TESTS */
int main(void) {{
  static uint64_t r[WORDS], s[WORDS];
  montu_random_seed(SEED, sizeof SEED);
  for (int fault = 1; fault <= 3; ++fault) {{   /* 1: s, 2: x(k·G), 3: none */
    montu_ec_fault_test = fault;
    int err = montu_ecdsa_sign_sha256({curve}, r, s, D, DIGEST);
    printf("fault%d err=%d system=0 unit=0", fault, err);
    printf(" r=");
    montu_soc_print_number(r, WORDS);
    printf(" s=");
    montu_soc_print_number(s, WORDS);
    printf("\\n");
  }}
  return 0;
}}
"""


@pytest.mark.parametrize("name", list(CURVES))
def test_a_faulty_signature_is_never_released(name, tmp_path):
    """A fault while signing (s or x(k·G) changed after the unit computed it) fails the check
    before release: MONTU_ERR_EC_FAULT, r = s = 0; the next signature is right again."""
    c = get_curve(name)
    words = -(-c.bits // 64)
    d = random.Random(f"fw-ec-fault-{name}").randrange(1, c.n)
    digest = hashlib.sha256(b"faults").digest()
    source = FAULT_PROGRAM.format(curve=CURVES[name], words=words, arrays="".join([
        _c_bytes("SEED", SEED), _c_bytes("DIGEST", digest), c_array("D", d, words)]))
    path = tmp_path / f"fw_ec_fault_{name.replace('-', '')}.c"
    path.write_text(source)
    elf = soc_run.compile_c([path], extra_flags=["-DMONTU_EC_FAULT_TESTS"])
    result = soc_run.run_elf(elf, max_cycles=30_000_000)
    assert result.exit_code == 0, result.output
    calls = _parse(result.output)
    for fault in (1, 2):
        assert (calls[f"fault{fault}"].err, calls[f"fault{fault}"].values) == (33, {"r": 0, "s": 0})
    good = calls["fault3"]
    assert good.err == 0
    assert _openssl_verifies(tmp_path, c, reference.mul(c, d, c.generator), digest, good.values["r"],
                             good.values["s"])
