"""The firmware's Hash_DRBG (fw/lib/random.c) in Python, written from SP 800-90A Rev. 1 §10.1.1:
the reference of tests/soc/test_fw_hash.py and the random stream of test_fw_rsa.py's key-generation
model. SHA-256, seedlen 440 bits, no nonce or personalization beyond the seed, no additional input."""

from __future__ import annotations

import hashlib

SEED_BYTES = 55
_MODULUS = 1 << (8 * SEED_BYTES)


def _hash_df(data: bytes) -> bytes:
    bits = (8 * SEED_BYTES).to_bytes(4, "big")
    return b"".join(hashlib.sha256(bytes([i]) + bits + data).digest() for i in (1, 2))[:SEED_BYTES]


class HashDrbg:
    def __init__(self, seed: bytes):
        self._set(_hash_df(seed))

    def _set(self, v: bytes) -> None:
        self.v, self.c, self.counter = v, _hash_df(b"\0" + v), 1

    def reseed(self, seed: bytes) -> None:
        self._set(_hash_df(b"\1" + self.v + seed))

    def generate(self, length: int) -> bytes:
        v = int.from_bytes(self.v, "big")
        out, data = b"", v
        while len(out) < length:                       # Hashgen
            out += hashlib.sha256(data.to_bytes(SEED_BYTES, "big")).digest()
            data = (data + 1) % _MODULUS
        h = int.from_bytes(hashlib.sha256(b"\3" + self.v).digest(), "big")
        v = (v + h + int.from_bytes(self.c, "big") + self.counter) % _MODULUS
        self.v, self.counter = v.to_bytes(SEED_BYTES, "big"), self.counter + 1
        return out[:length]
