"""Analytics questions written mechanically from the loghub structured CSVs, in the logs' own words, and the rules
planner's score on them per system and per shape.

Events are named as `loghub_questions.py` names them (constant words of a message template, kept only when a plain
search of those words over the raw lines finds the same lines), and fields by the word printed before a template
parameter. Columns are the CSV's own (Level, Component, Node, Pid, Program), times its date and time columns (the
year the run is given, 2026, where the log writes none; no time questions where a year-less log goes back by more
than a day, as Proxifier's two captures). Truths are computed with pandas. Eight shapes:

    share       What percentage of lines are <event>? / What share of <event> came from <value>?
    span        How long between the first and last <event>?
    first_last  When did <event> first happen? / When did <event> last happen?
    breakdown   How many <event> per <column>? / <event> by <column>   (the top entry and its count)
    compare     Were there more <event A> or <event B>? / How many more <event A> than <event B>?
    listing     Which <column>s had <event>? / List the distinct <field> when <event>   (the set)
    per_hour    Which hour had the most <event>? / How many <event> per hour on average?
    level       How many warnings? / How many errors? / How many <LEVEL> lines? / What percentage of lines are
                warnings?   (only where the CSV's Level column holds severities; errors are error or worse)

Scoring as in `loghub_questions.py`: right, honest (partial or refused, no wrong value verified), wrong ✓ (a wrong
value marked verified), wrong.

Run: python scripts/loghub_analytics.py [--logs ../shared/real_logs] [--per-shape 5] [--show wrong] [--list]

Measured with the rules planner (rebased on main at c874cbd): 459 right, 52 honest, 4 wrong but verified, 0 wrong of
515; the tables per system and shape are in README, "Questions in the logs' own words".
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from loghub_questions import (
    NUMBER,
    Event,
    Generator,
    Question,
    _entity,
    _named,
    _restates,
    _token_in,
    _values,
    _with_value,
    events,
    structured,
    templates,
)

SHAPES = ("share", "span", "first_last", "breakdown", "compare", "listing", "per_hour", "level")
YEAR = 2026  # the year the run is given, for logs that write none
# how each system writes a line's time: the CSV columns joined by a space, and their strptime format
TIMES = {
    "Android": (("Date", "Time"), "%m-%d %H:%M:%S.%f"),
    "Apache": (("Time",), "%a %b %d %H:%M:%S %Y"),
    "BGL": (("Time",), "%Y-%m-%d-%H.%M.%S.%f"),
    "HDFS": (("Date", "Time"), "%y%m%d %H%M%S"),
    "HPC": (("Time",), "epoch"),
    "Hadoop": (("Date", "Time"), "%Y-%m-%d %H:%M:%S,%f"),
    "HealthApp": (("Time",), "%Y%m%d-%H:%M:%S:%f"),  # milliseconds written without their leading zeros
    "Linux": (("Month", "Date", "Time"), "%b %d %H:%M:%S"),
    "Mac": (("Month", "Date", "Time"), "%b %d %H:%M:%S"),
    "OpenSSH": (("Date", "Day", "Time"), "%b %d %H:%M:%S"),
    "OpenStack": (("Date", "Time"), "%Y-%m-%d %H:%M:%S.%f"),
    "Proxifier": (("Time",), "%m.%d %H:%M:%S"),
    "Spark": (("Date", "Time"), "%y/%m/%d %H:%M:%S"),
    "Thunderbird": (("Date", "Time"), "%Y.%m.%d %H:%M:%S"),
    "Windows": (("Date", "Time"), "%Y-%m-%d %H:%M:%S"),
    "Zookeeper": (("Date", "Time"), "%Y-%m-%d %H:%M:%S,%f"),
}
COLUMNS = {"Level": "level", "Component": "component", "Node": "node", "Pid": "pid", "PID": "pid",
           "Program": "program"}
# the CSVs' level values by severity
SEVERITY = {"v": "debug", "d": "debug", "i": "info", "info": "info", "notice": "info", "w": "warning",
            "warn": "warning", "warning": "warning", "e": "error", "error": "error", "severe": "error",
            "f": "fatal", "fatal": "fatal"}
ERROR_OR_WORSE = frozenset({"error", "fatal"})
# the words the questions are framed in: an event named by one of them ("first", "more") would read two ways
FRAME = frozenset(("what", "percentage", "lines", "share", "came", "from", "long", "between", "first", "last", "when",
                   "happen", "many", "per", "more", "than", "which", "list", "distinct", "hour", "most", "average"))


@dataclass
class Log:
    """One system's lines: the CSV, its events (none named by a word the questions are framed in), each line's time
    (None where the lines cannot be placed in time) and severity (None where the CSV has no levels), and the columns
    a question may name (word -> CSV column)."""

    name: str
    frame: pd.DataFrame
    events: list[Event]
    times: pd.Series | None
    severity: pd.Series | None
    columns: dict[str, str]

    def lines(self, event: Event) -> pd.Index:
        """The CSV rows of the event's lines."""
        return pd.Index([i for t in event.templates for i in t.rows.index])


