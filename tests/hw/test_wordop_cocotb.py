"""Runs the cocotb benches of hw/ip/montu/dv/wordop_tb.py on Verilator builds of the core montu:ip:montu_wordop.

The engine is driven through its own ports; the bench plays montu_top's register file (three
synchronous read ports, one write port) and its flag and window registers. Each configuration is
built once (sim_build under tests/hw/build/wordop_<name>/, cached: `always=False`) and every
bench runs on it. The sources are the engine's FuseSoC core and its dependencies (montu.hw).
Opt-in sweeps, by environment variable:
  MONTU_RTL_ALL=1     also the EXTRA configurations
  MONTU_WORDOP_MIX=n  n instructions in random_stream (default 400)
  MONTU_SEED=s        another seed for every bench's operands
(The word instructions through montu_top: test_montu_cocotb.py.)
"""

from __future__ import annotations

import json
import os

import pytest

from verilator_env import run_cocotb

CORE = "montu:ip:montu_wordop"

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


@pytest.mark.parametrize("name", list(CONFIGS))
def test_wordop_rtl(name: str) -> None:
    cfg = CONFIGS[name]
    total, failed, build_dir = run_cocotb(CORE, cfg, f"wordop_{name}", "wordop_tb",
                                          env={"MONTU_WORDOP_CFG": json.dumps(cfg)})
    assert total >= 4 and failed == 0, \
        f"{failed} of {total} cocotb tests failed in {name} (see {build_dir})"
