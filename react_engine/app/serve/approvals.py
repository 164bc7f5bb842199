"""Approvals over HTTP: a run that reaches a tool needing approval pauses on its worker thread until the API answers,
the approval's time limit passes (the run stops with `approval_timeout`) or the run is cancelled."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from react_engine.loop.approval import Approver
from react_engine.loop.stops import Stop
from react_engine.tools import Params, Tool


@dataclass
class Pending:
    """One approval asked of the user: what would run, and, once answered, the answer."""

    tool_name: str
    tool_description: str
    parameters: dict[str, Any]
    request_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    answered: threading.Event = field(default_factory=threading.Event)
    approved: bool = False
    reason: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def shown(self) -> dict[str, Any]:
        """The request as the API shows it."""
        return {"request_id": self.request_id, "tool_name": self.tool_name,
                "tool_description": self.tool_description, "parameters": self.parameters}

    def answer(self, approved: bool, reason: str) -> bool:
        """Record the answer; False when it was already answered (or timed out)."""
        with self._lock:
            if self.answered.is_set():
                return False
            self.approved, self.reason = approved, reason
            self.answered.set()
            return True


class Waiting:
    """The run an approver asks for: `show` tells it that an approval waits (a `Pending`) or was closed (None);
    `cancelled` is set when the run is cancelled."""

    def __init__(self, show: Callable[[Pending | None], None], cancelled: threading.Event) -> None:
        self.show = show
        self.cancelled = cancelled


class HttpApprover(Approver):
    """Asks each approval through the API and waits for its answer up to `timeout` seconds. Tools in
    `pre_approved` run without asking; an existing file is replaced only with `overwrite`."""

    def __init__(self, waiting: Waiting, timeout: float, *, pre_approved: Iterable[str] = (),
                 overwrite: bool = False) -> None:
        super().__init__(pre_approved=pre_approved, overwrite=overwrite)
        self.waiting = waiting
        self.timeout = timeout

    def approve(self, tool: Tool, params: Params) -> bool:
        if tool.name in self.pre_approved:
            return True
        pending = Pending(tool.name, tool.description, params.model_dump(mode="json"))
        self.waiting.show(pending)
        try:
            pending.answered.wait(self.timeout)
        finally:
            unanswered = pending.answer(False, "not answered in time")  # closed to late answers
            self.waiting.show(None)
        if self.waiting.cancelled.is_set():
            raise Stop("cancelled", "the run was cancelled while an approval was waiting")
        if unanswered:
            raise Stop("approval_timeout", f"the approval of {tool.name} ({pending.request_id}) was not answered "
                                           f"within {self.timeout:g}s; ask again and answer it in time")
        return pending.approved
