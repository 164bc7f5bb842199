"""Scoring one run against its case on three dimensions: answer correctness, tool usage, error handling.

Each dimension scores 0..1, or None when the case does not exercise it. A case passes when correctness and
error handling are perfect and every expected tool was called; tool errors the run recovered from only lower
the tool-usage score. A failed case is a wrong answer when it gave a value that is wrong, a refusal when it
gave no value, and plain failed otherwise (e.g. a right value left unverified). A case whose intent the engine
cannot serve yet (`unserved`) passes only as a partial answer or a refusal; a full answer to it is wrong.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from react_engine.app.evaluation.suite import Case, Expect
from react_engine.contract.record import RunResult

DIMENSIONS = ("correctness", "tool_usage", "error_handling")
Outcome = Literal["passed", "wrong", "refused", "failed", "skipped"]


class Scores(BaseModel):
    correctness: float | None = None
    tool_usage: float | None = None
    error_handling: float | None = None


class Scenario(BaseModel):
    """One case's outcome, as it appears in the report."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    id: str
    question: str
    phrasing: str | None = Field(None, alias="class")
    passed: bool
    outcome: Outcome = "passed"
    skip_reason: str | None = None
    scores: Scores
    failures: list[str] = Field(default_factory=list)
    stop_reason: str
    answer: str
    value: Any = None
    verified: bool = False
    tools_called: list[str] = Field(default_factory=list)
    tool_errors: int = 0
    expected: dict[str, Any] = Field(default_factory=dict)
    duration_s: float = 0.0
    trace_file: str | None = None
    replies: list[str] = Field(default_factory=list)  # the raw planner replies, so a run can be replayed


def _number(value: Any) -> int | float | None:
    """A number, or numeric text ("1,234"); ints stay exact."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        text = value.strip().replace(",", "")
        for kind in (int, float):
            try:
                number = kind(text)
            except ValueError:
                continue
            return number if math.isfinite(number) else None  # "nan" and "inf" are words here, not numbers
    return None


def same_value(actual: Any, expected: Any, tolerance: float = 0.0, rel_tolerance: float = 0.0) -> bool:
    """Numbers within `tolerance` or within `rel_tolerance` of the expected number's size, text
    case-insensitively, lists and dicts element by element."""
    expected_n, actual_n = _number(expected), _number(actual)
    if expected_n is not None and actual_n is not None:
        return _same_number(actual_n, expected_n, tolerance, rel_tolerance)
    return _same_items(actual, expected, tolerance, rel_tolerance)


def _same_number(actual: float, expected: float, tolerance: float, rel_tolerance: float) -> bool:
    """Whole numbers within `tolerance`, unless a relative tolerance is given; others as `math.isclose`."""
    if isinstance(expected, int) and isinstance(actual, int) and not rel_tolerance:
        return abs(actual - expected) <= tolerance
    return math.isclose(actual, expected, rel_tol=max(rel_tolerance, 1e-9), abs_tol=tolerance)


def _same_items(actual: Any, expected: Any, tolerance: float, rel_tolerance: float) -> bool:
    """Lists and dicts element by element (see `same_value`); anything else as text, case-insensitively."""
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        return len(actual) == len(expected) and all(same_value(a, e, tolerance, rel_tolerance)
                                                    for a, e in zip(actual, expected))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return actual.keys() == expected.keys() and all(same_value(actual[k], v, tolerance, rel_tolerance)
                                                        for k, v in expected.items())
    return str(actual).casefold() == str(expected).casefold()


def ranking(value: Any) -> list[Any]:
    """The ranked items of a top-N answer: `[[v, n], ...]`, `[{"value": v, ...}]`, `{v: n}`, `[v, ...]` or `v`."""
    if isinstance(value, dict):
        return list(value)
    if not isinstance(value, list):
        return [] if value is None else [value]
    items = []
    for item in value:
        if isinstance(item, (list, tuple)) and item:
            items.append(item[0])
        elif isinstance(item, dict):
            items.append(item.get("value", next(iter(item.values()), None)))
        else:
            items.append(item)
    return items


def _empty(value: Any) -> bool:
    return value in (None, 0, "", [], {}) or _number(value) == 0


def _given(value: Any) -> bool:
    """The run gave a value (0 counts; None and empty text or lists do not)."""
    return value is not None and value not in ("", [], {})


def _outcome(passed: bool, expect: Expect, result: RunResult) -> Outcome:
    if passed:
        return "passed"
    if expect.unserved:
        return "wrong"  # answered as if served: the reply claims what no tool computed
    if not _given(result.value):
        return "refused"
    wrong_value = expect.checks_value and not same_value(result.value, expect.value, expect.tolerance,
                                                         expect.rel_tolerance)
    wrong_top = expect.top is not None and not _top_holds(expect.top, result.value)
    invented = expect.no_data and not _empty(result.value)
    return "wrong" if wrong_value or wrong_top or invented else "failed"


def _wanted_top(top: list[Any]) -> list[Any]:
    """The expected ranking's values (from `[value, count]` pairs, or the values themselves)."""
    return ranking(top) if all(isinstance(t, (list, tuple)) for t in top) else top


