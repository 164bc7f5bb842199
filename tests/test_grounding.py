"""Answers are checked against computed values; evidence comes from the rows behind them."""

from __future__ import annotations

import re
import subprocess
import sys

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.grounding import evidence, numbers_in, verify
from react_engine.logs.macs import MAC_SEPARATED


def test_numbers_skip_identifiers_times_and_addresses() -> None:
    text = ("On MAWED07T01 (Cable5/0/1) 1,234 modems, 12.5% of them, between 2026-11-20T15:00:00Z and 16:00, "
            "MAC 00:1d:d3:8e:d4:b7 and 001d.d38e.d4b7 from 10.0.0.1 had T3 timeouts")
    assert numbers_in(text) == [1234.0, 12.5]


# The number grammar as first written (quadratic on long words), kept as the oracle for short texts.
_REFERENCE_SKIPPED = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]?[\d:.,]*(?:Z|[+-]\d{2}:?\d{2})?|\b\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?\b"
    rf"|\b(?:{MAC_SEPARATED})\b|\b\d{{1,3}}(?:\.\d{{1,3}}){{3}}(?::\d+)?\b|[A-Za-z_][\w/.-]*\d[\w/.-]*", re.I)
_REFERENCE_NUMBER = re.compile(r"(?<![\w.])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|(?<![\w.])[-+]?\d+(?:\.\d+)?%?")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aZ_09.,:-/+% T\n", max_size=40) | st.text(max_size=40))
def test_number_extraction_agrees_with_the_reference_grammar(text: str) -> None:
    cleaned = _REFERENCE_SKIPPED.sub(" ", text)
    expected = [float(m.group().rstrip("%").replace(",", "")) for m in _REFERENCE_NUMBER.finditer(cleaned)]
    assert numbers_in(text) == expected


@pytest.mark.parametrize("text", ["a" * 1_000_000, "a." * 500_000, "a-" * 500_000, "1," * 500_000,
                                  "1." * 500_000, "a1" * 500_000])
def test_number_extraction_is_linear(text: str) -> None:
    code = f"from react_engine.grounding import numbers_in; numbers_in({text[:2]!r} * {len(text) // 2})"
    # a quadratic scan of a megabyte takes hours; a linear one well under the guard's minute
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_matching_answer_is_verified() -> None:
    verdict = verify("42 unique cable modems had T3 timeouts.", 42, [9840, 412, 42], "how many?")
    assert verdict.verified and verdict.unmatched == []


def test_invented_number_is_flagged_with_the_computed_ones() -> None:
    verdict = verify("45 unique cable modems had T3 timeouts.", 45, [412, 42], "how many?")
    assert not verdict.verified
    assert verdict.unmatched == [45.0]
    assert 42.0 in verdict.computed


def test_numbers_from_the_question_are_allowed() -> None:
    assert verify("In the last 2 hours there were 7 errors.", 7, [7], "errors in the last 2 hours?").verified


def test_nothing_computed_is_never_verified() -> None:
    assert not verify("There are no errors.", None, [], "any errors?").verified


def test_an_answer_stating_nothing_a_tool_returned_is_not_verified() -> None:
    computed = [{"bn10": 3, "bn138": 3}, 468]
    placeholder = verify("<one sentence stating that result>", None, computed, "which host logged most?")
    assert placeholder.unstated and not placeholder.verified
    named = verify("bn10 logged the most lines.", None, computed, "which host logged most?")
    assert named.verified and not named.unstated
    assert verify("No such lines were found.", None, [0], "how many?").verified


def test_nested_values_count_as_computed() -> None:
    top = [["10.0.0.1", 31], ["10.0.0.2", 17]]
    assert verify("10.0.0.1 leads with 31 attempts, then 10.0.0.2 with 17.", top, [top], "top ips").verified


