"""Questions asked in other wordings than the readers' own: a condition or a value before the question proper,
"give me the" for "what is the", "the first X seen when", "most recent" for "last", "which X saw the most",
"the lowest X for V", "the total X for V". Each is answered as the question in the readers' wording is (truths
computed with pandas over the same rows), and the questions that only look alike are left as they are."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from question_frames import ask, frame

from react_engine.question.reading.word_order import in_order

sizes = st.lists(st.integers(10, 10**8), min_size=2, max_size=8)
few = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _received(size_list: list[int]) -> pd.DataFrame:
    """Received lines (size, from one of three addresses), with other lines between them."""
    messages = []
    for i, size in enumerate(size_list):
        messages += [f"Received block blk_{i} of size {size} from /10.0.0.{i % 3}", f"Deleting block blk_{i}"]
    return frame(messages)


@pytest.mark.parametrize(("written", "read"), [
    ("When failed password, which user has the most?", "which user has the most when failed password?"),
    ("For 10.0.0.1 that failed password, what is the port?", "what is the port for 10.0.0.1 that failed password?"),
    ("for user fztu, how many session closed", "how many session closed for user fztu"),
    ("Give me the port of admin that failed password", "what is the port of admin that failed password"),
    ("the earliest port logged when failed password", "what is the earliest port when failed password"),
    ("What is the last user seen when session opened?", "What is the last user when session opened?"),
    ("How many ce sym where mask is 0x01?", "How many ce sym with mask 0x01?"),
    ("Which port did 10.0.0.1 have when failed password?", "what is the port of 10.0.0.1 when failed password?"),
])
def test_a_question_is_put_in_the_readers_order(written: str, read: str) -> None:
    assert in_order(written) == read


@pytest.mark.parametrize("question", [
    "For this supercomputer RAS log, how many lines come from the KERNEL component?",
    "For the Blue Gene/L log, can you tell me how many times a core file was written?",
    "when did the last FATAL events happen",
    "give me a summary of this log",
    "the last 3 ports when failed password",
    "How many errors were logged when the disk filled?",
    "How many lines where the user is root?",
    "Which users did 10.0.0.1 try?",
])
def test_a_question_that_only_looks_alike_is_left_as_it_is(question: str) -> None:
    assert in_order(question) == question


@few
@given(sizes, st.sampled_from(["first", "last"]))
def test_a_condition_written_first_still_names_the_lines(size_list: list[int], which: str) -> None:
    result = ask(f"When received block, what is the {which} size?", _received(size_list))
    assert str(result.value) == str(size_list[0 if which == "first" else -1]) and result.verified, result.answer


@few
@given(sizes, st.sampled_from(["earliest", "most recent", "latest"]))
def test_give_me_the_value_seen_first_or_last(size_list: list[int], which: str) -> None:
    result = ask(f"Give me the {which} size seen when received block", _received(size_list))
    assert str(result.value) == str(size_list[0 if which == "earliest" else -1]) and result.verified, result.answer


@few
@given(sizes)
def test_a_value_written_first_still_selects_its_lines(size_list: list[int]) -> None:
    rows = _received(size_list)
    result = ask("For 10.0.0.1, what is the max size when received block?", rows)
    assert result.value == max(s for i, s in enumerate(size_list) if i % 3 == 1) and result.verified, result.answer


@few
@given(st.lists(st.integers(0, 3), min_size=3, max_size=12), st.sampled_from(["saw", "wrote", "has"]))
def test_a_verb_of_seeing_ends_the_field_ranked(hosts: list[int], verb: str) -> None:
    counts = pd.Series(hosts).value_counts()
    if len(counts) > 1 and counts.iloc[0] == counts.iloc[1]:
        return  # a tie names no one value
    rows = frame([f"Receiving block blk_{i} src: /10.0.0.{h}:50010" for i, h in enumerate(hosts)])
    result = ask(f"Which src {verb} the most receiving block?", rows)
    assert result.value == f"10.0.0.{counts.index[0]}" and result.verified, result.answer


@few
@given(st.lists(st.integers(1024, 65535), min_size=2, max_size=8),
       st.sampled_from([("Give me the", "lowest", min), ("what is the", "smallest", min), ("What's the", "highest", max),
                        ("what is the", "largest", max)]))
def test_a_superlative_of_a_field_for_a_value_is_its_statistic(ports: list[int],
                                                               asked: tuple[str, str, object]) -> None:
    lead, word, func = asked
    rows = frame([f"Accepted password for root from 10.0.0.{i % 3} port {p} ssh2" for i, p in enumerate(ports)])
    result = ask(f"{lead} {word} port for 10.0.0.0 when accepted password", rows)
    assert result.value == func(ports[::3]) and result.verified, result.answer  # type: ignore[operator]


@few
@given(st.lists(st.integers(1, 10**6), min_size=2, max_size=8))
def test_the_total_of_a_field_is_its_sum(seqs: list[int]) -> None:
    rows = frame([f"Notification time out, seq {s} from 10.0.0.{i % 2}" for i, s in enumerate(seqs)])
    result = ask("what is the total seq for 10.0.0.1 when notification time?", rows)
    assert result.value == sum(seqs[1::2]) and result.verified, result.answer


@few
@given(st.lists(st.sampled_from(["0x01", "0x02"]), min_size=2, max_size=10))
def test_a_field_and_its_value_in_a_where_clause_select_by_the_field(masks: list[str]) -> None:
    masks = [*masks, "0x02"]  # the value asked is written
    rows = frame([f"ce sym {i}, at {'0x02' if m == '0x01' else '0x01'}, mask {m}" for i, m in enumerate(masks)])
    result = ask("How many ce sym where mask is 0x02?", rows)
    assert result.value == masks.count("0x02") and result.verified, result.answer


@pytest.mark.parametrize("value", ["53450", "10.0.0.7"])
def test_a_count_by_a_value_is_no_grouping(value: str) -> None:
    rows = frame([f"Served block blk_{i} to /{'10.0.0.7' if i % 2 else '10.0.0.8'} port {53450 + i % 2}"
                  for i in range(6)])
    result = ask(f"number of served block by {value}", rows)
    assert result.value == 3 and result.verified, result.answer


@few
@given(st.lists(st.integers(0, 3), min_size=3, max_size=12),
       st.sampled_from(["Which src had the lowest number of receiving block?", "least common src when receiving block"]))
def test_the_fewest_lines_asked_in_other_words(hosts: list[int], question: str) -> None:
    counts = pd.Series(hosts).value_counts(ascending=True)
    if len(counts) > 1 and counts.iloc[0] == counts.iloc[1]:
        return  # a tie names no one value
    rows = frame([f"Receiving block blk_{i} src: /10.0.0.{h}:50010" for i, h in enumerate(hosts)])
    result = ask(question, rows)
    first = result.value[0][0] if isinstance(result.value, list) else result.value
    assert first == f"10.0.0.{counts.index[0]}" and result.verified, result.answer


@few
@given(sizes, st.sampled_from(["lowest and highest", "smallest and largest", "minimum and maximum"]))
def test_both_ends_of_a_field_in_other_words(size_list: list[int], ends: str) -> None:
    result = ask(f"What are the {ends} size when received block?", _received(size_list))
    assert result.value == {"min": min(size_list), "max": max(size_list)} and result.verified, result.answer


@pytest.mark.parametrize("which", [0, 1, 2])
def test_which_field_did_a_value_have_asks_the_fields_value(which: int) -> None:
    ids = [f"70c1714b-c11b-4c88-b300-239afe1f5ff{i}" for i in range(3)]
    rows = frame([f"[instance: {u}] Took {20 + i}.5 seconds to build instance." for i, u in enumerate(ids)])
    result = ask(f"Which took did {ids[which]} have when build instance?", rows)
    assert str(result.value) == f"{20 + which}.5" and result.verified, result.answer
