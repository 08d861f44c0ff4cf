"""Antão & Sousa RNS model: bases, conversions, base extension, Algorithm 1, exp, EC."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from montu.arith import antao
from montu.arith.antao import (
    P256,
    P256_GENERATOR,
    P256_ORDER,
    Curve,
    RnsBases,
    alpha_hat,
    base_extend,
    crt,
    ec_scalar_mult,
    from_rns,
    make_bases,
    mod_exp,
    mont_mul,
    mont_mul_oracle,
    rns_add,
    rns_mul,
    rns_sub,
    to_rns,
)
from montu.arith.antao_rns import is_probable_prime
from montu.demo import example_operands
from montu.errors import ModulusError

SIZES = [64, 65, 127, 256, 521, 1000, 2048, 4096]
SMALL_SIZES = [64, 65, 127, 256, 521]
BIG_SIZES = [1000, 2048, 4096]


def _bases(bits: int) -> RnsBases:
    return _BASES[bits]


_BASES = {bits: make_bases(bits) for bits in SIZES}


def _odd_modulus(bits: int, seed: int) -> int:
    """A random odd modulus of exactly ``bits`` bits, coprime to the bases' M1."""
    rng = random.Random(seed)
    while True:
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        if math.gcd(n, _bases(bits).m1) == 1:
            return n


def _exact_montgomery_candidates(x: int, y: int, n: int, m1: int) -> tuple[int, int]:
    """u0 = (xy + qN)/M1 with q = -xy/N mod M1, and u0 + N (first BE off by one M1)."""
    q = -x * y * pow(n, -1, m1) % m1
    u0, rem = divmod(x * y + q * n, m1)
    assert rem == 0
    return u0, u0 + n


# ------------------------------------------------------------------------------------ bases


@pytest.mark.parametrize("bits", SIZES)
def test_bases_cover_8n_with_the_fewest_channels(bits: int) -> None:
    b = _bases(bits)
    assert len(b.base1) == len(b.base2) == b.pe_count
    assert b.m1 >= 2 ** (bits + 3) and b.m2 >= 2 ** (bits + 3)
    fewer = b.pe_count - 1
    assert math.prod(b.base1[:fewer]) < 2 ** (bits + 3) or math.prod(b.base2[:fewer]) < 2 ** (bits + 3)
    moduli = b.base1 + b.base2
    assert all(2**31 < m < 2**32 and is_probable_prime(m) for m in moduli)
    assert len(set(moduli)) == len(moduli)
    assert b.max_modulus >= 2**bits - 1


def test_bases_for_2048_bits_have_65_channels_each() -> None:
    b = _bases(2048)
    assert b.pe_count == 65 and b.alpha_bits == 9
    assert b.base1[0] == 2**32 - 5 and b.base2[0] == 2**32 - 17  # largest primes 2^32 - c


def test_non_coprime_moduli_rejected() -> None:
    with pytest.raises(ValueError, match="not coprime"):
        RnsBases(channel_bits=8, base1=(255, 245), base2=(251, 241), alpha_bits=4)  # share 5 in B1
    with pytest.raises(ValueError, match="not coprime"):
        RnsBases(channel_bits=8, base1=(255, 251), base2=(243, 241), alpha_bits=4)  # 255, 243 share 3


def test_coprime_composite_moduli_accepted() -> None:
    b = RnsBases(channel_bits=8, base1=(253, 251), base2=(256, 241), alpha_bits=4)
    assert b.m1 == 253 * 251


def test_channel_modulus_must_fit_the_width() -> None:
    with pytest.raises(ValueError, match="8-bit"):
        RnsBases(channel_bits=8, base1=(257,), base2=(251,), alpha_bits=4)


def test_too_many_narrow_channels_make_alpha_too_coarse() -> None:
    with pytest.raises(ValueError, match="alpha approximation too coarse"):
        make_bases(4096, channel_bits=16)


