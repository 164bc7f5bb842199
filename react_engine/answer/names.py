"""Finding, in linear time, where an answer writes a name a tool returned or a filter used (`SendWorker:3`, pid
`2227`, a phrase) whole, so that the digits in it are read as the name they are and not as numbers.

A name that reads as a quantity alone (pid `2227`, a host called `812ms`, a field's text `"812 ms"`) is that name
only where the answer uses it as one: right after its field's name ("host 812ms", "user 0"), after `#`, or before
its count ("812ms (5)"). Anywhere else it is the quantity it reads as, checked like any other ("the p95 latency is 812ms")."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from react_engine.answer.quantities import NUMBERISH, is_quantity

MAX_NAME_CHARS = 400  # a longer text is no name an answer writes whole (and bounds the work per position)
_SPACE = re.compile(r"\s")
_BAR, _ESCAPED = re.compile(r"(?<!\\)\|"), re.compile(r"\\(.)")
_SYNTAX = re.compile(r"[\\^$()|?*+\[\]{}]")
_ALTERNATION = re.compile(r"\^\(\?:(.*)\)\$")
_QUOTES = "\"'`“”‘’«»"
_COUNT_AFTER = re.compile(r"\s*\(\s*\d[\d,]*(?:\s+[A-Za-z]+)?\s*\)")  # "(5)", "(1,234 lines)"


@dataclass(frozen=True)
class Name:
    """A text that names something: a value's text (`label` is the field it is a value of, e.g. `pid`), or a
    filter's phrase (`phrase`: a phrase with spaces counts only quoted)."""

    text: str
    label: str = ""
    phrase: bool = False


@dataclass
class _Entry:
    bare: bool  # the name reads as a quantity alone (`2227`, `812ms`): a name only where used as one
    phrase: bool = True  # every source of this text is a filter phrase
    labels: set[str] = field(default_factory=set)


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


class Names:
    """An index of names by their first character and lengths, for scans bounded by the answer's length times the
    lengths. `numbered`: only the names with a digit or a number word (the others hide no number, and may be words
    an answer uses as units: `seconds`)."""

    def __init__(self, names: Iterable[Name], *, numbered: bool = False) -> None:
        self._entries: dict[str, _Entry] = {}
        for name in names:
            text = name.text.strip()
            if (len(text) >= 2 or text.isdigit()) and len(text) <= MAX_NAME_CHARS and (
                    not numbered or NUMBERISH.search(text)):  # one digit is a name only where used as one
                self._add(text, name)
        lengths: dict[str, set[int]] = {}
        for key in self._entries:
            lengths.setdefault(key[0], set()).add(len(key))
        self._lengths = {c: sorted(ls, reverse=True) for c, ls in lengths.items()}

    def _add(self, text: str, name: Name) -> None:
        """Index `name` under its stripped `text`: a phrase only while every source of the text is a phrase with
        spaces, with the fields it is a value of."""
        key = text.lower()
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry(bare=text.isdigit() or is_quantity(text))
        if entry.phrase and not (name.phrase and _SPACE.search(text)):
            entry.phrase = False
        if name.label:
            entry.labels.add(name.label.lower())

    def __contains__(self, text: str) -> bool:
        return text.strip().lower() in self._entries

    def _fits(self, entry: _Entry, text: str, start: int, end: int) -> bool:
        """A phrase counts quoted; a name that reads as a quantity right after its field's name, `#`, or before its
        count in parentheses."""
        if entry.phrase:
            return start > 0 and end < len(text) and text[start - 1] in _QUOTES and text[end] in _QUOTES
        if not entry.bare:
            return True
        if _COUNT_AFTER.match(text, end, end + 40) or text[start - 1:start] == "#":
            return True
        before = text[max(0, start - 80):start].lower()
        return any(re.search(rf"\b{re.escape(label)}s?\s*[:=]?\s*$", before) for label in entry.labels)

    def spans(self, text: str, *, anywhere: bool = False, deadline: float | None = None) -> list[tuple[int, int]]:
        """Where `text` writes a name whole (longest first); `anywhere`: as any name, wherever it stands."""
        lowered, found, i, size = text.lower(), [], 0, len(text)
        while i < size:
            lengths = self._lengths.get(lowered[i])
            if lengths and (i == 0 or not (_word(text[i - 1]) or text[i - 1] == ".")):
                if deadline is not None and not i % 256 and time.monotonic() > deadline:
                    raise TimeoutError
                end = self._match(text, lowered, i, lengths, anywhere)
                if end:
                    found.append((i, end))
                    i = end
                    continue
            i += 1
        return found

    def _match(self, text: str, lowered: str, start: int, lengths: list[int], anywhere: bool) -> int:
        for length in lengths:
            end = start + length
            if end > len(text) or (end < len(text) and _word(text[end])):
                continue
            entry = self._entries.get(lowered[start:end])
            if entry is not None and (anywhere or self._fits(entry, text, start, end)):
                return end
        return 0

    def blank(self, text: str, deadline: float | None = None) -> str:
        """`text` with each name it writes whole, as the name it is, replaced by a space."""
        out, last = [], 0
        for start, end in self.spans(text, deadline=deadline):
            out += [text[last:start], " "]
            last = end
        return "".join(out) + text[last:]


def alternatives(value: str) -> list[str]:
    """The literal names a filter value compares with: itself, or the alternatives of `^(?:a|b)$`."""
    inner = _ALTERNATION.fullmatch(value) if value.startswith("^(?:") else None
    if inner is None:
        return [value]
    names = [_ESCAPED.sub(r"\1", alt) if "\\" in alt else alt for alt in _BAR.split(inner.group(1))]
    return [n for n in names if not _SYNTAX.search(n)]
