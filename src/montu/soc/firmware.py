"""Compile firmware for the Montu SoC: C sources + the firmware library -> ELF -> memory image.

The cross compiler is Debian's `gcc-riscv64-unknown-elf` with `picolibc-riscv64-unknown-elf`
(picolibc's "hosted" crt0: main's return value is the exit code). The image is the hex file of
64-bit words that `soc_mem` loads at 0x8000_0000 (`+firmware=FILE`).
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from montu.errors import MontuError
from montu.paths import repo_root

CC = "riscv64-unknown-elf-gcc"
OBJCOPY = "riscv64-unknown-elf-objcopy"
RAM_BASE = 0x8000_0000
# Code and constants in the first half of the RAM, data, heap and stack in the second.
LAYOUT = {"__flash": RAM_BASE, "__flash_size": 0x40_0000,
          "__ram": RAM_BASE + 0x40_0000, "__ram_size": 0x40_0000, "__stack_size": 0x1_0000}
ARCH_FLAGS = ("-march=rv64imac", "-misa-spec=2.2", "-mabi=lp64", "-mcmodel=medany")
C_FLAGS = ("-O2", "-g", "-std=c11", "-Wall", "-Wextra", "-Werror", "-ffunction-sections",
           "-fdata-sections")
LINK_FLAGS = ("--specs=picolibc.specs", "--crt0=hosted", "-Wl,--gc-sections",
              *[f"-Wl,--defsym={name}={value:#x}" for name, value in LAYOUT.items()])


class FirmwareError(MontuError):
    """The firmware could not be compiled (the message holds the compiler's output)."""


def firmware_root() -> Path:
    return repo_root() / "fw"


def include_dir() -> Path:
    return firmware_root() / "include"


def library_sources() -> list[Path]:
    return sorted((firmware_root() / "lib").glob("*.c"))


def error_code(name: str) -> int:
    """An error code of the firmware library (`#define NAME code` in one of its headers: the
    headers are the one source of the numbers)."""
    for header in sorted(include_dir().glob("*.h")):
        match = re.search(rf"^#define {name} (\d+)", header.read_text(), re.M)
        if match:
            return int(match.group(1))
    raise MontuError(f"no fw/include header defines {name}")


def check_toolchain() -> None:
    for tool in (CC, OBJCOPY):
        if shutil.which(tool) is None:
            raise FirmwareError(f"{tool} is missing: apt-get install gcc-riscv64-unknown-elf "
                                "picolibc-riscv64-unknown-elf (the README's test command does this)")


def compile_program(sources: Sequence[Path], output: Path, *, extra_flags: Sequence[str] = ()) -> Path:
    """Compile `sources` with the firmware library into the ELF `output`."""
    check_toolchain()
    output.parent.mkdir(parents=True, exist_ok=True)
    command = [CC, *ARCH_FLAGS, *C_FLAGS, *extra_flags, f"-I{include_dir()}",
               *[str(p) for p in [*library_sources(), *sources]], *LINK_FLAGS, "-o", str(output)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise FirmwareError(f"compiling {', '.join(p.name for p in sources)} failed:\n"
                            f"{(done.stdout + done.stderr).strip()}")
    return output


def image(elf: Path, output: Path) -> Path:
    """The memory image of `elf`: one 64-bit little-endian word per line, from 0x8000_0000."""
    check_toolchain()
    binary = output.with_suffix(".bin")
    done = subprocess.run([OBJCOPY, "-O", "binary", str(elf), str(binary)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise FirmwareError(f"objcopy {elf.name} failed: {done.stderr.strip()}")
    data = binary.read_bytes()
    binary.unlink()
    if len(data) > LAYOUT["__flash_size"] + LAYOUT["__ram_size"]:
        raise FirmwareError(f"{elf.name}: image of {len(data)} bytes does not fit the SoC's RAM")
    data += bytes(-len(data) % 8)
    words = [int.from_bytes(data[i:i + 8], "little") for i in range(0, len(data), 8)]
    output.write_text("".join(f"{w:016x}\n" for w in words))
    return output


def digest(paths: Sequence[Path], flags: Sequence[str] = ()) -> str:
    """A key for a firmware build: its sources, the library, the headers and the flags."""
    h = hashlib.sha256()
    headers = [*sorted(include_dir().glob("*.h")), *sorted((firmware_root() / "lib").glob("*.h"))]
    for path in [*headers, *library_sources(), *paths]:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    h.update("\0".join([*ARCH_FLAGS, *C_FLAGS, *LINK_FLAGS, *flags]).encode())
    return h.hexdigest()[:20]
