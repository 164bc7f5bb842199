"""The log's own events: message templates (numbers, hex, IPs, ids and paths masked, as Drain does), their
words split and stemmed, and the template a question's words describe.

Built once per load from the vocabulary's evenly spread sample of messages, so its cost does not grow with the
log. A question is matched to a template by its content words; the answer is then counted by a search for the
template's longest literal run, which the tools run over every row.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from react_engine.lexicon.event_phrases import NEGATING_PREFIXES, OPPOSITE_STEMS
from react_engine.logs.wordforms import split_words, stem

MASK = "<*>"
# a path, or any token holding a digit (numbers, hex, IPs, ids, ports, versions): the variable parts of a line
_VARIABLE = r"(?<![\w./:@%+#-])(?=[\w./:@%+#-]*\d)[\w./:@%+#-]+|(?<![\w/])/[\w.@%~+:-]+(?:/[\w.@%~+:-]*)*"
_OPPOSITES: dict[str, set[str]] = {}
for _a, _b in OPPOSITE_STEMS:
    _OPPOSITES.setdefault(_a, set()).add(_b)
    _OPPOSITES.setdefault(_b, set()).add(_a)
MIN_WORDS = 2  # question words a template must explain to be chosen
MARGIN = 1.25  # how much better than any other event the chosen one must score


def template_of(message: str) -> str:
    """`message` with its variable parts masked."""
    return re.sub(_VARIABLE, MASK, message)


def runs_of(template: str) -> list[str]:
    """The literal runs between the masked parts that hold a word, longest first."""
    runs = [r.strip().lstrip("])}>,.:;").rstrip("[({<=").strip() for r in template.split(MASK)]
    return sorted((r for r in runs if re.search(r"[A-Za-z]{2}", r)), key=len, reverse=True)


def alike(a: str, b: str) -> bool:
    """Whether two stems are forms of one word (`contact`/`contacting`, or one holding the other: `calculat`
    in `recalculat`, when the shorter has at least five letters)."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 5 and short in long_ and not any(long_ == n + short for n in NEGATING_PREFIXES)


def _starts(word: str, prefix: str) -> bool:
    return word == prefix if len(prefix) <= 2 else word.startswith(prefix)


def _opposites(word: str) -> set[str]:
    return {o for key, found in _OPPOSITES.items() if _starts(word, key) for o in found}


def _stemmed(words: Iterable[str]) -> dict[str, list[str]]:
    """The stems of each word's parts, one entry per word whatever its form ("connection", "connections")."""
    asked: dict[str, list[str]] = {}
    for word in words:
        parts = [stem(p) for p in split_words(word) if len(p) > 1]
        if parts and parts not in asked.values():
            asked[word] = parts
    return asked


def _is_close(family: list[Event], hits: tuple[str, ...], close: dict[int, tuple[str, ...]]) -> bool:
    """Whether the events of `family` are exactly those scored as well (`close`), each holding the words `hits`."""
    return {id(e) for e in family} == set(close) and all(close[id(e)] == hits for e in family)


@dataclass(frozen=True)
class Event:
    """One template: its text, literal runs, word stems and the sampled rows (with their levels) it covers."""

    template: str
    runs: tuple[str, ...]
    stems: frozenset[str]
    rows: int
    levels: frozenset[str]


@dataclass(frozen=True)
class Reading:
    """The event a question describes: the text to search for, the question words it explains, and the
    sampled rows it covers (all of them when the sample is the whole log)."""

    search: str
    words: tuple[str, ...]
    rows: int
    levels: frozenset[str]
    stems: frozenset[str]


