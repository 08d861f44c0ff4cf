"""The RTL backend: the Verilated montu_top driven in-process, behind the simulator's interface.

Importing this package builds nothing; RtlModel() builds (or takes from the cache) the shared
library of its configuration on first use.
"""

from montu.backends.verilator.errors import (RtlAssertionError, RtlBuildError, RtlError,
                                             RtlProtocolError, RtlTimeoutError)
from montu.backends.verilator.model import RtlModel

__all__ = ["RtlAssertionError", "RtlBuildError", "RtlError", "RtlModel", "RtlProtocolError",
           "RtlTimeoutError"]
