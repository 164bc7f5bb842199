"""Values kept per live object: the last few computed from it, each found again by its key, forgotten with it.

A warm process serves every run and session from one loaded frame and its Arrow arrays, which are never written in
place, so what was computed from them (a search's mask, the rows it kept) holds as long as they live.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class _Held(Generic[V]):
    """The values kept for one tuple of owners, held weakly: forgotten with the first."""

    def __init__(self, owners: tuple[object, ...], forget: Any) -> None:
        self.owners = [weakref.ref(owners[0], forget), *(weakref.ref(owner) for owner in owners[1:])]
        self.values: OrderedDict[Hashable, V] = OrderedDict()

    def of(self, owners: tuple[object, ...]) -> bool:
        return len(owners) == len(self.owners) and all(r() is o for r, o in zip(self.owners, owners, strict=True))


class Kept(Generic[V]):
    """The last `limit` values kept per tuple of owners (the least recently used is dropped), by the id of the
    first owner."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held: dict[int, _Held[V]] = {}
        self.lock = threading.Lock()

    def get(self, owners: tuple[object, ...], key: Hashable) -> V | None:
        """The value kept for `owners` under `key`, or None."""
        with self.lock:
            held = self.held.get(id(owners[0]))
            if held is None or not held.of(owners) or key not in held.values:
                return None
            held.values.move_to_end(key)
            return held.values[key]

    def put(self, owners: tuple[object, ...], key: Hashable, value: V) -> None:
        """Keep `value` for `owners` under `key`."""
        with self.lock:
            held = self.held.get(id(owners[0]))
            if held is None or not held.of(owners):
                held = self.held[id(owners[0])] = _Held(owners, functools.partial(_forget, self.held, id(owners[0])))
            held.values[key] = value
            while len(held.values) > self.limit:
                held.values.popitem(last=False)


def _forget(held: dict[int, _Held[Any]], key: int, dead: weakref.ref[Any]) -> None:
    """Called as the first owner dies: without the lock, which the dying object's thread may hold (a collection can
    run in any allocation); its id cannot be taken by another object before it is gone. `held` is bound when the
    owner is first kept: an owner that dies as the interpreter exits outlives the module's names."""
    entry = held.get(key)
    if entry is not None and entry.owners[0] is dead:
        held.pop(key, None)
