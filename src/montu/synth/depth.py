"""Logic depth of a mapped ECP5 netlist: every register input ranked by the logic in front of it.

nextpnr's report names one worst path per clock, and a whole-unit place and route takes an hour:
closing timing one path per run is too slow. This reads the netlist `synth_ecp5` writes for a run
(build/synth/<config>/montu_top.json, before nextpnr) and, for every timing endpoint — a
flip-flop's data, clock-enable or set/reset input, a block RAM's or a LUT RAM's write side, a
registered multiplier's input, an output port — finds the longest chain of logic from a timing
start (a flip-flop, a block RAM read, a LUT RAM cell, an input port). It counts LUT levels and
estimates the delay with a coarse model of speed grade 6 (`DELAYS`, routing `net_delay`) that
ranks endpoints; it is no substitute for nextpnr's post-route figure, and it says so in its output.
Endpoints are grouped by the register they belong to (the public net name on the flip-flop's Q,
bit index dropped), so a 64-bit register behind one slow enable is one line.

    python3 -m montu.synth.depth build/synth/w64_l2_b4096_r32_pipelined/montu_top.json
    python3 -m montu.synth.depth NETLIST --top 40 --period 10 --path   # and each group's path
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from montu.errors import MontuError

# Coarse cell delays in ns (ECP5 speed grade 6, rounded from nextpnr's timing database): a LUT4,
# the wide-function muxes, the carry chain (entry, per CCU2C, exit to a sum) and the hard blocks.
DELAYS = {
    "LUT4": 0.45,
    "PFUMX": 0.25,
    "L6MUX21": 0.25,
    "CCU2C_IN_COUT": 0.45,    # A/B/C/D -> COUT
    "CCU2C_CIN_COUT": 0.06,   # through one CCU2C (two bits) on the chain
    "CCU2C_TO_S": 0.40,       # A/B/C/D or CIN -> S0/S1
    "MULT18X18D": 4.0,        # unregistered multiply, inputs to outputs
    "ALU54B": 2.0,
    "DPR16X4_READ": 0.6,      # LUT RAM: read address -> data
    "FF_CLK_Q": 0.45,
    "DP16KD_CLK_Q": 4.0,      # block RAM read without its output register
    "DP16KD_CLK_Q_OUTREG": 1.0,
    "SETUP": 0.2,
}
ROUTE_BASE = 0.85             # one routed net, ns (nextpnr's routed nets average about this)
ROUTE_PER_FANOUT_DOUBLING = 0.2


class DepthError(MontuError):
    """The netlist cannot be read or is not a flat synth_ecp5 netlist."""


def net_delay(fanout: int) -> float:
    """Estimated routing delay of a net driving `fanout` cell inputs."""
    return ROUTE_BASE + ROUTE_PER_FANOUT_DOUBLING * math.log2(max(fanout, 1))


@dataclass
class Arrival:
    ns: float = 0.0
    levels: int = 0           # LUT4 levels (a wide mux counts with its LUTs)
    carry: int = 0            # CCU2C cells on the path
    prev: int | None = None   # the bit this one's latest input came from (for the path)


@dataclass
class Endpoint:
    group: str                # register (or cell) name and input kind
    bit: int                  # the net bit at the endpoint
    arrival: Arrival


@dataclass
class Group:
    name: str
    bits: int = 0
    worst: Endpoint | None = None


_CLOCK_PORT = re.compile(r"^(CLK|CLKA|CLKB|CLKR|CLKW|WCK|CLK\d)$")


class Netlist:
    """The top module of a Yosys JSON netlist as a bit-level timing graph."""

    def __init__(self, data: dict, top: str | None = None) -> None:
        modules = data.get("modules") or {}
        if not modules:
            raise DepthError("the JSON holds no modules (is it a Yosys write_json netlist?)")
        if top is None:
            tops = [n for n, m in modules.items() if int((m.get("attributes") or {}).get("top", 0) or 0)]
            top = tops[0] if tops else next(iter(modules))
        if top not in modules:
            raise DepthError(f"no module {top} in the netlist (it has {', '.join(sorted(modules)[:5])})")
        module = modules[top]
        self.cells: dict[str, dict] = module.get("cells") or {}
        self.names: dict[int, str] = {}
        for name, net in sorted((module.get("netnames") or {}).items(),
                                key=lambda kv: (int(kv[1].get("hide_name", 0)), len(kv[0]))):
            for index, bit in enumerate(net.get("bits") or []):
                if isinstance(bit, int) and bit not in self.names:
                    width = len(net["bits"])
                    self.names[bit] = f"{name}[{index}]" if width > 1 else name
        self.source: dict[int, str] = {}    # file:line of the RTL a net bit came from
        for net in (module.get("netnames") or {}).values():
            src = short_source(str((net.get("attributes") or {}).get("src", "")))
            if src:
                for bit in net.get("bits") or []:
                    if isinstance(bit, int):
                        self.source.setdefault(bit, src)
        self.ports: dict[str, dict] = module.get("ports") or {}
        self.fanout: dict[int, int] = defaultdict(int)
        self.driver_type: dict[int, str] = {}   # the type of the cell that drives a net bit
        self.driver_source: dict[int, str] = {}  # file:line of that cell ("" for none)
        for cell in self.cells.values():
            for port, bits in cell.get("connections", {}).items():
                direction = cell.get("port_directions", {}).get(port)
                for bit in bits:
                    if not isinstance(bit, int):
                        continue
                    if direction == "input":
                        self.fanout[bit] += 1
                    elif direction == "output":
                        self.driver_type.setdefault(bit, cell.get("type", "?"))
                        self.driver_source.setdefault(bit, short_source(
                            str((cell.get("attributes") or {}).get("src", ""))))

    def name(self, bit: int) -> str:
        return self.names.get(bit, f"${bit}")


def _is_comb_mult(cell: dict) -> bool:
    params = cell.get("parameters") or {}
    return all(str(params.get(p, "NONE")).strip('"') == "NONE"
               for p in ("REG_INPUTA_CLK", "REG_INPUTB_CLK", "REG_OUTPUT_CLK", "REG_PIPELINE_CLK"))


def _arcs(cell: dict) -> list[tuple[list[int | str], list[int | str], float, bool]]:
    """The combinational arcs of a cell: (input bits, output bits, delay, whether the inputs
    arrive over routed nets — not along a carry chain, CIN from the cell below)."""
    kind = cell["type"]
    conn = cell.get("connections", {})
    get = lambda *ports: [b for p in ports for b in conn.get(p, [])]   # noqa: E731
    if kind == "LUT4":
        return [(get("A", "B", "C", "D"), get("Z"), DELAYS["LUT4"], True)]
    if kind in ("PFUMX", "L6MUX21"):
        return [(get("ALUT", "BLUT", "C0", "D0", "D1", "SD"), get("Z"), DELAYS[kind], True)]
    if kind == "CCU2C":
        ins = get("A0", "B0", "C0", "D0", "A1", "B1", "C1", "D1")
        return [(ins, get("COUT"), DELAYS["CCU2C_IN_COUT"], True),
                (get("CIN"), get("COUT"), DELAYS["CCU2C_CIN_COUT"], False),
                (ins + get("CIN"), get("S0", "S1"), DELAYS["CCU2C_TO_S"], True)]
    if kind in ("MULT18X18D", "ALU54B") and _is_comb_mult(cell):
        dirs = cell.get("port_directions", {})
        ins = [b for p, bits in conn.items() if dirs.get(p) == "input" and not _CLOCK_PORT.match(p)
               for b in bits]
        outs = [b for p, bits in conn.items() if dirs.get(p) == "output" for b in bits]
        return [(ins, outs, DELAYS[kind], True)]
    if kind == "TRELLIS_DPR16X4":
        return [(get("RAD"), get("DO"), DELAYS["DPR16X4_READ"], True)]
    return []


def _starts(cell: dict) -> tuple[list[int | str], float]:
    """Outputs of a cell that start timing paths, with their clock-to-output delay."""
    kind = cell["type"]
    conn = cell.get("connections", {})
    if kind == "TRELLIS_FF":
        return conn.get("Q", []), DELAYS["FF_CLK_Q"]
    if kind in ("DP16KD", "PDPW16KD"):
        params = cell.get("parameters") or {}
        outreg = str(params.get("REGMODE_A", "NOREG")).strip('"') == "OUTREG"
        outs = [b for p, bits in conn.items() if p.startswith("DO") for b in bits]
        return outs, DELAYS["DP16KD_CLK_Q_OUTREG" if outreg else "DP16KD_CLK_Q"]
    if kind == "TRELLIS_DPR16X4":   # the stored word (its read address is an arc, above)
        return conn.get("DO", []), DELAYS["FF_CLK_Q"] + DELAYS["DPR16X4_READ"]
    if kind in ("MULT18X18D", "ALU54B") and not _is_comb_mult(cell):
        dirs = cell.get("port_directions", {})
        return [b for p, bits in conn.items() if dirs.get(p) == "output" for b in bits], DELAYS["FF_CLK_Q"]
    return [], 0.0


def _endpoints(cell: dict) -> list[tuple[str, list[int | str]]]:
    """(input kind, bits) of a cell's inputs that end timing paths."""
    kind = cell["type"]
    conn = cell.get("connections", {})
    dirs = cell.get("port_directions", {})
    if kind == "TRELLIS_FF":
        return [(p, conn.get(p, [])) for p in ("DI", "M", "CE", "LSR")]
    if kind in ("DP16KD", "PDPW16KD") or (kind in ("MULT18X18D", "ALU54B") and not _is_comb_mult(cell)):
        return [(re.sub(r"\d+$", "", p), bits) for p, bits in conn.items()
                if dirs.get(p) == "input" and not _CLOCK_PORT.match(p)]
    if kind == "TRELLIS_DPR16X4":
        return [(p, conn.get(p, [])) for p in ("DI", "WAD", "WRE")]
    return []


