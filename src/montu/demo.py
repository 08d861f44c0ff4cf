"""`montu demo`: run every golden model on a 2048-bit GF(p) and a 283-bit GF(2^m) example."""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable

from montu.arith import gf2m

# Each model module exposes demo_report(p, poly) -> list[str]; the demo prints them in this order.
MODEL_MODULES = ("bie", "yeh", "cilardo", "verma", "antao")


def example_operands(seed: int = 2021) -> tuple[int, int]:
    """A fixed odd 2048-bit modulus with its top bit set, and the NIST 283-bit polynomial."""
    rng = random.Random(seed)
    p = rng.getrandbits(2048) | (1 << 2047) | 1
    return p, gf2m.NIST_POLYNOMIALS[283]


def run(out: Callable[[str], None] = print) -> None:
    p, poly = example_operands()
    out(f"Montu golden models — GF(p) modulus: 2048 bits (0x{p:x}"[:72] + "…)")
    out(f"                       GF(2^m) polynomial: x^283 + x^12 + x^7 + x^5 + 1")
    for name in MODEL_MODULES:
        module = importlib.import_module(f"montu.arith.{name}")
        out("")
        start = time.perf_counter()
        for line in module.demo_report(p, poly):
            out(line)
        out(f"  (host time {time.perf_counter() - start:.2f} s)")
