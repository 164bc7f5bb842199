"""A literal looked for in heads and messages apart finds the rows the joined text `raw_head + message` gives."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.logs import mapped
from react_engine.logs.arrow import STRING, concat
from react_engine.logs.literal_text import literal_of, literal_search
from react_engine.logs.schema import RAW_HEAD
from react_engine.logs.text import bool_mask
from react_engine.tools.regex import literal, text_matches

FAST = settings(max_examples=150, deadline=None)
# letters whose case RE2 folds beyond ASCII (long s, Kelvin sign), others beyond ASCII, and a head's punctuation
CHARS = st.sampled_from(list("aAsSkKſKéÉİi:] [0.-\\*\n日"))
TEXT = st.text(alphabet=CHARS, max_size=12)
PARTS = st.lists(st.tuples(st.one_of(st.none(), TEXT), st.one_of(st.none(), TEXT)), min_size=1, max_size=12)


def _joined_mask(heads: list[str | None], messages: list[str | None], pattern: str, ignore_case: bool) -> np.ndarray:
    """The simple definition: the pattern searched in each row's head and message joined (null if either is)."""
    text = concat(pa.array(heads, STRING), pa.array(messages, STRING))
    return bool_mask(pc.match_substring_regex(text, pattern, ignore_case=ignore_case))


def _search(pattern: str, ignore_case: bool):  # type: ignore[no-untyped-def]
    search = literal_search(pattern, lambda text: pc.match_substring_regex(text, pattern, ignore_case=ignore_case),
                            ignore_case)
    assert search is not None
    return search


@given(text=st.text(min_size=1, max_size=20))
@FAST
def test_a_literal_is_read_back_from_its_pattern(text: str) -> None:
    assert literal_of(literal(text)) == (None if "\0" in text else text)


def test_a_pattern_with_an_operator_or_a_class_is_no_literal() -> None:
    assert [literal_of(p) for p in ["a.b", r"\d+", "(?i)x", "a|b", "x*", "a\\", r"\x41", "", "a b_é"]] == \
        [None, None, None, None, None, None, None, None, "a b_é"]


@given(parts=PARTS, data=st.data(), ignore_case=st.booleans())
@FAST
def test_head_and_message_apart_match_as_joined(parts: list[tuple[str | None, str | None]], data: st.DataObject,
                                                ignore_case: bool) -> None:
    heads, messages = [h for h, _ in parts], [m for _, m in parts]
    whole = [h + m for h, m in parts if h is not None and m is not None]
    # often a piece of some row's text (across its head and message), else any text
    wanted = data.draw(st.one_of(TEXT.filter(bool), st.sampled_from(whole or ["x"]).flatmap(
        lambda t: st.tuples(st.integers(0, len(t)), st.integers(1, 8)).map(lambda p: t[p[0] : p[0] + p[1]]))
        .filter(bool)))
    pattern = literal(wanted)
    got = _search(pattern, ignore_case)(pa.array(heads, STRING), pa.array(messages, STRING))
    assert got.tolist() == _joined_mask(heads, messages, pattern, ignore_case).tolist()


@given(parts=PARTS, ignore_case=st.booleans(), offset=st.integers(0, 3))
@FAST
def test_a_slice_of_the_columns_matches_as_its_joined_rows(parts: list[tuple[str | None, str | None]],
                                                          ignore_case: bool, offset: int) -> None:
    heads = pa.array([h for h, _ in parts], STRING).slice(offset)
    messages = pa.array([m for _, m in parts], STRING).slice(offset)
    pattern = literal("s:")
    got = _search(pattern, ignore_case)(heads, messages)
    assert got.tolist() == _joined_mask(heads.to_pylist(), messages.to_pylist(), pattern, ignore_case).tolist()


@given(parts=PARTS, wanted=TEXT.filter(bool), ignore_case=st.booleans())
@FAST
def test_text_matches_on_a_lean_frame_is_the_joined_texts(parts: list[tuple[str | None, str | None]], wanted: str,
                                                         ignore_case: bool) -> None:
    frame = pd.DataFrame({"message": pd.array([m for _, m in parts], dtype="str"),
                          RAW_HEAD: pd.array([h for h, _ in parts], dtype="str")})
    pattern = literal(wanted)
    original, mapped.CHUNK_ROWS = mapped.CHUNK_ROWS, 3  # several chunks, each tested apart
    try:
        got = text_matches(frame, pattern, ignore_case=ignore_case)
    finally:
        mapped.CHUNK_ROWS = original
    heads = [None if pd.isna(h) else h for h, _ in parts]
    messages = [None if pd.isna(m) else m for _, m in parts]
    assert got.tolist() == _joined_mask(heads, messages, pattern, ignore_case).tolist()


def test_heads_without_the_literals_letters_are_not_searched() -> None:
    heads = pa.array(["Dec 10 06:55:46 LabSZ sshd[1]: "] * 3, STRING)
    messages = pa.array(["Failed password for root", "Accepted password", "failed PASSWORD"], STRING)
    searched: list[int] = []
    pattern = literal("Failed password")

    def test(text: pa.Array) -> pa.Array:
        searched.append(len(text))
        return pc.match_substring_regex(text, pattern, ignore_case=True)

    found = literal_search(pattern, test, True)
    assert found is not None
    assert found(heads, messages).tolist() == [True, False, True]
    assert searched == [3]  # the messages only: no head holds an f, and none ends as the literal starts


@pytest.mark.parametrize(("head", "message", "wanted"), [
    ("x ſ", "y", "S"), ("a ſ", "b", "sb"), ("\u212a", "", "k"), ("0 \u212a", "m", "km"), ("x", "ſ", "s"),
    ("é", "e", "ÉE"), ("İ", "x", "i"), ("日", "本", "日本"), ("", "s", "s")])
def test_letters_that_fold_beyond_ascii_match_as_joined(head: str, message: str, wanted: str) -> None:
    pattern = literal(wanted)
    got = _search(pattern, True)(pa.array([head], STRING), pa.array([message], STRING))
    assert got.tolist() == _joined_mask([head], [message], pattern, True).tolist()
