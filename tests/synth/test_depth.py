"""montu.synth.depth on small hand-made netlists: levels, carry chains, groups, paths, errors."""

from __future__ import annotations

import json

import pytest

from montu.synth.depth import (DELAYS, DepthError, Netlist, analyse, describe_path, groups, main,
                               net_delay, path_of)


def _ff(d: int, q: int, ce: int | str = "1") -> dict:
    return {"type": "TRELLIS_FF", "port_directions": {"CLK": "input", "DI": "input", "CE": "input",
                                                      "LSR": "input", "Q": "output"},
            "connections": {"CLK": [2], "DI": [d], "CE": [ce], "LSR": ["0"], "Q": [q]}}


def _lut(ins: list[int], z: int) -> dict:
    return {"type": "LUT4", "port_directions": {"A": "input", "B": "input", "C": "input",
                                                "D": "input", "Z": "output"},
            "connections": {"A": ins[:1], "B": ins[1:2], "C": ins[2:3], "D": ins[3:4], "Z": [z]}}


def _ccu(a0: int, a1: int, cin: int | str, s0: int, s1: int, cout: int) -> dict:
    ports = ("A0", "B0", "C0", "D0", "A1", "B1", "C1", "D1", "CIN")
    return {"type": "CCU2C",
            "port_directions": {**{p: "input" for p in ports}, "S0": "output", "S1": "output",
                                "COUT": "output"},
            "connections": {"A0": [a0], "A1": [a1], "CIN": [cin], "S0": [s0], "S1": [s1],
                            "COUT": [cout]}}


def _netlist(cells: dict, names: dict[str, list[int]]) -> dict:
    return {"modules": {"top": {"attributes": {"top": "1"}, "ports": {"clk": {"direction": "input", "bits": [2]}},
                                "cells": cells,
                                "netnames": {n: {"bits": b, "hide_name": 0} for n, b in names.items()}}}}


def test_two_luts_between_registers_and_the_slow_enable() -> None:
    # a_q -> LUT -> LUT -> b_q.D ; a_q -> LUT -> c_q.CE (one level)
    cells = {"fa": _ff(20, 10), "l1": _lut([10], 11), "l2": _lut([11, 10], 12), "fb": _ff(12, 13),
             "l3": _lut([10], 14), "fc": _ff(13, 15, ce=14)}
    net = Netlist(_netlist(cells, {"a_q": [10], "mid": [11], "b_d": [12], "b_q": [13], "en": [14],
                                   "c_q": [15], "a_d": [20]}))
    eps, arrivals = analyse(net)
    by = {g.name: g for g in groups(eps)}
    b = by["b_q (D)"].worst
    assert b.arrival.levels == 2
    expected = (DELAYS["FF_CLK_Q"] + 2 * DELAYS["LUT4"] + net_delay(3) + net_delay(1) + net_delay(1)
                + DELAYS["SETUP"])
    assert b.arrival.ns == pytest.approx(expected)
    assert by["c_q (CE)"].worst.arrival.levels == 1
    assert groups(eps)[0].name == "b_q (D)"                    # the deepest ranks first
    assert describe_path(net, path_of(net, b, arrivals)) == "a_q -> mid -> b_d"


def test_a_path_without_names_shows_its_cells() -> None:
    # a_q -> three unnamed LUTs -> a carry cell (source line kept) -> b_q: the unnamed steps
    # are told by the cells that drive them, repeats counted
    cells = {"fa": _ff(20, 10), "l1": _lut([10], 11), "l2": _lut([11], 12), "l3": _lut([12], 13),
             "c": _ccu(13, 13, "0", 14, 15, 16), "fb": _ff(14, 17)}
    netlist = _netlist(cells, {"a_q": [10], "$auto$1": [11], "$auto$2": [12], "$auto$3": [13],
                               "$auto$4": [14], "b_q": [17], "a_d": [20]})
    netlist["modules"]["top"]["netnames"]["$auto$4"]["attributes"] = {"src": "rtl/x.sv:42.3-42.9"}
    net = Netlist(netlist)
    eps, arrivals = analyse(net)
    b = next(g for g in groups(eps) if g.name == "b_q (D)").worst
    assert describe_path(net, path_of(net, b, arrivals)) == "a_q -> LUT4 x3 -> x.sv:42"


def test_an_unnamed_start_register_is_told_by_its_always_ff_block() -> None:
    # the start flip-flop's Q net has only an autoname: the path names the flip-flop's block
    cells = {"fa": _ff(20, 10), "l1": _lut([10], 11), "fb": _ff(11, 17)}
    cells["fa"]["attributes"] = {"src": "rtl/top.sv:819.3-851.6"}
    net = Netlist(_netlist(cells, {"$auto$q": [10], "$auto$1": [11], "b_q": [17], "a_d": [20]}))
    eps, arrivals = analyse(net)
    b = next(g for g in groups(eps) if g.name == "b_q (D)").worst
    assert describe_path(net, path_of(net, b, arrivals)) == "TRELLIS_FF of top.sv:819 -> LUT4"


