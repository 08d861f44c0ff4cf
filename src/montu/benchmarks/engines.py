"""`montu bench engines`: the same operations on every engine (ENGINES.md §4), in cycles and in
time at each engine's own post-route fmax.

Operations, where the engine supports them: 1024- and 2048-bit modular multiplication (plain
x·y mod n, conversions included), a 1024-bit modexp with a full-length exponent, an RSA-2048
private operation (with its fault check; CRT on the builds of the unit, one exponentiation with
d elsewhere), P-256, P-224 and sect283k1 k·P, and a 283-bit GF(2^m) multiplication. On the builds
of the unit (bie2021's multiplier and cilardo2008's, side by side) also one STARTMMI at 2048 bits
and at the cilardo2008 table's GF(N) sizes (192, 224, 256, 284, 521 bits), the cilardo build in
both its modes (the paper's m = ⌈bits/64⌉ words and Alg. 2's guard bits), beside the paper's
clock counts and Satoh–Takano's. Each row gives the
cycles of the whole call (`cycles`: loads and reads included) and of the core operations alone
(`core_cycles`: the paper's quantity). Runs on the Verilated RTL by default (`--backend sim`:
the engines' cycle-exact simulators). The fmax of each engine build comes from
bench/results/synth.json (`montu synth`, `montu synth --engine NAME`); a missing or older
entry is said in the row, never guessed.
"""

from __future__ import annotations

import importlib
import json
import platform
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import montu.engines
from montu.arith.field import Field
from montu.benchmarks import results_path, write_results

SEED = "montu-bench-engines"
# cilardo2008 §6 table (GF(N), w = 64): clock counts of this work and of Satoh & Takano [13]
# (0.13 µm, 7.26 ns), keyed by field size in bits as printed (284: sect283's field)
PAPER_SIZES = (192, 224, 256, 284, 521)
SATOH_TAKANO_CLOCKS = {192: 45, 224: 66, 256: 66, 284: 91, 521: 231}
# The unit's build whose fmax the bie2021 rows use (its default configuration).
UNIT_SYNTH = {"Word": 64, "Lanes": 2, "MaxBits": 4096, "NumRegs": 32}
# modexp sizes besides 1024 bits, for the engines whose paper reports them (antao: 512 bits;
# and 2048, the RSA size every engine's private-key row uses)
EXTRA_MODEXP_SIZES = {512: ("antao",), 2048: ("antao",)}
GF2M_283 = (1 << 283) | (1 << 12) | (1 << 7) | (1 << 5) | 1   # the sect283 reduction polynomial


@dataclass
class Row:
    engine: str
    op: str
    bits: int
    cycles: int | None = None
    core_cycles: int | None = None
    build: dict[str, object] = field(default_factory=dict)
    fmax_mhz: float | None = None
    fmax_stage: str | None = None
    time_us: float | None = None
    note: str = ""
    spread: dict[str, float] = field(default_factory=dict)   # averaged rows: core cycles' spread
    paper: dict[str, object] = field(default_factory=dict)   # STARTMMI rows: the papers' clocks


@dataclass
class Report:
    backend: str
    rows: list[Row] = field(default_factory=list)
    seconds: float = 0.0
    machine: str = platform.platform()


