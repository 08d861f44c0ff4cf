"""montu_top's assertions (rtl/montu_top_assert.sv) are on in the Verilator builds the tests use,
stay quiet on a correct command stream, and each one fires when its rule is broken on purpose.

One build with MONTU_ASSERT_SELFTEST; each run breaks one rule by plusarg (see montu_top.sv). The
fourth rule, no X on the outputs, needs a 4-state simulator to fire (Verilator has no X), so it is
not part of this test.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from verilator_env import missing_tool, set_make_flags, verilator_on_path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RTL = ROOT / "rtl"
CONFIG = {"Word": 64, "Lanes": 2, "MaxBits": 256, "NumRegs": 16}
BUILD = HERE / "build" / "assertions_selftest"


def _run(plusargs: list[str], name: str) -> tuple[int, str]:
    """Run the bench; (failed tests, the simulator's log)."""
    if importlib.util.find_spec("cocotb") is None:
        missing_tool("cocotb is not installed")
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    from cocotb_tools.check_results import get_results
    from cocotb_tools.runner import get_runner

    set_make_flags()
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(ROOT / "src"))
    runner = get_runner("verilator")
    sources = importlib.import_module("test_montu_cocotb").SOURCES
    runner.build(sources=[RTL / "montu_lint.vlt"] + [RTL / s for s in sources], hdl_toplevel="montu_top",
                 parameters=CONFIG, build_dir=BUILD, defines={"MONTU_ASSERT_SELFTEST": 1},
                 build_args=["--assert", "--x-assign", "fast", "--x-initial", "unique"], always=False)
    run_dir = BUILD / name
    run_dir.mkdir(parents=True, exist_ok=True)
    log = run_dir / "sim.log"
    try:
        results = runner.test(hdl_toplevel="montu_top", test_module="assertions_tb", build_dir=BUILD,
                              test_dir=run_dir, plusargs=plusargs, log_file=log,
                              extra_env={"PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(HERE)])})
        _, failed = get_results(results)
    except RuntimeError:            # the simulator stopped ($stop of a failed assertion)
        failed = 1
    return failed, log.read_text(errors="replace")


def test_no_assertion_fires_on_a_correct_command_stream() -> None:
    failed, log = _run([], "clean")
    assert failed == 0 and "Assertion failed" not in log, log[-3000:]


@pytest.mark.parametrize("plusarg, message", [
    ("+montu_break_one_response", "a response without an outstanding command"),
    ("+montu_break_rsp_stable", "a response changed or vanished before it was taken"),
    ("+montu_break_rf_exclusive", "two engines wrote the register file in one cycle"),
])
def test_each_assertion_fires_when_its_rule_is_broken(plusarg: str, message: str) -> None:
    failed, log = _run([plusarg], plusarg.strip("+"))
    assert failed >= 1 and message in log, log[-3000:]
