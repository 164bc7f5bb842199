"""Reading "how many IP addresses failed but never an accepted one" as a left anti join: the values the question
counts or lists, on the lines it names, that no line of the other event holds (the words after "never", read on
their own as one search and at most one level)."""

from __future__ import annotations

import re

from react_engine.lexicon.never_words import NEVER_KEYS
from react_engine.question.measures import Count, Distinct, Key, Listing, Never, Top
from react_engine.question.query import Filter, LevelFilter, Query, TextFilter
from react_engine.question.reading.draft import Draft
from react_engine.tools.regex import literal


def anti_joined(query: Query, draft: Draft, text: str) -> Query:
    """`query` measuring the values that never come up on the other event's lines, when the question names one;
    its words unread (a partial answer) when they name no one search and level, or the question counts no values."""
    if draft.other_event is None:
        return query
    words, other = draft.other_event
    measure = _never(query, words, other, text)
    if measure is None:
        return query.model_copy(update={"unread": (*query.unread, f"never {words}")})
    named = next((w for kind, w, _, _ in NEVER_KEYS if kind == measure.key.name), None)
    if named is not None:  # the words naming the ids were read as them
        draft.ignored = [w for w in draft.ignored if not re.fullmatch(named, w, re.I)]
    return query.model_copy(update={"measure": measure})


def _key(query: Query, text: str) -> Key | None:
    """The values counted or listed: the measure's, or for a count of lines the ids a kind of NEVER_KEYS names."""
    measure = query.measure
    if isinstance(measure, (Distinct, Listing, Top)):
        return measure.key
    if isinstance(measure, Count):
        return next((Key(name=kind, label=label, pattern=pattern, extract=True)
                     for kind, words, pattern, label in NEVER_KEYS if re.search(words, text, re.I)), None)
    return None


def _never(query: Query, words: str, other: Draft, text: str) -> Never | None:
    """The measure, or None when the values or the other event cannot be read."""
    key, event = _key(query, text), _event(other)
    if key is None or event is None:
        return None
    never, regex, level = event
    return Never(key=key, never=never, regex=regex, level=level, listed=isinstance(query.measure, Listing),
                 words=words)


def _event(other: Draft) -> tuple[str, bool, str | None] | None:
    """`(text, is a regex, level)` of the other event's lines: its words read as at most one search and one level
    (None when they are read as anything else, or not read)."""
    texts = [f for f in other.filters if _plain(f) and isinstance(f, TextFilter) and not f.message]
    levels = [f for f in other.filters if _plain(f) and isinstance(f, LevelFilter) and len(f.levels) == 1]
    if max(len(texts), len(levels)) > 1 or len(texts) + len(levels) != len(other.filters) or not other.filters \
            or other.problem:
        return None
    never, regex = _searched(texts[0]) if texts else ("", False)
    return never, regex, levels[0].levels[0] if levels else None


def _plain(f: Filter) -> bool:
    """Whether a filter keeps the lines it describes (not the others)."""
    return not f.exclude


def _searched(search: TextFilter) -> tuple[str, bool]:
    """`(text, is a regex)` for the tool, which ignores case: a search that heeds it says so inside its regex."""
    if not search.case_sensitive:
        return search.value, search.regex
    return f"(?-i:{search.value if search.regex else literal(search.value)})", True
