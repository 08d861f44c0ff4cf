"""Binary-polynomial arithmetic on Python ints: bit i is the coefficient of x^i.

These are the plain GF(2)[x] operations that the GF(2^m) golden models are checked against,
and the reduction polynomials of the NIST/SEC2 binary curves.
"""

from __future__ import annotations

from montu.errors import ModulusError, NoInverse

# NIST FIPS 186 / SEC 2 reduction polynomials, keyed by extension degree m.
NIST_POLYNOMIALS: dict[int, int] = {
    163: (1 << 163) | (1 << 7) | (1 << 6) | (1 << 3) | 1,
    233: (1 << 233) | (1 << 74) | 1,
    283: (1 << 283) | (1 << 12) | (1 << 7) | (1 << 5) | 1,
    409: (1 << 409) | (1 << 87) | 1,
    571: (1 << 571) | (1 << 10) | (1 << 5) | (1 << 2) | 1,
}


def degree(a: int) -> int:
    """Degree of the polynomial a; -1 for the zero polynomial."""
    if a < 0:
        raise ValueError("a binary polynomial is a non-negative int")
    return a.bit_length() - 1


def clmul(a: int, b: int) -> int:
    """Carry-less (GF(2)[x]) product of a and b."""
    if a < 0 or b < 0:
        raise ValueError("binary polynomials are non-negative ints")
    if a.bit_length() < b.bit_length():
        a, b = b, a
    # Four bits of b at a time: a table of a*t for t < 16 keeps this fast for 571-bit operands.
    table = [0] * 16
    for t in range(1, 16):
        table[t] = table[t & (t - 1)] ^ (a << ((t & -t).bit_length() - 1))
    result = 0
    shift = 0
    while b:
        result ^= table[b & 15] << shift
        b >>= 4
        shift += 4
    return result


def reduce(a: int, m: int) -> int:
    """a mod m(x)."""
    dm = degree(m)
    if dm < 0:
        raise ModulusError("reduction polynomial must be non-zero")
    da = degree(a)
    while da >= dm:
        a ^= m << (da - dm)
        da = degree(a)
    return a


def mulmod(a: int, b: int, m: int) -> int:
    """a·b mod m(x)."""
    return reduce(clmul(a, b), m)


def sqrmod(a: int, m: int) -> int:
    """a² mod m(x)."""
    return mulmod(a, a, m)


def powmod(a: int, e: int, m: int) -> int:
    """a^e mod m(x) for e ≥ 0."""
    if e < 0:
        raise ValueError("exponent must be non-negative")
    result = reduce(1, m)
    base = reduce(a, m)
    while e:
        if e & 1:
            result = mulmod(result, base, m)
        base = sqrmod(base, m)
        e >>= 1
    return result


def divmod_poly(a: int, b: int) -> tuple[int, int]:
    """Quotient and remainder of a / b in GF(2)[x]."""
    db = degree(b)
    if db < 0:
        raise ZeroDivisionError("division by the zero polynomial")
    q = 0
    da = degree(a)
    while da >= db:
        q |= 1 << (da - db)
        a ^= b << (da - db)
        da = degree(a)
    return q, a


def gcd(a: int, b: int) -> int:
    """Greatest common divisor in GF(2)[x]."""
    while b:
        a, b = b, divmod_poly(a, b)[1]
    return a


def inv(a: int, m: int) -> int:
    """a⁻¹ mod m(x) by the extended Euclidean algorithm; raises NoInverse when gcd(a, m) ≠ 1.

    m need not be irreducible: any a coprime to m has an inverse.
    """
    if degree(m) < 1:
        raise ModulusError("modulus polynomial must have degree at least 1")
    r0, r1 = m, reduce(a, m)
    s0, s1 = 0, 1
    while r1:
        q, r = divmod_poly(r0, r1)
        r0, r1 = r1, r
        s0, s1 = s1, s0 ^ clmul(q, s1)
    if r0 != 1:
        raise NoInverse(f"polynomial has no inverse modulo a degree-{degree(m)} polynomial "
                        f"(their gcd has degree {degree(r0)})")
    return reduce(s0, m)


def _prime_factors(n: int) -> list[int]:
    factors = []
    p = 2
    while p * p <= n:
        if n % p == 0:
            factors.append(p)
            while n % p == 0:
                n //= p
        p += 1
    if n > 1:
        factors.append(n)
    return factors


def is_irreducible(f: int) -> bool:
    """Rabin's test: f of degree m is irreducible iff x^(2^m) ≡ x (mod f) and
    gcd(x^(2^(m/q)) − x, f) = 1 for every prime q dividing m."""
    m = degree(f)
    if m < 1:
        return False
    if m == 1:
        return True

    def x_pow_2k(k: int) -> int:
        r = 2  # the polynomial x
        for _ in range(k):
            r = sqrmod(r, f)
        return r

    if x_pow_2k(m) != reduce(2, f):
        return False
    return all(gcd(x_pow_2k(m // q) ^ 2, f) == 1 for q in _prime_factors(m))


def require_irreducible(f: int) -> None:
    """Raise ModulusError unless f is an irreducible polynomial of degree ≥ 1."""
    if not is_irreducible(f):
        raise ModulusError(f"reduction polynomial 0x{f:x} (degree {degree(f)}) is not irreducible; "
                           "GF(2^m) needs an irreducible one")


def random_irreducible(m: int, rng) -> int:
    """A random irreducible polynomial of degree m (rng: a random.Random)."""
    if m < 1:
        raise ValueError("degree must be at least 1")
    while True:
        f = (1 << m) | rng.getrandbits(m) | 1
        if is_irreducible(f):
            return f
