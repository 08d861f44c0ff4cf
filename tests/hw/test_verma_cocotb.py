"""The verma engine's RTL (hw/ip/verma, the core montu:ip:verma): verilator --lint-only -Wall over
its sizes, its elaboration checks of K and W, and the cocotb benches of hw/ip/verma/dv/verma_tb.py
on Verilator builds of verma_top with its assertions on.

Each configuration is built once (under tests/hw/build/verma_<name>/, cached) and its benches run
on it: K = 64 and K = 200 (not a power of two; k up to 200 is not a multiple of W = 48 or 64)
run every bench; K = 1024 runs the "big" subset (CMMM bit-exact with the trace of every PE word
after every iteration: 547-clock passes; MPL with a full 1024-bit exponent: 561,222 + 2 cycles;
reset in the middle of CMMM and MPL). Opt-in, by environment variable:
  MONTU_RTL_ALL=1    also K = 2048 (the big subset: 1081-clock CMMM passes, an MPL)
  VERMA_STREAM=n     n commands in test_random_stream (default 500)
  MONTU_SEED=s       another seed for every bench's operands
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from montu import hw
from verilator_env import BUILD_ROOT, SPLIT_BUILD_ARGS, missing_tool, run_cocotb, verilator_on_path

CORE = "montu:ip:verma"

# name -> (parameters, suite)
CONFIGS = {
    "k64": ({"K": 64, "W": 48}, "full"),
    "k200": ({"K": 200, "W": 48}, "full"),
    "k1024": ({"K": 1024, "W": 48}, "big"),
}
EXTRA = {
    "k2048": ({"K": 2048, "W": 48}, "big"),
}
if os.environ.get("MONTU_RTL_ALL"):
    CONFIGS.update(EXTRA)

LINT_SIZES = (64, 200, 1024, 2048)


def _lint(params: dict[str, int], *, wall: bool = True) -> subprocess.CompletedProcess:
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    files = [*hw.waivers(CORE), *hw.sources(CORE, target="lint")]
    return subprocess.run(["verilator", "--lint-only", *(["-Wall"] if wall else []),
                           "--top-module", "verma_top", *[f"-G{k}={v}" for k, v in params.items()],
                           *map(str, files)], capture_output=True, text=True)


@pytest.mark.parametrize("k", LINT_SIZES)
def test_verma_lint_clean(k: int) -> None:
    proc = _lint({"K": k})
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


@pytest.mark.parametrize("params", [{"K": 100, "W": 5}, {"K": 2, "W": 48}, {"K": 333, "W": 64}],
                         ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_verma_lint_clean_odd_sizes(params: dict[str, int]) -> None:
    proc = _lint(params)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


@pytest.mark.parametrize("params, message", [
    ({"K": 1}, "verma_top: K must be at least 2"),
    ({"K": 0}, "verma_top: K must be at least 2"),
    ({"W": 3}, "verma_top: W must be at least 4"),
    ({"K": 64, "W": 2}, "verma_top: W must be at least 4"),
], ids=["K=1", "K=0", "W=3", "W=2"])
def test_verma_refuses_bad_parameters(params: dict[str, int], message: str) -> None:
    proc = _lint(params, wall=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and message in out, out


@pytest.mark.parametrize("name", list(CONFIGS))
def test_verma_rtl(name: str) -> None:
    params, suite = CONFIGS[name]
    build_dir = BUILD_ROOT / f"verma_{name}"
    env = {"VERMA_CFG": json.dumps(params), "VERMA_SUITE": suite}
    total, failed, _ = run_cocotb(CORE, params, f"verma_{name}", "verma_tb", env=env,
                                  build_args=SPLIT_BUILD_ARGS)
    assert total >= 3 and failed == 0, \
        f"{failed} of {total} cocotb tests failed in {name} (see {build_dir})"
