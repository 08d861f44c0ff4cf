"""run_in_group: a timeout stops the command and everything it started."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from montu.synth.process import run_in_group


def _alive(pid: int) -> bool:
    """Whether pid still runs. Linux: its /proc state, where a killed child not yet reaped
    (a zombie) counts as gone. Elsewhere: signal 0, where orphans are reaped by init."""
    status = Path(f"/proc/{pid}/status")
    if Path("/proc/self/status").is_file():
        try:
            state = next(line for line in status.read_text().splitlines() if line.startswith("State:"))
        except (FileNotFoundError, ProcessLookupError):
            return False
        return " Z " not in state and "zombie" not in state
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_timeout_kills_the_grandchild_too(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    # the shell starts a grandchild that would outlive a plain subprocess.run timeout
    script = f"sleep 120 & echo $! > {pid_file}; wait"
    with pytest.raises(subprocess.TimeoutExpired):
        run_in_group(["sh", "-c", script], timeout=2)
    grandchild = int(pid_file.read_text())
    for _ in range(50):
        if not _alive(grandchild):
            break
        time.sleep(0.1)
    assert not _alive(grandchild), f"pid {grandchild} survived the timeout"


def test_sigterm_to_the_caller_kills_the_grandchild_and_exits_143(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    caller = (
        "from montu.synth.process import run_in_group, sigterm_as_exit\n"
        "with sigterm_as_exit():\n"
        f"    run_in_group(['sh', '-c', 'sleep 120 & echo $! > {pid_file}; wait'], timeout=100)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", caller])
    for _ in range(1200):       # up to 60 s: the caller imports montu first (slow when loaded)
        if pid_file.is_file() and pid_file.read_text().strip():
            break
        time.sleep(0.05)
    grandchild = int(pid_file.read_text())
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    # up to 30 s: on a loaded 2-core machine (the full suite) the reaping can take a while
    for _ in range(300):
        if not _alive(grandchild):
            break
        time.sleep(0.1)
    assert not _alive(grandchild), f"pid {grandchild} survived the SIGTERM of its caller"


def test_the_previous_sigterm_handler_comes_back() -> None:
    from montu.synth.process import sigterm_as_exit

    before = signal.getsignal(signal.SIGTERM)
    with sigterm_as_exit():
        assert signal.getsignal(signal.SIGTERM) is not before
    assert signal.getsignal(signal.SIGTERM) is before


def test_output_and_status_come_back_as_from_subprocess_run() -> None:
    done = run_in_group(["sh", "-c", "read x; echo out $x; echo err >&2; exit 3"], timeout=30,
                        input="in\n")
    assert (done.returncode, done.stdout, done.stderr) == (3, "out in\n", "err\n")
