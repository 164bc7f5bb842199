"""Questions written mechanically from the loghub structured CSVs, in the logs' own words, and the rules planner's
score on them per system and per shape.

Every question is built from one system's `<System>_2k.log_structured.csv` alone: an *event* is named by constant
words of its message template ("failed password", "receiving block"), a *field* by the constant word printed before a
template parameter (`port <*>` is port, `src: /<*>` is src), a *value* is a parameter as the log writes it. Truths are
computed with pandas from EventTemplate and the parameters each Content line fills in (a template is a regex with
`<*>` as a group); an event's truth is kept only when a plain search of its words over Content finds the same lines, so
every question has one reading (the search runs over the raw lines, so a phrase a thread or component name also
writes, such as Hadoop's "IPC Server handler", is no event). Eleven shapes:

    count_from   How many <event words> from <value>?
    count        How many <event words>?
    statistic    What is the <min|max|sum|average> <field> for <value> when <event words>?
    field_of     What is the <field> of <value> that <event words>?
    count_in     How many <event words> in <field> <value>?
    most         Which <field> has the most <event words>?
    distinct     How many distinct <field> when <event words>?
    first_last   What is the <first|last> <field> when <event words>?
    fewest       Which <field> has the fewest <event words>?
    range        What are the min and max <field> when <event words>?
    distinct_per Which <field> has the most distinct <other field> when <event words>?

The last five ask of a field the way operators do; a first or last value is kept only when the event's lines are
in time order (their times, written alike, never go back) and its lines written at the first (last) time all write
the same value, a fewest only when one value is the rarest, and a distinct_per only when one value holds the most
distinct values of the other field (Splunk's `stats dc(other) by field`).

Sampling is seeded (`--per-shape` questions per shape and system). An answer is *right* when its value is the truth,
*honest* when it is partial or refused and gives no wrong value as verified, *wrong ✓* when a wrong value is marked
verified (the number that matters most), *wrong* when a wrong value is not marked verified.

Run: python scripts/loghub_questions.py [--logs ../shared/real_logs] [--per-shape 5] [--show wrong]

Measured with the rules planner: see README, "Questions in the logs' own words", for the tables per system and shape
before and after the question was linked to the log's words; last (rebased on main at c874cbd): 548 right, 42 honest,
1 wrong but verified, 1 wrong of 592.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import Any

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
# ../shared/real_logs next to the repository (or next to a folder holding it, as for a git worktree)
REAL = next((p / "shared" / "real_logs" for p in ROOT.parents if (p / "shared" / "real_logs").is_dir()),
            ROOT.parent / "shared" / "real_logs")
SHAPES = ("count_from", "count", "statistic", "field_of", "count_in", "most", "distinct", "first_last", "fewest", "range",
          "distinct_per")
FUNCTION = frozenset(["a", "an", "the", "for", "from", "to", "of", "by", "in", "at", "on", "with", "and", "or", "is", "are", "was", "be", "as", "into", "via", "not", "no"])
WORD = re.compile(r"[A-Za-z][A-Za-z]+")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
STATS = ("min", "max", "sum", "average")
ASKING = frozenset(["when", "what", "which", "where", "who", "how", "than"])  # no field name for a question asking it
# words questions say of any line or of a measure ("between the first and last times", "the boot of 142 that
# total"), which name no event of their own
NOT_EVENTS = frozenset(["times", "lines", "entries", "events", "messages", "records", "occurrences", "total", "count",
                        "number", "amount", "average", "maximum", "minimum"])
# units of measure: "how many bytes ..." asks how many bytes, not how many lines, so no count is asked of such an event
MEASURED = frozenset(["byte", "bytes", "kb", "mb", "gb", "ms", "msec", "sec", "secs", "second", "seconds", "minutes"])
MOMENT = ("Timestamp", "Date", "Month", "Day", "Time")  # the columns of a line's time, as the systems write it


@dataclass
class Template:
    """One message template: its constant text pieces, the field name before each parameter, and its rows."""

    event_id: str
    text: str
    rows: pd.DataFrame  # the Content rows, with a column per parameter p0, p1, ...
    names: list[str | None]  # the field name printed before each parameter (None when none is)

    @property
    def constant(self) -> str:
        return self.text.replace("<*>", " ")


@dataclass
class Event:
    """The templates whose constant words hold `phrase`, and their rows."""

    phrase: str
    templates: list[Template]

    def rows(self) -> pd.DataFrame:
        return pd.concat([t.rows for t in self.templates], ignore_index=True)


@dataclass
class Question:
    system: str
    shape: str
    text: str
    truth: Any
    parts: dict[str, str] = field(default_factory=dict)  # the words filled into the shape's template
    form: str = "template"  # which wording of the shape the text is


# each shape's one wording; `parts` fill it (event words, field, other field, value, statistic, first or last)
TEMPLATES = {
    "count_from": "How many {event} from {value}?",
    "count": "How many {event}?",
    "statistic": "What is the {op} {field} for {value} when {event}?",
    "field_of": "What is the {field} of {value} that {event}?",
    "count_in": "How many {event} in {field} {value}?",
    "most": "Which {field} has the most {event}?",
    "distinct": "How many distinct {field} when {event}?",
    "first_last": "What is the {which} {field} when {event}?",
    "fewest": "Which {field} has the fewest {event}?",
    "range": "What are the min and max {field} when {event}?",
    "distinct_per": "Which {field} has the most distinct {other} when {event}?",
}


def _ask(shape: str, truth: Any, **parts: str) -> Question:
    """A question of `shape` in its template's wording, keeping the parts it was filled with."""
    return Question("", shape, TEMPLATES[shape].format(**parts), truth, parts)


