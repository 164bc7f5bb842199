"""The subsets last taken of each frame, kept while the frame is: the same rows kept again (the same search asked
by another client, read back from `text_masks`) are the subset already taken, not a new copy of their text.

Frames are never written in place (one loaded frame serves every run and session at once), so a subset taken of a
frame holds as long as the frame lives. A frame keeps its last KEPT subsets, each found by its mask (as bits).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from react_engine.logs.kept import Kept

KEPT = 2
"""Subsets kept per frame (the least recently used is dropped)."""
_SUBSETS: Kept[pd.DataFrame] = Kept(KEPT)
"""Each frame's subsets, by their mask as bits."""


def kept_subset(frame: pd.DataFrame, keep: np.ndarray, take: Callable[[np.ndarray], pd.DataFrame]) -> pd.DataFrame:
    """`take(positions)`: the rows of `frame` where `keep` holds, taken once for the same frame and mask."""
    bits = np.packbits(keep).tobytes()  # as long as the frame, so no two masks pack alike
    rows = _SUBSETS.get((frame,), bits)
    if rows is None:
        rows = take(np.flatnonzero(keep))
        _SUBSETS.put((frame,), bits, rows)
    return rows
