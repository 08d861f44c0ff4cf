"""Runs the cocotb benches of hw/ip/montu/dv/mont_tb.py on Verilator builds of the core montu:ip:montu_mont.

The engine is driven through its own ports; the bench plays montu_top's register file (three
synchronous read ports, one write port) and the scratch memory T. Each configuration is built
once (sim_build under tests/hw/build/mont_<name>/, cached: `always=False`) and every bench runs
on it. The sources are the engine's FuseSoC core and its dependencies (montu.hw).
Opt-in sweeps, by environment variable:
  MONTU_RTL_ALL=1     also the EXTRA configurations
  MONTU_MONT_MIX=n    n random products in random_mix (default 40)
  MONTU_SEED=s        another seed for every bench's operands
(STARTMMI and MMX through montu_top: test_montu_cocotb.py.)
"""

from __future__ import annotations

import json
import os

import pytest

from verilator_env import run_cocotb

CORE = "montu:ip:montu_mont"

# Word 64 with Lanes 1, 2, 4; Word 32; the pipelined build with Lanes 2 and 4. MaxWords =
# MaxBits / Word of a unit montu_top can be built as.
CONFIGS = {
    "w64_l1_mw9": {"Word": 64, "Lanes": 1, "MaxWords": 9},
    "w64_l2_mw64": {"Word": 64, "Lanes": 2, "MaxWords": 64},
    "w64_l4_mw32": {"Word": 64, "Lanes": 4, "MaxWords": 32},
    "w32_l2_mw32": {"Word": 32, "Lanes": 2, "MaxWords": 32},
    "w64_l2_mw16_pipelined": {"Word": 64, "Lanes": 2, "MaxWords": 16, "Pipelined": 1},
    "w64_l4_mw32_pipelined": {"Word": 64, "Lanes": 4, "MaxWords": 32, "Pipelined": 1},
}
# more configurations with MONTU_RTL_ALL=1
EXTRA = {
    "w32_l1_mw18": {"Word": 32, "Lanes": 1, "MaxWords": 18},
    "w32_l4_mw18": {"Word": 32, "Lanes": 4, "MaxWords": 18},
    "w32_l2_mw32_pipelined": {"Word": 32, "Lanes": 2, "MaxWords": 32, "Pipelined": 1},
    "w32_l4_mw36_pipelined": {"Word": 32, "Lanes": 4, "MaxWords": 36, "Pipelined": 1},
    "w64_l4_mw64": {"Word": 64, "Lanes": 4, "MaxWords": 64},
}
if os.environ.get("MONTU_RTL_ALL"):
    CONFIGS.update(EXTRA)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_mont_rtl(name: str) -> None:
    cfg = CONFIGS[name]
    total, failed, build_dir = run_cocotb(CORE, cfg, f"mont_{name}", "mont_tb",
                                          env={"MONTU_MONT_CFG": json.dumps(cfg)})
    assert total >= 5 and failed == 0, \
        f"{failed} of {total} cocotb tests failed in {name} (see {build_dir})"
