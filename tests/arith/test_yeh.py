"""Yeh et al. golden models: BSR4 radix-4 split Montgomery product and H-type exponentiation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montu.arith import yeh
from montu.arith.stats import Stats
from montu.demo import example_operands
from montu.errors import ModulusError

SMALL_SIZES = [64, 65, 96, 127, 128, 255, 256, 521, 1000, 1024]
BIG_SIZES = [1536, 2048, 3071, 4096]


@st.composite
def modulus_and_operands(draw: st.DrawFn, bits: int) -> tuple[int, int, int]:
    """An odd modulus of exactly `bits` bits and two operands in [0, N)."""
    n = draw(st.integers(1 << (bits - 1), (1 << bits) - 1)) | 1
    return n, draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))


def oracle(x: int, y: int, n: int) -> int:
    """x·y·R^-1 mod n for the model's R."""
    return x * y * pow(yeh.montgomery_radix(n), -1, n) % n


def random_modulus(bits: int, rng: random.Random) -> int:
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


def check_product(x: int, y: int, n: int) -> int:
    """Assert everything the paper promises for one BSR4 product; return the raw result."""
    r, stats = yeh.mont_mul(x, y, n)
    radix = yeh.montgomery_radix(n)
    assert r % n == oracle(x, y, n)
    assert 0 <= r <= 2 * n - 2  # P[L] + C1: below 2N, not necessarily below N
    assert r * radix < n * radix + x * y  # sharper: r < N + x·y/R
    width = radix.bit_length() - 1
    assert stats.cycles == width // 2 + 1
    assert sum(stats.counts[f"add_{k}N"] for k in range(4)) == stats.counts["iterations"]
    return r


# --- R and widths ----------------------------------------------------------------------------


