"""The `montu` command line: parse, call, print — no arithmetic here.

Each command group lives in its own module with a `register(commands)` function that adds its
subparsers and sets `func` (called with the parsed arguments, returns the exit code). Errors a
user can cause end as one readable line on stderr and a non-zero exit, never a traceback; for
a usage error (a bad option or value) the line ends with a hint to --help.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from montu.cli import bench, crypto, demo, lowlevel, soc, synth
from montu.cli.options import add_unit_options
from montu.errors import MontuError

COMMAND_MODULES = (crypto, lowlevel, demo, bench, synth, soc)
USAGE_ERROR = 2


class UsageError(MontuError):
    """A command line argparse cannot parse; `prog` is the (sub)command it was parsing."""

    def __init__(self, message: str, prog: str):
        super().__init__(message)
        self.prog = prog


class MontuArgumentParser(argparse.ArgumentParser):
    """argparse with the CLI's error contract: a usage error raises UsageError, which main()
    prints as one `montu: error: …` line with a hint to --help (not argparse's full usage)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.prog)


def build_parser() -> argparse.ArgumentParser:
    parser = MontuArgumentParser(prog="montu", description="Montu crypto coprocessor tools")
    add_unit_options(parser, top_level=True)
    # subparsers (and theirs) are made with the parser's own class, so they share its error()
    commands = parser.add_subparsers(dest="command", required=True)
    for module in COMMAND_MODULES:
        module.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    _reserve_closed_standard_streams()
    try:
        args = build_parser().parse_args(argv)
        status = int(args.func(args) or 0)
        if sys.stdout is not None:
            sys.stdout.flush()       # a write error (a closed pipe, a full disk) shows up here
        return status
    except KeyboardInterrupt:
        print("montu: interrupted", file=sys.stderr)
        return 130
    except UsageError as exc:
        _print_error(f"{exc} (see '{exc.prog} --help')")
        return USAGE_ERROR
    except (MontuError, OSError, ValueError) as exc:  # the CLI contract: one readable line
        _print_error(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        return 2


def _print_error(message: str) -> None:
    _discard_unwritable_stdout()
    print(f"montu: error: {message}", file=sys.stderr)


def _discard_unwritable_stdout() -> None:
    """After a failed write to stdout, send what is still buffered to /dev/null, so that
    Python's flush at exit does not print a second error (or a traceback) of its own."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass


def _reserve_closed_standard_streams() -> None:
    """`montu … <&-` or `>&-` starts Python with sys.stdin or sys.stdout set to None. They stay
    None, so reading or writing them is a clean MontuError (montu.cli.keyfiles), but the free
    descriptors 0-2 get /dev/null: otherwise the next file montu opens would become "stdout" for
    any code that writes to descriptor 1. A closed stderr gets /dev/null too (print to a None
    sys.stderr would fall back to stdout)."""
    while True:
        fd = os.open(os.devnull, os.O_RDWR)
        if fd > 2:
            os.close(fd)
            break
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (for the life of the process)