@dataclass
class Score:
    right: int = 0
    honest: int = 0
    wrong_verified: int = 0
    wrong: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        self.right += other.right
        self.honest += other.honest
        self.wrong_verified += other.wrong_verified
        self.wrong += other.wrong

    @property
    def total(self) -> int:
        return self.right + self.honest + self.wrong_verified + self.wrong


def _field_name(before: str) -> str | None:
    """The word printed before a parameter (`port `, `src: /`, `size=`), or None when the parameter runs on from a
    word (`blk_<*>`) or no word is there."""
    match = re.search(r"([A-Za-z][A-Za-z_]*)([\s:=#/\[(]+)$", before)
    if not match:
        return None
    name = match.group(1).lower()
    return None if name in FUNCTION or len(name) < 2 else name


def _apart(before: str, after: str) -> bool:
    """Whether a parameter is a token of its own: no letter or digit of the template touches it, and the value
    does not run on after it into a path or an address (`<*>/blk_<*>`, `<*>@<*>`)."""
    return not re.search(r"[A-Za-z0-9_]$", before) and not re.match(r"[A-Za-z0-9_/@]", after)


def _regex(template: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in template.split("<*>")]
    return re.compile("(.*?)".join(parts), re.DOTALL)


def structured(csv: Path) -> pd.DataFrame:
    """The structured CSV with each line as the log writes it (`Raw`: with its time, level, component and thread,
    which a search of the log sees too)."""
    frame = pd.read_csv(csv, dtype=str, keep_default_na=False)
    raw = csv.with_name(csv.name.removesuffix("_structured.csv")).read_text(errors="replace").splitlines()
    frame["Raw"] = [raw[int(i) - 1] if 0 < int(i) <= len(raw) else c for i, c in zip(frame["LineId"], frame["Content"])]
    frame["Moment"] = frame[[c for c in MOMENT if c in frame.columns]].agg(" ".join, axis=1)
    frame["Line"] = frame["LineId"].astype(int)
    return frame