@pytest.mark.parametrize("bits", [2, 3, 64, 65, 127, 521, 1000, 1024, 2048, 4095, 4096])
def test_radix_is_four_to_the_half_width_rounded_up(bits: int) -> None:
    n = (1 << (bits - 1)) | 1
    expected_width = bits if bits % 2 == 0 else bits + 1
    assert yeh.datapath_width(n) == expected_width
    assert yeh.montgomery_radix(n) == 4 ** ((bits + 1) // 2) == 1 << expected_width


# --- quotient selection ---------------------------------------------------------------------


# The paper's if/else: (q1, q0, n1) -> k, written out as its table.
PAPER_QUOTIENT_TABLE = {
    (0, 0, 0): 0, (0, 0, 1): 0,
    (1, 0, 0): 2, (1, 0, 1): 2,
    (0, 1, 0): 3, (0, 1, 1): 1,
    (1, 1, 0): 1, (1, 1, 1): 3,
}


@pytest.mark.parametrize(("q1", "q0", "n1"), sorted(PAPER_QUOTIENT_TABLE))
def test_quotient_selection_matches_paper_and_clears_two_bits(q1: int, q0: int, n1: int) -> None:
    k = yeh.quotient_multiple(q1, q0, n1)
    assert k == PAPER_QUOTIENT_TABLE[(q1, q0, n1)]
    modulus_mod_4 = 2 * n1 + 1
    assert (2 * q1 + q0 + k * modulus_mod_4) % 4 == 0


# --- BSR4 against the oracle ----------------------------------------------------------------


@pytest.mark.parametrize("bits", SMALL_SIZES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_mont_mul_matches_oracle_small(bits: int, data: st.DataObject) -> None:
    n, x, y = data.draw(modulus_and_operands(bits))
    check_product(x, y, n)


@pytest.mark.parametrize("bits", BIG_SIZES)
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_mont_mul_matches_oracle_big(bits: int, data: st.DataObject) -> None:
    n, x, y = data.draw(modulus_and_operands(bits))
    check_product(x, y, n)


@pytest.mark.parametrize("bits", [64, 65, 521, 1000, 2048])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_bsr4_split_and_quotient_are_the_montgomery_ones(bits: int, data: st.DataObject) -> None:
    """C1 is the high half of A·B, P[L] <= N, and Σ k_i 4^i is the unique Montgomery quotient."""
    n, x, y = data.draw(modulus_and_operands(bits))
    run = yeh.bsr4(x, y, n)
    radix = yeh.montgomery_radix(n)
    assert run.width == radix.bit_length() - 1
    assert len(run.multiples) == run.width // 2
    assert set(run.multiples) <= {0, 1, 2, 3}
    assert run.c1 == (x * y) >> run.width
    assert 0 <= run.p_final <= n
    assert run.result == run.p_final + run.c1
    quotient = sum(k << (2 * i) for i, k in enumerate(run.multiples))
    assert quotient == (-x * y * pow(n, -1, radix)) % radix
    assert x * y + quotient * n == run.result * radix


@pytest.mark.parametrize("bits", [3, 4, 64, 65, 127, 521, 1000, 2048, 4096])
def test_edge_operands(bits: int) -> None:
    rng = random.Random(bits)
    for n in {(1 << (bits - 1)) | 1, (1 << bits) - 1, random_modulus(bits, rng)}:
        for x in (0, 1, 2, n - 2, n - 1):
            for y in (0, 1, n - 1):
                r = check_product(x, y, n)
                if x == 0 or y == 0:
                    assert r == 0


def test_output_is_not_fully_reduced_worked_example() -> None:
    """N = 2^64 − 1, R = 2^64 ≡ 1: (N−1)^2·R^-1 ≡ 1, but BSR4 returns N + 1."""
    n = (1 << 64) - 1
    r, _ = yeh.mont_mul(n - 1, n - 1, n)
    assert r == n + 1
    assert r % n == oracle(n - 1, n - 1, n) == 1


@pytest.mark.parametrize("bits", [64, 65, 1000])
def test_results_at_or_above_n_occur_for_random_inputs(bits: int) -> None:
    rng = random.Random(2024 + bits)
    n = random_modulus(bits, rng)
    results = [check_product(rng.randrange(n), rng.randrange(n), n) for _ in range(100)]
    assert any(r >= n for r in results)
    assert all(r < 2 * n for r in results)


def test_mont_mul_stats_and_paper_figure() -> None:
    n = random_modulus(1024, random.Random(5))
    _, stats = yeh.mont_mul(3, 5, n)
    assert isinstance(stats, Stats)
    assert stats.cycles == 513 and stats.paper_cycles == 513
    assert stats.counts["iterations"] == 512 and stats.counts["c1_additions"] == 1
    _, odd = yeh.mont_mul(3, 5, random_modulus(1023, random.Random(5)))
    assert odd.cycles == 513 and odd.paper_cycles == 512.5  # 1023-bit modulus, 1024-bit datapath


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 2, 1 << 64, (1 << 2048) - 2])
def test_even_modulus_rejected(n: int) -> None:
    for call in (
        lambda: yeh.mont_mul(1, 1, n),
        lambda: yeh.bsr4(1, 1, n),
        lambda: yeh.mod_exp(1, 3, n),
        lambda: yeh.montgomery_radix(n),
    ):
        with pytest.raises(ModulusError, match="must be odd") as info:
            call()
        assert isinstance(info.value, ValueError)
    assert yeh.mont_mul(1, 1, 1001)[0] == oracle(1, 1, 1001)  # next good call works


@pytest.mark.parametrize("n", [1, -1, -7])
def test_modulus_below_three_rejected(n: int) -> None:
    with pytest.raises(ModulusError, match="greater than 1"):
        yeh.mont_mul(0, 0, n)


@pytest.mark.parametrize(("x", "y"), [(-1, 0), (0, -1), (1001, 0), (0, 1001), (2001, 5)])
def test_operands_outside_zero_to_n_rejected(x: int, y: int) -> None:
    n = 1001
    with pytest.raises(ValueError, match=r"0 <= A, B < N"):
        yeh.mont_mul(x, y, n)
    assert yeh.mont_mul(1000, 1000, n)[0] % n == oracle(1000, 1000, n)  # next good call works


# --- H-type exponentiation -------------------------------------------------------------------


