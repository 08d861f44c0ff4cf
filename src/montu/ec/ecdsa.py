"""ECDSA (FIPS 186-4 §6, SEC 1 §4.1) with the arithmetic modulo n on the unit.

The host hashes, draws nonces (`secrets`, or RFC 6979 HMAC-DRBG), truncates the hash to bits(n)
bits and branches only on public values. Everything modulo n runs on the unit with n as the
modulus: the signer's k⁻¹ is blinded — MINV (variable time) sees k·β for a fresh random β, and
k⁻¹ = β·(k·β)⁻¹ — and every other step is Montgomery products and modular additions whose time
does not depend on the values.

No signature leaves `sign_integers` unchecked: with r and s as read back from the unit, it
recomputes k·G (from a random projective start, so through other intermediate values), checks on
the unit that x(k·G) ≡ r and s·k ≡ e + r·d (mod n) — together: (r, s) verifies under Q = d·G —
and that the Montgomery constants and √b it used are right. A failed check raises EcFaultError,
drops every constant the unit cached for the curve (the next signature recomputes them) and
releases nothing: a faulty signature next to a good one of the same message gives the key away.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from montu.arith.field import Field
from montu.driver import Unit, UnitError
from montu.ec import binary, points
from montu.ec.curves import Curve
from montu.ec.errors import EcFaultError, UnsupportedHash
from montu.ec.program import Program, Registers
from montu.ec.session import FieldSession
from montu.errors import MontuError
from montu.isa import Response

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
    """(r, s) for private scalar d and truncated digest e; a fresh random nonce unless given.

    The signature is checked before it is returned (`_check_signature`); if the check fails,
    EcFaultError is raised, the unit's cached constants of the curve are dropped and nothing is
    released."""
    _require_a_unit_that_fits(unit, curve)
    with _faults_release_nothing(unit, curve):
        while True:
            k = nonce if nonce is not None else 1 + secrets.randbelow(curve.n - 1)
            r, s = _sign_with_nonce(unit, curve, d, e, k)
            if r != 0 and s != 0:
                _check_signature(unit, curve, d, e, k, r, s)
                return r, s
            if nonce is not None:
                raise MontuError("this ECDSA nonce gives r = 0 or s = 0 (probability ~2/n); "
                                 "sign again with another nonce")


def _sign_with_nonce(unit: Unit, curve: Curve, d: int, e: int, k: int) -> tuple[int, int]:
    """r = x(k·G) mod n, s = k⁻¹(e + r·d) mod n, as read back from the unit (unchecked)."""
    x, _ = points.multiply_generator(unit, curve, k)
    session = FieldSession(unit, curve.n, Field.GFP, REGS)
    for name, value in (("K", k), ("BETA", 1 + secrets.randbelow(curve.n - 1)), ("E", e),
                        ("X", x), ("D", d)):
        session.write(name, value)
    session.execute(_sign_program(_reductions(curve)).commands, "ECDSA signature")
    return session.read("R"), session.read("S")


# Every EC program names registers up to R31 (montu.ec.program.Registers).
_EC_REGISTERS = 32


def _require_a_unit_that_fits(unit: Unit, curve: Curve) -> None:
    """Raise UnitError, before any command, unless the unit can hold this curve's operands and
    registers — so that a unit error while signing can only mean the unit misbehaved."""
    field_bits = curve.bits + 1 if curve.is_binary else curve.bits
    bits = max(field_bits, curve.n.bit_length())
    field = Field.GF2M if curve.is_binary else Field.GFP
    if 64 * max(unit.length_words(field_bits, field), unit.length_words(curve.n.bit_length())) \
            > unit.max_bits:
        raise UnitError(f"{curve.name} needs {bits}-bit operands; this unit holds "
                        f"{unit.max_bits} bits (max_bits)")
    if unit.num_regs < _EC_REGISTERS:
        raise UnitError(f"the EC programs use {_EC_REGISTERS} registers; this unit has "
                        f"{unit.num_regs} (num_regs)")


@contextmanager
def _faults_release_nothing(unit: Unit, curve: Curve) -> Iterator[None]:
    """Run a block; if it fails in any way (a failed check, a unit error), drop every constant the
    unit cached for this curve — R² of n and of the field modulus, √b, a comb table computed on
    the unit — before raising: a fault while one was computed would otherwise make every later
    signature on this unit fail its check. A UnitError (the unit rejected a command of a
    well-formed program: a fault) becomes EcFaultError."""
    try:
        yield
    except BaseException as exc:
        unit.forget_modulus(curve.n)
        points.forget_field_constants(unit, curve)
        if isinstance(exc, UnitError):
            raise _fault(curve, f"the unit rejected a command ({exc})") from exc
        raise


def _montgomery_constant_check(p: Program) -> int:
    """CMP that R2 holds R² mod the loaded modulus: t = R2·1·R⁻¹ is R, and t·t·R⁻¹ must be t
    again — for R2 = γ·R² it is γ²·R ≠ γ·R unless γ = 1. Three commands and a CMP, in either
    field; returns the CMP's position (EQ must be set). Scratch ONE (left = 1), T1, T2."""
    p.one("ONE")
    p.mul("T1", "R2", "ONE")
    p.sqr("T2", "T1")
    position = len(p.commands)
    p.compare("T1", "T2")
    return position


@functools.cache
def _field_constant_check_program() -> tuple[Program, list[int]]:
    p = Program(REGS)
    return p, [_montgomery_constant_check(p)]


