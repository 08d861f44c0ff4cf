"""`montu bench mix`: where the cycles of an operation go, instruction by instruction, on both
builds (Pipelined = 0 and 1) — the figures that say which latency to hide first (issue #23).

For each curve: one constant-time k·P of a public point (the `scalar_mult` of `montu bench ecc`,
same scalar on both builds), counted per instruction: how many were sent, their cycles in all
and their share. A STARTMMI or MMX that runs a product MMQ queued counts as "STARTMMI (paired)"
("MMX (paired)"). The counts come from the responses themselves (each response carries its
command's cycle count), so they add up to the operation's total exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from montu.benchmarks import RESULTS_DIR, write_results
from montu.benchmarks.ecc import warm_peer
from montu.config import UnitConfig
from montu.driver import Unit
from montu.ec import get_curve, points
from montu.isa.encoding import decode_slots

DEFAULT_CURVES = ("prime256v1", "sect283k1")


@dataclass
class MixRow:
    curve: str
    pipelined: bool
    instruction: str
    count: int
    cycles: int
    share: float          # of the operation's cycles


@dataclass
class MixReport:
    backend: str
    word_bits: int
    lanes: int
    totals: dict[str, int] = field(default_factory=dict)   # "<curve>/<0|1>": cycles of k·P
    rows: list[MixRow] = field(default_factory=list)


class _Counting:
    """A backend that passes every command on and counts its instruction and cycles."""

    def __init__(self, backend, isa) -> None:
        self._backend, self._isa = backend, isa
        self.counts: Counter[str] = Counter()
        self.cycles: Counter[str] = Counter()
        self._previous = ""

    def _count(self, insn: int, cycles: int) -> None:
        name = self._isa.by_opcode[decode_slots(insn)["op"]].name
        if self._previous == "MMQ" and name in ("STARTMMI", "MMX"):
            name += " (paired)"            # it ran the product MMQ queued as well
        self._previous = name
        self.counts[name] += 1
        self.cycles[name] += cycles

    def execute(self, insn: int, data: int = 0):
        rsp = self._backend.execute(insn, data)
        self._count(insn, rsp.cycles)
        return rsp

    def execute_many(self, commands):
        commands = list(commands)
        responses = self._backend.execute_many(commands)
        for (insn, _), rsp in zip(commands, responses):
            self._count(insn, rsp.cycles)
        return responses

    def __getattr__(self, name: str):
        return getattr(self._backend, name)


def instruction_mix(curve_name: str, pipelined: bool, backend: str = "sim") -> tuple[int, Counter, Counter]:
    """(total cycles, count per instruction, cycles per instruction) of one k·P on `curve_name`."""
    curve = get_curve(curve_name)
    unit = Unit(backend=backend, pipelined=pipelined)
    rng = random.Random(f"montu-bench-mix-{curve.name}")
    peer = warm_peer(unit, curve, rng)
    k = rng.randrange(2, curve.n - 2)
    counting = _Counting(unit._backend, unit.isa)
    unit._backend = counting          # every command of the k·P goes through the counter
    before = unit.total_cycles
    points.multiply(unit, curve, k, peer.point)
    total = unit.total_cycles - before
    if sum(counting.cycles.values()) != total:
        raise RuntimeError(f"bench mix {curve.name}: the per-instruction cycles do not add up")
    return total, counting.counts, counting.cycles


def run(backend: str = "sim", curves: Sequence[str] | None = None, out: Path | None = None) -> dict:
    out = out or RESULTS_DIR / "mix.json"
    names = [get_curve(c).name for c in (curves or DEFAULT_CURVES)]
    config = UnitConfig()          # the units instruction_mix makes: the default configuration
    report = MixReport(backend=backend, word_bits=config.word_bits, lanes=config.lanes)
    for name in names:
        for pipelined in (False, True):
            total, counts, cycles = instruction_mix(name, pipelined, backend)
            report.totals[f"{name}/{int(pipelined)}"] = total
            for insn, spent in cycles.most_common():
                report.rows.append(MixRow(curve=name, pipelined=pipelined, instruction=insn,
                                          count=counts[insn], cycles=spent,
                                          share=round(spent / total, 4)))
    return write_results(out, asdict(report), _table(report))


def _table(report: MixReport) -> str:
    lines = [f"Instruction mix of one constant-time k·P (backend {report.backend}, Word "
             f"{report.word_bits}, Lanes {report.lanes}); cycles per build"]
    for key, total in report.totals.items():
        curve, pm = key.split("/")
        lines += ["", f"{curve}, Pipelined = {pm}: {total:,} cycles",
                  f"  {'instruction':<18}{'count':>8}{'cycles':>12}{'per insn':>10}{'share':>8}"]
        for r in report.rows:
            if r.curve == curve and int(r.pipelined) == int(pm):
                lines.append(f"  {r.instruction:<18}{r.count:>8,}{r.cycles:>12,}"
                             f"{r.cycles / r.count:>10.1f}{100 * r.share:>7.1f}%")
    return "\n".join(lines)
