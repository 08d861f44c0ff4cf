"""cocotb bench of the cilardo2008 encoders and generator (hw/ip/cilardo/dv/cilardo_enc_harness.sv:
cilardo_booth_enc, cilardo_mont_enc, cilardo_gen; run by tests/hw/test_cilardo_cocotb.py).

Every input combination of both encoders in both fields against Tables 1 and 2 as printed (the
TABLE_1 / TABLE_2 dicts of tests/arith/test_cilardo.py: digit value, trp, shl, and inv where the
table gives one) and against the golden model's corrected eqs. (1)-(2) (booth_digit,
montgomery_digit: all three signals, don't-cares included); the PPG/MMG against
recoded_multiple for every control combination the encoders produce and random / edge operands.
"""

from __future__ import annotations

import importlib.util
import random

import cocotb
from cocotb.triggers import Timer

from montu.arith.cilardo_recoding import (Digit, _digit_from_signals, booth_digit,
                                          montgomery_digit, recoded_multiple)
from montu.paths import repo_root

WORD = 64


def printed_tables() -> tuple[dict, dict]:
    path = repo_root() / "tests" / "arith" / "test_cilardo.py"
    spec = importlib.util.spec_from_file_location("cilardo_tables", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.TABLE_1, module.TABLE_2


@cocotb.test()
async def encoders_match_tables_and_golden(dut) -> None:
    table1, table2 = printed_tables()
    checked = 0
    for fsel in (0, 1):
        for bits in range(8):
            hi, mid, lo = (bits >> 2) & 1, (bits >> 1) & 1, bits & 1
            dut.b2_i.value, dut.b1_i.value, dut.b0_i.value = hi, mid, lo
            dut.sp1_i.value, dut.sp0_i.value, dut.n1_i.value = hi, mid, lo
            dut.fsel_i.value = fsel
            await Timer(1, unit="ns")
            got_b = (int(dut.binv_o.value), int(dut.btrp_o.value), int(dut.bshl_o.value))
            got_m = (int(dut.minv_o.value), int(dut.mtrp_o.value), int(dut.mshl_o.value))
            for got, table, golden, name in ((got_b, table1, booth_digit, "Table 1"),
                                             (got_m, table2, montgomery_digit, "Table 2")):
                value, inv, trp, shl = table[(fsel, hi, mid, lo)]
                row = f"{name} row fsel={fsel} bits={hi}{mid}{lo}"
                assert got[1:] == (trp, shl), f"{row}: (trp, shl) = {got[1:]}, printed {(trp, shl)}"
                if inv is not None:
                    assert got[0] == inv, f"{row}: inv = {got[0]}, printed {inv}"
                assert _digit_from_signals(*got, fsel).value == value, f"{row}: digit value"
                g = golden((hi, mid, lo), fsel)
                assert got == (g.inv, g.trp, g.shl), f"{row}: RTL {got} != golden {g}"
                checked += 1
    assert checked == 32
    dut._log.info(f"{checked} encoder rows checked")


@cocotb.test()
async def generator_matches_recoded_multiple(dut) -> None:
    rng = random.Random(7)
    mask = (1 << (WORD + 2)) - 1
    operands = [0, 1, (1 << WORD) - 1, 1 << (WORD - 1), 0x5555555555555555]
    operands += [rng.getrandbits(WORD) for _ in range(40)]
    controls = {(d.inv, d.trp, d.shl, fsel) for fsel in (0, 1) for bits in range(8)
                for d in (booth_digit(((bits >> 2) & 1, (bits >> 1) & 1, bits & 1), fsel),
                          montgomery_digit(((bits >> 2) & 1, (bits >> 1) & 1, bits & 1), fsel))}
    for x in operands:
        for inv, trp, shl, fsel in sorted(controls):
            dut.x_i.value = x
            dut.inv_i.value, dut.trp_i.value, dut.shl_i.value, dut.fsel_i.value = inv, trp, shl, fsel
            await Timer(1, unit="ns")
            mult, one = int(dut.mult_o.value), int(dut.one_o.value)
            want = recoded_multiple(x, Digit(value=0, inv=inv, trp=trp, shl=shl), fsel)
            assert (mult + one) & mask == want & mask, \
                f"x={x:#x} inv/trp/shl={inv}{trp}{shl} fsel={fsel}: {mult:#x}+{one} != {want:#x}"
            if fsel == 0:
                assert one == 0 and mult == want
