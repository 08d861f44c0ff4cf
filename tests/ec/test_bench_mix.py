"""montu bench mix: one k·P's cycles instruction by instruction, on both builds."""

import json

from montu.benchmarks import mix
from montu.driver import Unit


def test_the_mix_adds_up_and_each_instruction_costs_its_formula():
    total0, counts0, cycles0 = mix.instruction_mix("prime192v1", pipelined=False)
    total1, counts1, cycles1 = mix.instruction_mix("prime192v1", pipelined=True)
    assert sum(cycles0.values()) == total0 and sum(cycles1.values()) == total1
    assert counts0 == counts1                   # the same program on both builds
    startmmi = Unit(backend="sim").isa.by_name["STARTMMI"]
    variables = dict(k=3, W=3, Word=64, Lanes=2, NumRegs=32, MaxWords=64, gf2m=0)
    for pm, cycles, counts in ((0, cycles0, counts0), (1, cycles1, counts1)):
        assert cycles["STARTMMI"] == counts["STARTMMI"] * startmmi.cycle_count(**variables, Pipelined=pm)
        assert cycles["STARTMMI (paired)"] == counts["STARTMMI (paired)"] * startmmi.cycle_count(
            **variables, Pipelined=pm, paired=1)
        paired_runs = counts["STARTMMI (paired)"] + counts["MMX (paired)"]
        assert counts["MMQ"] == paired_runs > 0     # k·P pairs its independent products
    assert total1 > total0


def test_run_writes_the_table_and_the_json(tmp_path, capsys):
    out = tmp_path / "mix.json"
    data = mix.run(curves=["prime192v1"], out=out)
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(data))
    assert set(saved["totals"]) == {"prime192v1/0", "prime192v1/1"}
    shares = [r["share"] for r in saved["rows"] if r["curve"] == "prime192v1" and not r["pipelined"]]
    assert abs(sum(shares) - 1) < 0.01
    assert "prime192v1, Pipelined = 1" in capsys.readouterr().out
    assert out.with_suffix(".txt").is_file()
