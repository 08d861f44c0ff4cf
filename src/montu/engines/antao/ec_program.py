"""The EC point multiplication microprogram (programs/ec.rns) and the static bounds behind it.

Antão & Sousa's case study is EC point multiplication (P-224); this is the golden model's
arithmetic (montu.arith.antao_ec: homogeneous projective coordinates, the complete addition law of
Renes–Costello–Batina, Alg. 1 for any a, lazy reduction: an element carries a bound k, value
< k·p, and a subtraction a − b adds k_b·p first) written out as microcode. Every bound is static
— it depends only on the formula, never on the data — so the generator below runs the golden
model's bound rules once, at generation time, and writes the program with the constants k·p it
needs (KP<k>); `check_curve` proves for a curve and a build that no product ever needed the
golden model's renormalization (k_a·k_b·p <= 2·M1) and no sum left the range (k·p <= M/2).

The scalar multiplication is a Montgomery ladder over all T bits of the scalar: each bit runs
one of two paths of identical instructions with R0 and R1 exchanged (R_(1-b) = R0 + R1,
R_b = 2·R_b, both by the complete formula), so every bit costs the same clocks. Then Z is
converted (its integer shows the point at infinity), Z^-1 = Z^(p-2) by square-and-multiply over
the public exponent p − 2, and x = X·Z^-1, y = Y·Z^-1 are converted and output.

    python3 -m montu.engines.antao.ec_program          # rewrite programs/ec.rns
    python3 -m montu.engines.antao.ec_program --check  # exit 1 if it is out of date
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from montu.arith.antao_ec import complete_add as golden_complete_add

PROGRAM_PATH = Path(__file__).resolve().parent / "programs" / "ec.rns"
LADDER_BOUND = 6          # the bound of every coordinate the ladder keeps (checked: a fixed point)


@dataclass(frozen=True)
class Element:
    """An RNS variable (words NAME1, NAME2) and its static bound k (value < k·p)."""

    name: str
    bound: int


@dataclass
class BoundRules:
    """The golden model's bound rules (antao_ec._RnsField) for p and the bases' M1, M2. With
    `p = None` only the bounds are tracked (the program text does not depend on p)."""

    p: int | None = None
    m1: int = 0
    m2: int = 0

    def product(self, a: int, b: int) -> int:
        if self.p is None:
            return 3   # ceil(ka·kb·p/M1) + 2 with ka·kb·p <= M1: checked by check_curve
        if a * b * self.p > 2 * self.m1:
            raise ValueError(f"a product of bounds {a}·{b} would need the golden model's "
                             "renormalization: the bases are too small for this curve")
        return -(-a * b * self.p // self.m1) + 2

    def total(self, a: int, b: int) -> int:
        if self.p is not None and (a + b) * self.p > min(self.m1, self.m2) // 2:
            raise ValueError(f"a sum of bounds {a}+{b} leaves the RNS range for this curve")
        return a + b


@dataclass(frozen=True)
class Op:
    """One field operation: macro `kind` (mm, fadd, fsub) writing `dest` from `sources`."""

    kind: str
    dest: str
    sources: tuple[str, ...]
    extra: tuple[str, ...] = ()          # fsub's KP<k>

    def text(self) -> str:
        return f"{self.kind} {', '.join((self.dest, *self.sources, *self.extra))}"


@dataclass
class Emitter:
    """Records field operations (the macros mm, fadd, fsub of lib.rns) and writes them as
    microcode, independent products paired into mm2 (schedule)."""

    rules: BoundRules
    lines: list[str] = field(default_factory=list)
    temps: dict[str, None] = field(default_factory=dict)   # every temporary name used
    multiples: set[int] = field(default_factory=set)       # the k of every KP<k> constant
    ops: list[Op] = field(default_factory=list)
    _next: int = 0

    def temp(self) -> str:
        name = f"E{self._next}"
        self._next += 1
        self.temps[name] = None
        return name

    def restart(self) -> None:
        self._next = 0

    def mul(self, a: Element, b: Element, dest: str | None = None) -> Element:
        out = dest or self.temp()
        self.ops.append(Op("mm", out, (a.name, b.name)))
        return Element(out, self.rules.product(a.bound, b.bound))

    def add(self, a: Element, b: Element, dest: str | None = None) -> Element:
        out = dest or self.temp()
        self.ops.append(Op("fadd", out, (a.name, b.name)))
        return Element(out, self.rules.total(a.bound, b.bound))

    def sub(self, a: Element, b: Element, dest: str | None = None) -> Element:
        out = dest or self.temp()
        self.multiples.add(b.bound)
        self.ops.append(Op("fsub", out, (a.name, b.name), (f"KP{b.bound}",)))
        return Element(out, self.rules.total(a.bound, b.bound))

    def schedule(self) -> None:
        """Write the recorded operations: whenever operations are ready (every operation they
        depend on — read after write, write after read, write after write — written), the
        additions first, then the products two by two as mm2 (the ring is busy with one product
        at a time; two interleaved hide each other's latency). Every value is computed from the
        same operands as in program order: the residues do not change."""
        ops, self.ops = self.ops, []
        deps: list[set[int]] = []
        for j, op in enumerate(ops):
            deps.append({i for i, earlier in enumerate(ops[:j])
                         if earlier.dest in op.sources or op.dest in earlier.sources
                         or op.dest == earlier.dest})
        done: set[int] = set()
        while len(done) < len(ops):
            ready = [j for j in range(len(ops)) if j not in done and deps[j] <= done]
            linear = [j for j in ready if ops[j].kind != "mm"]
            if linear:
                for j in linear:
                    self.lines.append(f"    {ops[j].text()}")
                done.update(linear)
                continue
            pair = ready[:2]
            if len(pair) == 2:
                first, second = ops[pair[0]], ops[pair[1]]
                self.lines.append(f"    mm2 {first.dest}, {', '.join(first.sources)}, "
                                  f"{second.dest}, {', '.join(second.sources)}")
            else:
                self.lines.append(f"    {ops[pair[0]].text()}")
            done.update(pair)


Point = tuple[Element, Element, Element]


def complete_add(f: Emitter, p1: Point, p2: Point, dest: tuple[str, str, str],
                 a: Element, b3: Element) -> Point:
    """The golden model's complete addition (montu.arith.antao_ec.complete_add, RCB Alg. 1, its
    operations in its order) recorded by `f`; the operations that produce X3, Y3, Z3 write
    `dest` instead of temporaries."""
    out = golden_complete_add(p1, p2, a, b3, f)
    renamed = {e.name: d for e, d in zip(out, dest, strict=True)}
    f.ops = [replace(op, dest=renamed.get(op.dest, op.dest)) for op in f.ops]
    for name in renamed:
        f.temps.pop(name, None)
    return tuple(Element(d, e.bound) for e, d in zip(out, dest, strict=True))


def ladder_step(f: Emitter, add_into: str, double: str) -> None:
    """R_add_into = R0 + R1, then R_double = 2·R_double (names "A"/"B": XA, YA, ZA / XB, ...)."""
    k = LADDER_BOUND
    a, b3 = Element("CA", 1), Element("CB3", 1)

    def point(name: str) -> Point:
        return Element(f"X{name}", k), Element(f"Y{name}", k), Element(f"Z{name}", k)

    f.restart()
    out = complete_add(f, point("A"), point("B"), tuple(f"{c}{add_into}" for c in "XYZ"), a, b3)
    _check_fixed_point(out)
    out = complete_add(f, point(double), point(double), tuple(f"{c}{double}" for c in "XYZ"), a, b3)
    _check_fixed_point(out)
    f.schedule()          # the addition and the doubling are independent: scheduled together


def _check_fixed_point(out: Point) -> None:
    for e in out:
        if e.bound > LADDER_BOUND:
            raise ValueError(f"the ladder's coordinates would grow to bound {e.bound} > {LADDER_BOUND}")


def generate(rules: BoundRules | None = None) -> tuple[str, set[int], list[str]]:
    """The program text after lib.rns, the multiples k it needs, its temporaries."""
    f = Emitter(rules or BoundRules())
    f.lines.append("  loop LCR")
    f.lines.append("    bit1 one")
    ladder_step(f, "B", "A")                 # bit 0: R1 = R0 + R1, R0 = 2·R0
    f.lines.append("    jmp done")
    f.lines.append("one:")
    ladder_step(f, "A", "B")                 # bit 1: R0 = R0 + R1, R1 = 2·R1
    f.lines.append("    nop                                         ; the jmp's twin")
    f.lines.append("done:")
    f.lines.append("    nop")
    f.lines.append("  endloop")
    f.lines.append("  macz.b2 ZA2, ZB2                              ; wait for R0 and R1 alike: the same "
                   "clocks whichever path wrote last")
    # the affine conversion of R0 (antao_ec._to_affine): to_int(Z) renormalizes Z first (bound 6)
    k = LADDER_BOUND
    z = Element("ZA", k)
    f.restart()
    f.lines.append("  mm A, ZA, RM                                  ; to_int(Z): renormalize (bound > 4)")
    f.lines.append("  finish A                                      ; Z as an integer (0: infinity)")
    f.lines.append("  lcld                                          ; T = bits of p - 2, less its top one")
    f.lines.append("  loop EW")
    f.lines.append("    eld")
    f.lines.append("  endloop")
    f.lines.append("  copy ZI, ZA                                   ; Z^(p-2): square-and-multiply")
    f.lines.append("  loop LCR")
    f.lines.append("    mm ZI, ZI, ZI")
    f.lines.append("    bit0 plain")
    f.lines.append("    mm ZI, ZI, ZA")
    f.lines.append("plain:")
    f.lines.append("    nop")
    f.lines.append("  endloop")
    rules_ = f.rules
    inverse = Element("ZI", rules_.product(z.bound, z.bound))
    for coordinate in ("XA", "YA"):
        value = f.mul(Element(coordinate, k), inverse, "A")
        f.schedule()
        if value.bound > 4:
            raise ValueError("x·Z^-1 would need a renormalization before leaving the domain")
        f.lines.append(f"  finish A                                      ; {coordinate[0].lower()} = "
                       f"{coordinate[0]}·Z^-1")
    f.lines.append("  halt")
    return "\n".join(f.lines) + "\n", f.multiples, list(f.temps)


HEADER = """; EC point multiplication k·P on the antao ring (Antão & Sousa §5's case study), after lib.rns.
; GENERATED by `python3 -m montu.engines.antao.ec_program` (montu/engines/antao/ec_program.py):
; do not edit; tests/engines/test_antao_ec.py fails when it drifts.
;
; The golden model's arithmetic (montu.arith.antao_ec): projective coordinates, the complete
; addition of Renes–Costello–Batina (Alg. 1, any a) for additions and doublings, lazy reduction
; with static bounds (a subtraction adds KP<k> = k·p, k the subtrahend's bound), Fermat inversion.
; The scalar runs through a Montgomery ladder over all T bits: each bit takes one of two paths of
; the same instructions with R0 = (XA:YA:ZA) and R1 = (XB:YB:ZB) exchanged (constant time).
;
; Entries and what the host pushes (after `setup` with N = p):
;   ecsetup CA = a·M1 mod p, CB3 = 3b·M1 mod p and KP<k> = k·p for the k below, each as
;           P words of B1 residues then P words of B2 residues (PE P-1 first)  -> nothing out
;   ecmul   x's and y's LIMBS limbs (most significant first), T, the EWords words of the scalar
;           left-aligned on T bits, then T' = bits(p-2) - 1 and the EWords words of p - 2 less
;           its top bit, left-aligned on T'   -> Z, x, y as P limbs each (Z = 0: infinity)
;
; Names from the host: LIMBS, EW.
"""


def render() -> str:
    body, multiples, temps = generate()
    lines = [HEADER]
    lines.append(".var CA1                   ; a in the Montgomery domain")
    lines.append(".var CA2")
    lines.append(".var CB31                  ; 3b in the Montgomery domain")
    lines.append(".var CB32")
    for k in sorted(multiples):
        lines.append(f".var KP{k}1                  ; {k}·p")
        lines.append(f".var KP{k}2")
    for name in ("XA", "YA", "ZA", "XB", "YB", "ZB", "ZI", *temps):
        lines.append(f".var {name}1")
        lines.append(f".var {name}2")
    lines.append("")
    lines.append("ecsetup:")
    for name in ("CA", "CB3", *(f"KP{k}" for k in sorted(multiples))):
        lines.append(f"  load {name}1")
        lines.append(f"  load {name}2")
    lines.append("  halt")
    lines.append("")
    lines.append("ecmul:")
    lines.append("  input X")
    lines.append("  mm XB, X, RR                                  ; R1 = P in the Montgomery domain")
    lines.append("  input X")
    lines.append("  mm YB, X, RR")
    lines.append("  copy ZB, RM")
    lines.append("  zero XA                                       ; R0 = (0 : 1 : 0), the infinity")
    lines.append("  copy YA, RM")
    lines.append("  zero ZA")
    lines.append("  lcld                                          ; T = bits of the scalar")
    lines.append("  loop EW")
    lines.append("    eld")
    lines.append("  endloop")
    lines.append(body)
    return "\n".join(lines)


def multiples() -> list[int]:
    """The k of the KP<k> constants ecsetup loads, in order."""
    return sorted(generate()[1])


def check_curve(p: int, m1: int, m2: int) -> None:
    """ValueError unless the program's static bounds hold for prime p on bases M1, M2."""
    generate(BoundRules(p, m1, m2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write programs/ec.rns")
    parser.add_argument("--check", action="store_true", help="only check that it is current")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = PROGRAM_PATH.read_text() if PROGRAM_PATH.exists() else ""
        if current != text:
            print(f"{PROGRAM_PATH} is out of date: run python3 -m montu.engines.antao.ec_program",
                  file=sys.stderr)
            return 1
        return 0
    PROGRAM_PATH.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
