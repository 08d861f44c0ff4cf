"""The RSA core on the unit: key generation, CRT private operation, fault check, constant time.

Host arithmetic (pow, *, %) appears here only to check the unit's answers.
"""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding as pyca_padding
from cryptography.hazmat.primitives.asymmetric import rsa as pyca_rsa

import montu.rsa
from montu import Unit
from montu.rsa import RsaFaultError, RsaKeyError, RsaPrivateKey, RsaPublicKey
from montu.rsa.keygen import miller_rabin_rounds, small_prime_product


@pytest.fixture(scope="module")
def unit() -> Unit:
    return Unit(backend="sim")


def _pyca(bits: int, e: int = 65537):
    numbers = pyca_rsa.generate_private_key(public_exponent=e, key_size=bits).private_numbers()
    return numbers


def _montu_key(numbers, unit: Unit, crt: bool = True) -> RsaPrivateKey:
    pub = numbers.public_numbers
    if not crt:
        return RsaPrivateKey(pub.n, pub.e, numbers.d, unit=unit)
    return RsaPrivateKey(pub.n, pub.e, numbers.d, numbers.p, numbers.q, numbers.dmp1,
                         numbers.dmq1, numbers.iqmp, unit=unit)


@pytest.mark.parametrize("bits", [1024, 2048])
def test_generated_key_is_a_valid_rsa_key(unit: Unit, bits: int) -> None:
    events: list[str] = []
    key = montu.rsa.generate(bits, unit=unit, progress=events.append)
    p, q, n, e, d = key.p, key.q, key.n, key.e, key.d
    assert n == p * q and n.bit_length() == bits
    lam = (p - 1) * (q - 1) // 2                       # gcd(p−1, q−1) = 2 by construction
    assert (p - 1) * (q - 1) // __import__("math").gcd(p - 1, q - 1) == lam
    assert d * e % lam == 1 and d < lam and d > 1 << (bits // 2)
    crt = key.crt
    assert crt.dp == d % (p - 1) and crt.dq == d % (q - 1) and crt.qinv * q % p == 1
    assert p > q and abs(p - q) > 1 << (bits // 2 - 100)
    for prime in (p, q):                                # Fermat check of the unit's primes
        assert all(pow(b, prime - 1, prime) == 1 for b in (2, 3, 5, 7))
    assert events.count("*") == 2 and "+" in events
    message = b"montu"
    assert key.public_key().verify(key.sign(message), message)


def test_generated_key_with_e3_and_progress_is_optional(unit: Unit) -> None:
    key = montu.rsa.generate(1024, e=3, unit=unit)
    assert key.e == 3 and key.d * 3 % ((key.p - 1) * (key.q - 1) // 2) == 1


@pytest.mark.parametrize("bits, e", [(1001, 65537), (1020, 65537), (256, 65537), (1024, 4), (1024, 1)])
def test_keygen_rejects_bad_parameters(unit: Unit, bits: int, e: int) -> None:
    with pytest.raises(RsaKeyError):
        montu.rsa.generate(bits, e=e, unit=unit)


def test_miller_rabin_rounds_follow_fips_186_5() -> None:
    assert [miller_rabin_rounds(b) for b in (512, 1024, 1536, 2048)] == [7, 5, 4, 4]
    product = small_prime_product(100)
    assert product.bit_length() <= 100 and product % 3 == 0 and product % 2 == 1


@pytest.mark.parametrize("crt", [True, False])
def test_private_operation_matches_pow(unit: Unit, crt: bool) -> None:
    numbers = _pyca(1024)
    key = _montu_key(numbers, unit, crt=crt)
    rng = random.Random(4)
    n, d = key.n, key.d
    for _ in range(3):
        c = rng.randrange(n)
        assert montu.rsa.operations.private_crt(unit, c, key.crt) == pow(c, d, n) if crt else \
            montu.rsa.operations.private_plain(unit, c, n, d, key.e) == pow(c, d, n)


def test_crt_values_are_computed_on_the_unit_when_missing(unit: Unit) -> None:
    numbers = _pyca(1024)
    pub = numbers.public_numbers
    key = RsaPrivateKey(pub.n, pub.e, numbers.d, numbers.q, numbers.p, unit=unit)   # p < q order
    assert (key.crt.dp, key.crt.dq) == (numbers.d % (numbers.q - 1), numbers.d % (numbers.p - 1))
    assert key.crt.qinv * numbers.p % numbers.q == 1
    assert key.public_key().verify(key.sign(b"x"), b"x")


def test_private_operation_cycles_do_not_depend_on_the_key_or_message() -> None:
    """≥ 20 random 2048-bit keys, two messages each: identical unit cycles, cold and warm. (A
    fresh unit: the driver keeps per-modulus constants for its 256 most recent moduli.)"""
    unit = Unit(backend="sim")
    cold, warm = set(), set()
    rng = random.Random(7)
    for _ in range(20):
        key = _montu_key(_pyca(2048), unit)
        key.sign(rng.randbytes(40), "sha256")
        cold.add(key.last_cycles)
        key.sign(rng.randbytes(40), "sha256", pss=True)
        warm.add(key.last_cycles)
    assert len(cold) == 1 and len(warm) == 1, (cold, warm)
    assert warm.pop() <= 800_000                      # issue #4 target (the benchmark reports it)


def test_modexp_cycles_do_not_depend_on_the_exponent(unit: Unit) -> None:
    rng = random.Random(8)
    n = rng.getrandbits(1024) | 1 | 1 << 1023
    unit.mod_exp(2, 3, n)
    seen = set()
    for exponent in (0, 1, (1 << 1024) - 1, 1 << 1023, rng.getrandbits(1024), rng.getrandbits(16)):
        base = rng.randrange(n)
        assert unit.mod_exp(base, exponent, n) == pow(base, exponent, n)
        seen.add(unit.last_cycles)
    assert len(seen) == 1


class _FaultyBackend:
    """Wraps a backend and flips one bit of the Nth RMMI word it returns (a glitched read-out)."""

    def __init__(self, inner, fault_at: int):
        self.inner, self.fault_at, self.reads = inner, fault_at, 0

    def _fault(self, insn: int, rsp):
        if (insn >> 24) == 0x03:   # RMMI
            self.reads += 1
            if self.reads == self.fault_at:
                return rsp._replace(data=rsp.data ^ 1) if hasattr(rsp, "_replace") else \
                    type(rsp)(err=rsp.err, flags=rsp.flags, data=rsp.data ^ 1, cycles=rsp.cycles)
        return rsp

    def execute(self, insn, data=0):
        return self._fault(insn, self.inner.execute(insn, data))

    def execute_many(self, commands):
        return [self._fault(insn, rsp) for (insn, _), rsp in zip(commands, self.inner.execute_many(commands))]


def test_a_fault_in_the_crt_path_releases_no_signature() -> None:
    faulty_unit = Unit(backend="sim")
    key = _montu_key(_pyca(1024), faulty_unit)
    key.sign(b"warm up")                         # per-key constants cached: reads are now the CRT's
    reads_per_sign = _count_reads(faulty_unit, key)
    for fault_at in (1, reads_per_sign // 3, reads_per_sign // 2):
        faulty_unit._backend = _FaultyBackend(faulty_unit._backend, fault_at)
        with pytest.raises(RsaFaultError):
            key.sign(b"message")
        faulty_unit._backend = faulty_unit._backend.inner
        key.sign(b"warm up")                     # the fault dropped the cached constants
    assert key.public_key().verify(key.sign(b"message"), b"message")   # still usable


def _count_reads(unit: Unit, key: RsaPrivateKey) -> int:
    counter = _FaultyBackend(unit._backend, fault_at=-1)
    unit._backend = counter
    key.sign(b"count")
    unit._backend = counter.inner
    return counter.reads


@pytest.mark.parametrize("crt", [True, False])
def test_a_transient_fault_does_not_poison_the_key(crt: bool) -> None:
    """Issue #16 item 3: a glitch anywhere in a cold private operation (while the per-modulus
    R²/R³ are computed and cached) may cost at most one RsaFaultError; the operation after an
    RsaFaultError succeeds, and no invalid signature is ever released."""
    numbers = _pyca(1024)
    public = pyca_rsa.RSAPublicNumbers(numbers.public_numbers.e, numbers.public_numbers.n).public_key()
    counter_unit = Unit(backend="sim")
    cold_reads = _count_reads(counter_unit, _montu_key(numbers, counter_unit, crt))
    message = b"transient"
    for fault_at in range(1, cold_reads + 1):
        unit = Unit(backend="sim")
        key = _montu_key(numbers, unit, crt)
        unit._backend = _FaultyBackend(unit._backend, fault_at)
        outcomes = []
        for _ in range(3):
            try:
                signature = key.sign(message)
            except RsaFaultError:
                outcomes.append("fault")
                continue
            public.verify(signature, message, pyca_padding.PKCS1v15(), hashes.SHA256())  # raises if bad
            outcomes.append("ok")
        assert "fault, fault" not in ", ".join(outcomes), (fault_at, outcomes)
        assert outcomes[-1] == "ok", (fault_at, outcomes)


def test_a_corrupted_crt_exponent_releases_no_signature(unit: Unit) -> None:
    numbers = _pyca(1024)
    pub = numbers.public_numbers
    key = RsaPrivateKey(pub.n, pub.e, numbers.d, numbers.p, numbers.q, numbers.dmp1 ^ 2,
                        numbers.dmq1, numbers.iqmp, unit=unit)
    with pytest.raises(RsaFaultError):
        key.sign(b"message")


def test_bad_signatures_and_inputs(unit: Unit) -> None:
    key = _montu_key(_pyca(1024), unit)
    public = key.public_key()
    signature = key.sign(b"message", "sha384")
    assert public.verify(signature, b"message", "sha384")
    assert not public.verify(signature, b"message", "sha256")
    assert not public.verify(signature[:-1], b"message", "sha384")          # wrong length
    assert not public.verify(key.n.to_bytes(128, "big"), b"message", "sha384")   # s = n
    flipped = bytearray(signature)
    flipped[10] ^= 0x01
    assert not public.verify(bytes(flipped), b"message", "sha384")
    with pytest.raises(montu.rsa.RsaPaddingError, match="too long"):
        public.encrypt(b"x" * 100)
    with pytest.raises(montu.rsa.RsaDecryptionError):
        key.decrypt(b"\x00" * 128)
    with pytest.raises(montu.rsa.RsaDecryptionError):
        key.decrypt(b"\xff" * 128)                                           # c ≥ n
    with pytest.raises(montu.rsa.RsaPaddingError):
        key.sign(b"m", "md5")
    assert key.decrypt(public.encrypt(b"still usable", "sha384"), "sha384") == b"still usable"


@pytest.mark.parametrize("n, e", [(2**1024, 65537), (2**1023 + 1, 2), (2**1023 + 1, 1), (15, 3)])
def test_bad_public_keys_are_rejected(n: int, e: int) -> None:
    with pytest.raises(RsaKeyError):
        RsaPublicKey(n, e)


def test_pem_round_trip(unit: Unit) -> None:
    key = _montu_key(_pyca(1024), unit)
    for fmt in ("pkcs8", "pkcs1"):
        again = montu.rsa.load_pem(key.to_pem(fmt), unit=unit)
        assert (again.n, again.d, again.p) == (key.n, key.d, key.p)
    public = montu.rsa.load_pem(key.public_key().to_pem(), unit=unit)
    assert isinstance(public, RsaPublicKey) and public.n == key.n