@functools.cache
def _signature_check_program() -> tuple[Program, tuple[int, int]]:
    """CMPs (EQ must be set at both returned positions) of: R² of n, as the driver cached it (a
    wrong one would corrupt the next signatures); s·k with e + r·d mod n, as s·k·R⁻¹ and
    r·d·R⁻¹ + e·R⁻¹ — Montgomery products of plain values, so no R² is involved. Inputs plain:
    K, E (< 2^bits(n)), R, D, S (< n)."""
    p = Program(REGS)
    constant = _montgomery_constant_check(p)
    p.zero("ZERO")
    p.add("E", "E", "ZERO")            # e mod n
    p.mul("T1", "S", "K")              # s·k·R⁻¹
    p.mul("T2", "R", "D")              # r·d·R⁻¹
    p.mul("T3", "E", "ONE")            # e·R⁻¹
    p.add("T2", "T2", "T3")            # (e + r·d)·R⁻¹
    relation = len(p.commands)
    p.compare("T1", "T2")
    return p, (constant, relation)


def _field_constants_are_right(unit: Unit, curve: Curve) -> bool:
    """Whether the R² of the field modulus the unit has cached is right (on the unit). Both k·G
    runs use it, a wrong one could corrupt them alike, and the next signatures would use it."""
    session = FieldSession(unit, curve.modulus, curve.field, REGS)  # loads the modulus and its R²
    program, compares = _field_constant_check_program()
    return _all_equal(session.execute(program.commands, "ECDSA field constant check"), compares)


def _all_equal(responses: list[Response], positions: list[int]) -> bool:
    return all(responses[i].flags >> 1 & 1 for i in positions)


def _random_field_element(curve: Curve) -> int:
    """A uniform non-zero element of the curve's field (a random projective Z)."""
    size = (1 << curve.bits) if curve.is_binary else curve.modulus
    return 1 + secrets.randbelow(size - 1)


def _check_signature(unit: Unit, curve: Curve, d: int, e: int, k: int, r: int, s: int) -> None:
    """Raise EcFaultError unless (r, s) — the values read back from the unit — is the signature of
    e under d with nonce k, checked on the unit against a second, re-randomized computation of
    k·G: x(k·G) ≡ r and s·k ≡ e + r·d (mod n), which is verification under Q = d·G
    (u1·G + u2·Q = (e + r·d)·s⁻¹·G = k·G). Also checks the constants the unit has cached (R² of
    the field modulus and of n, √b): both k·G runs share them, so a wrong one could corrupt both
    alike, and the next signatures would use it (the comparison mod n itself uses none). Cost:
    one fixed-base k·G without its inversion and a few dozen commands (docs/ecc.md)."""
    n = curve.n
    if not (1 <= r < n and 1 <= s < n):
        raise _fault(curve, "r or s read back out of [1, n − 1]")
    if curve.is_binary and not binary.sqrt_b_squares_to_b(unit, curve):
        raise _fault(curve, "the cached √b does not square to b")
    if not _field_constants_are_right(unit, curve):
        raise _fault(curve, "R² of the field modulus is wrong")
    if not points.generator_x_is_one_of(unit, curve, k, _x_candidates(curve, r),
                                        _random_field_element(curve)):
        raise _fault(curve, "x(k·G) recomputed is not r mod n")
    session = FieldSession(unit, n, Field.GFP, REGS)
    for name, value in (("K", k), ("E", e), ("R", r), ("D", d), ("S", s)):
        session.write(name, value)
    program, (constant, relation) = _signature_check_program()
    responses = session.execute(program.commands, "ECDSA signature check")
    if not _all_equal(responses, [constant]):
        raise _fault(curve, "R² of n is wrong")
    if not _all_equal(responses, [relation]):
        raise _fault(curve, "s·k ≠ e + r·d mod n")


def _x_candidates(curve: Curve, r: int) -> list[int]:
    """The field elements x with x mod n = r: r + j·n below p (GF(p)) or 2^m (GF(2^m)) — one or
    two on the prime curves, up to h + 1 on the binary ones. Public: r is."""
    size = (1 << curve.bits) if curve.is_binary else curve.modulus
    return list(range(r, size, curve.n))


def _fault(curve: Curve, detail: str) -> EcFaultError:
    return EcFaultError(f"fault detected while signing with {curve.name}: {detail}; no signature "
                        "was released (the unit's cached constants for this curve were dropped; "
                        "signing again recomputes them)")


def verify_integers(unit: Unit, curve: Curve, public: tuple[int, int], e: int, r: int, s: int) -> bool:
    """True iff (r, s) is a valid signature of truncated digest e under the (validated) key."""
    if not (1 <= r < curve.n and 1 <= s < curve.n):
        return False
    session = FieldSession(unit, curve.n, Field.GFP, REGS)
    for name, value in (("E", e), ("R", r), ("S", s)):
        session.write(name, value)
    session.execute(_verify_scalars_program().commands, "ECDSA verification")
    u1, u2 = session.read("K"), session.read("D")
    x = points.double_scalar_x(unit, curve, u1, u2, public)
    if x is None:
        return False
    session = FieldSession(unit, curve.n, Field.GFP, REGS)
    session.write("X", x)
    session.write("R", r)
    responses = session.execute(_verify_check_program(_reductions(curve)).commands, "ECDSA check")
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
