"""What a question's asking words ask for (`Asked`), and its text as the asking readers read it: the spans read so
far, and the words that name a field beside an asking word."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from react_engine.lexicon.measure_units import STATED_UNITS
from react_engine.lexicon.statistic_words import QUANTITY_UNITS
from react_engine.lexicon.stop_words import ASKING_LEADS
from react_engine.question.measures import Measure, Order

FIELD_END = (r"(?=\s+(?:for|in|on|from|by|per|over|during|across|today|yesterday|this|when|where|with|between|"
             r"since|of all|among|vs|versus|against|compared)\b|\s*[?,.;]|\s*$)")
_QUANTITY = "|".join(QUANTITY_UNITS)
_ASKED_UNITS = "|".join(sorted({*QUANTITY_UNITS, *map(re.escape, STATED_UNITS)}, key=lambda u: (-len(u), u)))


@dataclass
class Asked:
    """What the asking words ask for: a measure (None: count, rank or list as read), the listing's order and
    limit, the words read and their spans."""

    measure: Measure | None = None
    order: Order | None = None
    limit: int | None = None
    keys: tuple[str, ...] = ()  # a statistic's two grouping words ("by component and level", "per host per hour")
    by: str | None = None  # the words naming what a statistic is grouped by, however else they were read
    words: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)


class AskedText:
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

    def field_before(self, start: int) -> str:
        """The unread word or two right before `start` that may name a field ("latency p99", "response time
        p95"), read; "" when none (a word that only asks or points is none)."""
        m = re.search(r"\b([A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*)?)\s*$", self.text[:start])
        if m is None or any(self.used[m.start(1):m.end(1)]):
            return ""
        words = [w for w in m.group(1).split() if w.lower() not in ASKING_LEADS]
        if not words or m.group(1).split()[-1] != words[-1]:
            return ""
        first = m.end(1) - len(" ".join(words))
        self.used[first:m.end(1)] = [True] * (m.end(1) - first)
        self.found.spans.append((first, m.end(1)))
        return " ".join(words)

    def _past_read(self, start: int, stop: int) -> int:
        """Where the words in [start, stop) begin once a leading name in capitals another reader took (a method or
        level as written: "median GET time") is passed, when unread words follow it; else `start`."""
        at = start
        while at < stop and (self.used[at] or self.text[at].isspace()):
            at += 1
        passed = self.text[start:at].strip()
        return at if start < at < stop and passed.isupper() and passed.isalpha() and self.used[start] and not any(
            self.used[at:stop]) else start

    def field_after(self, end: int) -> str:
        """The words naming a field right after `end` ("of request time"), read; "" when none."""
        m = field_words(self.text, end)
        if m is None or not m.group(1).strip():
            return ""
        start, stop = m.start(1), m.end(1)
        start = self._past_read(start, stop)  # "median GET time": the field after the words another reader took
        if any(self.used[start:stop]):  # "latency of errors": the words before "of" and those another reader took
            kept = re.fullmatch(r"\s*(\S.*?)\s+(?:of|for|on|in|from)(?:\s+(?:the|all))?\s*",
                                self.text[start:self.used.index(True, start)], re.I)
            if kept is None:
                return ""
            stop = start + kept.end(1)
        self.used[start:stop] = [True] * (stop - start)
        self.found.spans.append((start, stop))
        return self.text[start:stop].strip()




def field_words(text: str, end: int) -> re.Match[str] | None:
    """The words right after `end` that may name a field ("of request time"), as group 1."""
    return re.compile(r"\s*(?:of\s+|for\s+)?(?:the\s+|all\s+)?((?:[\w.-]+\s*?){1,4}?)" + FIELD_END, re.I).match(
        text, end)


def with_unit(t: AskedText, field: str) -> tuple[str, str | None]:
    """The field, with the unit of a quantity the question states after it ("response size in bytes": `response
    size bytes`), and the unit the question asks its value in ("in minutes": `minutes`), if any."""
    unit = t.take(r"\bin\s+(" + _ASKED_UNITS + r")\b(?=\s*[?.,;]?\s*$)") if field else None
    if unit is None:
        return field, None
    written = unit.group(1)
    asked = STATED_UNITS.get(written.lower())
    named = f"{field} {written}" if re.fullmatch(_QUANTITY, written, re.I) else field
    return named, asked.stated if asked is not None else None