# --- truths: each says whether an answer's value is it ---------------------------------------------------------------

def _number(value: Any) -> float | None:
    """A number an answer gives (alone or as a dict's one value), or a number written as text."""
    if isinstance(value, str):
        return float(value) if NUMBER.fullmatch(value.strip()) else None
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dict) and len(value) == 1:
        return _number(next(iter(value.values())))
    return None


def _moment(value: Any) -> pd.Timestamp | None:
    if isinstance(value, dict):
        value = value.get("time", value.get("start"))
    if isinstance(value, list) and value:
        value = value[0][0] if isinstance(value[0], (list, tuple)) else value[0]
    try:
        stamp = pd.Timestamp(str(value))
    except ValueError:
        return None
    return stamp.tz_convert(None) if stamp.tzinfo else stamp


def _pairs(value: Any) -> list[tuple[str, Any]]:
    """An answer's (name, count) items: `[[v, n], ...]`, `{v: n}`, `[v, ...]` or `v`."""
    if isinstance(value, dict):
        return [(str(k), v) for k, v in value.items()]
    items = value if isinstance(value, list) else [] if value is None else [value]
    return [(str(i[0]), i[1] if len(i) > 1 else None) if isinstance(i, (list, tuple)) and i else (str(i), None)
            for i in items]


@dataclass(frozen=True)
class Amount:
    """A number: within `within` of it."""

    value: float
    within: float = 1e-6

    def matches(self, value: Any) -> bool:
        got = _number(value)
        return got is not None and abs(got - self.value) <= max(self.within, abs(self.value) * 1e-6)

    def __repr__(self) -> str:
        return f"{self.value:g}"


@dataclass(frozen=True)
class Moment:
    """A time: to the millisecond."""

    value: pd.Timestamp

    def matches(self, value: Any) -> bool:
        got = _moment(value)
        return got is not None and abs((got - self.value).total_seconds()) < 1e-3

    def __repr__(self) -> str:
        return self.value.isoformat()


@dataclass(frozen=True)
class Top:
    """The first entry of a breakdown and its count (`names`: the entry's spellings)."""

    names: frozenset[str]
    count: int

    def matches(self, value: Any) -> bool:
        pairs = _pairs(value)
        return bool(pairs) and pairs[0][0].casefold() in self.names and _number(pairs[0][1]) == self.count

    def __repr__(self) -> str:
        return f"{'/'.join(sorted(self.names))} ({self.count})"


@dataclass(frozen=True)
class Names:
    """A set of values, in any order (a value with its port or unit for one without)."""

    values: frozenset[str]

    def matches(self, value: Any) -> bool:
        names = {name.casefold() for name, _ in _pairs(value)}
        return len(names) == len(self.values) and all(n in self.values or any(_restates(n, v) for v in self.values)
                                                      for n in names)

    def __repr__(self) -> str:
        return repr(sorted(self.values))


@dataclass(frozen=True)
class Larger:
    """Which of two events has more lines: the larger one named, or both counts in the order asked."""

    phrase: str
    counts: tuple[int, int]

    def matches(self, value: Any) -> bool:
        if isinstance(value, str):
            return value.casefold() == self.phrase
        return isinstance(value, list) and [_number(v) for v in value] == list(self.counts)

    def __repr__(self) -> str:
        return f"{self.phrase} {self.counts}"


# --- the shapes -------------------------------------------------------------------------------------------------------

def _asked(shape: str, text: str, truth: Any) -> Question:
    return Question("", shape, text, truth)


def _percent(part: int, whole: int) -> Amount:
    return Amount(100 * part / whole, 0.05)  # answers round a share to a tenth of a point or finer


def _sources(log: Log, event: Event) -> list[tuple[str, int]]:
    """Values the event's lines come from, with how many of its lines hold each: a value of a column or a parameter
    whose token search over the event's lines finds exactly the lines that hold it."""
    rows = log.frame.loc[log.lines(event)]
    found = []
    for column in (c for c in log.columns.values() if c != "Level"):
        for value, count in rows[column].value_counts().items():
            if _entity(str(value)) and int(rows["Raw"].map(lambda c, v=str(value): _token_in(c, v)).sum()) == count:
                found.append((str(value), int(count)))
    for value in sorted(set(_values(event)["value"])):
        if _entity(value) and _number(value) is None and (holds := _with_value(event, value)).any():
            found.append((value, int(holds.sum())))
    return [(v, n) for v, n in dict(found).items() if 0 < n < len(rows)]


