"""Runs the cocotb benches of hw/ip/montu/dv/inv_tb.py on Verilator builds of montu_inv (the
core montu:ip:montu_inv and its dependencies).

Each configuration is built once (under tests/hw/build/inv_<name>/) and all benches run on it.
Opt-in sweeps, by environment variable: MONTU_INV_MIX=n short random inversions in random_mix
(default 300), MONTU_SEED=s another seed. (MINV through montu_top: test_montu_cocotb.py.)
"""

from __future__ import annotations

import json
import os

import pytest

from montu import hw
from verilator_env import BUILD_ROOT, missing_tool, run_cocotb, verilator_on_path

CORE = "montu:ip:montu_inv"

CONFIGS = {
    "w64_mw32": {"Word": 64, "MaxWords": 32},
    "w32_mw40": {"Word": 32, "MaxWords": 40},
    # the high-clock build: S1 in two cycles, pipelined m product and lanes
    "w64_mw32_pipelined": {"Word": 64, "MaxWords": 32, "Pipelined": 1},
    "w32_mw40_pipelined": {"Word": 32, "MaxWords": 40, "Pipelined": 1},
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_inv_rtl(name: str) -> None:
    cfg = CONFIGS[name]
    build_dir = BUILD_ROOT / f"inv_{name}"
    env = {"MONTU_INV_CFG": json.dumps(cfg), "MONTU_INV_CYCLES_OUT": str(build_dir / "cycles")}
    total, failed, _ = run_cocotb(CORE, cfg, f"inv_{name}", "inv_tb", env=env,
                                  build_args=("-Wall", "--assert", "-O3", "--x-assign", "fast",
                                              "--x-initial", "fast"))
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
           "--top-module", "montu_inv"] + [str(f) for f in hw.sources(CORE)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_inv_bad_word_rejected() -> None:
    import subprocess
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    res = subprocess.run(["verilator", "--lint-only", "-GWord=24", "--top-module", "montu_inv"]
                         + [str(f) for f in hw.sources(CORE)], capture_output=True, text=True)
    assert res.returncode != 0 and "Word must be a power of two" in res.stdout + res.stderr
