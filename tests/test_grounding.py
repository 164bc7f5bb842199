"""Answers are checked against computed values; evidence comes from the rows behind them."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from react_engine.answer.check import evidence, numbers_in, verify
from react_engine.answer.grounds import grounds
from react_engine.answer.names import Name
from react_engine.contract.record import ActionStep
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
@example("-0:00")  # a sign before a clock time
@given(st.text(alphabet="aZ_09.,:-/+% T\n", max_size=40)
       | st.text(alphabet=st.characters(exclude_categories=["Lu", "Ll", "Lt", "Lm", "Lo", "Sm", "Sk", "Po"]),
                 max_size=40))
def test_number_extraction_agrees_with_the_reference_grammar(text: str) -> None:
    cleaned = _REFERENCE_SKIPPED.sub(" ", text)
    expected = [float(m.group().rstrip("%").replace(",", "")) for m in _REFERENCE_NUMBER.finditer(cleaned)]
    assert numbers_in(text) == expected


@pytest.mark.parametrize("text", ["a" * 1_000_000, "a." * 500_000, "a-" * 500_000, "1," * 500_000,
                                  "1." * 500_000, "a1" * 500_000])
def test_number_extraction_is_linear(text: str) -> None:
    code = f"from react_engine.answer.check import numbers_in; numbers_in({text[:2]!r} * {len(text) // 2})"
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


def test_number_words_of_a_quoted_searched_phrase_are_not_answer_numbers() -> None:
    phrase = Name("four character codes must be four characters long.", phrase=True)
    answer = 'The 71 lines (containing "four character codes must be four characters long.") span 0 s.'
    assert verify(answer, 0, [71, 0], "q", filtered=[phrase]).verified
    assert not verify(answer.replace('"', ""), 0, [71, 0], "q", filtered=[phrase]).verified  # unquoted: a number


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


def test_digits_in_text_are_names_never_computed_numbers() -> None:
    lines = ["a.log:3 WARNING Total errors: 31337", "a.log:4 retried 2k times"]
    assert verify("There were 31337 errors.", None, [lines, 5], "q").unmatched == [31337.0]
    assert verify("There were 31337 errors.", 31337, [[["31337", 4]]], "q").unmatched == [31337.0]
    assert verify(f"The line: {lines[0]} (of 5).", None, [lines, 5], "q").verified  # the line, quoted whole


def test_a_name_of_digits_alone_counts_after_its_field_or_before_its_count() -> None:
    ranked = [["2227", 737], ["1702", 12]]
    basis = [Name(t, "pid") for t in ("2227", "1702")]
    assert verify("pid 2227 has the most, with 737 lines.", "2227", [ranked], "q", filtered=basis).verified
    assert verify("Top pids: 2227 (737), 1702 (12).", ranked, [ranked], "q").verified
    assert verify("There were 2227 errors (737 lines).", None, [ranked], "q", filtered=basis).unmatched == [2227.0]


@pytest.mark.parametrize("claim", ["two thousand", "2k", "2K", "2e3", "2.0E+03", "2 x 10^3", "2 thousand",
                                   "2,000", "2000.0"])
def test_every_written_form_of_a_number_is_read(claim: str) -> None:
    assert numbers_in(claim) == [2000.0]
    assert verify(f"{claim} failed logins.", None, [2000], "q").verified
    assert verify(f"{claim} failed logins.", None, [2], "q").unmatched == [2000.0]


def test_a_lone_one_is_a_word_and_number_words_compose() -> None:
    assert numbers_in("one of the hosts") == []
    assert numbers_in("two million three hundred and five") == [2000305.0]
    assert numbers_in("twenty-one hosts, a million lines, 2.5M bytes, 3bn rows") == [21.0, 1e6, 2.5e6, 3e9]


def test_a_duration_is_checked_in_seconds_to_its_smallest_unit() -> None:
    computed = [{"first": "2026-11-20T10:00:03+00:00", "last": "2026-11-20T14:17:17+00:00", "seconds": 15434}]
    for answer in ("It lasted 4 h 17 min 14 s.", "It lasted 4 hours, 17 minutes and 14 seconds.",
                   "It lasted 4h17m14s.", "It lasted 257 minutes."):
        assert verify(answer, None, computed, "how long?").verified, answer
    assert not verify("It lasted 4 h 17 min 15 s.", None, computed, "how long?").verified
    assert not verify("It lasted 5 hours.", None, computed, "how long?").verified
    assert verify("In the last 2 hours: 7 errors.", 7, [7], "errors in the last 2 hours?").verified
    assert verify("Errors came in 5 hours.", None, [5], "q").verified  # a one-unit duration of a computed number
    window = ["now-24h", "time 2026-11-19T16:00:00+00:00..2026-11-20T16:00:00+00:00 -> 7 of 9 rows"]
    assert verify("7 errors in the last 24 hours.", 7, [7], "errors in the last day?", times=window).verified
    assert not verify("7 errors in the last 24 hours.", 7, [7], "errors in the last day?").verified


def test_a_time_must_agree_with_a_computed_or_given_time() -> None:
    computed = [{"first": "2026-11-20T10:00:03+00:00", "count": 7}]
    assert verify("The first of 7 was at 2026-11-20 10:00:03.", None, computed, "q").verified
    assert verify("The first of 7 was on Nov 20 at 10:00.", None, computed, "q").verified
    verdict = verify("The first of 7 was at 2026-11-21 10:00:03.", None, computed, "q")
    assert not verdict.verified and verdict.unmatched_text == ["2026-11-21 10:00:03"]
    assert verify("7 lines around 2025-12-10T09:30:00.", 7, [7], "anything around 09:30?").verified


def test_a_share_asked_for_of_two_computed_counts_the_answer_names_is_grounded() -> None:
    assert verify("5 of 40 lines (12.5%) failed.", None, [5, 40], "what share of lines failed?").verified
    assert verify("5 of 40 lines (13%) failed.", None, [5, 40], "what percent failed?").verified
    assert not verify("5 of 40 lines (13.5%) failed.", None, [5, 40], "what share of lines failed?").verified
    # a ratio of two computed numbers the answer does not name, or that the question does not ask for, is no share
    assert verify("12.5% of lines failed.", None, [5, 40], "what share of lines failed?").unmatched == [12.5]
    assert verify("5 of 40 lines (12.5%) failed.", None, [5, 40], "how many failed?").unmatched == [12.5]
    assert verify("12.5% of lines failed.", None, [{"percent": 12.5, "rows": 5, "of": 40}], "q").verified
    shares = {"columns": ["host", "percent", "rows", "of"], "rows": [["web1", 12.5, 5, 40]]}
    assert verify("web1: 12.5% (5 of 40).", None, [shares], "q").verified  # a share in a table's column
    assert verify("5% of 40 lines failed.", None, [5, 40], "q").unmatched == [5.0]  # a count is no share


def test_many_percentages_of_bucket_counts_are_not_grounded() -> None:
    counts = [5, 19, 7, 11, 3, 23, 2, 17, 13, 29, 31, 37, 41]
    stated = [f"{p / 10:.1f}%" for p in range(1, 1000)]
    verdict = verify(", ".join(stated), None, [[[f"2026-11-20T{h:02d}:00", c] for h, c in enumerate(counts)]],
                     "what percent of lines are errors?")
    assert len(verdict.unmatched) == 999  # a count is no share, nor is a ratio of two unnamed counts


@pytest.mark.parametrize(("computed", "right", "wrong"), [
    (0.03, ["0.03 s", "30 ms", "0.030 s", "0 s"], ["0.001 s", "0.05 s", "0.031 s", "0.0299 s"]),
    (1.1325, ["1.13 s", "1.1 s", "1 s", "1.1325 s", "1,132.5 ms"], ["1.05 s", "1.15 s", "1.14 s", "1.134 s", "1.1326 s"]),
    (1.1325, ["1.13", "1.1", "1"], ["1.05", "1.15", "1.14", "1.134", "1.2"]),
])
def test_a_rounding_is_allowed_to_the_digits_a_number_shows(computed: float, right: list[str],
                                                            wrong: list[str]) -> None:
    for claim in right:
        assert verify(f"The value is {claim}.", None, [{"min": computed}], "q").verified, claim
    for claim in wrong:
        assert not verify(f"The value is {claim}.", None, [{"min": computed}], "q").verified, claim


def test_a_share_is_grounded_by_its_rounding_to_the_digits_shown() -> None:
    share = [{"percent": 33.9362, "rows": 319, "of": 940}]
    for claim in ("33.9%", "34%", "33.94%", "33.936%"):
        assert verify(f"{claim} of the lines.", None, share, "what share?").verified, claim
    for claim in ("33.85%", "33.8%", "33%", "33.93%", "35%"):
        assert not verify(f"{claim} of the lines.", None, share, "what share?").verified, claim
    assert verify("The mean is 1.13.", 1.13, [{"mean": 1.1325}], "q").verified  # the value as the answer rounds it
    assert not verify("The mean is 1.13.", 1.15, [{"mean": 1.1325}], "q").verified


def test_a_filter_phrase_counts_only_while_the_filter_shapes_the_rows() -> None:
    def step(i: int, action: str, rows_in: int, rows_out: int, **params: object) -> ActionStep:
        return ActionStep(iteration=i, action=action, params=params, value=rows_out, rows_in=rows_in, rows_out=rows_out)

    phrase = step(1, "filter_by_field", 4, 0, field="message", op="contains", value="had 9999 critical errors")
    narrowing = {"filter_by_field", "search_logs"}
    answer = '0 lines say "had 9999 critical errors".'
    active = grounds([phrase], narrowing)
    assert verify(answer, 0, active.values, "q", filtered=active.names).verified
    undone = grounds([phrase, step(2, "reset_filters", 0, 4), step(3, "search_logs", 4, 2, value="disk")], narrowing)
    assert verify(answer, 0, undone.values, "q", filtered=undone.names).unmatched == [9999.0]


def test_a_huge_answer_is_checked_in_linear_time_and_the_warning_is_short() -> None:
    numbers = list(range(30_000))
    lines = [" ".join(str(i * 1000 + j) for j in range(60)) for i in range(50)]
    began = time.monotonic()
    verdict = verify(", ".join(map(str, numbers)), numbers, [lines, 50], "q")
    assert time.monotonic() - began < 10 and not verdict.verified
    assert len(verdict.warning() or "") < 600
    regex = "^(?:" + "|".join(f"SendWorker:{i}" for i in range(60_000)) + ")$"  # a filter of 60,000 names
    began = time.monotonic()
    verdict = verify("576 lines from " + " or ".join(f"SendWorker:{i}" for i in range(3000)), 576, [576], "q",
                     filtered=[regex])
    assert time.monotonic() - began < 10 and verdict.verified


def test_the_check_stops_at_its_deadline() -> None:
    verdict = verify("1 2 3 " * 1000, None, [1], "q", deadline=time.monotonic() - 1)
    assert not verdict.verified and verdict.unchecked