def analyse(net: Netlist) -> tuple[list[Endpoint], dict[int, Arrival]]:
    """Every endpoint bit with its latest arrival (ns from the clock edge, incl. setup), and the
    arrival of every bit (for `path_of`)."""
    arrival: dict[int, Arrival] = {}
    # per driven bit: (input bits, delay, routed inputs, LUT level, carry cell)
    driver_arcs: dict[int, list[tuple[list[int], float, bool, bool, bool]]] = defaultdict(list)
    for cell in net.cells.values():
        start_bits, clk_q = _starts(cell)
        for bit in start_bits:
            if isinstance(bit, int):
                arrival[bit] = Arrival(clk_q)
        is_lut, is_carry = cell["type"] == "LUT4", cell["type"] == "CCU2C"
        for ins, outs, delay, routed in _arcs(cell):
            in_bits = [b for b in ins if isinstance(b, int)]
            for out in outs:
                if isinstance(out, int):
                    driver_arcs[out].append((in_bits, delay, routed, is_lut, is_carry))
    for name, port in net.ports.items():
        if port.get("direction") == "input":
            for bit in port.get("bits", []):
                if isinstance(bit, int):
                    arrival.setdefault(bit, Arrival(0.0))

    # topological order of the driven bits by an explicit stack (carry chains are thousands of
    # cells deep); a combinational loop is cut where the walk meets a bit it is still inside
    inputs = {bit: [b for arc in arcs for b in arc[0]] for bit, arcs in driver_arcs.items()}
    order: list[int] = []
    state: dict[int, int] = {}
    for root in inputs:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(inputs[root]))]
        while stack:
            bit, pending = stack[-1]
            for b in pending:
                if b in inputs and b not in state:
                    state[b] = 1
                    stack.append((b, iter(inputs[b])))
                    break
            else:
                stack.pop()
                order.append(bit)
                state[bit] = 2
    for bit in order:
        best = arrival.get(bit, Arrival(0.0))
        for in_bits, delay, routed, is_lut, is_carry in driver_arcs[bit]:
            for b in in_bits:
                src = arrival.get(b)
                if src is None:
                    continue       # a constant, or the bit that closes a combinational loop
                ns = src.ns + delay + (net_delay(net.fanout.get(b, 1)) if routed else 0.0)
                if ns > best.ns:
                    best = Arrival(ns, src.levels + is_lut, src.carry + is_carry, b)
        arrival[bit] = best

    endpoints: list[Endpoint] = []
    for cell_name, cell in net.cells.items():
        for kind, bits in _endpoints(cell):
            for bit in bits:
                if not isinstance(bit, int) or bit not in arrival:
                    continue
                src = arrival[bit]
                at = Arrival(src.ns + net_delay(net.fanout.get(bit, 1)) + DELAYS["SETUP"],
                             src.levels, src.carry, bit)
                endpoints.append(Endpoint(_group_name(net, cell_name, cell, kind), bit, at))
    for name, port in net.ports.items():
        if port.get("direction") == "output":
            for bit in port.get("bits", []):
                if isinstance(bit, int) and bit in arrival:
                    endpoints.append(Endpoint(f"{name} (output)", bit, arrival[bit]))
    return endpoints, arrival


