"""Misspelt questions: a typo is read as a word of the loaded rows or a level word before a lexicon word, and an
error word that names quoted lines is no level filter. Expected counts are computed here with pandas."""

from __future__ import annotations

from typing import Any

import pandas as pd
from test_events import frame

from react_engine import Engine, Settings
from react_engine.planners.rules import RulesPlanner


def ask(question: str, f: pd.DataFrame) -> Any:
    return Engine(RulesPlanner(), Settings(max_iterations=12)).ask(question, frame=f)


ANDROID = frame(["setSystemUiVisibility vis=0", "onStandStepChanged 3", "getRunningAppProcesses", "skip frames"] * 5,
                level_raw=["V", "D", "V", "W"] * 5, severity=["debug", "debug", "debug", "warning"] * 5)


def test_a_misspelt_level_is_read_as_the_level_the_rows_write() -> None:
    result = ask("how many verbos lines are there", ANDROID)
    assert result.value == int((ANDROID["level_raw"] == "V").sum()) and result.verified
    assert result.interpretation is not None
    assert [(c.written, c.read_as) for c in result.interpretation.corrections] == [("verbos", "verbose")]


def test_a_reason_phrase_and_a_code_in_brackets_are_one_status() -> None:
    f = frame(['"GET /a HTTP/1.1" 401', '"GET /b HTTP/1.1" 200', '"GET /c HTTP/1.1" 403'] * 4,
              status=[401, 200, 403] * 4)
    assert ask("how many unauthorised requets (401)?", f).value == int((f["status"] == 401).sum())
    forbidden = ask("how many forbidden requests?", f)
    assert forbidden.value == int((f["status"] == 403).sum()) and forbidden.verified


def test_a_reason_phrase_without_a_status_column_is_the_logs_own_event() -> None:
    f = frame(["BPI unauthorized Auth Reject", "Registration complete"] * 3)
    assert ask("how many unauthorized events?", f).value == 3


WINDOWS = frame(["Failed to internally open package. [HRESULT = 0x800f0805]", "Session 30546 initialized",
                 "Failed to get session package state", "Disk full while writing the log"] * 3,
                level_raw=["Info", "Info", "Error", "Error"] * 3, severity=["info", "info", "error", "error"] * 3)


def test_an_error_word_naming_quoted_lines_is_no_level_filter() -> None:
    result = ask("how many 'Failed to internally open package' erors?", WINDOWS)
    expected = int(WINDOWS["message"].str.contains("Failed to internally open package", regex=False).sum())
    assert result.value == expected and result.verified


def test_an_error_word_after_quoted_lines_at_that_level_still_filters_the_level() -> None:
    result = ask("how many 'session' errors?", WINDOWS)
    both = WINDOWS["message"].str.contains("session", case=False) & (WINDOWS["severity"] == "error")
    assert result.value == int(both.sum()) and result.verified
