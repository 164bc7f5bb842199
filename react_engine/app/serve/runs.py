"""Runs started over HTTP: each answers one question on a worker thread (at most `max_runs` at once, the rest
queued), records its steps as events for the stream, and can be cancelled."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from react_engine.answer.tables import result_table
from react_engine.app.serve.approvals import Pending
from react_engine.contract.record import RunResult, Step, StopReason
from react_engine.loop.stops import Stop, explain

STEP_FIELDS = {"iteration", "kind", "action", "params", "observation", "value", "ok", "error", "duration_ms",
               "rows_in", "rows_out"}


class Busy(Exception):
    """More runs are waiting than the server queues (429)."""


class Changes:
    """A version a worker thread bumps; coroutines on any event loop wait for it to move."""

    def __init__(self) -> None:
        self.version = 0
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    def bump(self) -> None:
        with self._lock:
            self.version += 1
            waiters, self._waiters = self._waiters, []
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that loop has closed: nobody waits there any more
                pass

    async def wait(self, seen: int, timeout: float) -> int:
        """The version once it is past `seen`, or after `timeout` seconds."""
        event = asyncio.Event()
        with self._lock:
            if self.version != seen:
                return self.version
            self._waiters.append((asyncio.get_running_loop(), event))
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            pass
        return self.version


class Run:
    """One question asked in a session: its status, steps so far as events, the approval it waits for and its
    result."""

    def __init__(self, session_id: str, question: str, planner: str) -> None:
        self.id = uuid.uuid4().hex
        self.session_id = session_id
        self.question = question
        self.planner = planner
        self.created = time.time()
        self.state = "queued"  # queued | running | awaiting_approval | done
        self.events: list[dict[str, Any]] = []
        self.changes = Changes()
        self.cancelled = threading.Event()
        self.pending: Pending | None = None
        self.answered: list[dict[str, Any]] = []
        self.steps: list[Step] = []
        self.result: RunResult | None = None
        self.table: dict[str, Any] | None = None
        self._lock = threading.Lock()

    @property
    def status(self) -> str:
        """running (queued too), awaiting_approval or done."""
        return "running" if self.state == "queued" else self.state

    def emit(self, event: str, data: dict[str, Any]) -> None:
        with self._lock:
            self.events.append({"event": event, "data": data})
        self.changes.bump()

    def begin(self) -> None:
        self.state = "running"
        self.emit("status", {"status": "running", "question": self.question})

    def on_step(self, step: Step) -> None:
        """The engine's step callback: record and stream the step; end the run here when it was cancelled."""
        self.steps.append(step)
        self.emit("step", step.model_dump(mode="json", include=STEP_FIELDS))
        if self.cancelled.is_set():
            raise Stop("cancelled", "the run was cancelled")

    def show(self, pending: Pending | None) -> None:
        """The approver's news: an approval waits (`pending`), or the one waiting was answered or closed."""
        if pending is not None:
            self.pending, self.state = pending, "awaiting_approval"
            self.emit("approval", pending.shown())
            return
        closed, self.pending = self.pending, None
        if closed is not None:
            decision = {"request_id": closed.request_id, "tool_name": closed.tool_name, "approved": closed.approved,
                        "reason": closed.reason}
            self.answered.append(decision)
            self.state = "running"
            self.emit("approval_answered", decision)

    def decide(self, request_id: str, approved: bool, reason: str) -> bool | None:
        """Answer the approval `request_id` if this run waits for it (None when it does not): True when answered
        now, False when it had just been answered or timed out. The run counts as running again at once."""
        pending = self.pending
        if pending is None or pending.request_id != request_id:
            return None
        if not pending.answer(approved, reason):
            return False
        if self.state == "awaiting_approval":
            self.state = "running"
        return True

    def cancel(self) -> bool:
        """Ask the run to stop (at its next step, or at once while it waits for an approval or in the queue);
        False when it had already finished."""
        if self.state == "done":
            return False
        self.cancelled.set()
        pending = self.pending
        if pending is not None and pending.answer(False, "cancelled") and self.state == "awaiting_approval":
            self.state = "running"
        return True

    def finish(self, result: RunResult) -> None:
        """The run's result; the rows behind it are laid out as its table now and then let go (a kept run holds
        no frame: the session keeps the rows a follow-up needs)."""
        table = result_table(result)
        self.table = table.model_dump(mode="json") if table is not None else None
        result._rows = None
        self.result, self.state = result, "done"
        self.emit("done", {"status": "done", "stop_reason": result.stop_reason, "answer": result.answer,
                           "verified": result.verified, "partial": result.partial, "answered": result.answered})

    def stopped(self, reason: StopReason, message: str, error_type: str | None = None) -> None:
        """Finish without the engine's result: cancelled in the queue, or a failure outside the engine."""
        self.finish(RunResult(query=self.question, answer=f"No answer: {message}", stop_reason=reason,
                              message=message, error_type=error_type, steps=self.steps, planner=self.planner))

    def body(self) -> dict[str, Any]:
        """`ask --json`'s object (so far, while running) with the status, the approval waiting and those answered,
        and the table behind the answer."""
        result = self.result
        if result is not None:
            body = result.model_dump(mode="json")
            body["table"], body["hint"] = self.table, explain(result)
        else:
            body = {"query": self.question, "planner": self.planner,
                    "steps": [s.model_dump(mode="json") for s in list(self.steps)]}
        body.update(run_id=self.id, session_id=self.session_id, status=self.status, approvals=list(self.answered))
        if self.state == "queued":
            body["queued"] = True
        if (pending := self.pending) is not None:
            body["approval"] = pending.shown()
        return body


class RunQueue:
    """Runs on `workers` threads, at most `queued` more waiting; the last `kept` finished runs stay readable."""

    def __init__(self, workers: int, queued: int, kept: int) -> None:
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="serve-run")
        self.workers, self.queued, self.kept = workers, queued, kept
        self.runs: OrderedDict[str, Run] = OrderedDict()
        self._lock = threading.Lock()

    def submit(self, run: Run, work: Callable[[Run], RunResult]) -> None:
        """Queue `run`, to be answered by `work`; Busy when the queue is full."""
        with self._lock:
            active = sum(1 for r in self.runs.values() if r.state != "done")
            if active >= self.workers + self.queued:
                raise Busy(f"{active} runs are running or queued, the most this server takes; try again shortly")
            self.runs[run.id] = run
            self._forget()
        self.pool.submit(self._execute, run, work)

    def _execute(self, run: Run, work: Callable[[Run], RunResult]) -> None:
        if run.cancelled.is_set():
            run.stopped("cancelled", "the run was cancelled before it started")
            return
        run.begin()
        try:
            run.finish(work(run))
        except Exception as exc:  # a failure outside the engine ends this run, never the server
            run.stopped("error", f"{type(exc).__name__}: {exc}", type(exc).__name__)

    def _forget(self) -> None:
        done = [k for k, r in self.runs.items() if r.state == "done"]
        for key in done[: max(0, len(done) - self.kept)]:
            del self.runs[key]

    def get(self, run_id: str) -> Run | None:
        with self._lock:
            return self.runs.get(run_id)

    def cancel_all(self) -> None:
        """Cancel every run: a queued one finishes as cancelled when a worker reaches it."""
        with self._lock:
            runs = list(self.runs.values())
        for run in runs:
            run.cancel()

    def close(self) -> None:
        """Cancel every run and stop the workers."""
        self.cancel_all()
        self.pool.shutdown(wait=False, cancel_futures=True)
