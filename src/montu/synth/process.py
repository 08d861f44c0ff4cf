"""Run a command in a process group of its own, so a timeout stops everything it started.

`subprocess.run(..., timeout=...)` kills only the direct child: a `montu synth` killed that way
leaves its nextpnr running for up to hours. Here the command leads a new session, and a timeout
(or an interrupt of the caller) kills the whole group before the exception goes on.
`sigterm_as_exit` extends "interrupt" to SIGTERM (`kill`, a CI job's cancel), whose default
action would end Python at once and orphan the group.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType


def run_in_group(command: list[str], timeout: float, cwd: Path | str | None = None,
                 input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Like subprocess.run(command, capture_output=True, text=True, timeout=timeout), but the
    command and all its descendants are killed on a timeout (subprocess.TimeoutExpired is raised
    as usual) or when the caller is interrupted."""
    with subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE if input is not None else None,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as proc:
        try:
            out, err = proc.communicate(input=input, timeout=timeout)
        except BaseException:
            _kill_group(proc)
            proc.communicate()
            raise
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def _kill_group(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


class Terminated(SystemExit):
    """SIGTERM arrived while `sigterm_as_exit` was active (exit status 128 + 15)."""

    def __init__(self) -> None:
        super().__init__(128 + signal.SIGTERM)


@contextmanager
def sigterm_as_exit() -> Iterator[None]:
    """Within the block, SIGTERM raises `Terminated` instead of ending the process at once, so
    `run_in_group` kills its command's group on the way out. Main thread only (Python's rule for
    signal handlers); the previous handler is restored afterwards."""

    def _raise(_signum: int, _frame: FrameType | None) -> None:
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, _raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
