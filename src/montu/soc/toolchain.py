"""Make sure the SoC's firmware toolchain is installed (the README's test command runs this).

    python3 -m montu.soc.toolchain           # install what is missing (Debian packages, as root)
    python3 -m montu.soc.toolchain --check   # only say what is missing (exit 1 if anything)

The cross compiler and its C library come from Debian (`gcc-riscv64-unknown-elf`,
`picolibc-riscv64-unknown-elf`); CVA6's sources come from PyPI (`pythondata-cpu-cva6`, in the
test extras).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

DEBIAN_PACKAGES = ("gcc-riscv64-unknown-elf", "picolibc-riscv64-unknown-elf")
PICOLIBC_SPECS = Path("/usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs")


def missing() -> list[str]:
    """The Debian packages the firmware build still needs."""
    out = []
    if shutil.which("riscv64-unknown-elf-gcc") is None:
        out.append("gcc-riscv64-unknown-elf")
    if not PICOLIBC_SPECS.is_file():
        out.append("picolibc-riscv64-unknown-elf")
    return out


def install(packages: list[str]) -> int:
    prefix: list[str] = []
    if os.geteuid() != 0:
        if shutil.which("sudo") is None:
            print(f"montu: error: the SoC firmware needs {' '.join(packages)}; install them as root "
                  f"(apt-get install {' '.join(packages)})", file=sys.stderr)
            return 1
        prefix = ["sudo", "-n"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *packages]):
        done = subprocess.run([*prefix, *command], env=env)
        if done.returncode != 0:
            print(f"montu: error: `{' '.join(command)}` failed (exit {done.returncode})", file=sys.stderr)
            return 1
    return 0 if not missing() else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report what is missing")
    args = parser.parse_args(argv)
    needed = missing()
    if not needed:
        return 0
    if args.check:
        print("missing: " + " ".join(needed))
        return 1
    print(f"montu: installing {' '.join(needed)} (the SoC firmware's cross compiler)", file=sys.stderr)
    return install(needed)


if __name__ == "__main__":
    raise SystemExit(main())
