"""montu.synth: configurations, the scripts it writes, and the parsing of the tools' reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from montu.errors import MontuError
from montu.synth import SWEEP, Device, SynthConfig
from montu.synth import flow, results

STAT = {  # the shape of Yosys 0.70 `stat -json` for a flattened top
    "creator": "Yosys 0.70",
    "modules": {"\\montu_top": {"num_cells_by_type": {"LUT4": 9}}},
    "design": {"num_cells": 10, "num_cells_by_type": {
        "LUT4": 34046, "CCU2C": 2088, "TRELLIS_FF": 3109, "MULT18X18D": 84, "DP16KD": 6,
        "TRELLIS_DPR16X4": 144, "PFUMX": 4516, "L6MUX21": 1155}},
}
REPORT = {  # the shape of nextpnr-ecp5 `--report`
    "fmax": {"clk_i": {"achieved": 41.72, "constraint": 100.0}},
    "utilization": {"TRELLIS_COMB": {"used": 40000, "available": 83640},
                    "DP16KD": {"used": 6, "available": 208},
                    "TRELLIS_IO": {"used": 0, "available": 365}},
    "critical_paths": [{"from": "clk_i", "to": "clk_i", "path": [
        {"type": "clk-to-q", "from": {"cell": "u_mont.sa_q_reg", "port": "CLK"},
         "to": {"cell": "u_mont.sa_q_reg", "port": "Q"}, "delay": 0.5},
        {"type": "routing", "from": {"cell": "x", "port": "Q"},
         "to": {"cell": "u_mont.sb_q_reg", "port": "DI"}, "delay": 1.0}]}],
}


def test_the_sweep_is_the_twelve_configurations_of_the_issue():
    assert len(SWEEP) == 12
    assert {(c.word, c.lanes, c.max_bits) for c in SWEEP} == {
        (w, l, b) for w in (32, 64) for l in (1, 2, 4) for b in (1024, 4096)}
    assert len({c.name for c in SWEEP}) == 12


@pytest.mark.parametrize("kwargs, message", [
    ({"word": 48}, "Word must be 32 or 64"),
    ({"lanes": 3}, "Lanes must be 1, 2 or 4"),
    ({"max_bits": 1000}, "multiple of 64"),
    ({"num_regs": 8}, "NumRegs"),
])
def test_bad_configurations_are_refused_with_the_reason(kwargs, message):
    with pytest.raises(MontuError, match=message):
        SynthConfig(**kwargs)


def test_bad_speed_grade_is_refused():
    with pytest.raises(MontuError, match="speed grade"):
        Device(speed=5)


def test_yosys_script_uses_slang_single_threaded_relative_paths_and_writes_stat():
    cfg = SynthConfig(word=32, lanes=4, max_bits=1024, num_regs=16)
    script = flow.yosys_script(cfg, ["rtl/montu_pkg.sv", "rtl/montu_top.sv"], "build/synth/x")
    assert "read_slang --threads 1 -DSYNTHESIS -GWord=32 -GLanes=4 -GMaxBits=1024 -GNumRegs=16 --top montu_top" in script
    assert "synth_ecp5 -top montu_top -json build/synth/x/montu_top.json" in script
    assert "stat -json" in script
    assert "/work" not in script and " /" not in script   # yowasp sees only relative paths


def test_rtl_sources_put_the_package_first():
    sources = flow.rtl_sources(flow.repo_root())
    assert sources.index("hw/ip/montu/rtl/montu_pkg.sv") < sources.index("hw/ip/montu/rtl/montu_wordop.sv")
    assert sources[-1] == "hw/ip/montu/rtl/montu_top.sv" and all(s.startswith("hw/ip/") for s in sources)
    mont = flow.rtl_sources(flow.repo_root(), "montu_mont")
    assert "hw/ip/montu/rtl/montu_top.sv" not in mont and mont[-1] == "hw/ip/montu/rtl/montu_mont.sv"


def test_nextpnr_arguments_state_device_package_speed_seed_and_out_of_context():
    args = flow.nextpnr_args(Device(speed=7, seed=3, target_mhz=125), "build/synth/x")
    joined = " ".join(args)
    assert args[0] == "--85k"
    assert "--package CABGA381" in joined and "--speed 7" in joined and "--seed 3" in joined
    assert "--out-of-context" in args and "--freq 125" in joined
    assert "--report build/synth/x/report.json" in joined


def test_parse_stat_reads_the_design_cell_counts():
    cells = flow.parse_stat(STAT)
    assert cells["LUT4"] == 34046 and cells["MULT18X18D"] == 84 and cells["DP16KD"] == 6


def test_parse_stat_falls_back_to_the_top_module():
    cells = flow.parse_stat({"modules": {"\\montu_top": {"num_cells_by_type": {"LUT4": 7}}}})
    assert cells == {"LUT4": 7}
    with pytest.raises(flow.SynthError, match="montu_top"):
        flow.parse_stat({"modules": {"\\other": {}}})


def test_parse_report_reads_fmax_used_sites_and_the_critical_path():
    fmax, used, path = flow.parse_report(REPORT)
    assert fmax == pytest.approx(41.72)
    assert used == {"TRELLIS_COMB": 40000, "DP16KD": 6}       # unused types dropped
    assert path == ["u_mont.sa_q_reg.CLK", "u_mont.sb_q_reg.DI"]


def test_parse_report_without_fmax_is_an_error():
    with pytest.raises(flow.SynthError, match="fmax"):
        flow.parse_report({"utilization": {}})


def _result(word: int = 64, lanes: int = 2, max_bits: int = 4096, fmax: float = 41.7) -> flow.SynthResult:
    cfg = SynthConfig(word=word, lanes=lanes, max_bits=max_bits)
    return flow.SynthResult(config=cfg.generics, device={"device": "LFE5U-85F", "package": "CABGA381",
                                                         "speed": 6, "seed": 1, "target_mhz": 100.0},
                            cells=flow.parse_stat(STAT), utilization={"TRELLIS_COMB": 40000},
                            fmax_mhz=fmax, meets_target=fmax >= 100)


def test_results_merge_replaces_the_same_configuration_and_keeps_the_others(tmp_path: Path):
    path = tmp_path / "synth.json"
    data = results.load(path)
    assert data["runs"] == []
    data = results.merge(data, _result(fmax=40.0), "aaa")
    data = results.merge(data, _result(lanes=4, fmax=35.0), "aaa")
    data = results.merge(data, _result(fmax=45.0), "bbb")
    results.save(data, path)
    runs = json.loads(path.read_text())["runs"]
    assert [(r["config"]["Lanes"], r["fmax_mhz"], r["rtl_sha256"]) for r in runs] == [
        (2, 45.0, "bbb"), (4, 35.0, "aaa")]
    assert runs[0]["lut_equivalents"] == 40000


def test_results_load_refuses_a_foreign_file(tmp_path: Path):
    bad = tmp_path / "synth.json"
    bad.write_text("{\"rows\": []}")
    with pytest.raises(MontuError, match="not a `montu synth` results file"):
        results.load(bad)
    bad.write_text("{not json")
    with pytest.raises(MontuError, match="not valid JSON"):
        results.load(bad)


def test_rtl_digest_changes_with_the_sources(tmp_path: Path):
    source = tmp_path / "a.sv"
    source.write_text("module a; endmodule\n")
    first = results.rtl_digest([source])
    source.write_text("module a; logic x; endmodule\n")
    assert results.rtl_digest([source]) != first
    assert len(results.rtl_digest()) == 12          # the unit core's sources by default


def test_an_engine_run_gets_the_engine_parameters_and_its_own_name():
    mont = SynthConfig(word=64, lanes=2, max_bits=4096, top="montu_mont")
    assert mont.generics == {"Word": 64, "MaxWords": 64, "Lanes": 2}
    assert mont.label["top"] == "montu_mont" and mont.name == "montu_mont_w64_l2_b4096"
    inv = SynthConfig(word=32, lanes=4, max_bits=1024, top="montu_inv")
    assert inv.generics == {"Word": 32, "MaxWords": 32}
    script = flow.yosys_script(inv, ["rtl/montu_pkg.sv"], "w")
    assert "--top montu_inv" in script and "synth_ecp5 -top montu_inv" in script
    assert "top" not in SynthConfig().label          # unit runs keep the plain key
    with pytest.raises(MontuError, match="top must be one of"):
        SynthConfig(top="montu_alu")


def test_pipelined_adds_the_parameter_and_a_suffix_and_leaves_the_default_as_it_was():
    default = SynthConfig(word=64, lanes=2, max_bits=4096)
    assert default.name == "w64_l2_b4096_r32"
    assert default.generics == {"Word": 64, "Lanes": 2, "MaxBits": 4096, "NumRegs": 32}
    assert default.label == {"Word": 64, "Lanes": 2, "MaxBits": 4096, "NumRegs": 32}
    assert "read_slang --threads 1 -DSYNTHESIS -GWord=64 -GLanes=2 -GMaxBits=4096 -GNumRegs=32 --top montu_top " \
        in flow.yosys_script(default, ["rtl/montu_top.sv"], "w")
    assert all("Pipelined" not in c.generics and not c.name.endswith("_pipelined") for c in SWEEP)

    pm = SynthConfig(word=64, lanes=2, max_bits=4096, pipelined=True)
    assert pm.name == "w64_l2_b4096_r32_pipelined"
    assert pm.generics == {"Word": 64, "Lanes": 2, "MaxBits": 4096, "NumRegs": 32, "Pipelined": 1}
    assert pm.label == default.label | {"Pipelined": 1}
    assert "-GNumRegs=32 -GPipelined=1 --top montu_top" in flow.yosys_script(pm, ["rtl/montu_top.sv"], "w")
    mont = SynthConfig(lanes=4, top="montu_mont", pipelined=True)
    assert mont.name == "montu_mont_w64_l4_b4096_pipelined"
    assert mont.generics == {"Word": 64, "MaxWords": 64, "Lanes": 4, "Pipelined": 1}
    assert mont.label == {"top": "montu_mont", "Word": 64, "Lanes": 4, "MaxBits": 4096, "NumRegs": 32,
                          "Pipelined": 1}
    wordop = SynthConfig(lanes=1, top="montu_wordop", pipelined=True)   # no lanes in the word engine
    assert wordop.name == "montu_wordop_w64_l1_b4096_pipelined"
    assert wordop.generics == {"Word": 64, "MaxWords": 64, "Pipelined": 1}
    inv = SynthConfig(max_bits=1024, top="montu_inv", pipelined=True)
    assert inv.name == "montu_inv_w64_l2_b1024_pipelined"
    assert inv.generics == {"Word": 64, "MaxWords": 16, "Pipelined": 1}


def test_pipelined_runs_merge_beside_the_default_run(tmp_path: Path):
    pm = flow.SynthResult(config=SynthConfig(pipelined=True).label, device=_result().device,
                          cells={}, utilization={}, fmax_mhz=60.0, meets_target=False)
    data = results.merge(results.merge(results.load(tmp_path / "s.json"), _result(), "a"), pm, "a")
    assert [r["config"].get("Pipelined") for r in data["runs"]] == [None, 1]


@pytest.mark.parametrize("kwargs, message", [
    ({"lanes": 1}, "Pipelined needs Lanes = 2 or 4"),
    ({"lanes": 1, "top": "montu_mont"}, "Pipelined needs Lanes = 2 or 4"),
])
def test_pipelined_is_refused_where_the_rtl_has_no_such_unit(kwargs, message):
    with pytest.raises(MontuError, match=message):
        SynthConfig(pipelined=True, **kwargs)


def test_progress_prints_one_line_per_step_and_a_summary():
    import io

    from montu.synth.progress import Progress

    stream = io.StringIO()
    with Progress(2, stream=stream) as progress:
        progress.start(1, "w64_l2_b4096_r32")
        progress.step("yosys")
        progress.step("nextpnr")
        progress.done("fmax 50.0 MHz")
    lines = stream.getvalue().splitlines()
    assert lines[0] == "[1/2] w64_l2_b4096_r32: yosys …"
    assert lines[1].startswith("[1/2] w64_l2_b4096_r32: yosys done in ")
    assert lines[2] == "[1/2] w64_l2_b4096_r32: nextpnr …"
    assert lines[-1].startswith("[1/2] w64_l2_b4096_r32: fmax 50.0 MHz (total elapsed ")


def test_net_stem_recovers_the_rtl_signal_from_a_mapped_cell_name():
    assert flow.net_stem("t_wdata_o_LUT4_Z_22_C_TRELLIS_FF_Q_DI_LUT4_Z_D_CCU2C_S1_COUT") == "t_wdata_o"
    assert flow.net_stem("k_q_TRELLIS_FF_Q_2") == "k_q"
    assert flow.net_stem("u_mont.sa_q_reg") == "u_mont.sa_q_reg"
    assert len(flow.net_stem("x" * 200)) == 78


def test_path_makeup_counts_multipliers_carry_cells_and_other_levels():
    steps = [{"type": "clk-to-q", "from": {"port": "CLK"}, "to": {"port": "Q"}, "delay": 0.5},
             {"type": "routing", "from": {"port": "Q"}, "to": {"port": "A2"}, "delay": 1.0},
             {"type": "logic", "from": {"port": "A2"}, "to": {"port": "P0"}, "delay": 3.9}]
    steps += [{"type": "logic", "from": {"port": "FCI"}, "to": {"port": "FCO"}, "delay": 0.07}] * 8
    steps += [{"type": "logic", "from": {"port": "A"}, "to": {"port": "F"}, "delay": 0.4},
              {"type": "setup", "from": {"port": "DI"}, "to": {"port": "DI"}, "delay": 0.0}]
    text = flow.path_makeup({"critical_paths": [{"from": "clk_i", "to": "clk_i", "path": steps}]})
    assert text == "6.4 ns (1.0 ns routing): 1 MULT18X18D, 4 CCU2C carry cells, 1 other logic levels"
    assert flow.path_makeup({}) == ""


def test_parse_log_gives_the_placer_estimate_and_the_utilisation():
    log = ("Info: Device utilisation:\n"
           "Info: \t              DP16KD:      42/    208    20%\n"
           "Info: \t          TRELLIS_IO:       0/    365     0%\n"
           "Info: \t        TRELLIS_COMB:   38249/  83640    45%\n"
           "Info: Max frequency for clock 'clk_i': 12.00 MHz (FAIL at 100.00 MHz)\n"
           "Info: Max frequency for clock 'clk_i': 19.41 MHz (FAIL at 100.00 MHz)\n")
    fmax, used = flow.parse_log(log)
    assert fmax == pytest.approx(19.41)
    assert used == {"DP16KD": 42, "TRELLIS_COMB": 38249}
    assert flow.parse_log("nothing") == (None, {})


def test_router_options_reach_nextpnr_only_when_asked_for():
    default = flow.nextpnr_args(Device(), "build/synth/x")
    assert "--router" not in default and "--tmg-ripup" not in default
    args = flow.nextpnr_args(Device(router="router2", tmg_ripup=True), "build/synth/x")
    assert args[args.index("--router") + 1] == "router2" and "--tmg-ripup" in args
    with pytest.raises(MontuError, match="router must be one of router1, router2"):
        Device(router="router3")


def test_placer_options_reach_nextpnr_only_when_asked_for():
    default = flow.nextpnr_args(Device(), "build/synth/x")
    assert "--placer" not in default
    static = flow.nextpnr_args(Device(placer="static"), "build/synth/x", place_only=True)
    assert static[static.index("--placer") + 1] == "static"
    with pytest.raises(MontuError, match="placer must be one of heap, static"):
        Device(placer="sa")


def test_lut_map_target_gives_abc9_the_target_period_and_says_so():
    cfg = SynthConfig(word=32, lanes=2, max_bits=1024)
    assert "abc9.D" not in flow.yosys_script(cfg, ["rtl/montu_top.sv"], "w")
    device = Device(target_mhz=125, lut_map="target")
    assert device.abc9_delay_ps == 8000 and Device().abc9_delay_ps is None
    script = flow.yosys_script(cfg, ["rtl/montu_top.sv"], "w", device.abc9_delay_ps)
    lines = script.splitlines()
    assert lines.index("scratchpad -set abc9.D 8000") < next(
        i for i, line in enumerate(lines) if line.startswith("synth_ecp5"))
    assert "8000 ps" in flow.lut_mapper(device) and "default" in flow.lut_mapper(Device())
    with pytest.raises(MontuError, match="lut_map must be one of delay, target"):
        Device(lut_map="area")


OVERFULL_LOG = (  # the shape of nextpnr-ecp5's log when the design does not fit
    "Info: Device utilisation:\n"
    "Info: \t          TRELLIS_IO:       0/    365     0%\n"
    "Info: \t              DP16KD:       0/    208     0%\n"
    "Info: \t        TRELLIS_COMB:  130512/  83640   156%\n"
    "Info: \t          TRELLIS_FF:   22400/  83640    26%\n"
    "ERROR: Unable to place cell 'u_core.x$lut', no BELs remaining to implement cell type "
    "'TRELLIS_COMB'\n")


def test_over_capacity_names_the_site_types_beyond_the_device_only_when_placement_failed():
    assert flow.over_capacity(OVERFULL_LOG) == {"TRELLIS_COMB": (130512, 83640)}
    assert flow.over_capacity(OVERFULL_LOG.replace("ERROR: Unable", "Info: Unable")
                              .replace("no BELs remaining", "placed")) == {}
    assert flow.over_capacity("ERROR: route failed\n") == {}
    # the counts fit but that type's placement did not: the type is still named
    tight = ("Info: \t        MULT18X18D:     156/    156   100%\n"
             "ERROR: Unable to place cell 'm', no BELs remaining to implement cell type 'MULT18X18D'\n")
    assert flow.over_capacity(tight) == {"MULT18X18D": (0, 0)}
    # the analytic placer's way of saying it (nextpnr-ecp5 with HeAP, the default placer)
    heap = OVERFULL_LOG.replace("ERROR: Unable to place cell 'u_core.x$lut', no BELs remaining to "
                                "implement cell type 'TRELLIS_COMB'",
                                "ERROR: Unable to find legal placement for all cells, design is "
                                "probably at utilisation limit.")
    assert "no BELs" not in heap
    assert flow.over_capacity(heap) == {"TRELLIS_COMB": (130512, 83640)}
    assert flow.over_capacity(heap.replace("130512/", " 80512/")) == {}   # fits: another failure
    assert flow.does_not_fit_stage("LFE5U-85F", {"TRELLIS_COMB": (130512, 83640)}) == (
        "does not fit the LFE5U-85F (TRELLIS_COMB: 130,512 of 83,640 sites, 156 %)")
    assert "MULT18X18D: no site left" in flow.does_not_fit_stage("LFE5U-85F", {"MULT18X18D": (0, 0)})


def _fake_tools(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, log: str) -> None:
    """flow.run with Yosys's output already in place and a nextpnr that fails with `log`."""
    monkeypatch.setattr(flow, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(flow, "tool", lambda name: name)

    def synthesize(config, workdir, timeout=0, progress=None, abc9_delay_ps=None):
        work = tmp_path / workdir
        work.mkdir(parents=True, exist_ok=True)
        (work / "stat.json").write_text(json.dumps(STAT))
        return work / "montu_top.json"

    def nextpnr(command, root, log_path, timeout, what):
        log_path.write_text(log)
        raise flow.SynthError(f"{what} failed with exit status 1")

    monkeypatch.setattr(flow, "synthesize", synthesize)
    monkeypatch.setattr(flow, "_run", nextpnr)


def test_a_design_that_does_not_fit_is_a_result_with_yosys_cells_and_no_fmax(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    _fake_tools(monkeypatch, tmp_path, OVERFULL_LOG)
    result = flow.run(SynthConfig(word=32, lanes=2, max_bits=1024), versions={})
    assert result.fmax_mhz is None and not result.meets_target
    assert result.fmax_stage.startswith(flow.DOES_NOT_FIT) and "156 %" in result.fmax_stage
    assert result.cells["LUT4"] == 34046 and result.utilization["TRELLIS_COMB"] == 130512
    data = results.merge({"runs": []}, result, "sha")
    assert json.loads(json.dumps(data))["runs"][0]["fmax_mhz"] is None


def test_any_other_nextpnr_failure_is_still_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    _fake_tools(monkeypatch, tmp_path, "ERROR: something else went wrong\n")
    with pytest.raises(flow.SynthError, match="failed with exit status 1"):
        flow.run(SynthConfig(word=32, lanes=2, max_bits=1024), versions={})


def test_an_engine_netlist_keeps_its_rtl_sources_only_for_the_depth_ranking():
    from montu.synth import EngineSynthConfig

    cfg = EngineSynthConfig(engine="antao", parameters=(("P", 4), ("W", 64)))
    routed = flow.yosys_script(cfg, ["rtl/antao_top.sv"], "w")
    ranked = flow.yosys_script(cfg, ["rtl/antao_top.sv"], "w", keep_sources=True)
    assert "setattr -unset src" in routed              # nextpnr's netlist: as small as it gets
    assert "setattr -unset src" not in ranked          # --depth: registers named by file:line
    assert "rename -enumerate" in ranked
    assert routed.replace("setattr -unset src\n", "") == ranked
