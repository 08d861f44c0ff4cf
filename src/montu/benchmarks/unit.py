"""`montu bench unit`: cycles per instruction × length × field, against the paper and the targets.

Runs the unit (the Verilated RTL by default; `--backend sim` for the simulator, which gives the
same cycle counts), prints a table and writes bench/results/unit.json. Cycle counts are the
unit's own (rsp.cycles) and deterministic; MINV depends on its operands, so it is reported as
mean/min/max over a fixed, seeded sample. `--pipelined` measures the unit with pipelined MAC
lanes (Pipelined = 1) into bench/results/unit_pipelined.json; the targets are the default unit's, so
they are not judged for it.
"""

from __future__ import annotations

import functools
import json
import math
import platform
import random
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from montu.arith import gf2m
from montu.arith.field import Field
from montu.benchmarks import DEFAULT_UNIT_NOTE, results_path, unit_text
from montu.driver import R_MOD, R_X, R_Y, R_Z, Unit
from montu.isa import encode

LENGTHS = (64, 128, 192, 256, 320, 384, 512, 576, 1024, 2048, 4096)
WORD_SERIAL = ("MADD", "MSUB", "MDBL", "MLIN", "ADD", "SUB", "SHL1", "SHR1", "CMP", "MOV", "CSWAP")
MLIN_IMM = 0xD3   # MLIN constants ca = 3, cb = −3 (the a = −3 doubling's 3(X − Z²))

# bie2021 Table 2 (cycles) and Table 4 (ns at 588 MHz, converted: 73.1 ns ≈ 43, 8.1 µs ≈ 4,760).
PAPER = {
    ("STARTMMI", 2048, "GFP"): 1251, ("STARTMMI", 512, "GFP"): 115, ("STARTMMI", 512, "GF2M"): 105,
    ("STARTMMI", 256, "GFP"): 43, ("MINV", 2048, "GFP"): 303502, ("MINV", 512, "GFP"): 15476,
    ("MINV", 512, "GF2M"): 16665, ("MINV", 256, "GFP"): 4760,
    ("MINV-even", 2048, "GFP"): 303502, ("MINV-Alg3", 2048, "GFP"): 303502,
    ("MINV-Alg3", 512, "GFP"): 15476, ("MINV-Alg3", 512, "GF2M"): 16665,
}
# Issue #3 targets for Word = 64, Lanes = 2.
TARGETS = {
    ("STARTMMI", 2048, "GFP"): 1090, ("STARTMMI", 512, "GFP"): 80, ("STARTMMI", 512, "GF2M"): 80,
    ("STARTMMI", 256, "GFP"): 30, ("MINV", 2048, "GFP"): 150000, ("MINV", 512, "GFP"): 8000,
    ("MINV", 512, "GF2M"): 8000, ("MINV", 256, "GFP"): 2500, ("MINV-even", 2048, "GFP"): 150000,
}


@dataclass
class Row:
    op: str
    bits: int
    field: str
    cycles: float
    cycles_min: int
    cycles_max: int
    samples: int
    mac_bound: int | None = None
    utilization: float | None = None
    paper: int | None = None
    target: int | None = None
    meets_target: bool | None = None


@dataclass
class Report:
    backend: str
    word_bits: int
    lanes: int
    pipelined: bool = False
    rows: list[Row] = field(default_factory=list)
    host_ops_per_second: dict[str, float] = field(default_factory=dict)
    machine: str = platform.platform()


def _modulus(bits: int, fld: Field, rng: random.Random) -> int:
    """A modulus filling an L-bit register: odd with its top bit set (GF(p)); for GF(2^m) the
    NIST polynomial that needs this length if there is one, else x^(L-1) + x^10 + 1 when that is
    irreducible, else a random degree-(L-1) polynomial with constant term 1 (Montgomery needs no
    irreducibility; MINV samples are drawn coprime to it)."""
    if fld is Field.GFP:
        return rng.getrandbits(bits) | 1 | (1 << (bits - 1))
    for m, poly in gf2m.NIST_POLYNOMIALS.items():
        if bits - 64 < m < bits:
            return poly
    trinomial = (1 << (bits - 1)) | (1 << 10) | 1
    if bits <= 1024 and gf2m.is_irreducible(trinomial):
        return trinomial
    return (1 << (bits - 1)) | rng.getrandbits(bits - 1) | 1


def _operand(n: int, fld: Field, rng: random.Random) -> int:
    if fld is Field.GF2M:
        return rng.getrandbits(gf2m.degree(n))
    return rng.randrange(n)


def _invertible(n: int, fld: Field, rng: random.Random) -> int:
    while True:
        a = _operand(n, fld, rng)
        if (gf2m.gcd(a, n) if fld is Field.GF2M else math.gcd(a, n)) == 1:
            return a


def _measure(unit: Unit, name: str, **slots: int) -> int:
    return unit.run(name, **slots).cycles