def templates(frame: pd.DataFrame) -> list[Template]:
    """The system's templates whose every Content line matches them, with each line's parameters."""
    found = []
    for (event_id, written), rows in frame.groupby(["EventId", "EventTemplate"], sort=True):
        text = re.sub(r"<\*>(?:\.<\*>)+", "<*>", str(written))  # `Took <*>.<*> seconds`: one decimal number
        pattern = _regex(text)
        matches = [pattern.fullmatch(c) for c in rows["Content"]]
        if not all(matches):
            continue
        params = pd.DataFrame([m.groups() for m in matches if m], index=rows.index,
                              columns=[f"p{i}" for i in range(text.count("<*>"))])
        pieces = text.split("<*>")
        names = [_field_name(piece) if _apart(piece, after) else None for piece, after in itertools.pairwise(pieces)]
        found.append(Template(str(event_id), str(text), pd.concat([rows[["Content", "Raw", "Moment", "Line"]], params], axis=1), names))
    return found


def _phrases(template: Template) -> Iterator[str]:
    """Runs of constant words of the template, 2 words first, then 3, then 1, never starting or ending on a function
    word, nor a word alone that questions say of any line or of a measure (`NOT_EVENTS`: Spark's `Times: total =
    ...`)."""
    runs: list[list[str]] = []
    for piece in template.text.split("<*>"):
        for chunk in re.split(r"[^A-Za-z\s]+", piece):
            words = [w.lower() for w in chunk.split() if WORD.fullmatch(w)]
            if words:
                runs.append(words)
    for size in (2, 3, 1):
        for words in runs:
            for i in range(len(words) - size + 1):
                run = words[i:i + size]
                if run[0] not in FUNCTION and run[-1] not in FUNCTION and (size > 1 or len(run[0]) >= 5) \
                        and " ".join(run) not in NOT_EVENTS:
                    yield " ".join(run)


def _holds(text: str, phrase: str, any_form: bool = False) -> bool:
    """Whether `text` holds `phrase` as words (`any_form`: its last word may go on: "start" in "started")."""
    end = "" if any_form else "(?![A-Za-z])"
    return re.search(rf"(?<![A-Za-z]){re.escape(phrase)}{end}", " ".join(text.split()), re.I) is not None


def events(system: list[Template], content: pd.Series) -> list[Event]:
    """One event per template: its first phrase whose templates' lines are exactly the lines a search of the raw
    lines (`content`) finds, with the phrase's words as written and with its last word in any form ("start" finds
    "started" too)."""
    found: dict[str, Event] = {}
    for template in system:
        for phrase in _phrases(template):
            if phrase in found:
                break
            holders = [t for t in system if _holds(t.constant, phrase)]
            rows = sum(len(t.rows) for t in holders)
            if template not in holders or int(content.map(lambda c, p=phrase: _holds(c, p)).sum()) != rows:
                continue
            if int(content.map(lambda c, p=phrase: _holds(c, p, True)).sum()) == rows:
                found[phrase] = Event(phrase, holders)
                break
    return list(found.values())


def _named(event: Event) -> list[str]:
    """Field names every template of the event prints once before a parameter."""
    counts = [Counter(n for n in t.names if n) for t in event.templates]
    common = set(counts[0]).intersection(*counts[1:]) - set(event.phrase.split())
    return sorted(n for n in common if all(c[n] == 1 for c in counts))


def _column(event: Event, name: str) -> pd.Series:
    """The values of the parameter named `name` over the event's rows."""
    return pd.concat([t.rows[f"p{t.names.index(name)}"] for t in event.templates], ignore_index=True)


def _values(event: Event, prefer: str | None = None) -> pd.DataFrame:
    """Every (row, value) the event's parameters hold, as a frame with the row number and the value; the values of
    parameters named `prefer` only when there are some."""
    pairs = []
    offset = 0
    for t in event.templates:
        columns = [f"p{i}" for i, n in enumerate(t.names) if prefer is None or n == prefer]
        for column in columns:
            for i, v in enumerate(t.rows[column]):
                pairs.append((offset + i, v.strip()))
        offset += len(t.rows)
    return pd.DataFrame(pairs, columns=["row", "value"])


def _entity(value: str) -> bool:
    """A parameter value worth naming in a question: a word, id or address, not an empty or one-digit value."""
    return len(value) >= 2 and not re.search(r"[\s\\]", value) and not re.fullmatch(r"[\W_]*", value)


