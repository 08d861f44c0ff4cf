"""The cilardo engine (montu.engines.open("cilardo")): the unit built on cilardo2008's multiplier,
behind the engine contract, in the paper's mode and in Alg. 2's (guard bits); the driver's
guard-bit mode on both builds; RSA and ECC on the cilardo build against `cryptography`."""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec as pyca_ec
from cryptography.hazmat.primitives.asymmetric import padding as pyca_padding
from cryptography.hazmat.primitives.asymmetric import rsa as pyca_rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from hypothesis import given, settings
from hypothesis import strategies as st

import montu.engines
import montu.rsa
from montu import Unit
from montu.arith import gf2m
from montu.arith.cilardo_fios import PAPER_GFN_CLOCKS
from montu.arith.field import Field
from montu.config import UnitConfig
from montu.driver import UnitError, unit_for_operands
from montu.ec import EcPrivateKey, get_curve
from montu.engines import cilardo
from montu.isa import load

STARTMMI = load().by_name["STARTMMI"]


def _startmmi(words: int, gf2m_mode: int = 0) -> int:
    """STARTMMI's cycles on the cilardo build, from the ISA table."""
    return STARTMMI.cycle_count(engine="cilardo",
                                **UnitConfig(engine="cilardo").variables(k=words, gf2m=gf2m_mode))


@pytest.fixture(scope="module")
def engine():
    return montu.engines.open("cilardo", backend="sim")


def test_the_registry_entry_is_the_unit_built_on_cilardo_mont():
    entry = montu.engines.get("cilardo")
    assert entry.unit_build and entry.constant_time and entry.fields == ("gfp", "gf2m")
    assert all(entry.can(c) for c in ("modmul", "modexp", "modinv", "sign", "verify", "encrypt",
                                      "decrypt", "derive", "genkey", "pubkey"))
    assert (entry.core, entry.top) == ("montu:ip:montu", "montu_top")
    engine = montu.engines.open("cilardo")
    assert engine.unit.engine == "cilardo" and engine.unit.config.generics["MulCore"] == 1
    assert engine.mode == "paper" and engine.unit.guard_bits == 0
    # one build for cycles and fmax: the engine's default is the synthesized (routed) build
    assert engine.unit.pipelined and engine.unit.config.generics["Pipelined"] == 1
    assert {k: v for k, v in engine.build.items() if k != "mode"} == cilardo.SYNTH_BUILDS[0]
    assert montu.engines.open("cilardo", pipelined=False).unit.pipelined is False


def test_mod_mul_mod_exp_mod_inv_and_the_core_cycles(engine):
    rng = random.Random(1)
    n = rng.getrandbits(1024) | 1 | (1 << 1023)
    x, y = rng.randrange(n), rng.randrange(n)
    assert engine.mod_mul(x, y, n) == x * y % n
    assert engine.core_cycles == 2 * _startmmi(16)               # x·y·R⁻¹, then ·R²·R⁻¹
    assert engine.paper_core_cycles == 2 * 16 * max(17, 9)       # Fig. 9: m·max(m + 1, 9)
    assert engine.last_cycles > engine.core_cycles
    assert engine.mod_exp(x, n - 2, n) == pow(x, n - 2, n)
    assert engine.core_cycles % _startmmi(16) == 0 and engine.core_cycles > 0
    assert engine.paper_core_cycles == engine.core_cycles // _startmmi(16) * 16 * 17
    assert engine.mod_inv(x, n) == pow(x, -1, n)
    assert engine.core_cycles == 0 and engine.paper_core_cycles == 0   # MINV: no product
    m = (1 << 283) | (1 << 12) | (1 << 7) | (1 << 5) | 1
    a, b = rng.getrandbits(283), rng.getrandbits(283)
    assert engine.mod_mul(a, b, m, Field.GF2M) == gf2m.mulmod(a, b, m)
    assert engine.core_cycles == 2 * _startmmi(5, 1)


