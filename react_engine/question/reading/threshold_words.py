"""Numeric thresholds: "took longer than 1 second", "latency over 500 ms", "latency_ms > 500", "with status >= 500",
"responses bigger than 1 MB", "under 50 ms", "at least 2 s", "more than 1000 bytes sent", "500 ms or more".

Each becomes a field filter comparing a numeric field (gt, ge, lt, le) with the number as written, its unit kept
for the tool to convert. The field is the one the question names before the comparison (a column, a field the
messages carry, or a word such as latency or status); else the one the unit names: `bytes sent` for "1000 bytes
sent", `duration` for a time ("took", "slower", "ms"), `bytes` for a size ("bigger", "MB"). A comparison with no
field and no unit ("more than 5 errors") is no threshold and is left to the other readers.
"""

from __future__ import annotations

import re

from react_engine.lexicon.measure_units import SIZE_UNITS, TIME_UNITS
from react_engine.lexicon.number_words import NUMBER_WORDS
from react_engine.lexicon.stop_words import FILLER
from react_engine.logs.fields import unit_of
from react_engine.question.query import THRESHOLD_OPS, FieldFilter
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.question import Question
from react_engine.question.vocabulary import Vocabulary

_OPS = (  # (op, words): an op's longer phrases first, and >= and <= before > and <
    ("ge", r"at\s+least|no\s+(?:less|fewer|shorter|faster|smaller|lower)\s+than|not\s+(?:less|under)\s+than|>=|=>|≥"),
    ("le", r"at\s+most|no\s+(?:more|longer|greater|bigger|larger|slower|higher)\s+than|not\s+more\s+than"
           r"|<=|=<|≤"),
    ("gt", r"(?:longer|more|greater|bigger|larger|slower|higher|heavier)\s+than|over|above|exceed(?:s|ed|ing)?"
           r"|in\s+excess\s+of|>"),
    ("lt", r"(?:shorter|less|fewer|smaller|faster|quicker|lower|lighter)\s+than|under|below|<"),
)
_AFTER = {"ge": r"more|higher|above|longer|greater|slower|bigger|larger|over",
          "le": r"less|lower|below|fewer|shorter|faster|smaller|under"}
_UNITS = sorted({*SIZE_UNITS, *TIME_UNITS} - {"µs"}, key=lambda unit: (-len(unit), unit))
_NUMBER = r"(?P<num>\d+(?:,\d{3})*(?:\.\d+)?|" + "|".join(NUMBER_WORDS) + r")"
_VALUE = (_NUMBER + r"\s*(?P<unit>" + "|".join(_UNITS) + r")?(?![\w.:/%-])"
          r"(?:\s+(?P<sent>sent|received|read|written|transferred)\b)?")
_NAMED = (r"latency|latencies|duration|durations|elapsed|response\s+times?|time|lifetime|size|sizes|length|len"
          r"|status(?:\s+code)?|bytes(?:\s+(?:sent|received))?|payload|body"
          r"|(?!(?:requests?|responses?|lines?|entries|entry|calls?|events?|messages?|rows?|records?|connections?"
          r"|sessions?)\b)[A-Za-z_][\w.]*(?=\s*(?:>=|<=|=>|=<|>|<|≥|≤))")  # a name right before a symbol: "len>2000",
# not the lines it keeps ("requests > 1s")
_SUFFIXES = ("_ms", "_msec", "_us", "_ns", "_s", "_sec", "_secs", "_seconds", "_bytes", "_kb", "_mb", "_size",
             "_time", "_len", "_length", "_count")
_TIMED = re.compile(r"\b(?:t[oa]ok|take|takes|taking|last(?:ed|ing|s)?|ran|running|runs|slower|faster|longer"
                    r"|shorter|quicker)\b", re.I)
_SIZED = re.compile(r"\b(?:bigger|larger|smaller|heavier|lighter)\b", re.I)
_LINK = r"(?:\s+(?:is|was|are|were|of|with|at|took|takes|taking|lasted|lasting|t[oa]ok))*\s*"
_BEFORE = re.compile(r"(?<![\w.:])([A-Za-z_][\w.]*)" + _LINK + r"$")  # the word before a threshold's comparison


