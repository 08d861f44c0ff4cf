"""Where a placed design asks for the most wire, and which RTL asks for it (RUDY).

nextpnr's router reports how many wires are overused, not where, and a route that does not
converge (the antao and verma engines, the whole unit on some seeds) leaves no routed design to
look at. This reads the design nextpnr wrote after placement (`nextpnr-ecp5 --no-route --write`)
and estimates the routing demand of every tile with RUDY (Spindler & Johannes, "Fast and
accurate routing demand estimation for efficient routability-driven placement", DATE 2007): a
net whose pins span a w x h box of tiles asks for (w + h) / (w * h) wire per tile of that box,
its half-perimeter spread evenly. The sum over nets is a map; its hot spots are where a router
fights, and the nets behind a hot spot, grouped by the RTL line of their driver (the `src`
attribute, which `montu synth --congestion` keeps), say what to change.

It is an estimate from the placement (no routing resources, no track counts): it ranks regions
and RTL lines against each other; it is not a routability verdict.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from montu.synth.depth import short_source

_BEL = re.compile(r"X(\d+)/Y(\d+)/")
# nets no router routes through the fabric's general wires
_IGNORED_DRIVER_PORTS = frozenset({"COUT", "FCO"})        # carry chains: dedicated wires


class CongestionError(Exception):
    """The file is not a placed nextpnr design."""


@dataclass
class Net:
    name: str
    source: str                       # the RTL file:line of its driver ("" when none is kept)
    tiles: list[tuple[int, int]]      # its cells' tiles, driver first


@dataclass
class Hotspot:
    x: int
    y: int
    demand: float                     # summed RUDY of the window around (x, y)
    by_source: dict[str, float] = field(default_factory=dict)


def read_placed(data: dict) -> list[Net]:
    """The multi-tile nets of a placed design (its top module), with their cells' tiles."""
    modules = data.get("modules")
    if not isinstance(modules, dict) or not modules:
        raise CongestionError("no modules: not a nextpnr/Yosys JSON design")
    module = max(modules.values(), key=lambda m: len(m.get("cells") or {}))
    cells = module.get("cells") or {}
    tile_of: dict[str, tuple[int, int]] = {}
    for name, cell in cells.items():
        bel = str((cell.get("attributes") or {}).get("NEXTPNR_BEL", ""))
        found = _BEL.match(bel)
        if found:
            tile_of[name] = (int(found.group(1)), int(found.group(2)))
    if not tile_of:
        raise CongestionError("no cell has a NEXTPNR_BEL: write the design after placement "
                              "(nextpnr-ecp5 --no-route --write placed.json)")
    drivers: dict[int, tuple[str, str]] = {}
    sinks: dict[int, list[str]] = defaultdict(list)
    for name, cell in cells.items():
        directions = cell.get("port_directions") or {}
        for port, bits in (cell.get("connections") or {}).items():
            for bit in bits:
                if not isinstance(bit, int):
                    continue
                if directions.get(port) == "output":
                    drivers[bit] = (name, port)
                else:
                    sinks[bit].append(name)
    names: dict[int, str] = {}
    for name, net in (module.get("netnames") or {}).items():
        for bit in net.get("bits", []):
            if isinstance(bit, int) and bit not in names:
                names[bit] = name
    nets = []
    for bit, (driver, port) in drivers.items():
        if port in _IGNORED_DRIVER_PORTS or driver not in tile_of:
            continue
        tiles = [tile_of[driver]] + [tile_of[s] for s in sinks.get(bit, []) if s in tile_of]
        if len(set(tiles)) < 2:
            continue                  # stays in its tile: local wires only
        src = str((cells[driver].get("attributes") or {}).get("src", ""))
        nets.append(Net(names.get(bit, f"${bit}"), short_source(src), tiles))
    return nets


def rudy(nets: list[Net]) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], dict[str, float]]]:
    """The demand map: tile -> summed (w + h) / (w * h) of the nets whose box covers it, and per
    tile the demand by RTL source line."""
    demand: dict[tuple[int, int], float] = defaultdict(float)
    by_source: dict[tuple[int, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for net in nets:
        xs = [x for x, _ in net.tiles]
        ys = [y for _, y in net.tiles]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        w, h = x1 - x0 + 1, y1 - y0 + 1
        density = (w + h) / (w * h)
        key = net.source or "(no RTL line: a synthesis library cell, or src not kept)"
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                demand[(x, y)] += density
                by_source[(x, y)][key] += density
    return demand, by_source


def hotspots(demand: dict[tuple[int, int], float],
             by_source: dict[tuple[int, int], dict[str, float]],
             count: int = 5, radius: int = 2) -> list[Hotspot]:
    """The `count` hottest (2·radius+1)² windows, no two overlapping, hottest first."""
    def window(cx: int, cy: int) -> float:
        return sum(demand.get((x, y), 0.0) for x in range(cx - radius, cx + radius + 1)
                   for y in range(cy - radius, cy + radius + 1))

    ranked = sorted(((window(x, y), x, y) for (x, y) in demand), reverse=True)
    chosen: list[Hotspot] = []
    for total, x, y in ranked:
        if len(chosen) == count:
            break
        if any(abs(x - h.x) <= 2 * radius and abs(y - h.y) <= 2 * radius for h in chosen):
            continue
        spot = Hotspot(x, y, total)
        sums: dict[str, float] = defaultdict(float)
        for tx in range(x - radius, x + radius + 1):
            for ty in range(y - radius, y + radius + 1):
                for src, d in by_source.get((tx, ty), {}).items():
                    sums[src] += d
        spot.by_source = dict(sorted(sums.items(), key=lambda kv: -kv[1]))
        chosen.append(spot)
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m montu.synth.congestion",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("placed", type=Path,
                        help="a placed design: nextpnr-ecp5 ... --no-route --write placed.json")
    parser.add_argument("--spots", type=int, default=5, help="hot spots to list (default 5)")
    parser.add_argument("--lines", type=int, default=8,
                        help="RTL lines to list per hot spot (default 8)")
    args = parser.parse_args(argv)
    try:
        nets = read_placed(json.loads(args.placed.read_text()))
    except (OSError, ValueError) as exc:
        print(f"montu: error: cannot read {args.placed}: {exc}", file=sys.stderr)
        return 1
    except CongestionError as exc:
        print(f"montu: error: {args.placed}: {exc}", file=sys.stderr)
        return 1
    demand, by_source = rudy(nets)
    values = sorted(demand.values())
    median = values[len(values) // 2] if values else 0.0
    print(f"{len(nets):,} nets over {len(demand):,} tiles; RUDY per tile: median {median:.1f}, "
          f"max {values[-1] if values else 0.0:.1f} (an estimate from the placement: ranks "
          "regions, is no routability verdict)")
    for spot in hotspots(demand, by_source, args.spots):
        share = sum(spot.by_source.values()) or 1.0
        print(f"hot spot around X{spot.x}/Y{spot.y}: demand {spot.demand:.0f} in 5x5 tiles "
              f"({spot.demand / 25 / (median or 1.0):.1f}x the median tile)")
        for src, d in list(spot.by_source.items())[:args.lines]:
            print(f"  {100 * d / share:5.1f} %  {src}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
