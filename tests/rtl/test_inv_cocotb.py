"""Runs the cocotb benches of tests/rtl/inv_tb.py on Verilator builds of rtl/montu_inv.sv.

Each configuration is built once (sim_build under tests/rtl/build/inv_<name>/) and all benches
run on it. The engine is self-contained: it needs only montu_inv.sv and montu_inv_ram.sv.
Opt-in sweeps, by environment variable: MONTU_INV_MIX=n short random inversions in random_mix
(default 300), MONTU_SEED=s another seed. (MINV through montu_top: test_montu_cocotb.py.)
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

from verilator_env import missing_tool, set_make_flags, verilator_on_path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RTL = ROOT / "rtl"
SOURCES = ["montu_lane_pkg.sv", "montu_stage_reg.sv", "montu_inv_ram.sv", "montu_hensel.sv", "montu_mac.sv", "montu_qunit.sv",
           "montu_mac_pipe.sv", "montu_qunit_pipe.sv", "montu_mac_lane.sv", "montu_qunit_lane.sv",
           "montu_inv_lanes_single.sv", "montu_inv_lanes_pipe.sv", "montu_inv_lanes.sv", "montu_inv.sv"]

CONFIGS = {
    "w64_mw32": {"Word": 64, "MaxWords": 32},
    "w32_mw40": {"Word": 32, "MaxWords": 40},
    # the high-clock build: S1 in two cycles, pipelined m product and lanes
    "w64_mw32_pipelined": {"Word": 64, "MaxWords": 32, "Pipelined": 1},
    "w32_mw40_pipelined": {"Word": 32, "MaxWords": 40, "Pipelined": 1},
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_inv_rtl(name: str) -> None:
    if importlib.util.find_spec("cocotb") is None:
        missing_tool("cocotb is not installed")
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    from cocotb_tools.check_results import get_results
    from cocotb_tools.runner import get_runner

    set_make_flags()
    cfg = CONFIGS[name]
    build_dir = HERE / "build" / f"inv_{name}"
    runner = get_runner("verilator")
    runner.build(
        sources=[RTL / s for s in SOURCES],
        hdl_toplevel="montu_inv",
        parameters=cfg,
        build_dir=build_dir,
        build_args=["-Wall", "-O3", "--x-assign", "fast", "--x-initial", "fast"],
        always=False,
    )
    # The runner hands the simulator this process's sys.path as PYTHONPATH.
    for path in (str(ROOT / "src"), str(HERE)):
        if path not in sys.path:
            sys.path.insert(0, path)
    env = {"MONTU_INV_CFG": json.dumps(cfg), "MONTU_INV_CYCLES_OUT": str(build_dir / "cycles")}
    results = runner.test(hdl_toplevel="montu_inv", test_module="inv_tb", build_dir=build_dir,
                          test_dir=build_dir, extra_env=env)
    total, failed = get_results(results)
    assert total >= 6 and failed == 0, f"{failed} of {total} cocotb tests failed in {name} (see {build_dir})"


@pytest.mark.parametrize("pipelined", [0, 1])
@pytest.mark.parametrize("word,max_words", [(64, 64), (64, 16), (32, 64), (32, 16), (32, 40), (64, 1)])
def test_inv_lint(word: int, max_words: int, pipelined: int) -> None:
    """verilator --lint-only -Wall is clean (no waivers) for the engine's configurations."""
    import subprocess
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    cmd = ["verilator", "--lint-only", "-Wall", f"-GWord={word}", f"-GMaxWords={max_words}",
           f"-GPipelined={pipelined}",
           "--top-module", "montu_inv"] + [str(RTL / s) for s in SOURCES]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_inv_bad_word_rejected() -> None:
    import subprocess
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    res = subprocess.run(["verilator", "--lint-only", "-GWord=24", "--top-module", "montu_inv"]
                         + [str(RTL / s) for s in SOURCES], capture_output=True, text=True)
    assert res.returncode != 0 and "Word must be a power of two" in res.stdout + res.stderr