def read_thresholds(q: Question, draft: Draft, columns: list[str], vocabulary: Vocabulary) -> None:
    """Every threshold of the question, as a field filter; the words it was written with are consumed."""
    named = [re.escape(c) for c in columns if c.lower().endswith(_SUFFIXES)]  # latency_ms, not user
    field = r"(?:(?P<field>" + "|".join([*named, _NAMED]) + r")" + _LINK + r")?"
    verb = r"(?P<verb>\b(?:t[oa]ok|take|takes|taking|last(?:ed|ing|s)?|ran|running|runs)\s+)?"
    ops = "|".join(f"(?P<{op}>{words})" for op, words in _OPS)
    before = rf"(?<![\w.]){field}{verb}(?:{ops})\s*{_VALUE}"
    after = rf"(?<![\w.]){field}{verb}{_VALUE}\s+or\s+(?:(?P<ge_after>{_AFTER['ge']})|(?P<le_after>{_AFTER['le']}))\b"
    for pattern in (after, before):
        for m in q.take(pattern, re.I, accept=_threshold):
            _keep(draft, m, _named_before(q, m, vocabulary))
            draft.thresholds.append(m.span())


def blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with the thresholds' words blanked, for the readers of what is asked: "bigger than 40 KB" compares
    no two sets of lines, and "of requests took over 500 ms" names no share's base."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _op(m: re.Match[str]) -> str:
    return next(op for op in THRESHOLD_OPS if m.groupdict().get(op) or m.groupdict().get(f"{op}_after"))


def _threshold(m: re.Match[str]) -> bool:
    """Whether a comparison is a threshold: it names a field or a unit, or says what it compares ("slower")."""
    if m["num"].lower() in NUMBER_WORDS and not m["unit"]:
        return False  # "more than one host"
    return bool(m["field"] or m["unit"] or _TIMED.search(m.group(0)) or _SIZED.search(m.group(0)))


def _field(m: re.Match[str]) -> str:
    """The field compared: as named, else as its unit or its words name it."""
    if m["field"]:
        return re.sub(r"\s+", " ", m["field"].lower())
    unit = (m["unit"] or "").lower()
    if unit in SIZE_UNITS or _SIZED.search(m.group(0)):
        return f"bytes {m['sent'].lower()}" if m["sent"] else "bytes"
    return "duration"


def _named_before(q: Question, m: re.Match[str], vocabulary: Vocabulary) -> tuple[str, str] | None:
    """The field and words of a threshold that names no field of its own when the word before it names a number
    the messages carry in a unit of the threshold's kind ("free is over 90000 MB": `free: 95746.00 MB`), its word
    then consumed; else None (the unit names the field)."""
    before = _BEFORE.search(q.text[:m.start()]) if m["unit"] and not m["field"] else None
    if before is None or any(q.used[before.start(1):before.end(1)]) or not vocabulary.sampled:
        return None
    name, unit = before.group(1).lower(), unit_of(m["unit"])
    field = next((f.name for f in vocabulary.fields if f.name.lower() == name and f.unit == unit), None)
    if field is None:
        return None
    q.consume(before.start(1), before.end(1))
    return field, f"{before.group(1)} {m.group(0).strip()}"


def _keep(draft: Draft, m: re.Match[str], named: tuple[str, str] | None) -> None:
    number = m["num"].replace(",", "")
    number = str(NUMBER_WORDS[number.lower()]) if number.lower() in NUMBER_WORDS else number
    value = f"{number} {m['unit']}" if m["unit"] else number
    words = named[1] if named else m.group(0).strip()
    lead = "with " if m["field"] or named else "that " if m["verb"] else ""
    draft.keep(named[0] if named else _field(m), value, lead + words, op=_op(m))


def unknown_units(text: str, draft: Draft) -> None:
    """A threshold's number with no unit read, followed by a word that may be a unit no tool knows ("longer than 5
    parsecs"): that word is unread (a partial answer), not ignored while the number is compared in the field's
    own unit."""
    for start, end in draft.thresholds:
        after = re.match(r"\s+([A-Za-z]+)\b", text[end:])
        if re.search(r"\d\s*$", text[start:end]) and after is not None and after.group(1).lower() not in FILLER \
                and after.group(1).lower().endswith("s") and after.group(1) not in draft.unread:
            draft.unread.append(after.group(1))


def is_threshold(f: object) -> bool:
    """Whether a filter is a numeric threshold (it goes last, so that a share is one of the rows before it)."""
    return isinstance(f, FieldFilter) and f.op in THRESHOLD_OPS
