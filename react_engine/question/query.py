"""The typed reading of a question: which lines (filters), what is measured, grouped and ordered, and which of the
question's words were left unread.

A `Query` is immutable. Reading a question (`react_engine.question.reading`) gives a `Query`, or the problem
that stops it; the rules planner compiles a `Query` into tool calls and words the answer from it; the engine uses
it to tell whether a reply answered what was asked (`Query.unanswered`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from react_engine.question.measures import Count, Measure


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Filter(_Frozen):
    words: str = ""  # how the answer states it ("with severity error", "today")
    exclude: bool = False  # keep the lines that do NOT match


class TextFilter(_Filter):
    """Lines whose text contains `value` (a regex when `regex`); with `message`, lines whose message does (a value
    the messages write, which the head's time or pid must not match)."""

    kind: Literal["text"] = "text"
    value: str
    regex: bool = False
    case_sensitive: bool = False
    message: bool = False


class LevelFilter(_Filter):
    """Lines at one of `levels`, or at least `min_level`."""

    kind: Literal["level"] = "level"
    levels: tuple[str, ...] = ()
    min_level: str | None = None


THRESHOLD_OPS = ("gt", "ge", "lt", "le")  # a numeric field compared with a number (its unit, if any, written in it)


class FieldFilter(_Filter):
    """Lines whose `field` (a column or an entity type) compares to `value` with `op` (eq, regex, ...; a numeric
    field with one of THRESHOLD_OPS)."""

    kind: Literal["field"] = "field"
    field: str
    value: str | int | float
    op: str = "eq"


class TimeFilter(_Filter):
    """Lines from `start` to `end` (as the time tools read them: ISO times, "now", "-1h")."""

    kind: Literal["time"] = "time"
    start: str
    end: str


Filter = Annotated[TextFilter | LevelFilter | FieldFilter | TimeFilter, Field(discriminator="kind")]


class Grouping(_Frozen):
    """Up to two keys and a time bucket ("per host per hour": keys ("host",), bucket "1h")."""

    keys: tuple[str, ...] = Field((), max_length=2)
    bucket: str | None = None

    def by(self) -> list[str]:
        """The keys, then the bucket: what a measuring tool groups by."""
        return [*self.keys, *([self.bucket] if self.bucket else [])]


class Query(_Frozen):
    """What a question asks, read once: the rows (`filters`, in order), the `measure`, its `grouping`, `order`
    and `limit`, the filters that leave values out of what is counted (`left_out`), a comparison's `sides` and the
    words linked to nothing in the log (`unread`: the reply to such a query is a partial answer) and the words searched
    as written that no line was seen to hold (`never`: a zero for them says the log never uses them, unverified)."""

    filters: tuple[Filter, ...] = ()
    measure: Measure = Field(default_factory=Count)
    grouping: Grouping = Field(default_factory=Grouping)
    order: Literal["most", "least", "oldest", "newest"] | None = None
    limit: int | None = Field(None, ge=1)
    left_out: tuple[Filter, ...] = ()  # applied once the counted values are found ("other than root")
    sides: tuple[Filter, Filter] | None = None  # a comparison's two sides, when each is a filter of its own
    unread: tuple[str, ...] = ()
    never: tuple[str, ...] = ()  # words searched that no line of the log was seen to hold: their zero is unverified

    def unanswered(self, ran: set[str]) -> str | None:
        """What a run that called the tools `ran` could not answer of this query, in words ("a percentage"), or
        None when it answered all of it."""
        needs = self.measure.needs
        if needs and not set(needs) & ran:
            return self.measure.asked()
        if self.unread:
            return "what " + ", ".join(f'"{w}"' for w in self.unread) + " asks"
        return None