def _token_in(content: str, value: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(value)}(?![\w])", content) is not None


def _with_value(event: Event, value: str) -> pd.Series:
    """Which of the event's rows hold `value` as a parameter (checked against a token search of their lines)."""
    values = _values(event)
    rows = set(values.loc[values["value"] == value, "row"])
    lines = event.rows()["Raw"]
    holds = pd.Series([i in rows for i in range(len(lines))])
    searched = lines.map(lambda c: _token_in(c, value))
    return holds if holds.equals(searched) else pd.Series(dtype=bool)


def _counted(event: Event) -> bool:
    """Whether "how many <event words>" counts the event's lines: its words end in no unit of measure."""
    return event.phrase.split()[-1].lower() not in MEASURED


def _kind(event: Event, value: str) -> str:
    """The one field name the event's templates print before `value` wherever it is written, or "" (none or
    several)."""
    names = {t.names[int(c[1:])] for t in event.templates for c in t.rows.columns
             if re.fullmatch(r"p\d+", c) and (t.rows[c].str.strip() == value).any()}
    return names.pop() or "" if len(names) == 1 else ""


def _count_from(event: Event, rng: random.Random) -> Question | None:
    if not _counted(event):
        return None
    values = _values(event, "from") if "from" in {n for t in event.templates for n in t.names} else _values(event)
    values = values[values["value"].map(lambda v: _entity(v) and (len(v) >= 4 or not v.isdigit()))]
    if values.empty:
        return None
    value = rng.choice(sorted(set(values["value"])))
    holds = _with_value(event, value)
    if holds.empty:
        return None
    return _ask("count_from", int(holds.sum()), event=event.phrase, value=value, kind=_kind(event, value))


def _number(text: str) -> float | None:
    return float(text) if NUMBER.fullmatch(text.strip()) else None


def _statistic(event: Event, rng: random.Random) -> Question | None:
    numeric = [n for n in _named(event) if _column(event, n).map(_number).notna().all()]
    if not numeric:
        return None
    name = rng.choice(numeric)
    numbers = _column(event, name).map(_number)
    values = _values(event)
    values = values[values["value"].map(_entity) & ~values["value"].map(lambda v: _number(v) is not None)]
    if values.empty:
        return None
    value = rng.choice(sorted(set(values["value"])))
    holds = _with_value(event, value)
    if holds.empty or not holds.any():
        return None
    op = rng.choice(STATS)
    kept = numbers[holds.to_numpy()]
    truth = {"min": kept.min(), "max": kept.max(), "sum": kept.sum(), "average": kept.mean()}[op]
    truth = int(truth) if float(truth).is_integer() else round(float(truth), 6)
    return _ask("statistic", truth, op=op, field=name, value=value, event=event.phrase, kind=_kind(event, value))


def _named_column(event: Event, rng: random.Random) -> tuple[str, pd.Series] | None:
    """One field the event's templates name, picked with `rng`, and its values over the event's rows."""
    names = _named(event)
    if not names:
        return None
    name = rng.choice(names)
    return name, _column(event, name).str.strip().str.strip("\"'")  # a value, not the quotes around it


def _field_of(event: Event, rng: random.Random) -> Question | None:
    if (named := _named_column(event, rng)) is None:
        return None
    name, column = named
    values = _values(event)
    values = values[values["value"].map(_entity)]
    candidates = []
    for value in sorted(set(values["value"])):
        rows = sorted(set(values.loc[values["value"] == value, "row"]))
        own = column.iloc[rows]
        if own.nunique() == 1 and own.iloc[0] != value and _entity(own.iloc[0]):
            candidates.append((value, own.iloc[0]))
    if not candidates:
        return None
    value, truth = rng.choice(candidates)
    if _with_value(event, value).empty:
        return None
    return _ask("field_of", truth, field=name, value=value, event=event.phrase)


