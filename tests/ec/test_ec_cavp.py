"""NIST CAVP ECDSA vectors (FIPS 186-3, from `cryptography-vectors`) on every supported NIST curve.

| file         | vectors | checks                                                      |
|--------------|---------|-------------------------------------------------------------|
| SigVer.rsp   | 1125    | EcPublicKey(Q) + verify_digest_rs(r, s, H(Msg)) == Result   |
| KeyPair.rsp  | 150     | EcPrivateKey(d).public_key() == Q                           |
| PKV.rsp      | 180     | EcPublicKey(Q) accepted iff Result = P, with the right why  |
| SigGen.txt   | 1125    | signing with the file's nonce k gives the file's (R, S)     |

15 curves (P-192 … P-521, K-163 … K-571, B-163 … B-571) and 5 hashes (SHA-1, SHA-224, SHA-256,
SHA-384, SHA-512). All of it takes 30–40 min on the simulator, one vector at a time (2583
tests in 30 and 38 min on the 2-core dev machine; a B-571 verification is ~2.5 s), far more
than the default suite can spend. So by default a deterministic, stratified subset runs: 75 SigVer
vectors, one per curve × hash, whose kinds (pass; message, R, S or Q changed) form a Latin
square, so every curve sees every hash, a pass and all four failure reasons; every PKV reason
on every curve; one KeyPair and one SigGen vector per curve, hashes in rotation. About 2 min.
`MONTU_CAVP_ALL=1` runs every vector:

    MONTU_CAVP_ALL=1 python3 -m pytest tests/ec/test_ec_cavp.py
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter, defaultdict

import cavp
import pytest

from montu import ec
from montu.ec import ecdsa

RUN_ALL = os.environ.get("MONTU_CAVP_ALL") == "1"
FULL_RUN_NOTE = (
    "the full CAVP set takes 30-40 min on the simulator; the default suite runs a stratified "
    "subset (every curve x hash, every curve x pass and each failure reason); set "
    "MONTU_CAVP_ALL=1 to run all vectors"
)

NIST_CURVES = [
    "P-192", "P-224", "P-256", "P-384", "P-521",
    "K-163", "K-233", "K-283", "K-409", "K-571",
    "B-163", "B-233", "B-283", "B-409", "B-571",
]
HASHES = ["sha1", "sha224", "sha256", "sha384", "sha512"]
SIGVER_FAILURES = ["Message changed", "R changed", "S changed", "Q changed"]
PKV_REASONS = {  # CAVP reason -> what Montu's InvalidPublicKey must say
    "Q_x or Q_y out of range": "coordinates must be",
    "Point not on curve": "not on the curve",
}

SIGVER = cavp.load("SigVer.rsp")
KEYPAIR = cavp.load("KeyPair.rsp")
PKV = cavp.load("PKV.rsp")
SIGGEN = cavp.load("SigGen.txt")


# ---------------------------------------------------------------------------------------------
# Selection: everything with MONTU_CAVP_ALL=1, else a deterministic stratified subset
# ---------------------------------------------------------------------------------------------


SIGVER_KINDS = ["", *SIGVER_FAILURES]  # "" = a passing vector


def select_sigver(vectors: list[cavp.CavpVector]) -> list[cavp.CavpVector]:
    """One vector per (curve, hash), its kind (pass, message/R/S/Q changed) a Latin square:
    kind = (curve index + hash index) mod 5. So every curve meets every hash, every curve meets a
    passing vector and all four failure reasons, and every hash meets all five kinds (3 times).
    75 verifications; the full product curve × hash × {pass, fail} (150) overruns the default
    suite's time budget on a loaded 2-core machine, and MONTU_CAVP_ALL=1 runs all 1125."""
    chosen = []
    for c, curve in enumerate(NIST_CURVES):
        for h, hash_name in enumerate(HASHES):
            kind = SIGVER_KINDS[(c + h) % len(SIGVER_KINDS)]
            chosen.append(next(v for v in vectors
                               if v.curve == curve and v.hash == hash_name and v.reason == kind))
    return chosen


def select_pkv(vectors: list[cavp.CavpVector]) -> list[cavp.CavpVector]:
    """Per curve: the first vector of each result (valid, out of range, not on curve)."""
    seen: set[tuple[str, str]] = set()
    chosen = []
    for v in vectors:
        if (v.curve, v.reason) not in seen:
            seen.add((v.curve, v.reason))
            chosen.append(v)
    return chosen


def select_per_curve(vectors: list[cavp.CavpVector], count: int) -> list[cavp.CavpVector]:
    """The first `count` vectors of each curve, taking hashes in rotation where there are any."""
    by_curve: dict[str, list[cavp.CavpVector]] = defaultdict(list)
    for v in vectors:
        by_curve[v.curve].append(v)
    chosen = []
    for position, curve in enumerate(NIST_CURVES):
        group = by_curve[curve]
        if group[0].hash is None:
            chosen.extend(group[:count])
            continue
        for i in range(count):
            hash_name = HASHES[(position + i) % len(HASHES)]
            chosen.append(next(v for v in group if v.hash == hash_name))
    return chosen


def params(vectors: list[cavp.CavpVector]) -> list:
    return [pytest.param(v, id=v.id) for v in vectors]


