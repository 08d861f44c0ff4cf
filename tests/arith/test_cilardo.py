"""Cilardo & Mazzocca 2008 golden models: Tables 1-2, Alg. 3 (radix-4), Alg. 2 (FIOS), Fig. 9."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montu.arith import gf2m
from montu.arith.cilardo import (
    PAPER_GFN_CLOCKS,
    booth_digit,
    booth_digits,
    demo_report,
    fios_r_exponent,
    fios_rows,
    fios_word_count,
    fios_correct,
    fsel_of,
    mont_mul_fios,
    mont_mul_radix4,
    montgomery_digit,
    pipeline_schedule,
    radix4_r_exponent,
    radix4_steps,
    recoded_multiple,
)
from montu.arith.field import Field
from montu.errors import ModulusError

GFP, GF2M = Field.GFP, Field.GF2M
BITS3 = [(hi, mid, lo) for hi in (0, 1) for mid in (0, 1) for lo in (0, 1)]

# Table 1 as printed: (fsel, b_{2i+1}, b_{2i}, b_{2i-1}) -> (digit, inv, trp, shl); None = "–".
# Polynomial digits: 1 -> 1, x -> 2, x+1 -> 3.
TABLE_1 = {
    (1, 0, 0, 0): (0, None, 0, 0), (1, 0, 0, 1): (1, 0, 1, 0), (1, 0, 1, 0): (1, 0, 1, 0),
    (1, 0, 1, 1): (2, 0, 0, 1), (1, 1, 0, 0): (-2, 1, 0, 1), (1, 1, 0, 1): (-1, 1, 1, 0),
    (1, 1, 1, 0): (-1, 1, 1, 0), (1, 1, 1, 1): (0, None, 0, 0),
    (0, 0, 0, 0): (0, None, 0, 0), (0, 0, 0, 1): (0, None, 0, 0), (0, 0, 1, 0): (1, 0, 1, 0),
    (0, 0, 1, 1): (1, 0, 1, 0), (0, 1, 0, 0): (2, 0, 0, 1), (0, 1, 0, 1): (2, 0, 0, 1),
    (0, 1, 1, 0): (3, 0, 1, 1), (0, 1, 1, 1): (3, 0, 1, 1),
}
# Table 2 as printed: (fsel, sp_1, sp_0, n_1) -> (Q_i, inv, trp, shl).
TABLE_2 = {
    (1, 0, 0, 0): (0, None, 0, 0), (1, 0, 0, 1): (0, None, 0, 0), (1, 0, 1, 0): (-1, 1, 1, 0),
    (1, 0, 1, 1): (1, 0, 1, 0), (1, 1, 0, 0): (2, 0, 0, 1), (1, 1, 0, 1): (2, 0, 0, 1),
    (1, 1, 1, 0): (1, 0, 1, 0), (1, 1, 1, 1): (-1, 1, 1, 0),
    (0, 0, 0, 0): (0, None, 0, 0), (0, 0, 0, 1): (0, None, 0, 0), (0, 0, 1, 0): (1, 0, 1, 0),
    (0, 0, 1, 1): (3, 0, 1, 1), (0, 1, 0, 0): (2, 0, 0, 1), (0, 1, 0, 1): (2, 0, 0, 1),
    (0, 1, 1, 0): (3, 0, 1, 1), (0, 1, 1, 1): (1, 0, 1, 0),
}


def gfp_oracle(a: int, b: int, n: int, r_exponent: int) -> int:
    return a * b * pow(2, -r_exponent, n) % n


def gf2m_oracle(a: int, b: int, n: int, r_exponent: int) -> int:
    r_inverse = gf2m.inv(gf2m.powmod(2, r_exponent, n), n)
    return gf2m.mulmod(gf2m.mulmod(a, b, n), r_inverse, n)


def check_gfp(a: int, b: int, n: int, word_bits: int = 64) -> None:
    z, _ = mont_mul_radix4(a, b, n, field=GFP)
    assert 0 <= z < 2 * n and z % n == gfp_oracle(a, b, n, radix4_r_exponent(n))
    z, _ = mont_mul_fios(a, b, n, field=GFP, word_bits=word_bits)
    assert 0 <= z < 2 * n
    assert z % n == gfp_oracle(a, b, n, fios_r_exponent(n, field=GFP, word_bits=word_bits))


def check_gf2m(a: int, b: int, n: int, word_bits: int = 64, recoded: bool = True) -> None:
    z, _ = mont_mul_radix4(a, b, n, field=GF2M, recoded=recoded)
    assert z == gf2m_oracle(a, b, n, radix4_r_exponent(n))
    z, _ = mont_mul_fios(a, b, n, field=GF2M, word_bits=word_bits, recoded=recoded)
    assert z == gf2m_oracle(a, b, n, fios_r_exponent(n, field=GF2M, word_bits=word_bits))


# ---------------------------------------------------------------- Tables 1 and 2, eqs. (1)-(2)

@pytest.mark.parametrize("encoder, table", [(booth_digit, TABLE_1), (montgomery_digit, TABLE_2)])
def test_encoders_reproduce_the_printed_tables(encoder, table):
    for (fsel, *bits), (value, inv, trp, shl) in table.items():
        digit = encoder(tuple(bits), fsel)
        assert (digit.value, digit.trp, digit.shl) == (value, trp, shl), (fsel, bits)
        if inv is not None:
            assert digit.inv == inv, (fsel, bits)


def test_booth_digit_means_its_bits_exhaustively():
    """Integer: digit = −2·b_{2i+1} + b_{2i} + b_{2i-1}; polynomial: b_{2i+1}·x + b_{2i};
    the PPG output equals digit·A for every 8-bit A."""
    for hi, mid, lo in BITS3:
        d1 = booth_digit((hi, mid, lo), 1)
        assert d1.value == -2 * hi + mid + lo and not (d1.trp and d1.shl)
        d0 = booth_digit((hi, mid, lo), 0)
        assert d0.value == 2 * hi + mid and d0.inv == 0
        for a in range(256):
            assert recoded_multiple(a, d1, 1) == d1.value * a
            assert recoded_multiple(a, d0, 0) == gf2m.clmul(d0.value, a)


def test_montgomery_digit_clears_the_low_digit_exhaustively():
    """For every SP mod 4 and odd N < 2^9: SP + Q·N ≡ 0 (mod 4), and SP ⊕ Q(x)·N(x) ≡ 0 (mod
    x^2) in polynomial mode, with Q ∈ {−1, 0, 1, 2} resp. Q of degree < 2."""
    for sp in range(4):
        for n in range(1, 512, 2):
            bits = (sp >> 1, sp & 1, (n >> 1) & 1)
            q1 = montgomery_digit(bits, 1)
            assert q1.value in (-1, 0, 1, 2) and not (q1.trp and q1.shl)
            assert (sp + recoded_multiple(n, q1, 1)) % 4 == 0
            assert (sp + q1.value * n) % 4 == 0
            q0 = montgomery_digit(bits, 0)
            assert q0.inv == 0 and 0 <= q0.value < 4
            assert (sp ^ recoded_multiple(n, q0, 0)) & 3 == 0
            assert recoded_multiple(n, q0, 0) == gf2m.clmul(q0.value, n)
            # a large operand with the same low bits is reduced the same way
            big = n | (random.Random(n).getrandbits(600) << 9)
            assert (sp + recoded_multiple(big, q1, 1)) % 4 == 0


def test_printed_equations_lose_an_overline():
    """The text's eqs. read "fsel·b_{2i}", "fsel·b_{2i+1}" and "NOT fsel·sp1·sp0·n1"; read
    literally they contradict Tables 1-2, so the model restores the overline (see the doc)."""
    def trp_printed(f, hi, mid, lo):
        return (f & mid) | (mid & (1 - lo)) | (f & (1 - mid) & lo)

    def shl_printed(f, hi, mid, lo):
        return (f & hi) | (hi & (1 - mid) & (1 - lo)) | (f & (1 - hi) & mid & lo)

    def mmg_inv_printed(f, sp1, sp0, n1):
        return (f & (1 - sp1) & (1 - n1)) | ((1 - f) & sp1 & sp0 & n1)

    assert trp_printed(1, 0, 1, 1) != TABLE_1[(1, 0, 1, 1)][2]
    assert shl_printed(1, 1, 0, 1) != TABLE_1[(1, 1, 0, 1)][3]
    assert mmg_inv_printed(1, 1, 1, 1) != TABLE_2[(1, 1, 1, 1)][1]
    assert booth_digit((0, 1, 1), 1).trp == TABLE_1[(1, 0, 1, 1)][2]
    assert montgomery_digit((1, 1, 1), 1).inv == TABLE_2[(1, 1, 1, 1)][1]


def test_booth_digits_sum_to_the_multiplier_exhaustively():
    """Σ_{t<T} B_t·4^t = B − b_{2T−1}·4^T (integer), ⊕ B_t(x)·x^{2t} = B (polynomial);
    every B < 2^12."""
    for b in range(1 << 12):
        digits1 = booth_digits(b, 0, 6, 1)
        assert sum(d.value << (2 * t) for t, d in enumerate(digits1)) == b - ((b >> 11) << 12)
        poly = 0
        for t, d in enumerate(booth_digits(b, 0, 6, 0)):
            poly ^= d.value << (2 * t)
        assert poly == b


def test_encoders_reject_bad_inputs():
    with pytest.raises(ValueError, match="fsel"):
        booth_digit((0, 1, 0), 2)
    with pytest.raises(ValueError, match="three bits"):
        montgomery_digit((0, 2, 1), 1)
    assert fsel_of(GFP) == 1 and fsel_of(GF2M) == 0


# ---------------------------------------------------------------- the paper's worked examples

def test_fig1_example_r_2_8():
    """Fig. 1: N = 43, A = 49, B = 38, R = 2^8, Ñ = 125 → Q = 46, result 15."""
    assert radix4_r_exponent(43) == 8
    assert mont_mul_radix4(49, 38, 43, field=GFP)[0] == 15
    for word_bits in (2, 4, 8):
        assert fios_r_exponent(43, field=GFP, word_bits=word_bits) == 8
        assert mont_mul_fios(49, 38, 43, field=GFP, word_bits=word_bits)[0] == 15
    for recoded in (True, False):
        (row,) = fios_rows(49, 38, 43, field=GFP, word_bits=8, recoded=recoded)
        assert (row.b_word, row.q_word, row.p) == (38, 46, 15)


def test_fig3_radix4_example():
    """Fig. 3: B digits 2,1,2,0; Q digits 2,3,2,0; column sums 184, 224, 240, 60; result 15."""
    steps = radix4_steps(49, 38, 43, field=GFP, recoded=False)
    assert [s.b_digit for s in steps] == [2, 1, 2, 0]
    assert [s.q_digit for s in steps] == [2, 3, 2, 0]
    assert [s.total for s in steps] == [184, 224, 240, 60]
    assert [s.p for s in steps] == [46, 56, 60, 15]


def test_fig3_example_with_recoded_digits():
    """The recoded unit on Fig. 3's operands: Booth digits −2, 2, −2, 1 (= 38) and Montgomery
    digits from Table 2; P goes negative on the way and still ends at 15."""
    steps = radix4_steps(49, 38, 43, field=GFP)
    assert [s.b_digit for s in steps] == [-2, 2, -2, 1]
    assert sum(s.b_digit * 4 ** i for i, s in enumerate(steps)) == 38
    assert [s.q_digit for s in steps] == [2, -1, -1, 1]
    assert [s.p for s in steps] == [-3, 13, -32, 15]


# ---------------------------------------------------------------- GF(p) against the oracle

def odd_moduli(bits: int) -> st.SearchStrategy[int]:
    return st.integers(0, (1 << (bits - 1)) - 1).map(lambda r: (1 << (bits - 1)) | r | 1)


@pytest.mark.parametrize("bits, examples", [(64, 40), (65, 40), (127, 30), (192, 15),
                                            (521, 10), (1000, 5), (2048, 3)])
def test_gfp_against_oracle(bits, examples):
    @settings(max_examples=examples, deadline=None)
    @given(n=odd_moduli(bits), data=st.data())
    def run(n, data):
        a = data.draw(st.integers(0, 2 * n - 1), label="a")
        b = data.draw(st.integers(0, 2 * n - 1), label="b")
        check_gfp(a, b, n)

    run()


def test_gfp_4096_bits():
    rng = random.Random(4096)
    n = rng.getrandbits(4096) | (1 << 4095) | 1
    check_gfp(rng.randrange(2 * n), rng.randrange(2 * n), n)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 1 << 80).map(lambda v: v | 1),
       word_bits=st.sampled_from([2, 4, 6, 8, 16, 32]), data=st.data())
def test_gfp_small_words_and_plain_alg2(n, word_bits, data):
    """Any even word size, recoded or as printed; the recoded rows' B̃_j rebuild B."""
    a = data.draw(st.integers(0, 2 * n - 1))
    b = data.draw(st.integers(0, 2 * n - 1))
    check_gfp(a, b, n, word_bits)
    e = fios_r_exponent(n, field=GFP, word_bits=word_bits)
    z, _ = mont_mul_fios(a, b, n, field=GFP, word_bits=word_bits, recoded=False)
    assert 0 <= z < 2 * n and z % n == gfp_oracle(a, b, n, e)
    z, _ = mont_mul_radix4(a, b, n, field=GFP, recoded=False)
    assert 0 <= z < 2 * n and z % n == gfp_oracle(a, b, n, radix4_r_exponent(n))
    rows = fios_rows(a, b, n, field=GFP, word_bits=word_bits)
    assert sum(row.b_word << (word_bits * j) for j, row in enumerate(rows)) == b
    bound = (1 << word_bits) - 1
    assert all(-bound <= 3 * row.q_word <= 2 * bound for row in rows)


