"""A search's mask is kept for the same text's arrays and read back, never for changed or dropped text."""

from __future__ import annotations

import gc

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs import text_masks
from react_engine.logs.schema import RAW_HEAD
from react_engine.tools.regex import literal, text_matches


def _frame(messages: list[str], heads: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"message": pd.array(messages, dtype="str"), RAW_HEAD: pd.array(heads, dtype="str")})


def _counted(columns: list[pd.Series], key: str, calls: list[int]) -> np.ndarray:
    def search() -> np.ndarray:
        calls.append(1)
        return columns[0].str.contains(key, regex=False).to_numpy(dtype=bool)

    return text_masks.kept_mask(columns, key, search)


def test_the_same_search_of_the_same_text_is_read_back() -> None:
    frame = _frame(["Failed password", "ok", "failed"], ["h: ", "h: ", "h: "])
    calls: list[int] = []
    first = _counted([frame["message"], frame[RAW_HEAD]], "ail", calls)
    again = _counted([frame["message"], frame[RAW_HEAD]], "ail", calls)
    other = _counted([frame["message"], frame[RAW_HEAD]], "ok", calls)
    assert first.tolist() == again.tolist() == [True, False, True] and other.tolist() == [False, True, False]
    assert len(calls) == 2  # the second "ail" was read back
    again[:] = False  # a mask read back is the caller's own
    assert _counted([frame["message"], frame[RAW_HEAD]], "ail", calls).tolist() == [True, False, True]


def test_text_written_anew_or_with_another_head_is_searched_again() -> None:
    frame = _frame(["abc", "xyz"], ["1 ", "2 "])
    calls: list[int] = []
    _counted([frame["message"], frame[RAW_HEAD]], "abc", calls)
    other_head = frame.assign(**{RAW_HEAD: pd.array(["3 ", "4 "], dtype="str")})
    _counted([other_head["message"], other_head[RAW_HEAD]], "abc", calls)
    frame.loc[1, "message"] = "abc"
    assert _counted([frame["message"], frame[RAW_HEAD]], "abc", calls).tolist() == [True, True]
    assert len(calls) == 3


def test_a_dropped_text_s_masks_are_forgotten() -> None:
    frame = _frame(["a"] * 5, ["h"] * 5)
    before = set(text_masks._MASKS.held)
    text_matches(frame, literal("a"), ignore_case=True)
    kept = set(text_masks._MASKS.held) - before
    del frame
    gc.collect()
    assert len(kept) == 1 and not kept & set(text_masks._MASKS.held)  # other tests' texts may go too


def test_only_the_last_searches_are_kept() -> None:
    frame = _frame(["a b c"], ["h "])
    calls: list[int] = []
    for key in [str(n) for n in range(text_masks.KEPT + 1)] + ["0"]:
        _counted([frame["message"], frame[RAW_HEAD]], key, calls)
    assert len(calls) == text_masks.KEPT + 2  # "0" was dropped, the least recently used


@given(messages=st.lists(st.text(alphabet="aAb: ", max_size=6), min_size=1, max_size=20),
       wanted=st.lists(st.tuples(st.text(alphabet="aAb: ", min_size=1, max_size=3), st.booleans()), max_size=6))
@settings(max_examples=60, deadline=None)
def test_searches_read_back_match_fresh_ones(messages: list[str], wanted: list[tuple[str, bool]]) -> None:
    frame = _frame(messages, ["a: "] * len(messages))
    for text, ignore_case in wanted * 2:
        fresh = _frame(messages, ["a: "] * len(messages))
        assert text_matches(frame, literal(text), ignore_case=ignore_case).tolist() == \
            text_matches(fresh, literal(text), ignore_case=ignore_case).tolist()


def test_a_text_dying_while_its_thread_holds_the_lock_is_forgotten() -> None:
    frame = _frame(["abc"], ["h "])
    before = set(text_masks._MASKS.held)
    text_matches(frame, literal("b"))
    kept = set(text_masks._MASKS.held) - before
    with text_masks._MASKS.lock:  # as when a collection runs inside `kept_mask`: forgetting must not wait for it
        del frame
        gc.collect()
    assert len(kept) == 1 and not kept & set(text_masks._MASKS.held)
