"""The cilardo engine's RTL (hw/ip/cilardo, the core montu:ip:cilardo): verilator --lint-only -Wall,
and the cocotb benches of hw/ip/cilardo/dv on Verilator builds with the assertions on:
  - cilardo_enc_tb  (target enc, top cilardo_enc_harness): both encoders exhaustively against
    Tables 1-2 as printed and the golden model, both fields; the PPG/MMG against recoded_multiple;
  - cilardo_fios_tb (target fios, top cilardo_fios_core): every FIOS row bit-exact with
    fios_rows(recoded=True) (Booth digits, quotient digits, P words with the signed top word) and
    the Fig. 9 clock count, both fields, Alg. 2's and the paper's word counts;
  - cilardo_mont_tb (default target, top cilardo_mont): STARTMMI on the engine's ports with a
    modelled register file and T, against the semantics, the simulator (once it has the
    cilardo engine) and the cycle formula of instructions.yaml; reset mid-multiplication.
Each build is cached under tests/hw/build/cilardo_<name>/. Opt-in, by environment variable:
  MONTU_RTL_ALL=1            every length 1 .. MaxWords, more operands, MaxWords = 17 builds
  MONTU_CILARDO_RANDOM=n     random products per bench
  MONTU_SEED=s               another seed
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from montu import hw
from verilator_env import (BUILD_ROOT, SPLIT_BUILD_ARGS, missing_tool, set_make_flags,
                           verilator_on_path)

CORE = "montu:ip:cilardo"

# name -> (target, parameters, bench module)
RUNS = {
    "enc": ("enc", {}, "cilardo_enc_tb"),
    "fios_mw10": ("fios", {"MaxWords": 10}, "cilardo_fios_tb"),
    "mont_mw10": ("default", {"MaxWords": 10}, "cilardo_mont_tb"),
}
EXTRA = {
    "fios_mw17": ("fios", {"MaxWords": 17}, "cilardo_fios_tb"),
    "mont_mw17": ("default", {"MaxWords": 17}, "cilardo_mont_tb"),
}
if os.environ.get("MONTU_RTL_ALL"):
    RUNS.update(EXTRA)


def run_bench(target: str, parameters: dict[str, int], build_name: str, module: str
              ) -> tuple[int, int, Path]:
    """verilator_env.run_cocotb for a target of the core other than the default one."""
    import importlib.util

    if importlib.util.find_spec("cocotb") is None:
        missing_tool("cocotb is not installed")
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    from cocotb_tools.check_results import get_results
    from cocotb_tools.runner import get_runner

    set_make_flags()
    toplevel = hw.toplevel(CORE, target)
    build_dir = BUILD_ROOT / f"cilardo_{build_name}"
    runner = get_runner("verilator")
    runner.build(sources=hw.sources(CORE, target), hdl_toplevel=toplevel, parameters=parameters,
                 build_dir=build_dir, build_args=list(SPLIT_BUILD_ARGS), always=False)
    for path in (str(Path(hw.__file__).resolve().parents[1]), str(hw.dv_dir(CORE))):
        if path not in sys.path:
            sys.path.insert(0, path)
    cfg = {"Word": 64, "MaxWords": parameters.get("MaxWords", 64)}
    try:
        results = runner.test(hdl_toplevel=toplevel, test_module=module, build_dir=build_dir,
                              test_dir=build_dir, extra_env={"CILARDO_CFG": json.dumps(cfg)})
        total, failed = get_results(results)
    except RuntimeError:            # the simulator stopped before it wrote its results
        total, failed = 1, 1
    return total, failed, build_dir


@pytest.mark.parametrize("name", list(RUNS))
def test_cilardo_rtl(name: str) -> None:
    target, params, module = RUNS[name]
    total, failed, build_dir = run_bench(target, params, name, module)
    assert total >= 2 and failed == 0, f"{failed} of {total} cocotb tests failed in {name} ({build_dir})"


@pytest.mark.parametrize("max_words", [1, 8, 9, 64])
def test_cilardo_lint_clean(max_words: int) -> None:
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    files = [*hw.waivers(CORE), *hw.sources(CORE, target="lint")]
    proc = subprocess.run(["verilator", "--lint-only", "-Wall", "--top-module", "cilardo_mont",
                           f"-GMaxWords={max_words}", *map(str, files)],
                          capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out and "%Error" not in out, out