@dataclass(frozen=True)
class Events:
    """The sampled messages and their templates (most frequent first, found when first asked for)."""

    messages: tuple[str, ...] = field(default=(), repr=False)  # the sampled messages, as written
    sample: tuple[str, ...] = field(default=(), repr=False)  # the same in lower case
    levels: tuple[str, ...] = field(default=(), repr=False)  # their severities ("" when unknown)
    _lines: dict[str, np.ndarray] = field(default_factory=dict, repr=False, compare=False)  # memo of `lines`

    @classmethod
    def build(cls, messages: Sequence[str], levels: Sequence[str] = ()) -> Events:
        """The events of `messages`; `levels`, when given, are the messages' severities."""
        written = [v if isinstance(v, str) else "" for v in levels] if len(levels) == len(messages) \
            else [""] * len(messages)
        return cls(messages=tuple(messages), sample=tuple(m.lower() for m in messages), levels=tuple(written))

    @functools.cached_property
    def events(self) -> tuple[Event, ...]:
        """The templates (vectorised masking, then one entry per distinct template), most frequent first."""
        if not self.messages:
            return ()
        distinct = pd.Series(list(dict.fromkeys(self.messages)), dtype=object)  # each distinct message masked once
        masked = dict(zip(distinct, distinct.str.replace(_VARIABLE, MASK, regex=True)))
        templates = [masked[m] for m in self.messages]
        rows = Counter(templates)
        seen: dict[str, set[str]] = {}
        for template, level in zip(templates, self.levels):
            seen.setdefault(template, set()).add(level)
        return tuple(Event(template=t, runs=tuple(runs_of(t)), stems=frozenset(stem(w) for w in split_words(t)
                                                                               if len(w) > 1),
                           rows=n, levels=frozenset(v for v in seen[t] if v)) for t, n in rows.most_common())

    def lines(self, pattern: str) -> np.ndarray:
        """Which sampled messages the regex `pattern` matches (ignoring case); each pattern is searched for once."""
        if pattern not in self._lines:
            search = re.compile(pattern, re.I).search
            self._lines[pattern] = np.fromiter((search(line) is not None for line in self.sample), dtype=bool,
                                               count=len(self.sample))
        return self._lines[pattern]

    def meet(self, patterns: list[str], levels: frozenset[str] | None = None) -> int:
        """Sampled messages that every regex in `patterns` matches (ignoring case), at one of `levels` if given."""
        kept = np.ones(len(self.sample), dtype=bool)
        for pattern in patterns:
            kept &= self.lines(pattern)
        if levels is not None:
            kept &= np.fromiter((level in levels for level in self.levels), dtype=bool, count=len(self.levels))
        return int(kept.sum())

    def read(self, words: Iterable[str]) -> Reading | None:
        """The event the question's content `words` describe, when one event (or a family sharing a literal run)
        clearly explains more of them than any other; None otherwise."""
        asked = _stemmed(words)
        scored = self._scored(asked) if asked and self.events else []
        if not scored:
            return None
        best = max(score for score, _, _ in scored)
        close = {id(event): hits for score, hits, event in scored if score * MARGIN >= best}
        for _, hits, event in sorted(scored, key=lambda s: -s[0])[: len(close)]:
            if (found := self._family(event, hits, close)) is not None:
                return found
        return None

    def _scored(self, asked: dict[str, list[str]]) -> list[tuple[float, tuple[str, ...], Event]]:
        """Each event holding at least `MIN_WORDS` of the asked words, with their weight (rarer words weigh more)
        and the words it holds; an event holding a word of the opposite meaning is left out."""
        holding = {w: self._holding(parts) for w, parts in asked.items()}
        weight = {w: math.log(1 + len(self.events) / max(1, len(found))) for w, found in holding.items()}
        opposed = self._opposed(asked)  # "opened" never describes "Closed socket connection"
        hits = [(tuple(w for w in asked if i in holding[w]), event) for i, event in enumerate(self.events)
                if i not in opposed]
        return [(sum(weight[w] for w in found), found, event) for found, event in hits if len(found) >= MIN_WORDS]

    def _opposed(self, asked: dict[str, list[str]]) -> set[int]:
        """The events holding a word of the opposite meaning of a part of an asked word, and not the part itself."""
        return set().union(*(self._opposing(p) - self._holding([p]) for parts in asked.values() for p in parts))

    def _family(self, event: Event, hits: tuple[str, ...], close: dict[int, tuple[str, ...]]) -> Reading | None:
        """The reading by a literal run of `event` that the events scored as well (`close`) share and no other
        event holds, when the sample's lines holding the run are exactly theirs."""
        for run in event.runs:
            family = [e for e in self.events if run.lower() in e.template.lower()]
            if not _is_close(family, hits, close):
                continue  # the run leaves out an event as good, or stands for events the question does not name
            covered = sum(1 for line in self.sample if run.lower() in line)
            if covered == sum(e.rows for e in family):
                return Reading(search=run, words=hits, rows=covered,
                               levels=frozenset().union(*(e.levels for e in family)), stems=event.stems)
        return None

    def _holding(self, parts: list[str]) -> set[int]:
        """The events holding every part of a word (a name's parts: "NameSystem.delete")."""
        found = [set().union(*(self._by_stem[s] for s in self._by_stem if alike(p, s))) for p in parts]
        return set.intersection(*found) if found else set()

    def _opposing(self, part: str) -> set[int]:
        """The events holding a word of the opposite meaning."""
        others = _opposites(part)
        negated = {n + part for n in NEGATING_PREFIXES} | {part[len(n):] for n in NEGATING_PREFIXES if part.startswith(n)}
        return set().union(*(self._by_stem[s] for s in self._by_stem if (s in negated or any(
            _starts(s, o) for o in others)) and not alike(part, s)))

    @functools.cached_property
    def _by_stem(self) -> dict[str, set[int]]:
        index: dict[str, set[int]] = {}
        for i, event in enumerate(self.events):
            for s in event.stems:
                index.setdefault(s, set()).add(i)
        return index
