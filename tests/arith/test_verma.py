"""Verma et al.: R4CMMM / EWBR4CMMM common-multiplicand Montgomery and MPL / SBME / PBME."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from montu.arith import verma
from montu.arith.verma import (
    cmmm_parameters,
    ewbr4cmmm,
    montgomery_factor,
    mpl_powmod,
    operand_bound,
    paper_cycles_ewbr4cmmm,
    paper_cycles_mpl,
    paper_cycles_r4cmmm,
    pbme_powmod,
    r4cmmm,
    sbme_powmod,
)
from montu.arith.verma_cmmm import _quotient_digit
from montu.errors import ModulusError

MULTIPLIERS = {"r4cmmm": r4cmmm, "ewbr4cmmm": ewbr4cmmm}
POWMODS = {"mpl": mpl_powmod, "sbme": sbme_powmod, "pbme": pbme_powmod}
SMALL_SIZES = [2, 3, 4, 5, 8, 13, 64, 65, 127, 128, 256, 521, 1000, 1024]
WORD_SIZES = [4, 5, 7, 16, 32, 48, 64]


def odd_modulus(bits: int, rng: random.Random) -> int:
    """A random odd modulus of exactly `bits` bits (>= 3)."""
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


@st.composite
def moduli(draw: st.DrawFn, sizes: list[int]) -> int:
    bits = draw(st.sampled_from(sizes))
    return draw(st.integers(1 << (bits - 1), (1 << bits) - 1)) | 1 | (1 << (bits - 1))


def reference_cmmm(p: int, r: int, n: int) -> tuple[int, int]:
    """Big-integer restatement of the algorithm (not word-based, q from n^-1 mod 4):
    T[i] = (T[i-1] + q·n)/4, X = sum r_(h+g-i)·T[i], Y = sum p_(h+g-i)·T[i], i = g-t+1 … h+g."""
    prm = cmmm_parameters(n)
    t_value, x, y, n_inv = p, 0, 0, pow(n, -1, 4)
    for i in range(1, prm.iterations + 1):
        t_value += (-t_value * n_inv) % 4 * n
        assert t_value % 4 == 0
        t_value //= 4
        if i >= prm.g - prm.t + 1:
            shift = 2 * (prm.iterations - i)
            x += ((r >> shift) & 3) * t_value
            y += ((p >> shift) & 3) * t_value
    return x, y


def check_product(name: str, p: int, r: int, n: int, w: int) -> None:
    """The model's X, Y equal the reference exactly, are ≡ P·R·F^-1, P·P·F^-1 and < 2^(2(h+t))."""
    (x, y), stats = MULTIPLIERS[name](p, r, n, w=w)
    f_inv = pow(montgomery_factor(n), -1, n)
    assert x % n == p * r * f_inv % n
    assert y % n == p * p * f_inv % n
    assert 0 <= x < operand_bound(n) and 0 <= y < operand_bound(n)
    assert (x, y) == reference_cmmm(p, r, n)
    prm = cmmm_parameters(n, w)
    assert stats.cycles == prm.iterations + prm.m + 1


# --- the paper's sizes and table values ---------------------------------------------------------


def test_parameters_for_1024_bits_match_the_paper() -> None:
    prm = cmmm_parameters(odd_modulus(1024, random.Random(1)))
    assert (prm.k, prm.g, prm.h, prm.t, prm.w, prm.m) == (1024, 12, 512, 6, 48, 22)
    assert prm.operand_bits == 1036 and prm.iterations == 524
    assert montgomery_factor(odd_modulus(1024, random.Random(2))) == 4**524


def test_paper_formulas_reproduce_tables_3_and_6() -> None:
    assert paper_cycles_ewbr4cmmm(1024) == 547  # Table 3, EWBR4CMMM 1024
    assert paper_cycles_ewbr4cmmm(2048) == 1081  # Table 3, EWBR4CMMM 2048 (g = 13)
    assert paper_cycles_mpl(1024) == 561222  # Table 6, MPL (EWBR4CMMM) 1024
    assert paper_cycles_mpl(2048) == 2216050  # Table 6, MPL (EWBR4CMMM) 2048
    assert paper_cycles_r4cmmm(1024) == pytest.approx(512 + 1024 / 48 + 6)
    r4_ladder = paper_cycles_mpl(1024, multiplier="r4cmmm")
    assert r4_ladder == pytest.approx(1024 * (512 + 1024 / 48 + 6))


