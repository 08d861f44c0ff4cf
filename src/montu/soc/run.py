"""Run a program on the simulated Montu SoC and collect its output, exit code and cycle count."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from montu.errors import MontuError
from montu.soc import build as soc_build
from montu.soc import firmware

_SUMMARY = re.compile(r"montu-soc: (?:exit=(-?\d+)|timeout) cycles=(\d+)")
DEFAULT_MAX_CYCLES = 500_000_000
CVA6_TRACE_FILE = "trace_hart_00.dasm"


class SocRunError(MontuError):
    """The simulation did not end with the program's exit (timeout, crash of the model)."""


@dataclass(frozen=True)
class SocRun:
    exit_code: int
    cycles: int          # SoC clock cycles from reset to the exit register write
    output: str          # everything the program printed


def compile_c(sources: Sequence[Path], *, extra_flags: Sequence[str] = ()) -> Path:
    """The ELF of C `sources` with the firmware library, cached by content."""
    key = firmware.digest(sources, extra_flags)
    directory = soc_build.cache_root() / "firmware"
    elf = directory / f"{Path(sources[-1]).stem}-{key}.elf"
    if not elf.is_file():
        firmware.compile_program(sources, elf.with_suffix(".tmp"), extra_flags=extra_flags)
        elf.with_suffix(".tmp").rename(elf)
    return elf


def run_elf(elf: Path, *, max_cycles: int = DEFAULT_MAX_CYCLES,
            on_output: Callable[[str], None] | None = None,
            config: soc_build.SocConfig = soc_build.SocConfig(),
            progress: Callable[[str], None] | None = None) -> SocRun:
    """Run `elf` on the SoC; `on_output` gets each line the program prints as it prints it."""
    executable = soc_build.build(config, progress=progress).executable
    with tempfile.TemporaryDirectory(prefix="montu-soc-") as tmp:
        hex_file = firmware.image(elf, Path(tmp) / "firmware.hex")
        # CVA6's Verilator-only tracer writes a line per retired instruction to this file in the
        # working directory: send it to /dev/null (CVA6 has no switch for it).
        (Path(tmp) / CVA6_TRACE_FILE).symlink_to(os.devnull)
        process = subprocess.Popen(
            [str(executable), f"+firmware={hex_file}", f"+max_cycles={max_cycles}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", cwd=tmp)
        lines: list[str] = []
        assert process.stdout is not None and process.stderr is not None
        for line in process.stdout:
            lines.append(line)
            if on_output:
                on_output(line.rstrip("\n"))
        diagnostics = process.stderr.read()
        status = process.wait()
    summary = _SUMMARY.search(diagnostics)
    if summary is None:
        raise SocRunError(f"the SoC model ended without a summary (status {status}):\n"
                          f"{diagnostics.strip()[-2000:]}")
    if summary.group(1) is None:
        raise SocRunError(f"{elf.name} did not exit within {max_cycles:,} cycles")
    return SocRun(int(summary.group(1)), int(summary.group(2)), "".join(lines))


def run_c(sources: Sequence[Path], **kwargs) -> SocRun:
    return run_elf(compile_c(sources), **kwargs)


def run_source(name: str, source: str, **kwargs) -> SocRun:
    """Compile the C text `source` (saved as `name`, the ELF's name) and run it (run_elf's
    keyword arguments)."""
    with tempfile.TemporaryDirectory(prefix="montu-soc-src-") as tmp:
        path = Path(tmp) / name
        path.write_text(source)
        return run_c([path], **kwargs)
