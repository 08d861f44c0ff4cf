"""Cilardo & Mazzocca 2008, Alg. 2 (FIOS) on the w-bit dual-field word multiplier, Fig. 9 timing.

Each row j of Alg. 2 multiplies every word A_i by the multiplier word B_j and every modulus word
N_i by the quotient word Q_j. The paper's word unit does this with radix-4 recoded digits: the w/2
Booth digits of B_j drive the PPGs, and on the row's first word (``first_word`` = 1) the MMGs
generate the w/2 Montgomery digits of Q_j from the running sum, which the later words of the row
reuse. Signed digits make Q_j, the carries and the top word of P signed (two's complement).

Timing (Fig. 8/9): a w-bit word passes eight pipeline stages, one word enters per clock, and a
row needs m + 1 issue slots (the m words, then the carry that Alg. 2 step 9 writes to P_{m-1}).
Row j+1 may feed word i only when row j has written P_i, eight clocks after its word i+1 entered.
"""

from __future__ import annotations

from dataclasses import dataclass

from montu.arith.cilardo_recoding import (
    INTEGER_MODE,
    Digit,
    add,
    booth_digits,
    fsel_of,
    montgomery_digit,
    recoded_multiple,
    require_montgomery_modulus,
    require_operand,
)
from montu.arith import gf2m
from montu.arith.field import Field
from montu.arith.stats import Stats

PIPELINE_STAGES = 8  # Fig. 8: four right (16x16) and four left (48x16) modules
PAPER_WORD_BITS = 64
# Section 6 table, "This work", GF(N) clock counts with w = 64, keyed by field size in bits.
PAPER_GFN_CLOCKS: dict[int, int] = {192: 27, 224: 36, 256: 36, 284: 45, 521: 90}


@dataclass(frozen=True)
class FiosRow:
    """One row j of Alg. 2: B_j·A + Q_j·N added to P, then P divided by 2^w (x^w).

    ``b_word`` and ``q_word`` are the values the row's digits stand for: the signed sums
    Σ_t digit_t·4^t when recoded (polynomials Σ_t digit_t·x^{2t} in GF(2^n)), else B_j and Q_j.
    ``p`` is P after the row, its words joined (the top word may be negative in GF(N)).
    """

    b_word: int
    q_word: int
    p: int


@dataclass(frozen=True)
class PipelineSchedule:
    """Fig. 9 schedule of one multiplication on the pipelined word unit.

    ``cycles``: clocks until the unit can take the next row, i.e. rows × row period; this is
    what the paper's table counts. ``stall_cycles``: clocks in it that feed no slot (the
    end-of-row waits, the last row's included). ``last_word_out``: clock in which the last slot
    leaves the final stage.
    """

    cycles: int
    issue_slots: int
    stall_cycles: int
    last_word_out: int


