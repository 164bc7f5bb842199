"""Reading a question: spans consumed by rules, time windows, and names that occur in the data."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from react_engine.planners.rules.vocabulary import (
    AMOUNT,
    FILLER,
    HOST_WORD,
    NUMBER_WORDS,
    SEVERITY_WORDS,
    TARGETS,
    TIME,
    UNIT,
    UNITS,
)


class Question:
    """The question text with the spans already explained by a rule marked as consumed."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.used = [False] * len(text)

    def take(self, pattern: str, flags: int = re.I,
             accept: Callable[[re.Match[str]], bool] | None = None) -> list[re.Match[str]]:
        """Matches of `pattern` (that `accept` approves) not overlapping consumed text; they become consumed."""
        found, regex, pos = [], re.compile(pattern, flags), 0
        while (m := regex.search(self.text, pos)) is not None:
            if m.end() > m.start() and not any(self.used[m.start():m.end()]) and (accept is None or accept(m)):
                self.used[m.start():m.end()] = [True] * (m.end() - m.start())
                found.append(m)
                pos = m.end()
            else:  # a match over consumed text may hide a shorter one inside it
                pos = m.start() + 1
        return found

    def has(self, pattern: str) -> bool:
        """Whether `pattern` occurs anywhere (consumed or not), ignoring case."""
        return re.search(pattern, self.text, re.I) is not None

    def leftover(self) -> list[str]:
        """Content words no rule explained."""
        rest = "".join(" " if u else c for c, u in zip(self.text, self.used))
        words = re.findall(r"[A-Za-z0-9][\w.'/:-]*", rest)
        return [w for w in words if w.lower().strip("'.-") not in FILLER and (len(w) > 1 or w.isdigit())]


def amount(word: str | None) -> int:
    """`15` or `fifteen` -> 15; no word (as in "the last hour") -> 1."""
    if not word:
        return 1
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def _clock(text: str, day: str) -> str | None:
    """`08:00`, `8am`, `2:30 pm`, `noon`, `midnight` or an ISO date/time -> ISO text (on `day` for clock times)."""
    t = text.strip().lower()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[ t]\d{1,2}:\d{2}(?::\d{2})?)?z?", t):
        return t.upper().replace(" ", "T").rstrip("Z")
    if t in ("noon", "midday"):
        return f"{day}T12:00:00"
    if t == "midnight":
        return f"{day}T00:00:00"
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(am|pm)?", t)
    if not m or (m.group(2) is None and m.group(4) is None):
        return None
    hour = int(m.group(1)) % 12 + (12 if m.group(4) == "pm" else 0) if m.group(4) else int(m.group(1))
    if hour > 23 or int(m.group(2) or 0) > 59:
        return None
    return f"{day}T{hour:02d}:{int(m.group(2) or 0):02d}:{int(m.group(3) or 0):02d}"


def _unit(word: str) -> str:
    """`hours` -> `h`, `mins` -> `m`, `s` -> `s`: the unit letters relative times use."""
    key = word.lower()
    return UNITS[key.rstrip("s") if len(key) > 1 else key]


def time_window(q: Question, now: str | None) -> tuple[str, str, str] | None:
    """(start, end, words) for the time window the question names, or None."""
    day = now[:10] if now else None
    for m in q.take(r"\b(?:in |within |during |over |for )?(?:the )?(?:last|past|previous|recent)\s+"
                    + AMOUNT + r"?\s*" + UNIT + r"\b") + q.take(r"\b" + AMOUNT + r"\s*" + UNIT + r"\s+ago\b"):
        start = f"now-{amount(m.group(1))}{_unit(m.group(2))}"
        return start, "now", f"from {start} to now"
    if day is None:
        return None
    for m in q.take(r"\b(?:on|during|for)\s+(\d{4}-\d{2}-\d{2})\b(?![ T]\d)"):
        return f"{m.group(1)}T00:00:00", f"{m.group(1)}T23:59:59.999999", f"on {m.group(1)}"
    if q.take(r"\btoday\b|\bthis day\b"):
        return f"{day}T00:00:00", "now", f"today (from {day}T00:00:00 to now)"
    if q.take(r"\byesterday\b"):
        before = (datetime.fromisoformat(day) - timedelta(days=1)).date().isoformat()
        return f"{before}T00:00:00", f"{before}T23:59:59.999999", f"yesterday ({before})"
    for m in q.take(r"\b(?:between|from)\s+" + TIME + r"\s+(?:and|to|until|till|-)\s+" + TIME,
                    accept=lambda m: bool(_clock(m.group(1), day) and _clock(m.group(2), day))):
        since, until = _clock(m.group(1), day), _clock(m.group(2), day)
        if since and until:
            return since, until, f"from {since} to {until}"
    for m in q.take(r"\b(since|after|before|until)\s+" + TIME, accept=lambda m: bool(_clock(m.group(2), day))):
        at = _clock(m.group(2), day)
        if at is None:
            continue
        if m.group(1).lower() in ("since", "after"):
            return at, "now", f"from {at} to now"
        return "1970-01-01T00:00:00", at, f"up to {at}"
    return None


def _word_pattern(value: str) -> str:
    return r"(?<![\w.-])" + re.escape(value) + r"(?![\w-])"


def _aliases(value: str) -> list[str]:
    """How a question may name `value`: as written, by its first or last dotted part (`api.payments` ->
    `payments`, `web01.example.com` -> `web01`) or by the name before a qualifier (`sshd(pam_unix)` -> `sshd`)."""
    parts = re.split(r"[./]", value)
    shorter = [parts[0], parts[-1], re.split(r"[(\[@$:]", value)[0]]
    return [value] + [a for a in dict.fromkeys(shorter) if a != value and len(a) > 3 and not _generic(a)]


def _generic(word: str) -> bool:
    """A word of questions ("users", "errors") rather than a name."""
    return word.lower() in FILLER or any(re.fullmatch(p, word, re.I) for _, p in TARGETS) or any(
        re.fullmatch(p, word, re.I) for p, _ in SEVERITY_WORDS)


def known(q: Question, values: list[str], skip: set[str]) -> list[str]:
    """Values from the data that the question names, as whole tokens in any case (see `_aliases`)."""
    text = q.text.lower()
    by_alias: dict[str, list[str]] = {}
    for value in values:
        if value.lower() in skip or len(value) < 2:
            continue
        for alias in _aliases(value):
            if alias.lower() in text:
                by_alias.setdefault(alias.lower(), []).append(value)
    named: list[str] = []
    for alias in sorted(by_alias, key=len, reverse=True):
        if q.take(HOST_WORD + _word_pattern(alias)):
            named += [v for v in by_alias[alias] if v not in named]
    return named