_INDEX = re.compile(r"\[\d+\]$")
# synth_ecp5's autoname: a net or cell with no name of its own is named after a neighbour plus the
# cell types and ports between them; such names say little
# (`x_q_LUT4_A_Z_TRELLIS_FF_DI`, `mem_q.0.0_DIA0`): the upper-case cell types and ports give it away
_AUTONAME = re.compile(r"_[A-Z][A-Z0-9]+(_|$)")


# the flow's `rename -enumerate` names of an engine build (`_123_`)
_ENUMERATED = re.compile(r"_\d+_")


def is_rtl_name(name: str) -> bool:
    """A name from the RTL (not made up by synth_ecp5's autoname or the flow's enumeration,
    not internal)."""
    return (not name.startswith("$") and not _AUTONAME.search(name)
            and not _ENUMERATED.fullmatch(name))


def short_source(src: str) -> str:
    """`dir/file.sv:771.3-771.40|…` -> `file.sv:771` ("" for none or a tool library's)."""
    first = src.split("|")[0]
    if not first or first.startswith("/"):
        return ""
    return re.sub(r"\.\d+(-\d+\.\d+)?$", "", first.rsplit("/", 1)[-1])


def _source(cell: dict) -> str:
    """file:line of the RTL a cell came from (the always_ff block of a flip-flop)."""
    return short_source(str((cell.get("attributes") or {}).get("src", ""))) or "?"