def fios_word_count(n: int, *, field: Field, word_bits: int = PAPER_WORD_BITS,
                    guard: bool = True) -> int:
    """m, the number of w-bit words.

    guard=True (Alg. 2's mode): GF(N) needs 2^{m·w} > 4N (m·w ≥ 2 + ⌈log2 N⌉), so that inputs
    and outputs below 2N close; GF(2^n) needs m·w ≥ deg N + 1 so that operands of degree
    ≤ deg N fit. guard=False (the paper's table, §6): m = ⌈bits/w⌉, no guard bits; the result
    then needs a final correction (``fios_rows(words=...)``)."""
    _check_word_bits(word_bits)
    guard_bits = 2 if guard and Field(field) == Field.GFP else 0
    return -(-(n.bit_length() + guard_bits) // word_bits)


def fios_r_exponent(n: int, *, field: Field, word_bits: int = PAPER_WORD_BITS) -> int:
    """e with R = 2^e (GF(N)) or R = x^e (GF(2^n)) for Alg. 2: e = m·w."""
    return fios_word_count(n, field=field, word_bits=word_bits) * word_bits


def pipeline_schedule(words: int, stages: int = PIPELINE_STAGES) -> PipelineSchedule:
    """Issue every slot of an m-word FIOS product as early as Fig. 9's dependences allow.

    One slot enters per clock. Row j has slots i = 0..m-1 (words) and i = m (the carry).
    Slot i of row j+1 reads P_i, written by slot i+1 of row j, usable ``stages`` clocks after
    that slot entered. A row with m + 1 < stages + 1 slots therefore stalls (the paper: "only if
    m is less than 8").
    """
    if words < 1 or stages < 1:
        raise ValueError("a schedule needs at least one word and one pipeline stage")
    issue: list[list[int]] = []
    next_free = 1
    for row in range(words):
        row_issue = []
        for slot in range(words + 1):
            ready = next_free
            if row > 0 and slot < words:
                ready = max(ready, issue[row - 1][slot + 1] + stages)
            row_issue.append(ready)
            next_free = ready + 1
        issue.append(row_issue)
    cycles = max(next_free, issue[-1][1] + stages) - 1
    slots = words * (words + 1)
    return PipelineSchedule(cycles=cycles, issue_slots=slots, stall_cycles=cycles - slots,
                            last_word_out=issue[-1][-1] + stages - 1)


def _check_word_bits(word_bits: int) -> None:
    if word_bits < 2 or word_bits % 2:
        raise ValueError(f"word size must be a positive even number of bits "
                         f"(radix-4 digits), got {word_bits}")


def _word_sum(p_word: int, carry: int, a_word: int, n_word: int, b_digits: list[Digit],
              q_digits: list[Digit] | None, fsel: int, q_count: int) -> tuple[int, list[Digit]]:
    """The word unit: S = P_i + C + Σ_t (AA_t + NN_t)·4^t over the row's w/2 digit positions.

    With ``q_digits`` None (first word of a row) the MMG at position t reads bits 2t+1, 2t of
    the running sum, which already holds AA_t, and generates the quotient digit that clears them.
    """
    n1 = (n_word >> 1) & 1
    total = add(p_word, carry, fsel)
    generated: list[Digit] = []
    for t, b_digit in enumerate(b_digits):
        total = add(total, recoded_multiple(a_word, b_digit, fsel) << (2 * t), fsel)
        if t == q_count:
            break  # the last row's extra PPG digit: no modulus multiple at its position
        if q_digits is None:
            sp = ((total >> (2 * t + 1)) & 1, (total >> (2 * t)) & 1, n1)
            q_digit = montgomery_digit(sp, fsel)
            generated.append(q_digit)
        else:
            q_digit = q_digits[t]
        total = add(total, recoded_multiple(n_word, q_digit, fsel) << (2 * t), fsel)
    return total, generated if q_digits is None else q_digits


def _digits_value(digits: list[Digit], fsel: int) -> int:
    value = 0
    for t, digit in enumerate(digits):
        value = add(value, digit.value << (2 * t), fsel)
    return value


def _join_words(words: list[int], word_bits: int) -> int:
    return sum(word << (word_bits * i) for i, word in enumerate(words))


def _recoded_row(p: list[int], a_words: list[int], n_words: list[int], b: int, row: int,
                 word_bits: int, fsel: int) -> tuple[int, int]:
    """One row of Alg. 2 on the recoded word unit; updates p in place, returns (B̃_j, Q̃_j).

    The last row also drives the word unit's (⌊w/2⌋+1)-th PPG, whose digit reads
    (0, 0, b_{m·w-1}): the Booth digits of the m words stand for B − b_{m·w-1}·2^{m·w}, and this
    digit (0 or 1, weight 2^w in the row) adds the missing b_{m·w-1}·2^{m·w}, so B is unsigned
    even when its top bit is set (the paper's mode, no guard bits). In GF(2^n) the digit is 0.
    """
    half = word_bits // 2
    mask = (1 << word_bits) - 1
    last = row == len(a_words) - 1
    b_digits = booth_digits(b, row * half, half + (1 if last else 0), fsel)
    total, q_digits = _word_sum(p[0], 0, a_words[0], n_words[0], b_digits, None, fsel, half)
    if total & mask:
        raise AssertionError("the MMG digits failed to clear the first word")  # pragma: no cover
    carry = total >> word_bits
    for i in range(1, len(a_words)):
        total, _ = _word_sum(p[i], carry, a_words[i], n_words[i], b_digits, q_digits, fsel,
                            half)
        p[i - 1] = total & mask
        carry = total >> word_bits
    p[-1] = carry
    return _digits_value(b_digits, fsel), _digits_value(q_digits, fsel)


def _plain_row(p: list[int], a_words: list[int], n_words: list[int], b_word: int,
               n_tilde0: int, word_bits: int, fsel: int) -> int:
    """One row of Alg. 2 exactly as printed (no recoding); updates p in place, returns Q_j."""
    mask = (1 << word_bits) - 1
    times = (lambda x, y: x * y) if fsel == INTEGER_MODE else gf2m.clmul
    q_word = times(add(p[0], times(b_word, a_words[0]), fsel), n_tilde0) & mask
    carry = 0
    for i, (a_word, n_word) in enumerate(zip(a_words, n_words)):
        total = add(add(add(p[i], times(b_word, a_word), fsel), times(q_word, n_word), fsel),
                    carry, fsel)
        if i != 0:
            p[i - 1] = total & mask
        carry = total >> word_bits
    p[-1] = carry
    return q_word


def _n_tilde0(n: int, word_bits: int, fsel: int) -> int:
    """Ñ_0 = −N^{-1} mod 2^w (GF(N)) or N^{-1} mod x^w (GF(2^n), where −1 = 1)."""
    if fsel == INTEGER_MODE:
        return -pow(n, -1, 1 << word_bits) % (1 << word_bits)
    return gf2m.inv(n, 1 << word_bits)


def fios_rows(a: int, b: int, n: int, *, field: Field, word_bits: int = PAPER_WORD_BITS,
              recoded: bool = True, words: int | None = None) -> list[FiosRow]:
    """Run Alg. 2 row by row; the last row's P ≡ a·b·R^{-1} (R = 2^{m·w} or x^{m·w}).

    recoded=True: the paper's word unit (Booth digits of B_j, MMG-generated digits of Q_j).
    recoded=False: Alg. 2 as printed, Q_j = (P_0 + B_j·A_0)·Ñ_0 mod 2^w.
    words=None: m = fios_word_count(n) (Alg. 2's mode) and operands in the algorithm's domain
    (below 2N; degree ≤ deg N). words=m: any m with N < 2^{m·w} (the paper's mode is
    m = ⌈bits/w⌉), and any operands of m words; P then lies in (−N/3, 2^{m·w} + 2N/3) in GF(N)
    (in (−N/3, 5N/3) for operands below N) and needs a final correction.
    """
    require_montgomery_modulus(n, field)
    _check_word_bits(word_bits)
    fsel = fsel_of(field)
    if words is None:
        require_operand(a, n, field, "a")
        require_operand(b, n, field, "b")
        words = fios_word_count(n, field=field, word_bits=word_bits)
    else:
        _require_words(words, n, word_bits)
        for name, x in (("a", a), ("b", b)):
            if not 0 <= x < 1 << (words * word_bits):
                raise ValueError(f"operand {name} must be a non-negative value of at most "
                                 f"{words} words of {word_bits} bits")
    mask = (1 << word_bits) - 1
    a_words = [(a >> (word_bits * i)) & mask for i in range(words)]
    n_words = [(n >> (word_bits * i)) & mask for i in range(words)]
    p = [0] * words
    n_tilde0 = _n_tilde0(n, word_bits, fsel)
    rows = []
    for j in range(words):
        if recoded:
            b_value, q_value = _recoded_row(p, a_words, n_words, b, j, word_bits, fsel)
        else:
            b_value = (b >> (word_bits * j)) & mask
            q_value = _plain_row(p, a_words, n_words, b_value, n_tilde0, word_bits, fsel)
        rows.append(FiosRow(b_word=b_value, q_word=q_value, p=_join_words(p, word_bits)))
    return rows


def _require_words(words: int, n: int, word_bits: int) -> None:
    if not isinstance(words, int) or words < 1 or n.bit_length() > words * word_bits:
        raise ValueError(f"{words!r} words of {word_bits} bits cannot hold a "
                         f"{n.bit_length()}-bit modulus")


def fios_correct(p: int, n: int, *, field: Field) -> int:
    """A final correction of a recoded FIOS result: P + N if P < 0, P − N if P ≥ N (GF(N));
    P unchanged in GF(2^n). Brings P in (−N, 2N) into [0, N)."""
    if Field(field) != Field.GFP:
        return p
    if p < 0:
        return p + n
    return p - n if p >= n else p


def mont_mul_fios(a: int, b: int, n: int, *, field: Field, word_bits: int = PAPER_WORD_BITS,
                  recoded: bool = True, words: int | None = None) -> tuple[int, Stats]:
    """Alg. 2 on the pipelined dual-field unit: z ≡ a·b·R^{-1} with R = 2^{m·w} (GF(N),
    0 ≤ z < 2N) or R = x^{m·w} (GF(2^n), deg z < deg N); m = fios_word_count(n, ...).

    Signed recoded quotients can leave P in (−N/3, 0); the model then adds N once (counted as
    ``negative_fixups``), a step the paper leaves open ("the output ... may now be negative").
    Stats.cycles is the Fig. 9 schedule's clock count for 8 stages.
    """
    rows = fios_rows(a, b, n, field=field, word_bits=word_bits, recoded=recoded, words=words)
    result = rows[-1].p
    fixups = 0
    if result < 0:
        result += n
        fixups = 1
    words = len(rows)
    schedule = pipeline_schedule(words)
    paper = None
    if Field(field) == Field.GFP and word_bits == PAPER_WORD_BITS:
        paper = PAPER_GFN_CLOCKS.get(n.bit_length())
    counts = {"words": words, "rows": words, "word_products": words * words,
              "issue_slots": schedule.issue_slots, "stall_cycles": schedule.stall_cycles,
              "last_word_out": schedule.last_word_out, "negative_fixups": fixups}
    return result, Stats(cycles=schedule.cycles, counts=counts, paper_cycles=paper)


def fios_product(a: int, b: int, n: int, *, field: Field, words: int,
                 word_bits: int = PAPER_WORD_BITS, n_inverse: int | None = None) -> int:
    """The last row's P of ``fios_rows(a, b, n, field=field, word_bits=word_bits, words=words)``
    (recoded) in a few whole-integer operations instead of m·(m+1) word-unit passes.

    Why it is the same number (L = m·w, h = w/2 digits per row):

    * The rows' Booth digits together are one radix-4 Booth recoding of B (row j reads digits
      j·h .. j·h+h−1, borrowing b_{j·w−1}; the last row's extra digit (0, 0, b_{L−1}) adds
      b_{L−1}·2^L), so Σ_j B̃_j·2^{j·w} = B exactly: row j's B̃_j is word B_j read as a signed
      w-bit number plus b_{j·w−1} (the last row: B_j unsigned plus b_{j·w−1}).
    * Every row's MMG digits lie in {−1, 0, 1, 2} (GF(N)), and together they form one radix-4
      representation Q̃ = Σ_j Q̃_j·2^{j·w} of L/2 such digits. Those digits are a complete
      residue system mod 4, so Q̃ is the only such value in its class mod 2^L: the interval
      [−C, 2C], C = (2^L − 1)/3, holds exactly one of each class. Since every row clears its low
      word, A·B + Q̃·N ≡ 0 (mod 2^L): Q̃ ≡ −A·B·N^{-1}, i.e. Q̃ = ((Q + C) mod 2^L) − C with
      Q = −A·B·N^{-1} mod 2^L.
    * The word unit's carries are exact (signed, floor), so P = (A·B + Q̃·N) / 2^L, exactly.

    GF(2^n): the digits are plain radix-4 polynomial digits, so Q = A·B·N^{-1} mod x^L and
    P = (A·B ⊕ Q·N) / x^L (carry-less), the usual Montgomery product, unreduced.

    The range matches fios_rows: GF(N) P ∈ [−C·N/2^L, A·B/2^L + 2C·N/2^L], i.e. (−N/3, 2^L + 2N/3)
    for any m-word operands; ``fios_correct`` brings it into [0, N) when P ∈ (−N, 2N).

    Unlike fios_rows this takes any odd N ≥ 1 (the unit can hold N = 1; fios_rows refuses
    N ≤ 2 because Alg. 3 does). N = 1 is not a special case: Q̃ ∈ [−C, 2C] with
    Q̃ ≡ −A·B (mod 2^L), so P = (A·B + Q̃)/2^L, which is ⌊A·B/2^L⌋ or that plus 1 (a carry from the
    low half), and fios_correct then leaves P − 1 for P ≥ 1 — not a residue mod 1 (0) but what
    the hardware computes. In GF(2^n) N = 1 gives P = A·B / x^L (the high half of the product).

    `n_inverse`: N^{-1} mod 2^L (GF(N)) or mod x^L (GF(2^n)) when the caller keeps it (the
    simulator does, per modulus); computed here otherwise.
    """
    _check_word_bits(word_bits)
    fsel = fsel_of(field)
    if not isinstance(words, int) or words < 1:
        raise ValueError(f"a FIOS product needs at least one word (got words={words!r})")
    length = words * word_bits
    if not 0 < n < 1 << length or n % 2 == 0:
        what = "an odd modulus" if fsel == INTEGER_MODE else "a polynomial with constant term 1"
        raise ValueError(f"the modulus must be {what} of at most {words} words of {word_bits} "
                         f"bits (got a {n.bit_length()}-bit {'even ' if n % 2 == 0 else ''}value)")
    for name, x in (("a", a), ("b", b)):
        if not 0 <= x < 1 << length:
            raise ValueError(f"operand {name} must be a non-negative value of at most "
                             f"{words} words of {word_bits} bits")
    mask = (1 << length) - 1
    if fsel == INTEGER_MODE:
        if n_inverse is None:
            n_inverse = pow(n, -1, 1 << length)
        third = mask // 3                                    # C = (2^L − 1)/3: L is even
        ab = a * b
        q = (-ab * n_inverse) & mask
        q_signed = ((q + third) & mask) - third             # digits in {−1, 0, 1, 2}
        return (ab + q_signed * n) >> length
    if n_inverse is None:
        n_inverse = gf2m.inv(n, 1 << length)
    ab = gf2m.clmul(a, b)
    q = gf2m.clmul(ab & mask, n_inverse) & mask
    return (ab ^ gf2m.clmul(q, n)) >> length
