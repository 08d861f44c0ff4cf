"""`montu bench soc`: operations run by firmware on the RTL SoC (CVA6 + Montu), in system cycles.

For each operation the host writes a C program with seeded random operands, compiles it against
the firmware library, runs it on the Verilated SoC and checks every result against Python. The
firmware reads the SoC's cycle counter and the unit-busy counter around each call: `system` is
the whole system's cycles for the call, `unit` the cycles the unit held a command, and the CPU's
overhead is (system - unit) / unit (issue #22 target: <= 5 %).

Rows: modexp (montu_mod_exp), k·P on P-256 and sect283k1 (checked against cryptography / the
openssl CLI), and the steps of `montu soc demo` run with the bench seed (RSA-1024 keygen, sign,
verify, OAEP; ECDSA and ECDH on both curves), each checked by the demo with the openssl CLI.
"""

from __future__ import annotations

import platform
import random
import re
import subprocess
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from montu.benchmarks import results_path, write_results
from montu.ec import encoding as ec_encoding
from montu.ec.curves import get_curve
from montu.errors import MontuError
from montu.soc import run as soc_run
from montu.soc.vectors import c_table, parse_words

SEED = "montu-bench-soc"
# issue #22's system-cycle targets
TARGETS = {("modexp", 1024): 385_000, ("scalar_mult P-256", 256): 105_000}
EC_SAMPLES = 3
OVERHEAD_TARGET = 0.05
MODEXP_SAMPLES = {1024: 4, 2048: 1}

_LINE = re.compile(r"modexp (\d+) err=(-?\d+) system=(\d+) unit=(\d+) result=([0-9a-f ]+)")

MODEXP_PROGRAM = """\
#include <stdio.h>

#include "montu.h"
#include "montu_soc.h"

#define WORDS {words}
#define COUNT {count}
{tables}
int main(void) {{
  static uint64_t r[WORDS];
  for (unsigned i = 0; i < COUNT; ++i) {{
    uint64_t c0 = montu_soc_cycles(), u0 = montu_soc_unit_cycles();
    int err = montu_mod_exp(r, B[i], E[i], N[i], WORDS);
    uint64_t c1 = montu_soc_cycles(), u1 = montu_soc_unit_cycles();
    printf("modexp %u err=%d system=%llu unit=%llu result=", i, err,
           (unsigned long long)(c1 - c0), (unsigned long long)(u1 - u0));
    montu_soc_print_number(r, WORDS);
    printf("\\n");
  }}
  return 0;
}}
"""


EC_PROGRAM = """\
#include <stdio.h>

#include "montu.h"
#include "montu_soc.h"

#define COUNT {count}
#define WORDS {words}
{tables}
int main(void) {{
  static uint64_t x[WORDS], y[WORDS];
  for (unsigned i = 0; i < COUNT; ++i) {{
    uint64_t c0 = montu_soc_cycles(), u0 = montu_soc_unit_cycles();
    int err = {function}(x, y, K[i], PX[i], PY[i]);
    uint64_t c1 = montu_soc_cycles(), u1 = montu_soc_unit_cycles();
    printf("mul %u err=%d system=%llu unit=%llu x=", i, err, (unsigned long long)(c1 - c0),
           (unsigned long long)(u1 - u0));
    montu_soc_print_number(x, WORDS);
    printf(" y=");
    montu_soc_print_number(y, WORDS);
    printf("\\n");
  }}
  return 0;
}}
"""
_EC_LINE = re.compile(r"mul (\d+) err=(-?\d+) system=(\d+) unit=(\d+) x=([0-9a-f ]+) y=([0-9a-f ]+)")


def p256_times_generator(k: int) -> tuple[int, int]:
    """k·G on P-256 by OpenSSL (cryptography): the reference the firmware is checked against."""
    from cryptography.hazmat.primitives.asymmetric import ec

    numbers = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers()
    return numbers.x, numbers.y


@dataclass
class Row:
    op: str
    bits: int
    samples: int
    system_cycles: int            # mean over the samples (identical: constant time)
    unit_cycles: int
    cpu_overhead: float           # (system - unit) / unit
    target_system_cycles: int | None
    met: bool | None
    note: str = ""


