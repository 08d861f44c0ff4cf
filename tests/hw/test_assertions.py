"""montu_top's assertions (hw/ip/montu/rtl/montu_top_assert.sv) are on in the Verilator builds the tests use,
stay quiet on a correct command stream, and each one fires when its rule is broken on purpose.

One build with MONTU_ASSERT_SELFTEST; each run breaks one rule by plusarg (see montu_top.sv). The
fourth rule, no X on the outputs, needs a 4-state simulator to fire (Verilator has no X); its
2-state counterpart is checked here instead: two runs whose every variable starts from a different
random value (+verilator+rand+reset+2 with two seeds) must show the host the same outputs in every
cycle after reset, and an output fed from a register without reset (+montu_break_known_outputs)
makes them differ.
"""

from __future__ import annotations

import json

import pytest

from montu.hw import UNIT_CORE
from verilator_env import BUILD_ROOT, run_cocotb

CONFIG = {"Word": 64, "Lanes": 2, "MaxBits": 256, "NumRegs": 16}


def _run(plusargs: list[str], name: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run the bench on the self-test build; (failed tests, the simulator's log)."""
    log = BUILD_ROOT / "assertions_selftest" / name / "sim.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    _, failed, _ = run_cocotb(UNIT_CORE, CONFIG, "assertions_selftest", "assertions_tb",
                              defines={"MONTU_ASSERT_SELFTEST": 1}, plusargs=plusargs,
                              run_name=name, log_file=log, env=env)
    return failed, log.read_text(errors="replace")


def _outputs(extra: list[str], seed: int, name: str) -> list[list[int]]:
    trace = BUILD_ROOT / "assertions_selftest" / f"{name}_{seed}.json"
    failed, log = _run([*extra, "+verilator+rand+reset+2", f"+verilator+seed+{seed}"],
                       f"{name}_{seed}", env={"MONTU_TRACE_OUT": str(trace)})
    assert failed == 0, log[-3000:]
    return json.loads(trace.read_text())


@pytest.mark.parametrize("extra, same", [([], True), (["+montu_break_known_outputs"], False)],
                         ids=["correct", "an-output-from-a-register-without-reset"])
def test_outputs_after_reset_do_not_depend_on_the_initial_state(extra: list[str], same: bool) -> None:
    first, second = (_outputs(extra, seed, "known" if same else "unknown") for seed in (11, 12))
    assert len(first) == len(second) > 20
    assert (first == second) is same


def test_no_assertion_fires_on_a_correct_command_stream() -> None:
    failed, log = _run([], "clean")
    assert failed == 0 and "Assertion failed" not in log, log[-3000:]


@pytest.mark.parametrize("plusarg, message", [
    ("+montu_break_one_response", "a response without an outstanding command"),
    ("+montu_break_rsp_stable", "a response changed or vanished before it was taken"),
    ("+montu_break_rf_exclusive", "two engines wrote the register file in one cycle"),
    ("+montu_break_table_entry", "ytab_q is not rb + X of the instruction that reads with it"),
])
def test_each_assertion_fires_when_its_rule_is_broken(plusarg: str, message: str) -> None:
    failed, log = _run([plusarg], plusarg.strip("+"))
    assert failed >= 1 and message in log, log[-3000:]
