"""RSA key generation on the unit (bie2021 §5.2): prime search, d = e⁻¹ mod λ(n), CRT values.

The host draws random bits (`secrets`) and sets/clears single bits of them (top two bits and the
low bit of a candidate, w − 1 = w with bit 0 cleared, (w − 1)/2 = w >> 1); every arithmetic step
runs on the unit:

- sieve: gcd(w, P) = 1 for P the product of the small odd primes below 2^(bits−2), tested as
  MINV(P·r mod w, w) with a fresh random r (blinded: the inversion's time does not follow w);
- gcd(e, w − 1) = 1: MINV(e, w − 1), an even modulus (bie2021 Alg. 3);
- Miller–Rabin with the FIPS 186-5 round counts (Table B.1; FIPS 186-4 Table C.3 for 512-bit
  primes), each round a constant-time fixed-window exponentiation plus squarings and CMPs in
  Montgomery form;
- |p − q| > 2^(bits/2 − 100) by SUB/CMP; gcd((p−1)/2, (q−1)/2) = 1 by MINV, so that
  λ(n) = lcm(p−1, q−1) = (p−1)·((q−1)/2), one product on the unit (mod n, exact);
- n = p·q as a product modulo 2^bits − 1 (exact: p·q < 2^bits − 1), d = MINV(e, λ(n)),
  dp = MINV(e, p−1), dq = MINV(e, q−1), qinv = MINV(q mod p, p);
- a pairwise-consistency private operation (which itself checks m^e = c) before returning.

Known limit, documented in docs/rsa.md: MINV(e, λ), MINV(e, p−1) and MINV(e, q−1) run on secret
moduli and MINV's pass count depends on its operands, so key generation (like every prime search
by rejection) is not constant-time. Signing and decryption are.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable

from montu.arith.field import Field
from montu.driver import R_ACC0, R_ACC1, R_ONE, R_X, R_Y, R_Z, Unit, default_unit
from montu.errors import NoInverse
from montu.isa import encode
from montu.rsa import operations
from montu.rsa.keys import RsaKeyError, RsaPrivateKey

Progress = Callable[[str], None]

MIN_KEY_BITS = 512           # tests only: use 2048 or more
DEFAULT_E = 65537


def miller_rabin_rounds(prime_bits: int) -> int:
    """FIPS 186-5 Table B.1 (p, q of 1024/1536/2048 bits: 5/4/4 rounds, the 2^-112/2^-128/2^-144
    column); 512-bit primes: 7 rounds (FIPS 186-4 Table C.3)."""
    if prime_bits <= 512:
        return 7
    if prime_bits <= 1024:
        return 5
    return 4


@functools.cache
def small_prime_product(below_bits: int) -> int:
    """The product of the odd primes 3, 5, 7, … while it stays below 2^below_bits (a public
    constant of the sieve)."""
    product, candidate = 1, 3
    while True:
        if all(candidate % f for f in range(3, int(candidate ** 0.5) + 1, 2)):
            if (product * candidate).bit_length() > below_bits:
                return product
            product *= candidate
        candidate += 2


def generate(bits: int = 2048, e: int = DEFAULT_E, unit: Unit | None = None,
             progress: Progress | None = None) -> RsaPrivateKey:
    """A fresh RSA key with an exactly `bits`-bit modulus; all arithmetic on `unit`.

    progress (optional) receives "." for each rejected candidate, "+" for each passed
    Miller–Rabin round and "*" for each prime found (as OpenSSL prints)."""
    unit = unit if unit is not None else default_unit()
    if not isinstance(bits, int) or bits % 8 or not MIN_KEY_BITS <= bits <= unit.max_bits:
        raise RsaKeyError(f"RSA key size must be a multiple of 8 bits in {MIN_KEY_BITS} .. "
                          f"{unit.max_bits} (got {bits})")
    if not isinstance(e, int) or e < 3 or e % 2 == 0 or e.bit_length() > 256:
        raise RsaKeyError(f"public exponent must be odd, at least 3 and below 2^256 (got {e})")
    report = progress or (lambda _event: None)
    p_bits, q_bits = bits - bits // 2, bits // 2
    while True:
        p = _random_prime(unit, p_bits, e, report)
        q = _random_prime(unit, q_bits, e, report, other=p)
        p, q = _ordered(unit, p, q)
        n = _product(unit, p, q, bits)
        lam = unit.mod_mul(p ^ 1, q >> 1, n)          # (p−1)·(q−1)/2 = λ(n): below n, exact
        d = unit.mod_inv(e, lam)
        if not _greater_than_power(unit, d, bits // 2, n.bit_length()):
            report(".")                                 # FIPS 186-5: d > 2^(nlen/2)
            continue
        dp, dq, qinv = crt_parameters(unit, e, p, q)
        key = RsaPrivateKey(n, e, d, p, q, dp, dq, qinv, unit=unit)
        probe = secrets.randbelow(n - 2) + 2
        operations.private_crt(unit, probe, key.crt)    # pairwise consistency (m^e = c checked)
        return key


def crt_parameters(unit: Unit, e: int, p: int, q: int) -> tuple[int, int, int]:
    """dp = e⁻¹ mod (p−1), dq = e⁻¹ mod (q−1) (MINV with even moduli), qinv = q⁻¹ mod p."""
    if e >= min(p, q) - 1:
        raise RsaKeyError("the public exponent must be smaller than p − 1 and q − 1")
    try:
        dp = unit.mod_inv(e, p ^ 1)
        dq = unit.mod_inv(e, q ^ 1)
        qinv = unit.mod_inv(_reduce(unit, q, p), p)
    except NoInverse:
        raise RsaKeyError("e is not invertible modulo p−1 or q−1, or q not modulo p: "
                          "these are not RSA primes for this exponent") from None
    return dp, dq, qinv


def _reduce(unit: Unit, x: int, n: int) -> int:
    """x mod n on the unit for odd n and x < 2^(2L) (Montgomery form, then out of it)."""
    if n % 2 == 0:
        raise RsaKeyError("cannot reduce modulo an even number on the unit")
    k = unit._load_modulus(n, Field.GFP)
    unit._to_montgomery(R_X, x, n, k)
    unit.send_checked([(encode("LDONE", rd=R_ONE), 0),
                       (encode("STARTMMI", rd=R_X, ra=R_X, rb=R_ONE), 0)], "reduction")
    return unit.read(R_X, k)


def _random_prime(unit: Unit, bits: int, e: int, report: Progress, other: int | None = None) -> int:
    sieve = small_prime_product(bits - 2)
    rounds = miller_rabin_rounds(bits)
    while True:
        w = secrets.randbits(bits) | (0b11 << (bits - 2)) | 1
        if not _coprime(unit, sieve, w) or not _coprime(unit, e, w ^ 1):
            report(".")
            continue
        if other is not None and not _far_apart_and_coprime_halves(unit, w, other, bits):
            report(".")
            continue
        if _probably_prime(unit, w, rounds, report):
            report("*")
            return w
        report(".")


def _coprime(unit: Unit, a: int, n: int) -> bool:
    """gcd(a, n) = 1 by MINV on the unit; a is blinded by a random factor when n is odd."""
    try:
        if n % 2:
            a = unit.mod_mul(a, secrets.randbelow(n - 1) + 1, n)
        unit.mod_inv(a, n)
    except NoInverse:
        return False
    return True


def _far_apart_and_coprime_halves(unit: Unit, a: int, b: int, bits: int) -> bool:
    """|a − b| > 2^(bits − 100) (SUB, CMP on the unit) and gcd((a−1)/2, (b−1)/2) = 1 (MINV)."""
    big, small = _ordered(unit, a, b)
    if not _greater_than_power(unit, _difference(unit, big, small, bits), bits - 100, bits):
        return False
    return _coprime_any(unit, small >> 1, big >> 1)


def _coprime_any(unit: Unit, a: int, n: int) -> bool:
    try:
        unit.mod_inv(a, n)
    except NoInverse:
        return False
    return True


def _load_pair(unit: Unit, a: int, b: int, bits: int) -> int:
    k = unit.configure(bits, Field.GFP)
    unit.write(R_X, a, k)
    unit.write(R_Y, b, k)
    return k


def _ordered(unit: Unit, a: int, b: int) -> tuple[int, int]:
    """(max, min) of a and b: CMP sets LT, CSWAP on LT puts the larger into R_X."""
    k = _load_pair(unit, a, b, max(a.bit_length(), b.bit_length()))
    lt = unit.isa.flag_bit["LT"]
    unit.send_checked([(encode("CMP", ra=R_X, rb=R_Y), 0),
                       (encode("CSWAP", ra=R_X, rb=R_Y, imm=lt), 0)], "ordering")
    return unit.read(R_X, k), unit.read(R_Y, k)


def _difference(unit: Unit, big: int, small: int, bits: int) -> int:
    k = _load_pair(unit, big, small, bits)
    unit.run("SUB", rd=R_Z, ra=R_X, rb=R_Y)
    return unit.read(R_Z, k)


def _greater_than_power(unit: Unit, x: int, power: int, bits: int) -> bool:
    """x > 2^power, by CMP on the unit."""
    _load_pair(unit, 1 << power, x, max(bits, power + 1))
    rsp = unit.run("CMP", ra=R_X, rb=R_Y)
    return bool((rsp.flags >> unit.isa.flag_bit["LT"]) & 1)


def _product(unit: Unit, p: int, q: int, bits: int) -> int:
    """n = p·q as p·q mod (2^bits − 1), exact because p·q < 2^bits − 1 (top bits fixed)."""
    n = unit.mod_mul(p, q, (1 << bits) - 1)
    if n.bit_length() != bits:
        raise RsaKeyError("internal: modulus has the wrong length")  # cannot happen: top bits set
    return n


def _probably_prime(unit: Unit, w: int, rounds: int, report: Progress) -> bool:
    """Miller–Rabin (FIPS 186-5 B.3.1) on the unit: z = b^m (constant-time), then up to a−1
    squarings in Montgomery form; each comparison is a CMP on the unit."""
    a = ((w ^ 1) & -(w ^ 1)).bit_length() - 1        # w − 1 = 2^a · m (bit scan of w − 1)
    m = (w ^ 1) >> a
    eq = unit.isa.flag_bit["EQ"]
    square = [(encode("STARTMMI", rd=R_X, ra=R_X, rb=R_X), 0),
              (encode("CMP", ra=R_X, rb=R_ACC0), 0),          # z = −1 ?
              (encode("CMP", ra=R_X, rb=R_Y), 0)]             # z = 1 ?
    for _ in range(rounds):
        b = secrets.randbelow(w - 3) + 2
        unit.mod_exp(b, m, w, exponent_bits=operations.exponent_length(w))
        # R_Z = z, R_ACC1 = R² mod w, R_ONE = 1 (mod_exp leaves them); into Montgomery form:
        rsp = unit.send_checked([
            (encode("STARTMMI", rd=R_X, ra=R_Z, rb=R_ACC1), 0),   # z·R
            (encode("STARTMMI", rd=R_Y, ra=R_ACC1, rb=R_ONE), 0),  # R      ("1")
            (encode("LDZ", rd=R_ACC0), 0),
            (encode("MSUB", rd=R_ACC0, ra=R_ACC0, rb=R_Y), 0),     # −R     ("−1")
            (encode("CMP", ra=R_X, rb=R_Y), 0),
            (encode("CMP", ra=R_X, rb=R_ACC0), 0)], "Miller-Rabin")
        if (rsp[-2].flags | rsp[-1].flags) >> eq & 1:
            report("+")
            continue
        for _ in range(a - 1):
            to_minus_one, to_one = unit.send_checked(square, "Miller-Rabin")[1:]
            if to_minus_one.flags >> eq & 1:
                break
            if to_one.flags >> eq & 1:
                return False
        else:
            return False
        report("+")
    return True
