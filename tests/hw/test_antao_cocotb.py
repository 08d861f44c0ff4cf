"""The antao engine's RTL (hw/ip/antao, the core montu:ip:antao): verilator --lint-only -Wall over
a few parameter sets, its elaboration checks of the parameters, and the cocotb benches of
hw/ip/antao/dv/antao_tb.py on a Verilator build of antao_top with its assertions on, every
response compared with the cycle-exact simulator (montu.engines.antao.simulator).

CI builds one small configuration (W = 64, P = 4, Depth = 64, UcodeDepth = 512: the smallest that
holds programs/modexp.rns; small FIFOs so that E_FULL / E_OUT are cheap to reach). Opt-in, by environment variable:
  MONTU_RTL_ALL=1    also antao_top's default parameters, and W = 96, P = 3, MulStages = 1
                     (two-part FIFO words, E_RANGE on PUSH)
  ANTAO_STREAM=n     n commands in test_random_stream (default 400)
  MONTU_SEED=s       another seed
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from montu import hw
from verilator_env import BUILD_ROOT, SPLIT_BUILD_ARGS, missing_tool, run_cocotb, verilator_on_path

CORE = "montu:ip:antao"

CONFIGS = {
    "ci": {"W": 64, "P": 4, "Depth": 64, "UcodeDepth": 512, "InDepth": 128, "OutDepth": 16},
}
EXTRA = {
    "default": {},
    "w96": {"W": 96, "P": 3, "Depth": 32, "UcodeDepth": 128, "MulStages": 1, "EWords": 2,
            "AlphaBits": 6, "InDepth": 32, "OutDepth": 8},
}
if os.environ.get("MONTU_RTL_ALL"):
    CONFIGS.update(EXTRA)

LINT_SETS = [
    {},
    {"W": 24, "P": 2, "Depth": 2, "UcodeDepth": 2, "MulStages": 1, "EWords": 1, "AlphaBits": 1,
     "InDepth": 2, "OutDepth": 2},
    {"W": 96, "P": 6, "Depth": 1024, "UcodeDepth": 4096, "MulStages": 3, "EWords": 6,
     "InDepth": 1000, "OutDepth": 100},
    {"W": 32, "P": 3, "Depth": 64, "UcodeDepth": 256, "AlphaBits": 32},
]


def _lint(params: dict[str, int], *, wall: bool = True) -> subprocess.CompletedProcess:
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    files = [*hw.waivers(CORE), *hw.sources(CORE, target="lint")]
    return subprocess.run(["verilator", "--lint-only", *(["-Wall"] if wall else []),
                           "--top-module", "antao_top", *[f"-G{k}={v}" for k, v in params.items()],
                           *map(str, files)], capture_output=True, text=True)


@pytest.mark.parametrize("params", LINT_SETS,
                         ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_antao_lint_clean(params: dict[str, int]) -> None:
    proc = _lint(params)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


@pytest.mark.parametrize("params, message", [
    ({"W": 20}, "W must be a multiple of 4 and at least 24"),
    ({"W": 66}, "W must be a multiple of 4 and at least 24"),
    ({"P": 1}, "P must be in 2..127"),
    ({"Depth": 100}, "Depth must be a power of two"),
    ({"Depth": 2048}, "Depth must be a power of two"),
    ({"UcodeDepth": 1000}, "UcodeDepth must be a power of two"),
    ({"UcodeDepth": 8192}, "UcodeDepth must be a power of two"),
    ({"MulStages": 0}, "MulStages must be in 1..8"),
    ({"AlphaBits": 0}, "AlphaBits must be in 1..W"),
    ({"EWords": 0}, "EWords must be at least 1"),
    ({"InDepth": 1}, "InDepth and OutDepth must be in 2..65535"),
], ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) if isinstance(v, dict) else "")
def test_antao_refuses_bad_parameters(params: dict[str, int], message: str) -> None:
    proc = _lint(params, wall=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and message in out, out


@pytest.mark.parametrize("change", [
    {"w": 20}, {"w": 66}, {"pes": 1}, {"pes": 128}, {"depth": 100}, {"depth": 2048},
    {"ucode_depth": 1000}, {"ucode_depth": 8192}, {"mul_stages": 0}, {"mul_stages": 9},
    {"alpha_bits": 0}, {"alpha_bits": 65}, {"e_words": 0}, {"in_depth": 1}, {"out_depth": 1},
], ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_antao_rtl_refuses_what_the_params_refuse(change: dict[str, int]) -> None:
    """Each rule of montu.engines.antao.params.AntaoParams broken on its own: the RTL refuses it
    too. (The RTL refuses a little more: Depth = 1, UcodeDepth = 1, FIFOs beyond 65535 words.)"""
    from montu.engines.antao.params import AntaoParams

    with pytest.raises(ValueError):
        AntaoParams(**change)
    generics = AntaoParams().generics
    names = {"w": "W", "pes": "P", "depth": "Depth", "alpha_bits": "AlphaBits",
             "mul_stages": "MulStages", "ucode_depth": "UcodeDepth", "e_words": "EWords",
             "in_depth": "InDepth", "out_depth": "OutDepth"}
    generics.update({names[k]: v for k, v in change.items()})
    proc = _lint(generics, wall=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "antao_top: " in out, out


@pytest.mark.parametrize("name", list(CONFIGS))
def test_antao_rtl(name: str) -> None:
    params = CONFIGS[name]
    build_dir = BUILD_ROOT / f"antao_{name}"
    env = {"ANTAO_CFG": json.dumps(params)}
    total, failed, _ = run_cocotb(CORE, params, f"antao_{name}", "antao_tb", env=env,
                                  build_args=SPLIT_BUILD_ARGS)
    assert total >= 6 and failed == 0, \
        f"{failed} of {total} cocotb tests failed in {name} (see {build_dir})"
