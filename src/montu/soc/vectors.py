"""Host <-> firmware data: numbers as C arrays of little-endian 64-bit words, and back."""

from __future__ import annotations

from collections.abc import Sequence


def words_of(value: int, words: int) -> list[int]:
    if value < 0 or value >> (64 * words):
        raise ValueError(f"value does not fit {words} 64-bit words")
    return [(value >> (64 * i)) & (2**64 - 1) for i in range(words)]


def c_array(name: str, value: int, words: int) -> str:
    """`static const uint64_t name[words] = {...};` holding value, least significant word first."""
    body = ", ".join(f"0x{w:016x}ull" for w in words_of(value, words))
    return f"static const uint64_t {name}[{words}] = {{{body}}};\n"


def c_table(name: str, values: Sequence[int], words: int) -> str:
    """`static const uint64_t name[len][words]`: one number per row."""
    rows = ",\n  ".join("{" + ", ".join(f"0x{w:016x}ull" for w in words_of(v, words)) + "}" for v in values)
    return f"static const uint64_t {name}[{len(values)}][{words}] = {{\n  {rows}\n}};\n"


def parse_words(text: str) -> int:
    """A number the firmware printed as hex words, most significant first, separated by spaces
    (the firmware library's print format: montu_soc_print_number)."""
    value = 0
    for token in text.split():
        value = (value << 64) | int(token, 16)
    return value
