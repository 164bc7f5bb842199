"""The two sides of a comparison, each read as a question of its own: "WARN lines versus block deletions" compares
the WARN lines with the block deletions, "warnings between 15:00 and 17:00 on Jul 30 vs between 17:00 and 19:00
that day" the warnings of two windows.

Each side gives one filter of its own (its only one, or the one of a kind both sides have); the other filters of a
side, and the question's filters of kinds neither side's own filter has, apply to both. A side that names no day
takes the other side's ("that day").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pandas as pd

from react_engine.lexicon.time_units import unit_names
from react_engine.question.measures import Comparison
from react_engine.question.query import Filter, TextFilter, TimeFilter
from react_engine.question.reading.draft import searched
from react_engine.question.reading.readout import Reading
from react_engine.question.vocabulary import Vocabulary
from react_engine.tools.timeexpr import parse_time, relative

_DAY = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d{1,4}[-/.]\d{1,2}[-/.]\d"
                  r"|\b\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                  r"|\b(?:today|yesterday|day before)\b", re.I)


_CLOCK = re.compile(r"\b\d{1,2}(?::\d\d|\s*[ap]\.?m\b)|\b(?:noon|midnight)\b", re.I)
_PREVIOUS = re.compile(r"^\s*(?:the\s+|that\s+)?(?:(?:previous|prior|preceding|earlier|last)(?:\s+(?:one|"
                       + unit_names("minute") + r"|period|window))?|(?:\d+\s+)?(?:one|" + unit_names("minute", plural="s?")
                       + r"|period)\s+before"
                       r"(?:\s+(?:that|it))?)"
                       r"\s*[?.!]*\s*$", re.I)
_WRITTEN = (("w", pd.Timedelta(weeks=1)), ("d", pd.Timedelta(days=1)), ("h", pd.Timedelta(hours=1)),
            ("m", pd.Timedelta(minutes=1)))  # the units a relative time is written in, largest first
_NOW = pd.Timestamp("2000-01-01", tz="UTC")  # any instant: relative times are measured back from it


def with_sides(reading: Reading, read: Callable[[str], Reading], vocabulary: Vocabulary) -> Reading:
    """`reading`, its query holding the two sides' own filters when its comparison names two sides that read as
    one filter each (`read` reads a side's words as a question)."""
    query = reading.query
    measure = _two_sided(reading)
    split = _sides(measure, read, vocabulary) if measure is not None else None
    if query is None or measure is None or split is None:
        return reading
    a, b, common = split
    kinds = {type(a), type(b)}
    # the question's filters of kinds neither side has; of two events' words only a time window (the others are
    # the side's words read in the whole question: "edram error" is no level of "minus normalized")
    common += [f for f in query.filters if type(f) not in kinds and f not in common
               and (kinds != {TextFilter} or isinstance(f, TimeFilter))]
    sides = f"{measure.left} {measure.right}".lower()  # the sides read their own words
    unread = tuple(w for w in query.unread if w.lower() not in sides)
    return Reading(**(vars(reading) | {"query": query.model_copy(update={"sides": (a, b), "unread": unread,
                                                                          "filters": tuple(common)})}))


def _two_sided(reading: Reading) -> Comparison | None:
    """The comparison of two named sides the reading asks for, if it asks for one."""
    query = reading.query
    if query is None or reading.problem or not isinstance(measure := query.measure, Comparison):
        return None
    return measure if measure.left and measure.right else None


def _sides(measure: Comparison, read: Callable[[str], Reading], vocabulary: Vocabulary
           ) -> tuple[Filter, Filter, list[Filter]] | None:
    """Each side's own filter and the filters both share (see `with_sides`), or None."""
    first, second = (read(side).query for side in (measure.left, measure.right))
    if first is None:
        return None
    if (second is None or not second.filters) and first.filters:  # "... for alice vs bob": bob as alice is
        second = read(f"lines for {measure.right}").query or second
    left = _joined(list(first.filters), vocabulary)
    right = _joined(list(second.filters), vocabulary) if second is not None else []
    split = _previous(left, right, measure.right)
    return split if split is not None or second is None else _other_sides(left, right, measure)


def _other_sides(left: list[Filter], right: list[Filter], measure: Comparison
                 ) -> tuple[Filter, Filter, list[Filter]] | None:
    """Each side's own filter and the filters both share, for sides other than a window and the one before it."""
    return _before_after(left, right, measure) or _split(left, right, measure.right)


def _split(left: list[Filter], right: list[Filter], right_words: str) -> tuple[Filter, Filter, list[Filter]] | None:
    """Each side's own filter and the filters both share, or None when a side has no single one of its own."""
    a, b = _own(left, right), _own(right, left)
    if a is None or b is None or isinstance(a, TimeFilter) != isinstance(b, TimeFilter):
        return None  # a time window against lines of a kind is no comparison of like with like
    common = [f for f in left + right if f is not a and f is not b]
    if _one_sided(a, b, common, left, right):
        return None
    if isinstance(a, TimeFilter) and isinstance(b, TimeFilter) and not _DAY.search(right_words) \
            and _CLOCK.search(right_words):  # clock times, not "the second half" of the log
        b = _on_day_of(b, a)
    return a, b, list(dict.fromkeys(common))


def _one_sided(a: Filter, b: Filter, common: list[Filter], left: list[Filter], right: list[Filter]) -> bool:
    """Whether two events' words (`a`, `b`) come with a filter only one side's words make ("follower sid": a
    component), which is not the other side's scope; a time window is both sides'."""
    return isinstance(a, TextFilter) and isinstance(b, TextFilter) and any(
        (f not in left or f not in right) and not isinstance(f, TimeFilter) for f in common)


def _joined(filters: list[Filter], vocabulary: Vocabulary) -> list[Filter]:
    """A side's searches as one ("thermal" and "pressure": /\bthermal.*\bpressure/), in the order that finds in
    the sampled lines all the lines they find together; the filters as they are when no order does."""
    texts = [f for f in filters if isinstance(f, TextFilter) and not f.exclude and not f.case_sensitive]
    joined = _in_order(texts, vocabulary) if 2 <= len(texts) <= 3 else None
    return filters if joined is None else [f for f in filters if f not in texts] + [joined]


def _in_order(texts: list[TextFilter], vocabulary: Vocabulary) -> TextFilter | None:
    """The searches `texts` as one, in the first order that finds all the sampled lines they find together."""
    together = vocabulary.together([searched(f) for f in texts])[0]
    for order in itertools.permutations(texts):
        pattern = ".*".join(f"(?:{searched(f)})" for f in order)
        if together and vocabulary.together([pattern])[0] == together:
            return TextFilter(value=pattern, regex=True, words=", ".join(f.words for f in order))
    return None


def _before_after(left: list[Filter], right: list[Filter], measure: Comparison
                  ) -> tuple[Filter, Filter, list[Filter]] | None:
    """"errors before vs after 12:00 on Dec 5": the day up to that time against the rest of it."""
    window = next((f for f in right if isinstance(f, TimeFilter)), None)
    if window is None or not re.search(r"\bbefore\s*$", measure.left, re.I) or not re.match(
            r"\s*after\b", measure.right, re.I):
        return None
    try:
        day = pd.Timestamp(window.start).normalize()
    except ValueError:
        return None
    before = TimeFilter(start=day.isoformat(), end=window.start, words=f"from {day.isoformat()} to {window.start}")
    return before, window, [f for f in left + right if f is not window]


def _previous(left: list[Filter], right: list[Filter], right_words: str
              ) -> tuple[Filter, Filter, list[Filter]] | None:
    """"errors this hour vs the hour before" (or "vs last hour", "vs the previous one"): the left side's window
    against the one of the same length that ends where it starts; None unless the right side names only that."""
    window = next((f for f in left if isinstance(f, TimeFilter)), None)
    if window is None or not (_PREVIOUS.match(right_words) or _overlapping(window, right)):
        return None  # "this hour vs last hour": the right side's window overlaps the left's, and means the one before
    earlier = _before(window)
    if earlier is None:
        return None
    return window, earlier, [f for f in left + right if not isinstance(f, TimeFilter)]


def _overlapping(window: TimeFilter, right: list[Filter]) -> bool:
    """Whether the right side holds time windows, each starting or ending where `window` does."""
    windows = [f for f in right if isinstance(f, TimeFilter)]
    return bool(windows) and all(f.end == window.end or f.start == window.start for f in windows)


def _before(window: TimeFilter) -> TimeFilter | None:
    """The window of `window`'s length that ends where it starts (relative when it is: now-1h..now gives
    now-2h..now-1h)."""
    ends = [relative(t) for t in (window.start, window.end)]
    if all(ends):
        back = [_ago(t) for t in (window.start, window.end)]
        if back[0] <= back[1]:
            return None
        start = f"now-{_written(2 * back[0] - back[1])}"
        return TimeFilter(start=start, end=window.start, words=f"from {start} to {window.start}")
    try:
        first = pd.Timestamp(window.start)
        length = _unit_from(first) if ends[1] is not None else pd.Timestamp(window.end) - first
    except ValueError:
        return None
    start = (first - length).isoformat()
    return TimeFilter(start=start, end=window.start, words=f"from {start} to {window.start}")


def _unit_from(start: pd.Timestamp) -> pd.Timedelta:
    """The calendar unit a window from `start` to now spans so far ("today": a day, "this hour": an hour)."""
    return next((pd.Timedelta(1, unit) for unit in ("D", "h", "min") if start == start.floor(unit)),
                pd.Timedelta(1, "s"))


def _ago(text: str) -> pd.Timedelta:
    """How far before now a relative time (`now`, `now-1h`) is, as the time tools read it."""
    return _NOW - parse_time(text, _NOW)


def _written(span: pd.Timedelta) -> str:
    """A span back from now as the time tools read it, in the largest unit that holds it whole."""
    unit, width = next(((u, w) for u, w in _WRITTEN if span % w == pd.Timedelta(0)), ("s", pd.Timedelta(seconds=1)))
    return f"{span / width:g}{unit}"


def _own(side: list[Filter], other: list[Filter]) -> Filter | None:
    if len(side) == 1:
        return side[0]
    kinds = {type(f) for f in other}
    mine = [f for f in side if type(f) in kinds and f not in other]  # a filter both sides have is no side's own
    return mine[0] if len(mine) == 1 else None


def _on_day_of(window: TimeFilter, other: TimeFilter) -> TimeFilter:
    """`window`'s clock times on `other`'s day (a side that names no day: "between 17:00 and 19:00 that day")."""
    try:
        start, end, day = (pd.Timestamp(t) for t in (window.start, window.end, other.start))
    except ValueError:
        return window
    shift = day.normalize() - start.normalize()
    start, end = start + shift, end + shift
    return window.model_copy(update={"start": start.isoformat(), "end": end.isoformat(),
                                     "words": f"from {start.isoformat()} to {end.isoformat()}"})
