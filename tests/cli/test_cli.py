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


def test_demo_runs_rsa_and_ecc_and_openssl_agrees(tmp_path):
    result = montu("demo", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for section in ("RSA-2048 on the unit", "prime256v1", "sect283k1", "Golden models"):
        assert section in out
    if "openssl not found" not in out:
        assert out.count("openssl: ") >= 10 and "gives the same secret: ok" in out
    assert "key generation" in out and " cycles" in out
