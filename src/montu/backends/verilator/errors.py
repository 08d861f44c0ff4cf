"""The exceptions of the RTL backend."""

from montu.errors import MontuError


class RtlError(MontuError):
    """The Verilated unit misbehaved or could not be driven."""


class RtlBuildError(RtlError):
    """Verilator is missing, or verilating/compiling the RTL failed."""


class RtlTimeoutError(RtlError):
    """The unit did not accept a command, or did not respond, within the cycle budget."""


class RtlProtocolError(RtlError):
    """The unit broke the command/response contract (cycle count disagreement, stray response)."""


class RtlAssertionError(RtlError):
    """The RTL executed $stop or $fatal (a failed assertion) or $finish."""