def _share(log: Log, event: Event, rng: random.Random) -> Question | None:
    total = len(log.lines(event))
    if rng.random() < 0.5:
        return _asked("share", f"What percentage of lines are {event.phrase}?", _percent(total, len(log.frame)))
    if not (sources := _sources(log, event)):
        return None
    value, count = rng.choice(sorted(sources))
    return _asked("share", f"What share of {event.phrase} came from {value}?", _percent(count, total))


def _times(log: Log, event: Event) -> pd.Series | None:
    return None if log.times is None else log.times.loc[log.lines(event)]


def _span(log: Log, event: Event, rng: random.Random) -> Question | None:
    if (times := _times(log, event)) is None or times.min() == times.max():
        return None
    seconds = (times.max() - times.min()).total_seconds()
    return _asked("span", f"How long between the first and last {event.phrase}?", Amount(seconds, 1.0))


def _first_last(log: Log, event: Event, rng: random.Random) -> Question | None:
    if (times := _times(log, event)) is None:
        return None
    which = rng.choice(("first", "last"))
    return _asked("first_last", f"When did {event.phrase} {which} happen?",
                  Moment(times.min() if which == "first" else times.max()))


def _spellings(log: Log, column: str, value: str) -> frozenset[str]:
    """A column value as the CSV writes it, and for a level its severity too."""
    names = {value.casefold()}
    if column == "Level" and log.severity is not None:
        names.add(SEVERITY[value.casefold()])
    return frozenset(names)


def _breakdown(log: Log, event: Event, rng: random.Random) -> Question | None:
    word = rng.choice(sorted(log.columns))
    column = log.columns[word]
    counts = log.frame.loc[log.lines(event), column].replace("", None).value_counts()
    if len(counts) < 2 or counts.iloc[0] == counts.iloc[1] or not all(_entity(str(v)) for v in counts.index):
        return None
    text = rng.choice((f"How many {event.phrase} per {word}?", f"{event.phrase} by {word}"))
    return _asked("breakdown", text, Top(_spellings(log, column, str(counts.index[0])), int(counts.iloc[0])))


def _compare(log: Log, event: Event, rng: random.Random) -> Question | None:
    lines = log.lines(event)
    others = [e for e in log.events if e is not event and not lines.intersection(log.lines(e)).size
              and len(log.lines(e)) != len(lines) and not {*e.phrase.split()} & {*event.phrase.split()}]
    if not others:
        return None
    other = rng.choice(others)
    counts = (len(lines), len(log.lines(other)))
    if rng.random() < 0.5:
        larger = event.phrase if counts[0] > counts[1] else other.phrase
        return _asked("compare", f"Were there more {event.phrase} or {other.phrase}?", Larger(larger, counts))
    big, small = (event, other) if counts[0] > counts[1] else (other, event)
    return _asked("compare", f"How many more {big.phrase} than {small.phrase}?", Amount(abs(counts[0] - counts[1])))


def _listing(log: Log, event: Event, rng: random.Random) -> Question | None:
    if rng.random() < 0.5:
        word = rng.choice(sorted(log.columns))
        values = {str(v) for v in log.frame.loc[log.lines(event), log.columns[word]] if v}
        text = f"Which {word}s had {event.phrase}?"
    else:
        if not (named := _named(event)):
            return None
        word = rng.choice(named)
        values = {str(v).strip() for t in event.templates for v in t.rows[f"p{t.names.index(word)}"]}
        text = f"List the distinct {word} when {event.phrase}"
    if not 2 <= len(values) <= 20 or not all(_entity(v) for v in values):
        return None
    return _asked("listing", text, Names(frozenset(v.casefold() for v in values)))


def _per_hour(log: Log, event: Event, rng: random.Random) -> Question | None:
    if (times := _times(log, event)) is None:
        return None
    hours = pd.Series(1, index=pd.DatetimeIndex(times.to_numpy())).resample("h").sum()
    if rng.random() < 0.5:
        return _asked("per_hour", f"How many {event.phrase} per hour on average?", Amount(hours.mean(), 5e-5))
    ranked = hours.sort_values(ascending=False, kind="stable")
    if len(ranked) < 2 or ranked.iloc[0] == ranked.iloc[1]:
        return None
    return _asked("per_hour", f"Which hour had the most {event.phrase}?", Moment(ranked.index[0]))