@pytest.mark.parametrize("bits", sorted(PAPER_GFN_CLOCKS))
def test_fios_mul_at_the_papers_sizes_counts_the_papers_clocks(bits):
    """One STARTMMI at the §6 table's sizes: the paper's mode reproduces its clock counts
    (27/36/36/45/90) as Fig. 9's schedule; Alg. 2's mode takes more words where bits + 2 cross a
    word (192 → 4 words, 256 → 5)."""
    rng = random.Random(bits)
    n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
    x, y = rng.randrange(n), rng.randrange(n)
    for mode, words in (("paper", -(-bits // 64)), ("alg2", -(-(bits + 2) // 64))):
        engine = montu.engines.open("cilardo", mode=mode)
        assert engine.fios_mul(x, y, n) == x * y * pow(2, -64 * words, n) % n
        assert engine.core_cycles == _startmmi(words)
        assert engine.paper_core_cycles == words * max(words + 1, 9)
        assert cilardo.product_cycles(bits, mode) == {
            "words": words, "instruction": _startmmi(words), "paper": words * max(words + 1, 9)}
        if mode == "paper":
            assert engine.paper_core_cycles == PAPER_GFN_CLOCKS[bits]


def test_scalar_mult_counts_the_products_of_the_point_multiplication(engine):
    curve = get_curve("prime256v1")
    k = 0x1234567 ** 5 % curve.n
    expected = pyca_ec.derive_private_key(k, pyca_ec.SECP256R1()).public_key().public_numbers()
    assert engine.scalar_mult("prime256v1", k) == (expected.x, expected.y)
    assert engine.core_cycles > 0 and engine.core_cycles % _startmmi(4) == 0
    assert engine.paper_core_cycles == engine.core_cycles // _startmmi(4) * 36


@pytest.mark.parametrize(("params", "match"), [
    ({"mode": "fast"}, "mode must be one of paper, alg2"),
    ({"guard_bits": 2}, "sets guard_bits itself"),
    ({"engine": "bie2021"}, "sets engine itself"),
    ({"word_bits": 32}, "engine cilardo needs Word = 64"),
])
def test_bad_parameters_are_refused_with_the_fact(params, match):
    with pytest.raises(ValueError, match=match):
        montu.engines.open("cilardo", **params)


@pytest.mark.parametrize("guard_bits", [-1, 64, 1.5, True])
def test_guard_bits_must_be_a_small_whole_number(guard_bits):
    with pytest.raises(UnitError, match="guard_bits must be a whole number in 0 .. 63"):
        Unit(guard_bits=guard_bits)


@pytest.mark.parametrize("engine_name", ["bie2021", "cilardo"])
@pytest.mark.parametrize("guard_bits", [0, 2])
def test_both_builds_in_both_modes_at_every_length_edge(engine_name, guard_bits):
    """Moduli whose length sits on each side of a word edge with and without guard bits: the
    R² start (a modulus that does not fill its top word), mod_mul, mod_exp, mont_mul's R."""
    unit = Unit(engine=engine_name, guard_bits=guard_bits)
    rng = random.Random(f"{engine_name}{guard_bits}")
    for bits in (2, 3, 61, 62, 63, 64, 65, 126, 127, 128, 129, 190, 191, 192):
        n = (rng.getrandbits(bits) | 1 | (1 << (bits - 1))) if bits > 2 else 3
        x, y = rng.randrange(n), rng.randrange(n)
        assert unit.mod_mul(x, y, n) == x * y % n, bits
        assert unit.mod_exp(x, y, n) == pow(x, y, n), bits
        length = 64 * -(-(bits + guard_bits) // 64)
        assert unit.length_words(bits) * 64 == length
        assert unit.mont_mul(x, y, n) == x * y * pow(2, -length, n) % n, bits
        z = rng.getrandbits(2 * length)
        assert unit.mod_exp(z, 1, n) == z % n, bits              # base up to 2^(2L)


def test_guard_bits_that_overflow_max_bits_are_refused_before_any_command():
    unit = Unit(engine="cilardo", guard_bits=2, max_bits=1024)
    n = (1 << 1023) | 1
    with pytest.raises(UnitError, match="1024-bit modulus needs 1088-bit registers with 2 guard"):
        unit.mod_mul(3, 5, n)
    with pytest.raises(UnitError, match="do not fit this unit with 2 guard bits"):
        unit_for_operands(unit, 1024)
    assert unit.mod_mul(3, 5, (1 << 1021) | 1) == 15                 # still usable


@pytest.fixture(scope="module")
def rsa_numbers():
    return pyca_rsa.generate_private_key(public_exponent=65537, key_size=2048).private_numbers()


@pytest.mark.parametrize("mode", ["paper", "alg2"])
def test_rsa_2048_on_the_cilardo_build_against_cryptography(rsa_numbers, mode):
    unit = montu.engines.open("cilardo", mode=mode).unit
    pub = rsa_numbers.public_numbers
    key = montu.rsa.RsaPrivateKey(pub.n, pub.e, rsa_numbers.d, rsa_numbers.p, rsa_numbers.q,
                                  rsa_numbers.dmp1, rsa_numbers.dmq1, rsa_numbers.iqmp, unit=unit)
    message = b"cilardo2008 in the Montu unit"
    signature = key.sign(message, "sha256")
    pyca_key = rsa_numbers.private_key()
    pyca_key.public_key().verify(signature, message, pyca_padding.PKCS1v15(), hashes.SHA256())
    assert signature == pyca_key.sign(message, pyca_padding.PKCS1v15(), hashes.SHA256())
    oaep = pyca_padding.OAEP(mgf=pyca_padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(),
                             label=None)
    assert key.decrypt(pyca_key.public_key().encrypt(b"secret", oaep), "sha256") == b"secret"
    assert pyca_key.decrypt(key.public_key().encrypt(b"secret", "sha256"), oaep) == b"secret"


@pytest.mark.parametrize("mode", ["paper", "alg2"])
@pytest.mark.parametrize("curve_name", ["prime256v1", "sect283k1"])
def test_ecdsa_and_ecdh_on_the_cilardo_build(curve_name, mode):
    """Signatures verify on the bie2021 build too, the shared secret is the same on both, and
    P-256 signatures verify with `cryptography` (it has no binary curves: the CLI tests check
    sect283k1 with the openssl command)."""
    unit = montu.engines.open("cilardo", mode=mode).unit
    reference = Unit()
    curve = get_curve(curve_name)
    rng = random.Random(curve_name + mode)
    d, peer_d = rng.randrange(1, curve.n), rng.randrange(1, curve.n)
    key = EcPrivateKey(curve, d, unit)
    message = b"dual-field FIOS"
    signature = key.sign(message)
    assert key.public_key().verify(signature, message)
    assert EcPrivateKey(curve, d, reference).public_key().point == key.public_key().point
    assert EcPrivateKey(curve, d, reference).public_key().verify(signature, message)
    assert not key.public_key().verify(signature, message + b"!")
    peer = EcPrivateKey(curve, peer_d, reference)
    assert key.exchange(peer.public_key()) == peer.exchange(key.public_key())
    if curve_name == "prime256v1":
        x, y = key.public_key().point
        pyca_public = pyca_ec.EllipticCurvePublicNumbers(x, y, pyca_ec.SECP256R1()).public_key()
        r, s = decode_dss_signature(signature)
        assert 0 < r < curve.n and 0 < s < curve.n
        pyca_public.verify(signature, message, pyca_ec.ECDSA(hashes.SHA256()))


@settings(max_examples=30, deadline=None)
@given(bits=st.integers(2, 1100), data=st.data(), gf2m_mode=st.booleans())
def test_mod_mul_property(engine, bits, data, gf2m_mode):
    if gf2m_mode:
        bits = max(bits, 3)
        if (bits - 1) % 64 == 0:
            bits += 1                                   # degrees that are multiples of 64: refused
        n = data.draw(st.integers(1 << (bits - 1), (1 << bits) - 1)) | 1
        x = data.draw(st.integers(0, (1 << (bits - 1)) - 1))
        y = data.draw(st.integers(0, (1 << (bits - 1)) - 1))
        assert engine.mod_mul(x, y, n, Field.GF2M) == gf2m.mulmod(x, y, n)
    else:
        n = data.draw(st.integers(1 << (bits - 1), (1 << bits) - 1)) | 1
        n = max(n, 3)
        x, y = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
        assert engine.mod_mul(x, y, n) == x * y % n
