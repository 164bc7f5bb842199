"""What a question was read as: the typed `interpretation` of a run, and its compact notes for model prompts."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from react_engine.question.query import Query

NOTES_CHARS = 220  # with its "NOTES: " label, at most 80 tokens at the engine's 3-bytes-per-token estimate
SUGGESTED = "; suggested next: "  # where the notes' suggestion starts


def without_suggestion(notes: str) -> str:
    """The notes less their suggested next action (for a prompt that shows that action as its example)."""
    return notes.split(SUGGESTED, 1)[0]


class Term(BaseModel):
    """A word of the question grounded in the data: the column it was found in and how many rows hold it."""

    word: str
    column: str  # a column name, "message" for message text, or the entity type ranked/counted
    value: str | None = None
    rows: int | None = None  # exact when known at planning time
    negated: bool = False  # the rows holding it are left out ("other than ...")


class Correction(BaseModel):
    """A word read as another: `read "pasword" as "password"`."""

    written: str
    read_as: str

    def __str__(self) -> str:
        return f'read "{self.written}" as "{self.read_as}"'


class TimeWindow(BaseModel):
    start: str
    end: str
    words: str  # as the answer states it


class Interpretation(BaseModel):
    """Terms used, words read as others, words ignored, the time window and the question's shape."""

    shape: str = ""  # count | unique | top | which | list | distinct | histogram | show, or "" when unclear
    target: str | None = None  # what is counted or ranked
    terms: list[Term] = Field(default_factory=list)
    corrections: list[Correction] = Field(default_factory=list)
    ignored: list[str] = Field(default_factory=list)
    excluded: list[str] = Field(default_factory=list)  # what the rows left out hold ("from dfs.FSNamesystem")
    time_window: TimeWindow | None = None
    problem: str | None = None  # why the rules planner could not map it
    query: Query | None = None  # the typed reading, when the question was read into one

    def stated(self) -> str:
        """The corrections and ignored words, as a sentence the answer ends with ("" when there are none)."""
        parts = [str(c) for c in self.corrections]
        if self.ignored:
            parts.append("ignored " + ", ".join(f'"{w}"' for w in self.ignored))
        return f" ({'; '.join(parts)})" if parts else ""

    def _parts(self) -> list[str]:
        """The notes' parts, "" for those with nothing to say."""
        terms = [f"{t.word}={t.column}" + (f"({t.rows})" if t.rows else "") for t in self.terms if not t.negated]
        return [
            f"shape {self.shape}" + (f" of {self.target}" if self.target else "") if self.shape else "",
            ", ".join(f"{c.written}->{c.read_as}" for c in self.corrections),
            "terms " + ", ".join(terms) if terms else "",
            "leave out lines " + " or ".join(self.excluded) if self.excluded else "",
            f"time {self.time_window.start}..{self.time_window.end}" if self.time_window else "",
        ]

    def notes(self, suggestion: tuple[str, dict[str, Any]] | None) -> str:
        """At most `NOTES_CHARS` characters for a model's prompt: terms with columns and rows, the window, the
        shape and the rules planner's next action as a suggestion."""
        text = "; ".join(part for part in self._parts() if part)
        if suggestion is not None:
            action, params = suggestion
            hint = f"{SUGGESTED}{action} {json.dumps(params, ensure_ascii=False, separators=(',', ':'))}"
            text = text[: max(0, NOTES_CHARS - len(hint))] + hint if len(hint) <= NOTES_CHARS else text
        return text if len(text) <= NOTES_CHARS else text[: NOTES_CHARS - 1] + "…"
