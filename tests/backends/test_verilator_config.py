"""montu.backends.verilator.build.RtlConfig: the parameters a Verilated build gets and its cache key (no
Verilator needed)."""

import pytest

from montu.backends.verilator.build import RtlConfig, cache_key


def test_pipelined_is_a_generic_only_when_set_and_a_separate_build():
    default = RtlConfig(word_bits=64, lanes=2, max_bits=1024, num_regs=16)
    pm = RtlConfig(word_bits=64, lanes=2, max_bits=1024, num_regs=16, pipelined=True)
    assert default.generics == {"Word": 64, "Lanes": 2, "MaxBits": 1024, "NumRegs": 16}
    assert pm.generics == default.generics | {"Pipelined": 1}
    snapshot = {"montu_top.sv": b"module montu_top; endmodule\n"}
    assert cache_key(default, snapshot, "v", "c") != cache_key(pm, snapshot, "v", "c")


def test_pipelined_needs_two_or_four_lanes():
    with pytest.raises(ValueError, match="Pipelined needs Lanes = 2 or 4"):
        RtlConfig(lanes=1, pipelined=True)
    assert RtlConfig(lanes=4, pipelined=True).pipelined


def test_the_cilardo_build_is_mulcore_1_and_a_separate_build():
    """engine="cilardo": montu_top with MulCore = 1, its own cache key; the bie2021 builds keep
    the keys they had before the engine field existed (no rebuild of cached libraries)."""
    import hashlib
    import json
    from dataclasses import asdict

    from montu.backends.verilator import build

    default = RtlConfig(max_bits=1024, num_regs=16)
    cilardo = RtlConfig(max_bits=1024, num_regs=16, engine="cilardo")
    assert cilardo.generics == default.generics | {"MulCore": 1}
    assert cilardo.unit.engine == "cilardo"
    snapshot = {"montu_top.sv": b"module montu_top; endmodule\n"}
    assert cache_key(default, snapshot, "v", "c") != cache_key(cilardo, snapshot, "v", "c")
    old_fields = {k: v for k, v in asdict(default).items() if k != "engine"}
    digest = hashlib.sha256()
    digest.update(b"montu_top.sv\0" + snapshot["montu_top.sv"] + b"\0")
    digest.update(build.HARNESS_FILE.read_bytes())
    digest.update(json.dumps({"config": old_fields, "verilator_flags": build.VERILATOR_FLAGS,
                              "make_flags": build.MAKE_FLAGS, "verilator": "v", "cxx": "c"},
                             sort_keys=True).encode())
    assert cache_key(default, snapshot, "v", "c") == digest.hexdigest()[:24]


def test_the_cilardo_build_needs_word_64_and_may_pipeline_the_other_engines():
    with pytest.raises(ValueError, match="engine cilardo needs Word = 64"):
        RtlConfig(word_bits=32, engine="cilardo")
    assert RtlConfig(pipelined=True, engine="cilardo").pipelined


def test_open_backend_builds_the_simulator_of_the_configs_engine():
    from montu.backends import open_backend
    from montu.config import UnitConfig

    assert open_backend("sim", UnitConfig(engine="cilardo")).config.engine == "cilardo"
