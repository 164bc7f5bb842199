"""Every word the rules understand, which a misspelling is corrected to and never from, and the words that name no
field of a log."""

from __future__ import annotations

import functools
import re

from react_engine.lexicon.entity_words import TARGETS
from react_engine.lexicon.event_phrases import EVENTS, FREE_TEXT, NAMED_LOGINS, PHRASES
from react_engine.lexicon.number_words import NUMBER_WORDS
from react_engine.lexicon.severity_terms import AT_LEAST, SEVERITY_WORDS
from react_engine.lexicon.statistic_words import MEASURE_WORDS, SHARE_WORDS, STATISTICS
from react_engine.lexicon.stop_words import FILLER, FILLER_NOUNS, THRESHOLD_WORDS
from react_engine.lexicon.time_units import UNIT, UNITS

ASKING_WORDS = frozenset({
    "which", "what", "who", "why", "top", "unique", "distinct", "histogram", "timeline", "trend", "breakdown",
    "hourly", "daily", "per", "between", "since", "before", "after", "until", "around", "about", "first", "last",
    "final", "hour", "minute", "second", "day", "week", "month", "year", "today", "yesterday", "january", "february",
    "march", "april", "june", "july", "august", "september", "october", "november", "december", "sept", "least",
    "fewest", "error", "warning", "event", "password", "connection", "block", "user", "address", "status", "restart",
    "reboot", "critical", "fatal", "delete", "remove", "connect", "login", "failure", "failed", "success",
    "successful", "session", "request", "response", "timeout", "sorted", "ordered", "ranked", "ascending",
    "descending"}) | MEASURE_WORDS
"""Question words the rules read outside the patterns of the other lists (shapes, time words)."""

_MEASURES_OF_LINES = frozenset({"sum", "mean", "min", "max", "share", "rate", "percent", "span", "difference"})
"""Short names of measures of the lines, which no "what is the X of" names a field with."""

NOT_FIELDS = frozenset((FILLER - FILLER_NOUNS) | ASKING_WORDS | _MEASURES_OF_LINES)
"""Words a "what is the X of" names no field with: filler, measures and the rules' asking words."""

NEVER_FIELDS = frozenset(STATISTICS) | MEASURE_WORDS | frozenset(SHARE_WORDS) | _MEASURES_OF_LINES | {
    "number", "total", "count", "amount", "percentage"}
"""Words a "what is the X of" asks a measure of the lines with, even where a log writes X as a field ("what is the
total of ..."); the other words of `NOT_FIELDS` may name a field the log writes after them ("the client of 52117")."""


TIME_WORDS = frozenset({"start", "started", "starts", "begin", "began", "end", "ended", "stop", "stopped", "gap",
                        "gaps", "silence", "silent", "longest", "first", "last", "latest", "earliest", "logging",
                        "versus", "against", "compare", "compared", "interval", "intervals", "wait", "pause",
                        "pauses", "quiet", "elapsed", "portion", "busiest", "peak"})
"""Words a question about times or a comparison asks with, never corrected into a log's words ("start" is not a
typo of "state", "versus" not one of "version")."""


def _read_pattern(text: str, whole: set[str], stems: set[str]) -> None:
    """Add the words a pattern's `text` writes to `whole` (a stem with its endings, `severit(?:y|ies)`, as each
    whole word) and its stems to `stems`; a word written before a group or a class is a stem, no whole word."""
    for stem, endings in re.findall(r"([a-z]{2,})\(\?:([a-z|]+)\)", text):
        whole.update(stem + e for e in endings.split("|"))
        stems.add(stem)
    whole.update(w for w in re.findall(r"[a-z]{3,}(?![a-z(\[])", text) if w not in stems)
    stems.update(re.findall(r"[a-z]{2,}(?=[(\[])", text))


@functools.cache
def lexicon_words() -> tuple[frozenset[str], frozenset[str]]:
    """`(known, whole)`: every word or word stem the rules understand (filler, entity words, severities, phrases,
    events, numbers, time words), which is never read as a typo, and the whole words among them, which a typo
    may be read as (`severity` from `severit(?:y|ies)`, not the stem `severit`)."""
    patterns = [p for p, *_ in PHRASES] + [p for p, _ in EVENTS] + [p for _, p in TARGETS] + \
        [p for p, _ in SEVERITY_WORDS] + [UNIT, FREE_TEXT.pattern, AT_LEAST, NAMED_LOGINS]
    whole = set(FILLER) | set(NUMBER_WORDS) | set(UNITS) | ASKING_WORDS | THRESHOLD_WORDS
    stems: set[str] = set()
    for pattern in patterns:
        _read_pattern(re.sub(r"\\[a-zA-Z]", " ", pattern), whole, stems)
    return frozenset(whole | stems), frozenset(w for w in whole if len(w) > 2)

UNANSWERED_ASKING = (
    "percent", "percents", "percentage", "percentages", "proportion", "fraction", "ratio", "average", "avg", "median",
    "percentile", "maximum", "minimum", "variance", "latest", "newest", "oldest", "earliest", "first", "last",
    "recent", "recently", "when", "than", "versus", "vs", "longest", "shortest", "slowest", "fastest", "slower",
    "faster", "quicker", "smallest", "lowest", "portion", "compare", "compared", "comparison")
"""Asking words that, left over after reading, mean part of the question went unanswered."""
