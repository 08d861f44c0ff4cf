"""Pairing independent Montgomery products of a straight-line command program (MMQ).

`MMQ rd, ra, rb` queues a product to run together with the next STARTMMI or MMX; on the builds
where the two products' rows interleave in the MAC lanes a pair costs far less than two products
(`pairing_pays`). `schedule` reorders a program so that as many products as its dependencies
allow run in pairs, and emits each pair as MMQ (the queued product) followed by the STARTMMI/MMX
that runs it.

The unit runs one command at a time, so reordering changes the cycle count only through the pairs:
every pair saves the same cycles. The pass is a list scheduler over the program's dependency graph
in which a product (or a pair) takes one step and every other command none: ready non-products
are issued at once, in program order; then the ready product with the longest chain of products
still behind it (the critical path) is issued, with the ready product of next-longest chain that
may pair with it. Every resource an instruction reads or writes — registers, flags, the window
register X, the modulus register — orders it after earlier writers (RAW, WAW) and readers (WAR)
of the same resource; an instruction not modelled here exactly is a barrier nothing moves across.
No schedule pairs more than P − C products of a segment with P products of which C lie on one
dependency path; on the EC programs this one reaches that bound (or misses it by one).

The pass sees the command list only, never a value, so a program that is the same for every
secret scalar stays the same (hence in constant time) after pairing.
"""

from __future__ import annotations

import functools
import heapq
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from montu.config import UnitConfig
from montu.driver import R_MOD, Unit
from montu.isa import decode_slots, encode, load

Command = tuple[int, int]
Resource = int | str       # a register number, or "C", "EQ", "LT", "NEG" (flags), "X" (window)
PRODUCTS = ("STARTMMI", "MMX")      # what MMQ pairs with; MMX can only run a pair, not be queued
_FLAG_NAMES = {flag.bit: flag.name for flag in load().flags}
_WINDOW = "X"


@dataclass(frozen=True)
class _Semantics:
    """Which slots an instruction reads and writes (from the simulator's `_op_*`), and which
    flags it sets."""

    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    modular: bool = False       # reads the modulus register (it lists E_NO_MODULUS)


_SEMANTICS: dict[str, _Semantics] = {
    "STARTMMI": _Semantics(reads=("ra", "rb"), writes=("rd",), modular=True),
    "MMX": _Semantics(reads=("ra",), writes=("rd",), modular=True),   # + its table and X
    "MADD": _Semantics(reads=("ra", "rb"), writes=("rd",), modular=True),
    "MSUB": _Semantics(reads=("ra", "rb"), writes=("rd",), modular=True),
    "MLIN": _Semantics(reads=("ra", "rb"), writes=("rd",), modular=True),
    "MDBL": _Semantics(reads=("ra",), writes=("rd",), modular=True),
    "ADD": _Semantics(reads=("ra", "rb"), writes=("rd",), flags=("C",)),
    "SUB": _Semantics(reads=("ra", "rb"), writes=("rd",), flags=("C",)),
    "SADD": _Semantics(reads=("ra", "rb"), writes=("rd",), flags=("C", "NEG")),
    "SSUB": _Semantics(reads=("ra", "rb"), writes=("rd",), flags=("C", "NEG")),
    "SHL1": _Semantics(reads=("ra",), writes=("rd",), flags=("C",)),
    "SHR1": _Semantics(reads=("ra",), writes=("rd",), flags=("C",)),
    "SHLW": _Semantics(reads=("ra",), writes=("rd",)),
    "SHRW": _Semantics(reads=("ra",), writes=("rd",)),
    "SHLX": _Semantics(reads=("ra",), writes=("rd",)),                  # + writes X
    "MOV": _Semantics(reads=("ra",), writes=("rd",)),
    "LDZ": _Semantics(writes=("rd",)),
    "LDONE": _Semantics(writes=("rd",)),
    "CSWAP": _Semantics(reads=("ra", "rb"), writes=("ra", "rb")),       # + reads flag imm[1:0]
    # CMP sets EQ and LT; it also "reads" C and NEG, which its response reports: so the flags of
    # a CMP's response are exactly the original program's.
    "CMP": _Semantics(reads=("ra", "rb"), flags=("EQ", "LT")),
}
_REPORTED_BY_CMP = ("C", "NEG")
_WINDOW_RULE = load().imm_rule["window"]


@dataclass(frozen=True)
class Effects:
    """What one command reads and writes; `barrier`: not modelled, nothing moves across it."""

    name: str
    reads: frozenset[Resource] = frozenset()
    writes: frozenset[Resource] = frozenset()
    barrier: bool = False

    @property
    def is_product(self) -> bool:
        return self.name in PRODUCTS and not self.barrier


