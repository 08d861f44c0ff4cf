"""The SoC section of docs/performance.md, from bench/results/soc.json (`montu bench soc`)."""

from __future__ import annotations

from typing import Any

# bie2021 §5.2 at 588 MHz: its times in cycles (issue #22)
PAPER_CYCLES = {("modexp", 1024): ("0.96 ms at 588 MHz", 564_480),
                ("scalar_mult P-256", 256): ("0.224 ms at 588 MHz", 131_700),
                ("scalar_mult sect283k1", 283): ("0.153 ms at 588 MHz, 256-bit GF(2^m)", 90_000)}


def soc_section(soc: dict[str, Any] | None, table) -> str:
    out = ["## The SoC: firmware on CVA6 with the unit on CV-X-IF", "",
           "`montu bench soc` compiles firmware against the library in `fw/`, runs it on the "
           "Verilated SoC (CVA6 RV64IMAC + the CV-X-IF adapter + the unit, `docs/soc.md`) and "
           "checks every result against Python. *System* cycles are the SoC clock from the call "
           "to its return; *unit* cycles are those in which the unit held a command; the CPU's "
           "overhead is their difference over the unit's cycles (target ≤ 5 %).", ""]
    if soc is None:
        return "\n".join(out + ["Not measured yet: no bench/results/soc.json.", ""])
    rows = []
    for row in soc["rows"]:
        paper = PAPER_CYCLES.get((row["op"], row["bits"]))
        target = row["target_system_cycles"]
        rows.append([f"{row['op']} {row['bits']}", row["samples"], f"{row['system_cycles']:,}",
                     f"{row['unit_cycles']:,}", f"{100 * row['cpu_overhead']:.2f} %",
                     f"≤ {target:,}" if target else "—",
                     "—" if row["met"] is None else ("yes" if row["met"] else "**no**"),
                     f"{paper[1]:,} ({paper[0]})" if paper else "—"])
    out.append(table(["operation", "samples", "system cycles", "unit cycles", "CPU overhead",
                      "target", "met", "bie2021 (cycles)"], rows))
    notes = [f"- {r['op']} {r['bits']}: {r['note']}" for r in soc["rows"] if r.get("note")]
    if notes:
        out += ["", *notes]
    measured = {(r["op"], r["bits"]) for r in soc["rows"]}
    missing = [f"{op} ({paper[0]})" for (op, bits), paper in PAPER_CYCLES.items() if (op, bits) not in measured]
    if missing:
        out += ["", "Not measured on the SoC yet (the firmware does not have it): " + ", ".join(missing) + "."]
    return "\n".join(out + [""])