# ------------------------------------------------------------------------------ conversions


@pytest.mark.parametrize("bits", SIZES)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_residues_round_trip(bits: int, data: st.DataObject) -> None:
    b = _bases(bits)
    x = data.draw(st.integers(0, min(b.m1, b.m2) - 1))
    v = to_rns(x, b)
    assert v.residues1 == tuple(x % m for m in b.base1)
    assert v.residues2 == tuple(x % m for m in b.base2)
    assert from_rns(v, b) == x
    assert crt(v.residues2, b.base2) == x


def test_forward_conversion_rejects_out_of_range() -> None:
    b = _bases(64)
    with pytest.raises(ValueError, match="dynamic range"):
        to_rns(min(b.m1, b.m2), b)
    with pytest.raises(ValueError, match="dynamic range"):
        to_rns(-1, b)


@settings(max_examples=40, deadline=None)
@given(x=st.integers(0, 2**300), y=st.integers(0, 2**300))
def test_channel_wise_add_sub_mul(x: int, y: int) -> None:
    b = _bases(521)
    m = min(b.m1, b.m2)
    x, y = x % m, y % m
    vx, vy = to_rns(x, b), to_rns(y, b)
    for op, expect in ((rns_add, x + y), (rns_sub, x - y), (rns_mul, x * y)):
        out = op(vx, vy, b)
        assert crt(out.residues1, b.base1) == expect % b.m1
        assert crt(out.residues2, b.base2) == expect % b.m2


# ---------------------------------------------------------------------------- base extension