SIGVER_RUN = SIGVER if RUN_ALL else select_sigver(SIGVER)
PKV_RUN = PKV if RUN_ALL else select_pkv(PKV)
KEYPAIR_RUN = KEYPAIR if RUN_ALL else select_per_curve(KEYPAIR, 1)
SIGGEN_RUN = SIGGEN if RUN_ALL else select_per_curve(SIGGEN, 1)


# ---------------------------------------------------------------------------------------------
# The files are what we think they are, and the subset covers what it claims
# ---------------------------------------------------------------------------------------------


def test_vector_files_cover_every_curve_and_hash() -> None:
    assert Counter((v.curve, v.hash) for v in SIGVER) == {
        (c, h): 15 for c in NIST_CURVES for h in HASHES
    }
    assert Counter(v.expected_pass for v in SIGVER) == {True: 225, False: 900}
    assert Counter((v.curve, v.hash) for v in SIGGEN) == {
        (c, h): 15 for c in NIST_CURVES for h in HASHES
    }
    assert Counter(v.curve for v in KEYPAIR) == {c: 10 for c in NIST_CURVES}
    assert Counter(v.curve for v in PKV) == {c: 12 for c in NIST_CURVES}
    assert {v.reason for v in PKV} == {"", *PKV_REASONS}
    assert {v.reason for v in SIGVER} == {"", *SIGVER_FAILURES}


def test_default_subset_is_stratified() -> None:
    subset = select_sigver(SIGVER)
    assert len(subset) == 75
    assert {(v.curve, v.hash) for v in subset} == {(c, h) for c in NIST_CURVES for h in HASHES}
    for curve in NIST_CURVES:
        assert {v.reason for v in subset if v.curve == curve} == set(SIGVER_KINDS)
    for hash_name in HASHES:
        assert Counter(v.reason for v in subset if v.hash == hash_name) == {
            kind: 3 for kind in SIGVER_KINDS
        }
    assert all(v.expected_pass == (v.reason == "") for v in subset)
    assert {(v.curve, v.reason) for v in select_pkv(PKV)} == {
        (c, r) for c in NIST_CURVES for r in ("", *PKV_REASONS)
    }
    assert {v.curve for v in select_per_curve(KEYPAIR, 1)} == set(NIST_CURVES)
    assert {v.hash for v in select_per_curve(SIGGEN, 1)} == set(HASHES)


def test_every_vector_of_the_supported_curves_is_loaded() -> None:
    """The files parse completely: 75 SigVer, 10 KeyPair, 12 PKV and 75 SigGen vectors for each
    of the 15 NIST curves. By default only the stratified subset runs (the full set takes 30-40
    min on the simulator, see FULL_RUN_NOTE); MONTU_CAVP_ALL=1 runs them all."""
    assert (len(SIGVER), len(KEYPAIR), len(PKV), len(SIGGEN)) == (1125, 150, 180, 1125)
    assert len(SIGVER_RUN) <= len(SIGVER) and len(SIGGEN_RUN) <= len(SIGGEN)
    if RUN_ALL:
        assert (len(SIGVER_RUN), len(SIGGEN_RUN)) == (1125, 1125)


# ---------------------------------------------------------------------------------------------
# The vectors
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("vector", params(SIGVER_RUN))
def test_sigver(vector: cavp.CavpVector) -> None:
    curve = ec.get_curve(vector.curve)
    assert vector.hash is not None
    digest = hashlib.new(vector.hash, vector.bytes("Msg")).digest()
    try:
        public = ec.EcPublicKey(curve, vector.int("Qx"), vector.int("Qy"))
    except ec.InvalidPublicKey as exc:
        # a "Q changed" vector may change Q into an invalid key; any other vector must not fail here
        assert not vector.expected_pass and vector.reason == "Q changed", str(exc)
        return
    assert public.verify_digest_rs(vector.int("R"), vector.int("S"), digest) == vector.expected_pass


@pytest.mark.parametrize("vector", params(KEYPAIR_RUN))
def test_keypair(vector: cavp.CavpVector) -> None:
    key = ec.EcPrivateKey(ec.get_curve(vector.curve), vector.int("d"))
    assert key.public_key().point == (vector.int("Qx"), vector.int("Qy"))


@pytest.mark.parametrize("vector", params(PKV_RUN))
def test_pkv(vector: cavp.CavpVector) -> None:
    curve = ec.get_curve(vector.curve)
    x, y = vector.int("Qx"), vector.int("Qy")
    if vector.expected_pass:
        assert ec.EcPublicKey(curve, x, y).point == (x, y)
    else:
        with pytest.raises(ec.InvalidPublicKey, match=PKV_REASONS[vector.reason]):
            ec.EcPublicKey(curve, x, y)


@pytest.mark.parametrize("vector", params(SIGGEN_RUN))
def test_siggen_with_the_files_nonce(vector: cavp.CavpVector) -> None:
    # SigGen.txt gives the nonce k of each signature: signing with it must give the file's (R, S)
    curve = ec.get_curve(vector.curve)
    assert vector.hash is not None
    digest = hashlib.new(vector.hash, vector.bytes("Msg")).digest()
    e = ecdsa.digest_to_integer(digest, curve.n)
    signature = ecdsa.sign_integers(ec.default_unit(), curve, vector.int("d"), e, vector.int("k"))
    assert signature == (vector.int("R"), vector.int("S"))