@pytest.mark.parametrize("name", sorted(MULTIPLIERS))
def test_1024_bit_multiplication_takes_547_cycles(name: str) -> None:
    n = odd_modulus(1024, random.Random(3))
    rng = random.Random(4)
    p, r = rng.randrange(operand_bound(n)), rng.randrange(operand_bound(n))
    (_, _), stats = MULTIPLIERS[name](p, r, n)
    assert stats.cycles == 547
    assert stats.counts["words"] == 22 and stats.counts["reduction_iterations"] == 524
    assert stats.counts["accumulation_iterations"] == 518
    assert stats.counts["reduction_word_steps"] == 524 * 22
    assert stats.counts["accumulation_word_steps"] == 2 * 518 * 22
    expected_paper = 547 if name == "ewbr4cmmm" else 512 + 1024 / 48 + 6
    assert stats.paper_cycles == pytest.approx(expected_paper)


@pytest.mark.parametrize("bits", [64, 256, 1024])
@pytest.mark.parametrize("w", [16, 32, 48, 64])
def test_model_cycles_equal_table_2_when_k_and_g_are_even(bits: int, w: int) -> None:
    n = odd_modulus(bits, random.Random(bits + w))
    (_, _), stats = ewbr4cmmm(n - 1, n - 2, n, w=w)
    assert cmmm_parameters(n).g % 2 == 0
    assert stats.cycles == stats.paper_cycles == paper_cycles_ewbr4cmmm(bits, w)


@pytest.mark.parametrize("bits", [65, 127, 128, 521, 1000, 2048])
def test_model_cycles_exceed_table_2_only_by_the_rounding_of_k_and_m(bits: int) -> None:
    """Odd g costs nothing (h + g iterations, the paper's k/2 + g); odd k costs half a clock of
    the formula, and the operands' spare bit for odd g may cost one word."""
    n = odd_modulus(bits, random.Random(bits))
    prm = cmmm_parameters(n)
    (_, _), stats = ewbr4cmmm(1, 1, n)
    paper_m = -(-(prm.k + prm.g) // prm.w)
    rounding = (prm.h - prm.k / 2) + (prm.m - paper_m)
    assert prm.iterations == prm.h + prm.g and prm.pre_iterations == prm.g - prm.t
    assert stats.cycles - stats.paper_cycles == pytest.approx(rounding)
    if bits % 2 == 0 and prm.m == paper_m:
        assert stats.cycles == stats.paper_cycles


def test_mpl_cycles_are_table_5_per_pass() -> None:
    n = odd_modulus(1024, random.Random(5))
    result, stats = mpl_powmod(7, 0b10110101, n, exponent_bits=8)
    assert result == pow(7, 0b10110101, n)
    assert stats.counts["cmmm_passes"] == 10 and stats.counts["ladder_steps"] == 8
    assert stats.cycles == 10 * 547 == stats.paper_cycles == paper_cycles_mpl(1024, ladder_bits=8)


# --- algebra: both multipliers against the oracle and the big-integer reference ---------------


def test_quotient_digit_kmap_clears_two_bits() -> None:
    for n_low in (1, 3):
        for t_low in range(4):
            q = _quotient_digit(t_low, (n_low >> 1) & 1)
            assert (t_low + q * n_low) % 4 == 0


def test_walter_bound_holds_for_every_size() -> None:
    """T[i] < n + P/4^i gives X < 3(h+t)·n + P/4^(g-t) < 3(h+t)·2^k + 4^(h+t-(g-t)), which must
    not exceed 4^(h+t) = 2^(2(h+t)) for outputs to be valid inputs again (no final subtraction)."""
    for k in range(2, 5000):
        prm = cmmm_parameters((1 << (k - 1)) | 1)
        bound = 4 ** (prm.h + prm.t)
        assert 3 * (prm.h + prm.t) * 2**k + bound // 4**prm.pre_iterations <= bound


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=moduli(SMALL_SIZES), w=st.sampled_from(WORD_SIZES), data=st.data())
def test_multipliers_match_oracle(n: int, w: int, data: st.DataObject) -> None:
    bound = operand_bound(n)
    p = data.draw(st.integers(0, bound - 1))
    r = data.draw(st.integers(0, bound - 1))
    for name in MULTIPLIERS:
        check_product(name, p, r, n, w)


