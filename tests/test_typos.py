"""Misspelt questions: a typo is read as a word of the loaded rows or a level word before a lexicon word, and an
error word that names quoted lines is no level filter. Expected counts are computed here with pandas."""

from __future__ import annotations

from question_frames import ask, frame

ANDROID = frame(["setSystemUiVisibility vis=0", "onStandStepChanged 3", "getRunningAppProcesses", "skip frames"] * 5,
                level_raw=["V", "D", "V", "W"] * 5, severity=["debug", "debug", "debug", "warning"] * 5)


def test_a_misspelt_level_is_read_as_the_level_the_rows_write() -> None:
    result = ask("how many verbos lines are there", ANDROID)
    assert result.value == int((ANDROID["level_raw"] == "V").sum()) and result.verified
    assert result.interpretation is not None
    assert [(c.written, c.read_as) for c in result.interpretation.corrections] == [("verbos", "verbose")]


BGL = frame(["Link has been severed", "ciod: failed to read message prefix", "Link has been severed", "idoproxy up"] * 4,
            level_raw=["INFO", "SEVERE", "INFO", "SEVERE"] * 4, severity=["info", "critical", "info", "critical"] * 4)


def test_a_level_cut_short_is_the_level_not_the_words_sharing_its_stem() -> None:
    result = ask("how many sever lines?", BGL)
    assert result.value == int((BGL["level_raw"] == "SEVERE").sum()) and result.verified
    assert result.interpretation is not None
    assert [(c.written, c.read_as) for c in result.interpretation.corrections] == [("sever", "SEVERE")]


def test_a_word_the_rows_write_before_lines_is_no_level() -> None:
    f = frame(["sever the link", "link up", "Link has been severed"] * 3, level_raw=["SEVERE", "INFO", "INFO"] * 3,
              severity=["critical", "info", "info"] * 3)
    result = ask("how many sever lines?", f)
    assert result.interpretation is not None and not result.interpretation.corrections
    assert result.value == int(f["message"].str.contains(r"\bsever", case=False).sum())


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
