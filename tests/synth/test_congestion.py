"""montu.synth.congestion: RUDY over a placed design, hot spots by RTL line."""

from __future__ import annotations

import json

import pytest

from montu.synth.congestion import CongestionError, hotspots, main, read_placed, rudy


def _cell(x: int, y: int, src: str, outputs: dict[str, list[int]], inputs: dict[str, list[int]]) -> dict:
    return {"type": "TRELLIS_COMB",
            "attributes": {"NEXTPNR_BEL": f"X{x}/Y{y}/SLICEA.COMB0", "src": src},
            "port_directions": {**{p: "output" for p in outputs}, **{p: "input" for p in inputs}},
            "connections": {**outputs, **inputs}}


def _design() -> dict:
    # net 10: a wide fanout from (0, 0) to (9, 9) (pe.sv:5); net 11: a local pair at (9, 9) (seq.sv:7);
    # net 12: stays inside tile (3, 3); net 13: a carry chain (dedicated wire, ignored)
    cells = {
        "a": _cell(0, 0, "hw/pe.sv:5.1-5.9", {"F": [10]}, {}),
        "b": _cell(9, 9, "", {}, {"A": [10]}),
        "c": _cell(9, 8, "rtl/seq.sv:7.2-7.3", {"F": [11]}, {"B": [10]}),
        "d": _cell(9, 9, "", {}, {"C": [11]}),
        "e": _cell(3, 3, "x.sv:1.1-1.1", {"F": [12]}, {}),
        "f": _cell(3, 3, "", {}, {"A": [12]}),
        "g": _cell(5, 5, "y.sv:2.1-2.2", {"COUT": [13]}, {}),
        "h": _cell(5, 7, "", {}, {"CIN": [13]}),
    }
    return {"modules": {"top": {"cells": cells, "netnames": {"wide": {"bits": [10]}, "pair": {"bits": [11]}}}}}


def test_rudy_spreads_each_net_over_its_box_and_skips_local_and_carry_nets() -> None:
    nets = read_placed(_design())
    assert sorted(n.name for n in nets) == ["pair", "wide"]
    wide = next(n for n in nets if n.name == "wide")
    assert wide.source == "pe.sv:5" and wide.tiles[0] == (0, 0)
    demand, by_source = rudy(nets)
    assert demand[(0, 0)] == pytest.approx(20 / 100)                 # 10 x 10 box: (w + h) / (w h)
    assert demand[(9, 9)] == pytest.approx(20 / 100 + 3 / 2)          # + the 1 x 2 pair
    assert by_source[(9, 8)]["seq.sv:7"] == pytest.approx(1.5)
    assert (3, 3) in demand and demand[(3, 3)] == pytest.approx(0.2)  # only the wide net crosses it


def test_hotspots_are_the_hottest_windows_apart_with_their_lines_ranked() -> None:
    demand, by_source = rudy(read_placed(_design()))
    spots = hotspots(demand, by_source, count=2, radius=1)
    assert (spots[0].x, spots[0].y) in {(9, 9), (9, 8), (8, 8), (8, 9)}
    assert list(spots[0].by_source)[0] == "seq.sv:7"
    assert len(spots) == 2 and abs(spots[1].x - spots[0].x) + abs(spots[1].y - spots[0].y) > 2


def test_an_unplaced_design_or_a_bad_file_is_a_clear_error(tmp_path, capsys) -> None:
    unplaced = _design()
    for cell in unplaced["modules"]["top"]["cells"].values():
        del cell["attributes"]["NEXTPNR_BEL"]
    with pytest.raises(CongestionError, match="--no-route --write"):
        read_placed(unplaced)
    with pytest.raises(CongestionError, match="no modules"):
        read_placed({})
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main([str(bad)]) == 1
    assert capsys.readouterr().err.startswith("montu: error: cannot read")
    good = tmp_path / "placed.json"
    good.write_text(json.dumps(_design()))
    assert main([str(good), "--spots", "1"]) == 0
    out = capsys.readouterr().out
    assert "hot spot around X" in out and "seq.sv:7" in out


def test_cli_congestion_places_without_routing_and_ranks_the_placed_design(
        tmp_path, monkeypatch, capsys) -> None:
    from montu.cli import main as montu_main
    from montu.synth import flow

    calls: list[list[str]] = []

    def synthesize(config, workdir, timeout, progress, abc9_delay_ps, keep_sources=False):
        assert keep_sources
        return tmp_path / "montu_top.json"

    def run(cmd, cwd, log, timeout, what):        # stands in for nextpnr
        calls.append(cmd)
        out = cmd[cmd.index("--write") + 1]
        (cwd / out).parent.mkdir(parents=True, exist_ok=True)
        (cwd / out).write_text(json.dumps(_design()))
        log.write_text("Info: Max frequency for clock 'clk_i': 41.50 MHz (FAIL at 100.00 MHz)\n")

    monkeypatch.setattr(flow, "synthesize", synthesize)
    monkeypatch.setattr(flow, "_run", run)
    monkeypatch.setattr(flow, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(flow, "tool", lambda name: name)
    assert montu_main(["synth", "--top", "montu_inv", "--pipelined", "--congestion"]) == 0
    out = "".join(capsys.readouterr())
    assert "41.5 MHz" in out and "hot spot around X" in out
    (cmd,) = calls
    assert "--no-route" in cmd and "--report" not in cmd and "--seed" in cmd
    assert montu_main(["synth", "--depth", "--congestion"]) != 0
