"""Negation in a question: "other than A", "except A", "not from A", "non-A", "that aren't A".

The negated words are read on their own, as the words of a question would be, and the one filter they give is
sent with `exclude` so that the rows which do NOT match it are kept; the rest of the question is read without
them ("ERROR lines other than 'X'" keeps the errors, then leaves out the lines containing X).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from react_engine.tools.regex import literal
from react_engine.understanding.query import Filter, TextFilter
from react_engine.understanding.reading.question import Question

# the words that negate what follows; "not from X" keeps "from" with X, as a source is named
_CUE = re.compile(r"\b(?:other than|except(?: for)?|excluding|apart from|aside from|besides|but not|not counting|"
                  r"ignoring|without|(?:that|which|who) (?:are not|aren't|were not|weren't|is not|isn't|was not|"
                  r"wasn't|did not|didn't|do not|don't|does not|doesn't)(?: come| came)?|not(?= (?:from|by|on)\b))"
                  r"\s+|\bnon-(?=\w)", re.I)
# where the negated words end: the end of the clause, a time or grouping phrase, or a new question
_END = re.compile(r"\s*(?:[?!;,)]|\.(?:\s|$)|$)|\s+(?:in|on|at|during|between|since|after|before|until|per|by|"
                  r"and (?:how|which|what)|grouped|broken)\b", re.I)
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|`[^`]*`|(?<!\w)'[^']*'(?!\w)")
# a column named just before the cue ("a flag other than 1", "a level other than INFO")
_COLUMN_BEFORE = re.compile(r"\b(?:an?|the|its|their|with)\s+(\w+)\s+$", re.I)
MAX_WORDS = 3  # lines containing each of at most this many words are searched as one pattern


@dataclass(frozen=True)
class Negation:
    """The negated words of a question: `text[start:end]`, after the cue `cue`."""

    cue: str
    start: int
    end: int
    column: str | None = None  # a column the question names right before the cue

    def words(self, text: str) -> str:
        return text[self.start:self.end]


def find(q: Question, columns: list[str]) -> Negation | None:
    """The first negation in the question, its cue consumed and its words hidden from the rest of the reading
    (None when there is none). A one-word scope after "non-" ("non-INFO lines")."""
    masked = _QUOTED.sub(lambda m: "x" * len(m.group()), q.text)
    for m in _CUE.finditer(masked):
        if any(q.used[m.start():m.end()]):
            continue
        start = m.end()
        if m.group().lower().startswith("non-"):
            end = start + len(re.match(r"[\w.-]*", masked[start:]).group())  # type: ignore[union-attr]
        else:
            stop = _END.search(masked, start + 1)
            end = stop.start() if stop else len(masked)
        if end <= start:
            continue
        before = _COLUMN_BEFORE.search(q.text[:m.start()])
        column = before.group(1).lower() if before and before.group(1).lower() in columns else None
        q.consume(before.start(1) if column and before else m.start(), end)
        return Negation(cue=m.group().strip(), start=start, end=end, column=column)
    return None


def one_value(words: str) -> str | None:
    """The value the negated words name when they are one token or one quoted phrase ("root", "'-'"), else None."""
    m = re.fullmatch(r"\"([^\"]+)\"|'([^']+)'|`([^`]+)`|([^\s'\"`]+)", words.strip())
    return next(g for g in m.groups() if g) if m else None


def reopened(q: Question, negation: Negation) -> Question:
    """The question with only the negated words left to read."""
    inner = Question(q.text)
    inner.used = [not negation.start <= i < negation.end for i in range(len(q.text))]
    return inner


def excluded(filters: list[Filter]) -> Filter | None:
    """The one filter that keeps the rows the negated `filters` do not describe: the filter itself with `exclude`,
    or, for several searches, one search for the lines containing each of them; None when the rows they describe
    together cannot be left out with one filter."""
    if len(filters) == 1:
        return filters[0].model_copy(update={"exclude": True})
    searches = [f for f in filters if isinstance(f, TextFilter)]
    if not filters or len(filters) > MAX_WORDS or len(searches) < len(filters):
        return None
    parts = [_pattern(f) for f in searches]
    both = "(?s)" + "|".join(".*".join(order) for order in itertools.permutations(parts))
    return TextFilter(value=both, regex=True, case_sensitive=True, exclude=True)


def _pattern(f: TextFilter) -> str:
    """A search's value as a case-sensitive pattern (a search that ignores case says so inside)."""
    pattern = f.value if f.regex else literal(f.value)
    return f"(?:{pattern})" if f.case_sensitive else f"(?i:{pattern})"
