"""A reader for the NIST CAVP ECDSA response files (.rsp) shipped in `cryptography-vectors`.

The files are blocks of `key = value` lines separated by blank lines, under section headers:

    [P-256,SHA-384]            <- SigVer, SigGen: curve and hash
    [K-233]                    <- KeyPair, PKV: curve only
    [B.4.2 Key Pair ...]       <- anything else in brackets is a comment, as are `#` lines
    N = 10                     <- a block with only a count, not a vector

    Msg = 0f6b...
    Qx = 1de0...
    Result = F (3 - S changed)

Each vector is a `CavpVector` with its curve, hash (hashlib name, or None), fields and the line
it starts on, so a failure names the exact vector.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import cryptography_vectors

ECDSA_DIR = "asymmetric/ECDSA/FIPS_186-3"

_SECTION = re.compile(r"^\[(?P<curve>[PKB]-\d{3})(?:,SHA-(?P<hash>1|224|256|384|512))?\]$")
_HASHES = {"1": "sha1", "224": "sha224", "256": "sha256", "384": "sha384", "512": "sha512"}


@dataclass(frozen=True)
class CavpVector:
    """One vector of a CAVP response file."""

    file: str
    line: int
    curve: str  # "P-256", "K-163", "B-571"
    hash: str | None  # hashlib name: "sha1", "sha224", ... or None (KeyPair, PKV)
    fields: dict[str, str]

    def int(self, key: str) -> int:
        """A hexadecimal field as an integer (Qx, Qy, R, S, d, k)."""
        return int(self.fields[key], 16)

    def bytes(self, key: str) -> bytes:
        """A hexadecimal field as bytes (Msg)."""
        return bytes.fromhex(self.fields[key])

    @property
    def expected_pass(self) -> bool:
        """`Result = P (0 )` -> True, `Result = F (3 - S changed)` -> False."""
        result = self.fields["Result"]
        if result[:1] not in ("P", "F"):
            raise ValueError(f"{self.id}: Result must start with P or F, got {result!r}")
        return result[0] == "P"

    @property
    def reason(self) -> str:
        """The failure reason of a F result ("S changed"), "" for P."""
        match = re.search(r"\(\s*\d+\s*-?\s*(.*?)\s*\)", self.fields.get("Result", ""))
        return match.group(1) if match else ""

    @property
    def id(self) -> str:
        hash_part = f"-{self.hash}" if self.hash else ""
        return f"{self.curve}{hash_part}-{self.file.rsplit('.', 1)[0]}-L{self.line}"


def parse_rsp(text: str, file: str) -> Iterator[CavpVector]:
    """The vectors of a CAVP response file's text, in file order."""
    curve: str | None = None
    hash_name: str | None = None
    fields: dict[str, str] = {}
    start = 0

    def flush() -> Iterator[CavpVector]:
        if fields and set(fields) != {"N"}:
            if curve is None:
                raise ValueError(f"{file}:{start}: vector before any [curve] section")
            yield CavpVector(file, start, curve, hash_name, dict(fields))

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            yield from flush()
            fields = {}
            continue
        if line.startswith("["):
            yield from flush()
            fields = {}
            section = _SECTION.match(line)
            if section:
                curve = section["curve"]
                hash_name = _HASHES[section["hash"]] if section["hash"] else None
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError(f"{file}:{number}: expected `key = value`, got {line!r}")
        key = key.strip()
        if key in fields:  # a new vector without a blank line between
            yield from flush()
            fields = {}
        if not fields:
            start = number
        fields[key] = value.strip()
    yield from flush()


def load(name: str) -> list[CavpVector]:
    """All vectors of `asymmetric/ECDSA/FIPS_186-3/<name>` ("SigVer.rsp", "KeyPair.rsp", ...)."""
    with cryptography_vectors.open_vector_file(f"{ECDSA_DIR}/{name}", "r") as handle:
        return list(parse_rsp(handle.read(), name))
