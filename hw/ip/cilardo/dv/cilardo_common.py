"""Shared pieces of the cilardo benches: the golden model's row semantics, digit decoding and a
model of the memories around the engine (run by tests/hw/test_cilardo_cocotb.py)."""

from __future__ import annotations

import random

from montu.arith.cilardo_fios import _digits_value, _recoded_row
from montu.arith.cilardo_recoding import _digit_from_signals, fsel_of
from montu.arith.field import Field


def rows_any_modulus(a: int, b: int, n: int, field: Field, words: int, word_bits: int = 64
                     ) -> list[tuple[int, int, int]]:
    """fios_rows(a, b, n, field=..., words=...) without its modulus check, for N = 1 (which
    fios_rows refuses but the unit can hold): (b_word, q_word, p) per row, the same
    _recoded_row the golden model runs."""
    fsel = fsel_of(field)
    mask = (1 << word_bits) - 1
    a_words = [(a >> (word_bits * i)) & mask for i in range(words)]
    n_words = [(n >> (word_bits * i)) & mask for i in range(words)]
    p = [0] * words
    out = []
    for j in range(words):
        bv, qv = _recoded_row(p, a_words, n_words, b, j, word_bits, fsel)
        out.append((bv, qv, sum(w << (word_bits * i) for i, w in enumerate(p))))
    return out


def startmmi_semantics(a: int, b: int, n: int, W: int, gf2m_mode: bool, word_bits: int = 64
                       ) -> tuple[int, int]:
    """(rd, P) of STARTMMI on the cilardo engine: P = the last FIOS row (signed), rd =
    fios_correct(P, N) mod 2^(64W) in GF(p), P in GF(2^m)."""
    field = Field.GF2M if gf2m_mode else Field.GFP
    p = rows_any_modulus(a, b, n, field, W, word_bits)[-1][2]
    if gf2m_mode:
        return p, p
    if p < 0:
        r = p + n
    elif p >= n:
        r = p - n
    else:
        r = p
    return r % (1 << (word_bits * W)), p


def digits_of(packed: int, count: int) -> list[tuple[int, int, int]]:
    """(inv, trp, shl) of digit_t [count-1:0] packed (digit t at bits 3t+2 .. 3t)."""
    out = []
    for t in range(count):
        d = (packed >> (3 * t)) & 7
        out.append(((d >> 2) & 1, (d >> 1) & 1, d & 1))
    return out


def digits_value(triples: list[tuple[int, int, int]], fsel: int) -> int:
    """The value the digits stand for, Σ digit_t·4^t (⊕ in GF(2^n)), as the golden model sums."""
    return _digits_value([_digit_from_signals(i, t, s, fsel) for i, t, s in triples], fsel)


def signed(value: int, bits: int) -> int:
    return value - (1 << bits) if value >> (bits - 1) & 1 else value


class Memories:
    """Read ports with one clock of latency (the word at the address of the clock before in
    which re was high; held while re is low), words beyond the operands are random junk."""

    def __init__(self, rng: random.Random, word_bits: int, depth: int) -> None:
        self.rng = rng
        self.word_bits = word_bits
        self.depth = depth
        self.regs: dict[str, list[int]] = {}
        self.t = [rng.getrandbits(word_bits) for _ in range(depth)]

    def load(self, name: str, value: int, words: int) -> None:
        mask = (1 << self.word_bits) - 1
        self.regs[name] = [(value >> (self.word_bits * i)) & mask for i in range(words)]
        self.regs[name] += [self.rng.getrandbits(self.word_bits) for _ in range(64)]

    def read(self, name: str, idx: int) -> int:
        words = self.regs[name]
        return words[idx] if idx < len(words) else self.rng.getrandbits(self.word_bits)
