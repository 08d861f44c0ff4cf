"""`montu soc run`: a program on the simulated Montu SoC (CVA6 + Montu on CV-X-IF), issue #22."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from montu.cli.options import positive_integer
from montu.errors import MontuError


def register(commands: argparse._SubParsersAction) -> None:
    soc = commands.add_parser("soc", help="the Montu SoC: CVA6 (RV64) with the unit on its "
                                          "CV-X-IF port, simulated with Verilator")
    actions = soc.add_subparsers(dest="soc_command", required=True)
    run = actions.add_parser(
        "run", help="compile FILE.c against the firmware library (or take FILE.elf), run it on the "
                    "SoC, stream its output and exit with its exit code")
    run.add_argument("program", type=Path, metavar="FILE.c|FILE.elf")
    run.add_argument("--max-cycles", type=positive_integer, default=500_000_000,
                     help="stop after this many SoC cycles (default 500,000,000)")
    run.add_argument("--cycles", action="store_true",
                     help="print the program's SoC cycle count to stderr at the end")
    run.set_defaults(func=_run)
    demo = actions.add_parser(
        "demo", help="the firmware demo on the SoC: RSA-1024 keygen, sign, verify, encrypt, "
                     "decrypt; ECDSA and ECDH on P-256 and sect283k1; every result checked "
                     "with the openssl CLI; per step the SoC cycles and the unit's share")
    demo.add_argument("--seed", metavar="TEXT",
                      help="derive the firmware's entropy from TEXT (a repeatable run) instead "
                           "of os.urandom")
    demo.add_argument("--max-cycles", type=positive_integer, default=400_000_000,
                      help="stop after this many SoC cycles (default 400,000,000)")
    demo.set_defaults(func=_demo)


def _progress(message: str) -> None:
    print(f"montu: {message}", file=sys.stderr, flush=True)


def _demo(args: argparse.Namespace) -> int:
    from montu.soc import demo

    source = "derived from --seed" if args.seed is not None else "48 bytes of os.urandom"
    print("montu soc demo: RSA and ECC in RISC-V firmware on CVA6 + Montu (CV-X-IF), RTL simulated "
          f"by Verilator; entropy {source}", flush=True)
    demo.run(seed=args.seed, max_cycles=args.max_cycles, progress=_progress,
             out=lambda line: print(line, flush=True))
    return 0


def _run(args: argparse.Namespace) -> int:
    from montu.soc import run as soc_run

    program: Path = args.program
    if not program.is_file():
        raise MontuError(f"{program}: no such file")
    if program.suffix == ".c":
        elf = soc_run.compile_c([program.resolve()])
    elif program.suffix == ".elf":
        elf = program
    else:
        raise MontuError(f"{program}: expected a C source (.c) or a RISC-V executable (.elf)")
    result = soc_run.run_elf(elf, max_cycles=args.max_cycles, progress=_progress,
                             on_output=lambda line: print(line, flush=True))
    if args.cycles:
        print(f"montu: {result.cycles} SoC cycles", file=sys.stderr)
    return result.exit_code
