"""Options every unit-using command shares: --engine, --backend, --stats, --mhz.

They work before the command (`montu --backend rtl sign ...`) and after it
(`montu sign ... --backend rtl`); a value after the command wins.
"""

from __future__ import annotations

import argparse
import math
import re
import sys

import montu.engines
from montu.config import DEFAULT_ENGINE
from montu.driver import Unit, default_unit
from montu.errors import MontuError

DEFAULT_MHZ = 100.0   # the issue #6 fmax target; --mhz uses the clock you have


def add_unit_options(parser: argparse.ArgumentParser, *, top_level: bool = False) -> None:
    # subcommands use SUPPRESS so that an option given only before the command is not reset
    default = (lambda value: value) if top_level else (lambda value: argparse.SUPPRESS)
    parser.add_argument("--engine", choices=montu.engines.names(), default=default(DEFAULT_ENGINE),
                        help="the hardware engine: bie2021 (the Montu unit, default), cilardo (the "
                             "unit on cilardo2008's multiplier) or one of the other papers' "
                             "engines (docs/engines.md)")
    parser.add_argument("--backend", choices=("sim", "rtl"), default=default("sim"),
                        help="sim: the cycle-exact simulator (default); rtl: the Verilated RTL")
    parser.add_argument("--stats", action="store_true", default=default(False),
                        help="print unit cycles and the time they take at --mhz on stderr")
    parser.add_argument("--mhz", type=positive_number, default=default(DEFAULT_MHZ),
                        help=f"unit clock for --stats (default {DEFAULT_MHZ:g} MHz)")


# ------------------------------------------------------------------ argument types
# argparse calls these on the option's text; ArgumentTypeError's message becomes the usage error
# "argument --mhz: must be ...".
# ASCII digits only: int() and float() also take other scripts' digits ('１２', '٣'), and float()
# takes 'nan' and 'inf'
_DECIMAL = re.compile(r"[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def positive_number(text: str) -> float:
    """A finite number > 0 (a clock, a timeout): not 0, negative, nan or inf."""
    if not _NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"must be a finite number greater than 0, in digits "
                                         f"0-9 (got {text!r})")
    value = float(text)
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number greater than 0 (got {text!r})")
    return value


def positive_integer(text: str) -> int:
    """A count: ASCII decimal digits, at least 1."""
    value = _decimal(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1 (got {text!r})")
    return value


def non_negative_integer(text: str) -> int:
    """A seed, an index: ASCII decimal digits."""
    return _decimal(text)


def _decimal(text: str) -> int:
    digits = text.strip()
    if not _DECIMAL.fullmatch(digits):   # int() also takes '-3', '1_0', '+4'
        raise argparse.ArgumentTypeError(f"must be a whole number in decimal digits 0-9 "
                                         f"(got {text!r})")
    return int(digits)


def make_unit(args: argparse.Namespace) -> Unit:
    """The process's unit for --backend, built with --engine's multiplier when --engine is a
    build of the unit (bie2021, cilardo)."""
    if not math.isfinite(args.mhz) or args.mhz <= 0:
        raise MontuError(f"--mhz must be a finite number greater than 0 (got {args.mhz:g})")
    engine = montu.engines.get(getattr(args, "engine", DEFAULT_ENGINE))
    return default_unit(args.backend, engine=engine.name if engine.unit_build else DEFAULT_ENGINE)


def other_engine(args: argparse.Namespace, command: str) -> montu.engines.Engine | None:
    """None when the command runs on a build of the unit (the Unit API: bie2021, or cilardo's
    montu_top with MulCore = 1); else the registry entry of --engine, after checking that it can
    run `command` (one line saying what it can, if not)."""
    engine = montu.engines.get(getattr(args, "engine", DEFAULT_ENGINE))
    if engine.name == DEFAULT_ENGINE or engine.unit_build:
        return None
    if not engine.can(command):
        raise MontuError(engine.refuse(command))
    return engine


def open_engine(args: argparse.Namespace, bits: int):
    """An engine object of --engine on --backend, built for `bits`-bit operands."""
    return montu.engines.open_for_bits(args.engine, bits, args.backend)


def warn_not_constant_time(args: argparse.Namespace, engine: montu.engines.Engine | None) -> None:
    """One warning line before a private-key operation on an engine that is not constant time."""
    if engine is not None and not engine.constant_time:
        print(f"montu: warning: the {engine.name} engine's exponentiation is not constant time "
              "(its cycles follow the private exponent's bits)", file=sys.stderr)


def report_stats(args: argparse.Namespace, what: str, cycles: int, seconds: float) -> None:
    if not args.stats:
        return
    unit_ms = cycles / (args.mhz * 1e3)
    name = getattr(args, "engine", DEFAULT_ENGINE)
    counted = "unit" if name == DEFAULT_ENGINE else f"{name} engine"
    print(f"montu: {what}: {cycles:,} {counted} cycles = {unit_ms:.3f} ms at {args.mhz:g} MHz "
          f"({args.backend} backend, {seconds:.2f} s on this host)", file=sys.stderr)
