"""The masks of the last searches of each text, kept while the text is: a warm process asked the same search of the
same rows again (the same question from another client, a follow-up's count) reads the mask back instead of
searching every line again.

A text is its columns' Arrow arrays, which never change (a column written in place gets new arrays), so a mask kept
for them holds as long as they live; it is kept as bits (125 kB per million rows), the last KEPT per text.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable

import numpy as np
import pandas as pd
import pyarrow as pa

KEPT = 16
"""Searches whose masks are kept per text (the least recently used is dropped)."""


class _Masks:
    """One text's kept masks (packed bits), and its columns' arrays (weakly: forgotten with the first)."""

    def __init__(self, arrays: tuple[pa.ChunkedArray, ...]) -> None:
        key = id(arrays[0])
        self.arrays = [weakref.ref(arrays[0], lambda dead: _forget(key, dead)),
                       *(weakref.ref(array) for array in arrays[1:])]
        self.found: OrderedDict[Hashable, np.ndarray] = OrderedDict()

    def of(self, arrays: tuple[pa.ChunkedArray, ...]) -> bool:
        return len(arrays) == len(self.arrays) and all(r() is a for r, a in zip(self.arrays, arrays, strict=True))


_KEPT: dict[int, _Masks] = {}
"""By the id of the text's first array."""
_LOCK = threading.Lock()


def _forget(key: int, dead: weakref.ref[pa.ChunkedArray]) -> None:
    """Called as the object dies: without the lock, which the dying object's thread may hold (a collection can
    run in any allocation); its id cannot be taken by another object before it is gone."""
    held = _KEPT.get(key)
    if held is not None and held.arrays[0] is dead:
        _KEPT.pop(key, None)


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
    with _LOCK:
        masks = _KEPT.get(id(arrays[0]))
        packed = masks.found.get(key) if masks is not None and masks.of(arrays) else None
        if packed is not None and masks is not None:
            masks.found.move_to_end(key)
    if packed is not None:
        return np.unpackbits(packed, count=len(arrays[0])).astype(bool)
    found = search()
    with _LOCK:
        masks = _KEPT.get(id(arrays[0]))
        if masks is None or not masks.of(arrays):
            masks = _KEPT[id(arrays[0])] = _Masks(arrays)
        masks.found[key] = np.packbits(found)
        while len(masks.found) > KEPT:
            masks.found.popitem(last=False)
    return found
