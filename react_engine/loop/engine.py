"""The engine: answers questions about logs with a planner choosing among fixed tools, one run per question."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from react_engine.contract.planner import Advisor, Planner
from react_engine.contract.record import RunResult
from react_engine.logs.options import LoadOptions
from react_engine.loop.approval import DENY_ALL, Approver
from react_engine.loop.fallback import fallback_start, merge, needs_fallback
from react_engine.loop.frames import open_run
from react_engine.loop.outcome import unloaded
from react_engine.loop.run import Run, StepCallback
from react_engine.loop.state import RunState
from react_engine.loop.stops import Stop
from react_engine.rows.snippets import json_text
from react_engine.settings import Settings
from react_engine.tools import REGISTRY, Tool
from react_engine.tracing import NULL_TRACER, SpanHandle, Tracer

TracerFactory = Callable[[], Tracer]


class Engine:
    """Answers questions about logs with a planner choosing among fixed tools. Holds no state between asks."""

    def __init__(self, planner: Planner, settings: Settings | None = None, *,
                 tracer_factory: TracerFactory | None = None, approver: Approver | None = None,
                 output_dir: str | Path | None = None, tools: dict[str, Tool] | None = None,
                 on_step: StepCallback | None = None, dask: Any = None, fallback: Planner | None = None,
                 advisor: Advisor | None = None, fallback_if_unreachable: bool = True) -> None:
        """`dask`: a `distributed.Client` or an address (`tcp://host:8786`, `local`, `local:N`): load the logs and
        run the tools on that Dask cluster (as `LoadOptions.dask` does per question). `fallback`: the planner that
        answers when `planner`'s run ends without a verified answer (see `react_engine.loop.fallback`), also when its
        server or model could not be had unless `fallback_if_unreachable` is False. `advisor`: reads
        the question for the result's interpretation (against which every answer is checked) and a model planner's
        question notes and suggested reply: by default `planner` or `fallback` when one is an `Advisor` (the rules
        planner is); without one the question is read as `react_engine.question` reads it, with no
        suggested reply."""
        self.planner = planner
        self.fallback, self.fallback_if_unreachable = fallback, fallback_if_unreachable
        self.advisor = advisor or _advisor(planner) or _advisor(fallback)
        self.settings = settings or Settings()
        self.tracer_factory = tracer_factory
        self.approver = approver or DENY_ALL
        self.output_dir = Path(output_dir) if output_dir else Path.cwd()
        self.tools = tools or REGISTRY
        self.on_step = on_step
        self.dask = dask

    def ask(self, question: str, paths: Sequence[str | Path] | None = None, *, frame: pd.DataFrame | None = None,
            now: str | None = None, load_options: LoadOptions | None = None) -> RunResult:
        """Answer `question` from the logs at `paths` loaded with `load_options` (or an already loaded `frame`)."""
        tracer = self.tracer_factory() if self.tracer_factory else NULL_TRACER
        options = load_options or LoadOptions()
        started = time.monotonic()
        with tracer.span("ask", **self._asked(question, paths, now, options)) as span:
            try:
                state, warnings = self._open(question, paths, frame, now, options, started)
            except Stop as stop:
                result = unloaded(question, started, self.planner, stop)
            else:
                result = self._answer(state, tracer, started, warnings, span)
            span.set(stop_reason=result.stop_reason, answer=result.answer, verified=result.verified,
                     now_used=result.now or "", planner=result.planner,
                     **({"value": json_text(result.value)} if tracer.recording else {}))
        result.trace_file = tracer.close()
        result.warnings.extend(tracer.warnings)
        return result

    def _asked(self, question: str, paths: Sequence[str | Path] | None, now: str | None,
               options: LoadOptions) -> dict[str, Any]:
        """What a run's trace records of the question asked and how it is answered."""
        return {"question": question, "paths": [str(p) for p in paths or []], "now": now or "",
                "format": options.format or "", "planner": self.planner.name, "model": self.planner.model or "",
                "deterministic": self.planner.deterministic, "year": options.year,
                "max_iterations": self.settings.max_iterations}

    def _open(self, question: str, paths: Sequence[str | Path] | None, frame: pd.DataFrame | None, now: str | None,
              options: LoadOptions, started: float) -> tuple[RunState, list[str]]:
        """The run's state with its logs loaded; `Stop` when the question or the logs stop it first."""
        if len(question) > self.settings.max_question_chars:
            raise Stop("error", f"the question has {len(question):,} characters, over the limit of "
                                 f"{self.settings.max_question_chars:,} (max_question_chars): shorten it",
                        "InputError")
        try:
            return open_run(question, paths, frame, now, options, self.dask, started + self.settings.timeout_seconds)
        except KeyboardInterrupt:
            raise Stop("interrupted", "interrupted by the user (Ctrl-C)") from None

    def _answer(self, state: RunState, tracer: Tracer, started: float, warnings: list[str],
                span: SpanHandle) -> RunResult:
        """The run over loaded logs, finished by the fallback planner when the planner's answer needs it."""
        result = Run(self, state, tracer, started, warnings).execute()
        if self.fallback is not None and needs_fallback(result, self.fallback_if_unreachable):
            span.event("fallback", planner=self.fallback.name, after=result.stop_reason)
            begun = fallback_start(started, self.settings.timeout_seconds)
            again = Run(self, state.restart(), tracer, begun, [], self.fallback).execute()
            result = merge(result, again, started)
        return result


def _advisor(planner: Planner | None) -> Advisor | None:
    return planner if isinstance(planner, Advisor) else None