def effects(insn: int, modulus_registers: frozenset[int] = frozenset({R_MOD})) -> Effects:
    """The resources command `insn` reads and writes. A modular instruction reads the modulus
    register(s); MMX reads X and its whole table R[rb] .. R[rb + 2^imm − 1]."""
    slots = decode_slots(insn)
    ins = load().by_opcode.get(slots["op"])
    if ins is None or ins.name not in _SEMANTICS:
        return Effects(name=ins.name if ins else "?", barrier=True)
    semantics = _SEMANTICS[ins.name]
    reads: set[Resource] = {slots[s] for s in semantics.reads}
    writes: set[Resource] = {slots[s] for s in semantics.writes} | set(semantics.flags)
    if semantics.modular:
        reads |= modulus_registers
    if ins.name == "MMX":
        if not _WINDOW_RULE.accepts(slots["imm"]):
            return Effects(name=ins.name, barrier=True)      # refused by the unit: keep in place
        reads |= set(range(slots["rb"], slots["rb"] + (1 << slots["imm"]))) | {_WINDOW}
    elif ins.name == "SHLX":
        if not _WINDOW_RULE.accepts(slots["imm"]):
            return Effects(name=ins.name, barrier=True)
        writes.add(_WINDOW)
    elif ins.name == "CSWAP":
        reads.add(_FLAG_NAMES[slots["imm"] & 3])
    elif ins.name == "CMP":
        reads |= set(_REPORTED_BY_CMP)
    return Effects(name=ins.name, reads=frozenset(reads), writes=frozenset(writes))


def _registers(resources: frozenset[Resource]) -> set[int]:
    return {r for r in resources if isinstance(r, int)}


def may_pair(queued: Effects, runner: Effects,
             modulus_registers: frozenset[int] = frozenset({R_MOD})) -> bool:
    """Whether the unit runs `queued` (MMQ) with `runner` (STARTMMI/MMX) without E_BAD_PAIR:
    queued is a plain product, neither writes a register the other reads or writes, neither
    writes the modulus register."""
    if queued.name != "STARTMMI" or not runner.is_product or queued.barrier:
        return False
    q_writes, r_writes = _registers(queued.writes), _registers(runner.writes)
    q_uses, r_uses = q_writes | _registers(queued.reads), r_writes | _registers(runner.reads)
    return not (q_writes & r_uses or r_writes & q_uses or (q_writes | r_writes) & modulus_registers)


@dataclass(frozen=True)
class PairedProgram:
    """A program after pairing. `positions[i]`: the index in `commands` whose response stands for
    command i of the original program (for a queued product, the instruction that ran its pair).
    Flags in a response are exactly the original program's at a barrier (CMP, RMMI, …) and after
    the last command; register contents are the same after the whole program."""

    commands: tuple[Command, ...]
    positions: tuple[int, ...]
    pairs: int


def pair_products(commands: Sequence[Command]) -> list[Command]:
    """`commands` reordered with independent products paired by MMQ (see `schedule`)."""
    return list(schedule(commands).commands)


def schedule(commands: Sequence[Command]) -> PairedProgram:
    """Pair the program's independent products (the module's doc says how). Deterministic: the
    result depends on the command words only. A program that already uses MMQ is left as it is."""
    commands = tuple(commands)
    mmq = load().by_name["MMQ"].opcode
    if any(decode_slots(insn)["op"] == mmq for insn, _ in commands):
        return PairedProgram(commands, tuple(range(len(commands))), 0)
    setmod = load().by_name["SETMOD"].opcode
    modulus = frozenset({R_MOD} | {decode_slots(insn)["ra"] for insn, _ in commands
                                   if decode_slots(insn)["op"] == setmod})
    fx = [effects(insn, modulus) for insn, _ in commands]
    out: list[Command] = []
    positions = [0] * len(commands)
    pairs = 0
    start = 0
    for end in [i for i, e in enumerate(fx) if e.barrier] + [len(commands)]:
        pairs += _schedule_segment(commands, fx, range(start, end), modulus, out, positions)
        if end < len(commands):
            positions[end] = len(out)
            out.append(commands[end])
        start = end + 1
    return PairedProgram(tuple(out), tuple(positions), pairs)


def _dependencies(fx: list[Effects], segment: range) -> list[list[int]]:
    """Successors of each command of `segment` (indices into the segment), on every resource:
    RAW (a reader after the write it reads), WAR (a writer after the readers of the value it
    replaces) and WAW (a writer before the write that others read or that is left at the end).
    Writes that nothing reads before the next write (e.g. the C flag of every ADD) keep only the
    last of them in place: the earlier ones may move among themselves."""
    preds: list[set[int]] = [set() for _ in segment]
    read_value: dict[Resource, int] = {}        # the write the latest readers read
    readers: dict[Resource, list[int]] = {}     # readers of that value (of the start if none)
    unread: dict[Resource, list[int]] = {}      # writes since the latest read, in program order

    def close(resource: Resource) -> None:
        """The latest of the unread writes is the one read: the others go before it."""
        writes = unread.pop(resource, [])
        if writes:
            for w in writes[:-1]:
                preds[writes[-1]].add(w)
            read_value[resource] = writes[-1]
            readers[resource] = []

    for v, e in enumerate(fx[i] for i in segment):
        for r in e.reads:
            close(r)
            if r in read_value:
                preds[v].add(read_value[r])
            readers.setdefault(r, []).append(v)
        for w in e.writes:
            preds[v].update(readers.get(w, ()))
            unread.setdefault(w, []).append(v)
    for resource in list(unread):       # the end of the segment reads every resource
        close(resource)
    succs: list[list[int]] = [[] for _ in segment]
    for v, before in enumerate(preds):
        before.discard(v)
        for u in sorted(before):
            succs[u].append(v)
    return succs


