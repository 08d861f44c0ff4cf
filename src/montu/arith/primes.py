"""Host-side primality for tests and examples: Miller–Rabin with random bases.

This is not the unit's key generation (that runs its exponentiations on the unit); it makes
primes for moduli such as RSA-style λ(n) in the tests of the golden models and the RTL.
"""

from __future__ import annotations

import random

_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71)


def is_probable_prime(n: int, rng: random.Random, rounds: int = 20) -> bool:
    """False if n is composite; True if it passed trial division and `rounds` random bases
    (error probability below 4^-rounds)."""
    if n < 2:
        return False
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(rounds):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def random_prime(bits: int, rng: random.Random) -> int:
    """A random probable prime of exactly `bits` bits (bits ≥ 2)."""
    if bits < 2:
        raise ValueError(f"a prime needs at least 2 bits (got {bits})")
    while True:
        candidate = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        if bits == 2:
            candidate = rng.choice((2, 3))
        if is_probable_prime(candidate, rng):
            return candidate
