"""The `montu` command line: parse, call, print — no arithmetic here.

Each command group lives in its own module with a `register(commands)` function that adds its
subparsers and sets `func` (called with the parsed arguments, returns the exit code). Errors a
user can cause end as one readable line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from montu.cli import bench, crypto, demo, lowlevel, synth
from montu.cli.options import add_unit_options
from montu.errors import MontuError

COMMAND_MODULES = (crypto, lowlevel, demo, bench, synth)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="montu", description="Montu crypto coprocessor tools")
    add_unit_options(parser, top_level=True)
    commands = parser.add_subparsers(dest="command", required=True)
    for module in COMMAND_MODULES:
        module.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("montu: interrupted", file=sys.stderr)
        return 130
    except (MontuError, OSError, ValueError) as exc:  # the CLI contract: one readable line
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"montu: error: {message}", file=sys.stderr)
        return 2
