"""Reading a question: spans consumed by rules, time windows, and names that occur in the data."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pandas as pd

from react_engine.lexicon.entity_words import HOST_WORD, TARGETS
from react_engine.lexicon.number_words import AMOUNT, NUMBER_WORDS
from react_engine.lexicon.severity_terms import SEVERITY_WORDS
from react_engine.lexicon.stop_words import FILLER
from react_engine.lexicon.time_units import CLOCK_WORDS, TIME, UNIT, UNITS
from react_engine.question import dates
from react_engine.question.vocabulary import Vocabulary


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

    def leftover(self) -> list[re.Match[str]]:
        """Content words no rule explained (not consumed and not filler)."""
        rest = "".join(" " if u else c for c, u in zip(self.text, self.used))
        words = re.finditer(r"[A-Za-z0-9][\w.'/:-]*", rest)
        return [m for m in words if m.group(0).lower().strip("'.-:") not in FILLER
                and (len(m.group(0)) > 1 or m.group(0).isdigit())]

    def consume(self, start: int, end: int, used: bool = True) -> None:
        """Mark a span as explained (or, with `used=False`, as not explained after all)."""
        self.used[start:end] = [used] * (end - start)


def logs_itself(q: Question, m: re.Match[str]) -> bool:
    """Whether the word `m` is what writes the log ("how many warnings did the phone log", "what the server
    reported"): no rule read it as a host or component, so it names the logging system itself, not a search."""
    return re.search(r"\b(?:the|this|that|my|our|your|its)\s+$", q.text[:m.start()], re.I) is not None and \
        re.match(r"\s+(?:log|logs|logged|write|writes|wrote|written|report|reports|reported|record|records|recorded"
                 r"|emit|emits|emitted|print|prints|printed)\b", q.text[m.end():], re.I) is not None


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
    if t in CLOCK_WORDS:
        return f"{day}T{CLOCK_WORDS[t]}"
    return _clock_time(t, day)


def _clock_time(t: str, day: str) -> str | None:
    """`08:00`, `8am`, `2:30 pm` -> ISO text on `day`; None for no time of day."""
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(am|pm)?", t)
    if not m or (m.group(2) is None and m.group(4) is None):
        return None
    hour = _hour(int(m.group(1)), m.group(4))
    if hour > 23 or int(m.group(2) or 0) > 59:
        return None
    return f"{day}T{hour:02d}:{int(m.group(2) or 0):02d}:{int(m.group(3) or 0):02d}"


def _hour(written: int, half: str | None) -> int:
    """The hour of the day a clock writes as `written`, in the half of the day `half` (am, pm) names if any."""
    if half is None:
        return written
    return written % 12 + (12 if half == "pm" else 0)


def _unit(word: str) -> str:
    """`hours` -> `h`, `mins` -> `m`, `s` -> `s`: the unit letters relative times use."""
    key = word.lower()
    return UNITS[key.rstrip("s") if len(key) > 1 else key]


def time_window(q: Question, now: str | None, vocabulary: Vocabulary) -> tuple[str, str, str] | None:
    """(start, end, words) for the time window the question names, or None."""
    if (relative := _relative_window(q, vocabulary)) is not None:
        return relative
    if now is None:
        return None
    return _dated_window(q, now, vocabulary)


def _relative_window(q: Question, vocabulary: Vocabulary) -> tuple[str, str, str] | None:
    """A window at the log's start or end ("the first 5 minutes of the log"), or back from now ("the last hour",
    "2 days ago")."""
    unit = r"(?:the\s+)?(first|last|final|opening|closing)\s+" + AMOUNT + r"?\s*" + UNIT + r"\s+(?:of|in)\s+(?:the\s+)?" \
        r"(?:logs?|files?|data|capture|trace|recording)\b"
    for m in q.take(unit) or q.take(r"\b(?:in|within|during|over)\s+(?:the\s+)?(first|opening)\s+" + AMOUNT
                                    + r"?\s*" + UNIT + r"\b"):  # "errors in the first 5 minutes": of the log
        return _edge(m, vocabulary)
    for m in [] if q.has(_BOTH_HALVES) else q.take(_HALF):  # both halves: a comparison, each side read alone
        return _half(m.group(1).lower(), vocabulary)
    for m in q.take(r"\b(?:in |within |during |over |for )?(?:the )?(?:last|past|previous|recent)\s+"
                    + AMOUNT + r"?\s*" + UNIT + r"\b") + q.take(r"\b" + AMOUNT + r"\s*" + UNIT + r"\s+ago\b"):
        start = f"now-{amount(m.group(1))}{_unit(m.group(2))}"
        return start, "now", f"from {start} to now"
    return None


_ISO_DAY = r"\b(?:on\s+)?(\d{4}-\d{2}-\d{2})\b(?![ T]\d)"


def _dated_window(q: Question, now: str, vocabulary: Vocabulary) -> tuple[str, str, str] | None:
    """A window on a date or between clock times the question writes, or one named relative to `now` ("today")."""
    span = _written_date(q, vocabulary)
    iso = None if span else re.search(_ISO_DAY, q.text)  # "on 2015-07-29 around 17:41, ... between 17:30 and 18:00"
    day = span.start.date().isoformat() if span else iso.group(1) if iso else now[:10]
    if (clocks := _clock_window(q, day)) is not None:
        if span or iso:  # "... on Dec 5, how many between 14:00 and 15:00 that day": the day written
            q.take(_ISO_DAY + r"|\b(?:that|the same)\s+day\b")
        if span and clocks[1] == "now":  # "after 8pm on Dec 5" ends with that day
            return clocks[0], dates.end_of(span), clocks[2].replace("to now", f"to {dates.end_of(span)}")
        return clocks if span or iso else _on_a_logged_day(clocks, vocabulary)
    if span is not None:
        return dates.iso(span.start), dates.end_of(span), span.words()
    for m in q.take(r"\b(?:on|during|for)\s+(\d{4}-\d{2}-\d{2})\b(?![ T]\d)"):  # a day alone
        return f"{m.group(1)}T00:00:00", f"{m.group(1)}T23:59:59.999999", f"on {m.group(1)}"
    return _current(q, now, day)


def _current(q: Question, now: str, day: str) -> tuple[str, str, str] | None:
    """"this hour", "this minute" and "today" (from their start to now), "yesterday" (the day before `day`)."""
    if this := q.take(r"\bthis\s+(hour|minute)\b"):
        unit = this[0].group(1).lower()
        start = _stamp(pd.Timestamp(now).floor("h" if unit == "hour" else "min"))
        return start, "now", f"this {unit} (from {start} to now)"
    if q.take(r"\btoday\b|\bthis day\b"):
        return f"{day}T00:00:00", "now", f"today (from {day}T00:00:00 to now)"
    if q.take(r"\byesterday\b"):
        before = (datetime.fromisoformat(day) - timedelta(days=1)).date().isoformat()
        return f"{before}T00:00:00", f"{before}T23:59:59.999999", f"yesterday ({before})"
    return None


def _edge(m: re.Match[str], vocabulary: Vocabulary) -> tuple[str, str, str] | None:
    """"the first hour of the log", "the last 10 minutes of the file": measured from the log's own ends."""
    if vocabulary.first is None or vocabulary.last is None:
        return None
    length = pd.Timedelta(amount(m.group(2)), unit=_unit(m.group(3)))
    words = f"the {m.group(1).lower()} {m.group(2) + ' ' if m.group(2) else ''}{m.group(3).lower()} of the log"
    if m.group(1).lower() in ("first", "opening"):
        start, end = vocabulary.first, vocabulary.first + length - pd.Timedelta(microseconds=1)
    else:
        start, end = vocabulary.last - length, vocabulary.last
    return _stamp(start), _stamp(end), f"in {words} (from {_stamp(start)} to {_stamp(end)})"


_HALF = (r"\b(?:(?:in|during|over)\s+)?(?:the\s+)?(first|second|last|latter|earlier|later)\s+half\b(?:\s+of\s+(?:the\s+)?"
         r"(?:log'?s?|file'?s?)?\s*(?:time\s*(?:span|range)?(?:\s+(?:that\s+)?the\s+log\s+covers)?)?)?")
"""A half of the time the log covers: "the first half of the log's time span", "the second half"."""
_BOTH_HALVES = r"\b(?:first|earlier)\b.*\b(?:second|latter|later|last)\b|\b(?:second|latter|later)\b.*\bfirst\b"


def _half(which: str, vocabulary: Vocabulary) -> tuple[str, str, str] | None:
    """The first or the second half of the time from the log's first line to its last."""
    if vocabulary.first is None or vocabulary.last is None:
        return None
    middle = vocabulary.first + (vocabulary.last - vocabulary.first) / 2
    first = which in ("first", "earlier")
    start, end = (vocabulary.first, middle - pd.Timedelta(microseconds=1)) if first else (middle, vocabulary.last)
    name = "first" if first else "second"
    return _stamp(start), _stamp(end), f"in the {name} half of the log (from {_stamp(start)} to {_stamp(end)})"


def _stamp(ts: pd.Timestamp) -> str:
    stamp = pd.Timestamp(ts)
    stamp = stamp.tz_convert("UTC").tz_localize(None) if stamp.tzinfo else stamp
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.%f")


def _written_date(q: Question, vocabulary: Vocabulary) -> dates.DaySpan | None:
    """The first date written in words, if any (the words become consumed)."""
    def read(m: re.Match[str], kind: str) -> dates.DaySpan | None:
        return dates.read(m.groups(), kind, vocabulary.first, vocabulary.last)

    for pattern, kind in dates.DATE_PATTERNS:
        for m in q.take(pattern, accept=lambda m: read(m, kind) is not None):  # noqa: B023 - used at once
            return read(m, kind)
    return None


def _clock_window(q: Question, day: str) -> tuple[str, str, str] | None:
    """Clock-time windows on `day`: "between 19:00 and 21:00" (an end without a date takes the start's),
    "since 8am", "before noon", "around 09:30" (5 minutes either side unless "within N minutes of")."""
    def between(m: re.Match[str]) -> tuple[str, str] | None:
        first, second = _hours(m.group(1), m.group(2)), _hours(m.group(2), m.group(1))
        start, end = _clock(first, day), _clock(second, _date_of(m.group(1), day))
        return (start, end) if start and end else None

    for m in q.take(r"\b(?:between|from)\s+" + TIME + r"\s+(?:and|to|until|till|-)\s+" + TIME,
                    accept=lambda m: between(m) is not None):
        if (found := between(m)) is not None:
            return found[0], found[1], f"from {found[0]} to {found[1]}"
    for m in q.take(r"\b(?:(?:at\s+)?around|about|approximately|roughly|near|circa|~)\s*(?:at\s+)?" + TIME
                    + r"|\bwithin\s+" + AMOUNT + r"\s*" + UNIT + r"\s+of\s+" + TIME,
                    accept=lambda m: bool(_clock(m.group(1) or m.group(4), day))):
        at = pd.Timestamp(_clock(m.group(1) or m.group(4), day))
        margin = pd.Timedelta(amount(m.group(2)), unit=_unit(m.group(3))) if m.group(4) \
            else pd.Timedelta(minutes=5)
        start, end = (at - margin).isoformat(), (at + margin).isoformat()
        return start, end, f"around {at.isoformat()} (from {start} to {end})"
    for m in q.take(r"\b(since|after|before|until)\s+" + TIME, accept=lambda m: bool(_clock(m.group(2), day))):
        at = _clock(m.group(2), day) or ""
        if m.group(1).lower() in ("since", "after"):
            return at, "now", f"from {at} to now"
        return "1970-01-01T00:00:00", at, f"up to {at}"
    return None


def _hours(text: str, other: str) -> str:
    """A bare hour at one end of a range ("between 8 and 12", "between 9 and 10am") as a clock time, with the
    other end's am/pm when it has one."""
    if not re.fullmatch(r"\s*\d{1,2}\s*", text):
        return text
    suffix = re.search(r"(am|pm)\s*$", other.strip(), re.I)
    return f"{text.strip()}:00" + (suffix.group(1) if suffix else "")


def _on_a_logged_day(window: tuple[str, str, str], vocabulary: Vocabulary) -> tuple[str, str, str]:
    """A clock-time window placed on the anchor's day, moved back a day at a time (at most a week) until it falls
    inside the log ("between 22:30 and 23:00" in a log that ends at 01:02 the next day)."""
    start, end, words = window
    if vocabulary.first is None or vocabulary.last is None or end == "now" or start.startswith("1970"):
        return window
    moved = _first_logged(_days_back(start, end), (vocabulary.first, vocabulary.last))
    if moved is None or moved[0] == pd.Timestamp(start):
        return window
    shown = [t.isoformat() for t in moved]
    return shown[0], shown[1], words.replace(start, shown[0]).replace(end, shown[1])


def _first_logged(windows: Iterator[list[pd.Timestamp]], log: tuple[pd.Timestamp, pd.Timestamp]) -> list[pd.Timestamp] | None:
    """The first of `windows` that overlaps the log's first and last times (`log`), or None."""
    first, last = (pd.Timestamp(_stamp(t)) for t in log)
    return next((w for w in windows if w[0] <= last and w[1] >= first), None)


def _days_back(start: str, end: str) -> Iterator[list[pd.Timestamp]]:
    """The window from `start` to `end`, then moved back a day at a time, for a week."""
    for back in range(8):
        yield [pd.Timestamp(t) - pd.Timedelta(days=back) for t in (start, end)]


def _date_of(text: str, day: str) -> str:
    """The date written in `text` (an ISO date or date-time), else `day`."""
    m = re.match(r"\s*(\d{4}-\d{2}-\d{2})", text)
    return m.group(1) if m else day


def _word_pattern(value: str) -> str:
    return r"(?<![\w.-])" + re.escape(value) + r"(?![\w-])"


def _aliases(value: str) -> list[tuple[str, bool]]:
    """How a question may name `value`, each with whether it names `value` alone: as written, by the name before
    a qualifier (`sshd(pam_unix)` -> `sshd`), or by its first or last dotted part (`api.payments` -> `payments`,
    `web01.example.com` -> `web01`), which may be shared with other values."""
    parts = re.split(r"[./]", value)
    qualified = re.split(r"[(\[@$:]", value)[0]
    found = [(value, True), (qualified, True)] + [(a, False) for a in (parts[0], parts[-1])]
    seen: dict[str, bool] = {}
    for alias, own in found:
        if alias and alias not in seen and (alias == value or (len(alias) > (1 if own else 3) and not _generic(alias))):
            seen[alias] = own
    return list(seen.items())


def _generic(word: str) -> bool:
    """A word of questions ("users", "errors") rather than a name."""
    return word.lower() in FILLER or any(re.fullmatch(p, word, re.I) for _, p in TARGETS) or any(
        re.fullmatch(p, word, re.I) for p, _ in SEVERITY_WORDS)


def _by_alias(text: str, values: list[str]) -> dict[str, list[tuple[str, bool]]]:
    """The values each alias found in `text` may name, each with whether the alias names it alone."""
    by_alias: dict[str, list[tuple[str, bool]]] = {}
    for value in values:
        for alias, own in _aliases(value):
            if alias.lower() in text:
                by_alias.setdefault(alias.lower(), []).append((value, own))
    return by_alias


def known(q: Question, values: list[str], skip: set[str], generic: frozenset[str] | set[str] = frozenset(),
          after: str = "", as_written: frozenset[str] = frozenset(), kind: str = "") -> list[str]:
    """Values from the data that the question names, as whole tokens in any case (see `_aliases`), except those in
    `skip`. A dotted part shared by several values ("spark" in `spark.SecurityManager` and `spark.CacheManager`)
    names none of them, and a value that is also a word of questions ("node", or one in `generic`) counts only
    after "from" or "by", before the noun of its kind (`kind`, a pattern: "the 'node' component"), or written as
    the log writes it when it is one of `as_written` ("APP lines" in BGL). `after` is a pattern the name must be
    followed by."""
    by_alias = _by_alias(q.text.lower(), [v for v in values if v.lower() not in skip and len(v) >= 2])
    named: list[str] = []
    for alias in sorted(by_alias, key=len, reverse=True):
        picked = _picked(by_alias[alias])
        if picked and _names(q, alias, _generic(alias) or alias in generic, after, as_written.intersection(picked),
                             kind):
            named += [v for v in picked if v not in named]
    return named


def _picked(owners: list[tuple[str, bool]]) -> list[str]:
    """The values an alias names: those it names alone, else its one value (none when several share it)."""
    return [v for v, own in owners if own] or ([owners[0][0]] if len(owners) == 1 else [])


def _names(q: Question, alias: str, generic_word: bool, after: str, written: frozenset[str], kind: str) -> bool:
    """Whether the question names `alias` (read): a generic word only after "from"/"by", before the noun of its
    `kind` (quoted or not), or as the log writes one of `written`."""
    lead = r"\b(?:from|by)\s+(?:the\s+)?" if generic_word else HOST_WORD
    if q.take(lead + _word_pattern(alias) + after):
        return True
    return generic_word and (bool(kind and q.take(r"(?<![\w.-])(['\"]?)" + re.escape(alias) + r"\1\s+(?:" + kind + ")"))
                             or any(q.take(r"\b" + re.escape(v) + r"\b" + after, 0) for v in written))


_ONLY_ASKING = r"\W*(?:(?:what|which|when|how|many|often|time|date|day|hour|count|number|is|was|it|that|the|of)\W+)*" \
               r"(?:what|which|when|how|many|often|time|date|day|hour|count|number|is|was|it|that|the|of)?\W*"


def lead_in(text: str) -> int:
    """Where the question proper starts after a lead-in ("I'm triaging a job: how many ...", "Our provider had an
    incident. Can you find out how many ..."): after the last sentence break before the asking words, else 0."""
    asking = re.search(r"\b(?:how many|how often|which|what|who|count|list|show|top|give me|tell me|find|compare|"
                       r"are there|is there|were there|number of)\b", text, re.I)
    if asking is None:
        return 0
    breaks = [m.end() for m in re.finditer(r"[.;:!?](?=\s)|\s-\s|,\s+(?=(?:so\s+|and\s+|then\s+)?(?:can|could|"
                                           r"would|please|how|which|what|who|count|list|show|tell|find|compare)\b)"
                                           r"|\s(?:and|so)\s+(?=i(?:'d|'m| would| am)?\s+(?:like|want|need|wish)\b)",
                                           text, re.I) if m.end() <= asking.start()]
    if breaks and re.fullmatch(_ONLY_ASKING, text[breaks[-1]:], re.I):
        return 0  # "last thermal pressure lines - what time?": the words before the break are what is asked about
    return breaks[-1] if breaks else 0
