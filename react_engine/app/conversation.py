"""A conversation over logs loaded once: each question is a run; a follow-up starts from the previous answer's rows.

"How many errors?" then "how many of those are from web01?": the second question is asked of the error rows
only. A question that does not refer back ("of those", "of them", "among those", ...) is asked of all rows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from react_engine.contract.record import RunResult
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine

FOLLOW_UP = re.compile(
    r"\b(?:(?:of|among|from|in|for) (?:those|them|these|that|which)|those (?:ones|lines|rows|errors|events)"
    r"|these (?:ones|lines|rows|errors|events)|the same (?:lines|rows))\b",
    re.IGNORECASE,
)


def is_follow_up(question: str) -> bool:
    """Whether `question` refers back to the previous answer ("how many of those ...", "among them ...")."""
    return FOLLOW_UP.search(question) is not None


class ChatSession:
    """Questions asked in turn of one loaded frame, remembering the rows the last answer rested on."""

    def __init__(self, engine: Engine, paths: Sequence[str | Path], *, now: str | None = None,
                 load_options: LoadOptions | None = None) -> None:
        from react_engine.logs import load
        from react_engine.loop.state import resolve_now

        self.engine = engine
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
        rows = self.scope if is_follow_up(question) else self.frame
        result = self.engine.ask(question, frame=rows, now=self.now)
        if result.answered and result.rows is not None:
            self.scope = result.rows
        self.last = result
        return result

    def reset(self) -> None:
        """Forget the previous answer's rows: the next follow-up starts from all rows."""
        self.scope = self.frame
