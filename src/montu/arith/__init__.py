"""Golden models: pure, bit-accurate Python versions of every algorithm in the papers.

Each model follows its paper step by step (digits, words, recodings, loop bounds) and returns
its result together with the step/cycle counts the paper defines. The plain formulas
(``x*y*pow(R, -1, n)``) are only the oracle the tests compare against.
"""

from montu.arith.field import Field
from montu.arith.stats import Stats

__all__ = ["Field", "Stats"]
