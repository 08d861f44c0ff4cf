"""Cilardo & Mazzocca 2008, Tables 1 and 2: the dual-field Booth and Montgomery recodings.

Each radix-4 step of the paper's parallel Montgomery multiplier adds a partial product
AA = B_i·A and a modulus multiple NN = Q_i·N. Two encoders turn three input bits into the
PPG/MMG control signals inv (negate), trp (pass the operand), shl (pass the operand shifted left
by one), and the generators build the multiple from those signals alone:

* Booth recoding (Table 1, eq. 1) reads (b_{2i+1}, b_{2i}, b_{2i-1}) of the multiplier B.
* Montgomery recoding (Table 2, eq. 2) reads (sp_1, sp_0) of SP = P + AA and bit n_1 of N.

The paper's field select is fsel = 1 for integers (GF(N)) and fsel = 0 for binary polynomials
(GF(2^n)), the opposite of ``Field.GFP = 0`` / ``Field.GF2M = 1``: use ``fsel_of(field)``.

This module also holds the modulus/operand checks shared by Alg. 2 and Alg. 3.
"""

from __future__ import annotations

from dataclasses import dataclass

from montu.arith.field import Field
from montu.errors import ModulusError

INTEGER_MODE = 1  # fsel for GF(N)
POLYNOMIAL_MODE = 0  # fsel for GF(2^n)


@dataclass(frozen=True)
class Digit:
    """One recoded radix-4 digit with the control signals that select its multiple.

    ``value`` in integer mode (fsel = 1) is the signed digit: Booth digits lie in {-2..2},
    Montgomery quotient digits in {-1, 0, 1, 2}. In polynomial mode (fsel = 0) it is the digit
    as a 2-bit polynomial: 0, 1, x (= 2) or x + 1 (= 3).
    """

    value: int
    inv: int
    trp: int
    shl: int


def fsel_of(field: Field) -> int:
    """The paper's field-select signal: 1 for GF(N), 0 for GF(2^n)."""
    return INTEGER_MODE if Field(field) == Field.GFP else POLYNOMIAL_MODE


def _check_bits(bits: tuple[int, int, int], fsel: int) -> tuple[int, int, int]:
    if fsel not in (0, 1):
        raise ValueError(f"fsel must be 0 (GF(2^n)) or 1 (GF(N)), got {fsel!r}")
    if len(bits) != 3 or any(bit not in (0, 1) for bit in bits):
        raise ValueError(f"an encoder reads exactly three bits (0 or 1), got {bits!r}")
    return bits[0], bits[1], bits[2]


def _digit_from_signals(inv: int, trp: int, shl: int, fsel: int) -> Digit:
    """The digit a generator driven by (inv, trp, shl) multiplies its operand by."""
    magnitude = trp + 2 * shl  # integer: trp and shl never both 1; polynomial: trp·1 + shl·x
    value = -magnitude if (fsel and inv) else magnitude
    return Digit(value=value, inv=inv, trp=trp, shl=shl)


def booth_digit(bits: tuple[int, int, int], fsel: int) -> Digit:
    """Table 1 via eq. (1): bits = (b_{2i+1}, b_{2i}, b_{2i-1}) of the multiplier.

    Integer mode gives the modified-Booth digit -2·b_{2i+1} + b_{2i} + b_{2i-1}; polynomial mode
    the plain radix-4 digit b_{2i+1}·x + b_{2i} (b_{2i-1} is ignored). The first term of trp and
    shl carries NOT fsel: the text's "fsel" lost its overline (see docs/algorithms.md).
    """
    hi, mid, lo = _check_bits(bits, fsel)
    nfsel = 1 - fsel
    inv = fsel & hi
    trp = (nfsel & mid) | (mid & (1 - lo)) | (fsel & (1 - mid) & lo)
    shl = (nfsel & hi) | (hi & (1 - mid) & (1 - lo)) | (fsel & (1 - hi) & mid & lo)
    return _digit_from_signals(inv, trp, shl, fsel)


