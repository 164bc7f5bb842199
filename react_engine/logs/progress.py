"""A one-line progress indicator for loads that take a while (stderr, terminals only).

Nothing is shown for the first DELAY seconds, so quick loads stay silent; then one line, redrawn in
place, says which file is at which step and for how long, and is erased when the load ends.
"""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType
from typing import TextIO

DELAY = 1.0
TICK = 0.25
_CLEAR = "\r\x1b[K"


class Progress:
    """`with Progress(total) as progress: progress.step(name, size, "parsing")` around a load; `progress.done(0.4)`
    while a step is 40% done."""

    def __init__(self, total: int, *, stream: TextIO | None = None, delay: float = DELAY) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.enabled = self.stream.isatty()
        self.started = time.monotonic()
        self.stage = self.text = ""
        self.shown = False
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._ticker: threading.Thread | None = None

    def __enter__(self) -> Progress:
        if self.enabled:
            self._ticker = threading.Thread(target=self._tick, name="load-progress", daemon=True)
            self._ticker.start()
        return self

    def step(self, index: int, name: str, size: int, what: str) -> None:
        """File `index` (0-based) of `total`, `size` bytes, is now at step `what` (reading, parsing...)."""
        files = f"[{index + 1}/{self.total}] " if self.total > 1 else ""
        self.stage = f"{files}{what} {name} ({size / 1e6:,.0f} MB)" if size else f"{files}{what} {name}"
        self.text = self.stage
        self._draw()

    def done(self, share: float) -> None:
        """How much of the current step is done (0 to 1), shown as a percentage after it."""
        self.text = f"{self.stage} {share:.0%}"
        self._draw()

    def _draw(self) -> None:
        elapsed = time.monotonic() - self.started
        if not self.enabled or not self.text or elapsed < self.delay:
            return
        with self._lock:
            if not self._done.is_set():
                self.stream.write(f"{_CLEAR}{self.text}… {elapsed:.0f}s")
                self.stream.flush()
                self.shown = True

    def _tick(self) -> None:
        while not self._done.wait(TICK):
            self._draw()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        with self._lock:
            self._done.set()
            if self.shown:
                self.stream.write(_CLEAR)
                self.stream.flush()
        if self._ticker is not None:
            self._ticker.join()
