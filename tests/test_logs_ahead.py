"""Parts worked in threads a few ahead: the results in the items' order, an error raised where it is taken."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs import ahead


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 30), max_size=40))
def test_results_come_in_the_items_order_whatever_each_takes(delays: list[int]) -> None:
    def work(delay: int) -> tuple[int, int]:
        time.sleep(delay / 10_000)  # later items may finish first
        return delay, delay * 2

    assert ahead.in_order(work, delays) == [(d, d * 2) for d in delays]


def test_only_a_few_items_are_worked_ahead_of_the_one_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ahead, "workers", lambda: 2)
    started: list[int] = []
    lock = threading.Lock()

    def work(item: int) -> int:
        with lock:
            started.append(item)
        return item

    with ThreadPoolExecutor(2) as pool:
        results = ahead.ahead(pool, work, range(100))
        assert next(results) == 0
        time.sleep(0.05)
        assert len(started) <= 3  # the one taken and two ahead: the rest wait to be asked for
        assert list(results) == list(range(1, 100))


def test_an_error_in_a_part_is_raised_to_the_caller() -> None:
    def work(item: int) -> int:
        if item == 5:
            raise ValueError("part 5")
        return item

    with pytest.raises(ValueError, match="part 5"):
        ahead.in_order(work, list(range(10)))
