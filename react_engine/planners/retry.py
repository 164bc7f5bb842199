"""Retrying transient model-server failures with exponential backoff and jitter."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

from react_engine.contract.planner import RetryRecord
from react_engine.errors import PlannerError

T = TypeVar("T")


class RetryPolicy(BaseModel):
    """How often and how patiently a failed request is repeated.

    Only errors whose class is `retryable` (connection, overload, 5xx, timeouts) are repeated; a rejected
    request (4xx) fails at once.
    """

    model_config = ConfigDict(extra="forbid")

    max_attempts: int = Field(3, ge=1, description="attempts in total, the first included")
    initial_delay: float = Field(0.5, ge=0, description="seconds before the first retry")
    max_delay: float = Field(8.0, ge=0, description="no wait is longer than this")
    backoff_factor: float = Field(2.0, ge=1, description="each wait is this many times the previous one")
    jitter: float = Field(0.25, ge=0, le=1, description="random extra wait, as a fraction of the wait")

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number `retry` (1-based)."""
        base = min(self.max_delay, self.initial_delay * self.backoff_factor ** (retry - 1))
        return min(self.max_delay, base * (1 + random.uniform(0, self.jitter)))

    def call(
        self,
        fn: Callable[[], T],
        records: list[RetryRecord],
        sleep: Callable[[float], None] = time.sleep,
        deadline: float | None = None,
    ) -> T:
        """Run `fn`, repeating it after retryable `PlannerError`s; each repeat is appended to `records`.

        No repeat starts after `deadline` (a `time.monotonic()` value): the last error is raised instead.
        """
        for attempt in range(1, self.max_attempts + 1):
            try:
                return fn()
            except PlannerError as exc:
                if not exc.retryable or attempt == self.max_attempts:
                    raise
                wait = self.delay(attempt)
                if deadline is not None and time.monotonic() + wait >= deadline:
                    raise
                records.append(RetryRecord(attempt=attempt, error=str(exc), delay_s=round(wait, 3)))
                sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover
