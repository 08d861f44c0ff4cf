"""fios_product, the whole-integer form of cilardo2008 Alg. 2 on the recoded word unit, against
the word-level golden model fios_rows: exhaustively at small words, by hypothesis up to 2048 bits.

Each test states the identity: fios_product(a, b, n, words=m) == fios_rows(a, b, n, words=m)[-1].p
for every m-word a, b and every odd n (every polynomial with constant term 1) of at most m words.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montu.arith import cilardo_fios, gf2m
from montu.arith.cilardo_fios import fios_correct, fios_product, fios_rows
from montu.arith.field import Field

GFP, GF2M = Field.GFP, Field.GF2M


def _rows_any_modulus(a: int, b: int, n: int, field: Field, word_bits: int, words: int,
                      monkeypatch: pytest.MonkeyPatch):
    """fios_rows, also for N = 1 (which it refuses only because Alg. 3 needs N > 2): the word
    unit itself works for any odd N."""
    if n == 1:
        monkeypatch.setattr(cilardo_fios, "require_montgomery_modulus", lambda n, field: None)
    try:
        return fios_rows(a, b, n, field=field, word_bits=word_bits, words=words)
    finally:
        monkeypatch.undo()


def _moduli(field: Field, length: int) -> list[int]:
    """Every modulus a unit of `length` bits can hold: odd n < 2^length (GF(p)), every polynomial
    with constant term 1 of degree < length (GF(2^m)); both include N = 1."""
    return list(range(1, 1 << length, 2))


# Exhaustive: every modulus and every pair of operands where that is affordable (L ≤ 6; w = 2 is
# the one-digit row). L = 8 (w = 4 with two words, w = 8 with one): every modulus and every
# operand, each a against two b's that sweep every value as n changes. L = 12, 16, 24: a sample of
# moduli (with the extremes) against operands covering every word boundary.
EXHAUSTIVE = [(2, 1), (2, 2), (2, 3), (4, 1)]
EIGHT_BITS = [(4, 2), (8, 1)]
LARGER = [(4, 3), (8, 2), (8, 3)]


def _check(a, b, n, field, word_bits, words, monkeypatch):
    rows = _rows_any_modulus(a, b, n, field, word_bits, words, monkeypatch)
    assert fios_product(a, b, n, field=field, words=words, word_bits=word_bits) == rows[-1].p, \
        (a, b, n)


@pytest.mark.parametrize("field", [GFP, GF2M], ids=["gfp", "gf2m"])
@pytest.mark.parametrize(("word_bits", "words"), EXHAUSTIVE)
def test_every_modulus_every_operand_pair(field, word_bits, words, monkeypatch):
    length = word_bits * words
    values = range(1 << length)
    for n in _moduli(field, length):
        for a, b in itertools.product(values, values):
            _check(a, b, n, field, word_bits, words, monkeypatch)


@pytest.mark.parametrize("field", [GFP, GF2M], ids=["gfp", "gf2m"])
@pytest.mark.parametrize(("word_bits", "words"), EIGHT_BITS)
def test_every_modulus_every_operand_at_eight_bits(field, word_bits, words, monkeypatch):
    for n in _moduli(field, 8):
        for a in range(256):
            for b in ((a * 37 + n) % 256, (a * 101 + 3 * n + 7) % 256):
                _check(a, b, n, field, word_bits, words, monkeypatch)


def _edge_operands(length: int, word_bits: int) -> list[int]:
    """0, 1, all ones, each word's top bit and all-ones word, alternating patterns, and 8 random
    values: every Booth borrow between words is exercised."""
    top = (1 << length) - 1
    values = {0, 1, 2, 3, top, top - 1, top >> 1, 1 << (length - 1), (top // 3), 2 * (top // 3)}
    for i in range(length // word_bits):
        values |= {1 << (i * word_bits + word_bits - 1), ((1 << word_bits) - 1) << (i * word_bits)}
    rng = random.Random(length * 131 + word_bits)
    values |= {rng.randrange(1 << length) for _ in range(8)}
    return sorted(values)


@pytest.mark.parametrize("field", [GFP, GF2M], ids=["gfp", "gf2m"])
@pytest.mark.parametrize(("word_bits", "words"), LARGER)
def test_sampled_moduli_edge_operands(field, word_bits, words, monkeypatch):
    length = word_bits * words
    operands = _edge_operands(length, word_bits)
    rng = random.Random(length)
    top = (1 << length) - 1
    moduli = {1, 3, 5, top, top - 2, (1 << (length - 1)) | 1, (top // 3) | 1}
    moduli |= {rng.randrange(1 << length) | 1 for _ in range(150)}
    for n in sorted(moduli):
        for i, a in enumerate(operands):
            b = operands[(i * 7 + n) % len(operands)]
            for x, y in ((a, b), (b, a)):
                _check(x, y, n, field, word_bits, words, monkeypatch)


@st.composite
def _product_case(draw):
    words = draw(st.integers(1, 32))
    length = 64 * words
    n = draw(st.integers(1, (1 << length) - 1)) | 1     # odd; GF(2^m): constant term 1
    operand = st.one_of(st.integers(0, (1 << length) - 1),
                        st.sampled_from([0, 1, (1 << length) - 1, 1 << (length - 1)]))
    return words, n, draw(operand), draw(operand)


@settings(max_examples=60, deadline=None)
@given(case=_product_case())
def test_gfp_64_bit_words_up_to_2048_bits(case):
    words, n, a, b = case
    n = max(n, 3)                                   # fios_rows refuses N = 1
    assert fios_product(a, b, n, field=GFP, words=words) == fios_rows(a, b, n, field=GFP,
                                                                      words=words)[-1].p


@settings(max_examples=40, deadline=None)
@given(case=_product_case())
def test_gf2m_64_bit_words_up_to_2048_bits(case):
    words, n, a, b = case
    n = max(n, 3)
    assert fios_product(a, b, n, field=GF2M, words=words) == fios_rows(a, b, n, field=GF2M,
                                                                       words=words)[-1].p


@settings(max_examples=60, deadline=None)
@given(case=_product_case())
def test_gfp_congruence_range_and_one_correction(case):
    """P ≡ a·b·2^-L (mod N) and P·2^L − a·b = Q̃·N with −C ≤ Q̃ ≤ 2C, C = (2^L − 1)/3; with one
    operand below N the one correction gives the reduced product (the unit's STARTMMI on the
    cilardo build)."""
    words, n, a, b = case
    length = 64 * words
    third = ((1 << length) - 1) // 3
    p = fios_product(a, b, n, field=GFP, words=words)
    assert (p - a * b * pow(2, -length, n)) % n == 0
    assert -third * n <= (p << length) - a * b <= 2 * third * n
    a_reduced = a % n
    z = fios_correct(fios_product(a_reduced, b, n, field=GFP, words=words), n, field=GFP)
    assert z == a_reduced * b * pow(2, -length, n) % n


@settings(max_examples=40, deadline=None)
@given(case=_product_case())
def test_gf2m_is_the_montgomery_product(case):
    words, n, a, b = case
    length = 64 * words
    p = fios_product(a, b, n, field=GF2M, words=words)
    assert gf2m.clmul(p, 1 << length) ^ gf2m.clmul(a, b) == gf2m.clmul(
        gf2m.clmul(gf2m.clmul(a, b), gf2m.inv(n, 1 << length)) & ((1 << length) - 1), n)


def test_modulus_one_is_the_high_half_plus_a_carry():
    """N = 1 (the unit can hold it): P = (a·b + Q̃)/2^L with Q̃ ≡ −a·b in [−C, 2C]."""
    length = 128
    third = ((1 << length) - 1) // 3
    rng = random.Random(1)
    for _ in range(200):
        a, b = rng.getrandbits(length), rng.getrandbits(length)
        p = fios_product(a, b, 1, field=GFP, words=2)
        q = ((-a * b + third) % (1 << length)) - third
        assert p == (a * b + q) >> length and p - (a * b >> length) in (0, 1)
        assert fios_product(a, b, 1, field=GF2M, words=2) == gf2m.clmul(a, b) >> length


def test_a_given_inverse_is_used():
    n, a, b = (1 << 255) + 19, 5, 7
    inverse = pow(n, -1, 1 << 256)
    assert fios_product(a, b, n, field=GFP, words=4, n_inverse=inverse) == \
        fios_product(a, b, n, field=GFP, words=4)


@pytest.mark.parametrize(("args", "match"), [
    ((3, 5, 10, GFP, 1), "odd modulus"),
    ((3, 5, 0, GFP, 1), "odd modulus"),
    ((3, 5, 1 << 64 | 1, GFP, 1), "at most 1 words"),
    ((3, 5, 6, GF2M, 1), "constant term 1"),
    ((1 << 64, 5, 7, GFP, 1), "operand a"),
    ((3, -1, 7, GFP, 1), "operand b"),
    ((3, 5, 7, GFP, 0), "at least one word"),
])
def test_bad_arguments_raise_with_the_fact(args, match):
    a, b, n, field, words = args
    with pytest.raises(ValueError, match=match):
        fios_product(a, b, n, field=field, words=words)
    with pytest.raises(ValueError, match="even number of bits"):
        fios_product(3, 5, 7, field=GFP, words=1, word_bits=7)
