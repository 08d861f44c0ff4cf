"""The `montu` command line: parse, call, print — no arithmetic here."""

from __future__ import annotations

import argparse
import sys


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="montu", description="Montu crypto coprocessor tools")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="run each golden model on 2048-bit GF(p) and 283-bit GF(2^m)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _build_parser().parse_args(argv)
    try:
        if args.command == "demo":
            from montu import demo

            demo.run()
            return 0
    except Exception as exc:  # the CLI contract: one readable line, non-zero exit
        print(f"montu: error: {exc}", file=sys.stderr)
        return 2
    return 0