def montgomery_digit(bits: tuple[int, int, int], fsel: int) -> Digit:
    """Table 2 via eq. (2): bits = (sp_1, sp_0, n_1); N is odd so n_0 = 1.

    The quotient digit Q makes SP + Q·N ≡ 0 (mod 4) in integer mode and SP + Q·N ≡ 0
    (mod x^2) in polynomial mode. The second term of inv carries fsel, not NOT fsel as printed
    (see docs/algorithms.md).
    """
    sp1, sp0, n1 = _check_bits(bits, fsel)
    nfsel = 1 - fsel
    inv = (fsel & (1 - sp1) & (1 - n1)) | (fsel & sp1 & sp0 & n1)
    trp = sp0
    shl = (sp1 & (1 - sp0)) | (nfsel & sp1 & (1 - n1)) | (nfsel & (1 - sp1) & sp0 & n1)
    return _digit_from_signals(inv, trp, shl, fsel)


def recoded_multiple(operand: int, digit: Digit, fsel: int) -> int:
    """The PPG/MMG output (Fig. 5) for control signals (inv, trp, shl): digit · operand.

    Integer mode: ±(trp·X + shl·2X), negated when inv (two's complement: inverted bits plus the
    ca/cn bit). Polynomial mode: trp·X ⊕ shl·x·X; eqs. (1)-(2) never assert inv when fsel = 0.
    """
    passed = operand if digit.trp else 0
    shifted = operand << 1 if digit.shl else 0
    if fsel == POLYNOMIAL_MODE:
        return passed ^ shifted
    magnitude = passed + shifted
    return -magnitude if digit.inv else magnitude


def booth_digits(b: int, first: int, count: int, fsel: int) -> list[Digit]:
    """Booth digits number first .. first+count-1 of the whole multiplier B (b ≥ 0).

    Digit t reads bits (2t+1, 2t, 2t-1) of B with b_{-1} = 0, so a row of a multi-word product
    borrows the top bit of the previous word. Integer mode:
    Σ_{t<T} value_t·4^t = B − b_{2T-1}·4^T for every T.
    """
    digits = []
    for t in range(first, first + count):
        low = (b >> (2 * t - 1)) & 1 if t > 0 else 0
        bits = ((b >> (2 * t + 1)) & 1, (b >> (2 * t)) & 1, low)
        digits.append(booth_digit(bits, fsel))
    return digits


def add(x: int, y: int, fsel: int) -> int:
    """The dual-field adder: x + y (fsel = 1), or x ⊕ y with carries disabled (fsel = 0)."""
    return x + y if fsel == INTEGER_MODE else x ^ y


def require_montgomery_modulus(n: int, field: Field) -> None:
    """Raise ModulusError unless n suits Montgomery multiplication in the given field.

    GF(N): n odd and n > 2 (Alg. 3's input 2 < N). GF(2^n): degree ≥ 1 and constant term 1, so
    x is invertible modulo N(x). Irreducibility is not needed by the algorithm (it computes in
    GF(2)[x]/N(x)); checking it is the field layer's job.
    """
    if Field(field) == Field.GFP:
        if n % 2 == 0:
            raise ModulusError(f"modulus must be odd for GF(p) Montgomery multiplication "
                               f"(got an even {n.bit_length()}-bit modulus)")
        if n <= 2:
            raise ModulusError(f"modulus must be an odd integer greater than 2 (got {n})")
        return
    if n < 0 or n.bit_length() < 2:
        raise ModulusError(f"reduction polynomial must have degree at least 1 (got 0x{n:x})")
    if n & 1 == 0:
        raise ModulusError(f"reduction polynomial 0x{n:x} has constant term 0, so x is not "
                           "invertible modulo it: GF(2^m) Montgomery multiplication needs "
                           "N(0) = 1")


def require_operand(x: int, n: int, field: Field, name: str) -> None:
    """Raise ValueError unless x is in the algorithm's input domain.

    GF(N): 0 ≤ x < 2N (Algs. 2-3 accept and return values below 2N). GF(2^n): deg x ≤ deg N,
    the polynomial counterpart (x or x ⊕ N reduced); results always come out with deg < deg N.
    """
    if Field(field) == Field.GFP:
        if not 0 <= x < 2 * n:
            raise ValueError(f"operand {name} must satisfy 0 <= {name} < 2N for a "
                             f"{n.bit_length()}-bit modulus N")
        return
    if x < 0 or x.bit_length() > n.bit_length():
        raise ValueError(f"operand {name} must be a binary polynomial of degree at most "
                         f"deg N = {n.bit_length() - 1}")
