"""ECDSA signing under injected faults releases no invalid signature.

A faulty signature next to a good one of the same message gives the private key away (with RFC
6979 nonces the two share k). `sign` checks every signature on the unit before release
(montu.ec.ecdsa: k·G recomputed from a random projective start, x(k·G) ≡ r and s·k ≡ e + r·d mod
n, the cached constants); here single faults are injected into the simulator while it signs:

* a bit of the register a command reads, flipped just before the command runs, at points spread
  over the whole command stream of a signature — the first k·G, the arithmetic mod n, the check
  itself;
* a bit of a word read back from the unit (RMMI): x(k·G), r, s, and on a fresh unit the constants
  the driver caches (R² of p or f and of n, √b);
* the EQ flag of a comparison's response.

Every run must end in the good signature or EcFaultError, and the same key on the same unit must
sign correctly right after. A control test disables the check and shows that the same injections
do release invalid signatures.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

import reference as ref
from montu import Unit
from montu.driver import UnitError
from montu.ec import EcPrivateKey, ecdsa, get_curve
from montu.ec.curves import Curve
from montu.ec.errors import EcFaultError
from montu.isa import Response, decode_slots, load

DIGEST = bytes(range(32))
KEY = 0x5EC0DE_F417_C0FFEE_0DD_BA11


class _FaultInjector:
    """Passes every command to the simulator; injects one fault at the `at`-th (1-based) event of
    `kind`: "register" (a command reading a register ra: flip bit `bit` of ra just before it
    runs), "read" (an RMMI: flip bit `bit` of the word returned) or "flag" (a CMP: flip EQ in
    its response). at = 0 only counts the events."""

    def __init__(self, inner: object, kind: str, at: int = 0, bit: int = 0, only: str | None = None):
        self.inner, self.kind, self.at, self.bit = inner, kind, at, bit
        self.events = 0
        self.fired = False
        isa = load()
        self._name = {i.opcode: i.name for i in isa.instructions}
        self._reads_ra = {i.opcode for i in isa.instructions if "ra" in i.uses
                          and (only is None or i.name == only)}
        self._eq = 1 << isa.flag_bit["EQ"]

    def _is_event(self, op: int) -> bool:
        if self.kind == "register":       # optionally only commands named `only`
            return op in self._reads_ra
        return self._name.get(op) == ("RMMI" if self.kind == "read" else "CMP")

    def execute(self, insn: int, data: int = 0) -> Response:
        slots = decode_slots(insn)
        due = self._is_event(slots["op"]) and self._count()
        if due and self.kind == "register":
            self.inner.regs[slots["ra"]] ^= 1 << (self.bit % self.inner.length_bits)
        rsp = self.inner.execute(insn, data)
        if due and self.kind == "read":
            return replace(rsp, data=rsp.data ^ (1 << (self.bit % 64)))
        if due and self.kind == "flag":
            return replace(rsp, flags=rsp.flags ^ self._eq)
        return rsp

    def execute_many(self, commands: list[tuple[int, int]]) -> list[Response]:
        return [self.execute(insn, data) for insn, data in commands]

    def _count(self) -> bool:
        self.events += 1
        if self.events == self.at:
            self.fired = True
            return True
        return False


@contextmanager
def _injecting(unit: Unit, kind: str, at: int = 0, bit: int = 0,
               only: str | None = None) -> Iterator[_FaultInjector]:
    injector = _FaultInjector(unit._backend, kind, at, bit, only)
    unit._backend = injector
    try:
        yield injector
    finally:
        unit._backend = injector.inner


def _sign(key: EcPrivateKey) -> tuple[int, int]:
    return key.sign_digest_rs(DIGEST, "sha256", deterministic=True)


def _events_per_signature(unit: Unit, key: EcPrivateKey, kind: str) -> int:
    with _injecting(unit, kind) as counter:
        _sign(key)
    return counter.events


def _is_valid(curve: Curve, d: int, r: int, s: int) -> bool:
    n = curve.n
    e = ecdsa.digest_to_integer(DIGEST, n)
    w = pow(s, -1, n)
    q = ref.mul(curve, d, curve.generator)
    point = ref.add(curve, ref.mul(curve, e * w % n, curve.generator), ref.mul(curve, r * w % n, q))
    return point is not None and point[0] % n == r


def _spread(events: int, count: int) -> list[int]:
    """`count` event numbers spread evenly over 1 … events, the last one included."""
    return sorted({1 + (events - 1) * i // (count - 1) for i in range(count)})


def _run_faults(unit: Unit, key: EcPrivateKey, good: tuple[int, int], kind: str,
                positions: list[int]) -> int:
    """Sign once per fault position; every outcome must be the good signature or EcFaultError,
    and the next signature (no fault) the good one. Returns how many faults were detected."""
    detected = 0
    for i, at in enumerate(positions):
        with _injecting(unit, kind, at, bit=37 * i + 5) as injector:
            try:
                released = _sign(key)
            except EcFaultError:
                detected += 1
            else:
                assert released == good, f"{kind} fault at event {at} released a wrong signature"
        assert injector.fired, f"no {kind} event {at} in a signature"
        assert _sign(key) == good, f"after a {kind} fault at event {at} the key signs wrongly"
    return detected


@pytest.fixture(params=["prime256v1", "sect283k1"])
def signer(request: pytest.FixtureRequest) -> tuple[Unit, EcPrivateKey, tuple[int, int]]:
    unit = Unit(backend="sim")
    key = EcPrivateKey(request.param, KEY % get_curve(request.param).n, unit)
    good = _sign(key)                            # also caches the unit's constants
    assert _is_valid(key.curve, key.private_value, *good)
    return unit, key, good


def test_register_faults_release_no_invalid_signature(signer) -> None:  # noqa: ANN001
    unit, key, good = signer
    events = _events_per_signature(unit, key, "register")
    count = 48 if key.curve.name == "prime256v1" else 12
    detected = _run_faults(unit, key, good, "register", _spread(events, count))
    assert detected >= count // 2, "most flipped registers should have mattered"


def test_read_faults_release_no_invalid_signature(signer) -> None:  # noqa: ANN001
    unit, key, good = signer
    events = _events_per_signature(unit, key, "read")
    positions = list(range(1, events + 1, 1 if key.curve.name == "prime256v1" else 2))
    detected = _run_faults(unit, key, good, "read", positions)
    assert detected >= len(positions) // 2, "the words of x(k·G), r and s all matter (y's do not)"


def test_flipped_comparisons_release_no_invalid_signature(signer) -> None:  # noqa: ANN001
    unit, key, good = signer
    events = _events_per_signature(unit, key, "flag")
    _run_faults(unit, key, good, "flag", list(range(1, events + 1)))


@pytest.mark.parametrize("name", ["prime256v1", "sect163r2"])
def test_corrupted_cached_constants_are_detected_and_dropped(name: str) -> None:
    """On a fresh unit the first signature computes R² of the field modulus and of n (and √b on
    a curve with b ≠ 1) and the driver caches what it reads back: a flip there would corrupt every
    later signature alike, so it must be found and the constants recomputed."""
    curve = get_curve(name)
    reference_unit = Unit(backend="sim")
    good = _sign(EcPrivateKey(curve, KEY % curve.n, reference_unit))
    fresh = Unit(backend="sim")
    events = _events_per_signature(fresh, EcPrivateKey(curve, KEY % curve.n, fresh), "read")
    for at in range(1, events + 1):
        unit = Unit(backend="sim")
        key = EcPrivateKey(curve, KEY % curve.n, unit)
        _run_faults(unit, key, good, "read", [at])


def test_the_injections_do_matter_without_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Control: with the check switched off, the same register faults release invalid
    signatures — what the tests above would have caught."""
    unit = Unit(backend="sim")
    key = EcPrivateKey("prime256v1", KEY % get_curve("prime256v1").n, unit)
    good = _sign(key)
    events = _events_per_signature(unit, key, "register")
    monkeypatch.setattr(ecdsa, "_check_signature", lambda *args: None)
    invalid = 0
    for i, at in enumerate(_spread(events // 2, 12)):      # the first half: k·G and s
        with _injecting(unit, "register", at, bit=37 * i + 5):
            try:
                r, s = _sign(key)
            except EcFaultError:
                continue
        invalid += (r, s) != good and not _is_valid(key.curve, key.private_value, r, s)
    assert invalid >= 9


def test_a_command_the_unit_rejects_is_a_fault(signer) -> None:  # noqa: ANN001
    """Bit 0 of the modulus register flipped just before SETMOD: the unit refuses the even
    modulus (E_EVEN_MODULUS) — a fault, reported as EcFaultError, with nothing released."""
    unit, key, good = signer
    for at in (1, 2, 3):                          # the first k·G, the mod-n program, the check
        with _injecting(unit, "register", at, bit=0, only="SETMOD"):
            with pytest.raises(EcFaultError, match="rejected a command"):
                _sign(key)
        assert _sign(key) == good


def test_a_unit_too_small_for_the_curve_is_refused_before_any_command() -> None:
    small = Unit(backend="sim", max_bits=256)
    key = EcPrivateKey("secp384r1", 12345, small)
    with pytest.raises(UnitError, match="max_bits") as refused:
        _sign(key)
    assert not isinstance(refused.value, EcFaultError)
    assert small.total_cycles == 0
