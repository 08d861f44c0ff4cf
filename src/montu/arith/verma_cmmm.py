"""Verma et al.'s radix-4 common-multiplicand Montgomery multipliers R4CMMM and EWBR4CMMM.

Paper: R. Verma, M. Dutta, R. Vig, "RSA Cryptosystem Based on Early Word Based Montgomery
Modular Multiplication" (Algorithms R4CMMM and EWBR4CMMM, Tables 2 and 5). GF(p) only.

Both algorithms reduce ONE multiplicand P by radix-4 Montgomery steps,
T[i] = (T[i-1] + q[i]·n) / 4 ≡ P·4^-i (mod n), and feed every T[i] (i = g-t+1 … h+g) word by word
into two accumulators weighted by the radix-4 digits of R and of P, so one pass yields

    X ≡ P·R·4^-(h+g)  and  Y ≡ P·P·4^-(h+g)  (mod n).

Sizes for a k-bit odd modulus n: g = 1 + ceil(log2(k+1)) (paper), h = ceil(k/2), t = ceil(g/2),
operands are 2(h+t) bits (h+t radix-4 digits), m = ceil(2(h+t)/w) words of w bits. The paper
writes k = 2h and g = 2t; for odd k or odd g (e.g. k = 2048 gives g = 13) the digit counts round
up (h, t) while the iterations stay the paper's h + g: the first g - t iterations only reduce, so
for odd g the operands carry one spare bit and the pass is k/2 + g + m + 1 clocks as in Table 3.

Operand range: 0 <= P, R < 2^(2(h+t)) (the paper's "(k+g)-bit numbers"; far more than 2n) and
the outputs satisfy 0 <= X, Y < 2^(2(h+t)) without any final subtraction (Walter's bound), so they
feed the next multiplication directly; they are NOT reduced below n (or 2n).

Cycle model (both designs): word j of reduction iteration i runs in clock i + j (one clock between
the same word of consecutive iterations: the paper's point), the X/Y accumulation of T[i] word j
one clock later, plus one clock to load P and clear X, Y (steps 1–2). The last accumulation word
finishes in clock h+g+m, so a multiplication takes h + g + m + 1 clocks — the paper's Table 2
formula k/2 + g + m + 1 for EWBR4CMMM (exactly, when k is even).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from montu.arith.stats import Stats
from montu.errors import ModulusError

DEFAULT_WORD_BITS = 48  # the paper's DSP48E adder width
MIN_WORD_BITS = 4  # the early-word step reads bits 3..2 of a word


@dataclass(frozen=True)
class CmmmParameters:
    """The sizes of one radix-4 common-multiplicand multiplication (names as in the paper)."""

    k: int  # bit length of the modulus n
    g: int  # the paper's guard bits 1 + ceil(log2(k+1)) (may be odd)
    h: int  # ceil(k/2)
    t: int  # ceil(g/2)
    w: int  # word size in bits
    m: int  # number of words ceil(2(h+t)/w)

    @property
    def operand_bits(self) -> int:
        """Width 2(h+t) of P, R, X, Y and T (the paper's k + g)."""
        return 2 * (self.h + self.t)

    @property
    def digits(self) -> int:
        """Radix-4 digits h + t of P and R."""
        return self.h + self.t

    @property
    def iterations(self) -> int:
        """Reduction iterations h + g (the Montgomery factor is 4^(h+g)).

        The paper's k/2 + g: equal to h + 2t when g is even; when g is odd (k = 2048 gives
        g = 13) it is one iteration fewer than h + 2t, which is what Table 3's 1081 clocks count.
        """
        return self.h + self.g

    @property
    def pre_iterations(self) -> int:
        """Reduction-only iterations before the first accumulation: h + g - (h + t) = g - t."""
        return self.iterations - self.digits


def paper_guard_bits(k: int) -> int:
    """The paper's g = 1 + ceil(log2(k + 1)) for a k-bit modulus (exact integer arithmetic)."""
    return 1 + k.bit_length()


def check_modulus(n: int) -> None:
    """Raise ModulusError unless n is an odd integer >= 3 (Montgomery needs gcd(n, 2) = 1)."""
    if n % 2 == 0:
        raise ModulusError(
            "modulus must be odd for radix-4 common-multiplicand Montgomery multiplication "
            f"(got an even {n.bit_length()}-bit modulus)"
        )
    if n < 3:
        raise ModulusError(f"modulus must be an odd integer >= 3 (got {n})")


def cmmm_parameters(n: int, w: int = DEFAULT_WORD_BITS) -> CmmmParameters:
    """The paper's k, g, h, t, m for modulus n and word size w (validates both)."""
    check_modulus(n)
    if w < MIN_WORD_BITS:
        raise ValueError(f"word size w must be at least {MIN_WORD_BITS} bits (got {w})")
    k = n.bit_length()
    g = paper_guard_bits(k)
    h, t = (k + 1) // 2, (g + 1) // 2
    m = -(-2 * (h + t) // w)
    return CmmmParameters(k=k, g=g, h=h, t=t, w=w, m=m)


def montgomery_factor(n: int) -> int:
    """F = 4^(h+g): both multipliers return X ≡ P·R·F^-1 and Y ≡ P·P·F^-1 (mod n)."""
    return 4 ** cmmm_parameters(n).iterations


def operand_bound(n: int) -> int:
    """2^(2(h+t)): inputs P, R and outputs X, Y of both multipliers lie in [0, this)."""
    return 1 << cmmm_parameters(n).operand_bits


def paper_cycles_r4cmmm(k: int, w: int = DEFAULT_WORD_BITS) -> float:
    """Table 2, row [15] Radix 4: k/2 + k/w + g/2 clocks."""
    return k / 2 + k / w + paper_guard_bits(k) / 2


def paper_cycles_ewbr4cmmm(k: int, w: int = DEFAULT_WORD_BITS) -> float:
    """Table 2, EWBR4CMMM: k/2 + g + m + 1 clocks with the paper's m = ceil((k+g)/w)."""
    g = paper_guard_bits(k)
    return k / 2 + g + -(-(k + g) // w) + 1


def _check_operands(p: int, r: int, prm: CmmmParameters) -> None:
    bound = 1 << prm.operand_bits
    for name, value in (("P", p), ("R", r)):
        if not 0 <= value < bound:
            raise ValueError(
                f"operand {name} must satisfy 0 <= {name} < 2^{prm.operand_bits} "
                f"(2^(k+g) for a {prm.k}-bit modulus; got a {value.bit_length()}-bit "
                f"{'negative ' if value < 0 else ''}value)"
            )


def _to_words(x: int, w: int, m: int) -> list[int]:
    mask = (1 << w) - 1
    return [(x >> (w * j)) & mask for j in range(m)]


def _from_words(words: list[int], w: int) -> int:
    return sum(word << (w * j) for j, word in enumerate(words))


def _radix4_digits(x: int, count: int) -> list[int]:
    """x = sum(d_i · 4^i), d_i in {0, 1, 2, 3}, i < count."""
    return [(x >> (2 * i)) & 3 for i in range(count)]


def _quotient_digit(t_low: int, n_bit1: int) -> int:
    """Steps 4–5: q = -T·n^-1 mod 4 from bits T_1 T_0 and n_1 (the R4CMMM K-map).

    q_0 = T_0;  q_1 = ~n_1·~T_1·T_0 + T_1·(~T_0 + n_1).
    """
    t0, t1 = t_low & 1, (t_low >> 1) & 1
    q1 = ((1 - n_bit1) & (1 - t1) & t0) | (t1 & ((1 - t0) | n_bit1))
    return (q1 << 1) | t0


def _modulus_multiples(n: int, prm: CmmmParameters) -> tuple[list[int], ...]:
    """The words of 0, n, twn = 2n, thn = 3n that the 4:1 MUX selects by q (precomputed)."""
    return tuple(_to_words(q * n, prm.w, prm.m) for q in range(4))


def _addends(digit: int, t_word: int, twice_word: int) -> tuple[int, int]:
    """The 4:1 MUX of an accumulation PE: digit 0, 1, 2, 3 -> (0, 0), (0, T), (T, T), (T, 2T)."""
    if digit == 0:
        return 0, 0
    if digit == 1:
        return 0, t_word
    if digit == 2:
        return t_word, t_word
    return t_word, twice_word


def _accumulate_word(
    a: int, first: int, second: int, cx1: int, cx2: int, w: int
) -> tuple[int, int, int]:
    """One accumulation PE step: (word, cx1', cx2') with word + 2^w·(cx1' + cx2') =
    a + first + second + cx1 + cx2, by a carry-save adder then a w-bit adder.

    The carry-save adder gives a w-bit sum and a (w+1)-bit carry whose top bit is cx1'; the w-bit
    adder adds sum + (carry with cx1 in its empty bit 0) + cx2 and carries out cx2'.
    """
    mask = (1 << w) - 1
    partial_sum = a ^ first ^ second
    carry_vector = (a & first) | (a & second) | (first & second)
    total = partial_sum + (((carry_vector << 1) & mask) | cx1) + cx2
    return total & mask, carry_vector >> (w - 1), total >> w


def _accumulate_iteration(
    x_words: list[int], y_words: list[int], t_words: list[int], r_digit: int, p_digit: int, w: int
) -> tuple[list[int], list[int]]:
    """One accumulation iteration, word by word: X + r_digit·T and Y + p_digit·T.

    Steps 13–14 / 26–27. XPE_j and YPE_j both take word j of T and of 2T (T^j shifted left with
    the bit T^(j-1)_(w-1) passed from the neighbouring PE) and add their MUX-selected addends.
    The top word's carries are dropped (the Walter bound keeps X, Y < 2^(2(h+t)) <= 2^(m·w)).
    """
    mask = (1 << w) - 1
    new_x, new_y = [0] * len(x_words), [0] * len(y_words)
    cx1 = cx2 = cy1 = cy2 = msb_prev = 0
    for j, t_word in enumerate(t_words):
        twice_word = ((t_word << 1) & mask) | msb_prev
        msb_prev = t_word >> (w - 1)
        x_first, x_second = _addends(r_digit, t_word, twice_word)
        new_x[j], cx1, cx2 = _accumulate_word(x_words[j], x_first, x_second, cx1, cx2, w)
        y_first, y_second = _addends(p_digit, t_word, twice_word)
        new_y[j], cy1, cy2 = _accumulate_word(y_words[j], y_first, y_second, cy1, cy2, w)
    return new_x, new_y


@dataclass
class _Tally:
    """What one multiplication actually did: iterations, word steps and its last busy clock."""

    reduction_iterations: int = 0
    reduction_word_steps: int = 0
    accumulation_iterations: int = 0
    accumulation_word_steps: int = 0
    last_clock: int = 0

    def stats(self, words: int, paper: float) -> Stats:
        """Stats with cycles = 1 load clock (steps 1–2) + the last clock of the word pipeline."""
        return Stats(
            cycles=1 + self.last_clock,
            counts={
                "load_cycles": 1,
                "pipeline_cycles": self.last_clock,
                "words": words,
                "reduction_iterations": self.reduction_iterations,
                "reduction_word_steps": self.reduction_word_steps,
                "accumulation_iterations": self.accumulation_iterations,
                "accumulation_word_steps": self.accumulation_word_steps,
            },
            paper_cycles=paper,
        )


def r4cmmm(p: int, r: int, n: int, *, w: int = DEFAULT_WORD_BITS) -> tuple[tuple[int, int], Stats]:
    """Algorithm R4CMMM: ((X, Y), stats) with X ≡ P·R·4^-(h+g), Y ≡ P·P·4^-(h+g) (mod n).

    Feed-forward reduction: word j of T[i-1] is held as its low w-2 bits T^j plus two bits
    d[i-1]_(j+1) (the low bits of word j+1 of S[i-1], produced in the same clock by the next PE).
    Step 7 adds only the w-2 stored bits, step 9 adds the fed-forward bits at weight 2^(w-2):
        S = T[i-1]^j_(w-3..0) + q[i]·n^j + c_j;  d[i]_j = S_(1..0);
        c_(j+1)·2^w + U = S + d[i-1]_(j+1)·2^(w-2);  T[i]^j = U_(w-1..2).
    The top word's carry-out c_m is its fed-forward pair. Accumulation (steps 11–16) adds
    r_(h+g-i)·T[i] and p_(h+g-i)·T[i] for g-t+1 <= i <= h+g, T[i] word j = (d[i]_(j+1), T[i]^j).
    """
    prm = cmmm_parameters(n, w)
    _check_operands(p, r, prm)
    multiples, n_bit1 = _modulus_multiples(n, prm), (n >> 1) & 1
    field_mask, word_mask = (1 << (w - 2)) - 1, (1 << w) - 1
    p_words = _to_words(p, w, prm.m)
    stored = [word & field_mask for word in p_words]  # step 2: T = P, split
    fed = [word >> (w - 2) for word in p_words]  # fed[j] = d_(j+1): the top bits of word j
    r_digits, p_digits = _radix4_digits(r, prm.digits), _radix4_digits(p, prm.digits)
    x_words, y_words = [0] * prm.m, [0] * prm.m
    tally = _Tally()
    for i in range(1, prm.iterations + 1):
        pp = multiples[_quotient_digit(stored[0] & 3, n_bit1)]  # step 4
        carry = 0
        new_stored, new_fed = [0] * prm.m, [0] * prm.m
        for j in range(prm.m):  # word j in clock i + j
            s = stored[j] + pp[j] + carry  # step 7
            if j > 0:
                new_fed[j - 1] = s & 3  # step 8: d[i]_j belongs on top of word j-1
            u = s + (fed[j] << (w - 2))  # step 9
            carry, new_stored[j] = u >> w, (u & word_mask) >> 2
        new_fed[prm.m - 1] = carry
        stored, fed = new_stored, new_fed
        tally.reduction_iterations += 1
        tally.reduction_word_steps += len(new_stored)
        tally.last_clock = max(tally.last_clock, i + len(new_stored) - 1)
        if i >= prm.pre_iterations + 1:  # steps 11–16; word j waits for d[i]_(j+1): clock i + j + 1
            t_words = [low | (top << (w - 2)) for low, top in zip(stored, fed)]
            digit_index = prm.iterations - i
            x_words, y_words = _accumulate_iteration(
                x_words, y_words, t_words, r_digits[digit_index], p_digits[digit_index], w
            )
            tally.accumulation_iterations += 1
            tally.accumulation_word_steps += len(x_words) + len(y_words)
            tally.last_clock = max(tally.last_clock, i + len(x_words))
    result = (_from_words(x_words, w), _from_words(y_words, w))
    return result, tally.stats(prm.m, paper_cycles_r4cmmm(prm.k, w))


Trace = Callable[[int, list[int], list[int], list[int]], None]


def ewbr4cmmm(
    p: int, r: int, n: int, *, w: int = DEFAULT_WORD_BITS, trace: Trace | None = None
) -> tuple[tuple[int, int], Stats]:
    """Algorithm EWBR4CMMM: ((X, Y), stats) with X ≡ P·R·4^-(h+g), Y ≡ P·P·4^-(h+g) (mod n).

    Early-word reduction (steps 3–21), full w-bit words: PP = q·n^j from the precomputed n, 2n, 3n;
    c_(j+1), S[i]^j = T[i-1]^j + PP^j + c_j (step 16); the two bits that become the top of T[i]^j
    are computed early as d_j = S[i-1]^(j+1)_(3..2) + bt_j + c_(j+1) mod 4, where
    bt_j = PP^(j+1)_(1..0) (S[0]^(j+1)_(1..0) when i = 1), and T[i]^j = (d_j, S[i]^j_(w-1..2))
    (step 19). The accumulation
    (steps 24–29) runs one iteration behind: for i = g-t+2 … h+g+1 it adds r_(h+g-i+1)·T[i-1] to X
    and p_(h+g-i+1)·T[i-1] to Y.

    ``trace(i, t_words, x_words, y_words)``, when given, sees the state after each iteration
    i = 1 … h+g+1: the m words of T[i] (T[h+g] again for the last) and of X and Y so far — the
    unreduced intermediate values the hardware's PEs hold, for bit-exact comparisons.
    """
    prm = cmmm_parameters(n, w)
    _check_operands(p, r, prm)
    multiples, n_bit1 = _modulus_multiples(n, prm), (n >> 1) & 1
    word_mask, m = (1 << w) - 1, prm.m
    t_words = _to_words(p, w, m)  # step 2: T[0] = P, S[0] = P
    s_prev = list(t_words)
    r_digits, p_digits = _radix4_digits(r, prm.digits), _radix4_digits(p, prm.digits)
    x_words, y_words = [0] * m, [0] * m
    tally = _Tally()
    for i in range(1, prm.iterations + 2):
        if i <= prm.iterations:  # steps 3–21: T[i] from T[i-1]
            pp = multiples[_quotient_digit(t_words[0] & 3, n_bit1)]  # steps 4–5
            prev_shift = 0 if i == 1 else 2  # step 18 vs step 17
            carry = 0
            s_words, new_t = [0] * m, [0] * m
            for j in range(m):  # word j in clock i + j
                above = j + 1 < m
                bt = pp[j + 1] & 3 if above else 0  # steps 7–15
                total = t_words[j] + pp[j] + carry  # step 16
                carry, s_words[j] = total >> w, total & word_mask
                prev_bits = (s_prev[j + 1] >> prev_shift) & 3 if above else 0
                d = (prev_bits + bt + carry) & 3  # step 17
                new_t[j] = (d << (w - 2)) | (s_words[j] >> 2)  # step 19
            tally.reduction_iterations += 1
            tally.reduction_word_steps += len(new_t)
            tally.last_clock = max(tally.last_clock, i + len(new_t) - 1)
        if i >= prm.pre_iterations + 2:  # steps 24–29 on T[i-1], word j beside reduction word j: clock i + j
            digit_index = prm.iterations - i + 1
            x_words, y_words = _accumulate_iteration(
                x_words, y_words, t_words, r_digits[digit_index], p_digits[digit_index], w
            )
            tally.accumulation_iterations += 1
            tally.accumulation_word_steps += len(x_words) + len(y_words)
            tally.last_clock = max(tally.last_clock, i + len(x_words) - 1)
        if i <= prm.iterations:
            t_words, s_prev = new_t, s_words
        if trace is not None:
            trace(i, list(t_words), list(x_words), list(y_words))
    result = (_from_words(x_words, w), _from_words(y_words, w))
    return result, tally.stats(m, paper_cycles_ewbr4cmmm(prm.k, w))
