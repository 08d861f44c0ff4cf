"""`montu bench rsa`: RSA on the unit — modexp, CRT private, public, key generation — in cycles.

Runs on the Verilated RTL by default (`--backend sim`: the simulator, cycle-exact with it). Keys
for the operation figures come from the `cryptography` package (seeded messages, fresh keys per
run): the cycle counts do not depend on the key or message values (that is what the constant-time
rows check), only on the sizes. "cold" includes the per-modulus constants R² and R³ mod p, q, n
computed on the unit (once per key); "warm" is every later operation with the same key.
Key generation runs entirely on the unit; its cycles vary (prime search), so mean and spread.
`--pipelined` measures the pipelined unit (Pipelined = 1) into
bench/results/rsa_pipelined.json (.txt); the targets are the default unit's, so they are not judged for it.
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import rsa as pyca_rsa

import montu.rsa
from montu.benchmarks import DEFAULT_UNIT_NOTE, results_path, unit_text
from montu.driver import Unit

# anchors and targets of issue #4 (cycles)
ANCHORS = {
    "modexp-1024": "verma 561,222 (MPL); bie2021 ≈ 564,480; yeh ≈ 789,000",
    "private-crt-2048": "OpenTitan OTBN 18,889,021 (no CRT)",
    "public-2048": "OTBN 132,028",
}
TARGETS = {"modexp-1024": 380_000, "private-crt-2048": 800_000, "public-2048": 25_000}
SIZES = (1024, 2048, 3072, 4096)


@dataclass
class Row:
    op: str
    bits: int
    cycles: int                 # warm (per-key constants cached), the steady-state figure
    cycles_cold: int | None = None
    constant_time: bool | None = None   # identical cycles across every key/message tried
    samples: int = 1
    target: int | None = None
    meets_target: bool | None = None        # judged on the warm figure
    meets_target_cold: bool | None = None
    anchor: str | None = None


@dataclass
class KeygenRow:
    bits: int
    keys: int
    cycles_mean: float
    cycles_stdev: float
    cycles_min: int
    cycles_max: int
    backend: str


@dataclass
class Report:
    backend: str
    word_bits: int
    lanes: int
    pipelined: bool = False
    rows: list[Row] = field(default_factory=list)
    keygen: list[KeygenRow] = field(default_factory=list)
    machine: str = platform.platform()


def _key(unit: Unit, bits: int) -> montu.rsa.RsaPrivateKey:
    numbers = pyca_rsa.generate_private_key(public_exponent=65537, key_size=bits).private_numbers()
    pub = numbers.public_numbers
    return montu.rsa.RsaPrivateKey(pub.n, pub.e, numbers.d, numbers.p, numbers.q, numbers.dmp1,
                                   numbers.dmq1, numbers.iqmp, unit=unit)


def _measure_private(unit: Unit, bits: int, keys: int, rng: random.Random) -> tuple[Row, Row]:
    cold, warm, public_cold, public_warm = set(), set(), set(), set()
    for _ in range(keys):
        key = _key(unit, bits)
        for i in range(2):
            key.sign(rng.randbytes(32), "sha256")
            (cold if i == 0 else warm).add(key.last_cycles)
            pub = montu.rsa.RsaPublicKey(key.n, key.e, unit=unit)
            if i == 0:
                unit.forget_modulus(key.n)
            pub.encrypt(rng.randbytes(16))
            (public_cold if i == 0 else public_warm).add(pub.last_cycles)
    private = Row("private-crt", bits, max(warm), max(cold), len(warm) == 1 and len(cold) == 1, keys)
    public = Row("public-e65537", bits, max(public_warm), max(public_cold),
                 len(public_warm) == 1, keys)
    return private, public


def _measure_modexp(unit: Unit, bits: int, samples: int, rng: random.Random) -> Row:
    n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
    seen_cold, seen_warm = set(), set()
    for i in range(samples):
        unit.forget_modulus(n)
        exponent = rng.getrandbits(bits) | (1 << (bits - 1))
        base = rng.randrange(n)
        assert unit.mod_exp(base, exponent, n) == pow(base, exponent, n)  # noqa: S101 (host check of the benchmark itself)
        seen_cold.add(unit.last_cycles)
        unit.mod_exp(base, exponent, n)
        seen_warm.add(unit.last_cycles)
    return Row("modexp-full-exponent", bits, max(seen_warm), max(seen_cold),
               len(seen_warm) == 1 and len(seen_cold) == 1, samples)


def _measure_keygen(unit: Unit, bits: int, keys: int, backend: str) -> KeygenRow:
    cycles = []
    for i in range(keys):
        start = unit.total_cycles
        montu.rsa.generate(bits, unit=unit)
        cycles.append(unit.total_cycles - start)
        print(f"  keygen {bits}: key {i + 1}/{keys}: {cycles[-1]:,} cycles", flush=True)
    return KeygenRow(bits, keys, statistics.mean(cycles), statistics.pstdev(cycles), min(cycles),
                     max(cycles), backend)


def _annotate(row: Row, judge: bool = True) -> Row:
    """The row's target and anchor; `judge`: whether to judge the target (False for a unit the
    targets are not for)."""
    key = {("modexp-full-exponent", 1024): "modexp-1024", ("private-crt", 2048): "private-crt-2048",
           ("public-e65537", 2048): "public-2048"}.get((row.op, row.bits))
    if key:
        row.target = TARGETS[key]
        row.anchor = ANCHORS[key]
        if judge:
            row.meets_target = row.cycles <= row.target
            row.meets_target_cold = row.cycles_cold <= row.target if row.cycles_cold is not None else None
    return row


def run(backend: str, keys: int, out: Path | None = None, *, keygen_bits: int = 2048,
        sizes: tuple[int, ...] = SIZES, samples: int = 3, pipelined: bool = False) -> Report:
    """Measure, print the table, write `out` (JSON; default bench/results/rsa.json, rsa_pipelined.json
    with pipelined) and the same table as `out` with .txt."""
    out = out or results_path("rsa", pipelined)
    rng = random.Random(2021)
    unit = Unit(backend=backend, pipelined=pipelined)
    report = Report(backend=backend, word_bits=unit.word_bits, lanes=unit.lanes,
                    pipelined=unit.pipelined)
    judge = not pipelined   # the targets are the default unit's
    t0 = time.time()
    report.rows.append(_annotate(_measure_modexp(unit, 1024, samples, rng), judge))
    for bits in sizes:
        private, public = _measure_private(unit, bits, samples, rng)
        report.rows += [_annotate(private, judge), _annotate(public, judge)]
        print(f"  {bits}: private {private.cycles:,} public {public.cycles:,} "
              f"({time.time() - t0:.0f} s)", flush=True)
    if keys > 0:
        report.keygen.append(_measure_keygen(unit, keygen_bits, keys, backend))
    _write(report, out)
    return report


def _write(report: Report, out: Path) -> None:
    lines = [f"RSA on the unit ({report.backend}, Word={report.word_bits}, Lanes={report.lanes}, "
             f"{unit_text(report.pipelined)}); "
             "cycles; warm = per-key constants cached, cold = first operation with a key", "",
             f"{'operation':<24}{'bits':>6}{'warm':>12}{'cold':>12}{'const-time':>12}{'target':>10}  anchor"]
    for r in report.rows:
        target = f"{r.target:,}" if r.target else "—"
        mark = "" if r.meets_target is None else (" ✓" if r.meets_target else " ✗")
        lines.append(f"{r.op:<24}{r.bits:>6}{r.cycles:>12,}{(r.cycles_cold or 0):>12,}"
                     f"{str(r.constant_time):>12}{target:>10}{mark}  {r.anchor or ''}")
    for k in report.keygen:
        lines.append(f"{'keygen':<24}{k.bits:>6}  mean {k.cycles_mean:,.0f}  stdev {k.cycles_stdev:,.0f}  "
                     f"min {k.cycles_min:,}  max {k.cycles_max:,}  over {k.keys} keys ({k.backend})")
    if report.pipelined:
        lines += ["", DEFAULT_UNIT_NOTE]
    text = "\n".join(lines) + "\n"
    print(text)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(asdict(report), indent=2) + "\n")
    out.with_suffix(".txt").write_text(text)
