"""The `montu` command line: parse, call, print — no arithmetic here."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from montu.errors import MontuError


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="montu", description="Montu crypto coprocessor tools")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="run each golden model on 2048-bit GF(p) and 283-bit GF(2^m)")

    bench = commands.add_parser("bench", help="benchmarks: print a table and write bench/results/*.json")
    bench_kinds = bench.add_subparsers(dest="kind", required=True)
    unit = bench_kinds.add_parser("unit", help="cycles per instruction × length × field")
    unit.add_argument("--backend", choices=("rtl", "sim"), default="rtl",
                      help="rtl: the Verilated RTL (default); sim: the cycle-exact simulator")
    unit.add_argument("--lengths", default=None,
                      help="comma-separated operand lengths in bits (multiples of 64)")
    unit.add_argument("--inversions", type=int, default=10, help="MINV samples per length and field")
    unit.add_argument("-o", "--output", type=Path, default=Path("bench/results/unit.json"))
    return parser


def _bench_unit(args: argparse.Namespace) -> int:
    from montu.benchmarks import unit

    lengths = unit.LENGTHS
    if args.lengths:
        try:
            lengths = tuple(int(x) for x in args.lengths.split(","))
        except ValueError:
            raise MontuError(f"--lengths must be comma-separated integers (got {args.lengths!r})") from None
        if any(b <= 0 or b % 64 for b in lengths):
            raise MontuError("--lengths must be positive multiples of 64")
    unit.run(backend=args.backend, lengths=lengths, inversions=args.inversions, out=args.output)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _build_parser().parse_args(argv)
    try:
        if args.command == "demo":
            from montu import demo

            demo.run()
            return 0
        if args.command == "bench" and args.kind == "unit":
            return _bench_unit(args)
    except (MontuError, OSError, ValueError) as exc:  # the CLI contract: one readable line
        print(f"montu: error: {exc}", file=sys.stderr)
        return 2
    return 0