def _count_in(event: Event, rng: random.Random) -> Question | None:
    if not _counted(event):
        return None
    if (named := _named_column(event, rng)) is None:
        return None
    name, column = named
    choices = sorted(v for v in set(column) if _entity(v))
    if not choices:
        return None
    value = rng.choice(choices)
    return _ask("count_in", int((column == value).sum()), event=event.phrase, field=name, value=value)


def _most(event: Event, rng: random.Random) -> Question | None:
    if (named := _named_column(event, rng)) is None:
        return None
    name, column = named
    if not column.map(_entity).all():
        return None
    counts = column.value_counts()
    if len(counts) < 2 or counts.iloc[0] == counts.iloc[1]:
        return None
    return _ask("most", counts.index[0], field=name, event=event.phrase)


def _entity_column(event: Event, rng: random.Random) -> tuple[str, pd.Series] | None:
    """One field the event's templates name whose every value is worth naming (`_named_column`), or None."""
    named = _named_column(event, rng)
    return named if named is not None and named[0] not in ASKING and named[1].map(_entity).all() else None


def _distinct(event: Event, rng: random.Random) -> Question | None:
    if (named := _entity_column(event, rng)) is None:
        return None
    name, column = named
    return _ask("distinct", int(column.nunique()), field=name, event=event.phrase)


def _first_last(event: Event, rng: random.Random) -> Question | None:
    """The field's value on the event's first (or last) line, when every line of the event written at that line's
    time writes the same value (which line of a second is first is not known)."""
    if (named := _entity_column(event, rng)) is None:
        return None
    name, column = named
    rows = event.rows().assign(value=column.to_numpy()).sort_values("Line")
    moments = rows["Moment"]
    if moments.str.len().nunique() != 1 or not moments.is_monotonic_increasing:
        return None  # lines out of time order (or times of several forms): the first line may not be the earliest
    which = rng.choice(("first", "last"))
    moment = rows["Moment"].iloc[0 if which == "first" else -1]
    values = set(rows.loc[rows["Moment"] == moment, "value"])
    if len(values) != 1:
        return None
    return _ask("first_last", values.pop(), which=which, field=name, event=event.phrase)


def _fewest(event: Event, rng: random.Random) -> Question | None:
    if (named := _entity_column(event, rng)) is None:
        return None
    counts = named[1].value_counts(ascending=True)
    if len(counts) < 2 or counts.iloc[0] == counts.iloc[1]:
        return None
    return _ask("fewest", counts.index[0], field=named[0], event=event.phrase)


def _range(event: Event, rng: random.Random) -> Question | None:
    numeric = [n for n in _named(event) if _column(event, n).map(_number).notna().all()]
    if not numeric:
        return None
    name = rng.choice(numeric)
    numbers = _column(event, name).map(_number)
    if numbers.nunique() < 2:
        return None
    low, high = (int(v) if float(v).is_integer() else float(v) for v in (numbers.min(), numbers.max()))
    return _ask("range", [low, high], field=name, event=event.phrase)


def _whole(event: Event, name: str) -> bool:
    """Whether the parameter named `name` is a whole value in every template of the event, not the first part of
    one the template splits (`bssid <*>:<*>:<*>`: a MAC address)."""
    return not any(re.fullmatch(r"[:.-]", t.text.split("<*>")[t.names.index(name) + 1]) for t in event.templates)


def _distinct_per(event: Event, rng: random.Random) -> Question | None:
    """The value of one field whose lines hold the most distinct values of another, when one value does."""
    names = [n for n in _named(event) if n not in ASKING and _whole(event, n)
             and _column(event, n).str.strip().map(_entity).all()]
    if len(names) < 2:
        return None
    per, counted = rng.sample(names, 2)
    pairs = pd.DataFrame({"per": _column(event, per).str.strip(), "counted": _column(event, counted).str.strip()})
    counts = pairs.groupby("per")["counted"].nunique().sort_values(ascending=False)
    if len(counts) < 2 or counts.iloc[0] == counts.iloc[1]:
        return None
    return _ask("distinct_per", counts.index[0], field=per, other=counted, event=event.phrase)