def test_digits_of_a_name_the_run_filtered_on_are_not_answer_numbers() -> None:
    answer = "653 log lines (from thread LeaseRenewer:msrabi@msra-sa-41:9000)."
    assert not verify(answer, 653, [653], "lines by the LeaseRenewer thread?").verified  # 9000 read as a number
    assert verify(answer, 653, [653], "q", filtered=["LeaseRenewer:msrabi@msra-sa-41:9000"]).verified
    several = "576 log lines (from thread SendWorker:188978561024 or SendWorker:3 or SendWorker:1)."
    regex = r"^(?:SendWorker:188978561024|SendWorker:3|SendWorker:1)$"
    assert verify(several, 576, [576], "q", filtered=[regex]).verified


def test_a_filtered_name_does_not_excuse_other_numbers() -> None:
    thread = "SendWorker:3"
    verdict = verify(f"577 log lines (from thread {thread}), 3 of them today.", 577, [576], "q", filtered=[thread])
    assert verdict.unmatched == [3.0, 577.0]
    # a value of digits alone is a number a count could repeat: it is still checked
    assert verify("2227 log lines (with pid 2227).", 2227, [12], "q", filtered=["2227"]).unmatched == [2227.0]
    # the name counts only quoted whole, not as part of a longer name
    assert verify("9 lines from SendWorker:31.", 9, [9], "q", filtered=[thread]).unmatched == [31.0]


@given(answer=st.text(alphabet="SendWorker:31 9,.()", max_size=40), name=st.text(alphabet="Sk:31.-", max_size=8))
@settings(max_examples=200, deadline=None)
def test_filtering_never_adds_numbers_to_an_answer(answer: str, name: str) -> None:
    filtered = verify(answer, None, [1], "q", filtered=[name]).unmatched
    assert set(filtered) <= set(verify(answer, None, [1], "q").unmatched)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**9), min_size=1, max_size=5))
def test_any_computed_integer_stated_verbatim_verifies(values: list[int]) -> None:
    answer = "Counts: " + ", ".join(f"{v:,}" for v in values) + "."
    assert verify(answer, values[-1], values, "q").verified


def test_evidence_cites_the_rows_behind_the_value() -> None:
    frame = pd.DataFrame({"source": ["a.log"] * 4, "line": [1, 2, 3, 4],
                          "raw": ["one", "two\ncontinued", "three", "four"], "message": ["1", "2", "3", "4"]})
    found = evidence(frame, pd.Index([1, 3]), frame, 3)
    assert [(e.source, e.line, e.text) for e in found] == [("a.log", 2, "two"), ("a.log", 4, "four")]
    assert evidence(frame, None, frame, 3) == []  # the unfiltered log is no evidence
    assert [e.line for e in evidence(frame, None, frame.iloc[2:], 3)] == [3, 4]


def test_an_answer_of_none_after_a_non_empty_result_is_not_verified() -> None:
    verdict = verify("No failed logins.", None, [520], "how many failed logins?", latest=520)
    assert not verdict.verified and verdict.contradicted
    assert not verify("There were 0 failed logins.", 0, [520, 0], "q", latest=520).verified
    assert verify("There were no failed logins.", 0, [520, 0], "q", latest=0).verified  # the last search found 0
    assert verify("520 failed logins.", 520, [520], "q", latest=520).verified


def test_a_request_to_rephrase_is_not_held_to_the_numbers_of_its_quoted_examples() -> None:
    hint = ('No log line matched all of (from python.PythonRunner): the words may not be the ones this log uses. '
            'Please rephrase: try e.g. "how many Warning (5) lines", "top 5 IP addresses".')
    verdict = verify(hint, None, [0, 375], "How many messages were logged by the python runner?", latest=0)
    assert verdict.verified and verdict.unmatched == []
    # outside the quotes, or with a value given, a number is still a claim to check
    assert verify(hint + " There were 42 of them.", None, [0, 375], "q?", latest=0).unmatched == [42.0]
    assert verify(hint, 5, [0, 375], "q?", latest=0).unmatched == [5.0]
    assert verify('There were "42" errors.', None, [0, 375], "q?").unmatched == [42.0]