@pytest.mark.parametrize("bits", [64, 65, 127, 521, 1000])
def test_gfp_edge_operands(bits):
    n = random.Random(bits).getrandbits(bits) | (1 << (bits - 1)) | 1
    edges = [0, 1, 2, n - 1, n, n + 1, 2 * n - 1]
    for a in edges:
        for b in edges:
            check_gfp(a, b, n)


def test_negative_results_are_fixed_up_and_counted():
    """With signed digits P sometimes ends negative; the model adds N once and says so."""
    rng = random.Random(7)
    n = rng.getrandbits(96) | (1 << 95) | 1
    fixed = 0
    for _ in range(200):
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        raw = radix4_steps(a, b, n, field=GFP)[-1].p
        z, stats = mont_mul_radix4(a, b, n, field=GFP)
        assert -n < 3 * raw < 5 * n
        assert stats.counts["negative_fixups"] == (raw < 0) and z == raw + n * (raw < 0)
        fixed += raw < 0
    assert 0 < fixed < 200


# ---------------------------------------------------------------- GF(2^m) against the oracle

@pytest.mark.parametrize("m", sorted(gf2m.NIST_POLYNOMIALS))
def test_gf2m_nist_polynomials(m):
    n = gf2m.NIST_POLYNOMIALS[m]
    rng = random.Random(m)
    for _ in range(3):
        check_gf2m(rng.getrandbits(m), rng.getrandbits(m), n)
    check_gf2m(rng.getrandbits(m), rng.getrandbits(m), n, recoded=False)
    for a, b in [(0, 1), (1, 1), (n ^ 1, (1 << m) - 1), (n, n), ((1 << (m + 1)) - 1, 1 << (m - 1))]:
        check_gf2m(a, b, n)


