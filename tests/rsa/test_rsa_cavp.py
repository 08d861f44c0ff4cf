"""NIST CAVP RSA signature vectors (FIPS 186-2/186-3, from `cryptography-vectors`) on the unit.

Every applicable vector of every applicable file runs, grouped by file × modulus size × hash:

    file                  vectors  what is checked
    SigGen15_186-2.txt      250    sign with (n, e, d) → S byte for byte; S verifies
    SigGenPSS_186-2.txt     250    sign with (n, e, d) and the given SaltVal → S byte for byte
    SigGen15_186-3.rsp      250    no d in the file: S verifies (PKCS#1 v1.5)
    SigGenPSS_186-3.rsp     250    no d, salt length 0: S verifies (sLen 0 and auto-detect)
    SigVer15_186-3.rsp      450    verify == Result (75 P, 375 F)
    SigVerPSS_186-3.rsp     450    verify == Result, with sLen = len(SaltVal) and auto-detect

The PKCS #1 v2.1 example vectors run on the unit too, with CRT keys (p, q, dp, dq, qinv given):
pss-vect.txt (60 PSS signatures, 1024–2048-bit keys including 1025…1031 bits, exact bytes with the
given salt), pkcs1v15sign-vectors.txt (300 v1.5 signatures), oaep-vect.txt (60 OAEP-SHA1
decryptions) and the four oaep-custom files whose OAEP and MGF1 hashes agree (4 × 60
decryptions; the mixed-hash files need a separate MGF1 hash, which the key API does not take:
test_rsa_padding.py checks them on the host).

SigGen15_186-2.rsp and SigGenPSS_186-2.rsp are the .txt files without d (a test checks that
every (n, e, SHAAlg, Msg, S) is the same), so they are covered by the .txt ones. The X9.31 files
(SigGenRSA*, SigVerRSA, KeyGenRSA) are for a padding and a key generation Montu does not
implement, so they do not apply.

The keys are non-CRT (n, e, d): the private operation is one constant-time exponentiation with a
fixed exponent length, so within a (file, modulus) group every signature must take the same
number of unit cycles; the tests check that too.

Run time: verification is cheap (e is small) and every verification vector runs by default. A
private operation on the simulator takes ~0.05 s (1024 bits) to ~1 s (4096 bits), so the 500
SigGen vectors alone need ~2.5 min of CPU, ~5 min of wall time on a busy 2-core machine: too much
for the default suite. By default SigGen signs a deterministic stratified subset — the first,
middle and last vector of every file × modulus × hash group (150 of 500), the first 4
pkcs1v15sign examples of each of its 15 keys (60 of 300) and the first oaep-custom example of each
of its 10 keys per file (40 of 240); MONTU_CAVP_ALL=1 runs them all.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import pytest

from montu.driver import Unit
from montu.rsa import RsaPrivateKey, RsaPublicKey


def _load_cavp():
    """tests/rsa/cavp.py under a name of its own (tests/ has no packages; avoids clashes)."""
    if "montu_tests_rsa_cavp" not in sys.modules:
        spec = importlib.util.spec_from_file_location("montu_tests_rsa_cavp",
                                                      Path(__file__).with_name("cavp.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return sys.modules["montu_tests_rsa_cavp"]


cavp = _load_cavp()

SIGN_FILES = ["SigGen15_186-2.txt", "SigGenPSS_186-2.txt"]
VERIFY_ONLY_FILES = ["SigGen15_186-3.rsp", "SigGenPSS_186-3.rsp"]
SIGVER_FILES = ["SigVer15_186-3.rsp", "SigVerPSS_186-3.rsp"]
MODS = [1024, 1536, 2048, 3072, 4096]
HASHES = ["sha1", "sha224", "sha256", "sha384", "sha512"]
EXPECTED_COUNTS = {"SigGen15_186-2.txt": 250, "SigGenPSS_186-2.txt": 250,
                   "SigGen15_186-3.rsp": 250, "SigGenPSS_186-3.rsp": 250,
                   "SigVer15_186-3.rsp": 450, "SigVerPSS_186-3.rsp": 450}


@lru_cache(maxsize=None)
def cases(name: str) -> tuple:
    return tuple(cavp.read_cavp(cavp.FIPS_186_2 / name))


def group(name: str, mod: int, hash: str) -> list:
    selected = [c for c in cases(name) if c.mod == mod and c.hash == hash]
    assert selected, f"no {mod}-bit {hash} vectors in {name}"
    return selected


CAVP_ALL = os.environ.get("MONTU_CAVP_ALL", "") not in ("", "0")


def sign_subset(vectors: list) -> list:
    """All vectors with MONTU_CAVP_ALL=1, else the first, middle and last of the group."""
    if CAVP_ALL:
        return vectors
    return [vectors[i] for i in sorted({0, len(vectors) // 2, len(vectors) - 1})]


def is_pss(name: str) -> bool:
    return "PSS" in name


@pytest.fixture(scope="module")
def unit() -> Unit:
    return Unit(backend="sim")




def _ids(params):
    return [f"{mod}-{hash}" for mod, hash in params]


# ------------------------------------------------------------------------------- files
@pytest.mark.parametrize("name", list(EXPECTED_COUNTS))
def test_vector_files_are_complete(name):
    """The parser sees every vector: 50 (SigGen) or 90 (SigVer) per modulus size, 1/5 per hash."""
    got = cases(name)
    assert len(got) == EXPECTED_COUNTS[name]
    per_group = defaultdict(int)
    for c in got:
        per_group[(c.mod, c.hash)] += 1
        assert len(c.s) == (c.n.bit_length() + 7) // 8 and c.n.bit_length() == c.mod
    assert set(per_group) == {(m, h) for m in MODS for h in HASHES}
    assert len(set(per_group.values())) == 1
    if name in SIGN_FILES:
        assert all(c.d is not None for c in got)
    if name in SIGVER_FILES:
        assert sum(c.result for c in got) == 75


@pytest.mark.parametrize("name", SIGN_FILES)
def test_rsp_files_repeat_the_txt_files(name):
    rsp = cavp.read_cavp(cavp.FIPS_186_2 / name.replace(".txt", ".rsp"))
    assert [(c.n, c.e, c.hash, c.msg, c.s) for c in rsp] == \
        [(c.n, c.e, c.hash, c.msg, c.s) for c in cases(name)]


# ------------------------------------------------------------------------------ SigGen
@pytest.mark.parametrize("name", SIGN_FILES)
@pytest.mark.parametrize("mod,hash", [(m, h) for m in MODS for h in HASHES],
                         ids=_ids([(m, h) for m in MODS for h in HASHES]))
def test_siggen(unit, name, mod, hash):
    pss = is_pss(name)
    mismatches, cycles = [], set()
    vectors = sign_subset(group(name, mod, hash))
    for i, c in enumerate(vectors):
        key = RsaPrivateKey(c.n, c.e, c.d, unit=unit)
        sig = key.sign(c.msg, hash, pss=pss, salt=c.salt if pss else None)
        if i:   # the first use of a modulus also computes R² mod n once (the unit caches it)
            cycles.add(key.last_cycles)
        if sig != c.s:
            mismatches.append(c.index)
        elif not key.public_key().verify(c.s, c.msg, hash, pss=pss):
            mismatches.append(c.index)
    assert not mismatches, f"{name}: vectors {mismatches} of {len(vectors)} differ"
    assert len(cycles) <= 1, f"signing took {sorted(cycles)} cycles: not constant for one key size"


@pytest.mark.parametrize("name", VERIFY_ONLY_FILES)
@pytest.mark.parametrize("mod,hash", [(m, h) for m in MODS for h in HASHES],
                         ids=_ids([(m, h) for m in MODS for h in HASHES]))
def test_siggen_signatures_verify(unit, name, mod, hash):
    pss = is_pss(name)
    failures = []
    for c in group(name, mod, hash):
        key = RsaPublicKey(c.n, c.e, unit=unit)
        ok = key.verify(c.s, c.msg, hash, pss=pss)
        if pss:
            ok = ok and key.verify(c.s, c.msg, hash, pss=True, salt_length=0)
            # the salt length of this file is 0: a longer one must not be accepted
            ok = ok and not key.verify(c.s, c.msg, hash, pss=True, salt_length=1)
        # negative control: the same signature on a changed message fails
        ok = ok and not key.verify(c.s, c.msg + b"\x00", hash, pss=pss)
        if not ok:
            failures.append(c.index)
    assert not failures, f"{name}: vectors {failures} failed"


# ------------------------------------------------------------------------------ SigVer
@pytest.mark.parametrize("name", SIGVER_FILES)
@pytest.mark.parametrize("mod,hash", [(m, h) for m in MODS for h in HASHES],
                         ids=_ids([(m, h) for m in MODS for h in HASHES]))
def test_sigver(unit, name, mod, hash):
    pss = is_pss(name)
    wrong = []
    vectors = group(name, mod, hash)
    assert any(c.result for c in vectors) and not all(c.result for c in vectors)
    for c in vectors:
        key = RsaPublicKey(c.n, c.e, unit=unit)
        if pss:
            results = {key.verify(c.s, c.msg, hash, pss=True, salt_length=len(c.salt)),
                       key.verify(c.s, c.msg, hash, pss=True)}          # auto-detected sLen
        else:
            results = {key.verify(c.s, c.msg, hash)}
        if results != {c.result}:
            wrong.append(f"#{c.index} expected {'P' if c.result else 'F ' + c.reason}")
    assert not wrong, f"{name}: {wrong}"


# --------------------------------------------------- PKCS #1 v2.1 examples (CRT keys)
def _crt_key(key, unit: Unit) -> RsaPrivateKey:
    return RsaPrivateKey(key.n, key.e, key.d, key.p, key.q, key.dp, key.dq, key.qinv, unit=unit)


def _per_key(examples: list, count: int) -> list:
    """All examples with MONTU_CAVP_ALL=1, else the first `count` of each key."""
    if CAVP_ALL:
        return examples
    seen: dict[int, int] = defaultdict(int)
    chosen = []
    for ex in examples:
        if seen[id(ex.key)] < count:
            chosen.append(ex)
        seen[id(ex.key)] += 1
    return chosen


def test_pss_examples_sign_on_unit(unit):
    examples = cavp.read_pkcs1_examples(cavp.RSA_VECTORS / "pkcs-1v2-1d2-vec" / "pss-vect.txt")
    assert len(examples) == 60
    assert {ex.key.n.bit_length() for ex in examples} == {1024, 1025, 1026, 1027, 1028, 1029,
                                                          1030, 1031, 1536, 2048}
    keys: dict[int, RsaPrivateKey] = {}
    wrong = []
    for ex in examples:
        key = keys.setdefault(id(ex.key), _crt_key(ex.key, unit))
        assert key.crt is not None
        msg, salt, sig = (ex.fields[f] for f in ("Message to be signed", "Salt", "Signature"))
        ok = key.sign(msg, "sha1", pss=True, salt=salt) == sig
        ok = ok and key.public_key().verify(sig, msg, "sha1", pss=True)
        ok = ok and key.public_key().verify(sig, msg, "sha1", pss=True, salt_length=len(salt))
        ok = ok and not key.public_key().verify(sig, msg + b"x", "sha1", pss=True)
        if not ok:
            wrong.append(ex.name)
    assert not wrong


def test_pkcs1_v15_examples_sign_on_unit(unit):
    examples = cavp.read_pkcs1_examples(cavp.RSA_VECTORS / "pkcs1v15sign-vectors.txt")
    assert len(examples) == 300
    keys: dict[int, RsaPrivateKey] = {}
    wrong = []
    for ex in _per_key(examples, 4):
        key = keys.setdefault(id(ex.key), _crt_key(ex.key, unit))
        msg, sig = ex.fields["Message to be signed"], ex.fields["Signature"]
        if key.sign(msg, "sha1") != sig or not key.public_key().verify(sig, msg, "sha1"):
            wrong.append(ex.name)
    assert len(keys) == 15 and not wrong


@pytest.mark.parametrize("name", ["pkcs-1v2-1d2-vec/oaep-vect.txt"]
                         + [f"oaep-custom/oaep-{h}-{h}.txt"
                            for h in ("sha224", "sha256", "sha384", "sha512")])
def test_oaep_examples_decrypt_on_unit(unit, name):
    examples = cavp.read_pkcs1_examples(cavp.RSA_VECTORS / name)
    assert len(examples) == 60
    selected = examples if "custom" not in name else _per_key(examples, 1)
    keys: dict[int, RsaPrivateKey] = {}
    wrong = []
    for ex in selected:
        hash, mgf = ex.hashes
        assert hash == mgf
        key = keys.setdefault(id(ex.key), _crt_key(ex.key, unit))
        c, msg = ex.fields["Encryption"], ex.fields["Message"]
        if key.decrypt(c, hash) != msg:
            wrong.append(ex.name)
    assert len(keys) == 10 and not wrong
