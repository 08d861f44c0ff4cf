"""The two kinds of field the unit computes in."""

import enum


class Field(enum.IntEnum):
    """GF(p): integers modulo n. GF(2^m): binary polynomials modulo n(x), bit i = coeff of x^i."""

    GFP = 0
    GF2M = 1
