"""Where the CVA6 core's sources are: the `pythondata-cpu-cva6` package, never a copy in this tree.

The package ships CVA6's own file list for the RV64 configuration (`core/Flist.cv64a6_imafdc_sv39`).
Montu's SoC takes that list as it is, with three changes: its own configuration package instead
of the package's (`hw/soc/rtl/cva6_config_pkg.sv`: FPU off, CV-X-IF on; the FPU's div/sqrt
sources are missing from the package), no FPU sources (nothing instantiates them with the FPU
off) and no `cvxif_example` coprocessor (Montu's adapter takes its place).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from montu.errors import MontuError

FILE_LIST = "core/Flist.cv64a6_imafdc_sv39"
# Entries of the package's list that the SoC replaces or does not need.
_DROPPED = (
    re.compile(r"core/include/cv64a6_imafdc_sv39_config_pkg\.sv$"),   # ours: cva6_config_pkg.sv
    re.compile(r"core/fpu/"),                                          # FPU off
    re.compile(r"core/cvxif_example/cvxif_example_coprocessor\.sv$"),   # replaced by montu_cvxif
    re.compile(r"core/cvxif_example/instr_decoder\.sv$"),
)
# The FPU package stays: ariane_pkg and the FPU wrapper's ports name its types.
_KEPT = (re.compile(r"core/fpu/src/fpnew_pkg\.sv$"),)


class Cva6Error(MontuError):
    """The CVA6 package is missing or its file list is not what the SoC expects."""


@dataclass(frozen=True)
class Cva6Sources:
    root: Path                 # the package's system_verilog directory
    files: tuple[Path, ...]    # in compilation order
    include_dirs: tuple[Path, ...]
    defines: tuple[str, ...]   # +define+ entries of the list (e.g. WT_DCACHE)
    version: str


def package_root() -> tuple[Path, str]:
    try:
        import pythondata_cpu_cva6 as package
    except ImportError:
        raise Cva6Error("the SoC needs the CVA6 sources: pip install pythondata-cpu-cva6") from None
    return Path(package.data_location), str(package.version_str)


def sources() -> Cva6Sources:
    """The CVA6 files the SoC compiles, from the installed package's own file list."""
    root, version = package_root()
    listing = root / FILE_LIST
    if not listing.is_file():
        raise Cva6Error(f"pythondata-cpu-cva6 {version}: no {FILE_LIST} under {root}")
    files: list[Path] = []
    includes: list[Path] = []
    defines: list[str] = []
    for raw in listing.read_text().splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        line = line.replace("${CVA6_REPO_DIR}", str(root))
        if line.startswith("+incdir+"):
            includes.append(Path(line[len("+incdir+"):]))
        elif line.startswith("+define+"):
            defines.append(line[len("+define+"):])
        elif line.startswith("+"):
            continue
        else:
            relative = Path(line).relative_to(root).as_posix()
            if any(p.search(relative) for p in _DROPPED) and not any(p.search(relative) for p in _KEPT):
                continue
            path = Path(line)
            if not path.is_file():
                raise Cva6Error(f"pythondata-cpu-cva6 {version}: {relative} is listed but missing")
            files.append(path)
    return Cva6Sources(root, tuple(files), tuple(includes), tuple(defines), version)
