"""Reading "how long were SSH sessions" as durations: a noun of the question that the log writes with a start word
and an end word ("session opened" ... "session closed") names the start and end lines to pair."""

from __future__ import annotations

import re

from react_engine.understanding import Vocabulary
from react_engine.understanding.measures import Duration, Measure, Span, Statistic

_PAIRS = (("opened", "closed"), ("started", "ended"), ("started", "finished"), ("started", "stopped"),
          ("start", "end"), ("begin", "end"), ("connected", "disconnected"), ("up", "down"))
_KEYS = ("pid", "thread")  # the columns a start and its end share, in order of preference


def paired(measure: Measure | None, text: str, vocabulary: Vocabulary, columns: list[str]) -> Measure | None:
    """`measure`, or in place of a span or an unnamed duration the durations of the first noun of `text` that the
    sampled lines write with both a start word and an end word of one pair; an unnamed duration (a mean was asked)
    that no pair explains is the mean of the time the lines write."""
    if not (isinstance(measure, Span) or (isinstance(measure, Duration) and not measure.start)):
        return measure
    for word in re.findall(r"[a-z]{3,}", text.lower()):
        noun = word[:-1] if word.endswith("s") else word
        for opening, closing in _PAIRS:
            start, end = f"{noun} {opening}", f"{noun} {closing}"
            if all(vocabulary.together([re.escape(t)])[1] > 0 for t in (start, end)):
                key = next((c for c in _KEYS if c in columns), None)
                return Duration(start=start, end=end, key=key)
    if isinstance(measure, Duration):  # "how long did reading a broadcast variable take on average": a mean time
        return Statistic(func="mean", field="time")
    return measure
