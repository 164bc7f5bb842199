"""Analytics questions in the logs' own words on the loghub samples: a breakdown "per" or "by" a column after an
event's words, a listing of distinct values, and how many more lines one event has than another; truths from the
structured CSVs with pandas."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from tests.real_logs import real_log

_YEAR = LoadOptions(year=2026)  # Linux's lines write no year


def _csv(system: str) -> pd.DataFrame:
    return pd.read_csv(real_log(system, ".log_structured.csv"), dtype=str, keep_default_na=False)


def _lines(system: str, words: str) -> pd.DataFrame:
    frame = _csv(system)
    return frame[frame["Content"].str.contains(rf"\b{words}\b", flags=re.I, regex=True)]


def _ask(system: str, question: str) -> tuple[object, bool, str]:
    result = Engine(RulesPlanner()).ask(question, [str(real_log(system))])
    return result.value, result.verified and not result.partial, result.answer


@pytest.mark.parametrize(("system", "question", "words", "column"), [
    ("Linux", "How many session closed per component?", "session closed", "Component"),
    ("Linux", "session closed by component", "session closed", "Component"),
    ("Mac", "How many pbrequester failed per pid?", "PBRequester failed", "PID"),
    ("Mac", "pbrequester failed by pid", "PBRequester failed", "PID"),
])
def test_an_events_lines_per_column_are_a_breakdown_not_their_count(system: str, question: str, words: str,
                                                                     column: str) -> None:
    counts = _lines(system, words)[column].value_counts()
    value, verified, answer = _ask(system, question)
    assert verified, answer
    assert isinstance(value, list) and {str(k): n for k, n in value} == counts.to_dict(), answer


def test_connection_closed_by_an_address_is_still_a_filter_not_a_breakdown() -> None:
    frame = _lines("OpenSSH", "Connection closed by 5.188.10.180")
    value, verified, answer = _ask("OpenSSH", "How many connection closed by 5.188.10.180?")
    assert verified and value == len(frame) > 0, answer


def test_list_the_distinct_values_lists_them_rather_than_counting_them() -> None:
    ports = set(re.findall(r"port (\d+)", " ".join(_lines("Spark", "Successfully started")["Content"])))
    value, verified, answer = _ask("Spark", "List the distinct port when successfully started")
    assert verified and isinstance(value, list) and set(map(str, value)) == ports and len(ports) > 1, answer
    counted, _, _ = _ask("Spark", "How many distinct port when successfully started?")
    assert counted == len(ports)


def test_how_many_more_of_one_event_than_another_is_the_difference() -> None:
    failed, accepted = len(_lines("OpenSSH", "Failed password")), len(_lines("OpenSSH", "Accepted password"))
    value, verified, answer = _ask("OpenSSH", "How many more failed password than accepted password?")
    assert verified and value == failed - accepted > 0, answer


@pytest.mark.parametrize("question", ["When was the first selinux?", "How long between the first and last selinux?"])
def test_a_word_after_first_or_last_in_a_question_of_time_names_lines_not_a_field(question: str) -> None:
    lines = _lines("Linux", "selinux")
    times = pd.to_datetime("2026 " + lines["Month"] + " " + lines["Date"] + " " + lines["Time"],
                           format="%Y %b %d %H:%M:%S", utc=True)
    result = Engine(RulesPlanner()).ask(question, [str(real_log("Linux"))], load_options=_YEAR)
    assert result.verified and len(lines) < 2000, result.answer
    if "first selinux" in question:
        assert pd.Timestamp(result.value["time"]) == times.min()
    else:
        assert result.value["seconds"] == (times.max() - times.min()).total_seconds()


@pytest.mark.parametrize(("system", "left", "right"), [
    ("BGL", "edram error", "minus normalized"),  # "error" is no level of both sides
    ("Zookeeper", "purgeinterval set", "follower sid"),  # "follower" names a component of one side only
    ("Windows", "csi perf", "requesting upload"),  # "requesting" is no component
])
def test_how_many_more_of_two_events_is_their_difference_or_no_verified_answer(system: str, left: str,
                                                                                right: str) -> None:
    truth = len(_lines(system, left)) - len(_lines(system, right))
    value, verified, answer = _ask(system, f"How many more {left} than {right}?")
    assert value == truth or not verified, answer


def test_the_share_of_an_events_lines_that_came_from_a_value_is_taken_of_the_events_lines() -> None:
    lines = _lines("OpenSSH", "Failed password")
    came = lines["Content"].str.contains(r"\b183\.62\.140\.253\b", regex=True)
    value, verified, answer = _ask("OpenSSH", "What share of failed password came from 183.62.140.253?")
    assert verified and value == pytest.approx(100 * came.sum() / len(lines), abs=0.05), answer
    assert 0 < came.sum() < len(lines)


@pytest.mark.parametrize(("system", "question"), [("BGL", "List the distinct over when torus sender"),
                                                  ("Hadoop", "List the distinct zorp when using containerid")])
def test_list_the_distinct_values_of_a_word_no_rule_knows_is_no_listing_of_lines(system: str, question: str) -> None:
    _, verified, answer = _ask(system, question)
    assert not verified and "matching lines" not in answer, answer


def test_list_the_distinct_values_of_a_field_of_the_messages_patterns() -> None:
    """`NM: [<*>` makes nm a field of the "using containerId" lines: each host it names is listed, and no other."""
    lines = _lines("Hadoop", "using containerId")
    hosts = set(lines["Content"].str.extract(r"NM: \[([^\]:]+)", expand=False).dropna())
    _, verified, answer = _ask("Hadoop", "List the distinct nm when using containerid")
    assert verified and f"{len(hosts)} distinct" in answer and all(host in answer for host in hosts), answer
    assert len(hosts) > 1


def test_a_listing_of_distinct_values_shows_more_than_ten_of_them() -> None:
    lines = _lines("Zookeeper", "Closed socket")
    clients = set(lines["Content"].str.extract(r"client /([\d.]+):", expand=False).dropna())
    value, verified, answer = _ask("Zookeeper", "List the distinct client when closed socket")
    assert verified and isinstance(value, list) and set(value) == clients and len(clients) > 10, answer
