"""Runs the cocotb benches of hw/ip/montu/dv/montu_tb.py on Verilator builds of montu_top (the
core montu:ip:montu), with its assertions on.

Each configuration (montu.config.COCOTB_MATRIX; COCOTB_EXTRA too with MONTU_RTL_ALL=1) is built
once (under tests/hw/build/) and all benches run on it; the default set keeps the run within a
few minutes on 2 cores (cold builds included). Opt-in sweeps, by environment variable:
  MONTU_RTL_ALL=1    also the extra configurations
  MONTU_STREAM=n     n commands in test_random_stream (default 400)
  MONTU_SEED=s       another seed for every bench's operands
"""

from __future__ import annotations

import json
import os

import pytest

from montu.config import COCOTB_EXTRA, COCOTB_MATRIX
from montu.hw import UNIT_CORE
from verilator_env import BUILD_ARGS, BUILD_ROOT, SPLIT_BUILD_ARGS, run_cocotb

CONFIGS = {cfg.name: cfg.generics for cfg in COCOTB_MATRIX}
if os.environ.get("MONTU_RTL_ALL"):
    CONFIGS.update({cfg.name: cfg.generics for cfg in COCOTB_EXTRA})


@pytest.mark.parametrize("name", list(CONFIGS))
def test_montu_rtl(name: str) -> None:
    cfg = CONFIGS[name]
    build_dir = BUILD_ROOT / f"montu_{name}"
    env = {"MONTU_CFG": json.dumps(cfg),
           "MONTU_CYCLES_OUT": str(build_dir / "startmmi_cycles.json"),
           "MONTU_MINV_CYCLES_OUT": str(build_dir / "minv_cycles.json")}
    # the cilardo multiplier's 64 digit rows, the pipelined lanes' MULT18X18D instances: split
    # the symbol table (verilator_env)
    args = SPLIT_BUILD_ARGS if (cfg.get("MulCore") or cfg.get("Pipelined")) else BUILD_ARGS
    total, failed, _ = run_cocotb(UNIT_CORE, cfg, f"montu_{name}", "montu_tb", env=env,
                                  build_args=args)
    assert failed == 0, f"{failed} of {total} cocotb tests failed in {name} (see {build_dir})"
