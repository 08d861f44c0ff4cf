"""`montu bench engines` on the simulators: every engine, the same operations, honest gaps."""

from __future__ import annotations

import json
import re

from montu.benchmarks import engines as bench


def test_bench_engines_measures_what_each_engine_supports_and_says_what_it_does_not(tmp_path):
    out = tmp_path / "engines.json"
    data = bench.run(backend="sim", out=out)
    assert json.loads(out.read_text()) == data and out.with_suffix(".txt").is_file()
    rows = {(r["engine"], r["op"], r["bits"]): r for r in data["rows"]}
    for (engine, op, bits), row in rows.items():
        if row["cycles"] is None:
            assert "not supported" in row["note"] or "constant time" in row["note"], row
        else:
            assert row["cycles"] > 0
            assert row["core_cycles"] is None or 0 < row["core_cycles"] <= row["cycles"]
            if row["fmax_mhz"] is not None:
                assert row["time_us"] == round(row["cycles"] / row["fmax_mhz"], 1)
    # the yeh engine: RSA only; its modexp's core is the golden model's BSR4 count exactly
    assert rows[("yeh", "kP-prime256v1", 256)]["cycles"] is None
    assert rows[("yeh", "gf2m-mul", 283)]["cycles"] is None
    modexp = rows[("yeh", "modexp", 1024)]
    weight = int(re.search(r"exponent weight (\d+)", modexp["note"]).group(1))
    assert modexp["core_cycles"] == (1024 + weight) * 513
    mean = rows[("yeh", "modexp-mean", 1024)]["spread"]
    assert mean["samples"] >= 20 and mean["core_min"] <= mean["core_mean"] <= mean["core_max"]
    assert mean["core_min"] % 513 == 0 and mean["core_max"] % 513 == 0   # whole BSR4s
    assert rows[("bie2021", "modexp-mean", 1024)]["cycles"] is None      # constant time: no mean
    # the verma engine: the paper's fixed-length ladder, (k + 2) passes of k/2 + g + m + 1 clocks
    assert rows[("verma", "modexp", 1024)]["core_cycles"] == 561_222      # Table 6
    assert rows[("verma", "modexp-mean", 1024)]["cycles"] is None        # constant time: no mean
    assert rows[("verma", "modmul", 2048)]["core_cycles"] == 3 * 1081     # three passes (Table 3)
    assert rows[("verma", "kP-prime256v1", 256)]["cycles"] is None
    # antao's RSA-512 twice: the build params_for_bits picks, and the variant with fewer
    # MULT18X18D (antao.ROUTED_BUILDS), which takes more clocks per exponent bit
    chosen, routed = rows[("antao", "modexp", 512)], rows[("antao", "modexp-routed", 512)]
    assert routed["build"]["MulShare"] > chosen["build"]["MulShare"]
    assert routed["core_cycles"] > chosen["core_cycles"] > 0
    assert {e for e, op, _ in rows if op == "modexp-routed"} == {"antao"}
    assert all(rows[("bie2021", op, bits)]["cycles"] for op, bits in
               [("modmul", 1024), ("kP-secp224r1", 224), ("gf2m-mul", 283), ("rsa-private", 2048)])
    # the cilardo build beside bie2021's: every operation of the unit, and STARTMMI at the paper's
    # sizes in both modes, whose Fig. 9 clocks are the paper's table in the paper's mode
    from montu.arith.cilardo_fios import PAPER_GFN_CLOCKS
    from montu.engines.cilardo import product_cycles

    for op, bits in [("modmul", 2048), ("rsa-private", 2048), ("kP-prime256v1", 256),
                     ("kP-sect283k1", 283), ("gf2m-mul", 283), ("startmmi", 2048)]:
        assert rows[("cilardo", op, bits)]["cycles"] and rows[("bie2021", op, bits)]["cycles"]
    for bits, clocks in PAPER_GFN_CLOCKS.items():
        paper, alg2 = rows[("cilardo", "startmmi", bits)], rows[("cilardo", "startmmi-alg2", bits)]
        assert paper["paper"]["fig9_clocks"] == paper["paper"]["paper_table"] == clocks
        assert paper["core_cycles"] == product_cycles(bits, "paper")["instruction"]
        assert alg2["paper"]["words"] == -(-(bits + 2) // 64)
        assert alg2["core_cycles"] == product_cycles(bits, "alg2")["instruction"]
        assert rows[("bie2021", "startmmi-alg2", bits)]["cycles"] is None
    assert rows[("yeh", "startmmi", 256)]["cycles"] is None
    # a build that does not fit (synth.json: yeh at 2048 bits) has rows with cycles and no time,
    # the reason in the note, and no placement-estimate star
    unfit = [r for r in data["rows"] if (r["fmax_stage"] or "").startswith("does not fit")]
    table = out.with_suffix(".txt").read_text()
    for row in unfit:
        assert row["fmax_mhz"] is None and row["time_us"] is None and "does not fit" in row["note"]
        line = next(l for l in table.splitlines()
                    if l.split()[:3] == [row["engine"], row["op"], str(row["bits"])])
        assert "*" not in line, line
