"""Calls bounded in time: run on a daemon thread and abandoned (left to finish on their own) once time is up."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Overdue(Exception):
    """The call was still running when its time was up; it was abandoned."""


def within(call: Callable[[], T], timeout: float, name: str) -> T:
    """`call()` on a daemon thread named `name`: its result, or what it raised; `Overdue` past `timeout` seconds
    (the process need not wait for an abandoned call to exit)."""
    outcome: list[T | BaseException] = []

    def work() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the caller's thread below
            outcome.append(exc)

    worker = threading.Thread(target=work, name=name, daemon=True)
    worker.start()
    worker.join(max(0.0, timeout))
    if not outcome:
        raise Overdue(name)
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]
