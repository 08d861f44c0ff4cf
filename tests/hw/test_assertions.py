"""montu_top's assertions (hw/ip/montu/rtl/montu_top_assert.sv) are on in the Verilator builds the tests use,
stay quiet on a correct command stream, and each one fires when its rule is broken on purpose.

One build with MONTU_ASSERT_SELFTEST; each run breaks one rule by plusarg (see montu_top.sv). The
fourth rule, no X on the outputs, needs a 4-state simulator to fire (Verilator has no X), so it is
not part of this test.
"""

from __future__ import annotations

import pytest

from montu.hw import UNIT_CORE
from verilator_env import BUILD_ROOT, run_cocotb

CONFIG = {"Word": 64, "Lanes": 2, "MaxBits": 256, "NumRegs": 16}


def _run(plusargs: list[str], name: str) -> tuple[int, str]:
    """Run the bench on the self-test build; (failed tests, the simulator's log)."""
    log = BUILD_ROOT / "assertions_selftest" / name / "sim.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    _, failed, _ = run_cocotb(UNIT_CORE, CONFIG, "assertions_selftest", "assertions_tb",
                              defines={"MONTU_ASSERT_SELFTEST": 1}, plusargs=plusargs,
                              run_name=name, log_file=log)
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
