"""A conversation over logs loaded once: each question is a run; a follow-up starts from the previous answer's rows.

"How many errors?" then "how many of those are from web01?": the second question is asked of the error rows
only. A question that does not refer back ("of those", "of them", "among those", ...) is asked of all rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from react_engine.contract.record import RunResult
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.tracing.spans import NotedTracer

FOLLOW_UP = re.compile(
    r"\b(?:(?:of|among|from|in|for) (?:those|them|these|that|which)|those (?:ones|lines|rows|errors|events)"
    r"|these (?:ones|lines|rows|errors|events)|the same (?:lines|rows))\b",
    re.IGNORECASE,
)


def is_follow_up(question: str) -> bool:
    """Whether `question` refers back to the previous answer ("how many of those ...", "among them ...")."""
    return FOLLOW_UP.search(question) is not None


PREVIOUS = "of the previous answer's lines"
_SCOPE = re.compile(r" \(([^()]*)\)")


def of_previous(answer: str) -> str:
    """`answer` to a follow-up, its scope saying it was counted among the previous answer's lines, not all lines:
    "(all lines)" becomes "(of the previous answer's lines)", "(from web01)" "(from web01; of the ...)"."""
    head, sep, rest = answer.partition("\n")
    if PREVIOUS in head:
        return answer
    if " (all lines)" in head:
        head = head.replace(" (all lines)", f" ({PREVIOUS})", 1)
    elif found := _SCOPE.search(head):
        head = f"{head[:found.end() - 1]}; {PREVIOUS}{head[found.end() - 1:]}"
    else:
        head = f"{head[:-1]} ({PREVIOUS})." if head.endswith(".") else f"{head} ({PREVIOUS})"
    return head + sep + rest


@contextmanager
def _noting(engine: Engine, **extra: str | None) -> Iterator[None]:
    """The engine's runs meanwhile record `extra` on their trace's root span (the trace a follow-up follows, for
    `replay`)."""
    factory = engine.tracer_factory
    noted = {k: v for k, v in extra.items() if v is not None}
    if factory is None or not noted:
        yield
        return
    engine.tracer_factory = lambda: NotedTracer(factory(), "ask", **noted)
    try:
        yield
    finally:
        engine.tracer_factory = factory


class ChatSession:
    """Questions asked in turn of one loaded frame, remembering the rows the last answer rested on."""

    def __init__(self, engine: Engine, paths: Sequence[str | Path], *, now: str | None = None,
                 load_options: LoadOptions | None = None) -> None:
        from react_engine.logs import load
        from react_engine.loop.state import resolve_now

        self.engine = engine
        self.paths = [str(p) for p in paths]
        self.load_options = load_options
        self.frame: pd.DataFrame = load(list(paths), load_options)
        anchor = resolve_now(self.frame, now)  # fixed for the session, so "last hour" means the same each turn
        self.now = anchor.isoformat() if anchor is not None else None
        self.scope: pd.DataFrame = self.frame
        self.last: RunResult | None = None

    @property
    def narrowed(self) -> bool:
        """Whether a follow-up would start from fewer rows than all."""
        return len(self.scope) < len(self.frame)

    def ask(self, question: str) -> RunResult:
        """Answer `question`, from the previous answer's rows when it is a follow-up, else from all rows."""
        follows = is_follow_up(question) and self.narrowed
        rows = self.scope if follows else self.frame
        previous = self.last.trace_file if follows and self.last is not None else None
        with _noting(self.engine, follows=Path(previous).name if previous else None):
            result = self.engine.ask(question, self.paths, frame=rows, now=self.now, load_options=self.load_options)
        if follows:
            result.answer = of_previous(result.answer)
        if result.answered and result.rows is not None:
            self.scope = result.rows
        self.last = result
        return result

    def reset(self) -> None:
        """Forget the previous answer's rows: the next follow-up starts from all rows."""
        self.scope = self.frame