def modexp_row(bits: int, samples: int, rng: random.Random,
               progress: Callable[[str], None] | None = None) -> Row:
    words = bits // 64
    moduli = [rng.getrandbits(bits) | (1 << (bits - 1)) | 1 for _ in range(samples)]
    bases = [rng.randrange(n) for n in moduli]
    exponents = [rng.getrandbits(bits) | (1 << (bits - 1)) for _ in range(samples)]
    source = MODEXP_PROGRAM.format(words=words, count=samples, tables="".join(
        [c_table("N", moduli, words), c_table("B", bases, words), c_table("E", exponents, words)]))
    result = soc_run.run_source(f"bench_modexp_{bits}.c", source, progress=progress)
    if result.exit_code != 0:
        raise MontuError(f"the modexp benchmark firmware exited with {result.exit_code}")
    system, unit = [], []
    for match in _LINE.finditer(result.output):
        i, err = int(match.group(1)), int(match.group(2))
        if err != 0:
            raise MontuError(f"montu_mod_exp returned error {err} on sample {i}")
        if parse_words(match.group(5)) != pow(bases[i], exponents[i], moduli[i]):
            raise MontuError(f"montu_mod_exp gave a wrong result on {bits}-bit sample {i}")
        system.append(int(match.group(3)))
        unit.append(int(match.group(4)))
    if len(system) != samples:
        raise MontuError(f"the modexp benchmark printed {len(system)} of {samples} results")
    mean_system, mean_unit = round(sum(system) / samples), round(sum(unit) / samples)
    target = TARGETS.get(("modexp", bits))
    overhead = (mean_system - mean_unit) / mean_unit
    note = "" if len(set(system)) == 1 else f"system cycles vary: {min(system)} .. {max(system)}"
    return Row("modexp", bits, samples, mean_system, mean_unit, round(overhead, 5), target,
               None if target is None else mean_system <= target and overhead <= OVERHEAD_TARGET, note)


def openssl_times_generator(curve_name: str, k: int) -> tuple[int, int]:
    """k·G by the openssl CLI (it has the binary curves, which cryptography lacks): the public key
    of the private key k."""
    curve = get_curve(curve_name)
    pem = ec_encoding.dump_private(curve.oid, k, None)
    done = subprocess.run(["openssl", "pkey", "-pubout"], input=pem, capture_output=True, check=True)
    public = ec_encoding.load_key(done.stdout).public
    if not isinstance(public, tuple):
        raise MontuError("openssl printed a compressed public key")
    return public


@dataclass(frozen=True)
class EcBench:
    curve: str                                        # montu.ec.curves name
    function: str                                     # the firmware call
    words: int
    times_generator: Callable[[int], tuple[int, int]]  # the reference
    note: str


EC_BENCHES = {
    "P-256": EcBench("P-256", "montu_ec_p256_mul", 4, p256_times_generator,
                     "includes the on-curve check; 1 cycle per command is the unit's response "
                     "handshake"),
    "sect283k1": EcBench("sect283k1", "montu_ec_sect283k1_mul", 5,
                         lambda k: openssl_times_generator("sect283k1", k),
                         "López–Dahab x-only ladder with y recovery; includes the on-curve check"),
}


def ec_row(name: str, samples: int, rng: random.Random,
           progress: Callable[[str], None] | None = None) -> Row:
    """k·P (P = a·G for a random a) by the firmware, checked against (k·a mod n)·G from the
    reference; the first call also computes R² on the unit and warms the caches, so the row is
    the mean of the others."""
    bench = EC_BENCHES[name]
    n = get_curve(bench.curve).n
    bases = [rng.randrange(2, n) for _ in range(samples)]
    scalars = [rng.randrange(1, n) for _ in range(samples)]
    points = [bench.times_generator(a) for a in bases]
    source = EC_PROGRAM.format(count=samples, words=bench.words, function=bench.function,
                               tables="".join([c_table("K", scalars, bench.words),
                                               c_table("PX", [p[0] for p in points], bench.words),
                                               c_table("PY", [p[1] for p in points], bench.words)]))
    result = soc_run.run_source(f"bench_{bench.function}.c", source, progress=progress)
    system, unit = [], []
    for match in _EC_LINE.finditer(result.output):
        i, err = int(match.group(1)), int(match.group(2))
        want = bench.times_generator(scalars[i] * bases[i] % n)
        if err != 0 or (parse_words(match.group(5)), parse_words(match.group(6))) != want:
            raise MontuError(f"{bench.function} failed on sample {i} (error {err})")
        system.append(int(match.group(3)))
        unit.append(int(match.group(4)))
    if len(system) != samples or samples < 2:
        raise MontuError(f"the {name} benchmark printed {len(system)} of {samples} results")
    warm_system, warm_unit = system[1:], unit[1:]
    mean_system = round(sum(warm_system) / len(warm_system))
    mean_unit = round(sum(warm_unit) / len(warm_unit))
    overhead = (mean_system - mean_unit) / mean_unit
    target = TARGETS.get((f"scalar_mult {name}", get_curve(bench.curve).bits))
    note = f"first call {system[0]:,} (R² computed, cold caches); {bench.note}"
    return Row(f"scalar_mult {name}", get_curve(bench.curve).bits, samples - 1, mean_system,
               mean_unit, round(overhead, 5), target,
               None if target is None else mean_system <= target and overhead <= OVERHEAD_TARGET, note)


