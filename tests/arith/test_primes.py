"""The host-side primality helper used to make test moduli."""

import random

from montu.arith.primes import is_probable_prime, random_prime


def test_host_primality_helper():
    rng = random.Random(3)
    small = [n for n in range(2, 500) if all(n % d for d in range(2, int(n**0.5) + 1))]
    assert [n for n in range(500) if is_probable_prime(n, rng)] == small
    assert not is_probable_prime(561 * 1105, rng)  # Carmichael numbers
    p = random_prime(256, rng)
    assert p.bit_length() == 256 and pow(3, p - 1, p) == 1
