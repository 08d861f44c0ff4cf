"""programs/ec.rns is what montu.engines.antao.ec_program generates, and the static bounds behind
it hold (or are refused) for a curve on a build."""

from __future__ import annotations

import pytest

from montu.arith.antao_ec import P256
from montu.engines.antao import ec_program, host
from montu.engines.antao.params import AntaoParams


def test_the_shipped_ec_program_is_the_generated_one() -> None:
    assert ec_program.main(["--check"]) == 0


def test_the_bounds_hold_for_p256_on_its_build_and_are_refused_on_too_small_bases() -> None:
    bases = host.bases_for(AntaoParams(w=64, pes=5, alpha_bits=5))
    ec_program.check_curve(P256.p, bases.m1, bases.m2)
    with pytest.raises(ValueError, match="renormalization|range"):
        ec_program.check_curve(P256.p, P256.p * 16, P256.p * 16)


def test_every_subtraction_constant_is_loaded_by_ecsetup() -> None:
    text = ec_program.render()
    for k in ec_program.multiples():
        assert f"load KP{k}1" in text and f"load KP{k}2" in text
