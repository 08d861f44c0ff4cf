"""The simulator's STARTMMI and MINV agree with the #2 golden models of bie2021 (Alg. 2, Alg. 3).

The RTL is checked against the simulator command by command (tests/hw), so this closes the
triangle golden model — simulator — RTL.
"""

import math
import random

import pytest

from montu.arith import bie, gf2m
from montu.arith.field import Field
from montu.isa import encode
from montu.backends.sim import Simulator


def _load(sim: Simulator, reg: int, value: int) -> None:
    for j in range(sim.words):
        sim.execute(encode("WMMI", rd=reg), (value >> (64 * j)) & (2**64 - 1))


def _read(sim: Simulator, reg: int) -> int:
    return sum(sim.execute(encode("RMMI", ra=reg)).data << (64 * j) for j in range(sim.words))


@pytest.mark.parametrize("bits", [64, 192, 521, 1024, 2048])
def test_startmmi_equals_bie_alg2_gfp(bits):
    rng = random.Random(bits)
    sim = Simulator()
    sim.execute(encode("SETMMI", imm=-(-bits // 64)))
    for _ in range(3):
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        x, y = rng.randrange(n), rng.randrange(n)
        _load(sim, 1, n), _load(sim, 2, x), _load(sim, 3, y)
        sim.execute(encode("SETMOD", ra=1))
        sim.execute(encode("STARTMMI", rd=4, ra=2, rb=3))
        assert _read(sim, 4) == bie.mont_mul(x, y, n, field=Field.GFP)[0]


@pytest.mark.parametrize("m", [163, 283, 409, 571])
def test_startmmi_and_minv_equal_bie_in_gf2m(m):
    rng = random.Random(m)
    f = gf2m.NIST_POLYNOMIALS[m]
    sim = Simulator()
    sim.execute(encode("SETMMI", imm=-(-(m + 1) // 64), f=1))
    _load(sim, 1, f)
    sim.execute(encode("SETMOD", ra=1))
    a, b = rng.getrandbits(m), rng.getrandbits(m) or 1
    _load(sim, 2, a), _load(sim, 3, b)
    sim.execute(encode("STARTMMI", rd=4, ra=2, rb=3))
    assert _read(sim, 4) == bie.mont_mul(a, b, f, field=Field.GF2M)[0]
    sim.execute(encode("MINV", rd=5, ra=3, rb=1))
    assert _read(sim, 5) == bie.mod_inv(b, f, field=Field.GF2M)[0]


@pytest.mark.parametrize("bits", [64, 256, 1000, 2048])
def test_minv_equals_bie_alg3_for_odd_and_even_moduli(bits):
    rng = random.Random(bits + 1)
    sim = Simulator()
    sim.execute(encode("SETMMI", imm=-(-bits // 64)))
    for even in (False, True):
        n = rng.getrandbits(bits) | (1 << (bits - 1))
        n = n & ~1 if even else n | 1
        a = rng.randrange(1, n) | 1
        while math.gcd(a, n) != 1:
            a = rng.randrange(1, n) | 1
        _load(sim, 1, n), _load(sim, 2, a)
        for one_bit in (0, 1):
            assert sim.execute(encode("MINV", rd=3, ra=2, rb=1, imm=one_bit)).err == 0
            assert _read(sim, 3) == bie.mod_inv(a, n, field=Field.GFP)[0]
