"""The retry policy: backoff with jitter within bounds, only retryable errors repeated, each retry recorded."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.contract.planner import RetryRecord
from react_engine.errors import PlannerServerError, PlannerValidationError
from react_engine.planners.retry import RetryPolicy


@settings(max_examples=60, deadline=None)
@given(
    initial=st.floats(0, 2),
    factor=st.floats(1, 4),
    cap=st.floats(0, 10),
    jitter=st.floats(0, 1),
    retry=st.integers(1, 8),
)
def test_delay_grows_by_the_factor_with_bounded_jitter(initial, factor, cap, jitter, retry):
    policy = RetryPolicy(initial_delay=initial, backoff_factor=factor, max_delay=cap, jitter=jitter)
    base = min(cap, initial * factor ** (retry - 1))
    assert base - 1e-9 <= policy.delay(retry) <= min(cap, base * (1 + jitter)) + 1e-9


def _flaky(failures: list[Exception]):
    calls = []

    def call() -> str:
        calls.append(1)
        if failures:
            raise failures.pop(0)
        return "ok"

    return call, calls


def test_retryable_errors_are_repeated_and_recorded():
    call, calls = _flaky([PlannerServerError("HTTP 500 a"), PlannerServerError("HTTP 502 b")])
    records: list[RetryRecord] = []
    slept: list[float] = []
    policy = RetryPolicy(max_attempts=3, initial_delay=1, backoff_factor=3, jitter=0)
    assert policy.call(call, records, sleep=slept.append) == "ok"
    assert len(calls) == 3 and slept == [1, 3]
    assert [(r.attempt, r.error, r.delay_s) for r in records] == [(1, "HTTP 500 a", 1), (2, "HTTP 502 b", 3)]


def test_last_failure_is_raised_after_max_attempts():
    call, calls = _flaky([PlannerServerError(str(n)) for n in range(5)])
    records: list[RetryRecord] = []
    with pytest.raises(PlannerServerError, match="^1$"):
        RetryPolicy(max_attempts=2, initial_delay=0).call(call, records, sleep=lambda s: None)
    assert len(calls) == 2 and len(records) == 1


def test_rejected_requests_are_not_repeated():
    call, calls = _flaky([PlannerValidationError("HTTP 400")])
    records: list[RetryRecord] = []
    with pytest.raises(PlannerValidationError):
        RetryPolicy().call(call, records, sleep=lambda s: pytest.fail("slept"))
    assert len(calls) == 1 and records == []
