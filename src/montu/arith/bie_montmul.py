"""Bie et al. 2021, Alg. 1 and Alg. 2: word-serial high-radix Montgomery multiplication with
semi-carry storage on two multiply-accumulate ways ("a" and "b"), for GF(p) and GF(2^m).

One outer iteration i computes Z <- (Z + x_i·Y + t_i·N) / 2^r word by word: way a adds
x_i·y_j into z_j, way b adds t_i·n_j to the new z_j and writes it one word lower (the division
by 2^r). Each way hands its carry to the next word as the three parts the paper names: cs1 and
cs2, the upper halves of the partial-product adder's sum and carry vectors, and ec, the carry out
of the r-bit carry-propagate adder (semi-carry storage, Miyamoto et al. 2011). In GF(2^m) the
adders' carries are killed, so cs2 = ec = 0 and cs1 is the upper half of a carry-less product.

Helpers here take validated operands; montu.arith.bie checks the inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

from montu.arith.field import Field
from montu.arith.gf2m import clmul

# Operands up to this many bits live in the unit's 576-bit shift registers (paper §4.2); wider
# ones stream from SRAM, which costs one prefetch cycle per pass over the words (§4.3).
REGISTER_BITS = 576
# Pipeline depth of one MAC way (partial-product stage, then carry-propagate stage).
MAC_LATENCY = 2


@dataclass(frozen=True)
class SemiCarry:
    """The carry one MAC way passes to its next word, kept in the paper's three parts.

    GF(p): it stands for the integer cs1 + cs2 + ec (cs1, cs2 < 2^r, ec in {0, 1}).
    GF(2^m): it stands for the polynomial cs1 (cs2 = ec = 0).
    """

    cs1: int = 0
    cs2: int = 0
    ec: int = 0

    def value(self, field: Field) -> int:
        """cs1 ⊕ cs2 ⊕ ec: their sum in GF(p), their XOR in GF(2^m)."""
        if field == Field.GFP:
            return self.cs1 + self.cs2 + self.ec
        return self.cs1 ^ self.cs2 ^ self.ec


NO_CARRY = SemiCarry()


def carry_save_add(a: int, b: int, c: int) -> tuple[int, int]:
    """One 3:2 compressor row: (sum, carry) with sum + carry = a + b + c."""
    return a ^ b ^ c, ((a & b) | (a & c) | (b & c)) << 1


def mac_way(z: int, a: int, b: int, carry: SemiCarry, field: Field,
            r: int) -> tuple[SemiCarry, int]:
    """One step of a MAC way: (cs1 ⊕ cs2 ⊕ ec, z') = z ⊕ a ⊗ b ⊕ cs1 ⊕ cs2 ⊕ ec.

    GF(p): the partial-product adder reduces the rows a·b, z, cs1, cs2 to a sum and a carry
    vector (modelled as two 3:2 compressor levels); the r-bit CPA adds their low halves with ec
    as carry-in, giving z' and the new ec; the high halves go on unchanged as the new cs1, cs2.
    GF(2^m): a ⊗ b is carry-less, every carry is killed; z' is the low word, cs1 the high one.
    """
    mask = (1 << r) - 1
    if field == Field.GFP:
        sum1, carry1 = carry_save_add(a * b, z, carry.cs1)
        sum_vec, carry_vec = carry_save_add(sum1, carry1, carry.cs2)
        low = (sum_vec & mask) + (carry_vec & mask) + carry.ec
        out = SemiCarry(sum_vec >> r, carry_vec >> r, low >> r)
        # The register widths the semi-carry scheme relies on: every part fits its r-bit word.
        assert out.cs1 <= mask and out.cs2 <= mask and out.ec <= 1
        return out, low & mask
    total = clmul(a, b) ^ z ^ carry.cs1
    return SemiCarry(total >> r), total & mask


def to_words(value: int, count: int, r: int) -> list[int]:
    """The r-bit words of value, least significant first."""
    mask = (1 << r) - 1
    return [(value >> (r * j)) & mask for j in range(count)]


def from_words(words: list[int], r: int) -> int:
    """The integer (or polynomial) whose r-bit words are words, least significant first."""
    return sum(word << (r * j) for j, word in enumerate(words))


def montgomery_word_constant(n0: int, field: Field, r: int) -> int:
    """w = −n0^−1 mod 2^r (GF(p)) or n0^−1 mod x^r (GF(2^m)), by Newton's iteration.

    GF(p): w <- w·(2 − n0·w) doubles the correct low bits (n0·n0 ≡ 1 mod 8 at first).
    GF(2^m): w <- n0·w² mod x^2t does the same in characteristic 2 (w = 1 is right mod x).
    """
    mask = (1 << r) - 1
    if field == Field.GFP:
        w, good_bits = n0 & mask, 3
        while good_bits < r:
            w = (w * (2 - n0 * w)) & mask
            good_bits *= 2
        return (-w) & mask
    w, good_bits = 1, 1
    while good_bits < r:
        w = clmul(n0, clmul(w, w)) & mask
        good_bits *= 2
    return w


@dataclass(frozen=True)
class MontgomeryRun:
    """What the word loop of Alg. 1/2 produced before the final subtraction."""

    z_words: list[int]
    v: int
    mac_ops: int
    inner_steps: int
    extra_modulus_word: bool


def montgomery_word_loop(x: int, y: int, n: int, field: Field, r: int, m: int) -> MontgomeryRun:
    """Lines 3–13 of Alg. 2 (lines 3–12 of Alg. 1): Z = x·y·2^(−rm) (mod n), Z < 2n (GF(p)).

    The paper's N has m words. In GF(2^m) a modulus of degree exactly r·m has one more word,
    n_m = 1 (the term x^rm); way b then takes one more step, folded into line 12.
    """
    x_words, y_words = to_words(x, m, r), to_words(y, m, r)
    n_word_count = m + 1 if n >> (r * m) else m
    n_words = to_words(n, n_word_count, r)
    w = montgomery_word_constant(n_words[0], field, r)
    mask = (1 << r) - 1
    z = [0] * m
    v = 0
    mac_ops = inner_steps = 0
    for i in range(m):
        carry_a, z[0] = mac_way(z[0], x_words[i], y_words[0], NO_CARRY, field, r)  # line 5
        t_i = _word_product(z[0], w, field) & mask  # line 6
        carry_b, low_word = mac_way(z[0], t_i, n_words[0], NO_CARRY, field, r)  # line 7
        assert low_word == 0, "t_i must clear the lowest word"
        mac_ops += 3
        for j in range(1, m):
            carry_a, z[j] = mac_way(z[j], x_words[i], y_words[j], carry_a, field, r)  # line 9
            carry_b, z[j - 1] = mac_way(z[j], t_i, n_words[j], carry_b, field, r)  # line 10
            mac_ops += 2
            inner_steps += 1
        v, z[m - 1] = _top_word(carry_a, carry_b, v, t_i, n_words, field, r, m)  # line 12
        if n_word_count > m:
            mac_ops += 1
    return MontgomeryRun(z, v, mac_ops, inner_steps, n_word_count > m)


def _word_product(a: int, b: int, field: Field) -> int:
    return a * b if field == Field.GFP else clmul(a, b)


def _top_word(carry_a: SemiCarry, carry_b: SemiCarry, v: int, t_i: int, n_words: list[int],
              field: Field, r: int, m: int) -> tuple[int, int]:
    """Line 12: (v, z_{m−1}) = cs1_a ⊕ cs2_a ⊕ ec_a ⊕ cs1_b ⊕ cs2_b ⊕ ec_b ⊕ v."""
    mask = (1 << r) - 1
    if field == Field.GFP:
        total = carry_a.value(field) + carry_b.value(field) + v
        assert total >> r <= 1, "v is a single bit"
        return total >> r, total & mask
    top = carry_a.value(field) ^ v
    if len(n_words) > m:  # way b's extra step for the x^(rm) term of the modulus
        carry_b, z_top = mac_way(top, t_i, n_words[m], carry_b, field, r)
        return carry_b.value(field), z_top
    total = top ^ carry_b.value(field)
    return total >> r, total & mask


def final_subtraction(z_words: list[int], v: int, n: int, r: int) -> tuple[list[int], bool]:
    """Lines 13–15 of Alg. 1 (14–16 of Alg. 2) read as "if Z ≥ N then Z = Z − N".

    Word-serial: D = Z − N with a borrow chain over the m words and v; the unit keeps D when
    the subtraction is not negative (Z ≥ N), else outputs Z unchanged (§4.3).
    """
    mask = (1 << r) - 1
    n_words = to_words(n, len(z_words), r)
    difference, borrow = [], 0
    for z_j, n_j in zip(z_words, n_words):
        d = z_j - n_j - borrow
        difference.append(d & mask)
        borrow = 1 if d < 0 else 0
    if v - borrow < 0:  # negative: Z < N
        return z_words, False
    return difference, True


def mont_mul_cycles(words: int, field: Field, r: int,
                    extra_modulus_word: bool = False) -> dict[str, int]:
    """Cycle model of the paper's two-way MAC unit for one Montgomery product of `words` words.

    start 1 + per outer iteration (words + 2·MAC_LATENCY + 1 [+1 SRAM prefetch]) + GF(p) final
    subtraction (words + MAC_LATENCY). See docs/algorithms.md for each term.
    """
    sram = words * r > REGISTER_BITS
    issue = 3 + (words - 1) + 1 + (1 if extra_modulus_word else 0)  # lines 5, 6, 7; 9‖10; 12
    stalls = 2 * (MAC_LATENCY - 1)  # line 6 waits for z_0 of line 5, line 7 for t_i of line 6
    prefetch = 1 if sram else 0
    subtraction = words + MAC_LATENCY if field == Field.GFP else 0
    cycles = 1 + words * (issue + stalls + prefetch) + subtraction
    return {"cycles": cycles, "stall_cycles": words * stalls, "prefetch_cycles": words * prefetch,
            "subtraction_cycles": subtraction}