@pytest.mark.parametrize("bits", [64, 521, 2048])
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_base_extension_with_offset_is_exact_below_half_range(bits: int, data: st.DataObject) -> None:
    b = _bases(bits)
    x = data.draw(st.integers(0, b.m2 // 2 - 1))
    residues = tuple(x % m for m in b.base2)
    out, _ = base_extend(residues, b.base2, b.base1, b.channel_bits, b.alpha_bits, 1 << (b.alpha_bits - 1))
    assert crt(out, b.base1) == x  # same integer as the CRT reconstruction of the source
    assert out == tuple(x % m for m in b.base1)


@pytest.mark.parametrize("bits", [64, 521, 2048])
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_base_extension_without_offset_is_x_or_x_plus_m(bits: int, data: st.DataObject) -> None:
    b = _bases(bits)
    x = data.draw(st.integers(0, b.m1 - 1))
    residues = tuple(x % m for m in b.base1)
    out, alpha = base_extend(residues, b.base1, b.base2, b.channel_bits, b.alpha_bits, 0)
    xi = [r * pow(b.m1 // m, -1, m) % m for r, m in zip(residues, b.base1)]
    true_alpha = sum(v * (b.m1 // m) for v, m in zip(xi, b.base1)) // b.m1
    assert alpha in (true_alpha, true_alpha - 1)
    assert out == tuple((x + (true_alpha - alpha) * b.m1) % m for m in b.base2)


@pytest.mark.parametrize("bits", [64, 2048])
def test_alpha_offset_matters_for_small_values(bits: int) -> None:
    """x = 1: every xi_j/m_j is truncated down, so without the offset alpha_hat = alpha - 1."""
    b = _bases(bits)
    residues = tuple(1 for _ in b.base2)
    exact, alpha_half = base_extend(residues, b.base2, b.base1, b.channel_bits, b.alpha_bits, 1 << (b.alpha_bits - 1))
    wrong, alpha_zero = base_extend(residues, b.base2, b.base1, b.channel_bits, b.alpha_bits, 0)
    assert exact == tuple(1 for _ in b.base1)
    assert alpha_zero == alpha_half - 1
    assert crt(wrong, b.base1) == (1 + b.m2) % b.m1  # the extension produced 1 + M2


def test_alpha_hat_truncates_to_the_leading_bits() -> None:
    # w = 8, r = 3: 0b111_00000 contributes 7/8; 8 of them sum to 7 (floor), +1/2 offset -> 7
    assert alpha_hat([0b11111111] * 8, 8, 3, 0) == 7
    assert alpha_hat([0b11100000] * 8, 8, 3, 4) == 7
    assert alpha_hat([0b11100000] * 9, 8, 3, 4) == 8  # 63/8 + 1/2 = 8.375


# ---------------------------------------------------------------------------- Algorithm 1


def _check_mont_mul(x: int, y: int, n: int, b: RnsBases) -> int:
    u, stats = mont_mul(x, y, n, b)
    assert u % n == mont_mul_oracle(x, y, n, b)
    assert u in _exact_montgomery_candidates(x, y, n, b.m1)
    assert 0 <= u < 4 * n
    assert u * b.m1 < x * y + 2 * n * b.m1  # u < xy/M1 + 2N
    assert stats.cycles == 2 * b.pe_count + 10 and stats.paper_cycles == 2 * b.pe_count
    return u


@pytest.mark.parametrize("bits", SMALL_SIZES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_mont_mul_matches_oracle_small(bits: int, data: st.DataObject) -> None:
    n = _odd_modulus(bits, data.draw(st.integers(0, 2**32)))
    x = data.draw(st.integers(0, 4 * n - 1))
    y = data.draw(st.integers(0, 4 * n - 1))
    _check_mont_mul(x, y, n, _bases(bits))


@pytest.mark.parametrize("bits", BIG_SIZES)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_mont_mul_matches_oracle_big(bits: int, data: st.DataObject) -> None:
    n = _odd_modulus(bits, data.draw(st.integers(0, 2**32)))
    x = data.draw(st.integers(0, 4 * n - 1))
    y = data.draw(st.integers(0, 4 * n - 1))
    _check_mont_mul(x, y, n, _bases(bits))


@pytest.mark.parametrize("bits", SIZES)
def test_mont_mul_edge_operands(bits: int) -> None:
    n = _odd_modulus(bits, bits)
    b = _bases(bits)
    for x, y in ((0, 0), (0, n - 1), (1, 1), (1, n - 1), (n - 1, n - 1), (4 * n - 1, 4 * n - 1), (n, 2 * n)):
        _check_mont_mul(x, y, n, b)
    assert mont_mul(0, n - 1, n, b)[0] == 0


def test_first_base_extension_sometimes_adds_m1() -> None:
    """The offset-0 extension yields q + M1 on some inputs: the output is then u0 + N (>= N)."""
    n = _odd_modulus(256, 7)
    b = _bases(256)
    rng = random.Random(1)
    outcomes = set()
    for _ in range(300):
        x, y = rng.randrange(4 * n), rng.randrange(4 * n)
        u = _check_mont_mul(x, y, n, b)
        outcomes.add(_exact_montgomery_candidates(x, y, n, b.m1).index(u))
    assert outcomes == {0, 1}


def test_mont_mul_counts_channel_operations() -> None:
    b = _bases(2048)
    h = b.pe_count
    n = _odd_modulus(2048, 3)
    _, stats = mont_mul(5, 7, n, b)
    assert stats.counts["channel_mac"] == 2 * h * h + 2 * h
    assert stats.counts["channel_mul"] == 8 * h  # product (2h) + steps 1, 2, 3, 4, 5
    assert stats.counts["ring_hops"] == 2 * h * h
    assert stats.counts["base_extensions"] == 2
    assert stats.counts["reverse_conversion_cycles"] == 1 + h * (h - 1) + h


# --------------------------------------------------------------------------------- errors


def test_even_modulus_rejected_then_good_call_works() -> None:
    b = _bases(64)
    with pytest.raises(ModulusError, match="modulus must be odd"):
        mont_mul(1, 2, 2**63 + 2, b)
    with pytest.raises(ValueError, match="must be odd"):
        mod_exp(1, 2, 2**63, b)
    n = _odd_modulus(64, 0)
    assert mont_mul(3, 5, n, b)[0] % n == mont_mul_oracle(3, 5, n, b)


def test_modulus_too_large_for_bases() -> None:
    with pytest.raises(ValueError, match="too large for these RNS bases"):
        mont_mul(1, 1, 2**100 + 1, _bases(64))
    b = _bases(64)
    with pytest.raises(ValueError, match="too large"):
        mont_mul(1, 1, b.max_modulus + 2 if b.max_modulus % 2 else b.max_modulus + 1, b)


def test_modulus_sharing_a_channel_factor_rejected() -> None:
    b = _bases(64)
    with pytest.raises(ModulusError, match="shares a factor"):
        mont_mul(1, 1, b.base1[0] * 3, b)


def test_operands_out_of_range_rejected() -> None:
    n = _odd_modulus(64, 0)
    with pytest.raises(ValueError, match="0 <= x < 4N"):
        mont_mul(4 * n, 1, n, _bases(64))
    with pytest.raises(ValueError, match="0 <= y < 4N"):
        mont_mul(1, -1, n, _bases(64))
    with pytest.raises(ValueError, match="> 1"):
        mont_mul(0, 0, 1, _bases(64))


# ---------------------------------------------------------------------------- exponentiation


@pytest.mark.parametrize("bits", SMALL_SIZES)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_mod_exp_matches_pow(bits: int, data: st.DataObject) -> None:
    n = _odd_modulus(bits, data.draw(st.integers(0, 2**32)))
    base = data.draw(st.integers(0, n - 1))
    e = data.draw(st.integers(0, 2 ** min(bits, 128)))
    result, stats = mod_exp(base, e, n, _bases(bits))
    assert result == pow(base, e, n)
    squarings = max(e.bit_length() - 1, 0)
    assert stats.counts.get("squarings", 0) == squarings
    assert stats.counts["mont_muls"] == 2 + squarings + stats.counts.get("multiplications", 0)


@pytest.mark.parametrize("bits", BIG_SIZES)
def test_mod_exp_big_sizes_short_exponent(bits: int) -> None:
    n = _odd_modulus(bits, 11)
    rng = random.Random(bits)
    base = rng.randrange(n)
    e = rng.getrandbits(12) | 1 << 11
    assert mod_exp(base, e, n, _bases(bits))[0] == pow(base, e, n)


def test_mod_exp_edge_operands_and_full_exponent() -> None:
    n = _odd_modulus(64, 5)
    b = _bases(64)
    for base in (0, 1, 2, n - 1):
        for e in (0, 1, 2, n - 1, 2**64 - 1):
            assert mod_exp(base, e, n, b)[0] == pow(base, e, n)


def test_mod_exp_rejects_bad_operands() -> None:
    n = _odd_modulus(64, 5)
    with pytest.raises(ValueError, match="base out of range"):
        mod_exp(n, 3, n, _bases(64))
    with pytest.raises(ValueError, match="non-negative"):
        mod_exp(2, -1, n, _bases(64))


# ------------------------------------------------------------------------------- elliptic curves


def _oracle_scalar_mult(k: int, point: tuple[int, int] | None, curve: Curve) -> tuple[int, int] | None:
    """Independent reference: affine left-to-right double-and-add with Fermat inverses."""

    def add(p1, p2):  # type: ignore[no-untyped-def]
        if p1 is None or p2 is None:
            return p1 if p2 is None else p2
        p = curve.p
        if p1[0] == p2[0] and (p1[1] + p2[1]) % p == 0:
            return None
        if p1 == p2:
            lam = (3 * p1[0] ** 2 + curve.a) * pow(2 * p1[1], p - 2, p) % p
        else:
            lam = (p2[1] - p1[1]) * pow(p2[0] - p1[0], p - 2, p) % p
        x3 = (lam * lam - p1[0] - p2[0]) % p
        return x3, (lam * (p1[0] - x3) - p1[1]) % p

    acc = None
    for bit in bin(k)[2:]:
        acc = add(acc, acc)
        if bit == "1":
            acc = add(acc, point)
    return acc


_P256_BASES = make_bases(256)


@pytest.mark.parametrize("k", [1, 2, 3, P256_ORDER - 1, P256_ORDER, P256_ORDER + 1, 0xC0FFEE << 200])
def test_p256_scalar_mult_matches_oracle(k: int) -> None:
    result, stats = ec_scalar_mult(k, P256_GENERATOR, P256, _P256_BASES)
    assert result == _oracle_scalar_mult(k, P256_GENERATOR, P256)
    assert stats.counts.get("point_doublings", 0) == k.bit_length() - 1
    assert stats.paper_cycles == stats.counts["mont_muls"] * 2 * _P256_BASES.pe_count


def test_p256_known_vector_2g() -> None:
    two_g, _ = ec_scalar_mult(2, P256_GENERATOR, P256, _P256_BASES)
    assert two_g == (
        0x7CF27B188D034F7E8A52380304B51AC3C08969E277F21B35A60B48FC47669978,
        0x07775510DB8ED040293D9AC69F7430DBBA7DADE63CE982299E04B79D227873D1,
    )


def test_p256_random_scalar_and_infinity_cases() -> None:
    k = random.Random(256).randrange(P256_ORDER)
    assert ec_scalar_mult(k, P256_GENERATOR, P256, _P256_BASES)[0] == _oracle_scalar_mult(k, P256_GENERATOR, P256)
    assert ec_scalar_mult(0, P256_GENERATOR, P256, _P256_BASES)[0] is None
    assert ec_scalar_mult(5, None, P256, _P256_BASES)[0] is None


def _small_curve() -> tuple[Curve, tuple[int, int]]:
    rng = random.Random(60)
    while True:
        p = rng.getrandbits(60) | (1 << 59) | 3
        if is_probable_prime(p):
            break
    curve = Curve(p=p, a=rng.randrange(p), b=rng.randrange(p))
    while True:
        x = rng.randrange(p)
        rhs = (x**3 + curve.a * x + curve.b) % p
        y = pow(rhs, (p + 1) // 4, p)
        if y * y % p == rhs:
            return curve, (x, y)


def test_tight_bases_force_renormalization() -> None:
    """60-bit prime on 16-bit channels: M1 ~ 2^64 leaves little headroom for lazy additions."""
    curve, point = _small_curve()
    bases = make_bases(60, channel_bits=16)
    assert bases.pe_count == 4
    rng = random.Random(3)
    for k in (1, 2, rng.getrandbits(60), rng.getrandbits(64)):
        result, stats = ec_scalar_mult(k, point, curve, bases)
        assert result == _oracle_scalar_mult(k, point, curve)
    assert stats.counts.get("renormalizations", 0) > 0


def test_ec_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="not on the curve"):
        ec_scalar_mult(3, (1, 2), P256, _P256_BASES)
    with pytest.raises(ValueError, match="non-negative"):
        ec_scalar_mult(-1, P256_GENERATOR, P256, _P256_BASES)
    with pytest.raises(ValueError, match="prime"):
        ec_scalar_mult(1, (0, 0), Curve(p=15, a=0, b=0), _P256_BASES)


def test_module_oracle_agrees_with_test_oracle() -> None:
    curve, point = _small_curve()
    for k in (1, 2, 7, 2**40 + 3):
        assert antao.ec_scalar_mult_oracle(k, point, curve) == _oracle_scalar_mult(k, point, curve)


# ------------------------------------------------------------------------------------- demo


def test_demo_report_all_ok() -> None:
    p, poly = example_operands()
    lines = antao.demo_report(p, poly)
    assert lines[0].startswith("antao")
    assert sum("ok" in line for line in lines) == 3
    assert not any("MISMATCH" in line for line in lines)