# the demo's steps as benchmark rows: (step, operation, bits)
DEMO_ROWS = [("rsa.keygen", "RSA keygen", 1024), ("rsa.sign", "RSA sign PKCS#1 v1.5", 1024),
             ("rsa.verify", "RSA verify PKCS#1 v1.5", 1024), ("rsa.encrypt", "RSA-OAEP encrypt", 1024),
             ("rsa.decrypt", "RSA-OAEP decrypt", 1024)]
for _tag, _curve, _bits in (("p256", "P-256", 256), ("sect283k1", "sect283k1", 283)):
    DEMO_ROWS += [(f"{_tag}.keygen", f"ECDSA keygen {_curve}", _bits),
                  (f"{_tag}.sign", f"ECDSA sign {_curve}", _bits),
                  (f"{_tag}.verify", f"ECDSA verify {_curve}", _bits),
                  (f"{_tag}.ecdh", f"ECDH {_curve}", _bits)]
DEMO_NOTES = {
    "rsa.keygen": "one key from the bench seed (prime search: the count varies with the seed)",
    "rsa.sign": "CRT, result checked (s^e = m) before release",
    "rsa.decrypt": "CRT, result checked before release; constant-time OAEP decoding",
    "p256.sign": "random nonce, blinded MINV; checked before release (k·G recomputed)",
    "sect283k1.sign": "random nonce, blinded MINV; checked before release (k·G recomputed)",
    "p256.ecdh": "peer point validated, then k·P",
    "sect283k1.ecdh": "peer point validated (on the curve, n·Q = O), then k·P",
}


def demo_rows(progress: Callable[[str], None] | None = None) -> list[Row]:
    """`montu soc demo` with the bench seed: every step checked with OpenSSL, one sample each."""
    from montu.soc import demo

    steps = {step.name: step for step in demo.run(seed=SEED, out=lambda _line: None,
                                                  progress=progress).steps}
    rows = []
    for name, op, bits in DEMO_ROWS:
        step = steps[name]
        rows.append(Row(op, bits, 1, step.system, step.unit,
                        round((step.system - step.unit) / step.unit, 5) if step.unit else 0.0,
                        None, None, DEMO_NOTES.get(name, "")))
    return rows


def run(*, out: Path | None = None, progress: Callable[[str], None] | None = print) -> dict:
    rng = random.Random(SEED)
    rows = []
    for bits, samples in MODEXP_SAMPLES.items():
        if progress:
            progress(f"modexp {bits} bits, {samples} sample(s) on the SoC ...")
        rows.append(modexp_row(bits, samples, rng, progress))
    for name in EC_BENCHES:
        if progress:
            progress(f"{name} k·P, {EC_SAMPLES} samples on the SoC ...")
        rows.append(ec_row(name, EC_SAMPLES, rng, progress))
    if progress:
        progress("the firmware demo (RSA-1024, ECDSA/ECDH on P-256 and sect283k1), checked by OpenSSL ...")
    rows += demo_rows(progress)
    data = {"what": "firmware on the RTL SoC (CVA6 RV64IMAC + Montu on CV-X-IF, Verilator): "
                    "system cycles per call, the unit's busy cycles, the CPU's overhead",
            "machine": platform.machine(), "seed": SEED, "rows": [asdict(r) for r in rows]}
    lines = ["op                       bits  samples  system cycles  unit cycles  CPU overhead  target   met",
             *[f"{r.op:<24} {r.bits:>4}  {r.samples:>7}  {r.system_cycles:>13,}  {r.unit_cycles:>11,}  "
               f"{100 * r.cpu_overhead:>11.2f}%  {r.target_system_cycles or '':>7}  "
               f"{'' if r.met is None else ('yes' if r.met else 'NO')}" for r in rows]]
    return write_results(out or results_path("soc"), data, "\n".join(lines))
