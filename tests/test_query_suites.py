"""Every question of the sample and operator suites, read into a `Query` over its own logs (no tool runs): the
reading agrees with what the case expects (a value: a count or a distinct count; a ranking: a top list; an
investigation: an investigation measure; an unserved intent: a measure, word or problem that says so), leaves no
asking word unread and compiles into calls, unless the case is unserved."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from react_engine.evaluation.suite import Case, Suite, load_suite
from react_engine.frames import FrameCache
from react_engine.logs.options import LoadOptions
from react_engine.planners.base import ContextView
from react_engine.planners.rules.plan import compiled
from react_engine.state import RunState
from react_engine.understanding.measures import Count, Distinct, Listing, Patterns, Preceding, Timeline, Top, Unusual
from react_engine.understanding.reading.read import read_question

ROOT = Path(__file__).resolve().parents[1]
SUITES = {name: load_suite(ROOT / "evals" / f"{name}.yaml") for name in ("sample_suite", "operator_suite")}
INVESTIGATIONS = (Patterns, Unusual, Timeline, Preceding)
DISTINCT = re.compile(r"\b(?:distinct|unique|different)\b", re.I)
LINES = re.compile(r"\bhow many (?:log )?(?:lines|entries|events|times|messages)\b", re.I)
# questions the rules read as a problem though the case expects a value: their replies are refusals (see the
# operator suite's "refused" column); a reading that answers one makes its test pass, and this list must shrink
MISREAD = frozenset({"modem-sync-loss", "rfc5424-nginx-web01", "apache-forbidden-ips", "bgl-kernel-info",
                     "openstack-delete", "openstack-404-wordy", "proxifier-socks5", "zookeeper-top-request-ip"})


@functools.cache
def _frames(name: str) -> FrameCache:
    return FrameCache(LoadOptions(year=SUITES[name].year))


@functools.cache
def _state(name: str, logs: tuple[str, ...], now: str | None) -> RunState | None:
    """The run state over a case's logs, loaded once per suite, log set and time anchor (None when they cannot be
    loaded: such a case is about loading, not reading)."""
    from react_engine.anchor import anchor  # not first: importing it before the rest of the package is a cycle

    frame = _frames(name).get(logs)
    return None if frame is None else RunState(question="", frame=frame, now=anchor(frame, now).now)


def _view(name: str, case: Case) -> ContextView | None:
    state = _state(name, tuple(str(p) for p in case.logs), case.now)
    if state is None:
        return None
    fresh = state.restart()
    fresh.question = case.question
    return fresh.view(1, 10, 5)


def _cases(name: str) -> list[pytest.param]:  # type: ignore[valid-type]
    suite: Suite = SUITES[name]
    return [pytest.param(name, case, id=case.id, marks=[pytest.mark.xfail(strict=True, reason="read as a problem")]
                         if case.id in MISREAD else []) for case in suite.cases]


@pytest.mark.parametrize(("name", "case"), _cases("sample_suite") + _cases("operator_suite"))
def test_each_suite_question_reads_into_the_query_its_case_expects(name: str, case: Case) -> None:
    if case.missing:
        pytest.skip(f"needs {', '.join(case.missing)}")
    view = _view(name, case)
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