def check_exp(base: int, exponent: int, n: int) -> Stats:
    result, stats = yeh.mod_exp(base, exponent, n)
    assert result == pow(base, exponent, n)
    counts = stats.counts
    if exponent:
        assert counts["squarings"] == exponent.bit_length() - 1
        assert counts["multiplications"] == bin(exponent).count("1") - 1
    else:
        assert counts["squarings"] == counts["multiplications"] == 0
    assert counts["conversions"] == 2
    kinds = ("conversions", "squarings", "multiplications")
    assert counts["bsr4_calls"] == sum(counts[kind] for kind in kinds)
    assert 0 <= counts["corrections"] <= counts["bsr4_calls"]
    assert stats.cycles == counts["bsr4_calls"] * (yeh.datapath_width(n) // 2 + 1)
    assert stats.paper_cycles == yeh.paper_exp_cycles(n.bit_length())
    return stats


@pytest.mark.parametrize("bits", [64, 65, 127, 256, 521])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_mod_exp_full_exponent_matches_pow(bits: int, data: st.DataObject) -> None:
    n, base, _ = data.draw(modulus_and_operands(bits))
    exponent = data.draw(st.integers(0, (1 << bits) - 1))
    check_exp(base, exponent, n)


@pytest.mark.parametrize("bits", [1000, 2048, 4096])
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_mod_exp_short_exponent_big_modulus(bits: int, data: st.DataObject) -> None:
    n, base, _ = data.draw(modulus_and_operands(bits))
    check_exp(base, data.draw(st.integers(0, (1 << 17) - 1)), n)


def test_mod_exp_paper_size_full_exponent() -> None:
    rng = random.Random(1024)
    n = random_modulus(1024, rng)
    exponent = rng.getrandbits(1024) | (1 << 1023)
    stats = check_exp(rng.randrange(n), exponent, n)
    assert stats.counts["corrections"] > 0  # BSR4 results >= N do occur in a real run


@pytest.mark.parametrize("bits", [3, 64, 65, 1000, 2048])
def test_mod_exp_edge_cases(bits: int) -> None:
    n = random_modulus(bits, random.Random(bits))
    for base in (0, 1, 2, n - 1):
        for exponent in (0, 1, 2, 3, 65537):
            check_exp(base, exponent, n)
    assert yeh.mod_exp(0, 0, n)[0] == 1
    assert yeh.mod_exp(0, 5, n)[0] == 0
    assert yeh.mod_exp(n - 1, 1, n)[0] == n - 1


def test_mod_exp_rejects_bad_input() -> None:
    n = 1001
    with pytest.raises(ValueError, match="base must satisfy"):
        yeh.mod_exp(n, 3, n)
    with pytest.raises(ValueError, match="base must satisfy"):
        yeh.mod_exp(-1, 3, n)
    with pytest.raises(ValueError, match="exponent must be non-negative"):
        yeh.mod_exp(2, -1, n)
    assert yeh.mod_exp(2, 10, n)[0] == 1024 % n


# --- the paper's cycle formulas ------------------------------------------------------------


def test_paper_table_ii_value_at_1024_bits() -> None:
    assert yeh.paper_exp_cycles(1024) == 788994  # 0.75·1024² + 2.5·1024 + 2
    assert yeh.paper_mul_cycles(1024) == 513


@pytest.mark.parametrize("bits", [64, 512, 1024, 2048, 4096])
def test_paper_formula_factors_into_multiplications_times_cycles(bits: int) -> None:
    """0.75n² + 2.5n + 2 = (1.5n + 2)·(n/2 + 1): n + n/2 + 2 BSR4 at n/2 + 1 cycles each."""
    assert yeh.paper_exp_cycles(bits) == (1.5 * bits + 2) * yeh.paper_mul_cycles(bits)


# --- demo -------------------------------------------------------------------------------------


def test_demo_report() -> None:
    lines = yeh.demo_report(*example_operands())
    assert lines[0].startswith("yeh — BSR4 radix-4 split Montgomery")
    assert sum(" ok" in line for line in lines) == 3
    assert not any("MISMATCH" in line for line in lines)
    assert any("3150850" in line for line in lines)  # paper formula at n = 2048
