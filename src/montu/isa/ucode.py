"""The antao engine's microinstruction format (antao_ucode.yaml): fields, encodings, words.

The assembler (montu.engines.antao.assembler) encodes with it, the simulator decodes with it, and
the generator writes hw/ip/antao/rtl/antao_ucode_pkg.sv and the docs from it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

import yaml

UCODE_TABLE = "antao_ucode.yaml"


@dataclass(frozen=True)
class Field:
    """One field of the microinstruction: bits [lsb + bits - 1 : lsb], and its named values."""

    name: str
    lsb: int
    bits: int
    doc: str
    values: tuple[tuple[str, int], ...] = ()

    @property
    def msb(self) -> int:
        return self.lsb + self.bits - 1

    @property
    def value_of(self) -> dict[str, int]:
        return dict(self.values)

    @property
    def name_of(self) -> dict[int, str]:
        return {v: k for k, v in self.values}

    def legal(self, value: int) -> bool:
        """A value this field may hold (reserved encodings are not legal)."""
        return 0 <= value < (1 << self.bits) and (not self.values or value in self.name_of)


@dataclass(frozen=True)
class MicroFormat:
    width: int
    part_bits: int
    fields: tuple[Field, ...]

    @functools.cached_property
    def by_name(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}

    @property
    def parts(self) -> int:
        """Data words per microinstruction over the shell."""
        return -(-self.width // self.part_bits)

    def encode(self, values: Mapping[str, int | str]) -> int:
        """A microinstruction word from field values (names of encodings or integers); unnamed
        fields are 0."""
        word = 0
        for name, value in values.items():
            field = self.by_name.get(name)
            if field is None:
                raise ValueError(f"microinstruction has no field {name!r}")
            if isinstance(value, str):
                if value not in field.value_of:
                    raise ValueError(f"field {name} has no value {value!r} "
                                     f"(values: {', '.join(field.value_of)})")
                value = field.value_of[value]
            if not 0 <= value < (1 << field.bits):
                raise ValueError(f"field {name}={value} does not fit its {field.bits} bits")
            word |= value << field.lsb
        return word

    def decode(self, word: int) -> dict[str, int]:
        """Field values of a microinstruction word (integers)."""
        if not 0 <= word < (1 << self.width):
            raise ValueError(f"microinstruction word does not fit {self.width} bits")
        return {f.name: (word >> f.lsb) & ((1 << f.bits) - 1) for f in self.fields}

    def reserved(self, word: int) -> str | None:
        """Why `word` is a reserved encoding (E_UCODE), or None when every field is legal."""
        values = self.decode(word)
        for field in self.fields:
            if not field.legal(values[field.name]):
                return f"field {field.name} = {values[field.name]} is a reserved encoding"
        if values["seq"] == self.by_name["seq"].value_of["LOOP"] and loop_length(values) == 0:
            return "LOOP with a body length of 0"
        return None

    def parts_of(self, word: int) -> list[int]:
        """The data words that carry `word` over the shell (least significant part first)."""
        mask = (1 << self.part_bits) - 1
        return [(word >> (i * self.part_bits)) & mask for i in range(self.parts)]


def loop_length(values: Mapping[str, int]) -> int:
    """A LOOP's body length: {lenx, imm[7:0]}."""
    return (values["lenx"] << 8) | (values["imm"] & 0xFF)


@functools.cache
def load_format() -> MicroFormat:
    text = resources.files("montu.isa").joinpath(UCODE_TABLE).read_text(encoding="utf-8")
    raw = yaml.safe_load(text)
    fields, lsb = [], 0
    for f in raw["fields"]:
        values = tuple((str(k), int(v)) for k, v in (f.get("values") or {}).items())
        fields.append(Field(f["name"], lsb, int(f["bits"]), " ".join(str(f["doc"]).split()), values))
        lsb += int(f["bits"])
    if lsb != int(raw["width"]):
        raise ValueError(f"{UCODE_TABLE}: the fields add up to {lsb} bits, not the width {raw['width']}")
    return MicroFormat(int(raw["width"]), int(raw["part_bits"]), tuple(fields))
