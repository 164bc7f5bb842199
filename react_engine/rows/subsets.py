"""The subsets last taken of each frame, kept while the frame is: the same rows kept again (the same search asked
by another client, read back from `text_masks`) are the subset already taken, not a new copy of their text.

Frames are never written in place (one loaded frame serves every run and session at once), so a subset taken of a
frame holds as long as the frame lives. A frame keeps its last KEPT subsets, each found by its mask (as bits).
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable

import numpy as np
import pandas as pd

KEPT = 2
"""Subsets kept per frame (the least recently used is dropped)."""


class _Subsets:
    """One frame's kept subsets (by mask), and the frame (weakly: forgotten with it)."""

    def __init__(self, frame: pd.DataFrame) -> None:
        key = id(frame)
        self.frame = weakref.ref(frame, functools.partial(_forget, _KEPT, key))
        self.taken: list[tuple[bytes, pd.DataFrame]] = []


_KEPT: dict[int, _Subsets] = {}
"""By the id of the frame."""
_LOCK = threading.Lock()


def _forget(kept: dict[int, _Subsets], key: int, dead: weakref.ref[pd.DataFrame]) -> None:
    """Called as the object dies: without the lock, which the dying object's thread may hold (a collection can
    run in any allocation); its id cannot be taken by another object before it is gone. `kept` is `_KEPT`, bound
    when the frame is first kept: a frame that dies as the interpreter exits outlives the module's names."""
    held = kept.get(key)
    if held is not None and held.frame is dead:
        kept.pop(key, None)


def kept_subset(frame: pd.DataFrame, keep: np.ndarray, take: Callable[[np.ndarray], pd.DataFrame]) -> pd.DataFrame:
    """`take(positions)`: the rows of `frame` where `keep` holds, taken once for the same frame and mask."""
    bits = np.packbits(keep).tobytes()  # as long as the frame, so no two masks pack alike
    with _LOCK:
        subsets = _KEPT.get(id(frame))
        if subsets is not None and subsets.frame() is frame:
            for n, (mask, rows) in enumerate(subsets.taken):
                if mask == bits:
                    subsets.taken.append(subsets.taken.pop(n))
                    return rows
    rows = take(np.flatnonzero(keep))
    with _LOCK:
        subsets = _KEPT.get(id(frame))
        if subsets is None or subsets.frame() is not frame:
            subsets = _KEPT[id(frame)] = _Subsets(frame)
        subsets.taken = [*subsets.taken, (bits, rows)][-KEPT:]
    return rows