@settings(max_examples=2, deadline=None)
@given(n=moduli([2048, 4096]), data=st.data())
def test_multipliers_match_oracle_at_2048_and_4096_bits(n: int, data: st.DataObject) -> None:
    bound = operand_bound(n)
    p, r = data.draw(st.integers(0, bound - 1)), data.draw(st.integers(0, bound - 1))
    for name in MULTIPLIERS:
        check_product(name, p, r, n, 48)


@pytest.mark.parametrize("bits", [64, 65, 521, 1000])
def test_edge_operands_up_to_the_operand_bound(bits: int) -> None:
    n = odd_modulus(bits, random.Random(bits * 7))
    edges = [0, 1, n - 1, 2 * n, operand_bound(n) - 1]
    for p in edges:
        for r in edges:
            for name in MULTIPLIERS:
                check_product(name, p, r, n, 48)


def test_every_small_odd_modulus_with_extreme_operands() -> None:
    rng = random.Random(6)
    for n in range(3, 400, 2):
        bound = operand_bound(n)
        for p, r in ((bound - 1, bound - 1), (bound - 1, 0), (rng.randrange(bound), n)):
            for name in MULTIPLIERS:
                check_product(name, p, r, n, 4)


@settings(max_examples=15, deadline=None)
@given(n=moduli([64, 127, 521]), data=st.data())
def test_result_does_not_depend_on_word_size(n: int, data: st.DataObject) -> None:
    bound = operand_bound(n)
    p, r = data.draw(st.integers(0, bound - 1)), data.draw(st.integers(0, bound - 1))
    results = {ewbr4cmmm(p, r, n, w=w)[0] for w in (4, 16, 32, 48, 64)}
    results |= {r4cmmm(p, r, n, w=w)[0] for w in (5, 48)}
    assert len(results) == 1


# --- exponentiation ------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    n=moduli([3, 5, 8, 64, 65, 127, 521]),
    exponent=st.one_of(st.sampled_from([0, 1, 2, 3]), st.integers(0, 2**40)),
    multiplier=st.sampled_from(sorted(MULTIPLIERS)),
    w=st.sampled_from([16, 32, 48, 64]),
    data=st.data(),
)
def test_exponentiations_match_pow(
    n: int, exponent: int, multiplier: str, w: int, data: st.DataObject
) -> None:
    base = data.draw(
        st.one_of(st.sampled_from([0, 1, n - 1, n, 2 * n]), st.integers(0, operand_bound(n) - 1))
    )
    one_pass = MULTIPLIERS[multiplier](1, 1, n, w=w)[1].cycles
    length = exponent.bit_length()
    for name, powmod in POWMODS.items():
        result, stats = powmod(base, exponent, n, w=w, multiplier=multiplier)
        assert result == pow(base, exponent, n)
        assert stats.cycles == stats.counts["cmmm_passes"] * one_pass
        if name == "sbme":
            extra = 0 if exponent == 0 else 1 + (length - 1) + (bin(exponent).count("1") - 1)
            assert stats.counts["cmmm_passes"] == 1 + extra
            assert stats.paper_cycles is None
        else:
            assert stats.counts["cmmm_passes"] == length + 2


def test_exponent_zero_and_one_and_base_zero() -> None:
    n = odd_modulus(521, random.Random(8))
    for name, powmod in POWMODS.items():
        assert powmod(12345, 0, n)[0] == 1, name
        assert powmod(12345, 1, n)[0] == 12345, name
        assert powmod(0, 65537, n)[0] == 0, name
        assert powmod(0, 0, n)[0] == 1, name


@pytest.mark.parametrize("name", sorted(POWMODS))
def test_base_multiple_of_n_needs_the_final_subtraction(name: str) -> None:
    n = odd_modulus(65, random.Random(9))
    result, stats = POWMODS[name](2 * n, 3, n)
    assert result == 0 and stats.counts["final_subtractions"] == 1


