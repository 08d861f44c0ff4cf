"""The `montu` command line: its contract is output on success, one readable line on failure."""

import json
import subprocess
import sys


def montu(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "montu", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


def test_bench_unit_on_the_simulator_writes_json(tmp_path):
    out = tmp_path / "unit.json"
    result = montu("bench", "unit", "--backend", "sim", "--lengths", "64,256", "--inversions", "3",
                   "-o", str(out))
    assert result.returncode == 0, result.stderr
    report = json.loads(out.read_text())
    rows = {(r["op"], r["bits"], r["field"]): r for r in report["rows"]}
    assert rows[("STARTMMI", 256, "GFP")]["cycles"] > 0
    assert rows[("MINV", 64, "GF2M")]["samples"] == 3
    assert "STARTMMI" in result.stdout


def test_bad_lengths_give_one_readable_line():
    result = montu("bench", "unit", "--backend", "sim", "--lengths", "100")
    assert result.returncode != 0
    assert result.stderr.strip().count("\n") == 0
    assert "multiples of 64" in result.stderr
    assert "Traceback" not in result.stderr
