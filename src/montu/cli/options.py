"""Options every unit-using command shares: --backend, --stats, --mhz.

They work before the command (`montu --backend rtl sign ...`) and after it
(`montu sign ... --backend rtl`); a value after the command wins.
"""

from __future__ import annotations

import argparse
import sys

from montu.driver import Unit, default_unit
from montu.errors import MontuError

DEFAULT_MHZ = 100.0   # the issue #6 fmax target; --mhz uses the clock you have


def add_unit_options(parser: argparse.ArgumentParser, *, top_level: bool = False) -> None:
    # subcommands use SUPPRESS so that an option given only before the command is not reset
    default = (lambda value: value) if top_level else (lambda value: argparse.SUPPRESS)
    parser.add_argument("--backend", choices=("sim", "rtl"), default=default("sim"),
                        help="sim: the cycle-exact simulator (default); rtl: the Verilated RTL")
    parser.add_argument("--stats", action="store_true", default=default(False),
                        help="print unit cycles and the time they take at --mhz on stderr")
    parser.add_argument("--mhz", type=float, default=default(DEFAULT_MHZ),
                        help=f"unit clock for --stats (default {DEFAULT_MHZ:g} MHz)")


def make_unit(args: argparse.Namespace) -> Unit:
    if args.mhz <= 0:
        raise MontuError(f"--mhz must be positive (got {args.mhz:g})")
    return default_unit(args.backend)


def report_stats(args: argparse.Namespace, what: str, cycles: int, seconds: float) -> None:
    if not args.stats:
        return
    unit_ms = cycles / (args.mhz * 1e3)
    print(f"montu: {what}: {cycles:,} unit cycles = {unit_ms:.3f} ms at {args.mhz:g} MHz "
          f"({args.backend} backend, {seconds:.2f} s on this host)", file=sys.stderr)
