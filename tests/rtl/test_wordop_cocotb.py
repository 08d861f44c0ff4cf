"""Runs the cocotb benches of tests/rtl/wordop_tb.py on Verilator builds of rtl/montu_wordop.sv.

The engine is driven through its own ports; the bench plays montu_top's register file (three
synchronous read ports, one write port) and its flag and window registers. Each configuration is
built once (sim_build under tests/rtl/build/wordop_<name>/, cached: `always=False`) and every
bench runs on it. The source list is the engine's dependency closure in rtl/, found when the
test runs (packages first), so helper modules added to rtl/ are picked up without editing this
file.
Opt-in sweeps, by environment variable:
  MONTU_RTL_ALL=1     also the EXTRA configurations
  MONTU_WORDOP_MIX=n  n instructions in random_stream (default 400)
  MONTU_SEED=s        another seed for every bench's operands
(The word instructions through montu_top: test_montu_cocotb.py.)
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import pytest

from verilator_env import missing_tool, set_make_flags, verilator_on_path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RTL = ROOT / "rtl"
TOP = "montu_wordop"

# Word 64 and 32, Pipelined 0 and 1; MaxWords = MaxBits / Word of a unit montu_top can be built
# as (4096 and 576 bits).
CONFIGS = {
    "w64_mw64": {"Word": 64, "MaxWords": 64},
    "w32_mw18": {"Word": 32, "MaxWords": 18},
    "w64_mw9_pipelined": {"Word": 64, "MaxWords": 9, "Pipelined": 1},
    "w32_mw128_pipelined": {"Word": 32, "MaxWords": 128, "Pipelined": 1},
}
# more configurations with MONTU_RTL_ALL=1
EXTRA = {
    "w64_mw1": {"Word": 64, "MaxWords": 1},
    "w32_mw2_pipelined": {"Word": 32, "MaxWords": 2, "Pipelined": 1},
    "w64_mw16_pipelined": {"Word": 64, "MaxWords": 16, "Pipelined": 1},
    "w32_mw128": {"Word": 32, "MaxWords": 128},
}
if os.environ.get("MONTU_RTL_ALL"):
    CONFIGS.update(EXTRA)


def rtl_sources(top: str) -> list[Path]:
    """rtl/<top>.sv and every rtl/ file it needs (instantiated modules, imported or referenced
    packages), dependencies first, packages before everything else."""
    order: list[str] = []

    def visit(name: str, seen: set[str]) -> None:
        if name in seen:
            return
        seen.add(name)
        text = (RTL / f"{name}.sv").read_text()
        text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)   # comments out
        used = re.findall(r"\b(montu_\w+)\s*::", text)                 # packages
        used += re.findall(r"\b(montu_\w+)\s+(?:#|\w+\s*\()", text)    # instances
        for dep in used:
            if dep != name and (RTL / f"{dep}.sv").is_file():
                visit(dep, seen)
        order.append(name)

    visit(top, set())
    is_pkg = {n: re.search(r"^\s*package\b", (RTL / f"{n}.sv").read_text(), re.M) is not None
              for n in order}
    return [RTL / f"{n}.sv" for n in order if is_pkg[n]] + \
           [RTL / f"{n}.sv" for n in order if not is_pkg[n]]


@pytest.mark.parametrize("name", list(CONFIGS))
def test_wordop_rtl(name: str) -> None:
    if importlib.util.find_spec("cocotb") is None:
        missing_tool("cocotb is not installed")
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    from cocotb_tools.check_results import get_results
    from cocotb_tools.runner import get_runner

    set_make_flags()
    cfg = CONFIGS[name]
    build_dir = HERE / "build" / f"wordop_{name}"
    runner = get_runner("verilator")
    runner.build(
        sources=[RTL / "montu_lint.vlt"] + rtl_sources(TOP),
        hdl_toplevel=TOP,
        parameters=cfg,
        build_dir=build_dir,
        build_args=["--x-assign", "fast", "--x-initial", "unique"],
        always=False,
    )
    # The runner hands the simulator this process's sys.path as PYTHONPATH.
    for path in (str(ROOT / "src"), str(HERE)):
        if path not in sys.path:
            sys.path.insert(0, path)
    env = {"MONTU_WORDOP_CFG": json.dumps(cfg)}
    results = runner.test(hdl_toplevel=TOP, test_module="wordop_tb", build_dir=build_dir,
                          test_dir=build_dir, extra_env=env)
    total, failed = get_results(results)
    assert total >= 4 and failed == 0, \
        f"{failed} of {total} cocotb tests failed in {name} (see {build_dir})"
