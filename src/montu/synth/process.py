"""Run a command in a process group of its own, so a timeout stops everything it started.

`subprocess.run(..., timeout=...)` kills only the direct child: a `montu synth` killed that way
leaves its nextpnr running for up to hours. Here the command leads a new session, and a timeout
(or an interrupt of the caller) kills the whole group before the exception goes on.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path


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
