"""The log's own events: message templates (numbers, hex, IPs, ids and paths masked, as Drain does), their
words split and stemmed, and the template a question's words describe.

Built once per load from the vocabulary's evenly spread sample of messages, so its cost does not grow with the
log. A question is matched to a template by its content words; the answer is then counted by a search for the
template's longest literal run, which the tools run over every row.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pandas as pd

from react_engine.understanding.words import split_words, stem

MASK = "<*>"
# a path, or any token holding a digit (numbers, hex, IPs, ids, ports, versions): the variable parts of a line
_VARIABLE = r"(?<![\w./:@%+#-])(?=[\w./:@%+#-]*\d)[\w./:@%+#-]+|(?<![\w/])/[\w.@%~+:-]+(?:/[\w.@%~+:-]*)*"
# stems of words of opposite meaning: an event that says one is never what a question saying the other describes
_PAIRS = (("open", "clos"), ("accept", "reject"), ("start", "stop"), ("success", "fail"), ("allow", "deni"),
          ("allow", "deny"), ("login", "logout"), ("add", "remov"), ("up", "down"), ("enabl", "disabl"))
_OPPOSITES: dict[str, set[str]] = {}
for _a, _b in _PAIRS:
    _OPPOSITES.setdefault(_a, set()).add(_b)
    _OPPOSITES.setdefault(_b, set()).add(_a)
_NEGATIONS = ("dis", "un", "non", "in", "de")  # "disconnect" is no form of "connect"
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
    return len(short) >= 5 and short in long_ and not any(long_ == n + short for n in _NEGATIONS)


def _opposed(a: str, b: str) -> bool:
    """Whether stems `a` and `b` mean opposite things ("open"/"clos", "connect"/"disconnect")."""
    if alike(a, b):
        return False
    return any(_starts(b, o) for o in _opposites(a)) or any(b == n + a or a == n + b for n in _NEGATIONS)


def _starts(word: str, prefix: str) -> bool:
    return word == prefix if len(prefix) <= 2 else word.startswith(prefix)


def _opposites(word: str) -> set[str]:
    return {o for key, found in _OPPOSITES.items() if _starts(word, key) for o in found}


def _holds(event: Event, parts: list[str]) -> bool:
    """Whether `event` holds a word: every part of a name ("NameSystem.delete", "CBS_E_INVALID_PACKAGE")."""
    return all(any(alike(p, s) for s in event.stems) for p in parts)


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
    """The templates of the sampled messages, most frequent first."""

    events: tuple[Event, ...] = ()
    sample: tuple[str, ...] = field(default=(), repr=False)  # the sampled messages, in lower case
    levels: tuple[str, ...] = field(default=(), repr=False)  # their severities ("" when unknown)

    @classmethod
    def build(cls, messages: Sequence[str], levels: Sequence[str] = ()) -> Events:
        """The templates of `messages` (vectorised masking, then one entry per distinct template); `levels`, when
        given, are the messages' severities."""
        if not messages:
            return cls()
        frame = pd.DataFrame({"template": pd.Series(list(messages), dtype=object).str.replace(
            _VARIABLE, MASK, regex=True)})
        frame["level"] = [str(v) if isinstance(v, str) else "" for v in levels] if len(levels) == len(messages) \
            else ""
        events = []
        for template, group in frame.groupby("template", sort=False):
            text = str(template)
            events.append(Event(template=text, runs=tuple(runs_of(text)),
                                stems=frozenset(stem(w) for w in split_words(text) if len(w) > 1),
                                rows=len(group), levels=frozenset(v for v in group["level"].unique() if v)))
        events.sort(key=lambda e: -e.rows)
        return cls(events=tuple(events), sample=tuple(m.lower() for m in messages),
                   levels=tuple(frame["level"].tolist()))

    def meet(self, patterns: list[str], levels: frozenset[str] | None = None) -> int:
        """Sampled messages that every regex in `patterns` matches (ignoring case), at one of `levels` if given."""
        compiled = [re.compile(p, re.I) for p in patterns]
        return sum(1 for line, level in zip(self.sample, self.levels) if (levels is None or level in levels)
                   and all(c.search(line) for c in compiled))

    def read(self, words: Iterable[str]) -> Reading | None:
        """The event the question's content `words` describe, when one event (or a family sharing a literal run)
        clearly explains more of them than any other; None otherwise."""
        asked: dict[str, list[str]] = {}
        for word in words:  # one entry per word, whatever its form ("connection", "connections")
            parts = [stem(p) for p in split_words(word) if len(p) > 1]
            if parts and parts not in asked.values():
                asked[word] = parts
        if not asked or not self.events:
            return None
        weight = {w: self._weight(parts) for w, parts in asked.items()}
        scored = []
        for event in self.events:
            if any(_opposed(p, s) and not _holds(event, [p]) for parts in asked.values() for p in parts
                   for s in event.stems):
                continue  # "opened" never describes "Closed socket connection"
            hits = tuple(w for w, parts in asked.items() if _holds(event, parts))
            if len(hits) >= MIN_WORDS:
                scored.append((sum(weight[w] for w in hits), hits, event))
        if not scored:
            return None
        best = max(score for score, _, _ in scored)
        close = {id(event): hits for score, hits, event in scored if score * MARGIN >= best}
        for _, hits, event in sorted(scored, key=lambda s: -s[0])[: len(close)]:
            for run in event.runs:
                family = [e for e in self.events if run.lower() in e.template.lower()]
                if {id(e) for e in family} != set(close) or any(close[id(e)] != hits for e in family):
                    continue  # the run leaves out an event as good, or stands for events the question does not name
                covered = sum(1 for line in self.sample if run.lower() in line)
                if covered == sum(e.rows for e in family):
                    return Reading(search=run, words=hits, rows=covered,
                                   levels=frozenset().union(*(e.levels for e in family)), stems=event.stems)
        return None

    def _weight(self, parts: list[str]) -> float:
        """Rarer words say more: the inverse share of events holding `parts`."""
        holding = sum(1 for e in self.events if _holds(e, parts))
        return math.log(1 + len(self.events) / max(1, holding))
