"""The same rows kept again of the same frame are the subset already taken; another mask or frame takes anew."""

from __future__ import annotations

import gc

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.rows import subsets
from react_engine.rows.rowops import select


def _frame(n: int) -> pd.DataFrame:
    return pd.DataFrame({"message": pd.array([f"line {i}" for i in range(n)], dtype="str"),
                         "line": np.arange(1, n + 1)})


def test_the_same_mask_of_the_same_frame_is_taken_once() -> None:
    frame, taken = _frame(10), []
    keep = np.arange(10) % 3 == 0

    def take(positions: np.ndarray) -> pd.DataFrame:
        taken.append(positions)
        return frame.take(positions)

    first = subsets.kept_subset(frame, keep, take)
    again = subsets.kept_subset(frame, keep.copy(), take)
    assert again is first and len(taken) == 1
    other = subsets.kept_subset(frame, ~keep, take)
    assert other["line"].tolist() == [2, 3, 5, 6, 8, 9] and len(taken) == 2
    assert subsets.kept_subset(_frame(10), keep, lambda p: _frame(10).take(p)) is not first  # another frame


def test_a_frame_keeps_its_last_subsets_and_forgets_them_with_it() -> None:
    frame = _frame(20)
    masks = [np.arange(20) % (n + 2) == 0 for n in range(subsets.KEPT + 1)]
    kept = [select(frame, m) for m in masks]
    assert select(frame, masks[-1]) is kept[-1]
    assert select(frame, masks[0]) is not kept[0]  # the least recently used was dropped
    entry = subsets._SUBSETS.held[id(frame)]
    del frame, kept
    gc.collect()
    assert all(held is not entry for held in subsets._SUBSETS.held.values())  # other tests' frames may go too


@given(bits=st.lists(st.booleans(), min_size=1, max_size=40), again=st.lists(st.integers(0, 3), max_size=6))
@settings(max_examples=60, deadline=None)
def test_select_is_the_rows_where_the_mask_holds(bits: list[bool], again: list[int]) -> None:
    frame = _frame(len(bits))
    masks = [np.array(bits), np.array(bits[::-1]), ~np.array(bits), np.roll(bits, 1)]
    for n in [0, *again]:
        pd.testing.assert_frame_equal(select(frame, masks[n]), frame[masks[n]])


def test_a_frame_dying_while_its_thread_holds_the_lock_is_forgotten() -> None:
    frame = _frame(6)
    select(frame, np.arange(6) < 2)
    key = id(frame)
    with subsets._SUBSETS.lock:  # as when a collection runs inside `kept_subset`: forgetting must not wait for the lock
        del frame
        gc.collect()
    assert key not in subsets._SUBSETS.held

