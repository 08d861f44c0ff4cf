"""`montu bench soc`: operations run by firmware on the RTL SoC (CVA6 + Montu), in system cycles.

For each operation the host writes a C program with seeded random operands, compiles it against
the firmware library, runs it on the Verilated SoC and checks every result against Python. The
firmware reads the SoC's cycle counter and the unit-busy counter around each call: `system` is
the whole system's cycles for the call, `unit` the cycles the unit held a command, and the CPU's
overhead is (system - unit) / unit (issue #22 target: <= 5 %).
"""

from __future__ import annotations

import platform
import random
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from montu.benchmarks import results_path, write_results
from montu.ec.curves import get_curve
from montu.errors import MontuError
from montu.soc import run as soc_run
from montu.soc.vectors import c_table, parse_words

SEED = "montu-bench-soc"
# issue #22's system-cycle targets
TARGETS = {("modexp", 1024): 385_000, ("scalar_mult P-256", 256): 105_000}
P256_SAMPLES = 3
P256_N = get_curve("P-256").n
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


P256_PROGRAM = """\
#include <stdio.h>

#include "montu.h"
#include "montu_soc.h"

#define COUNT {count}
{tables}
int main(void) {{
  static uint64_t x[4], y[4];
  for (unsigned i = 0; i < COUNT; ++i) {{
    uint64_t c0 = montu_soc_cycles(), u0 = montu_soc_unit_cycles();
    int err = montu_ec_p256_mul(x, y, K[i], PX[i], PY[i]);
    uint64_t c1 = montu_soc_cycles(), u1 = montu_soc_unit_cycles();
    printf("mul %u err=%d system=%llu unit=%llu x=", i, err, (unsigned long long)(c1 - c0),
           (unsigned long long)(u1 - u0));
    montu_soc_print_number(x, 4);
    printf(" y=");
    montu_soc_print_number(y, 4);
    printf("\\n");
  }}
  return 0;
}}
"""
_P256_LINE = re.compile(r"mul (\d+) err=(-?\d+) system=(\d+) unit=(\d+) x=([0-9a-f ]+) y=([0-9a-f ]+)")


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


def p256_row(samples: int, rng: random.Random,
             progress: Callable[[str], None] | None = None) -> Row:
    """k·P on P-256 (montu_ec_p256_mul: on-curve check + signed window), checked against
    cryptography; the first call also computes R² mod p on the unit and warms the caches, so the
    row is the mean of the others."""
    bases = [rng.randrange(2, P256_N) for _ in range(samples)]
    scalars = [rng.randrange(1, P256_N) for _ in range(samples)]
    points = [p256_times_generator(a) for a in bases]
    source = P256_PROGRAM.format(count=samples, tables="".join([
        c_table("K", scalars, 4), c_table("PX", [p[0] for p in points], 4),
        c_table("PY", [p[1] for p in points], 4)]))
    result = soc_run.run_source("bench_p256.c", source, progress=progress)
    system, unit = [], []
    for match in _P256_LINE.finditer(result.output):
        i, err = int(match.group(1)), int(match.group(2))
        want = p256_times_generator(scalars[i] * bases[i] % P256_N)
        if err != 0 or (parse_words(match.group(5)), parse_words(match.group(6))) != want:
            raise MontuError(f"montu_ec_p256_mul failed on sample {i} (error {err})")
        system.append(int(match.group(3)))
        unit.append(int(match.group(4)))
    if len(system) != samples or samples < 2:
        raise MontuError(f"the P-256 benchmark printed {len(system)} of {samples} results")
    warm_system, warm_unit = system[1:], unit[1:]
    mean_system = round(sum(warm_system) / len(warm_system))
    mean_unit = round(sum(warm_unit) / len(warm_unit))
    overhead = (mean_system - mean_unit) / mean_unit
    target = TARGETS[("scalar_mult P-256", 256)]
    note = (f"first call {system[0]:,} (R² computed, cold caches); includes the on-curve check; "
            "1 cycle per command is the unit's response handshake")
    return Row("scalar_mult P-256", 256, samples - 1, mean_system, mean_unit, round(overhead, 5),
               target, mean_system <= target and overhead <= OVERHEAD_TARGET, note)


def run(*, out: Path | None = None, progress: Callable[[str], None] | None = print) -> dict:
    rng = random.Random(SEED)
    rows = []
    for bits, samples in MODEXP_SAMPLES.items():
        if progress:
            progress(f"modexp {bits} bits, {samples} sample(s) on the SoC ...")
        rows.append(modexp_row(bits, samples, rng, progress))
    if progress:
        progress(f"P-256 k·P, {P256_SAMPLES} samples on the SoC ...")
    rows.append(p256_row(P256_SAMPLES, rng, progress))
    data = {"what": "firmware on the RTL SoC (CVA6 RV64IMAC + Montu on CV-X-IF, Verilator): "
                    "system cycles per call, the unit's busy cycles, the CPU's overhead",
            "machine": platform.machine(), "seed": SEED, "rows": [asdict(r) for r in rows]}
    lines = ["op                 bits  samples  system cycles  unit cycles  CPU overhead  target   met",
             *[f"{r.op:<18} {r.bits:>4}  {r.samples:>7}  {r.system_cycles:>13,}  {r.unit_cycles:>11,}  "
               f"{100 * r.cpu_overhead:>11.2f}%  {r.target_system_cycles or '':>7}  "
               f"{'' if r.met is None else ('yes' if r.met else 'NO')}" for r in rows]]
    return write_results(out or results_path("soc"), data, "\n".join(lines))
