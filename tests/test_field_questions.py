"""Questions that ask of a field the way operators do: how many distinct values when an event, the first or last
value, the lowest and highest value, a "when" joining what is asked to the event; and the real loghub samples
asked the same way. Truths are computed with pandas over the same rows."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from question_frames import ask, frame
from real_logs import real_log

from react_engine.logs.fields import pair_named, read
from react_engine.question.asking import CONDITION

sizes = st.lists(st.integers(10, 10**8), min_size=2, max_size=8)  # a value of one digit is no name (answer.names)
ports = st.lists(st.integers(1024, 65535), min_size=2, max_size=8)
few = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _received(size_list: list[int], port_list: list[int]) -> pd.DataFrame:
    """Received lines (size, address and port), with other lines between them."""
    messages = []
    for i, (size, port) in enumerate(zip(size_list, port_list, strict=False)):
        messages += [f"Received block blk_{i} of size {size} from /10.0.0.{i % 3}:{port}", f"Deleting block blk_{i}"]
    return frame(messages)


@few
@given(sizes, ports)
def test_how_many_distinct_values_when_an_event(size_list: list[int], port_list: list[int]) -> None:
    rows = _received(size_list, port_list)
    result = ask("How many distinct size when received block?", rows)
    truth = len(set(size_list[:len(port_list)]))
    assert result.value == truth and result.verified and not result.partial, result.answer


@few
@given(sizes, ports, st.sampled_from(["first", "last"]))
def test_the_first_or_last_value_of_a_field_when_an_event(size_list: list[int], port_list: list[int],
                                                          which: str) -> None:
    rows = _received(size_list, port_list)
    held = size_list[:len(port_list)]
    result = ask(f"What is the {which} size when received block?", rows)
    truth = held[0] if which == "first" else held[-1]
    assert str(result.value) == str(truth) and result.verified, result.answer


@few
@given(sizes, ports)
def test_the_lowest_and_highest_value_are_both_answered(size_list: list[int], port_list: list[int]) -> None:
    rows = _received(size_list, port_list)
    held = size_list[:len(port_list)]
    result = ask("What are the min and max size when received block?", rows)
    assert result.value == {"min": min(held), "max": max(held)} and result.verified, result.answer


def test_a_when_between_what_is_asked_and_an_event_asks_no_time() -> None:
    assert CONDITION.search("how many distinct size when received block")
    assert CONDITION.search("what is the first src when receiving block")
    assert not CONDITION.search("when was the first error")
    assert not CONDITION.search("first WARN lines - when?")
    assert not CONDITION.search("the time when was it")


@given(st.from_regex(r"[A-Za-z][A-Za-z_]{1,10}", fullmatch=True), st.integers(-10**6, 10**6),
       st.sampled_from([" ", ":", ": ", "=", " = "]))
def test_a_number_written_right_after_its_name_is_read_when_a_question_names_it(key: str, number: int,
                                                                                  between: str) -> None:
    message = f"stage done in scoreboard {key}{between}{number}."
    found = pair_named(key, [message])
    assert found is not None
    assert read(pd.Series([message]), found).iloc[0] == number


def _hdfs(template: str, pattern: str) -> pd.Series:
    """The values `pattern`'s group reads from the real HDFS sample's lines of one template, in line order."""
    structured = pd.read_csv(real_log("HDFS", ".log_structured.csv"), dtype=str)
    rows = structured[structured["EventTemplate"].str.startswith(template)]
    rows = rows.assign(line=rows["LineId"].astype(int)).sort_values("line")
    return rows["Content"].str.extract(pattern, expand=False)


@pytest.mark.parametrize(("question", "template", "pattern", "truth"), [
    ("What is the first src when receiving block?", "Receiving block", r"src: /([\d.]+):", lambda v: v.iloc[0]),
    ("What is the last dest when receiving block?", "Receiving block", r"dest: /([\d.]+):", lambda v: v.iloc[-1]),
    ("How many distinct size when received block?", "Received block", r"of size (\d+)", lambda v: v.nunique()),
    ("What are the min and max size when received block?", "Received block", r"of size (\d+)",
     lambda v: {"min": int(v.astype(int).min()), "max": int(v.astype(int).max())}),
])
def test_real_hdfs_fields(question: str, template: str, pattern: str, truth: Callable[[pd.Series], object]) -> None:
    from react_engine import Engine, Settings
    from react_engine.logs.options import LoadOptions
    from react_engine.planners.rules import RulesPlanner

    log = real_log("HDFS")
    expected = truth(_hdfs(template, pattern))
    result = Engine(RulesPlanner(), Settings(max_iterations=12)).ask(question, [str(log)],
                                                                    load_options=LoadOptions(use_cache=False))
    assert str(result.value) == str(expected) and result.verified, result.answer


@few
@given(st.lists(st.from_regex(r"/[a-z]{1,6}(?:/[a-z_]{1,8}){0,3}/blk_[0-9]{1,5}", fullmatch=True), min_size=1,
                max_size=5))
def test_a_path_after_its_name_keeps_its_slash(paths: list[str]) -> None:  # a value after a word holds a digit
    rows = frame([f"Deleting block blk_{i} file {p}" for i, p in enumerate(paths)])
    result = ask("What is the last file when deleting block?", rows)
    assert result.value == paths[-1] and result.verified, result.answer


def test_a_first_value_of_a_word_no_line_writes_as_a_field_is_partial() -> None:
    rows = _received([10, 20, 30], [1024, 1025, 1026])
    result = ask("What is the first zork when received block?", rows)
    assert "zork" in result.answer and not (result.verified and not result.partial), result.answer


@few
@given(sizes)
def test_ranking_by_distinct_values_of_a_field_the_log_writes(size_list: list[int]) -> None:
    rows = _received(size_list, [1024 + i for i in range(len(size_list))])
    result = ask("Which IP has the most distinct sizes?", rows)
    per = pd.DataFrame({"ip": [f"10.0.0.{i % 3}" for i in range(len(size_list))], "size": size_list})
    counts = per.groupby("ip")["size"].nunique()
    leaders = sorted(counts[counts == counts.max()].index)
    assert result.value == (leaders[0] if len(leaders) == 1 else leaders) and result.verified, result.answer


def test_ranking_by_distinct_values_of_a_word_no_line_writes_is_refused() -> None:
    rows = _received([10, 20, 30, 40], [1024, 1025, 1026, 1027])
    result = ask("Which IP has the most distinct zorks?", rows)
    assert result.value is None and not result.verified and "zorks" in result.answer, result.answer