def _count(event: Event, rng: random.Random) -> Question | None:
    if not _counted(event):
        return None
    return _ask("count", len(event.rows()), event=event.phrase)


MAKERS = {"count_from": _count_from, "count": _count, "statistic": _statistic, "field_of": _field_of,
          "count_in": _count_in, "most": _most, "distinct": _distinct, "first_last": _first_last, "fewest": _fewest,
          "range": _range, "distinct_per": _distinct_per}


def questions(logs: Path, system: str, per_shape: int, seed: int = 33) -> list[Question]:
    """Up to `per_shape` questions of each shape for `system`, sampled with a seed of its own."""
    csv = logs / system / f"{system}_2k.log_structured.csv"
    frame = structured(csv)
    parsed = templates(frame)
    found = events(parsed, frame["Raw"])
    asked: list[Question] = []
    for shape in SHAPES:
        rng = random.Random(f"{seed}/{system}/{shape}")
        order = found[:]
        rng.shuffle(order)
        picked: list[Question] = []
        for event in order:
            if len(picked) == per_shape:
                break
            made = MAKERS[shape](event, rng)
            if made and made.text not in {q.text for q in picked}:
                made.system = system
                picked.append(made)
        asked += picked
    return asked


def _matches(value: Any, truth: Any, shape: str) -> bool:
    from react_engine.app.evaluation.scoring import ranking, same_value

    if value is None:
        return False
    if isinstance(truth, list):  # a range: the lowest and the highest value, in that order or named
        found = list(value.values()) if isinstance(value, dict) else value
        return isinstance(found, list) and len(found) == len(truth) and all(
            _matches(v, t, shape) for v, t in zip(found, truth, strict=True))
    if isinstance(truth, (int, float)) and not isinstance(truth, bool):
        return not isinstance(value, (list, dict)) and (  # answers round a statistic to 4 decimals
            same_value(value, truth, rel_tolerance=1e-6) or same_value(value, round(truth, 4), rel_tolerance=1e-9))
    if same_value(value, truth) or _restates(value, truth):
        return True
    if shape in ("most", "field_of", "fewest", "first_last", "distinct_per"):
        items = ranking(value)
        return bool(items) and (same_value(items[0], truth) or _restates(items[0], truth))
    return False


def _restates(value: Any, truth: Any) -> bool:
    """A text value that is the truth with its port or unit (`10.1.2.3:50010` for `10.1.2.3`), or the truth less
    its unit (`419.6` for `419.6 KB`)."""
    if not isinstance(value, str) or not isinstance(truth, str):
        return False
    short, long_ = sorted((value.strip(), truth.strip()), key=len)
    return bool(short) and long_.startswith(short) and long_[len(short)] in ": "


def judge(question: Any, result: Any, right: bool) -> Score:
    """One answer's score: right, else wrong but verified, honest (partial, refused, no value or stopped short) or
    wrong; a miss is kept as a line for `--show`."""
    score = Score()
    if right:
        score.right = 1
    elif result.verified and not result.partial:
        score.wrong_verified = 1
    elif result.partial or result.refused or result.value is None or result.stop_reason != "stop":
        score.honest = 1
    else:
        score.wrong = 1
    if not score.right:
        mark = "✓" if score.wrong_verified else ("partial" if score.honest else "unverified")
        first = re.sub(r"\s+", " ", result.answer)[:160]
        asked = question.shape + ("" if getattr(question, "form", "template") == "template" else f"/{question.form}")
        score.failures.append(f"[{mark}] {question.system}/{asked}: {question.text} -> "
                              f"{str(result.value)[:100]} (truth {question.truth!r}) | {first}")
    return score


def right(question: Question, result: Any) -> bool:
    return _matches(result.value, question.truth, question.shape)


