"""cocotb bench of montu_top's assertions (montu_top_assert.sv), for tests/hw/test_assertions.py.

A few commands with back-pressure on the response port: SETMMI, WMMI, RMMI, SETMOD, SHLX, MMX,
NOP; with
MONTU_TRACE_OUT set, the outputs of every cycle after reset go to that file. In a normal build
no assertion may fire; in a MONTU_ASSERT_SELFTEST build, the plusarg given breaks one rule and the
run must stop at that rule's assertion (the pytest runner checks the log).
"""

from __future__ import annotations

import json
import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

from montu.isa import encode


async def _command(dut, insn: int, data: int = 0, hold_ready: int = 2) -> int:
    """Send one command; keep rsp_ready low for `hold_ready` cycles of a valid response."""
    dut.cmd_insn_i.value = insn
    dut.cmd_data_i.value = data
    dut.cmd_valid_i.value = 1
    while True:
        await RisingEdge(dut.clk_i)
        if int(dut.cmd_ready_o.value):
            break
    dut.cmd_valid_i.value = 0
    while not int(dut.rsp_valid_o.value):
        await RisingEdge(dut.clk_i)
    await ClockCycles(dut.clk_i, hold_ready)        # the response must hold while not taken
    dut.rsp_ready_i.value = 1
    data_out = int(dut.rsp_data_o.value)
    await RisingEdge(dut.clk_i)
    dut.rsp_ready_i.value = 0
    return data_out


async def _record_outputs(dut, trace: list[list[int]]) -> None:
    """Every cycle after reset: what a host may look at — the handshake signals always, the
    response fields while rsp_valid (the rule montu_top_assert's OutputsKnown states), for the
    2-state check: two runs from different random initial states must see the same."""
    while True:
        await RisingEdge(dut.clk_i)
        valid = int(dut.rsp_valid_o.value)
        fields = [int(dut.rsp_data_o.value), int(dut.rsp_err_o.value), int(dut.rsp_flags_o.value),
                  int(dut.rsp_cycles_o.value)] if valid else []
        trace.append([int(dut.cmd_ready_o.value), valid, *fields])


@cocotb.test()
async def a_short_command_stream(dut) -> None:
    # reset before the first clock edge: the flip-flops start random (+verilator+rand+reset+2),
    # and the assertions, sampled from the first edge on, hold only after a reset
    dut.rst_ni.value = 0
    dut.cmd_valid_i.value = 0
    dut.rsp_ready_i.value = 0
    dut.cmd_insn_i.value = 0
    dut.cmd_data_i.value = 0
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns", impl="gpi").start())
    await ClockCycles(dut.clk_i, 3)
    dut.rst_ni.value = 1
    trace: list[list[int]] = []
    cocotb.start_soon(_record_outputs(dut, trace))
    await ClockCycles(dut.clk_i, 2)
    await _command(dut, encode("SETMMI", imm=1))
    await _command(dut, encode("WMMI", rd=1), data=0x1234)
    word = await _command(dut, encode("RMMI", ra=1))
    if not os.environ.get("MONTU_TRACE_OUT"):   # tracing runs compare whole traces instead
        assert word == 0x1234
    # a modulus, a window X = 1 and an MMX by table entry 2 + X: the register file's table
    # entry (ytab_q, montu_top_assert's TableEntryRegistered) is read in the product's clocks
    await _command(dut, encode("WMMI", rd=2), data=0xFFFF_FFFF_FFFF_FFC5)   # odd
    await _command(dut, encode("SETMOD", ra=2))
    await _command(dut, encode("WMMI", rd=3), data=5)                       # R[2 + 1]
    await _command(dut, encode("WMMI", rd=5), data=1 << 63)
    await _command(dut, encode("SHLX", rd=5, ra=5, imm=1))
    await _command(dut, encode("MMX", rd=6, ra=1, rb=2, imm=1))
    for _ in range(4):
        await _command(dut, encode("NOP"))
    await ClockCycles(dut.clk_i, 5)
    if os.environ.get("MONTU_TRACE_OUT"):
        with open(os.environ["MONTU_TRACE_OUT"], "w") as out:
            json.dump(trace, out)