def _odd_modulus(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


# An action runs one operation on an engine object: (result right?, note, cycles of the whole
# operation when the engine's last_cycles does not cover it all, else None[, spread of an
# averaged row]).
Outcome = tuple
Operation = tuple[str, int, Callable[..., Outcome]]     # (op, bits, action(engine))


def _operations(rng: random.Random, rsa_key) -> list[Operation]:
    """(op, bits, action(engine)) for every benchmarked operation; an op named startmmi-alg2
    runs on the engine opened in Alg. 2's mode."""
    ops: list[Operation] = []
    for bits in (1024, 2048):
        n = _odd_modulus(rng, bits)
        x, y = rng.randrange(n), rng.randrange(n)
        ops.append(("modmul", bits, lambda e, x=x, y=y, n=n: (e.mod_mul(x, y, n) == x * y % n, "", None)))
    n = _odd_modulus(rng, 1024)
    b, exponent = rng.randrange(n), rng.getrandbits(1024) | (1 << 1023)
    ops.append(("modexp", 1024, lambda e: (e.mod_exp(b, exponent, n) == pow(b, exponent, n),
                                           f"exponent weight {bin(exponent).count('1')}", None)))
    for bits in sorted(EXTRA_MODEXP_SIZES):     # the sizes a paper reports besides 1024
        m = _odd_modulus(rng, bits)
        base, power = rng.randrange(m), rng.getrandbits(bits) | (1 << (bits - 1))
        ops.append(("modexp", bits, lambda e, m=m, base=base, power=power: (
            e.mod_exp(base, power, m) == pow(base, power, m),
            f"exponent weight {bin(power).count('1')}", None)))
    exponents = [rng.getrandbits(1024) | (1 << 1023) for _ in range(AVERAGE_SAMPLES)]
    ops.append(("modexp-mean", 1024, lambda e: _modexp_mean(e, b, exponents, n)))
    ops.append(("rsa-private", 2048, lambda e: _rsa_private(e, rsa_key)))
    for curve, bits in (("prime256v1", 256), ("secp224r1", 224)):
        k = rng.randrange(2, 1 << (bits - 1))
        ops.append((f"kP-{curve}", bits, lambda e, curve=curve, k=k: _scalar_mult(e, curve, k)))
    a, c = rng.getrandbits(283), rng.getrandbits(283)
    ops.append(("gf2m-mul", 283, lambda e: (_gf2m_ok(e, a, c), "", None)))
    scalar = rng.randrange(2, 1 << 280)
    ops.append(("kP-sect283k1", 283, lambda e, k=scalar: _binary_scalar_mult(e, "sect283k1", k)))
    for op in ("startmmi", "startmmi-alg2"):
        for bits in (*PAPER_SIZES, 2048):
            modulus = _odd_modulus(rng, bits)
            u, v = rng.randrange(modulus), rng.randrange(modulus)
            ops.append((op, bits, lambda e, u=u, v=v, m=modulus: _startmmi(e, u, v, m)))
    return ops


def _startmmi(engine, x: int, y: int, n: int) -> Outcome:
    """One STARTMMI (the unit's mont_mul; the cilardo engine's fios_mul): x·y·2^-L mod n. The
    cilardo rows carry the paper's clocks for the product (Fig. 9) and its §6 table's."""
    from montu.arith.cilardo_fios import PAPER_GFN_CLOCKS

    multiply = getattr(engine, "fios_mul", engine.mont_mul)
    z = multiply(x, y, n)
    length = 64 * engine.unit.length_words(n.bit_length())
    ok = z == x * y * pow(2, -length, n) % n
    bits = n.bit_length()
    words = length // 64
    if not hasattr(engine, "paper_core_cycles"):
        return ok, f"L = {length} ({words} words)", None
    paper = {"words": words, "fig9_clocks": engine.paper_core_cycles,
             "paper_table": PAPER_GFN_CLOCKS.get(bits), "satoh_takano": SATOH_TAKANO_CLOCKS.get(bits)}
    note = f"L = {length} ({words} words); Fig. 9 schedule {paper['fig9_clocks']} clocks"
    if paper["paper_table"] is not None:
        note += (f"; paper's table {paper['paper_table']}, Satoh–Takano {paper['satoh_takano']}"
                 f" (w = 64)")
    return ok, note, None, {}, paper


AVERAGE_SAMPLES = 24   # full-length exponents behind the modexp-mean row


def _modexp_mean(engine, base: int, exponents: list[int], n: int) -> Outcome:
    """The mean over random full-length 1024-bit exponents, for engines whose exponentiation time
    follows the exponent (the paper's 'average' figure); the spread goes into the row."""
    import statistics

    whole, core = [], []
    for exponent in exponents:
        if engine.mod_exp(base, exponent, n) != pow(base, exponent, n):
            return False, "", None
        whole.append(engine.last_cycles)
        core.append(engine.core_cycles)
    spread = {"core_mean": statistics.fmean(core), "core_min": min(core), "core_max": max(core),
              "core_stdev": round(statistics.stdev(core), 1), "samples": len(core)}
    note = (f"mean of {len(core)} random full-length exponents: core {spread['core_mean']:,.1f} "
            f"(min {spread['core_min']:,}, max {spread['core_max']:,}, σ {spread['core_stdev']:,})")
    return True, note, round(statistics.fmean(whole)), spread


def _rsa_2048_key():
    """A 2048-bit RSA key from `cryptography` (as OpenSSL makes them), one per run."""
    from cryptography.hazmat.primitives.asymmetric import rsa as pyca_rsa

    return pyca_rsa.generate_private_key(public_exponent=65537, key_size=2048).private_numbers()


def _rsa_private(engine, numbers) -> Outcome:
    import montu.rsa

    public = numbers.public_numbers
    message = 0x5EED % public.n
    if montu.engines.get(engine.name).unit_build or engine.name == "bie2021":
        key = montu.rsa.RsaPrivateKey(public.n, public.e, numbers.d, numbers.p, numbers.q,
                                      numbers.dmp1, numbers.dmq1, numbers.iqmp, unit=engine.unit)
        how = "CRT + fault check (m^e = c)"
    else:
        key = montu.rsa.RsaPrivateKey(public.n, public.e, numbers.d, engine=engine)
        how = (f"one exponentiation with d (weight {bin(numbers.d).count('1')}) + fault check "
               "(m^e = c)")
    ok = key._private_op(message) == pow(message, numbers.d, public.n)
    return ok, how, key.last_cycles   # the key counts every call of the operation


def _scalar_mult(engine, curve: str, k: int) -> Outcome:
    from cryptography.hazmat.primitives.asymmetric import ec

    expected = ec.derive_private_key(k, ec.SECP256R1() if curve == "prime256v1" else ec.SECP224R1())
    numbers = expected.public_key().public_numbers()
    point = engine.scalar_mult(curve, k)
    how = getattr(engine, "ec_method", "montu.ec.points.multiply")
    return point == (numbers.x, numbers.y), f"k·G, constant time ({how})", None


def _binary_scalar_mult(engine, curve: str, k: int) -> Outcome:
    """k·G on a binary curve, checked against a host-side affine double-and-add (SEC 1 §2.2)."""
    from montu.ec import get_curve

    chosen = get_curve(curve)
    point = engine.scalar_mult(curve, k)
    return point == _affine_binary_multiple(chosen, k, chosen.generator), \
        "k·G, constant time (López–Dahab ladder)", None


def _affine_binary_multiple(curve, k: int, point: tuple[int, int]) -> tuple[int, int] | None:
    """k·P on y² + xy = x³ + ax² + b over GF(2^m), by textbook affine formulas on the host (a
    check independent of the unit's projective ladder)."""
    from montu.arith import gf2m

    f = curve.modulus

    def add(p1, p2):
        if p1 is None or p2 is None:
            return p2 if p1 is None else p1
        (x1, y1), (x2, y2) = p1, p2
        if x1 == x2:
            if y1 != y2 or x1 == 0:
                return None
            lam = x1 ^ gf2m.mulmod(y1, gf2m.inv(x1, f), f)
            x3 = gf2m.mulmod(lam, lam, f) ^ lam ^ curve.a
        else:
            lam = gf2m.mulmod(y1 ^ y2, gf2m.inv(x1 ^ x2, f), f)
            x3 = gf2m.mulmod(lam, lam, f) ^ lam ^ x1 ^ x2 ^ curve.a
        return x3, gf2m.mulmod(lam, x1 ^ x3, f) ^ x3 ^ y1

    result, addend = None, point
    while k:
        if k & 1:
            result = add(result, addend)
        addend = add(addend, addend)
        k >>= 1
    return result


def _gf2m_ok(engine, a: int, c: int) -> bool:
    from montu.arith import gf2m

    return engine.mod_mul(a, c, GF2M_283, Field.GF2M) == gf2m.mulmod(a, c, GF2M_283)


def _with_routed_builds(entry: montu.engines.Engine, ops: list[Operation]
                        ) -> list[tuple[str, int, Callable[..., Outcome], dict[str, int]]]:
    """`ops` with the parameters each runs on over params_for_bits' (none), and after each
    modexp at a size in the adapter's ROUTED_BUILDS (a build that routes where params_for_bits'
    does not: antao's 512 bits) the same modexp on that build, as `modexp-routed`."""
    routed = getattr(importlib.import_module(entry.adapter), "ROUTED_BUILDS", {})
    out = []
    for op, bits, action in ops:
        out.append((op, bits, action, {}))
        if op == "modexp" and bits in routed and _supports(entry, op, bits):
            out.append(("modexp-routed", bits, action, routed[bits]))
    return out


def _supports(entry: montu.engines.Engine, op: str, bits: int = 0) -> bool:
    if op == "modexp-routed":               # made only where the modexp is supported
        return True
    if op == "modexp" and bits in EXTRA_MODEXP_SIZES:
        return entry.name in EXTRA_MODEXP_SIZES[bits]
    if op == "startmmi":                    # the unit's instruction: its builds only
        return entry.unit_build or entry.name == "bie2021"
    if op == "startmmi-alg2":               # cilardo2008 Alg. 2's mode: that paper's engine
        return entry.name == "cilardo"
    if op == "kP-sect283k1":
        return entry.can("derive") and "gf2m" in entry.fields
    if op.startswith("kP-"):
        return entry.can("derive")          # EC: the unit's point arithmetic
    if op == "gf2m-mul":
        return "gf2m" in entry.fields
    if op == "rsa-private":
        return entry.can("sign")
    if op == "modexp-mean":          # only where the time follows the exponent
        return entry.can("modexp") and not entry.constant_time
    return entry.can(op)


def _synth_entry(synth: dict, engine: str, build: dict[str, object]) -> dict | None:
    # a build's RTL parameters; "mode" (cilardo's paper/alg2) is how the driver runs it
    params = {k: v for k, v in build.items() if k != "mode"}
    want = UNIT_SYNTH if engine == "bie2021" else {"engine": engine, **params}
    for run in synth.get("runs", []):
        if run.get("config") == want:
            return run
    return None


def run(backend: str = "rtl", engines: list[str] | None = None, out: Path | None = None) -> dict:
    """Measure every engine (or `engines`), print the table, write `out` (default
    bench/results/engines.json) and the same table as .txt. With `engines`, the rows of the other
    engines already in `out` are kept."""
    out = out or results_path("engines")
    synth_path = results_path("synth")
    synth = json.loads(synth_path.read_text()) if synth_path.is_file() else {}
    report = Report(backend=backend)
    start = time.time()
    rsa_key = _rsa_2048_key()
    for name in engines or montu.engines.names():
        entry = montu.engines.get(name)
        rng = random.Random(SEED)          # the same operands for every engine
        for op, bits, action, overrides in _with_routed_builds(entry, _operations(rng, rsa_key)):
            row = Row(engine=name, op=op, bits=bits)
            report.rows.append(row)
            if not _supports(entry, op, bits):
                row.note = ("constant time: every exponent takes the modexp row's cycles"
                            if op == "modexp-mean" and entry.constant_time and entry.can("modexp")
                            else "not supported: Alg. 2's mode is cilardo2008's (the cilardo "
                                 "engine)" if op == "startmmi-alg2" and entry.unit_build is False
                            and entry.name == "bie2021"
                            else "not supported by this engine's paper system")
                continue
            if op == "startmmi-alg2":
                engine = montu.engines.open(name, backend, mode="alg2")
            else:
                engine = montu.engines.open_for_bits(name, bits, backend, **overrides)
            ok, row.note, whole, *extra = action(engine)
            if not ok:
                raise RuntimeError(f"bench engines: {name} {op} gave a wrong result")
            row.cycles = whole if whole is not None else engine.last_cycles
            row.core_cycles = None if op == "rsa-private" else engine.core_cycles
            if extra and extra[0]:
                row.spread = extra[0]
                row.core_cycles = round(extra[0]["core_mean"])
            if len(extra) > 1:
                row.paper = extra[1]
            row.build = dict(getattr(engine, "build", {}) or {})
            entry_synth = _synth_entry(synth, name, row.build)
            if entry_synth is None:
                row.note = (row.note + "; " if row.note else "") + "no synth.json entry for this build"
            else:
                row.fmax_mhz = entry_synth["fmax_mhz"]
                row.fmax_stage = entry_synth.get("fmax_stage", "post-route")
                if row.fmax_mhz is None:     # the build does not fit the device: no time
                    row.note = (row.note + "; " if row.note else "") + row.fmax_stage
                else:
                    row.time_us = round(row.cycles / row.fmax_mhz, 1)
    report.seconds = round(time.time() - start, 1)
    if engines and out.is_file():       # a run of some engines keeps the others' rows
        kept = [Row(**r) for r in json.loads(out.read_text()).get("rows", [])
                if r.get("engine") not in engines]
        report.rows = sorted(kept + report.rows, key=lambda r: montu.engines.names().index(r.engine)
                             if r.engine in montu.engines.names() else len(montu.engines.names()))
    return write_results(out, asdict(report), _table(report))


def _table(report: Report) -> str:
    lines = [f"Engines ({report.backend} backend): cycles of the whole call (core: the paper's "
             "operations alone), time at the build's fmax",
             f"{'engine':<9} {'operation':<20} {'bits':>5} {'cycles':>12} {'core':>12} "
             f"{'fmax MHz':>9} {'time µs':>10}  note"]
    for r in report.rows:
        cycles = f"{r.cycles:,}" if r.cycles is not None else "—"
        core = f"{r.core_cycles:,}" if r.core_cycles is not None else "—"
        fmax = f"{r.fmax_mhz:.1f}" if r.fmax_mhz else "—"
        if r.fmax_mhz and r.fmax_stage and r.fmax_stage != "post-route":
            fmax += "*"           # an estimate; a build that does not fit has no fmax at all
        when = f"{r.time_us:,.1f}" if r.time_us is not None else "—"
        lines.append(f"{r.engine:<9} {r.op:<20} {r.bits:>5} {cycles:>12} {core:>12} {fmax:>9} "
                     f"{when:>10}  {r.note}")
    lines.append("* fmax is a placement estimate (routing did not finish), not post-route")
    return "\n".join(lines)
