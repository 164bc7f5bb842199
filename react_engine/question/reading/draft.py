"""A question's reading while the readers build it: the filters found so far, what is counted, and what the
readers noted for the answer and the interpretation."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from react_engine.question.asked import Asked
from react_engine.question.interpretation import Correction, Term, TimeWindow
from react_engine.question.measures import Measure
from react_engine.question.query import FieldFilter, Filter, LevelFilter, TextFilter, TimeFilter
from react_engine.question.reading.negation import Exclusion
from react_engine.question.reading.nouns import Subject

Goal = Literal["count", "unique", "top", "which", "list", "show", "histogram", "patterns", "unusual", "timeline",
               "preceding", ""]
"""What the question does with the lines it keeps ("" when unclear); an investigation's goal is its measure's kind."""


@dataclass(frozen=True)
class Side:
    """One side of distinct values per value: an entity kind (`kind`), or a column or message values (`subject`),
    and its words."""

    words: str
    kind: str | None = None
    subject: Subject | None = None
    role: str | None = None  # the role its own words give an address or port ("source IP")

    @property
    def target(self) -> str | None:
        """The target a reading of this side counts: the subject's name, else the entity kind."""
        return self.subject.name if self.subject is not None else self.kind


@dataclass(frozen=True)
class DistinctPer:
    """The values ranked (`per`; None for time buckets, read as a histogram's) and the values counted distinct on
    their lines (`counted`), how many are asked (`n`, None for a list), one (`single`) and which way (`least`)."""

    per: Side | None
    counted: Side
    n: int | None = None
    single: bool = False
    least: bool = False


@dataclass
class Grounding:
    """The searches for the question's own words, which must meet on one line, and those that find no line."""

    guesses: list[str] = field(default_factory=list)  # searches for the question's own words (regexes)
    named: list[str] = field(default_factory=list)  # searches for events and names the rows contain (regexes)
    stems: list[tuple[int, int, str, str]] = field(default_factory=list)  # (filter, guess, form searched, stem)
    absent: list[str] = field(default_factory=list)  # searches for words the rows never contain (an honest 0)