@functools.cache
def random_irreducibles() -> tuple[int, ...]:
    """Random irreducible polynomials of assorted degrees (fixed seed, built once)."""
    rng = random.Random(2008)
    degrees = (2, 3, 5, 8, 17, 31, 64, 65, 97, 130, 200)
    return tuple(gf2m.random_irreducible(m, rng) for m in degrees)


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 10), word_bits=st.sampled_from([2, 8, 16, 64]), data=st.data())
def test_gf2m_random_irreducible(index, word_bits, data):
    n = random_irreducibles()[index]
    m = n.bit_length() - 1
    a = data.draw(st.integers(0, (1 << (m + 1)) - 1))  # degree ≤ deg N is allowed
    b = data.draw(st.integers(0, (1 << (m + 1)) - 1))
    check_gf2m(a, b, n, word_bits)
    check_gf2m(a, b, n, word_bits, recoded=False)


def test_gf2m_reducible_modulus_with_unit_constant_term_is_a_ring():
    """Montgomery reduction only needs x invertible; a reducible N(x) with N(0) = 1 works."""
    n = gf2m.clmul(0b111, 0b10011)  # (x^2+x+1)(x^4+x+1)
    assert not gf2m.is_irreducible(n)
    for a in range(0, 128, 5):
        check_gf2m(a, 0b1011011, n, word_bits=4)


