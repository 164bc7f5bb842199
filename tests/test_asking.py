"""Question -> Query, for the words that ask for more than counting, ranking and listing: each lands in the Query's
measure, order and limit, or in its unread words, and a run that did not compute it is a partial answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from react_engine.app.batches import BatchSummary
from react_engine.app.cli import main
from react_engine.app.evaluation.scoring import score
from react_engine.app.evaluation.suite import Case, Expect
from react_engine.compile.plan import build_plan
from react_engine.contract.planner import ContextView
from react_engine.logs import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.planners.script import ScriptPlanner
from react_engine.question.asked import Asked
from react_engine.question.asking import asked, unread_words
from react_engine.question.measures import (
    Comparison,
    Count,
    Distinct,
    Duration,
    Gaps,
    Listing,
    Occurrence,
    Patterns,
    Pivot,
    Share,
    Span,
    Statistic,
    Unusual,
)

ROOT = Path(__file__).parents[1]
CMTS = ROOT / "sample_logs" / "cmts"


def read(question: str) -> Asked:
    return asked(question, [False] * len(question))


@pytest.mark.parametrize(("question", "measure"), [
    ("What is the 95th percentile of request time?", Statistic(func="percentile", q=95, field="request time")),
    ("p99 latency for GET requests", Statistic(func="percentile", q=99, field="latency")),
    ("average response time per host", Statistic(func="mean", field="response time")),
    ("How many bytes were sent in total?", Statistic(func="sum", field="bytes")),
    ("how many bytes were served in total?", Statistic(func="sum", field="bytes")),
    ("total len of all responses?", Statistic(func="sum", field="len")),
    ("smallest received block size?", Statistic(func="min", field="received block size")),
    ("largest len", Statistic(func="max", field="len")),
    ("longest connection lifetime?", Statistic(func="max", field="connection lifetime")),
    ("median response size in bytes?", Statistic(func="median", field="response size bytes", unit="bytes")),
    ("average response time in minutes?", Statistic(func="mean", field="response time", unit="minutes")),
    ("which host has the highest error count?", None),
    ("errors vs warnings?", Comparison(left="errors", right="warnings")),
    ("compare errors: Dec 4 against Dec 5", Comparison(left="errors: Dec 4", right="Dec 5")),
    ("how do notice lines compare with error lines?", Comparison(left="notice lines", right="error lines")),
    ("chrome.exe vs firefox.exe lines?", Comparison(left="chrome.exe", right="firefox.exe lines")),
    ("what % of the log is errors?", Share(of_all=True)),
    ("percentge of lines that are WARN lines?", Share(of_all=True)),
    ("What percentage of lines are warnings?", Share(of_all=True)),
    ("more errors today than yesterday?", Comparison(left="errors today", right="yesterday")),
    ("how many more errors than warnings?", Comparison(left="errors", right="warnings", difference=True)),
    ("how many fewer warnings than errors?", Comparison(left="errors", right="warnings", difference=True)),
    ("errors on host1 vs host2", Comparison(left="errors on host1", right="host2")),
    ("T3 timeouts per host per hour", Pivot(rows="host", columns="hour")),
    ("failed logins by user and ip", Pivot(rows="user", columns="ip")),
    ("when did the first reboot happen?", Occurrence(which="first")),
    ("when was the last T3 timeout", Occurrence(which="last")),
    ("how long did the outage last?", Span()),
    ("how long does the log span?", Span()),
    ("how much time does this log cover?", Span()),
    ("how long did errors go on, from the first to the last?", Span()),
    ("time between the first and last ERROR lines?", Span()),
    ("whens the frist WARN lines?", Occurrence(which="first")),
    ("lst CSI lines - what time?", Occurrence(which="last")),
    ("time of the most recent Cocoa scripting errors?", Occurrence(which="last")),
    ("latest warnings?", Occurrence(which="last")),
    ("requests by method and status?", Pivot(rows="method", columns="status")),
    ("longest pause between log lines?", Gaps()),
    ("whats the longest time with no log lines?", Gaps()),
    ("any gaps in logging?", Gaps()),
    ("largest interval between two 'check pass' lines?", Gaps()),
    ("max time between two lines?", Gaps()),
    ("biggest time gap between consecutive 'Expiring session' messages", Gaps()),
    ("longest wait between two 'synchronized to' lines?", Gaps()),
    ("longest time the log went quiet?", Gaps()),
    ("average gap between errors?", Statistic(func="mean", field="gap")),  # no tool's yet: never the longest gap
    ("smallest amount of bytes received?", Statistic(func="min", field="bytes received")),
    ("what portion of the log is 'Received disconnect'?", Share(of_all=True)),
    ("what percent of errors are 'Directory index forbidden'?", Share(base=("errors",))),
    ("what fraction of requests were 404s?", Share(of_all=True)),
    ("what percent of responses are 404s?", Share(of_all=True)),  # an access log's lines are its responses
    ("max time to read a broadcast variable", Statistic(func="max", field="time")),
    ("component and level breakdown", Pivot(rows="component", columns="level")),
    ("component by level counts", Pivot(rows="component", columns="level")),
    ("error and warning counts", None),
    ("check pass; user unknown vs session closed", Comparison(left="check pass; user unknown", right="session closed")),
    ("'Kerberos authentication failed' vs 'Authentication failed from'",
     Comparison(left="'Kerberos authentication failed'", right="'Authentication failed from'")),
    ("workerEnv.init() ok compared to 'workerEnv in error state'",
     Comparison(left="workerEnv.init() ok", right="'workerEnv in error state'")),
    ("notices on the 4th of December compared with the 5th?",
     Comparison(left="notices on the 4th of December", right="notices on the 5th of December")),
    ("errors on Dec 21 vs the 22nd", Comparison(left="errors on Dec 21", right="errors on Dec 22")),
    ("how many seconds does the log cover?", Span()),
    ("how long did the lines last, start to finish?", Span()),
    ("elapsed time from the first Expiring session message to the last one?", Span()),
    ("what kinds of errors are there?", Patterns()),
    ("anything unusual in the last hour?", Unusual()),
])
def test_asking_words_become_the_measure(question: str, measure: object) -> None:
    assert read(question).measure == measure


@pytest.mark.parametrize(("question", "order", "limit"), [
    ("show the last error", "newest", 1),
    ("last 3 critical events", "newest", 3),
    ("the first five warnings", "oldest", 5),
    ("10 most recent reboots", "newest", 10),
    ("show the latest errors", "newest", 1),
    ("most recent five PacketResponder lines", "newest", 5),
])
def test_order_and_limit_of_a_listing(question: str, order: str, limit: int) -> None:
    found = read(question)
    assert (found.measure, found.order, found.limit) == (None, order, limit)


@pytest.mark.parametrize("question", ["how long is the log, first line to last?", "how long does the log span?",
                                      "how long did sessions last on average?", "time between the first and last X?"])
def test_the_words_of_a_span_leave_no_asking_word_unread(question: str) -> None:
    found = read(question)
    used = [any(a <= i < b for a, b in found.spans) for i in range(len(question))]
    assert unread_words(question, used) == []
    assert found.measure == (Duration(start="", end="") if "average" in question else Span())


def test_words_other_rules_read_are_not_read_again() -> None:
    text = "errors in the last hour"
    used = [text.index("last") <= i < text.index("hour") + 4 for i in range(len(text))]
    assert read(text).order == "newest"
    assert asked(text, used).order is None
    assert unread_words(text, used) == []
    assert unread_words("the latest error than", [False] * 21) == ["latest", "than"]


@given(st.text(max_size=60))
def test_reading_any_text_never_fails_and_reads_only_its_spans(text: str) -> None:
    found = asked(text, [False] * len(text))
    assert all(0 <= a < b <= len(text) for a, b in found.spans)
    assert set(unread_words(text, [True] * len(text))) == set()


def view(question: str) -> ContextView:
    return ContextView(question=question, iteration=1, max_iterations=10, now="2026-11-20T15:59:58+00:00",
                       total_rows=100, row_count=100, history=[],
                       columns=["timestamp", "severity", "level_raw", "host", "component", "message"],
                       known_values={"host": ["MAWED07T01", "NYBRK03T02"], "component": ["CMTS"]})


@pytest.mark.parametrize(("question", "measure"), [
    ("how many hosts?", Distinct),
    ("how many components?", Distinct),
    ("how many lines?", Count),
    ("show the last error", Listing),
    ("What percentage of lines are warnings?", Share),
])
def test_the_plan_carries_the_query(question: str, measure: type) -> None:
    plan = build_plan(question, view(question), True)
    assert plan.query is not None and isinstance(plan.query.measure, measure)


def test_a_share_once_its_tool_runs_is_answered_from_the_query() -> None:
    result = Engine(RulesPlanner()).ask("What percentage of lines are critical?", [CMTS])
    assert result.answered and result.verified and not result.partial
    assert result.interpretation is not None and result.interpretation.query is not None
    assert isinstance(result.interpretation.query.measure, Share)


def test_a_breakdown_by_two_keys_is_answered_with_its_table_as_the_value() -> None:
    result = Engine(RulesPlanner()).ask("lines per level per logger", [ROOT / "sample_logs" / "app" / "app.jsonl"])
    records = [json.loads(line) for line in (ROOT / "sample_logs" / "app" / "app.jsonl").read_text().splitlines()]
    assert result.answered and result.verified and isinstance(result.value, dict)
    assert set(result.value) == {r["level"] for r in records}
    assert result.value["WARN"]["db.pool"] == sum(r["level"] == "WARN" and r["logger"] == "db.pool" for r in records)


def test_dropped_asking_words_are_listed_and_make_the_answer_partial() -> None:
    result = Engine(RulesPlanner()).ask("slowest critical lines", [CMTS])
    assert result.partial and not result.answered
    assert result.interpretation is not None and result.interpretation.ignored[:1] == ["slowest"]
    assert result.answer.startswith('I did not read "slowest": I counted the lines (with severity critical) (2,803)')


def test_a_full_answer_stays_verified() -> None:
    result = Engine(RulesPlanner()).ask("how many hosts?", [CMTS])
    assert result.answered and result.verified and not result.partial
    assert result.value == 4


def test_last_orders_by_time_descending() -> None:
    result = Engine(RulesPlanner()).ask("show the last 2 critical events", [CMTS])
    lines = result.steps[-2].value
    assert result.answered and len(lines) == 2
    frame = result.rows
    newest = frame[frame["severity"] == "critical"]["timestamp"].max()
    assert newest.strftime("%Y-%m-%d,%H:%M:%S") in lines[0]


def test_errors_mean_error_or_worse_where_the_log_writes_worse_and_say_so() -> None:
    result = Engine(RulesPlanner()).ask("how many errors?", [CMTS])
    assert result.answered and result.value == 2803
    assert "error or worse" in result.answer and "critical" in result.answer


def test_cli_partial_exit_code_and_json() -> None:
    done = CliRunner().invoke(main, ["ask", "slowest critical lines", str(CMTS), "--planner", "rules", "--no-trace",
                                     "--json"])
    assert done.exit_code == 1
    out = json.loads(done.stdout)
    assert out["partial"] is True and out["verified"] is False


def test_refusals_are_never_answered() -> None:
    result = Engine(RulesPlanner()).ask("why did the modems go offline?", [CMTS], load_options=LoadOptions())
    assert not result.verified and not result.answered


def test_a_model_planner_reply_is_checked_against_the_same_query() -> None:
    replies = ['{"action": "filter_by_severity", "params": {"levels": ["critical"]}}',
               '{"action": "get_log_count", "params": {}}',
               '{"action": "finalize_answer", "params": {"answer": "There are 2803 critical lines.", "value": 2803}}']
    result = Engine(ScriptPlanner(replies)).ask("What percentage of lines are critical?", [CMTS])
    assert result.partial and not result.verified and not result.answered
    assert result.answer.startswith("Partial answer (not computed: a percentage)")
    assert any(w.startswith("partial:") for w in result.warnings)
    summary = BatchSummary(out="x", total=1)
    summary.add(result)
    assert (summary.answered, summary.partial, summary.refused) == (0, 1, 0)
    assert summary.outcomes["partial"] == 1


def test_an_unserved_case_passes_only_as_a_partial_answer_or_a_refusal() -> None:
    case = Case(id="unread", question="slowest critical lines", logs=[str(CMTS)],
                expect=Expect(unserved=True))
    partial = Engine(RulesPlanner()).ask(case.question, [CMTS])
    assert score(case, partial).passed
    full = Engine(RulesPlanner()).ask("how many critical lines?", [CMTS])
    scored = score(case.model_copy(update={"question": "how many critical lines?"}), full)
    assert not scored.passed and scored.outcome == "wrong"


@pytest.mark.parametrize(("question", "by"), [("avg ambient by node", "by node"), ("p90 of time per status", "per status"),
                                            ("avg bytes sent by chrome.exe", None), ("average latency", None)])
def test_the_words_grouping_a_statistic_are_kept_however_else_they_were_read(question: str, by: str | None) -> None:
    assert read(question).by == by


def test_compare_left_unread_makes_the_reply_partial() -> None:
    text = "compare average latency_ms of api.orders and api.users"
    assert "compare" in unread_words(text, [False] * len(text))



@pytest.mark.parametrize("question", ["what is the error rate", "failure rate for api.payments", "error rate per hour"])
def test_an_event_rate_is_a_share_of_the_lines_its_event_word_left_to_the_filters(question: str) -> None:
    found = read(question)
    assert found.measure == Share() and "rate" in found.words and not any("error" in w or "fail" in w
                                                                            for w in found.words)
    assert not isinstance(read("request rate per second").measure, Share)  # a rate in time
