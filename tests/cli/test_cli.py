"""The `montu` command line: its contract is output on success, one readable line on failure."""

import json
import subprocess
import sys

from montu.synth.process import run_in_group


def montu(*args: str, cwd=None) -> subprocess.CompletedProcess:
    # a process group of its own: a timeout also stops a synth run's yosys / nextpnr
    return run_in_group([sys.executable, "-m", "montu", *args], timeout=600, cwd=cwd)


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


def test_bench_unit_pipelined_writes_its_own_results_file(tmp_path):
    result = montu("bench", "unit", "--backend", "sim", "--pipelined", "--lengths", "256",
                   "--inversions", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = sorted(p.name for p in (tmp_path / "bench" / "results").iterdir())
    assert written == ["unit_pipelined.json"]   # the default unit's unit.json is left alone
    report = json.loads((tmp_path / "bench" / "results" / "unit_pipelined.json").read_text())
    assert report["pipelined"] is True
    rows = {(r["op"], r["bits"], r["field"]): r for r in report["rows"]}
    assert rows[("STARTMMI", 256, "GFP")]["cycles"] == 57   # (4 - 1) * 11 + 2 * 4 + 16
    assert rows[("STARTMMI", 256, "GFP")]["meets_target"] is None   # the targets are the default's
    assert "Pipelined=1" in result.stdout and "targets are for the default unit" in result.stdout
    assert "MISSED" not in result.stdout and "  met" not in result.stdout


def test_pipelined_flags_parse():
    from montu.cli import build_parser

    parser = build_parser()
    for kind in ("unit", "rsa", "ecc"):
        args = parser.parse_args(["bench", kind, "--pipelined"])
        assert args.pipelined is True and args.output is None
        assert parser.parse_args(["bench", kind]).pipelined is False
    assert parser.parse_args(["synth", "--pipelined", "--lanes", "4"]).pipelined is True
    assert parser.parse_args(["synth"]).pipelined is False


def test_pipelined_on_one_lane_or_the_sweep_gives_one_readable_line():
    for args, message in ((("synth", "--pipelined", "--lanes", "1"),
                           "Pipelined needs Lanes = 2 or 4"),
                          (("synth", "--pipelined", "--sweep"), "--pipelined is for one configuration"),
                          (("synth", "--pipelined", "--top", "montu_mont", "--lanes", "1"),
                           "Pipelined needs Lanes = 2 or 4")):
        result = montu(*args)
        assert result.returncode == 2
        assert result.stderr.strip().count("\n") == 0 and message in result.stderr


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
