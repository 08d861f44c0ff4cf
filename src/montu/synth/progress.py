"""A progress display for long runs: one line per step, with a live elapsed-time ticker when
the output is a terminal (each synthesis run takes minutes)."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO


class Progress:
    """`with Progress(total) as p: p.start(i, label); p.step("yosys"); ...; p.done("…")`."""

    def __init__(self, total: int, stream: TextIO | None = None, tick: float = 1.0) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.live = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.tick = tick
        self._label = ""
        self._step = ""
        self._t0 = self._t_step = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> "Progress":
        self._t0 = time.monotonic()
        if self.live:
            self._thread = threading.Thread(target=self._ticker, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._clear()

    def start(self, index: int, label: str) -> None:
        with self._lock:
            self._label = f"[{index}/{self.total}] {label}"
            self._step = ""
            self._t_step = time.monotonic()

    def step(self, name: str) -> None:
        with self._lock:
            now = time.monotonic()
            if self._step:
                self._print(f"{self._label}: {self._step} done in {now - self._t_step:.0f} s")
            self._step, self._t_step = name, now
            self._print(f"{self._label}: {name} …")

    def done(self, summary: str) -> None:
        with self._lock:
            now = time.monotonic()
            if self._step:
                self._print(f"{self._label}: {self._step} done in {now - self._t_step:.0f} s")
            self._step = ""
            self._print(f"{self._label}: {summary} (total elapsed {now - self._t0:.0f} s)")

    def _print(self, line: str) -> None:
        self._clear()
        print(line, file=self.stream, flush=True)

    def _clear(self) -> None:
        if self.live:
            print("\r\033[K", end="", file=self.stream, flush=True)

    def _ticker(self) -> None:
        while not self._stop.wait(self.tick):
            with self._lock:
                if self._step:
                    now = time.monotonic()
                    print(f"\r\033[K{self._label}: {self._step} … {now - self._t_step:.0f} s "
                          f"(elapsed {now - self._t0:.0f} s)", end="", file=self.stream, flush=True)
