"""The words of a question that ask for something beyond counting, ranking and listing lines: a statistic of a
field, a share, a comparison, when something happened, how long, gaps, a two-way breakdown, the kinds of
messages, what is unusual; and the order and limit of a listing ("the last 3 errors").

`asked(text, used)` reads them from the parts of `text` no other rule has read (`used` marks the read ones) and
returns what they ask for and the spans it read; `unread_words` lists the asking words left over, which make any
reply a partial answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from react_engine.understanding.measures import (
    Comparison,
    Duration,
    Gaps,
    Measure,
    Occurrence,
    Order,
    Patterns,
    Pivot,
    Share,
    Span,
    Statistic,
    StatisticFunc,
    Unusual,
)

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "twenty": 20}
_N = r"(\d+|" + "|".join(NUMBERS) + r")"
_FUNCS: dict[str, StatisticFunc] = {
    "average": "mean", "avg": "mean", "mean": "mean", "median": "median", "maximum": "max", "max": "max",
    "minimum": "min", "min": "min", "sum": "sum", "standard deviation": "stddev", "stddev": "stddev",
    "std dev": "stddev", "variance": "stddev"}
_UNITS = r"bytes|kilobytes|megabytes|gigabytes|kb|mb|gb|seconds|secs|milliseconds|ms|size"
_FIELD_END = (r"(?=\s+(?:for|in|on|from|by|per|over|during|across|today|yesterday|when|where|with|between|since|"
              r"of all|among)\b|\s*[?,.;]|\s*$)")
# asking words that, left over after reading, mean part of the question went unanswered
_ASKING = (r"\b(?:percent(?:age)?s?|proportion|fraction|ratio|average|avg|median|percentile|maximum|minimum|"
           r"variance|latest|newest|oldest|earliest|first|last|recent|recently|when|than|versus|vs|longest|"
           r"shortest|slowest|fastest)\b|%")
# words a question about times asks with, never corrected into a log's words ("start" is not a typo of "state")
TIME_WORDS = frozenset({"start", "started", "starts", "begin", "began", "end", "ended", "stop", "stopped", "gap",
                        "gaps", "silence", "silent", "longest", "first", "last", "latest", "earliest", "logging"})
TIME_KEYS = {"minute": "1m", "hour": "1h", "day": "1d", "week": "1w"}


@dataclass
class Asked:
    """What the asking words ask for: a measure (None: count, rank or list as read), the listing's order and
    limit, the words read and their spans."""

    measure: Measure | None = None
    order: Order | None = None
    limit: int | None = None
    words: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)


class _Text:
    """The question with its read spans, for matching only what is still unread."""

    def __init__(self, text: str, used: Sequence[bool], found: Asked) -> None:
        self.text, self.used, self.found = text, list(used), found

    def take(self, pattern: str, over_read: bool = False) -> re.Match[str] | None:
        """The first match of `pattern` over unread text (or any text, `over_read`: the words of a comparison or
        a breakdown are also read as filters or keys), which becomes read."""
        for m in re.finditer(pattern, self.text, re.I):
            if m.end() > m.start() and (over_read or not any(self.used[m.start():m.end()])):
                self.used[m.start():m.end()] = [True] * (m.end() - m.start())
                self.found.words.append(m.group(0).strip())
                self.found.spans.append((m.start(), m.end()))
                return m
        return None

    def field_after(self, end: int) -> str:
        """The words naming a field right after `end` ("of request time"), read; "" when none."""
        m = re.compile(r"\s*(?:of\s+|for\s+)?(?:the\s+|all\s+)?((?:[\w.-]+\s*?){1,4}?)" + _FIELD_END, re.I).match(
            self.text, end)
        if m is None or not m.group(1).strip() or any(self.used[m.start(1):m.end(1)]):
            return ""
        self.used[m.start(1):m.end(1)] = [True] * (m.end(1) - m.start(1))
        self.found.spans.append((m.start(1), m.end(1)))
        return m.group(1).strip()


def _percentile(t: _Text) -> Measure | None:
    m = t.take(r"\b(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)?[- ]?percentile\b|\bp(\d{2})\b|\bpercentile\b")
    if m is None:
        return None
    q = m.group(1) or m.group(2)
    return Statistic(func="percentile", q=float(q) if q else None, field=t.field_after(m.end()))


def _statistic(t: _Text) -> Measure | None:
    m = t.take(r"(?<!\bi )(?<!\bwe )(?<!\bthey )(?<!\byou )(?<!\bdoes )(?<!\bdo )(?<!\bit )\b("
               + "|".join(sorted(_FUNCS, key=len, reverse=True)) + r")\b(?!\s+(?:level|severity|that|by|to)\b)")
    if m is not None:
        return Statistic(func=_FUNCS[m.group(1).lower()], field=t.field_after(m.end()))
    m = t.take(r"\bhow (?:many|much)\s+(" + _UNITS + r")\b|\btotal\s+(?:number of\s+)?(" + _UNITS + r")\b"
               r"|\b(" + _UNITS + r")\b[^?]*\bin total\b")
    if m is not None:
        return Statistic(func="sum", field=next(g for g in m.groups() if g))
    return None


def _share(t: _Text) -> Measure | None:
    m = t.take(r"\b(?:what|which)\s+(?:percent(?:age)?|proportion|fraction|share|ratio)\b|\bpercent(?:age)?\b|%"
               r"|\bproportion\b|\bfraction\b|\bratio\b|\bshare of\b")
    return Share() if m is not None else None


def _comparison(t: _Text) -> Measure | None:
    m = t.take(r"\b(?:more|fewer|less|higher|lower|bigger|smaller)\b(.*?)\bthan\s+([\w ]+?)(?=[?.,;]|$)"
               r"|\bthan\s+(yesterday|before|usual|normal|last \w+)\b", over_read=True)
    if m is not None:
        return Comparison(left=(m.group(1) or "").strip(), right=(m.group(2) or m.group(3) or "").strip())
    m = t.take(r"([\w ]+?)\s+(?:vs\.?|versus|compared (?:to|with))\s+([\w ]+)|\bcompare\b|\bdifference between\b",
               over_read=True)
    if m is not None:
        return Comparison(left=(m.group(1) or "").strip(), right=(m.group(2) or "").strip())
    return None


def _times(t: _Text) -> Measure | None:
    if t.take(r"\bhow long\b|\bduration\b|\btime span\b|\btime range\b|\blasted\b"):
        t.take(r"\blast(?:ed|s)?(?=\s*[?.!]?\s*$)")  # "how long did the outage last?"
        return Span()
    if t.take(r"\bhow long did\b|\btook\b.*\bto\b"):
        return Duration(start="", end="")
    if t.take(r"\bgaps?\b|\bsilen(?:ce|t)\b|\bwent quiet\b|\bstopped logging\b"):
        return Gaps()
    when = t.take(r"\bwhen\b")
    if when is not None:
        last = t.take(r"\b(?:last|latest|most recent(?:ly)?|stop(?:ped)?|end(?:ed)?)\b")
        if last is None:
            t.take(r"\b(?:first|earliest|start(?:ed)?|begin|began)\b")
        return Occurrence(which="last" if last is not None else "first")
    return None


def _silence(t: _Text) -> Measure | None:
    """"the longest silence between two lines", "biggest gaps between consecutive entries": the gaps, with the
    words that only say which gaps."""
    if t.take(r"\b(?:(?:longest|biggest|largest|longer)\s+)?(?:gaps?|silen(?:ce|ces|t))\b"
              r"(?:\s+(?:between|in)\s+(?:the\s+)?(?:any\s+)?(?:two|consecutive|successive|adjacent)?\s*"
              r"(?:log\s+)?(?:lines|entries|messages|events|logs?))?"):
        return Gaps()
    return None


def _breakdown(t: _Text) -> Measure | None:
    m = t.take(r"\b(?:per|by|for each)\s+(\w+?)s?\s+(?:and|per|by|&|,)\s+(?:per\s+|by\s+|each\s+)?(\w+?)s?\b",
               over_read=True)
    return Pivot(rows=m.group(1).lower(), columns=m.group(2).lower()) if m is not None else None


def _investigation(t: _Text) -> Measure | None:
    if t.take(r"\bwhat (?:kinds?|types?|sorts?) of\b|\bsummari[sz]e\b|\bsummary\b|\bpatterns?\b|\bcategori[sz]e\b"):
        return Patterns()
    if t.take(r"\bunusual\b|\banomal\w*\b|\boutliers?\b|\bstrange\b|\bsuspicious\b|\bnever seen\b|\bspikes?\b"
              r"|\bnew (?:errors?|messages?|events?|kinds?)\b|\bfor the first time\b"):
        return Unusual()
    return None


_READERS: tuple[Callable[[_Text], Measure | None], ...] = (
    _percentile, _statistic, _share, _comparison, _breakdown, _investigation, _silence, _times)


def _listing(t: _Text) -> None:
    """"the last 3 errors", "first five lines", "the latest error", "5 most recent": order and limit."""
    m = t.take(r"\b(last|latest|newest|most recent|first|earliest|oldest)\s+" + _N + r"\b"
               r"|\b" + _N + r"\s+(latest|newest|most recent|oldest|earliest)\b"
               r"|\b(last|latest|newest|most recent|first|earliest|oldest)\b")
    if m is None:
        return
    word = (m.group(1) or m.group(4) or m.group(5)).lower()
    number = m.group(2) or m.group(3)
    t.found.order = "oldest" if word in ("first", "earliest", "oldest") else "newest"
    t.found.limit = (int(number) if number.isdigit() else NUMBERS[number.lower()]) if number else 1


def asked(text: str, used: Sequence[bool]) -> Asked:
    """What the unread asking words of `text` ask for (the spans read are in `spans`)."""
    t = _Text(text, used, Asked())
    for reader in _READERS:
        if (measure := reader(t)) is not None:
            t.found.measure = measure
            break
    if t.found.measure is None:
        _listing(t)
    return t.found


def unread_words(text: str, used: Sequence[bool]) -> list[str]:
    """The asking words of `text` that no span in `used` covers."""
    return list(dict.fromkeys(m.group(0).lower() for m in re.finditer(_ASKING, text, re.I)
                              if not any(used[m.start():m.end()])))