@dataclass
class Draft:
    """What the readers found so far; `reading.result` turns it into the typed result."""

    filters: list[Filter] = field(default_factory=list)
    goal: Goal = "count"
    target: str | None = None  # the entity or column counted or ranked
    problem: str | None = None  # why the question cannot be read
    terms: list[Term] = field(default_factory=list)  # words grounded in the data
    corrections: list[Correction] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # words found nowhere, left out
    negated: list[str] = field(default_factory=list)  # what the rows left out hold ("from dfs.FSNamesystem")
    # the words of the lines the values counted never come up on ("but never an accepted one"), read on their own
    other_event: tuple[str, Draft] | None = None
    framing: list[str] = field(default_factory=list)  # words of a lead-in or of the log's name, left out
    grounding: Grounding = field(default_factory=Grounding)
    window: TimeWindow | None = None
    level_noun: bool = False  # a severity word right after quoted text ("'Could not resolve' errors")
    subject: Subject | None = None  # what is counted or ranked, when no entity word names it
    excluded: list[Exclusion] = field(default_factory=list)  # values left out ("other than INFO")
    role: str | None = None  # source, destination or client: which address or port of a line is meant
    deed: str | None = None  # what the addresses counted did, as the log writes it after them ("served")
    wrote: str | None = None  # the verb asking the values ranked as the writers of the lines ("which user wrote")
    stranded: tuple[str, str] | None = None  # the verb and preposition ending "which ... V P?" ("synchronize", "to")
    asked: Asked = field(default_factory=Asked)  # what the asking words ask beyond counting, ranking, listing
    unread: list[str] = field(default_factory=list)  # words linked to nothing: asking words nothing read, and more
    never: list[str] = field(default_factory=list)  # words searched as written that no sampled line holds
    investigation: Measure | None = None  # patterns, unusual, timeline or preceding lines
    n: int = 5  # how many values a ranking has
    rank: Literal["most", "least"] | None = None  # which way a ranking runs, when the question says
    limited: bool = False  # the ranking's first `n` are asked for ("which ... the lowest", "the 3 rarest")
    per_distinct: DistinctPer | None = None  # distinct values of one side per value of the other
    interval: str = "1h"  # a histogram's bucket
    peak: bool = False  # the busiest bucket is asked ("busiest hour", "which minute had the most errors")
    thresholds: list[tuple[int, int]] = field(default_factory=list)  # spans read as numeric thresholds
    # column -> the filter its first value made, the values and the texts searched for: "GET or POST" keeps either
    alternatives: dict[str, tuple[Any, list[Any], list[str]]] = field(default_factory=dict)

    def search(self, value: str, regex: bool, words: str, case_sensitive: bool = False, message: bool = False) -> bool:
        """Add a text filter (of the messages alone with `message`) unless the same search is there already ("hits
        /api/orders ... requests to /api/orders"); returns whether it was added."""
        found = TextFilter(value=value, regex=regex, case_sensitive=case_sensitive, words=words, message=message)
        if any(f.model_copy(update={"words": ""}) == found.model_copy(update={"words": ""}) for f in self.filters):
            return False
        self.filters.append(found)
        return True

    def keep(self, column: str, value: Any, words: str, op: str = "eq") -> None:
        """Keep the lines whose `column` compares to `value`."""
        self.filters.append(FieldFilter(field=column, value=value, op=op, words=words))

    def keep_or_search(self, columns: list[str], column: str, value: Any, words: str, text: str,
                       op: str = "eq") -> None:
        """Filter on `column` when the logs have it, else search the lines for `text` (a regex when `op` is). A
        second value of the same column ("GET or POST requests") widens that filter to either value: a line holds
        one, so both at once would keep none."""
        if op == "eq" and self._either(column, column in columns, value, text):
            return
        before = len(self.filters)
        if column in columns:
            self.keep(column, value, words, op)
        else:
            self.search(text, op == "regex", words)
        if op == "eq" and len(self.filters) > before:
            self.alternatives[column] = (self.filters[-1], [value], [text])

    def _either(self, column: str, kept: bool, value: Any, text: str) -> bool:
        """Widen the filter an earlier value of `column` made to this `value` too; False when there is none."""
        earlier = self.alternatives.get(column)
        if earlier is None or not any(f is earlier[0] for f in self.filters):
            return False
        old, values, texts = earlier
        if value not in values:
            values.append(value)
            texts.append(text)
        new = _widened(old, column, kept, values, texts)
        self.filters = [new if f is old else f for f in self.filters]
        self.alternatives[column] = (new, values, texts)
        return True

    def drop(self, kind: type[LevelFilter] | type[TimeFilter] | type[TextFilter]) -> None:
        """Leave out the filters of one kind (a level the words turned out to name, a day that is an event's)."""
        self.filters = [f for f in self.filters if not isinstance(f, kind)]

    def searches(self) -> list[str]:
        """The text searches that keep lines, as regexes."""
        return [searched(f) for f in self.filters if isinstance(f, TextFilter) and not f.exclude]


def _widened(old: Filter, column: str, kept: bool, values: list[Any], texts: list[str]) -> Filter:
    """`old` widened to any of `values`: a filter on `column` (`kept`), else a search for any of `texts`."""
    first, either = str(values[0]), " or ".join(map(str, values))
    words = f"{old.words[: old.words.find(first)]}{either}" if first in old.words else either
    if kept:
        return FieldFilter(field=column, value=f"^(?:{'|'.join(re.escape(str(v)) for v in values)})$", op="regex",
                           words=words)
    return TextFilter(value="|".join(re.escape(t) for t in texts), regex=True, words=words)


def searched(f: TextFilter) -> str:
    """The regex a text filter looks for."""
    return f.value if f.regex else re.escape(f.value)
