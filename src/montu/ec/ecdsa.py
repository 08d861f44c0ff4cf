"""ECDSA (FIPS 186-4 §6, SEC 1 §4.1) with the arithmetic modulo n on the unit.

The host hashes, draws nonces (`secrets`, or RFC 6979 HMAC-DRBG), truncates the hash to bits(n)
bits and branches only on public values. Everything modulo n runs on the unit with n as the
modulus: the signer's k⁻¹ is blinded — MINV (variable time) sees k·β for a fresh random β, and
k⁻¹ = β·(k·β)⁻¹ — and every other step is Montgomery products and modular additions whose time
does not depend on the values.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets

from montu.arith.field import Field
from montu.driver import Unit
from montu.ec import points
from montu.ec.curves import Curve
from montu.ec.errors import UnsupportedHash
from montu.ec.program import Program, Registers, execute
from montu.ec.session import FieldSession
from montu.errors import MontuError

HASHES = ("sha1", "sha224", "sha256", "sha384", "sha512")

REGS = Registers(("R2", "ONE", "ZERO", "K", "BETA", "E", "R", "D", "S", "X", "T1", "T2", "T3"))


def hash_message(message: bytes, hash_name: str) -> bytes:
    name = hash_name.lower().replace("-", "")
    if name not in HASHES:
        raise UnsupportedHash(f"unsupported hash {hash_name!r}; choose one of {', '.join(HASHES)}")
    return hashlib.new(name, message).digest()


def digest_to_integer(digest: bytes, n: int) -> int:
    """The leftmost bits(n) bits of the digest as an integer (not reduced mod n)."""
    e = int.from_bytes(digest, "big")
    excess = 8 * len(digest) - n.bit_length()
    return e >> excess if excess > 0 else e


def _reductions(curve: Curve) -> int:
    """Conditional subtractions of n that bring any field-sized integer below n."""
    return ((1 << curve.bits) - 1) // curve.n


@functools.cache
def _sign_program(reductions: int) -> Program:
    """s = k⁻¹(e + r·d) mod n; r = X mod n. Inputs plain: K, BETA (≠ 0), E (< 2^bits(n)), X, D."""
    p = Program(REGS)
    p.one("ONE")
    p.zero("ZERO")
    for _ in range(reductions):
        p.add("X", "X", "ZERO")        # X − n if X ≥ n: r = x mod n
    p.mov("R", "X")
    p.mul("K", "K", "R2")              # k·R
    p.mul("BETA", "BETA", "R2")        # β·R
    p.mul("T1", "K", "BETA")
    p.mul("T1", "T1", "ONE")           # k·β (plain, uniformly random: safe for MINV)
    p.inverse("T2", "T1")              # (k·β)⁻¹
    p.mul("T2", "T2", "R2")
    p.mul("K", "T2", "BETA")           # k⁻¹·R
    p.add("E", "E", "ZERO")            # e mod n (e < 2^bits(n) < 2n)
    p.mul("E", "E", "R2")
    p.mul("T1", "R", "R2")
    p.mul("T3", "D", "R2")
    p.mul("T1", "T1", "T3")            # r·d·R
    p.add("T1", "T1", "E")             # (e + r·d)·R
    p.mul("S", "T1", "K")
    p.mul("S", "S", "ONE")             # s (plain)
    return p


@functools.cache
def _verify_scalars_program() -> Program:
    """w = s⁻¹, u1 = e·w, u2 = r·w (public values: MINV unblinded)."""
    p = Program(REGS)
    p.zero("ZERO")
    p.inverse("T1", "S")
    p.mul("T1", "T1", "R2")            # w·R
    p.add("E", "E", "ZERO")
    p.mul("K", "E", "T1")              # u1
    p.mul("D", "R", "T1")              # u2
    return p


@functools.cache
def _verify_check_program(reductions: int) -> Program:
    p = Program(REGS)
    p.zero("ZERO")
    for _ in range(reductions):
        p.add("X", "X", "ZERO")
    p.compare("X", "R")
    return p


def sign_integers(unit: Unit, curve: Curve, d: int, e: int, nonce: int | None = None) -> tuple[int, int]:
    """(r, s) for private scalar d and truncated digest e; a fresh random nonce unless given."""
    while True:
        k = nonce if nonce is not None else 1 + secrets.randbelow(curve.n - 1)
        x, _ = points.multiply_generator(unit, curve, k)
        session = FieldSession(unit, curve.n, Field.GFP, REGS)
        for name, value in (("K", k), ("BETA", 1 + secrets.randbelow(curve.n - 1)), ("E", e),
                            ("X", x), ("D", d)):
            session.write(name, value)
        execute(unit, _sign_program(_reductions(curve)).commands, "ECDSA signature")
        r, s = session.read("R"), session.read("S")
        if r != 0 and s != 0:
            return r, s
        if nonce is not None:
            raise MontuError("this ECDSA nonce gives r = 0 or s = 0 (probability ~2/n); "
                             "sign again with another nonce")


def verify_integers(unit: Unit, curve: Curve, public: tuple[int, int], e: int, r: int, s: int) -> bool:
    """True iff (r, s) is a valid signature of truncated digest e under the (validated) key."""
    if not (1 <= r < curve.n and 1 <= s < curve.n):
        return False
    session = FieldSession(unit, curve.n, Field.GFP, REGS)
    for name, value in (("E", e), ("R", r), ("S", s)):
        session.write(name, value)
    execute(unit, _verify_scalars_program().commands, "ECDSA verification")
    u1, u2 = session.read("K"), session.read("D")
    x = points.double_scalar_x(unit, curve, u1, u2, public)
    if x is None:
        return False
    session = FieldSession(unit, curve.n, Field.GFP, REGS)
    session.write("X", x)
    session.write("R", r)
    responses = execute(unit, _verify_check_program(_reductions(curve)).commands, "ECDSA check")
    return bool(responses[-1].flags >> 1 & 1)


def rfc6979_nonce(curve: Curve, d: int, digest: bytes, hash_name: str) -> int:
    """The deterministic nonce of RFC 6979 §3.2 (HMAC-DRBG with the message's hash function).

    A nonce generator, like `secrets`: host-side hashing and byte handling only."""
    name = hash_name.lower().replace("-", "")
    qlen = curve.n.bit_length()
    rlen = (qlen + 7) // 8

    def bits2int(data: bytes) -> int:
        return digest_to_integer(data, curve.n)

    h1 = bits2int(digest)
    h1 = h1 - curve.n if h1 >= curve.n else h1
    key_material = d.to_bytes(rlen, "big") + h1.to_bytes(rlen, "big")
    hlen = hashlib.new(name).digest_size
    v = b"\x01" * hlen
    k = b"\x00" * hlen
    k = hmac.new(k, v + b"\x00" + key_material, name).digest()
    v = hmac.new(k, v, name).digest()
    k = hmac.new(k, v + b"\x01" + key_material, name).digest()
    v = hmac.new(k, v, name).digest()
    while True:
        t = b""
        while len(t) < rlen:
            v = hmac.new(k, v, name).digest()
            t += v
        candidate = bits2int(t)
        if 1 <= candidate < curve.n:
            return candidate
        k = hmac.new(k, v + b"\x00", name).digest()
        v = hmac.new(k, v, name).digest()
