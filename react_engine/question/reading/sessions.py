"""Reading "how long were SSH sessions" as durations: a noun of the question that the log writes with a start word
and an end word ("session opened" ... "session closed") names the start and end lines to pair."""

from __future__ import annotations

import re

from react_engine.lexicon.event_phrases import SESSION_EDGES
from react_engine.lexicon.statistic_words import TIME_FIELDS
from react_engine.question import Vocabulary
from react_engine.question.measures import Duration, Measure, Span, Statistic

_KEYS = ("pid", "thread")  # the columns a start and its end share, in order of preference
_EVENT = r"""'[^']+'|"[^"]+"|[\w.$-]+(?:\s+[\w.$-]+){0,4}?"""  # a start or end event's words, quoted or not
_LINES = r"(?:\s+(?:lines?|events?|messages?|entries))?"
# "from session opened to session closed per pid", "between 'Receiving block' and 'Received block'"
_BETWEEN = re.compile(r"\b(?:from|between)\s+(?:the\s+|each\s+|an?\s+)?(?P<a>" + _EVENT + ")" + _LINES
                      + r"\s+(?:to|and|until|till)\s+(?:the\s+|its\s+|an?\s+)?(?P<b>" + _EVENT + ")" + _LINES
                      + r"(?:\s+(?:per|by|for each)\s+(?P<key>\w+))?\s*[?.!]?\s*$", re.I)
_NOT_EVENT = re.compile(r"^(?:first|last|earliest|latest|start|end|beginning)\b|^[\d:. -]+$", re.I)


def paired(measure: Measure | None, text: str, vocabulary: Vocabulary, columns: list[str]) -> Measure | None:
    """`measure`, or in place of a span or an unnamed duration the durations of the first noun of `text` that the
    sampled lines write with both a start word and an end word of one pair (a span of lines the question names by
    one of the two, "session opened", stays the span of those lines); an unnamed duration (a mean was asked) that no
    pair explains is the mean of the time the lines write."""
    if not (isinstance(measure, Span) or (isinstance(measure, Duration) and not measure.start)):
        return measure
    for word in re.findall(r"[a-z]{3,}", text.lower()):
        if (edges := _edges(word[:-1] if word.endswith("s") else word, vocabulary)) is not None:
            if isinstance(measure, Span) and any(edge in text.lower() for edge in edges):
                return measure  # "between the first and last session opened": the span of those lines
            return Duration(start=edges[0], end=edges[1], key=_key(columns))
    if isinstance(measure, Duration):  # "how long did reading a broadcast variable take on average": a mean time
        return Statistic(func="mean", field="time")
    return measure


def _edges(noun: str, vocabulary: Vocabulary) -> tuple[str, str] | None:
    """The first start and end the sampled lines write after `noun` ("session opened", "session closed")."""
    for opening, closing in SESSION_EDGES:
        start, end = f"{noun} {opening}", f"{noun} {closing}"
        if _written(start, end, vocabulary):
            return start, end
    return None


def _written(start: str, end: str, vocabulary: Vocabulary) -> bool:
    """Whether sampled lines write both events."""
    return all(vocabulary.together([re.escape(t)])[1] > 0 for t in (start, end))


def _key(columns: list[str]) -> str | None:
    """The column a start and its end share, when the rows have one."""
    return next((c for c in _KEYS if c in columns), None)


def _asks_a_time(measure: Measure | None) -> bool:
    """Whether `measure` asks for a time: a span, a duration, or a statistic of a time."""
    return isinstance(measure, (Span, Duration)) or (isinstance(measure, Statistic) and (
        measure.field == "" or measure.field in TIME_FIELDS))


def between_events(measure: Measure | None, text: str, vocabulary: Vocabulary, columns: list[str]
                   ) -> tuple[Duration, tuple[int, int]] | None:
    """"average time from session opened to session closed per pid": the durations from each start line to its end
    line (per the key named, else per pid or thread), and where the question names them; None unless a time is asked
    (a span, a duration, a statistic of a time) and the sampled lines write both events."""
    m = _BETWEEN.search(text) if _asks_a_time(measure) else None
    if m is None:
        return None
    start, end = (m.group(g).strip("'\"") for g in ("a", "b"))
    if any(_NOT_EVENT.match(t) for t in (start, end)) or not _written(start, end, vocabulary):
        return None
    key = m.group("key").lower() if m.group("key") else _key(columns)
    return Duration(start=start, end=end, key=key), m.span()