def bench_length(unit: Unit, bits: int, fld: Field, rng: random.Random, inversions: int) -> list[Row]:
    row = functools.partial(_row, judge=not unit.pipelined)   # the targets are the default unit's
    n = _modulus(bits, fld, rng)
    k = unit.configure(bits, fld)
    unit.write(R_MOD, n, k)
    unit.write(R_X, _operand(n, fld, rng), k)
    unit.write(R_Y, _operand(n, fld, rng), k)
    rows = []
    s = bits // 64
    mac_bound = math.ceil((2 * s * s + s) / unit.lanes)
    setmod = _measure(unit, "SETMOD", ra=R_MOD)
    rows.append(row("SETMOD", bits, fld, [setmod]))
    mmul = _measure(unit, "STARTMMI", rd=R_Z, ra=R_X, rb=R_Y)
    rows.append(row("STARTMMI", bits, fld, [mmul], mac_bound=mac_bound))
    for name in WORD_SERIAL:
        imm = {"imm": MLIN_IMM} if name == "MLIN" else {}
        rows.append(row(name, bits, fld, [_measure(unit, name, rd=R_Z, ra=R_X, rb=R_Y, **imm)]))
    samples = []
    for _ in range(inversions):
        a = _invertible(n, fld, rng)
        unit.write(R_X, a, k)
        samples.append(unit.send("MINV", rd=R_Z, ra=R_X, rb=R_MOD).cycles)
    rows.append(row("MINV", bits, fld, samples))
    # the same inversions one halving per pass: bie2021 Alg. 3 as printed (MINV imm[0] = 1)
    paper_steps = []
    for _ in range(max(1, inversions // 2)):
        unit.write(R_X, _invertible(n, fld, rng), k)
        paper_steps.append(unit.send("MINV", rd=R_Z, ra=R_X, rb=R_MOD, imm=1).cycles)
    rows.append(row("MINV-Alg3", bits, fld, paper_steps))
    if fld is Field.GFP:  # an even modulus, as e^-1 mod λ(n) needs
        even = n & ~1
        unit.write(R_Y, even, k)
        even_samples = []
        for _ in range(inversions):
            unit.write(R_X, _invertible(even, fld, rng), k)
            even_samples.append(unit.send("MINV", rd=R_Z, ra=R_X, rb=R_Y).cycles)
        rows.append(row("MINV-even", bits, fld, even_samples))
    return rows


def _row(op: str, bits: int, fld: Field, samples: list[int], mac_bound: int | None = None,
         judge: bool = True) -> Row:
    """One row; `judge`: whether to judge the target (False for a unit the targets are not for)."""
    key = (op, bits, fld.name)
    mean = statistics.fmean(samples)
    target = TARGETS.get(key)
    return Row(op=op, bits=bits, field=fld.name, cycles=round(mean, 1), cycles_min=min(samples),
               cycles_max=max(samples), samples=len(samples), mac_bound=mac_bound,
               utilization=round(mac_bound / mean, 3) if mac_bound else None,
               paper=PAPER.get(key), target=target,
               meets_target=None if target is None or not judge else mean <= target)


def host_rate(unit: Unit, bits: int = 2048, count: int = 200) -> float:
    """Host-side STARTMMI operations per second at `bits` (how fast the backend runs)."""
    rng = random.Random(1)
    n = _modulus(bits, Field.GFP, rng)
    k = unit.configure(bits, Field.GFP)
    unit.write(R_MOD, n, k)
    unit.write(R_X, rng.randrange(n), k)
    unit.run("SETMOD", ra=R_MOD)
    insn = encode("STARTMMI", rd=R_Z, ra=R_X, rb=R_X)
    start = time.perf_counter()
    unit.send_many([(insn, 0)] * count)
    return count / (time.perf_counter() - start)


def run(backend: str = "rtl", lengths: tuple[int, ...] = LENGTHS, inversions: int = 10,
        out: Path | None = None, echo=print, *, pipelined: bool = False) -> Report:
    """Measure, print the table and write `out` (default bench/results/unit.json, unit_pipelined.json
    with pipelined)."""
    out = out or results_path("unit", pipelined)
    unit = Unit(backend=backend, pipelined=pipelined)
    report = Report(backend=backend, word_bits=unit.word_bits, lanes=unit.lanes,
                    pipelined=unit.pipelined)
    rng = random.Random(2021)
    for bits in lengths:
        for fld in (Field.GFP, Field.GF2M):
            echo(f"  measuring {bits}-bit {fld.name} …")
            report.rows.extend(bench_length(unit, bits, fld, rng, inversions))
    for name in ("sim", "rtl") if backend == "rtl" else ("sim",):
        rate = host_rate(Unit(backend=name, pipelined=pipelined))
        report.host_ops_per_second[f"{name}: 2048-bit STARTMMI"] = round(rate, 1)
    echo(format_table(report))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(asdict(report), indent=2) + "\n", encoding="utf-8")
    echo(f"wrote {out}")
    return report


def format_table(report: Report) -> str:
    lines = [f"Montu unit, backend={report.backend}, Word={report.word_bits}, Lanes={report.lanes}, "
             f"{unit_text(report.pipelined)}",
             f"{'op':9} {'bits':>5} {'field':5} {'cycles':>10} {'min':>8} {'max':>8} "
             f"{'MAC bound':>9} {'util':>5} {'paper':>8} {'target':>8}"]
    for r in report.rows:
        if not r.op.startswith(("STARTMMI", "MINV")) and r.bits not in (256, 2048):
            continue
        verdict = "" if r.meets_target is None else ("  met" if r.meets_target else "  MISSED")
        lines.append(f"{r.op:9} {r.bits:5} {r.field:5} {r.cycles:10,.1f} {r.cycles_min:8,} {r.cycles_max:8,} "
                     f"{r.mac_bound or '':>9} {r.utilization or '':>5} {r.paper or '':>8} "
                     f"{r.target or '':>8}{verdict}")
    if report.pipelined:
        lines.append(DEFAULT_UNIT_NOTE)
    for name, rate in report.host_ops_per_second.items():
        lines.append(f"host rate, {name}: {rate:,.0f} ops/s")
    return "\n".join(lines)
