"""The RSA primitives on the unit: public operation, CRT private operation with its fault check.

Every modular step runs on the unit through `montu.Unit`; the host moves the words in and out:

    public:   m = s^e mod n                      (square and multiply: e is public)
    private:  m1 = c^dp mod p, m2 = c^dq mod q   (fixed-window, constant-time, MMX)
              h  = qinv·(m1 − m2) mod p          (Montgomery form on the unit)
              m  = m2 + h·q                      (below n: one multiplication, one MADD mod n)
              check m^e mod n == c on the unit (CMP) before m leaves this module

The cycle count of `private_crt` depends only on the lengths of p, q and n (and e, which is
public): the exponents go through `Unit.mod_exp` with a fixed exponent length.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from montu.arith.field import Field
from montu.driver import R_ACC0, R_ACC1, R_X, R_Y, R_Z, Unit
from montu.errors import MontuError
from montu.isa import encode


class RsaFaultError(MontuError):
    """The private operation's result failed its check (m^e ≠ c): nothing is released."""


@dataclass(frozen=True)
class CrtKey:
    """The private CRT parameters (RFC 8017 §3.2, second representation)."""

    n: int
    e: int
    p: int
    q: int
    dp: int
    dq: int
    qinv: int


def exponent_length(modulus: int) -> int:
    """The fixed exponent length the unit uses for a modulus: its register length L."""
    return 64 * -(-modulus.bit_length() // 64)


def public(unit: Unit, x: int, n: int, e: int) -> int:
    """x^e mod n for 0 <= x < n (public exponent: not constant-time in e)."""
    return unit.mod_exp_public(x, e, n)


@contextmanager
def forgetting_on_failure(unit: Unit, *moduli: int) -> Iterator[None]:
    """Run a block; if it fails in any way (a fault detected by the check, a unit error), drop
    the unit's cached constants (R², R³) of every modulus the block used before re-raising.

    A transient fault can corrupt a constant while it is being computed and cached; without
    this, every later operation with the same key on the same unit would fail its check too."""
    try:
        yield
    except BaseException:
        for modulus in moduli:
            unit.forget_modulus(modulus)
        raise


def private_plain(unit: Unit, c: int, n: int, d: int, e: int) -> int:
    """c^d mod n without CRT (keys given as (n, e, d) only), then the fault check."""
    with forgetting_on_failure(unit, n):
        m = unit.mod_exp(c, d, n, exponent_bits=exponent_length(n))
        _check(unit, m, c, n, e)
    return m


def private_crt(unit: Unit, c: int, key: CrtKey) -> int:
    """c^d mod n by the CRT (Garner), then the fault check; 0 <= c < n."""
    with forgetting_on_failure(unit, key.p, key.q, key.n):
        m1 = unit.mod_exp(c, key.dp, key.p, exponent_bits=exponent_length(key.p))
        m2 = unit.mod_exp(c, key.dq, key.q, exponent_bits=exponent_length(key.q))
        h = _garner_h(unit, m1, m2, key.p, key.qinv)
        m = _garner_m(unit, h, m2, key.q, key.n)
        _check(unit, m, c, key.n, key.e)
    return m


def _public_power(engine, x: int, e: int, n: int) -> int:
    """x^e mod n for a public exponent: the engine's faster variable-time exponentiation when it
    has one (`mod_exp_public`), else its mod_exp."""
    return getattr(engine, "mod_exp_public", engine.mod_exp)(x, e, n)


def public_on_engine(engine, x: int, n: int, e: int) -> tuple[int, int]:
    """x^e mod n on an engine object (montu.engines); (result, engine cycles)."""
    return _public_power(engine, x, e, n), engine.last_cycles


def private_on_engine(engine, c: int, n: int, d: int, e: int) -> tuple[int, int]:
    """c^d mod n as one exponentiation on an engine (the engines' papers have no CRT), then the
    fault check m^e mod n == c, also on the engine; (m, engine cycles of both). A result that
    fails the check raises RsaFaultError and is not released."""
    m = engine.mod_exp(c, d, n)
    cycles = engine.last_cycles
    check = _public_power(engine, m, e, n)
    cycles += engine.last_cycles
    if check != c:
        raise RsaFaultError("the RSA private operation failed its consistency check (m^e ≠ c); "
                            "no result was released")
    return m, cycles


def _garner_h(unit: Unit, m1: int, m2: int, p: int, qinv: int) -> int:
    """h = qinv·(m1 − m2) mod p: m1·R and m2·R mod p (m2 < q may exceed p: the unit reduces
    it), their difference by MSUB, then one Montgomery product with qinv leaves the plain h."""
    k = unit._load_modulus(p, Field.GFP)
    unit._to_montgomery(R_X, m1, p, k)
    unit.run("MOV", rd=R_ACC0, ra=R_X)
    unit._to_montgomery(R_X, m2, p, k)
    unit.write(R_Z, qinv, k)
    unit.send_checked([
        (encode("MSUB", rd=R_X, ra=R_ACC0, rb=R_X), 0),
        (encode("STARTMMI", rd=R_X, ra=R_X, rb=R_Z), 0),
    ], "CRT recombination")
    return unit.read(R_X, k)


def _garner_m(unit: Unit, h: int, m2: int, q: int, n: int) -> int:
    """m = m2 + h·q; h·q < n and m2 + h·q < n, so the products and the sum mod n are exact."""
    k = unit._load_modulus(n, Field.GFP)
    unit._load_r2(R_ACC1, n, Field.GFP, k)
    unit.write(R_X, h, k)
    unit.write(R_Y, q, k)
    unit.write(R_Z, m2, k)
    unit.send_checked([
        (encode("STARTMMI", rd=R_X, ra=R_X, rb=R_Y), 0),       # h·q·R⁻¹
        (encode("STARTMMI", rd=R_X, ra=R_X, rb=R_ACC1), 0),    # h·q
        (encode("MADD", rd=R_X, ra=R_X, rb=R_Z), 0),           # + m2
    ], "CRT recombination")
    return unit.read(R_X, k)


def _check(unit: Unit, m: int, c: int, n: int, e: int) -> None:
    """Raise RsaFaultError unless m^e mod n == c, compared on the unit (CMP, EQ flag)."""
    k = unit.length_words(n.bit_length())       # the length mod_exp_public runs at
    unit.mod_exp_public(m, e, n)                 # leaves m^e mod n in R_Z
    unit.write(R_Y, c, k)
    if not unit.equal(R_Z, R_Y):
        raise RsaFaultError("the RSA private operation failed its consistency check (m^e ≠ c); "
                            "no result was released")
