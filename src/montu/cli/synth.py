"""`montu synth` (the open FPGA flow) and `montu report` (docs/performance.md), issue #6."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from montu.cli.options import non_negative_integer, positive_integer, positive_number
from montu.errors import MontuError


def register(commands: argparse._SubParsersAction) -> None:
    synth = commands.add_parser(
        "synth", help="synthesize, place and route the unit on an ECP5-85 (Yosys + nextpnr) "
                      "-> bench/results/synth.json")
    synth.add_argument("--word", type=positive_integer, default=64, help="Word: 32 or 64 (default 64)")
    synth.add_argument("--lanes", type=positive_integer, default=2, help="Lanes: 1, 2 or 4 (default 2)")
    synth.add_argument("--max-bits", type=positive_integer, default=4096, help="MaxBits (default 4096)")
    synth.add_argument("--num-regs", type=positive_integer, default=32, help="NumRegs: 16 .. 32 (default 32)")
    synth.add_argument("--top", default="montu_top",
                       choices=("montu_top", "montu_mont", "montu_inv", "montu_wordop", "cilardo_mont"),
                       help="the unit (default) or one engine on its own, with the unit's "
                            "Word/Lanes/MaxBits: shows which engine limits fmax")
    synth.add_argument("--engine", default=None,
                       help="another paper's engine (montu.engines: yeh, ...) instead of the unit: "
                            "its builds (the adapter's SYNTH_BUILDS), or the one of --param")
    synth.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                       help="with --engine: a parameter of its top, e.g. NBits=2048 (repeatable)")
    synth.add_argument("--pipelined", action="store_true",
                       help="Pipelined = 1, the high-clock build: pipelined MAC lanes, q unit, "
                            "word engine and inversion engine (the unit and montu_mont need "
                            "Lanes 2 or 4); runs are named *_pipelined")
    synth.add_argument("--sweep", action="store_true",
                       help="all of Word {32,64} x Lanes {1,2,4} x MaxBits {1024,4096}")
    synth.add_argument("--only-missing", action="store_true",
                       help="with --sweep: skip configurations already in the results file "
                            "for the current RTL")
    synth.add_argument("--speed", type=positive_integer, default=6, help="ECP5 speed grade 6, 7, 8 (default 6)")
    synth.add_argument("--seed", type=non_negative_integer, default=1, help="nextpnr placer seed (default 1)")
    synth.add_argument("--freq", type=positive_number, default=100.0, help="target fmax in MHz (default 100)")
    synth.add_argument("--router", choices=("router1", "router2"), default="router1",
                       help="nextpnr's router (default router1, nextpnr's own default)")
    synth.add_argument("--tmg-ripup", action="store_true",
                       help="nextpnr --tmg-ripup: timing-driven rip-up while routing")
    synth.add_argument("--placer", choices=("heap", "static"), default="heap",
                       help="nextpnr's placer (default heap, nextpnr's own default; static: its "
                            "electrostatic placer)")
    synth.add_argument("--lut-map", choices=("delay", "target"), default="delay",
                       help="ABC9's LUT mapping: delay (synth_ecp5's default, the fewest LUT levels "
                            "everywhere) or target (the --freq period as ABC9's delay target: "
                            "area recovered on the paths that meet it)")
    synth.add_argument("--timeout", type=positive_number, default=7200.0,
                       help="seconds each tool may run per configuration (default 7200)")
    synth.add_argument("--depth", action="store_true",
                       help="Yosys only (minutes, not nextpnr's hour): rank the register inputs by "
                            "the logic in front of them (montu.synth.depth, a coarse estimate that "
                            "finds the deep paths, not an fmax); writes no results")
    synth.add_argument("--depth-top", type=positive_integer, default=30,
                       help="with --depth: how many endpoint groups to list (default 30)")
    synth.add_argument("--congestion", action="store_true",
                       help="Yosys and nextpnr's placement only (no routing): where the placed "
                            "design asks for the most wire and which RTL lines ask for it "
                            "(montu.synth.congestion, RUDY: an estimate that ranks regions); "
                            "writes no results")
    synth.add_argument("-o", "--output", type=Path, default=Path("bench/results/synth.json"))
    synth.set_defaults(func=_synth)

    report = commands.add_parser(
        "report", help="regenerate docs/performance.md and its plots from bench/results/*.json")
    report.add_argument("--results", type=Path, default=None,
                        help="directory of the JSON results (default: the repository's bench/results)")
    report.add_argument("-o", "--output", type=Path, default=None,
                        help="the Markdown file to write (default: the repository's docs/performance.md)")
    report.set_defaults(func=_report)


def _synth(args: argparse.Namespace) -> int:
    from montu.synth.process import sigterm_as_exit

    with sigterm_as_exit():       # a `kill` of montu synth takes its Yosys/nextpnr with it
        return _synth_runs(args)


def _synth_runs(args: argparse.Namespace) -> int:
    from montu.synth import SWEEP, Device, SynthConfig, flow, results
    from montu.synth.progress import Progress

    device = Device(speed=args.speed, seed=args.seed, target_mhz=args.freq, router=args.router,
                    tmg_ripup=args.tmg_ripup, lut_map=args.lut_map, placer=args.placer)
    if args.sweep and args.pipelined:
        raise MontuError("--pipelined is for one configuration; --sweep runs the default "
                         "configurations only")
    if args.engine is not None:
        configs = _engine_configs(args)
    elif args.param:
        raise MontuError("--param is for --engine builds")
    else:
        configs = list(SWEEP) if args.sweep else [
            SynthConfig(word=args.word, lanes=args.lanes, max_bits=args.max_bits,
                        num_regs=args.num_regs, top=args.top, pipelined=args.pipelined)]
    if args.depth and args.congestion:
        raise MontuError("--depth and --congestion are two runs: give one")
    if args.depth:
        return _depth(configs, args, device)
    if args.congestion:
        return _congestion(configs, args, device)
    core = getattr(configs[0], "core", None) if configs else None
    rtl = results.rtl_digest(None if core is None else _core_sources(core))
    data = results.load(args.output)
    if args.only_missing:
        done = {tuple(sorted(r["config"].items())) for r in data["runs"] if r.get("rtl_sha256") == rtl}
        configs = [c for c in configs if tuple(sorted(c.label.items())) not in done]
    versions = flow.tool_versions()
    failures: list[str] = []
    with Progress(len(configs)) as progress:
        for index, config in enumerate(configs, 1):
            progress.start(index, config.name)
            try:
                result = flow.run(config, device, timeout=args.timeout, progress=progress.step,
                                  versions=versions)
            except MontuError as exc:
                if not args.sweep:
                    raise
                failures.append(f"{config.name}: {str(exc).splitlines()[0]}")
                progress.done(f"FAILED: {str(exc).splitlines()[0]}")
                continue
            data = results.merge(results.load(args.output), result, rtl)
            results.save(data, args.output)
            fmax = (result.fmax_stage if result.fmax_mhz is None
                    else f"fmax {result.fmax_mhz:.1f} MHz")
            progress.done(f"{fmax}, {cells_text(result.cells)}")
    print(f"wrote {args.output}")
    if failures:
        raise MontuError(f"{len(failures)} configuration(s) failed: " + "; ".join(failures))
    return 0


def _depth(configs: list, args: argparse.Namespace, device) -> int:
    """Yosys on each configuration (in build/depth/, apart from place-and-route runs), then
    the logic-depth ranking of its netlist."""
    from montu.synth import depth, flow
    from montu.synth.config import LUT_SITES
    from montu.synth.progress import Progress

    period = 1000.0 / args.freq
    sites_of_device = LUT_SITES[device.device]
    status = 0
    for index, config in enumerate(configs, 1):
        with Progress(len(configs)) as progress:
            progress.start(index, config.name)
            netlist = flow.synthesize(config, f"build/depth/{config.name}", args.timeout,
                                      progress.step, device.abc9_delay_ps, keep_sources=True)
            cells = flow.parse_stat(json.loads((netlist.parent / "stat.json").read_text()),
                                    config.top)
            # the area of a build that is not placed: a LUT4 site each, two per CCU2C
            sites = cells.get("LUT4", 0) + 2 * cells.get("CCU2C", 0)
            progress.done(f"netlist written; Yosys: {cells_text(cells)}; about {sites:,} LUT "
                          f"sites before packing ({100 * sites / sites_of_device:.0f} % of the "
                          f"{device.device}'s {sites_of_device:,})")
        status |= depth.main([str(netlist), "--top", str(args.depth_top), "--period", f"{period:g}"])
    return status


def _congestion(configs: list, args: argparse.Namespace, device) -> int:
    """Yosys and nextpnr's placement on each configuration (in build/depth/), then the RUDY
    hot spots of the placed design by RTL line."""
    from montu.synth import congestion, flow
    from montu.synth.progress import Progress

    status = 0
    for index, config in enumerate(configs, 1):
        with Progress(len(configs)) as progress:
            progress.start(index, config.name)
            workdir = f"build/depth/{config.name}"
            flow.synthesize(config, workdir, args.timeout, progress.step, device.abc9_delay_ps,
                            keep_sources=True)
            placed, estimate = flow.place(config, device, workdir, args.timeout, progress.step)
            progress.done(f"placed; nextpnr's estimate after placement {estimate:.1f} MHz")
        status |= congestion.main([str(placed)])
    return status


def cells_text(cells: dict[str, int]) -> str:
    """A build's main ECP5 cells from Yosys, as the progress lines show them."""
    return ", ".join(f"{label} {cells.get(kind, 0):,}" for label, kind in (
        ("LUT4", "LUT4"), ("CCU2C", "CCU2C"), ("FF", "TRELLIS_FF"), ("MULT18X18D", "MULT18X18D"),
        ("DP16KD", "DP16KD")))


def _engine_configs(args: argparse.Namespace) -> list:
    """The builds of --engine: one from --param, else every build its adapter lists."""
    import importlib

    from montu import engines
    from montu.synth import EngineSynthConfig

    if args.sweep or args.pipelined:
        raise MontuError("--sweep and --pipelined are for the unit, not --engine builds")
    entry = engines.get(args.engine)
    if args.param:
        parameters = {}
        for item in args.param:
            name, sep, value = item.partition("=")
            if not sep or not name.isidentifier() or not value.isdigit():
                raise MontuError(f"--param must be NAME=VALUE with a decimal value (got {item!r})")
            parameters[name] = int(value)
        builds = [parameters]
    else:
        builds = list(getattr(importlib.import_module(entry.adapter), "SYNTH_BUILDS", ({},)))
    return [EngineSynthConfig(entry.name, tuple(sorted(b.items()))) for b in builds]


def _core_sources(core: str):
    from montu import hw

    return hw.sources(core)


def _report(args: argparse.Namespace) -> int:
    from montu.report import performance

    out = performance.generate(results_dir=args.results, output=args.output)
    print(f"wrote {out}")
    return 0
