"""`montu bench …`: benchmarks that print a table and write bench/results/*.json."""

from __future__ import annotations

import argparse
from pathlib import Path

from montu.cli.options import positive_integer
from montu.errors import MontuError


def register(commands: argparse._SubParsersAction) -> None:
    bench = commands.add_parser("bench", help="benchmarks: print a table and write bench/results/*.json")
    kinds = bench.add_subparsers(dest="kind", required=True)

    unit = kinds.add_parser("unit", help="cycles per instruction × length × field")
    _unit_options(unit)
    unit.add_argument("--lengths", default=None,
                      help="comma-separated operand lengths in bits (multiples of 64)")
    unit.add_argument("--inversions", type=positive_integer, default=10, help="MINV samples per length and field")
    _output_option(unit, "unit")
    unit.set_defaults(func=_bench_unit)

    rsa = kinds.add_parser("rsa", help="RSA modexp, CRT private/public operations, key generation")
    _unit_options(rsa)
    rsa.add_argument("--keys", type=positive_integer, default=10, help="keys generated for the key-generation figures")
    _output_option(rsa, "rsa")
    rsa.set_defaults(func=_bench_rsa)

    ecc = kinds.add_parser("ecc", help="scalar multiplication, ECDSA sign/verify, ECDH per curve")
    _unit_options(ecc)
    ecc.add_argument("--curves", default=None, help="comma-separated OpenSSL curve names (default: all)")
    ecc.add_argument("--samples", type=positive_integer, default=3, help="random scalars/messages per curve")
    _output_option(ecc, "ecc")
    ecc.set_defaults(func=_bench_ecc)

    mix = kinds.add_parser("mix", help="instruction mix of one k·P on both builds (Pipelined = 0 "
                                       "and 1): where the cycles go")
    mix.add_argument("--backend", choices=("rtl", "sim"), default="sim",
                     help="sim: the cycle-exact simulator (default); rtl: the Verilated RTL")
    mix.add_argument("--curves", default=None,
                     help="comma-separated OpenSSL curve names (default: prime256v1,sect283k1)")
    mix.add_argument("-o", "--output", type=Path, default=None,
                     help="results file (default bench/results/mix.json)")
    mix.set_defaults(func=_bench_mix)

    engines = kinds.add_parser("engines", help="the same operations on every engine (cycles, time at its fmax)")
    engines.add_argument("--backend", choices=("rtl", "sim"), default="rtl",
                         help="rtl: the Verilated RTL (default); sim: the cycle-exact simulators")
    engines.add_argument("--engines", default=None, help="comma-separated engine names (default: all)")
    _output_option(engines, "engines")
    engines.set_defaults(func=_bench_engines)
    soc = kinds.add_parser("soc", help="firmware on the RTL SoC (CVA6 + Montu): system cycles, "
                                       "the unit's share, the CPU's overhead")
    soc.add_argument("-o", "--output", type=Path, default=None,
                     help="results file (default bench/results/soc.json)")
    soc.set_defaults(func=_bench_soc)


def _bench_engines(args: argparse.Namespace) -> int:
    import montu.engines
    from montu.benchmarks import engines

    names = None
    if args.engines:
        names = [montu.engines.get(n.strip()).name for n in args.engines.split(",")]
    engines.run(backend=args.backend, engines=names, out=args.output)
    return 0


def _bench_mix(args: argparse.Namespace) -> int:
    from montu.benchmarks import mix

    curves = tuple(c.strip() for c in args.curves.split(",")) if args.curves else None
    mix.run(backend=args.backend, curves=curves, out=args.output)
    return 0


def _bench_soc(args: argparse.Namespace) -> int:
    from montu.benchmarks import soc

    soc.run(out=args.output)
    return 0


def _unit_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", choices=("rtl", "sim"), default="rtl",
                        help="rtl: the Verilated RTL (default); sim: the cycle-exact simulator")
    parser.add_argument("--pipelined", action="store_true",
                        help="the pipelined unit (Pipelined = 1: MAC lanes, q unit, word and inversion engines); results go to "
                             "*_pipelined.json so the default unit's stay")


def _output_option(parser: argparse.ArgumentParser, name: str) -> None:
    parser.add_argument("-o", "--output", type=Path, default=None,
                        help=f"results file (default bench/results/{name}.json, {name}_pipelined.json "
                             "with --pipelined)")


def _bench_unit(args: argparse.Namespace) -> int:
    from montu.benchmarks import unit

    lengths = unit.LENGTHS
    if args.lengths:
        try:
            lengths = tuple(positive_integer(x) for x in args.lengths.split(","))
        except argparse.ArgumentTypeError:
            raise MontuError(f"--lengths must be comma-separated whole numbers in decimal digits "
                             f"(got {args.lengths!r})") from None
        if any(b <= 0 or b % 64 for b in lengths):
            raise MontuError("--lengths must be positive multiples of 64")
    unit.run(backend=args.backend, lengths=lengths, inversions=args.inversions, out=args.output,
             pipelined=args.pipelined)
    return 0


def _bench_rsa(args: argparse.Namespace) -> int:
    from montu.benchmarks import rsa

    rsa.run(backend=args.backend, keys=args.keys, out=args.output, pipelined=args.pipelined)
    return 0


def _bench_ecc(args: argparse.Namespace) -> int:
    from montu.benchmarks import ecc

    curves = tuple(c.strip() for c in args.curves.split(",")) if args.curves else None
    ecc.run(backend=args.backend, curves=curves, samples=args.samples, out=args.output,
            pipelined=args.pipelined)
    return 0
