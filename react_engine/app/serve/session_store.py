"""Sessions: the logs a client named (resolved under the roots, their frame kept warm), the planner and options its
questions run with, and the rows the last answer rested on for follow-ups ("how many of those ...")."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from react_engine.app.conversation import is_follow_up
from react_engine.app.roots import inside, log_files
from react_engine.app.serve.approvals import HttpApprover, Waiting
from react_engine.app.serve.limits import ServeLimits
from react_engine.app.serve.runs import Run
from react_engine.app.serve.warm_frames import WarmFrames
from react_engine.contract.planner import Planner
from react_engine.contract.record import RunResult
from react_engine.errors import InputError, ToolError
from react_engine.loop.approval import approvable
from react_engine.loop.engine import Engine
from react_engine.loop.state import resolve_now
from react_engine.planners.factory import PlannerSpec, make_advisor, make_fallback, make_planner
from react_engine.settings import Settings
from react_engine.tracing import Tracer


class SessionOptions(BaseModel):
    """`POST /v1/sessions`: the logs (files, folders or globs under the served roots) and how to answer."""

    model_config = ConfigDict(extra="forbid")

    logs: list[str] = Field(min_length=1, max_length=256, description="log files, folders or globs under the roots")
    planner: Literal["rules", "auto", "ollama", "openai", "anthropic"] = Field(
        "rules", description="rules works offline; a model planner reaches the model the server's environment names")
    model: str | None = Field(None, max_length=200, description="the model a model planner uses")
    now: str | None = Field(None, max_length=64, description="time anchor for 'last hour' (ISO); default: newest log time")
    max_iterations: int = Field(10, ge=1, le=200, description="planner turns before stopping with tool_limit")
    timeout: float | None = Field(None, gt=0, description="seconds a question may take (at most the server's)")
    approve: list[str] = Field(default_factory=list, description="tools that run without asking, e.g. export_results")
    overwrite: bool = Field(False, description="let an approved export replace an existing file (never a log)")
    output_dir: str | None = Field(None, description="where exports are written, under the roots (default: the "
                                                     "first root)")


class Session:
    """A client's logs and options; questions asked in it run one engine each, over the warm frame."""

    def __init__(self, options: SessionOptions, files: tuple[Path, ...], output_dir: Path, planner: Planner,
                 notice: str | None, frames: WarmFrames, limits: ServeLimits) -> None:
        self.id = uuid.uuid4().hex
        self.options, self.files, self.output_dir = options, files, output_dir
        self.planner, self.notice, self.frames, self.limits = planner, notice, frames, limits
        spec = PlannerSpec(kind=options.planner, model=options.model)
        self.fallback, self.advisor = make_fallback(spec, planner), make_advisor()
        timeout = min(options.timeout or limits.run_timeout, limits.run_timeout)
        self.settings = Settings(max_iterations=options.max_iterations, timeout_seconds=timeout,
                                 max_question_chars=limits.max_question_chars)
        self.runs: list[str] = []
        self._lock = threading.Lock()
        self._base: pd.DataFrame | None = None  # the frame the anchor and the follow-up rows come from
        self._now: str | None = None
        self._scope: pd.DataFrame | None = None

    def describe(self) -> dict[str, object]:
        return {"id": self.id, "logs": [str(p) for p in self.files], "planner": self.planner.name,
                "model": self.planner.model, "notice": self.notice, "output_dir": str(self.output_dir),
                "runs": list(self.runs)}

    def _rows(self, question: str) -> tuple[pd.DataFrame, pd.DataFrame, str | None]:
        """The warm frame, the rows to ask of (the last answer's for a follow-up) and the time anchor, fixed per
        load so "last hour" means the same at every turn."""
        frame = self.frames.get(self.files)
        with self._lock:
            if frame is not self._base:  # first question, or the files changed and were reloaded
                anchor = resolve_now(frame, self.options.now)
                self._base, self._scope = frame, None
                self._now = anchor.isoformat() if anchor is not None else None
            scoped = self._scope if self._scope is not None and is_follow_up(question) else frame
            return frame, scoped, self._now

    def answer(self, run: Run, tracer: Callable[[], Tracer] | None) -> RunResult:
        """Answer `run`'s question on this thread; approvals are asked through the run."""
        frame, rows, now = self._rows(run.question)
        approver = HttpApprover(Waiting(run.show, run.cancelled), self.limits.approval_timeout,
                                pre_approved=self.options.approve, overwrite=self.options.overwrite)
        engine = Engine(self.planner, self.settings, tracer_factory=tracer, approver=approver,
                        output_dir=self.output_dir, on_step=run.on_step, fallback=self.fallback, advisor=self.advisor)
        result = engine.ask(run.question, self.files, frame=rows, now=now)  # the paths name the logs in the trace
        if result.answered and result.rows is not None:
            with self._lock:
                if self._base is frame:
                    self._scope = result.rows
        return result

    def reset(self) -> None:
        """Forget the last answer's rows: a follow-up starts from all rows again."""
        with self._lock:
            self._scope = None

    def close(self) -> None:
        self.planner.close()


def open_session(options: SessionOptions, frames: WarmFrames, limits: ServeLimits) -> Session:
    """A session over the logs `options` names, loaded (or found warm); InputError (OutsideRoots for a path outside
    the roots) when they cannot be used."""
    unknown = sorted(set(options.approve) - set(approvable()))
    if unknown:
        raise InputError(f"cannot pre-approve {', '.join(unknown)}: tools that need approval are "
                         f"{', '.join(approvable())}")
    files = log_files(options.logs, limits.roots)
    output_dir = inside(options.output_dir, limits.roots) if options.output_dir else limits.roots[0]
    if not output_dir.is_dir():
        raise InputError(f"output_dir {options.output_dir}: not a folder under the served roots")
    frame = frames.get(files)  # loads now, so a log that cannot be read is this request's error
    try:
        resolve_now(frame, options.now)
    except ToolError as exc:
        raise InputError(f"now {options.now!r}: {exc}; give an ISO time such as 2026-11-20T12:00:00Z") from None
    planner, notice = make_planner(PlannerSpec(kind=options.planner, model=options.model))
    return Session(options, files, output_dir, planner, notice, frames, limits)
