"""verilator --lint-only -Wall of montu_top over montu.config.LINT_MATRIX, the sources and the
waiver file from the FuseSoC core (montu:ip:montu, target lint); FuseSoC's own lint run; and the
RTL's elaboration checks against UnitConfig's rules, one broken rule at a time."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from montu import hw
from montu.config import LINT_MATRIX, UnitConfig
from montu.paths import repo_root
from verilator_env import missing_tool, verilator_on_path


def _lint(generics: dict[str, int], *, wall: bool = True) -> subprocess.CompletedProcess:
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    files = [*hw.waivers(hw.UNIT_CORE), *hw.sources(hw.UNIT_CORE, target="lint")]
    return subprocess.run(["verilator", "--lint-only", *(["-Wall"] if wall else []),
                           "--top-module", "montu_top", *[f"-G{k}={v}" for k, v in generics.items()],
                           *[str(f) for f in files]], capture_output=True, text=True)


@pytest.mark.parametrize("cfg", LINT_MATRIX, ids=lambda cfg: cfg.name)
def test_lint_clean(cfg: UnitConfig) -> None:
    proc = _lint(cfg.generics)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


# Each rule of UnitConfig broken on its own: the RTL refuses the same parameters with the same text.
BROKEN = [
    {"lanes": 3}, {"lanes": 1, "pipelined": True}, {"word_bits": 16}, {"num_regs": 8},
    {"num_regs": 33}, {"max_bits": 96},
]


@pytest.mark.parametrize("change", BROKEN, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_the_rtl_refuses_exactly_what_unit_config_refuses(change: dict[str, object]) -> None:
    fields = {"word_bits": 64, "lanes": 2, "max_bits": 4096, "num_regs": 32, "pipelined": False} | change
    messages = UnitConfig.problems_of(**fields)
    assert len(messages) == 1, messages
    generics = {"Word": fields["word_bits"], "Lanes": fields["lanes"], "MaxBits": fields["max_bits"],
                "NumRegs": fields["num_regs"], "Pipelined": int(bool(fields["pipelined"]))}
    proc = _lint(generics, wall=False)
    rule = messages[0].split(" (got")[0]
    assert proc.returncode != 0 and f"montu_top: {rule}" in proc.stdout + proc.stderr, \
        (rule, proc.stdout + proc.stderr)


def test_fusesoc_lists_the_cores_and_its_lint_target_passes(tmp_path: Path) -> None:
    """`fusesoc --cores-root . run --target lint montu:ip:montu`, as the README says."""
    if shutil.which("fusesoc") is None:
        missing_tool("fusesoc is not installed")
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    root = repo_root()
    listed = subprocess.run(["fusesoc", "--cores-root", ".", "core", "list"], cwd=root,
                            capture_output=True, text=True)
    for core in ("montu:ip:montu", "montu:ip:montu_mont", "montu:ip:montu_inv",
                 "montu:ip:montu_wordop", "montu:prim:basic"):
        assert core in listed.stdout, listed.stdout + listed.stderr
    env = dict(os.environ, FUSESOC_CONFIG=str(tmp_path / "fusesoc.conf"))
    run = subprocess.run(["fusesoc", "--cores-root", ".", "run", "--build-root", str(tmp_path / "build"),
                          "--target", "lint", "montu:ip:montu"], cwd=root, capture_output=True,
                         text=True, env=env, timeout=600)
    out = run.stdout + run.stderr
    assert run.returncode == 0 and "%Warning" not in out and "%Error" not in out, out[-4000:]
