"""The masks of the last searches of each text, kept while the text is: a warm process asked the same search of the
same rows again (the same question from another client, a follow-up's count) reads the mask back instead of
searching every line again.

A text is its columns' Arrow arrays, which never change (a column written in place gets new arrays), so a mask kept
for them holds as long as they live; it is kept as bits (125 kB per million rows), the last KEPT per text.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import numpy as np
import pandas as pd
import pyarrow as pa

from react_engine.logs.kept import Kept

KEPT = 16
"""Searches whose masks are kept per text (the least recently used is dropped)."""
_MASKS: Kept[np.ndarray] = Kept(KEPT)
"""Each text's masks as bits, by its columns' arrays."""


def _arrays(columns: list[pd.Series]) -> tuple[pa.ChunkedArray, ...] | None:
    """The columns' Arrow arrays, when every one is held by Arrow (else nothing is kept for them)."""
    arrays = tuple(getattr(column.array, "__arrow_array__", lambda: None)() for column in columns)
    return arrays if all(isinstance(a, pa.ChunkedArray) for a in arrays) else None


def kept_mask(columns: list[pd.Series], key: Hashable, search: Callable[[], np.ndarray]) -> np.ndarray:
    """`search()`, the mask of the text in `columns` that the search named `key` gives: kept for the next time it
    is asked of the same columns' arrays."""
    arrays = _arrays(columns)
    if arrays is None:
        return search()
    packed = _MASKS.get(arrays, key)
    if packed is not None:
        return np.unpackbits(packed, count=len(arrays[0])).astype(bool)
    found = search()
    _MASKS.put(arrays, key, np.packbits(found))
    return found