def _top_holds(top: list[Any], value: Any) -> bool:
    want = _wanted_top(top)
    return same_value(ranking(value)[: len(want)], want)


def _correctness(expect: Expect, result: RunResult, failures: list[str]) -> float | None:
    if not expect.checks_answer:
        return None
    checks = _value_checks(expect, result, failures) if expect.checks_value else []
    text = f"{result.answer}\n{result.message or ''}".casefold()
    checks += [_noted(needle.casefold() in text, failures, f"answer lacks {needle!r}") for needle in expect.contains]
    if expect.top is not None:
        want = _wanted_top(expect.top)
        checks.append(_noted(_top_holds(expect.top, result.value), failures,
                             f"top {ranking(result.value)[: len(want)]!r} does not start with {want!r}"))
    return sum(checks) / len(checks)


def _value_checks(expect: Expect, result: RunResult, failures: list[str]) -> list[bool]:
    """The value is the expected one, and verified unless it is empty."""
    checks = [_noted(same_value(result.value, expect.value, expect.tolerance, expect.rel_tolerance), failures,
                     f"value {result.value!r} != expected {expect.value!r}")]
    if not _empty(expect.value):
        checks.append(_noted(result.verified, failures, "answer not verified against computed values"))
    return checks


def _noted(ok: bool, failures: list[str], failure: str) -> bool:
    """`ok`, with `failure` noted in `failures` when it is false."""
    if not ok:
        failures.append(failure)
    return ok


def _tool_usage(expect: Expect, result: RunResult, failures: list[str]) -> tuple[float | None, list[str], int]:
    calls = [s for s in result.steps if s.kind == "tool" and s.action]
    called = [s.action for s in calls if s.action]
    errors = sum(not s.ok for s in calls)
    if not expect.tools and not calls:
        return None, called, errors
    clean = 1 - errors / len(calls) if calls else 1.0
    return (_found(expect.tools, called, failures) + clean) / 2, called, errors


def _found(tools: list[str], called: list[str], failures: list[str]) -> float:
    """The share of the expected tools that were called (1 when none is expected), the others noted."""
    missing = [t for t in tools if t not in called]
    if missing:
        failures.append(f"expected tools not called: {', '.join(missing)}")
    return 1 - len(missing) / len(tools) if tools else 1.0


def _error_handling(expect: Expect, result: RunResult, failures: list[str]) -> float | None:
    if not expect.checks_errors:
        return None
    checks = []
    if expect.stop_reason is not None:
        checks.append(_noted(result.stop_reason == expect.stop_reason and bool(result.answer.strip()), failures,
                             f"stop_reason {result.stop_reason} != expected {expect.stop_reason}"))
    if expect.no_data:
        checks.append(_noted(result.stop_reason == "stop" and not result.partial and _empty(result.value), failures,
                             f"expected a plain 'nothing found' answer, got value {result.value!r} "
                             f"({result.stop_reason})"))
    if expect.unserved:
        checks.append(_noted(not result.verified and (result.partial or result.refused), failures,
                             "an intent the engine cannot serve yet got a full answer instead of a partial answer "
                             "or a refusal"))
    return sum(checks) / len(checks)


def score(case: Case, result: RunResult) -> Scenario:
    """Score `result` against `case`."""
    failures: list[str] = []
    expect = case.expect
    correctness = _correctness(expect, result, failures)
    tool_usage, called, errors = _tool_usage(expect, result, failures)
    error_handling = _error_handling(expect, result, failures)
    passed = correctness in (None, 1.0) and error_handling in (None, 1.0) and all(t in called for t in expect.tools)
    return Scenario(
        id=case.id, question=case.question, phrasing=case.phrasing, passed=passed,
        outcome=_outcome(passed, expect, result),
        scores=Scores(correctness=correctness, tool_usage=tool_usage, error_handling=error_handling),
        failures=failures, stop_reason=result.stop_reason, answer=result.answer, value=result.value,
        verified=result.verified, tools_called=called, tool_errors=errors,
        expected=expect.model_dump(exclude_defaults=True, exclude={"value_from", "contains_from", "top_from"}),
        duration_s=round(result.statistics.execution_time_seconds, 4), trace_file=result.trace_file,
        replies=[text for s in result.steps if (text := s.reply_text()) is not None],
    )


def skipped(case: Case, missing: list[str]) -> Scenario:
    """The entry of a case that did not run because paths it requires are absent."""
    reason = f"needs {', '.join(missing)}: absent here; put the files there to run this case"
    return Scenario(id=case.id, question=case.question, phrasing=case.phrasing, passed=False, outcome="skipped",
                    skip_reason=reason, scores=Scores(), stop_reason="skipped", answer="")
