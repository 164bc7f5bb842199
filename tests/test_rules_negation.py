"""Negated questions ("other than A", "except A", "not from A", "non-A"): the rows that do not match A are counted.

Expected values are computed with pandas over the loaded frame or loghub's structured CSVs, never hard-coded.
"""

from __future__ import annotations

import csv
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_logs import real_log
from test_rules_planner import SAMPLES, SETS, TRUTH

from react_engine.logs import LoadOptions, load
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.question.reading.negation import find, reopened
from react_engine.question.reading.question import Question


@pytest.fixture(scope="module")
def app() -> Any:
    return load([str(SAMPLES / p) for p in SETS["app"]], LoadOptions(year=TRUTH["generator"]["year"], use_cache=False))


def ask(frame: Any, question: str) -> Any:
    return Engine(RulesPlanner()).ask(question, frame=frame)


@pytest.mark.parametrize("question", ["How many lines are there other than INFO?", "how many non-INFO lines?",
                                      "count the lines except info ones", "how many lines excluding INFO entries?"])
def test_a_negated_level_counts_the_other_lines(app: Any, question: str) -> None:
    result = ask(app, question)
    assert result.value == int((app["severity"] != "info").sum()), result.answer
    assert "not with severity info" in result.answer
    assert result.interpretation is not None and result.interpretation.excluded == ["with severity info"]
    assert [s.params.get("exclude") for s in result.steps if s.action == "filter_by_severity"] == [True]


def test_only_the_negated_words_are_negated(app: Any) -> None:
    phrase = Counter(app.loc[app["severity"] == "error", "message"]).most_common(1)[0][0]
    result = ask(app, f"How many ERROR lines are there other than '{phrase}'?")
    errors = app[app["severity"] == "error"]
    assert result.value == int((~errors["raw"].str.contains(phrase, regex=False, case=False)).sum())
    assert f'with severity error; not containing "{phrase}"' in result.answer


def test_a_ranking_other_than_a_value_leaves_that_value_out() -> None:
    rows = list(csv.DictReader(real_log("Spark", ".log_structured.csv").open(encoding="utf-8")))
    ranked = Counter(r["Component"] for r in rows).most_common()
    top = ranked[0][0]
    result = ask(load([str(real_log("Spark"))], LoadOptions(use_cache=False)),
                 f"which component logged the most lines other than {top}?")
    assert result.value == ranked[1][0], result.answer
    assert f"other than {top}" in result.answer and result.interpretation.excluded == [top]


def test_lines_not_from_a_component_are_the_other_components_lines() -> None:
    rows = list(csv.DictReader(real_log("HDFS", ".log_structured.csv").open(encoding="utf-8")))
    result = ask(load([str(real_log("HDFS"))], LoadOptions(use_cache=False)),
                 "How many lines came from components other than dfs.FSNamesystem?")
    assert result.value == sum(r["Component"] != "dfs.FSNamesystem" for r in rows)
    assert [t.negated for t in result.interpretation.terms if t.word == "dfs.FSNamesystem"] == [True]


def test_words_that_name_no_one_thing_to_leave_out_are_refused(app: Any) -> None:
    result = ask(app, "how many lines other than 1234567?")
    assert result.value is None and "could not tell which lines" in result.answer, result.answer


@given(st.lists(st.sampled_from([*"ab 'x?,.-", "other than ", "except ", "non-", "not from ", " in ", "that aren't ",
                                  "a flag "]), max_size=20).map("".join))
@settings(max_examples=200, deadline=None)
def test_the_negated_words_lie_after_the_cue_and_are_hidden_from_the_rest(text: str) -> None:
    q = Question(text)
    found = find(q, ["flag"])
    if found is None:
        assert not any(q.used)
        return
    assert 0 < found.start < found.end <= len(text) and text[found.start:found.end].strip()
    assert all(q.used[found.start:found.end])
    inner = reopened(q, found)
    assert [i for i, used in enumerate(inner.used) if not used] == list(range(found.start, found.end))


@pytest.mark.parametrize(("text", "words"), [("which label (other than '-') shows up most?", "'-'"),
                                             ("how many non-INFO lines on May 5?", "INFO"),
                                             ("lines not from sshd in the last hour", "from sshd"),
                                             ("errors other than 'a, b' per host", "'a, b'")])
def test_the_negated_words_end_with_their_clause(text: str, words: str) -> None:
    found = find(Question(text), [])
    assert found is not None and found.words(text) == words