def test_a_carry_chain_adds_little_per_cell_and_no_routing() -> None:
    # q0..q7 feed a four-cell chain; the top sum bit lands in s_q
    cells = {f"f{i}": _ff(100 + i, i + 10) for i in range(8)}
    cin: int | str = "0"
    for c in range(4):
        cells[f"c{c}"] = _ccu(10 + 2 * c, 11 + 2 * c, cin, 40 + 2 * c, 41 + 2 * c, 60 + c)
        cin = 60 + c
    cells["fs"] = _ff(47, 70)
    net = Netlist(_netlist(cells, {"x_q": list(range(10, 18)), "sum": list(range(40, 48)), "s_q": [70]}))
    eps, _ = analyse(net)
    top = next(g for g in groups(eps) if g.name == "s_q (D)").worst.arrival
    assert top.carry == 4 and top.levels == 0
    # entry, two chain hops with no routing, the sum: far below four routed LUT levels
    assert top.ns < DELAYS["FF_CLK_Q"] + 4 * (DELAYS["LUT4"] + net_delay(1))


def test_a_combinational_loop_does_not_hang() -> None:
    cells = {"l1": _lut([11], 10), "l2": _lut([10], 11), "f": _ff(10, 12)}
    eps, _ = analyse(Netlist(_netlist(cells, {"x": [10], "y": [11], "q": [12]})))
    assert any(e.group == "q (D)" for e in eps)


def test_errors_name_the_problem(tmp_path, capsys) -> None:
    with pytest.raises(DepthError, match="no modules"):
        Netlist({})
    with pytest.raises(DepthError, match="no module nope"):
        Netlist(_netlist({}, {}), top="nope")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main([str(bad)]) == 1
    assert capsys.readouterr().err.startswith("montu: error: cannot read")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_netlist({"fa": _ff(20, 10), "l1": _lut([10], 11), "fb": _ff(11, 12)},
                                        {"a_q": [10], "b_q": [12]})))
    assert main([str(good), "--path"]) == 0
    assert "b_q (D)" in capsys.readouterr().out


def test_cli_depth_prints_yosys_cells_and_passes_on_the_ranking_status(
        monkeypatch: pytest.MonkeyPatch, tmp_path, capsys) -> None:
    """`montu synth --depth` (Yosys alone): the build's cells and the LUT sites they need, then
    the ranking; a netlist the ranking cannot read makes the command fail."""
    from montu.cli import main as montu_main
    from montu.synth import flow

    stat = {"modules": {"\\montu_mont": {"num_cells_by_type": {
        "LUT4": 1000, "CCU2C": 250, "TRELLIS_FF": 700, "MULT18X18D": 3, "DP16KD": 2}}}}
    netlist_text = {"text": json.dumps(_netlist({"fa": _ff(20, 10), "l1": _lut([10], 11),
                                                 "fb": _ff(11, 12)}, {"a_q": [10], "b_q": [12]}))}

    def synthesize(config, workdir, timeout, progress, abc9_delay_ps, keep_sources=False):
        assert keep_sources                   # the ranking names registers by their RTL lines
        work = tmp_path / workdir
        work.mkdir(parents=True, exist_ok=True)
        (work / "stat.json").write_text(json.dumps(stat))
        (work / "montu_top.json").write_text(netlist_text["text"])
        return work / "montu_top.json"

    monkeypatch.setattr(flow, "synthesize", synthesize)
    assert montu_main(["synth", "--top", "montu_mont", "--depth"]) == 0
    captured = capsys.readouterr()
    out = captured.out + captured.err     # the progress line is on stderr
    assert "Yosys: LUT4 1,000, CCU2C 250, FF 700, MULT18X18D 3, DP16KD 2" in out
    assert "about 1,500 LUT sites before packing (2 % of the LFE5U-85F's 83,640)" in out
    assert "b_q (D)" in out
    netlist_text["text"] = "{"
    assert montu_main(["synth", "--top", "montu_mont", "--depth"]) != 0


def test_only_names_from_the_rtl_name_a_register() -> None:
    from montu.synth.depth import is_rtl_name

    assert is_rtl_name("u_seq.pc_q") and is_rtl_name("g_pe[0].u_pe.acc_q") and is_rtl_name("_q_")
    assert not is_rtl_name("$abc$123$x")                                  # Yosys internal
    assert not is_rtl_name("nxc_q_TRELLIS_FF_Q_CE_LUT4_Z")                # synth_ecp5's autoname
    assert not is_rtl_name("_260_") and not is_rtl_name("_0_")           # an engine build's enumeration
