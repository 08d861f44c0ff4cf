"""`montu bench ecc`: unit cycles of EC operations per curve, against the issue's targets.

For every curve: constant-time scalar multiplication k·P of a public point (`scalar_mult`: the
signed window on GF(p), the López–Dahab ladder on GF(2^m); the same count for every scalar, which
the benchmark checks), the Montgomery ladder alone (`ladder`: co-Z on GF(p)), key generation d·G
(the comb on GF(p)), ECDSA sign (RFC 6979 nonces, so r and s are reproducible; k·G + blinded k⁻¹:
MINV sees k·β for a fresh random β, so the count varies by a few hundred cycles), ECDSA verify
(GF(p): Shamir's trick, whose count depends on the public u1, u2 — reproducible here since the
signatures are; GF(2^m): two ladders), ECDH (validation of the peer key is counted separately as
`validate`). Cycle counts are the unit's own (rsp.cycles); the
simulator is cycle-exact, so `--backend sim` gives the RTL's numbers. `--pipelined` measures the
pipelined unit (Pipelined = 1) into bench/results/ecc_pipelined.json (.txt); the targets
are the default unit's, so they are not judged for it.
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from montu.benchmarks import DEFAULT_UNIT_NOTE, results_path, unit_text, write_results
from montu.driver import Unit
from montu.ec import EcPrivateKey, EcPublicKey, curve_names, get_curve, points

# Issue #5 targets (unit cycles, RTL, Word64/Lanes2) and published anchors.
TARGETS = {("prime256v1", "scalar_mult"): 100_000, ("prime256v1", "sign"): 120_000,
           ("prime256v1", "verify"): 200_000, ("secp384r1", "sign"): 250_000,
           ("sect283k1", "scalar_mult"): 150_000}
ANCHORS = {("prime256v1", "scalar_mult"): "bie2021 ≈131,700 (affine, not constant-time); "
                                           "OTBN 670,089"}
OPERATIONS = ("scalar_mult", "ladder", "keygen", "sign", "verify", "ecdh", "validate")


@dataclass
class Row:
    curve: str
    op: str
    cycles: float
    cycles_min: int
    cycles_max: int
    samples: int
    target: int | None = None
    meets_target: bool | None = None
    anchor: str | None = None


@dataclass
class Report:
    backend: str
    word_bits: int
    lanes: int
    pipelined: bool = False
    rows: list[Row] = field(default_factory=list)
    constant_time: dict[str, bool] = field(default_factory=dict)
    seconds: float = 0.0
    machine: str = platform.platform()


def _cycles(unit: Unit, action: Callable[[], object]) -> int:
    before = unit.total_cycles
    action()
    return unit.total_cycles - before


def warm_peer(unit: Unit, curve, rng: random.Random) -> EcPublicKey:
    """A random peer public key on `unit`, after the unit's one-time per-curve constants (√b) are
    made, so that the k·P measured next pays for nothing else."""
    points.multiply(unit, curve, 3, curve.generator)
    return EcPrivateKey(curve, rng.randrange(2, curve.n - 2), unit).public_key()


def _measure_curve(unit: Unit, name: str, samples: int) -> tuple[dict[str, list[int]], bool]:
    curve = get_curve(name)
    rng = random.Random(f"montu-bench-ecc-{name}")
    peer = warm_peer(unit, curve, rng)
    counts: dict[str, list[int]] = {op: [] for op in OPERATIONS}
    for i in range(samples):
        k = rng.randrange(2, curve.n - 2)
        results = []
        counts["scalar_mult"].append(_cycles(unit, lambda: results.append(points.multiply(unit, curve, k, peer.point))))
        counts["ladder"].append(_cycles(unit, lambda: results.append(points.ladder(unit, curve, k, peer.point))))
        if results[0] != results[1]:   # two independent methods on the unit must agree
            raise RuntimeError(f"benchmark k·P on {name}: the window/comb and the ladder disagree")
        key = EcPrivateKey(curve, rng.randrange(2, curve.n - 2), unit)
        counts["keygen"].append(_cycles(unit, key.public_key))
        message = f"montu benchmark message {i}".encode()
        hash_name = "sha512" if curve.bits > 384 else "sha384" if curve.bits > 256 else "sha256"
        signature = b""

        def sign() -> None:
            nonlocal signature
            signature = key.sign(message, hash_name, deterministic=True)  # reproducible r, s

        counts["sign"].append(_cycles(unit, sign))
        public = key.public_key()
        ok = []
        counts["verify"].append(_cycles(unit, lambda: ok.append(public.verify(signature, message, hash_name))))
        if ok != [True]:
            raise RuntimeError(f"benchmark signature did not verify on {name}")
        counts["validate"].append(_cycles(unit, lambda: EcPublicKey(curve, peer.x, peer.y, unit)))
        counts["ecdh"].append(_cycles(unit, lambda: key.exchange(peer)))
    return counts, len(set(counts["scalar_mult"])) == 1 and len(set(counts["ladder"])) == 1


def run(backend: str = "rtl", curves: Sequence[str] | None = None, samples: int = 3,
        out: Path | None = None, *, pipelined: bool = False) -> dict:
    """Measure, print the table, write `out` (JSON; default bench/results/ecc.json, ecc_pipelined.json
    with pipelined) and the same table as `out` with .txt."""
    out = out or results_path("ecc", pipelined)
    names = [get_curve(c).name for c in curves] if curves else curve_names()
    unit = Unit(backend=backend, pipelined=pipelined)
    report = Report(backend=backend, word_bits=unit.word_bits, lanes=unit.lanes,
                    pipelined=unit.pipelined)
    start = time.time()
    for name in names:
        counts, constant = _measure_curve(unit, name, max(1, samples))
        report.constant_time[name] = constant
        for op in OPERATIONS:
            values = counts[op]
            target = TARGETS.get((name, op))
            mean = statistics.fmean(values)
            report.rows.append(Row(curve=name, op=op, cycles=round(mean, 1), cycles_min=min(values),
                                   cycles_max=max(values), samples=len(values), target=target,
                                   meets_target=None if target is None or pipelined
                                   else max(values) <= target,
                                   anchor=ANCHORS.get((name, op))))
    report.seconds = round(time.time() - start, 1)
    return write_results(out, asdict(report), _table(report))


def _table(report: Report) -> str:
    lines = [f"ECC on the Montu unit — backend {report.backend}, Word{report.word_bits}/"
             f"Lanes{report.lanes}, {unit_text(report.pipelined)}; unit cycles "
             "(mean [min–max] over samples)",
             f"{'curve':<11} " + " ".join(f"{op:>22}" for op in OPERATIONS) + "  constant-time"]
    by_curve: dict[str, dict[str, Row]] = {}
    for row in report.rows:
        by_curve.setdefault(row.curve, {})[row.op] = row
    for name, rows in by_curve.items():
        cells = []
        for op in OPERATIONS:
            r = rows[op]
            text = f"{r.cycles:,.0f}" if r.cycles_min == r.cycles_max else \
                f"{r.cycles:,.0f} [{r.cycles_min:,}–{r.cycles_max:,}]"
            cells.append(f"{text:>22}")
        lines.append(f"{name:<11} " + " ".join(cells) + f"  {'yes' if report.constant_time[name] else 'NO'}")
    lines.append("")
    lines.append(f"issue #5 {DEFAULT_UNIT_NOTE}:" if report.pipelined else "targets (issue #5):")
    for row in report.rows:
        if row.target is not None and report.pipelined:
            lines.append(f"  {row.curve} {row.op}: max {row.cycles_max:,}")
        elif row.target is not None:
            verdict = "meets" if row.meets_target else "MISSES"
            lines.append(f"  {row.curve} {row.op}: max {row.cycles_max:,} vs ≤ {row.target:,} — {verdict}")
        if row.anchor:
            lines.append(f"  {row.curve} {row.op}: anchors {row.anchor}")
    return "\n".join(lines)
