"""The stop-reason matrix: only transport errors are retried; unusual stops get a hint."""

from __future__ import annotations

import pytest

from react_engine import errors
from react_engine.contract.record import STOP_REASONS, RunResult, Statistics
from react_engine.loop.stops import RETRYABLE_ERRORS, explain, should_retry, summary_hints


def _result(reason: str, error_type: str | None = None, **kwargs) -> RunResult:
    return RunResult(query="q", answer="a", stop_reason=reason, error_type=error_type, planner="test", **kwargs)


def _planner_errors() -> list[type[errors.PlannerError]]:
    found, todo = [], [errors.PlannerError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


@pytest.mark.parametrize("cls", _planner_errors(), ids=lambda c: c.__name__)
def test_an_error_is_retried_exactly_when_it_comes_from_transport(cls) -> None:
    transport = cls in (errors.PlannerConnectionError, errors.PlannerServerError, errors.PlannerOverloadedError)
    assert should_retry(_result("error", cls.__name__)) is transport
    assert (cls.__name__ in RETRYABLE_ERRORS) is transport


@pytest.mark.parametrize("reason", [r for r in STOP_REASONS if r != "error"])
def test_no_other_stop_reason_is_retried(reason: str) -> None:
    assert not should_retry(_result(reason, "PlannerConnectionError"))


def test_an_error_without_a_known_type_is_not_retried() -> None:
    assert not should_retry(_result("error", "InputError"))
    assert not should_retry(_result("error", None))


@pytest.mark.parametrize("reason", STOP_REASONS)
def test_every_unusual_stop_is_explained_and_a_normal_one_is_not(reason: str) -> None:
    hint = explain(_result(reason, message="logs.txt: not found: check the path"))
    assert (hint is None) == (reason == "stop")


def test_hints_carry_the_fix() -> None:
    limit = _result("tool_limit", statistics=Statistics(iterations=10))
    assert explain(limit).startswith("hit max_iterations (10)") and "--max-iterations" in explain(limit)
    assert "num_predict" in explain(_result("length"))
    assert "num_ctx" in explain(_result("insufficient_context"))
    assert "--yes" in explain(_result("approval_denied")) and "--approve" in explain(_result("approval_denied"))
    assert "check that it is running" in explain(_result("error", "PlannerConnectionError"))
    unreachable = "the server at http://127.0.0.1:8080/v1 is not reachable: start it, fix --base-url"
    hint = explain(_result("error", "PlannerConnectionError", message=unreachable))
    assert hint == f"PlannerConnectionError: {unreachable}" and "ollama" not in hint
    assert explain(_result("error", "InputError", message="x.log: not found: check the path")) == \
        "x.log: not found: check the path"


def test_batch_hints_skip_normal_stops_and_put_the_most_frequent_first() -> None:
    hints = summary_hints({"stop": 40, "length": 2, "tool_limit": 5, "time_limit": 0})
    assert len(hints) == 2
    assert hints[0].startswith("5 × tool_limit") and "trace show" in hints[0]
    assert hints[1].startswith("2 × length") and "num_predict" in hints[1]


def test_batch_errors_are_broken_down_by_type_with_the_transport_fix() -> None:
    [hint] = summary_hints({"error": 3}, {"ModelNotFoundError": 1, "PlannerConnectionError": 2})
    assert hint.startswith("3 × error: (PlannerConnectionError 2, ModelNotFoundError 1)")
    assert "check that it is running" in hint and "ollama" not in hint
    [plain] = summary_hints({"error": 1}, {"InputError": 1})
    assert "InputError 1" in plain and "ollama" not in plain
