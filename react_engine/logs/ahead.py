"""Work over a sequence in threads, a few items ahead of the one taken, the results in order.

Arrow's kernels release the GIL, so a pass over a large column cut into parts runs on every core; only a few parts'
results are held at once (as many as there are cores, and one).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def workers() -> int:
    """Threads to work in: one per core."""
    return os.cpu_count() or 1


def ahead(pool: ThreadPoolExecutor, work: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
    """`work` of each of `items`, in order, computed in `pool`'s threads a few items ahead of the one yielded."""
    pending: deque[Future[R]] = deque()
    for item in items:
        pending.append(pool.submit(work, item))
        if len(pending) > workers():
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def in_order(work: Callable[[T], R], items: list[T]) -> list[R]:
    """`work` of each of `items`, in order: in threads (see `ahead`) when there are several, else in this thread."""
    if len(items) < 2 or workers() < 2:
        return [work(item) for item in items]
    with ThreadPoolExecutor(workers()) as pool:
        return list(ahead(pool, work, items))
