"""Loaded frames kept in memory for every session that names the same files: loaded once, reloaded when a file
changes, and the least recently used dropped when they hold more than the memory budget."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from react_engine.errors import InputError
from react_engine.logs.options import LoadOptions
from react_engine.loop.frames import load_logs

Key = tuple[Path, ...]


@dataclass(frozen=True)
class Warm:
    """A loaded frame, the files' state it was loaded from, and its size in memory."""

    frame: pd.DataFrame
    state: tuple[tuple[int, int], ...]
    nbytes: int


def file_state(files: Sequence[Path]) -> tuple[tuple[int, int], ...]:
    """Each file's modification time and size: a change to either reloads it."""
    found = []
    for path in files:
        try:
            info = path.stat()
        except OSError as exc:
            raise InputError(f"{path}: cannot read it ({exc.strerror}); open the session again") from None
        found.append((info.st_mtime_ns, info.st_size))
    return tuple(found)


class WarmFrames:
    """The frames of every set of files named, keyed by the resolved files; thread-safe."""

    def __init__(self, budget_bytes: int, options: LoadOptions | None = None) -> None:
        self.budget = budget_bytes
        self.options = options or LoadOptions()
        self._frames: OrderedDict[Key, Warm] = OrderedDict()
        self._lock = threading.Lock()
        self._loading: dict[Key, threading.Lock] = {}
        self.loads = 0

    def get(self, files: Key) -> pd.DataFrame:
        """The frame of `files`: the kept one while the files are unchanged, else loaded (once, however many
        callers ask at the same time); InputError when they cannot be loaded."""
        with self._lock:
            loading = self._loading.setdefault(files, threading.Lock())
        with loading:
            state = file_state(files)
            with self._lock:
                kept = self._frames.get(files)
                if kept is not None and kept.state == state:
                    self._frames.move_to_end(files)
                    return kept.frame
            frame = load_logs(files, self.options)
            warm = Warm(frame, state, int(frame.memory_usage(deep=True).sum()))
            with self._lock:
                self.loads += 1
                self._frames[files] = warm
                self._frames.move_to_end(files)
                self._evict()
            return frame

    def _evict(self) -> None:
        """Drop the least recently used frames while the kept ones hold more than the budget (the newest stays)."""
        while len(self._frames) > 1 and sum(w.nbytes for w in self._frames.values()) > self.budget:
            self._frames.popitem(last=False)

    def held(self) -> int:
        """Bytes the kept frames hold."""
        with self._lock:
            return sum(w.nbytes for w in self._frames.values())

    def __len__(self) -> int:
        return len(self._frames)
