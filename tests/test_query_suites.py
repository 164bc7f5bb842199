"""Every question of the sample and operator suites, read into a `Query` over its own logs (no tool runs).

A count, ranking or investigation question reads into the measure its case expects (a value: a count or a
distinct count; a ranking: a top list; an investigation: an investigation measure), leaves no asking word unread
and compiles into calls; an unserved intent reads into a measure, word or problem that says so. An analytics
question (a statistic, first or last time, duration, silence, share, comparison, breakdown or listing) either
reads into its class's measure or says what it leaves unanswered: a reading never answers in full a question it
read as another."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from react_engine.app.evaluation.suite import Case, Suite, load_suite
from react_engine.compile.plan import compiled
from react_engine.contract.planner import ContextView
from react_engine.logs.options import LoadOptions
from react_engine.loop.frames import FrameCache
from react_engine.loop.state import RunState
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
    Preceding,
    Rate,
    Share,
    Span,
    Statistic,
    Timeline,
    Top,
    Unusual,
)
from react_engine.question.query import THRESHOLD_OPS, FieldFilter
from react_engine.question.reading.read import read_question

ROOT = Path(__file__).resolve().parents[1]
SUITES = {name: load_suite(ROOT / "evals" / f"{name}.yaml") for name in ("sample_suite", "operator_suite")}
INVESTIGATIONS = (Patterns, Unusual, Timeline, Preceding)
DISTINCT = re.compile(r"\b(?:distinct|unique|different)\b", re.I)
LINES = re.compile(r"\bhow many (?:log )?(?:lines|entries|events|times|messages)\b", re.I)
ANALYTICS = {"statistic": (Statistic, Rate), "first-last": (Occurrence, Listing), "duration": (Duration, Span),
             "gaps": (Gaps,), "share": (Share,), "comparison": (Comparison,), "breakdown": (Pivot,),
             "listing": (Listing,)}
# questions the rules read as a problem though the case expects a value: their replies are refusals (see the
# operator suite's "refused" column); a reading that answers one makes its test pass, and this list must shrink
REFUSED = frozenset({"modem-sync-loss", "apache-forbidden-ips", "openstack-delete", "proxifier-socks5",
                     "zookeeper-top-request-ip"})
# analytics questions read, with nothing left unread, as another measure (mostly a count: a typo hides the asking
# word, or the word is not read yet): their replies are marked verified and are wrong; this list must shrink too
MISREAD: frozenset[str] = frozenset()


@functools.cache
def _frames(name: str) -> FrameCache:
    return FrameCache(LoadOptions(year=SUITES[name].year))


@functools.cache
def _view(name: str, logs: tuple[str, ...], now: str | None) -> ContextView | None:
    """What a planner sees of a case's logs before any step, built once per suite, log set and time anchor (None
    when they cannot be loaded: such a case is about loading, not reading)."""
    from react_engine.loop.anchor import anchor  # not first: importing it before the rest of the package is a cycle

    frame = _frames(name).get(logs)
    if frame is None:
        return None
    return RunState(question="", frame=frame, now=anchor(frame, now).now).view(1, 10, 5)


def _cases(name: str) -> list[pytest.param]:  # type: ignore[valid-type]
    suite: Suite = SUITES[name]
    return [pytest.param(name, case, id=case.id, marks=_marks(case)) for case in suite.cases]


def _marks(case: Case) -> list[pytest.MarkDecorator]:
    if case.id in REFUSED:
        return [pytest.mark.xfail(strict=True, reason="read as a problem")]
    if case.id in MISREAD:
        return [pytest.mark.xfail(strict=True, reason="read in full as another measure")]
    return []


@pytest.mark.parametrize(("name", "case"), _cases("sample_suite") + _cases("operator_suite"))
def test_each_suite_question_reads_into_the_query_its_case_expects(name: str, case: Case) -> None:
    if case.missing:
        pytest.skip(f"needs {', '.join(case.missing)}")
    view = _view(name, tuple(str(p) for p in case.logs), case.now)
    if view is None:
        pytest.skip("the case's logs do not load: it checks the loader's error")
    uses_severity = any(k != "missing" for k in view.severity_mix)
    assert view.vocabulary is not None
    reading = read_question(case.question, view.columns, view.now, view.vocabulary, uses_severity)
    plan, expect = compiled(reading), case.expect
    measure = reading.query.measure if reading.query is not None else None
    if expect.unserved:
        assert plan.problem or plan.cannot or (reading.query is not None and (
            reading.query.unread or not isinstance(measure, (Count, Distinct, Top, Listing))))
        return
    if case.phrasing == "threshold":  # a count, share, statistic, ranking or listing of the rows past a number
        assert reading.query is not None and not reading.query.unread, plan.problem
        assert any(isinstance(f, FieldFilter) and f.op in THRESHOLD_OPS for f in reading.query.filters)
        return
    if case.phrasing in ANALYTICS:
        if plan.problem is None and plan.cannot is None and reading.query is not None and not reading.query.unread:
            assert isinstance(measure, ANALYTICS[case.phrasing]), f"read in full as {type(measure).__name__}"
        return
    assert plan.problem is None and plan.cannot is None and plan.calls, plan.problem
    assert reading.query is not None and not reading.query.unread
    if case.phrasing == "investigation":
        assert isinstance(measure, INVESTIGATIONS)
    elif expect.top is not None:
        assert isinstance(measure, Top) and (measure.single or measure.n >= expect.top_n)
    elif expect.checks_value:
        assert isinstance(measure, (Count, Distinct))
        if DISTINCT.search(case.question):
            assert isinstance(measure, Distinct)
        if LINES.search(case.question) and not DISTINCT.search(case.question):
            assert isinstance(measure, Count)
