"""The exceptions every Montu layer raises, and the input limits the file readers enforce."""

# The largest key and signature files Montu reads. A 16384-bit RSA private key in PEM is about
# 13 KB and an RSA-16384 signature 2 KB, so these stop only junk and wrong files, and they stop
# them before any parsing: the key readers (montu.rsa.encoding, montu.ec.encoding) and the
# CLI's file layer (montu.cli.keyfiles) all refuse larger input at once.
MAX_KEY_BYTES = 1 << 20          # 1 MiB
MAX_SIGNATURE_BYTES = 64 << 10   # 64 KiB


def size_text(size: int) -> str:
    """A byte count as a person writes it: "1 MiB", "64 KiB", "1,000 bytes"."""
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size:,} bytes"


class MontuError(Exception):
    """Base class of every error Montu raises on purpose."""


class NoInverse(MontuError, ArithmeticError):
    """The operand has no inverse modulo the modulus (their gcd is not 1)."""


class ModulusError(MontuError, ValueError):
    """The modulus does not suit the operation (e.g. even for Montgomery, reducible polynomial)."""
