"""Build the Verilated Montu SoC (CVA6 + CV-X-IF adapter + Montu unit) into an executable, once.

The executable is keyed by every input that changes it: the contents of the SoC core's files
(`montu:soc:montu_soc` and the unit's core it depends on), the CVA6 files from the installed
`pythondata-cpu-cva6`, the C++ harness, the SoC parameters, the Verilator flags and the
Verilator and C++ compiler versions. It lives in `$MONTU_CACHE_DIR/soc/<key>/` (default
`~/.cache/montu/soc/<key>/`); a file lock lets one process build a key while the others wait.
Building takes about a minute and a half on two cores (CVA6 is most of it).
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from montu import hw
from montu.backends.verilator.build import (MAKE_FLAGS, _tool_version, _verilator_version,
                                            cache_root as rtl_cache_root, cached_build,
                                            find_verilator)
from montu.errors import MontuError
from montu.soc import cva6

SOC_CORE = "montu:soc:montu_soc"
TOP_MODULE = "montu_soc_top"
EXECUTABLE = "Vmontu_soc_top"
CVA6_CONFIG = "cva6_config_pkg.sv"
# RVFI_TRACE/RVFI_MEM: CVA6's retirement port with operand values, which the adapter takes its
# commands from (hw/soc/rtl/montu_cvxif.sv explains why).
DEFINES = ("RVFI_TRACE", "RVFI_MEM")
VERILATOR_FLAGS = (
    "--cc", "--exe", "--build",
    "-O3", "--x-assign", "fast", "--x-initial", "fast",
    "-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-MULTIDRIVEN", "-Wno-UNOPTFLAT",
    "--assert",
    # cocotb's default --public-flat-rw makes CVA6 ~28x slower; nothing here peeks inside
    "--public-depth", "1",
)


class SocBuildError(MontuError):
    """The SoC model could not be built (the message holds the tool's last lines)."""


@dataclass(frozen=True)
class SocConfig:
    """SoC parameters (montu_soc_top's -G overrides)."""

    mem_bytes: int = 8 * 1024 * 1024
    lanes: int = 2
    max_bits: int = 4096

    def __post_init__(self) -> None:
        from montu.config import UnitConfig   # one set of rules for the unit's parameters
        UnitConfig(word_bits=64, lanes=self.lanes, max_bits=self.max_bits)
        if self.mem_bytes < 64 * 1024 or self.mem_bytes & (self.mem_bytes - 1):
            raise SocBuildError(f"mem_bytes must be a power of two >= 64 KiB, not {self.mem_bytes}")

    @property
    def generics(self) -> dict[str, int]:
        return {"MemBytes": self.mem_bytes, "Lanes": self.lanes, "MaxBits": self.max_bits}


@dataclass(frozen=True)
class SocBuild:
    executable: Path
    key: str
    built: bool
    seconds: float


def harness_file() -> Path:
    return hw.core_dir(SOC_CORE) / "dv" / "soc_main.cpp"


def cache_root() -> Path:
    return rtl_cache_root().parent / "soc"


def source_files() -> tuple[list[Path], list[Path], tuple[str, ...]]:
    """(files in compilation order, include directories, defines): our CVA6 configuration, CVA6
    from the package, then the SoC core's files (the unit's first)."""
    try:
        ours = hw.sources(SOC_CORE)
    except hw.CoreError as exc:
        raise SocBuildError(str(exc)) from None
    core = cva6.sources()
    config = [p for p in ours if p.name == CVA6_CONFIG]
    if len(config) != 1:
        raise SocBuildError(f"{SOC_CORE} must list {CVA6_CONFIG} once")
    rest = [p for p in ours if p.name != CVA6_CONFIG]
    return [*config, *core.files, *rest], list(core.include_dirs), (*core.defines, *DEFINES)


def _key(config: SocConfig, files: list[Path], includes: list[Path], defines: tuple[str, ...],
         tools: str) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for directory in includes:
        for header in sorted(directory.glob("*.svh")):
            digest.update(header.name.encode() + b"\0" + header.read_bytes() + b"\0")
    digest.update(harness_file().read_bytes())
    digest.update(json.dumps({"config": asdict(config), "defines": defines,
                              "flags": VERILATOR_FLAGS, "make": MAKE_FLAGS, "tools": tools},
                             sort_keys=True).encode())
    return digest.hexdigest()[:24]


@functools.cache
def _tool_versions(verilator: str, cxx: str) -> str:
    """Verilator's and the C++ compiler's versions (part of the key), asked once per process:
    every program run checks the cache."""
    _, env = find_verilator()
    return (_verilator_version(Path(verilator), env) + "\n"
            + _tool_version([cxx, "--version"]).splitlines()[0])


def build(config: SocConfig = SocConfig(), *, jobs: int = 2, force: bool = False,
          progress: Callable[[str], None] | None = None) -> SocBuild:
    """The SoC executable for `config`, built if the cache does not have it."""
    start = time.monotonic()
    files, includes, defines = source_files()
    verilator, env = find_verilator()
    tools = _tool_versions(str(verilator), env.get("CXX", "g++"))
    key = _key(config, files, includes, defines, tools)
    root = cache_root()

    def make(staging: Path) -> None:
        if progress:
            progress("building the SoC model (CVA6 + Montu, Verilator; about a minute, once)")
        command = [
            str(verilator), *VERILATOR_FLAGS, "-j", str(jobs),
            "--top-module", TOP_MODULE, "--Mdir", str(staging / "obj"), "-o", f"../{EXECUTABLE}",
            *[f"-G{name}={value}" for name, value in config.generics.items()],
            *[f"+define+{d}" for d in defines],
            *[f"+incdir+{d}" for d in includes],
            "-CFLAGS", "-O2",
            *[str(p) for p in files], str(harness_file()),
        ]
        log_path = staging / "build.log"
        with open(log_path, "w") as log:
            log.write("$ " + " ".join(command) + "\n")
            log.flush()
            done = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT,
                                  env={**env, "MAKEFLAGS": MAKE_FLAGS}, cwd=staging)
        if done.returncode != 0 or not (staging / EXECUTABLE).is_file():
            shutil.copy(log_path, root / f"{key}.failed.log")
            tail = "\n".join([line for line in log_path.read_text(errors="replace").splitlines()
                              if not line.startswith("$ ")][-30:])
            raise SocBuildError(f"building the SoC model failed (exit status {done.returncode}):\n"
                                f"{tail}\n(full log: {root / (key + '.failed.log')})")
        shutil.rmtree(staging / "obj", ignore_errors=True)
        (staging / "config.json").write_text(json.dumps(
            {"config": asdict(config), "cva6": cva6.sources().version,
             "seconds": round(time.monotonic() - start, 1)}, indent=2) + "\n")

    executable, built = cached_build(root, key, EXECUTABLE, make, force=force)
    return SocBuild(executable, key, built, time.monotonic() - start)


def lint_warnings() -> list[str]:
    """`verilator --lint-only -Wall` of the SoC: the warnings in Montu's own files (CVA6's, from
    the pip package, are third-party code and not listed). The waiver files are the lint targets'
    of the unit's core and the SoC's."""
    files, includes, defines = source_files()
    verilator, env = find_verilator()
    waivers = [*hw.waivers(hw.UNIT_CORE), *hw.waivers(SOC_CORE)]
    command = [str(verilator), "--lint-only", "-Wall", "-Wno-fatal", "--top-module", TOP_MODULE,
               *map(str, waivers), *[f"+define+{d}" for d in defines],
               *[f"+incdir+{d}" for d in includes], *map(str, files)]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    root = str(cva6.package_root()[0])
    return [line for line in (done.stdout + done.stderr).splitlines()
            if line.startswith("%") and root not in line]
