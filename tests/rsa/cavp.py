"""Readers for the RSA test-vector files of the `cryptography-vectors` package.

Two formats:
- NIST CAVP response files (FIPS_186-2/*.rsp, *.txt): `[mod = N]` sections and `key = value`
  blocks separated by blank lines; `read_cavp` yields one CavpCase per block that has a `Msg`,
  carrying every value seen so far in the file (n, e, d, SHAAlg, SaltVal, ...) with the block's
  own values on top.
- The PKCS #1 v2.1 example files (pkcs-1v2-1d2-vec/pss-vect.txt, oaep-vect.txt,
  pkcs1v15sign-vectors.txt) and pyca's oaep-custom/*.txt: `# Label:` lines followed by hex;
  `read_pkcs1_examples` yields one Pkcs1Example per "# PSS/OAEP/PKCS#1 v1.5 Signature Example"
  with its key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import cryptography_vectors

RSA_VECTORS = Path(cryptography_vectors.__file__).parent / "asymmetric" / "RSA"
FIPS_186_2 = RSA_VECTORS / "FIPS_186-2"


@dataclass(frozen=True)
class CavpCase:
    file: str
    index: int          # position in the file, from 0
    mod: int            # [mod = N]
    hash: str           # "sha256"
    n: int
    e: int
    d: int | None
    msg: bytes
    s: bytes
    salt: bytes | None  # SaltVal (PSS SigGen .txt, SigVer)
    result: bool | None  # SigVer: True = P, False = F
    reason: str          # SigVer: the text after F, e.g. "(3 - Signature changed )"

    @property
    def id(self) -> str:
        return f"{self.file}#{self.index}-{self.mod}-{self.hash}"


def _int(value: str) -> int:
    return int(value, 16)


def read_cavp(path: Path) -> list[CavpCase]:
    """Every case of a CAVP RSA SigGen/SigVer file, in file order."""
    context: dict[str, str] = {}
    cases: list[CavpCase] = []
    mod = 0

    def flush(block: dict[str, str]) -> None:
        context.update(block)
        if "Msg" not in block:
            return
        result = context.get("Result")
        salt = context.get("SaltVal")
        cases.append(CavpCase(
            file=path.name, index=len(cases), mod=mod,
            hash=context["SHAAlg"].lower().replace("-", ""),
            n=_int(context["n"]), e=_int(context["e"]),
            d=_int(context["d"]) if "d" in context else None,
            msg=bytes.fromhex(context["Msg"]), s=bytes.fromhex(context["S"]),
            salt=None if salt is None else bytes.fromhex(salt),
            result=None if result is None else result.startswith("P"),
            reason="" if result is None else result[1:].strip()))

    block: dict[str, str] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            flush(block)
            block = {}
            continue
        if m := re.fullmatch(r"\[mod\s*=\s*(\d+)\]", line):
            flush(block)
            block = {}
            mod = int(m.group(1))
            for key in ("n", "e", "d", "p", "q", "SaltVal"):
                context.pop(key, None)
            continue
        key, _, value = line.partition("=")
        block[key.strip()] = value.strip()
    flush(block)
    return cases


@dataclass
class Pkcs1Key:
    n: int = 0
    e: int = 0
    d: int = 0
    p: int = 0
    q: int = 0
    dp: int = 0
    dq: int = 0
    qinv: int = 0
    name: str = ""


@dataclass
class Pkcs1Example:
    key: Pkcs1Key
    name: str                      # "PSS Example 1.1", "OAEP Example 3 alg=sha224 mgf1=sha1"
    fields: dict[str, bytes] = field(default_factory=dict)  # "Message", "Salt", "Signature", ...

    @property
    def hashes(self) -> tuple[str, str]:
        """(scheme hash, MGF1 hash): from `alg=… mgf1=…` in the name, else SHA-1 (PKCS #1 v2.1)."""
        alg = re.search(r"alg=(\w+)", self.name)
        mgf = re.search(r"mgf1=(\w+)", self.name)
        return (alg.group(1) if alg else "sha1", mgf.group(1) if mgf else "sha1")


_KEY_LABELS = {
    ("public", "Modulus"): "n", ("public", "Exponent"): "e",
    ("private", "Modulus"): "n", ("private", "Public exponent"): "e",
    ("private", "Exponent"): "d", ("private", "Prime 1"): "p", ("private", "Prime 2"): "q",
    ("private", "Prime exponent 1"): "dp", ("private", "Prime exponent 2"): "dq",
    ("private", "Coefficient"): "qinv",
}


def read_pkcs1_examples(path: Path) -> list[Pkcs1Example]:
    """Every signature/encryption example of a PKCS #1 v2.1-style vector file."""
    examples: list[Pkcs1Example] = []
    key = Pkcs1Key()
    section = "public"
    current: Pkcs1Example | None = None
    label: str | None = None
    hex_lines: list[str] = []

    def store() -> None:
        if label is None or not hex_lines:
            return
        data = "".join(hex_lines).replace(" ", "")
        if current is not None:
            current.fields[label] = bytes.fromhex(data)
        elif (section, label) in _KEY_LABELS:
            setattr(key, _KEY_LABELS[(section, label)], int(data, 16))

    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line.startswith("#"):
            if label is not None and re.fullmatch(r"[0-9a-fA-F ]+", line):
                hex_lines.append(line)
            continue
        text = line.lstrip("#").strip()
        if not text or set(text) <= {"-", "="}:
            continue
        store()
        label, hex_lines = None, []
        if re.match(r"Example(\s+\d+)?:?$|Example \d+:", text):      # a new key
            key, section, current = Pkcs1Key(name=text), "public", None
        elif text in ("Public key", "Private key"):
            section = text.split()[0].lower()
            current = None
        elif re.match(r"(PSS|OAEP|PKCS#1 v1\.5 Signature) Example", text):
            current = Pkcs1Example(key=key, name=text)
            examples.append(current)
        elif text.endswith(":"):
            label = text[:-1].strip()
    store()
    return examples