# ---------------------------------------------------------------- Fig. 9 clock counts

def test_pipeline_schedule_closed_form_and_stall_rule():
    """m words: rows of m+1 slots, a row period of max(m+1, 9); stalls only when m < 8."""
    for m in range(1, 20):
        schedule = pipeline_schedule(m)
        assert schedule.cycles == m * max(m + 1, 9)
        assert (schedule.stall_cycles > 0) == (m < 8)
        assert schedule.issue_slots == m * (m + 1)


@pytest.mark.parametrize("bits", sorted(PAPER_GFN_CLOCKS))
def test_paper_table_sizes(bits):
    """Our m obeys Alg. 2 (2^{m·w} > 4N); the paper's counts fit m = ⌈bits/64⌉, which drops the
    two guard bits. Both sides come from the same schedule; only m differs (192 and 256)."""
    n = random.Random(bits).getrandbits(bits) | (1 << (bits - 1)) | 1
    z, stats = mont_mul_fios(n - 2, n + 5, n, field=GFP)
    assert z % n == gfp_oracle(n - 2, n + 5, n, fios_r_exponent(n, field=GFP))
    m = -(-(bits + 2) // 64)
    assert fios_word_count(n, field=GFP) == m == stats.counts["words"]
    assert stats.cycles == m * max(m + 1, 9)
    assert stats.paper_cycles == PAPER_GFN_CLOCKS[bits]
    assert pipeline_schedule(-(-bits // 64)).cycles == PAPER_GFN_CLOCKS[bits]
    assert (stats.cycles == stats.paper_cycles) == (bits not in (192, 256))


def test_paper_cycles_only_for_table_sizes():
    n = (1 << 300) + 1
    assert mont_mul_fios(3, 5, n, field=GFP)[1].paper_cycles is None
    assert mont_mul_fios(3, 5, gf2m.NIST_POLYNOMIALS[283], field=GF2M)[1].cycles == 45


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("model", [mont_mul_radix4, mont_mul_fios])
def test_bad_moduli_and_operands(model):
    with pytest.raises(ModulusError, match="must be odd"):
        model(1, 2, (1 << 64) + 2, field=GFP)
    with pytest.raises(ValueError, match="must be odd"):
        model(1, 2, 44, field=GFP)
    with pytest.raises(ModulusError, match="greater than 2"):
        model(0, 0, 1, field=GFP)
    with pytest.raises(ModulusError, match="not invertible"):
        model(1, 1, gf2m.NIST_POLYNOMIALS[163] ^ 1, field=GF2M)
    with pytest.raises(ModulusError, match="degree"):
        model(0, 0, 1, field=GF2M)
    with pytest.raises(ValueError, match="2N"):
        model(86, 1, 43, field=GFP)
    with pytest.raises(ValueError, match="2N"):
        model(-1, 1, 43, field=GFP)
    with pytest.raises(ValueError, match="degree at most"):
        model(1, 1 << 164, gf2m.NIST_POLYNOMIALS[163], field=GF2M)
    assert model(49, 38, 43, field=GFP)[0] == 15  # the next good call still works


def test_odd_word_size_rejected():
    with pytest.raises(ValueError, match="even"):
        mont_mul_fios(1, 2, 43, field=GFP, word_bits=7)


# ---------------------------------------------------------------- demo

def test_demo_report():
    rng = random.Random(2021)
    p = rng.getrandbits(2048) | (1 << 2047) | 1
    lines = demo_report(p, gf2m.NIST_POLYNOMIALS[283])
    assert lines[0].startswith("cilardo — ")
    assert sum("ok" in line for line in lines) == 4
    assert not any("MISMATCH" in line for line in lines)
    assert any("1122 clocks" in line for line in lines)
    assert any("45 clocks" in line for line in lines)


# ---------------------------------------------------------------- the paper's mode (no guard bits)

def _paper_words(n: int, word_bits: int) -> int:
    return fios_word_count(n, field=GFP, word_bits=word_bits, guard=False)


def test_paper_mode_word_counts_are_the_papers_table():
    """§6: m = ⌈bits/64⌉ gives 27 / 36 / 36 / 45 / 90 clocks at 192 / 224 / 256 / 283 / 521."""
    clocks = [pipeline_schedule(_paper_words((1 << bits) - 1, 64)).cycles
              for bits in (192, 224, 256, 283, 521)]
    assert clocks == [27, 36, 36, 45, 90]
    guarded = [pipeline_schedule(fios_word_count((1 << bits) - 1, field=GFP)).cycles
               for bits in (192, 224, 256, 283, 521)]
    assert guarded == [36, 36, 45, 45, 90]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([4, 8, 16]), st.integers(1, 3), st.data())
def test_paper_mode_any_operands_congruent_and_bounded(word_bits, words, data):
    """words=m takes any m-word operands, top bits set included (the last row's extra PPG digit
    makes B unsigned); P ≡ a·b·R^-1 and P ∈ [−2R, 4R) (the hardware's top word: w + 3 bits)."""
    r = 1 << (word_bits * words)
    n = data.draw(st.integers(3, r - 1).filter(lambda v: v % 2))
    a = data.draw(st.one_of(st.integers(0, r - 1), st.just(r - 1)))
    b = data.draw(st.one_of(st.integers(0, r - 1), st.just(r - 1)))
    rows = fios_rows(a, b, n, field=GFP, word_bits=word_bits, words=words)
    p = rows[-1].p
    assert (p - a * b * pow(r, -1, n)) % n == 0
    assert all(-2 * r <= row.p < 4 * r for row in rows)
    assert sum(row.b_word << (word_bits * j) for j, row in enumerate(rows)) == b
    if a < n and b < n:
        assert -n < 3 * p < 5 * n
        assert 0 <= fios_correct(p, n, field=GFP) < n


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([4, 8, 16]), st.integers(1, 3), st.data())
def test_paper_mode_gf2m_any_operands(word_bits, words, data):
    r_bits = word_bits * words
    n = data.draw(st.integers(3, (1 << r_bits) - 1).filter(lambda v: v % 2))
    a = data.draw(st.integers(0, (1 << r_bits) - 1))
    b = data.draw(st.integers(0, (1 << r_bits) - 1))
    p = fios_rows(a, b, n, field=GF2M, word_bits=word_bits, words=words)[-1].p
    assert 0 <= p < 1 << r_bits
    assert gf2m.mulmod(p, gf2m.reduce(1 << r_bits, n), n) == gf2m.mulmod(a, b, n)
    assert fios_correct(p, n, field=GF2M) == p


def test_paper_mode_real_sizes_top_bit_set():
    rng = random.Random(7)
    for bits in (192, 256, 521, 2048):
        n = rng.getrandbits(bits) | 1 | 1 << (bits - 1)
        m = _paper_words(n, 64)
        r = 1 << (64 * m)
        a, b = n - 1, n - 2
        z, stats = mont_mul_fios(a, b, n, field=GFP, words=m)
        assert z % n == a * b * pow(r, -1, n) % n and stats.counts["words"] == m


def test_paper_mode_words_validated():
    with pytest.raises(ValueError, match="cannot hold"):
        fios_rows(1, 1, (1 << 64) + 1, field=GFP, words=1)
    with pytest.raises(ValueError, match="at most 1 words"):
        fios_rows(1 << 64, 1, 43, field=GFP, words=1)
