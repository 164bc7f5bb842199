"""A statistic of how many lines a time bucket holds: "average number of errors per hour", "average failed
passwords per hour", "how many requests per second on average", "peak requests per minute", "max number of failed
logins in any hour". It is read as a `Rate` when the question names a bucket and what the statistic is of is the
lines themselves (a number of them, or a plural noun that names no quantity a line carries), never a field:
"average latency per hour" and "average bytes per hour" stay statistics per hour."""

from __future__ import annotations

import re

from react_engine.lexicon.statistic_words import COUNTED, QUANTITIES
from react_engine.lexicon.stop_words import RATE_LEADS
from react_engine.lexicon.time_units import BUCKET_ADVERBS, TIME_KEYS, unit_names
from react_engine.question.asked import field_words
from react_engine.question.asking import singular
from react_engine.question.measures import Rate, Statistic

_BUCKET = re.compile(r"\b(?:per|an?|each|every|in\s+(?:any|an?|one|a single|any single|any one|a given|any given|each|"
                     r"every))\s+(" + unit_names() + r")\b|\b(" + "|".join(BUCKET_ADVERBS) + r")\b", re.I)


def as_rate(measure: Statistic, text: str, after: int) -> tuple[Rate, tuple[int, int]] | None:
    """`measure` as a rate, and where `text` names its bucket, when it names one and the words after the
    statistic (from `after`), or its field, name lines; None otherwise."""
    bucket = _BUCKET.search(text)
    if bucket is None:
        return None
    found = field_words(text[:bucket.start()] if after <= bucket.start() else text, after)
    words = (measure.field or (found.group(1) if found is not None else "")).lower().split()
    if words and words[0] not in COUNTED and not _lines(words):
        return None
    per = TIME_KEYS[bucket.group(1).lower()] if bucket.group(1) else BUCKET_ADVERBS[bucket.group(2).lower()]
    return Rate(func=measure.func, q=measure.q, per=per, noun=_noun(text[:bucket.start()])), bucket.span()


def _lines(words: list[str]) -> bool:
    """Whether words name lines: a plural noun last ("failed logins", "404s"; not `latency_ms`), no quantity among
    them."""
    last = words[-1]
    return last.isalnum() and singular(last) != last and not QUANTITIES.intersection(words)


def _noun(before: str) -> str:
    """The words naming the lines counted, right before the bucket ("failed logins"); "lines" when none does."""
    words: list[str] = []
    for word in reversed(re.findall(r"[\w'-]+", before)[-4:]):
        if word.lower() in RATE_LEADS:
            break
        words.insert(0, word)
    return " ".join(words) if words and _lines([w.lower() for w in words]) else "lines"