def _levels(log: Log) -> list[Question]:
    """Level questions: warnings, errors (error or worse), each level as written, and the share of warnings."""
    if log.severity is None:
        return []
    written = log.frame["Level"]
    asked = [_asked("level", "How many warnings?", Amount(int((log.severity == "warning").sum()))),
             _asked("level", "How many errors?", Amount(int(log.severity.isin(ERROR_OR_WORSE).sum()))),
             _asked("level", "What percentage of lines are warnings?",
                    _percent(int((log.severity == "warning").sum()), len(written)))]
    return asked + [_asked("level", f"How many {level} lines?", Amount(int((written == level).sum())))
                    for level in sorted(set(written)) if len(level) > 1]


MAKERS: dict[str, Callable[[Log, Event, random.Random], Question | None]] = {
    "share": _share, "span": _span, "first_last": _first_last, "breakdown": _breakdown, "compare": _compare,
    "listing": _listing, "per_hour": _per_hour}


# --- one system's questions -------------------------------------------------------------------------------------------

def _clock(frame: pd.DataFrame, system: str) -> pd.Series | None:
    """Each line's time from the CSV's date and time columns (in the year the run is given where the log writes
    none), or None where a year-less log goes back by more than a day (two captures, as Proxifier's, cannot be
    placed)."""
    if system not in TIMES:
        return None
    columns, form = TIMES[system]
    written = frame[list(columns)].agg(" ".join, axis=1)
    if form == "epoch":
        return pd.to_datetime(written.astype(int), unit="s")
    if form.endswith(":%f"):
        written = written.str.replace(r":(\d{1,3})$", lambda m: "." + m.group(1).zfill(3), regex=True)
        form = form[:-3] + ".%f"
    if "%y" in form.casefold():
        return pd.to_datetime(written, format=form)
    times = pd.to_datetime(f"{YEAR} " + written, format="%Y " + form)
    # a year-less log that goes back in time by more than a day may have turned a year
    return None if times.diff().min() < -pd.Timedelta(days=1) else times


def _written(frame: pd.DataFrame, column: str) -> bool:
    """Whether every line writes its value of `column` as a token of its own (Zookeeper's Component,
    `2181:FastLeaderElection` of `...2181:FastLeaderElection@774]`, is not one)."""
    def alone(line: str, value: str) -> bool:
        return re.search(rf"(?:^|[\s\[(|]){re.escape(value)}(?=$|[\s\[\]()|]|[:,;](?:\s|$))", line) is not None

    return all(not value or alone(line, value) for line, value in zip(frame["Raw"], frame[column]))


def load(logs: Path, system: str) -> Log:
    frame = structured(logs / system / f"{system}_2k.log_structured.csv")
    severity = None
    if "Level" in frame and frame["Level"].str.casefold().isin(SEVERITY.keys()).all():
        severity = frame["Level"].str.casefold().map(SEVERITY)
    columns = {word: name for name, word in COLUMNS.items() if name in frame and frame[name].nunique() > 1
               and (name != "Level" or severity is not None) and _written(frame, name)}
    named = [e for e in events(templates(frame), frame["Raw"]) if not FRAME & {*e.phrase.split()}]
    return Log(system, frame, named, _clock(frame, system), severity, columns)


def _candidates(log: Log, shape: str, rng: random.Random) -> Iterator[Question]:
    if shape == "level":
        found = _levels(log)
        rng.shuffle(found)
        yield from found
        return
    order = log.events[:]
    rng.shuffle(order)
    for event in order:
        if (made := MAKERS[shape](log, event, rng)) is not None:
            yield made


def questions(logs: Path, system: str, per_shape: int, seed: int = 33) -> list[Question]:
    """Up to `per_shape` questions of each shape for `system`, sampled with a seed of its own."""
    log = load(logs, system)
    asked: list[Question] = []
    for shape in SHAPES:
        picked: dict[str, Question] = {}
        for made in _candidates(log, shape, random.Random(f"{seed}/{system}/{shape}")):
            if len(picked) == per_shape:
                break
            made.system = system
            picked.setdefault(made.text, made)
        asked += picked.values()
    return asked


# --- asking and scoring -----------------------------------------------------------------------------------------------

def right(question: Question, result: Any) -> bool:
    return result.value is not None and question.truth.matches(result.value)


GENERATOR = Generator(questions, right, SHAPES, YEAR)


if __name__ == "__main__":
    sys.exit(GENERATOR.main(__doc__.splitlines()[0]))