@dataclass(frozen=True)
class Generator:
    """A generator of questions from the loghub samples: its questions for one system (`questions(logs, system,
    per_shape)`), whether an answer's value is right, its shapes (or the labels `label` gives) in the order they are
    reported, and the year the run gives logs that write none."""

    questions: Callable[[Path, str, int], list[Any]]
    right: Callable[[Any, Any], bool]
    shapes: tuple[str, ...]
    year: int = 2026
    label: Callable[[Any], str] = attrgetter("shape")  # the name a question's score is reported under

    def run(self, logs: Path, per_shape: int, systems: list[str] | None = None) -> dict[tuple[str, str], Score]:
        """The rules planner's score on each system's questions, per system and shape."""
        from react_engine.logs.options import LoadOptions
        from react_engine.loop.engine import Engine
        from react_engine.loop.frames import FrameCache
        from react_engine.planners.rules import RulesPlanner

        frames = FrameCache(LoadOptions(year=self.year))
        engine = Engine(RulesPlanner())
        scores: dict[tuple[str, str], Score] = defaultdict(Score)
        for system in systems or _systems(logs):
            log = [str(logs / system / f"{system}_2k.log")]
            for question in self.questions(logs, system, per_shape):
                result = engine.ask(question.text, log, frame=frames.get(log), load_options=frames.options)
                one = judge(question, result, self.right(question, result))
                scores[(system, self.label(question))].add(one)
                scores[(system, self.label(question))].failures += one.failures
        return scores

    def report(self, scores: dict[tuple[str, str], Score]) -> list[str]:
        """The score tables per system and per shape."""
        by_system: dict[str, Score] = defaultdict(Score)
        by_shape: dict[str, Score] = {s: Score() for s in self.shapes}
        for (system, shape), score in scores.items():
            by_system[system].add(score)
            by_shape[shape].add(score)
        return [*table(dict(sorted(by_system.items())), "system"), "", *table(by_shape, "shape")]

    def main(self, description: str, argv: list[str] | None = None) -> int:
        """The command line: ask every question and print the tables (and the failures, or only the questions)."""
        parser = argparse.ArgumentParser(description=description)
        parser.add_argument("--logs", type=Path, default=REAL, help="the folder of loghub systems")
        parser.add_argument("--per-shape", type=int, default=5)
        parser.add_argument("--system", action="append", help="only this system (repeatable)")
        parser.add_argument("--show", choices=["none", "wrong", "all"], default="none",
                            help="list the questions not answered right (wrong: only the wrong ones)")
        parser.add_argument("--list", action="store_true", help="list the questions and truths, without asking")
        args = parser.parse_args(argv)
        if not args.logs.is_dir():
            print(f"no loghub samples at {args.logs}: pass --logs FOLDER", file=sys.stderr)
            return 2
        if args.list:
            for system in args.system or _systems(args.logs):
                for q in self.questions(args.logs, system, args.per_shape):
                    print(f"{system}\t{q.shape}\t{q.text}\t{q.truth!r}")
            return 0
        scores = self.run(args.logs, args.per_shape, args.system)
        print("\n".join(self.report(scores)))
        if args.show != "none":
            for score in scores.values():
                for line in score.failures:
                    if args.show == "all" or not line.startswith("[partial]"):
                        print(line)
        return 0


def _systems(logs: Path) -> list[str]:
    return sorted(p.name for p in logs.iterdir() if (p / f"{p.name}_2k.log_structured.csv").is_file())


def table(rows: dict[str, Score], title: str) -> list[str]:
    width = max([12, *map(len, rows)])
    lines = [f"{title:<{width}} {'asked':>5} {'right':>5} {'honest':>6} {'wrong✓':>6} {'wrong':>5}"]
    total = Score()
    for name, score in [*rows.items(), ("total", total)]:
        if name != "total":
            total.add(score)
        lines.append(f"{name:<{width}} {score.total:>5} {score.right:>5} {score.honest:>6} {score.wrong_verified:>6} "
                     f"{score.wrong:>5}")
    return lines



GENERATOR = Generator(questions, right, SHAPES)


if __name__ == "__main__":
    sys.exit(GENERATOR.main(__doc__.splitlines()[0]))