def test_padded_ladder_is_regular_and_correct() -> None:
    n = odd_modulus(64, random.Random(10))
    result, stats = mpl_powmod(5, 3, n, exponent_bits=64)
    assert result == 125 % n
    assert stats.counts["cmmm_passes"] == 66 and stats.counts["ladder_steps"] == 64
    assert stats.paper_cycles == paper_cycles_mpl(64, ladder_bits=64) == stats.cycles


def test_exponentiation_at_2048_bits() -> None:
    n = odd_modulus(2048, random.Random(11))
    result, stats = mpl_powmod(0xC0FFEE, 3, n)
    assert result == pow(0xC0FFEE, 3, n)
    assert stats.cycles == 4 * (1037 + 43 + 1) == stats.paper_cycles == 4 * 1081


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda n: r4cmmm(1, 1, n),
    lambda n: ewbr4cmmm(1, 1, n),
    lambda n: mpl_powmod(2, 5, n),
    lambda n: sbme_powmod(2, 5, n),
    lambda n: pbme_powmod(2, 5, n),
    montgomery_factor,
])
def test_even_modulus_is_rejected_and_next_call_works(call) -> None:
    with pytest.raises(ModulusError, match="must be odd"):
        call(2**64 + 2)
    with pytest.raises(ValueError, match="must be odd"):
        call(4)
    call(2**64 + 13)


def test_tiny_modulus_and_bad_word_size_are_rejected() -> None:
    with pytest.raises(ModulusError, match=">= 3"):
        ewbr4cmmm(0, 0, 1)
    with pytest.raises(ValueError, match="word size"):
        ewbr4cmmm(1, 1, 101, w=3)


def test_operands_out_of_range_are_rejected_and_next_call_works() -> None:
    n = odd_modulus(64, random.Random(12))
    bound = operand_bound(n)
    for name, model in MULTIPLIERS.items():
        with pytest.raises(ValueError, match="operand P"):
            model(bound, 1, n)
        with pytest.raises(ValueError, match="operand R"):
            model(1, -1, n)
        check_product(name, bound - 1, bound - 1, n, 48)
    with pytest.raises(ValueError, match="base"):
        mpl_powmod(bound, 3, n)
    with pytest.raises(ValueError, match="exponent"):
        sbme_powmod(2, -1, n)
    with pytest.raises(ValueError, match="exponent_bits"):
        mpl_powmod(2, 255, n, exponent_bits=7)
    with pytest.raises(ValueError, match="multiplier"):
        pbme_powmod(2, 3, n, multiplier="r2cmmm")  # type: ignore[arg-type]
    assert pbme_powmod(2, 3, n)[0] == 8


# --- demo ----------------------------------------------------------------------------------------


def test_demo_report_checks_every_model_against_the_oracle() -> None:
    from montu.demo import example_operands

    lines = verma.demo_report(*example_operands())
    assert lines[0].startswith("verma — ")
    body = "\n".join(lines[1:])
    assert body.count(" ok ") == 5 and "MISMATCH" not in body
    assert "paper Table 2: 1081" in body and "paper Table 5: 2216050" in body


def test_trace_shows_every_iteration_of_the_pe_words() -> None:
    """ewbr4cmmm's trace (what the RTL's PEs are compared with): T[i] ≡ P·4^-i (mod n) after
    every iteration, and the last X, Y words are the result."""
    n = odd_modulus(200, random.Random(12))
    p, r = n - 3, n // 5
    seen: list[tuple[int, list[int], list[int], list[int]]] = []
    (x, y), _ = ewbr4cmmm(p, r, n, trace=lambda i, t, xw, yw: seen.append((i, t, xw, yw)))
    prm = cmmm_parameters(n)
    assert [i for i, *_ in seen] == list(range(1, prm.iterations + 2))
    value = lambda words: sum(word << (48 * j) for j, word in enumerate(words))  # noqa: E731
    for i, t_words, _, _ in seen[:-1]:
        assert len(t_words) == prm.m and value(t_words) % n == p * pow(4, -i, n) % n
    assert (value(seen[-1][2]), value(seen[-1][3])) == (x, y)