def _schedule_segment(commands: tuple[Command, ...], fx: list[Effects], segment: range,
                      modulus: frozenset[int], out: list[Command], positions: list[int]) -> int:
    """List-schedule one barrier-free segment into `out`; returns the number of pairs."""
    base = segment.start
    local = [fx[i] for i in segment]
    succs = _dependencies(fx, segment)
    count = len(local)
    # Priority of a product: products on the longest path from it to the end (itself included),
    # then commands on that path, then program order.
    chain = [0] * count
    length = [0] * count
    for v in range(count - 1, -1, -1):
        chain[v] = int(local[v].is_product) + max((chain[s] for s in succs[v]), default=0)
        length[v] = 1 + max((length[s] for s in succs[v]), default=0)
    waiting = [0] * count
    for v in range(count):
        for s in succs[v]:
            waiting[s] += 1
    ready_plain: list[int] = []                        # by program order
    ready_products: list[tuple[int, int, int]] = []    # by (−chain, −length, program order)

    def release(v: int) -> None:
        if local[v].is_product:
            heapq.heappush(ready_products, (-chain[v], -length[v], v))
        else:
            heapq.heappush(ready_plain, v)

    def done(v: int) -> None:
        for s in succs[v]:
            waiting[s] -= 1
            if not waiting[s]:
                release(s)

    for v in range(count):
        if not waiting[v]:
            release(v)
    pairs, first_out = 0, len(out)
    while ready_plain or ready_products:
        while ready_plain:
            v = heapq.heappop(ready_plain)
            positions[base + v] = len(out)
            out.append(commands[base + v])
            done(v)
        if not ready_products:
            continue
        first = heapq.heappop(ready_products)[2]
        partner, skipped = None, []
        while ready_products and partner is None:
            entry = heapq.heappop(ready_products)
            if _pair_order(local, first, entry[2], modulus) is not None:
                partner = entry[2]
            else:
                skipped.append(entry)
        for entry in skipped:
            heapq.heappush(ready_products, entry)
        if partner is None:
            positions[base + first] = len(out)
            out.append(commands[base + first])
            done(first)
            continue
        queued, runner = _pair_order(local, first, partner, modulus)
        q = decode_slots(commands[base + queued][0])
        out.append((encode("MMQ", rd=q["rd"], ra=q["ra"], rb=q["rb"]), 0))
        positions[base + queued] = positions[base + runner] = len(out)
        out.append(commands[base + runner])
        pairs += 1
        done(first)
        done(partner)
    if len(out) - first_out != count:   # each command once (a queued one as its MMQ)
        raise AssertionError("pairing: a dependency cycle left commands unscheduled")
    return pairs


def _pair_order(local: list[Effects], a: int, b: int,
                modulus: frozenset[int]) -> tuple[int, int] | None:
    """(queued, runner) for products a and b, the earlier one queued unless it is an MMX; None
    if they may not pair."""
    first, second = (a, b) if a < b else (b, a)
    for queued, runner in ((first, second), (second, first)):
        if may_pair(local[queued], local[runner], modulus):
            return queued, runner
    return None


# --------------------------------------------------------------------------- where to use it

@functools.lru_cache(maxsize=None)
def pairing_pays(config: UnitConfig, k: int, gf2m: int = 0) -> bool:
    """Whether MMQ + a paired product takes fewer cycles than two products on a unit of
    `config` at length k (L = 64k bits) in the field `gf2m` — the ISA table's formulas."""
    isa = load()
    variables = config.variables(k=k, gf2m=gf2m)
    product = isa.by_name["STARTMMI"]
    alone = product.cycle_count(engine=config.engine, paired=0, **variables)
    paired = product.cycle_count(engine=config.engine, paired=1, **variables)
    queue = isa.by_name["MMQ"].cycle_count(engine=config.engine, **variables)
    return paired + queue < 2 * alone


_UNPAIRED_UNITS: weakref.WeakSet[Unit] = weakref.WeakSet()


def set_pairing(unit: Unit, enabled: bool) -> None:
    """Let the EC layer pair products on `unit` (the default) or not (to compare)."""
    if enabled:
        _UNPAIRED_UNITS.discard(unit)
    else:
        _UNPAIRED_UNITS.add(unit)


def pairs_on(unit: Unit, k: int, gf2m: int) -> bool:
    """Whether the EC layer pairs products on `unit` at length k in field `gf2m`."""
    return unit not in _UNPAIRED_UNITS and pairing_pays(unit.config, k, gf2m)


@functools.lru_cache(maxsize=64)
def scheduled(commands: tuple[Command, ...]) -> PairedProgram:
    """`schedule`, cached: each program of a curve is scheduled once, not once per scalar."""
    return schedule(commands)
