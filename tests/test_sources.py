"""Honest zeros for sources a log does not have: the count comes from a filter that ran and kept no rows."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from react_engine import Engine, Settings
from react_engine.planners.rules import RulesPlanner

F = pd.DataFrame({"timestamp": pd.date_range("2005-06-03 15:00", periods=6, freq="min", tz="UTC"),
                  "message": ["session opened for user root", "session closed for user root",
                              "kernel: eth0 link up", "connection from 10.0.0.1", "ALERT exited abnormally",
                              "session opened for user news"],
                  "host": ["node-1", "node-1", "node-2", "node-2", "node-3", "node-3"],
                  "component": ["su(pam_unix)", "su(pam_unix)", "kernel", "ftpd", "logrotate", "su(pam_unix)"],
                  "source": ["/logs/Linux_2k.log"] * 6, "line": list(range(1, 7))})


def ask(question: str) -> Any:
    return Engine(RulesPlanner(), Settings(max_iterations=12)).ask(question, frame=F)


@pytest.mark.parametrize(("question", "column"), [
    ("how many lines came from nginx?", "component"),
    ("how many lines were logged by sshd?", "component"),
    ("how many lines from node-999?", "host"),
    ("how many lines came from the host web01?", "host"),
])
def test_a_source_the_log_does_not_have_counts_an_honest_zero(question: str, column: str) -> None:
    result = ask(question)
    assert result.value == 0 and result.verified, result.answer
    assert [s.params.get("field") for s in result.steps if s.action == "filter_by_field"] == [column]


@pytest.mark.parametrize("question", ["how many lines came from ftpd?", "how many lines came from eth0?",
                                      "how many lines came from logrotate?"])
def test_a_source_the_log_has_or_mentions_is_no_zero(question: str) -> None:
    result = ask(question)
    assert result.value != 0, result.answer


def test_a_source_that_is_a_word_of_questions_is_not_read_as_absent() -> None:
    result = ask("how many lines came from yesterday?")
    assert not any(s.action == "filter_by_field" for s in result.steps)


@pytest.mark.parametrize(("written", "value"), [("logrotat", "logrotate"), ("lgorotate", "logrotate")])
def test_a_misspelt_source_is_read_as_the_value_it_is_close_to(written: str, value: str) -> None:
    result = ask(f"how many lines came from {written}?")
    assert result.value == int((F["component"] == value).sum()) and result.verified, result.answer
    assert f'read "{written}" as "{value}"' in result.answer


def test_a_name_with_other_digits_is_no_typo_of_a_value() -> None:
    assert ask("how many lines from node-4?").value == 0
