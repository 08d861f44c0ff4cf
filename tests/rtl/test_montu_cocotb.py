"""Runs the cocotb benches of tests/rtl/montu_tb.py on Verilator builds of montu_top.

Each configuration is built once (sim_build under tests/rtl/build/) and all benches run on it;
the default set keeps `python3 -m pytest tests/rtl` within a few minutes on 2 cores (cold builds
included). Opt-in sweeps, by environment variable:
  MONTU_RTL_ALL=1    also the EXTRA configurations
  MONTU_STREAM=n     n commands in test_random_stream (default 400)
  MONTU_SEED=s       another seed for every bench's operands
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
SOURCES = ["montu_pkg.sv", "montu_top_assert.sv", "montu_lane_pkg.sv", "montu_stage_reg.sv", "montu_ram_1r1w.sv", "montu_regfile.sv", "montu_mac.sv",
           "montu_qunit.sv", "montu_mac_pipe.sv", "montu_qunit_pipe.sv", "montu_mac_lane.sv", "montu_qunit_lane.sv", "montu_mont.sv", "montu_wordop.sv", "montu_inv_ram.sv", "montu_hensel.sv",
           "montu_inv_lanes_single.sv", "montu_inv_lanes_pipe.sv", "montu_inv_lanes.sv", "montu_inv.sv",
           "montu_top.sv"]

CONFIGS = {
    "w64_l2_4096_r32": {"Word": 64, "Lanes": 2, "MaxBits": 4096, "NumRegs": 32},
    "w32_l1_1024_r16": {"Word": 32, "Lanes": 1, "MaxBits": 1024, "NumRegs": 16},
    "w32_l2_576_r20": {"Word": 32, "Lanes": 2, "MaxBits": 576, "NumRegs": 20},
    "w64_l4_1024_r16": {"Word": 64, "Lanes": 4, "MaxBits": 1024, "NumRegs": 16},
    "w32_l4_576_r16": {"Word": 32, "Lanes": 4, "MaxBits": 576, "NumRegs": 16},
    # pipelined MAC lanes (the high-clock build)
    "w64_l2_4096_r32_pipelined": {"Word": 64, "Lanes": 2, "MaxBits": 4096, "NumRegs": 32, "Pipelined": 1},
    "w32_l4_576_r16_pipelined": {"Word": 32, "Lanes": 4, "MaxBits": 576, "NumRegs": 16, "Pipelined": 1},
}
# more configurations with MONTU_RTL_ALL=1
EXTRA = {
    "w64_l1_576_r16": {"Word": 64, "Lanes": 1, "MaxBits": 576, "NumRegs": 16},
    "w64_l4_4096_r32": {"Word": 64, "Lanes": 4, "MaxBits": 4096, "NumRegs": 32},
    "w64_l4_1024_r16_pipelined": {"Word": 64, "Lanes": 4, "MaxBits": 1024, "NumRegs": 16, "Pipelined": 1},
    "w32_l2_1024_r16_pipelined": {"Word": 32, "Lanes": 2, "MaxBits": 1024, "NumRegs": 16, "Pipelined": 1},
}
if os.environ.get("MONTU_RTL_ALL"):
    CONFIGS.update(EXTRA)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_montu_rtl(name: str) -> None:
    if importlib.util.find_spec("cocotb") is None:
        missing_tool("cocotb is not installed")
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    from cocotb_tools.runner import get_runner

    set_make_flags()
    cfg = CONFIGS[name]
    build_dir = HERE / "build" / name
    runner = get_runner("verilator")
    runner.build(
        sources=[RTL / "montu_lint.vlt"] + [RTL / s for s in SOURCES],
        hdl_toplevel="montu_top",
        parameters=cfg,
        build_dir=build_dir,
        build_args=["--assert", "--x-assign", "fast", "--x-initial", "unique"],
        always=False,
    )
    env = {"MONTU_CFG": json.dumps(cfg), "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(HERE)]),
           "MONTU_CYCLES_OUT": str(build_dir / "startmmi_cycles.json"),
           "MONTU_MINV_CYCLES_OUT": str(build_dir / "minv_cycles.json")}
    results = runner.test(hdl_toplevel="montu_top", test_module="montu_tb", build_dir=build_dir,
                          test_dir=build_dir, extra_env=env)
    from cocotb_tools.check_results import get_results
    total, failed = get_results(results)
    assert failed == 0, f"{failed} of {total} cocotb tests failed in {name} (see {build_dir})"
