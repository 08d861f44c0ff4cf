"""The hardware tree's file lists, from its FuseSoC cores: the ONE source of which files make an IP.

    from montu import hw
    hw.sources("montu:ip:montu")                # [Path(.../montu_pkg.sv), ..., montu_top.sv]
    hw.sources("montu:ip:montu", target="lint")  # with the Verilator waiver file
    hw.toplevel("montu:ip:montu_inv")            # "montu_inv"

The Verilator backend, lint, the cocotb runners and `montu synth` call these; nothing globs rtl
directories or keeps a list of its own. The cores are resolved with FuseSoC's own library code
(the `fusesoc` package from PyPI), dependencies first, exactly as `fusesoc run` would order them.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path

from montu.errors import MontuError
from montu.paths import hw_root

UNIT_CORE = "montu:ip:montu"          # the Montu unit (montu_top)
# The unit and each of its engines on its own, by top module (montu synth --top, the benches).
CORE_OF_TOP = {"montu_top": UNIT_CORE, "montu_mont": "montu:ip:montu_mont",
               "montu_inv": "montu:ip:montu_inv", "montu_wordop": "montu:ip:montu_wordop",
               "cilardo_mont": "montu:ip:cilardo"}

# File types a core may list, and what the tools do with them.
HDL_TYPES = ("systemVerilogSource", "verilogSource")
WAIVER_TYPES = ("vlt",)


class CoreError(MontuError):
    """A FuseSoC core that is missing, or a target it does not have."""


@dataclass(frozen=True)
class SourceFile:
    path: Path
    file_type: str
    core: str


@functools.cache
def _manager(root: Path):
    try:
        from fusesoc.config import Config
        from fusesoc.coremanager import CoreManager
        from fusesoc.librarymanager import Library
    except ImportError:
        raise CoreError("the hardware file lists come from FuseSoC cores: pip install fusesoc") from None
    logging.getLogger("fusesoc").setLevel(logging.WARNING)
    manager = CoreManager(Config())
    manager.add_library(Library("montu", str(root)), [])
    return manager


def _flags(target: str, tool: str) -> dict[str, object]:
    return {"target": target, "tool": tool, "is_toplevel": True}


@functools.cache
def files(vlnv: str, target: str = "default", tool: str = "verilator",
          root: Path | None = None) -> tuple[SourceFile, ...]:
    """Every file of core `vlnv`'s `target` and of the cores it depends on, dependencies first."""
    from fusesoc.vlnv import Vlnv

    root = root or hw_root()
    manager = _manager(root)
    flags = _flags(target, tool)
    try:
        top = manager.get_core(Vlnv(vlnv))
        depends = manager.get_depends(top.name, flags)
    except Exception as exc:  # FuseSoC raises its own exception types (and RuntimeError)
        raise CoreError(f"cannot resolve FuseSoC core {vlnv!r} under {root}: {exc}") from None
    out: list[SourceFile] = []
    for core in depends:
        core_flags = dict(flags, is_toplevel=core.name == top.name)
        for entry in core.get_files(core_flags):
            out.append(SourceFile(Path(core.core_root) / entry["name"], entry.get("file_type", ""),
                                  str(core.name)))
    return tuple(out)


def sources(vlnv: str, target: str = "default", tool: str = "verilator") -> list[Path]:
    """The HDL sources of `vlnv` in compilation order (packages first, as the cores list them)."""
    return [f.path for f in files(vlnv, target, tool) if f.file_type in HDL_TYPES]


def waivers(vlnv: str, target: str = "lint", tool: str = "verilator") -> list[Path]:
    """The Verilator configuration (waiver) files the target lists."""
    return [f.path for f in files(vlnv, target, tool) if f.file_type in WAIVER_TYPES]


def toplevel(vlnv: str, target: str = "default") -> str:
    """The top module of the core's target."""
    from fusesoc.vlnv import Vlnv

    core = _manager(hw_root()).get_core(Vlnv(vlnv))
    return str(core.get_toplevel(_flags(target, "verilator")))


def core_names() -> list[str]:
    """Every core under the hardware tree (as `fusesoc --cores-root hw core list` shows them)."""
    return sorted(str(core.name) for core in _manager(hw_root()).get_cores().values())


def core_dir(vlnv: str) -> Path:
    """The folder of core `vlnv`'s .core file."""
    from fusesoc.vlnv import Vlnv

    return Path(_manager(hw_root()).get_core(Vlnv(vlnv)).core_root)


def dv_dir(vlnv: str) -> Path:
    """Where the core's cocotb benches live: dv/ beside its .core file."""
    return core_dir(vlnv) / "dv"
