"""Golden model of Yeh et al., "An 830mW, 586kbps 1024-bit RSA Chip Design" (GF(p) only).

Two algorithms from the paper's Section 2 and 3:

* ``BSR4(A, B, N)`` — the radix-4 *split* Montgomery multiplication. Phase P1 forms the product
  C = A·B = C1·2^L + C0; phase P2 reduces the low half C0 two bits per iteration,
  P[2i+2] = (P[2i] + c_{2i+1}c_{2i} + k·N) / 4 with k ∈ {0, 1, 2, 3} chosen by the paper's
  if/else on (q_{2i+1}, q_{2i}) and the modulus bit n_1, using the precomputed 3N; it returns
  P[L] + C1 without a final subtraction. In the chip the product bits are streamed two per clock
  (MSPG → DoCSA) into the reduction unit (R4MR), so this model generates C0 digit by digit with a
  radix-4 serial multiplier whose remaining accumulator is C1.
* the H-type (left-to-right) modular exponentiation the paper adopts from Yang et al. [9], with
  the conversion into Montgomery form by the Constant Register value R^2 mod N and out of it by a
  multiplication by 1.

Width and radix: the paper's n is the modulus width and its loop runs n/2 radix-4 iterations, so
R = 2^n. For a modulus of k bits this model uses the even width L = 2·ceil(k/2), i.e.
R = 4^ceil(k/2) (= 2^k for even k, 2^(k+1) for odd k: the odd-width modulus sits in an even-width
datapath with a leading zero bit).

Ranges (paper: 0 <= A, B < N, N odd): for such inputs BSR4 returns r ≡ A·B·R^-1 (mod N) with
0 <= r <= 2N − 2 — *not* fully reduced (P[L] <= N and C1 <= N − 2). Inputs up to 2N are not
allowed: with N close to 2^L the result could then exceed 2N. The exponentiation therefore
subtracts N once whenever a BSR4 result is >= N before it is used again (the paper shows no such
step; see docs/algorithms.md).

Clock model: one BSR4 takes L/2 cycles (one radix-4 iteration per clock while the DoCSA streams
c_{2i+1}c_{2i}) plus 1 cycle in which R4MR adds C1 to P[L]: L/2 + 1 cycles. The paper's average
exponentiation time 0.75n^2 + 2.5n + 2 equals (1.5n + 2)·(n/2 + 1): n squarings, n/2
multiplications and 2 conversions at n/2 + 1 cycles each.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from montu.arith.stats import Stats
from montu.errors import ModulusError

MODEL_NAME = "yeh — BSR4 radix-4 split Montgomery (Yeh et al.)"


def _check_modulus(n: int) -> None:
    """Raise ModulusError unless n is an odd integer > 1 (BSR4 needs N odd)."""
    if n % 2 == 0:
        raise ModulusError(
            "modulus must be odd for BSR4 Montgomery multiplication "
            f"(got an even {n.bit_length()}-bit modulus)"
        )
    if n < 3:
        raise ModulusError(f"modulus must be an odd integer greater than 1 (got {n})")


def datapath_width(n: int) -> int:
    """The even width L = 2·ceil(k/2) of the BSR4 datapath for a k-bit odd modulus n."""
    _check_modulus(n)
    return 2 * ((n.bit_length() + 1) // 2)


def montgomery_radix(n: int) -> int:
    """The Montgomery radix R = 2^L = 4^ceil(k/2) of BSR4 for a k-bit odd modulus n."""
    return 1 << datapath_width(n)


def paper_mul_cycles(bits: int) -> float:
    """Cycles of one modular multiplication implied by the paper: n/2 + 1 for an n-bit modulus.

    Section 3: the DoCSA streams product digits for n/2 cycles, then hands C1 to R4MR; and
    Table II's 0.75n^2 + 2.5n + 2 factors exactly as (1.5n + 2)·(n/2 + 1).
    """
    return bits / 2 + 1


def paper_exp_cycles(bits: int) -> float:
    """Table II, "Proposed": average modular-exponentiation cycles 0.75n^2 + 2.5n + 2."""
    return 0.75 * bits * bits + 2.5 * bits + 2


@dataclass(frozen=True)
class Bsr4Run:
    """Everything one BSR4 call produced.

    ``result`` = P[L] + C1 (the paper's returned value, in [0, 2N − 2]); ``p_final`` = P[L];
    ``c1`` = floor(A·B / 2^L); ``multiples`` = the k of every iteration i (k·N was added),
    so Q = Σ k_i·4^i satisfies A·B + Q·N = result·2^L.
    """

    result: int
    p_final: int
    c1: int
    multiples: tuple[int, ...]
    width: int


def quotient_multiple(q1: int, q0: int, n1: int) -> int:
    """The paper's quotient selection: which multiple k·N makes P[2i] + c + k·N ≡ 0 (mod 4).

    (q1, q0) are the two low bits of P[2i] + c_{2i+1}c_{2i}; n1 is bit 1 of the (odd) modulus.
    q0 = 0: k = 0 if q1 = 0 else 2.  q0 = 1: k = 3 if q1 = n1 else 1 (3N comes from its own
    precomputed register, the paper's choice over subtracting N).
    """
    if q0 == 0:
        return 0 if q1 == 0 else 2
    return 3 if q1 == n1 else 1


def bsr4(a: int, b: int, n: int) -> Bsr4Run:
    """BSR4(A, B, N) step by step: returns P[L] + C1 ≡ A·B·2^-L (mod N), in [0, 2N − 2].

    Requires N odd and 0 <= A, B < N (the paper's input range). Each loop iteration is one
    clock: the serial product generator adds the next radix-4 digit of the multiplier A times the
    multiplicand B and emits the product digit c_{2i+1}c_{2i}; the reduction step adds that digit
    and k·N to P[2i] and divides by 4. After L/2 iterations the product accumulator holds C1.
    """
    _check_modulus(n)
    if not (0 <= a < n and 0 <= b < n):
        raise ValueError(
            "BSR4 operands must satisfy 0 <= A, B < N (the paper's input range); got "
            f"A of {a.bit_length()} bits, B of {b.bit_length()} bits for a "
            f"{n.bit_length()}-bit modulus"
        )
    width = datapath_width(n)
    n1 = (n >> 1) & 1
    multiple_of_n = (0, n, 2 * n, 3 * n)  # 0, N, 2N and the precomputed 3N register
    multiplier_digits = a  # A, consumed two bits per clock
    product = 0  # serial product accumulator (DoCSA content, as one integer)
    p = 0  # P[0] = 0
    multiples: list[int] = []
    for _ in range(width // 2):
        product += (multiplier_digits & 3) * b
        multiplier_digits >>= 2
        c_digit = product & 3  # c_{2i+1}c_{2i}
        product >>= 2
        t = p + c_digit
        k = quotient_multiple((t >> 1) & 1, t & 1, n1)
        p = (t + multiple_of_n[k]) >> 2  # exact: the two low bits are 0
        multiples.append(k)
    c1 = product
    return Bsr4Run(result=p + c1, p_final=p, c1=c1, multiples=tuple(multiples), width=width)


def mont_mul(x: int, y: int, n: int) -> tuple[int, Stats]:
    """BSR4 Montgomery product x·y·R^-1 mod n with R = montgomery_radix(n), and its clock count.

    Inputs 0 <= x, y < n; the result is congruent to x·y·R^-1 modulo n and lies in
    [0, 2n − 2]: it is NOT fully reduced (the paper returns P[n] + C1 with no subtraction).
    Stats: cycles = L/2 + 1; paper_cycles = k/2 + 1 for a k-bit modulus.
    """
    run = bsr4(x, y, n)
    counts = {
        "iterations": run.width // 2,
        "c1_additions": 1,
        **{f"add_{k}N": run.multiples.count(k) for k in range(4)},
    }
    stats = Stats(
        cycles=run.width // 2 + 1,
        counts=counts,
        paper_cycles=paper_mul_cycles(n.bit_length()),
    )
    return run.result, stats


def _reduce_once(value: int, n: int) -> tuple[int, int]:
    """Bring a BSR4 result from [0, 2n) into [0, n); returns (value, subtractions made: 0/1)."""
    if value >= n:
        return value - n, 1
    return value, 0


def mod_exp(base: int, exponent: int, n: int) -> tuple[int, Stats]:
    """base^exponent mod n by the H-type (left-to-right) algorithm on BSR4, fully reduced.

    Steps (each BSR4 result is reduced once into [0, n) before reuse):
      M̄ = BSR4(R^2 mod N, M)                    conversion in (Constant Register × plaintext)
      X̄ = M̄; for each exponent bit below the leading 1, MSB first:
          X̄ = BSR4(X̄, X̄); if the bit is 1: X̄ = BSR4(X̄, M̄)
      X = BSR4(X̄, 1)                            conversion out
    For exponent 0, X̄ = BSR4(R^2 mod N, 1) (Montgomery form of 1) replaces M̄.
    Stats: cycles = (number of BSR4 calls)·(L/2 + 1); paper_cycles = 0.75k^2 + 2.5k + 2 for a
    k-bit modulus (the paper's average over k-bit exponents).
    """
    _check_modulus(n)
    if not 0 <= base < n:
        raise ValueError(
            f"base must satisfy 0 <= base < modulus (got a {base.bit_length()}-bit base "
            f"for a {n.bit_length()}-bit modulus)"
        )
    if exponent < 0:
        raise ValueError("exponent must be non-negative")
    constant = montgomery_radix(n) ** 2 % n  # Constant Register: R^2 mod N, loaded by the host
    counts = {"conversions": 0, "squarings": 0, "multiplications": 0, "corrections": 0}
    cycles = 0

    def step(kind: str, a: int, b: int) -> int:
        nonlocal cycles
        raw, mul_stats = mont_mul(a, b, n)
        value, subtracted = _reduce_once(raw, n)
        counts[kind] += 1
        counts["corrections"] += subtracted
        cycles += mul_stats.cycles
        return value

    if exponent == 0:
        x_bar = step("conversions", constant, 1)
    else:
        m_bar = step("conversions", constant, base)
        x_bar = m_bar
        for i in range(exponent.bit_length() - 2, -1, -1):
            x_bar = step("squarings", x_bar, x_bar)
            if (exponent >> i) & 1:
                x_bar = step("multiplications", x_bar, m_bar)
    result = step("conversions", x_bar, 1)
    counts["bsr4_calls"] = counts["conversions"] + counts["squarings"] + counts["multiplications"]
    counts["exponent_bits"] = exponent.bit_length()
    stats = Stats(cycles=cycles, counts=counts, paper_cycles=paper_exp_cycles(n.bit_length()))
    return result, stats


def demo_report(p: int, poly: int) -> list[str]:
    """Run BSR4 and the H-type exponentiation on the 2048-bit GF(p) example; printable lines.

    The 2048-bit exponentiation uses e = 65537 (a random 2048-bit exponent takes about 4 s in
    pure Python); one full-length exponentiation runs at the paper's own size, 1024 bits, to
    compare with the paper's average formula. ``poly`` is unused: the paper is GF(p) only.
    """
    rng = random.Random(0x5EED_4EA)
    x, y = rng.randrange(p), rng.randrange(p)
    bits = p.bit_length()
    r = montgomery_radix(p)
    product, mul_stats = mont_mul(x, y, p)
    mul_ok = product < 2 * p and product % p == x * y * pow(r, -1, p) % p
    reduced = "result >= N" if product >= p else "result < N"
    power, exp_stats = mod_exp(x, 65537, p)
    exp_ok = power == pow(x, 65537, p)
    n1024 = rng.getrandbits(1024) | (1 << 1023) | 1
    base1024, e1024 = rng.randrange(n1024), rng.getrandbits(1024) | (1 << 1023)
    power1024, stats1024 = mod_exp(base1024, e1024, n1024)
    ok1024 = power1024 == pow(base1024, e1024, n1024)
    return [
        MODEL_NAME,
        f"  BSR4 {bits}-bit, R = 2^{r.bit_length() - 1}: 0x{product:x}"[:64]
        + f"… {_verdict(mul_ok)} (output < 2N, unreduced; here {reduced})",
        f"    cycles {mul_stats.cycles} (L/2 + 1)   paper n/2 + 1 = {mul_stats.paper_cycles:.10g}",
        f"  H-type mod_exp {bits}-bit, short exponent e = 65537: 0x{power:x}"[:64]
        + f"… {_verdict(exp_ok)}",
        f"    cycles {exp_stats.cycles} = {exp_stats.counts['bsr4_calls']} BSR4 × "
        f"{mul_stats.cycles}   paper 0.75n²+2.5n+2 = {exp_stats.paper_cycles:.10g} "
        "(assumes a random full-length exponent)",
        f"  H-type mod_exp 1024-bit, random 1024-bit exponent: 0x{power1024:x}"[:64]
        + f"… {_verdict(ok1024)}",
        f"    cycles {stats1024.cycles} = {stats1024.counts['bsr4_calls']} BSR4 × "
        f"{stats1024.cycles // stats1024.counts['bsr4_calls']}   "
        f"paper 0.75n²+2.5n+2 = {stats1024.paper_cycles:.10g}",
        "  GF(2^m): not in this paper (GF(p) only)",
    ]


def _verdict(ok: bool) -> str:
    """'ok' when the model agreed with the oracle, 'MISMATCH' otherwise."""
    return "ok" if ok else "MISMATCH"
