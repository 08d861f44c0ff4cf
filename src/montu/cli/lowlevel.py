"""`montu modmul|modinv|modexp`: one unit operation on hex numbers, the result in hex."""

from __future__ import annotations

import argparse
import re
import time

from montu.arith.field import Field
from montu.cli import keyfiles
from montu.cli.options import add_unit_options, make_unit, open_engine, other_engine, report_stats
from montu.errors import MontuError


def register(commands: argparse._SubParsersAction) -> None:
    modmul = commands.add_parser("modmul", help="a·b mod n (GF(p)) or a(x)·b(x) mod n(x) (GF(2^m)), hex")
    modmul.add_argument("a")
    modmul.add_argument("b")
    modmul.add_argument("n", help="odd modulus, or reduction polynomial with constant term 1")
    _field(modmul)
    add_unit_options(modmul)
    modmul.set_defaults(func=_modmul)

    modinv = commands.add_parser("modinv", help="a⁻¹ mod n for any n ≥ 2 (even too), or in GF(2^m), hex")
    modinv.add_argument("a")
    modinv.add_argument("n")
    _field(modinv)
    add_unit_options(modinv)
    modinv.set_defaults(func=_modinv)

    modexp = commands.add_parser("modexp", help="b^e mod n (odd n; constant-time in e), hex")
    modexp.add_argument("b")
    modexp.add_argument("e")
    modexp.add_argument("n")
    add_unit_options(modexp)
    modexp.set_defaults(func=_modexp)


def _field(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--field", choices=("gfp", "gf2m"), default="gfp",
                        help="gfp: integers (default); gf2m: binary polynomials as bit strings")


# ASCII hex digits only, optionally 0x and _ between digit groups: int(text, 16) alone would also
# take a sign ('-5'), spaces and non-ASCII digits ('１２３')
_HEX = re.compile(r"(0[xX])?[0-9a-fA-F]+(_[0-9a-fA-F]+)*")


def _hex(text: str, name: str) -> int:
    """The argument `name` as a non-negative integer written in hexadecimal."""
    digits = text.strip()
    if not _HEX.fullmatch(digits):
        raise MontuError(f"{name} must be a non-negative hexadecimal number: digits 0-9 a-f, "
                         f"optionally after 0x (got {text!r})")
    return int(digits, 16)


def _run(args: argparse.Namespace, what: str, operation, bits: int) -> int:
    """`operation(unit_or_engine)` on the bie2021 unit, or on --engine built for `bits` bits."""
    if other_engine(args, what) is not None:
        engine = open_engine(args, bits)
        start = time.perf_counter()
        result = operation(engine)
        report_stats(args, what, engine.last_cycles, time.perf_counter() - start)
    else:
        unit = make_unit(args)
        start_cycles, start = unit.total_cycles, time.perf_counter()
        result = operation(unit)
        report_stats(args, what, unit.total_cycles - start_cycles, time.perf_counter() - start)
    keyfiles.print_line(f"{result:x}")
    return 0


def _modmul(args: argparse.Namespace) -> int:
    a, b, n = _hex(args.a, "a"), _hex(args.b, "b"), _hex(args.n, "n")
    field = Field.GF2M if args.field == "gf2m" else Field.GFP
    return _run(args, "modmul", lambda unit: unit.mod_mul(a, b, n, field), n.bit_length())


def _modinv(args: argparse.Namespace) -> int:
    a, n = _hex(args.a, "a"), _hex(args.n, "n")
    field = Field.GF2M if args.field == "gf2m" else Field.GFP
    return _run(args, "modinv", lambda unit: unit.mod_inv(a, n, field), n.bit_length())


def _modexp(args: argparse.Namespace) -> int:
    b, e, n = _hex(args.b, "b"), _hex(args.e, "e"), _hex(args.n, "n")
    return _run(args, "modexp", lambda unit: unit.mod_exp(b, e, n), n.bit_length())
