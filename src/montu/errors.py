"""The exceptions every Montu layer raises."""


class MontuError(Exception):
    """Base class of every error Montu raises on purpose."""


class NoInverse(MontuError, ArithmeticError):
    """The operand has no inverse modulo the modulus (their gcd is not 1)."""


class ModulusError(MontuError, ValueError):
    """The modulus does not suit the operation (e.g. even for Montgomery, reducible polynomial)."""