def _group_name(net: Netlist, cell_name: str, cell: dict, kind: str) -> str:
    if cell["type"] == "TRELLIS_FF":
        q = [b for b in cell.get("connections", {}).get("Q", []) if isinstance(b, int)]
        base = _INDEX.sub("", net.name(q[0])) if q else cell_name
        what = "D" if kind in ("DI", "M") else kind
        return f"{base} ({what})" if is_rtl_name(base) else f"a register of {_source(cell)} ({what})"
    base = _INDEX.sub("", cell_name)
    if not is_rtl_name(base):
        base = f"a {cell['type']} of {_source(cell)}"
    return f"{base} ({cell['type']} {kind})"


def groups(endpoints: Iterable[Endpoint]) -> list[Group]:
    by_name: dict[str, Group] = {}
    for ep in endpoints:
        g = by_name.setdefault(ep.group, Group(ep.group))
        g.bits += 1
        if g.worst is None or ep.arrival.ns > g.worst.arrival.ns:
            g.worst = ep
    return sorted(by_name.values(), key=lambda g: -g.worst.arrival.ns if g.worst else 0.0)


def path_of(net: Netlist, ep: Endpoint, arrivals: dict[int, Arrival]) -> list[int]:
    """The net bits of an endpoint's latest path, start first."""
    bits = []
    bit: int | None = ep.arrival.prev
    seen = set()
    while bit is not None and bit not in seen:
        seen.add(bit)
        bits.append(bit)
        bit = arrivals.get(bit, Arrival()).prev
    return list(reversed(bits))


def describe_path(net: Netlist, bits: list[int]) -> str:
    """A path as the RTL names and source lines it passes, consecutive repeats once; where
    synthesis kept neither (`rename -enumerate` builds, wide multiplexers), the type of the cell
    that drives the step, with a count (`LUT4 x3`), so the path's shape still shows."""
    labels: list[tuple[str, bool]] = []     # (text, from the RTL)
    for position, bit in enumerate(bits):
        name = _INDEX.sub("", net.name(bit))
        step = name if is_rtl_name(name) else net.source.get(bit, "")
        if not step and position == 0 and net.driver_source.get(bit):
            # an unnamed start: the register's always_ff block says where the path begins
            step = f"{net.driver_type.get(bit, '?')} of {net.driver_source[bit]}"
        label = (step, True) if step else (net.driver_type.get(bit, ""), False)
        if label[0]:
            labels.append(label)
    parts = []
    for (text, named), run in groupby(labels):
        count = len(list(run))
        parts.append(text if named or count == 1 else f"{text} x{count}")
    return " -> ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m montu.synth.depth", description=__doc__.split("\n\n")[0])
    parser.add_argument("netlist", type=Path, help="a synth_ecp5 JSON netlist (build/synth/<config>/montu_top.json)")
    parser.add_argument("--top", type=int, default=30, help="groups to list (default 30)")
    parser.add_argument("--period", type=float, default=10.0, help="target clock period in ns (default 10)")
    parser.add_argument("--path", action="store_true", help="print each listed group's path")
    args = parser.parse_args(argv)
    try:
        net = Netlist(json.loads(args.netlist.read_text()))
    except (OSError, ValueError) as exc:
        print(f"montu: error: cannot read {args.netlist}: {exc}", file=sys.stderr)
        return 1
    except DepthError as exc:
        print(f"montu: error: {exc}", file=sys.stderr)
        return 1
    eps, arrivals = analyse(net)
    grouped = groups(eps)
    failing = [g for g in grouped if g.worst and g.worst.arrival.ns > args.period]
    print(f"{len(eps):,} endpoint bits in {len(grouped):,} groups; estimated over {args.period:g} ns: "
          f"{sum(1 for e in eps if e.arrival.ns > args.period):,} bits in {len(failing):,} groups "
          "(coarse pre-placement model: ranks paths, is not an fmax)")
    print(f"{'est ns':>7} {'LUTs':>4} {'carry':>5} {'bits':>5} {'over':>5}  endpoint "
          "(worst bit of the group; over: bits estimated over the period)")
    over: dict[str, int] = defaultdict(int)
    for e in eps:
        over[e.group] += e.arrival.ns > args.period
    for g in grouped[:args.top]:
        a = g.worst.arrival
        print(f"{a.ns:7.2f} {a.levels:4d} {a.carry:5d} {g.bits:5d} {over[g.name]:5d}  {g.name}")
        if args.path:
            print("      path: " + describe_path(net, path_of(net, g.worst, arrivals)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
