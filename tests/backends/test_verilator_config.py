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
