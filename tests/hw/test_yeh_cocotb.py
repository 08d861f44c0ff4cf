"""The yeh engine's RTL (hw/ip/yeh, the core montu:ip:yeh): verilator --lint-only -Wall over its
sizes, its elaboration check of NBits, and the cocotb benches of hw/ip/yeh/dv/yeh_tb.py on
Verilator builds of yeh_top with its assertions on.

Each configuration is built once (under tests/hw/build/yeh_<name>/, cached) and its benches run
on it: NBits = 128 and 192 (not a power of two) run every bench; NBits = 1024 runs the "big"
subset (BSR4 bit-exact at L = 1024: 513 core clocks; EXP with a random 1024-bit exponent; reset
in the middle of BSR4 and EXP). Opt-in, by environment variable:
  MONTU_RTL_ALL=1    also NBits = 1536 and 2048 (the big subset)
  YEH_STREAM=n       n commands in test_random_stream (default 600)
  MONTU_SEED=s       another seed for every bench's operands
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from montu import hw
from verilator_env import BUILD_ROOT, missing_tool, run_cocotb, verilator_on_path

CORE = "montu:ip:yeh"

# name -> (parameters, suite)
CONFIGS = {
    "nbits128": ({"NBits": 128}, "full"),
    "nbits192": ({"NBits": 192}, "full"),
    "nbits1024": ({"NBits": 1024}, "big"),
}
EXTRA = {
    "nbits1536": ({"NBits": 1536}, "big"),
    "nbits2048": ({"NBits": 2048}, "big"),
}
if os.environ.get("MONTU_RTL_ALL"):
    CONFIGS.update(EXTRA)

LINT_SIZES = (64, 128, 192, 1024, 1536, 2048)


def _lint(nbits: int, *, wall: bool = True) -> subprocess.CompletedProcess:
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    files = [*hw.waivers(CORE), *hw.sources(CORE, target="lint")]
    return subprocess.run(["verilator", "--lint-only", *(["-Wall"] if wall else []),
                           "--top-module", "yeh_top", f"-GNBits={nbits}", *map(str, files)],
                          capture_output=True, text=True)


@pytest.mark.parametrize("nbits", LINT_SIZES)
def test_yeh_lint_clean(nbits: int) -> None:
    proc = _lint(nbits)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


@pytest.mark.parametrize("nbits", (32, 96, 100, 1000))
def test_yeh_refuses_nbits_not_a_multiple_of_64(nbits: int) -> None:
    proc = _lint(nbits, wall=False)
    out = proc.stdout + proc.stderr
    message = "yeh_top: NBits must be a multiple of 64 and at least 64"
    assert proc.returncode != 0 and message in out, out


@pytest.mark.parametrize("name", list(CONFIGS))
def test_yeh_rtl(name: str) -> None:
    params, suite = CONFIGS[name]
    build_dir = BUILD_ROOT / f"yeh_{name}"
    env = {"YEH_CFG": json.dumps(params), "YEH_SUITE": suite}
    total, failed, _ = run_cocotb(CORE, params, f"yeh_{name}", "yeh_tb", env=env)
    assert total >= 3 and failed == 0, \
        f"{failed} of {total} cocotb tests failed in {name} (see {build_dir})"
