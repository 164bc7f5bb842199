"""Numeric fields inside messages, found from the vocabulary's sample and read from the rows only when asked.

A field is a number that a message template carries next to a name: `key=value` and `key: value` pairs
(`len: 1893 time: 0.2477829`), sizes (`384.0 B`, `1184 bytes (1.15 KB) sent`, `of size 67108864`, read as bytes)
and durations (`0.24 s`, `120ms`, `lifetime 00:03`, `02:02:11`, read as seconds), named from the text beside them
(`len`, `time`, `bytes sent`, `lifetime`). Discovery reads each distinct sampled message once; `read` then runs a
field's RE2 patterns over the rows a statistic is asked of, through Arrow, so loading pays nothing for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.lexicon.measure_units import SIZE_NAMING_WORDS, SIZE_UNITS, TIME_UNITS, UNIT_ALTERNATIVES
from react_engine.lexicon.stop_words import FIELD_NAME_STOPS
from react_engine.logs.ahead import in_order
from react_engine.logs.templates import masked
from react_engine.logs.text import arrow_strings

SAMPLE_ROWS = 10_000  # messages sampled, spread evenly, to find words and numeric fields
READ_ROWS = 1 << 16  # messages a field is read from at a time (see `read`)
_EXAMPLES = 2  # messages read per template
NUMBER = r"-?\d+(?:\.\d+)?"
UNIT = f"(?:{UNIT_ALTERNATIVES})"
_PAIRED = r"(?:=|:[ \t]+)"  # between a key and its value: `key=value`, `key: value`
_WRITTEN = r"(?:[ \t]*[=:][ \t]*|[ \t]+)"  # ... and, for a key a question names, `key:value` and `key value`
_PAIR = re.compile(rf"(?<![\w.\-/])(?P<key>[A-Za-z_][\w.\-]{{0,39}}){_PAIRED}\"?(?P<v>{NUMBER})"
                   rf"(?:[ \t]?(?P<u>{UNIT}))?(?![\w.:/\-%=])", re.I)
_NAMED_PAIR = re.compile(rf"(?<![\w.\-/])(?P<key>[A-Za-z_][\w.\-]{{0,39}}){_WRITTEN}\"?(?P<v>{NUMBER})"
                         rf"(?:[ \t]?(?P<u>{UNIT}))?(?![\w:/\-%=]|\.\w)", re.I)  # a sentence's stop may end it
_UNITED = re.compile(rf"(?<![\w.\-:/<>])(?P<v>{NUMBER})[ \t]?(?P<u>{UNIT})(?![\w/%=]|[.:]\w)"
                     r"(?P<paren>[ \t]*\([^()]{0,30}\))?(?:[ \t]+(?P<next>[A-Za-z]+))?", re.I)
_CLOCK = re.compile(r"(?<![\w.:\-<])(?P<key>[A-Za-z_][\w\-]*)[ \t]+(?P<v>\d{1,3}:\d{2}(?::\d{2})?)(?![\w.:])")
_SIZE = re.compile(r"\b(?P<key>size)[ \t]+(?P<v>\d+)(?![\w.:])", re.I)
_BEFORE = re.compile(r"[ \t]+(?P<key>[\w\-]+)")  # matched on the reversed message, back from a number
_KEY_START = re.compile(r"[A-Za-z_]")
_CLOCK_VALUE = r"(?P<a>\d{1,3}):(?P<b>\d{2})(?::(?P<c>\d{2}))?"
_END = r"(?:$|[^\w.:/%=-])"
_STOPPED = r"(?:$|[^\w.:/%=-]|\.(?:$|\W))"  # ... or a sentence's stop (RE2 has no lookahead)


@dataclass(frozen=True)
class NumericField:
    """A number messages carry: its `name`, `unit` ("bytes", "s" or "" when none), the RE2 `patterns` that read
    it (named groups `v` and maybe `u`, or `a`/`b`/`c` for a clock), each with the word a line it matches holds
    (any case: a cheap test that spares the regex most lines), and the sampled rows that hold it."""

    name: str
    unit: str
    patterns: tuple[tuple[str, str], ...]  # (word, pattern)
    sampled: int = 0

    def merged(self, other: NumericField) -> NumericField:
        patterns = self.patterns + tuple(p for p in other.patterns if p not in self.patterns)
        return NumericField(self.name, self.unit, patterns, self.sampled + other.sampled)


def unit_of(unit: str | None) -> str:
    """"bytes", "s" or "" for a unit as written."""
    key = (unit or "").lower()
    return "bytes" if key in SIZE_UNITS else "s" if key in TIME_UNITS else ""


def _pair(found: re.Match[str], separator: str = _PAIRED, end: str = _END) -> NumericField:
    key = found["key"]
    unit = f"(?:[ \\t]?(?P<u>{UNIT}))?" if found["u"] else ""
    pattern = rf"(?i)(?:^|[^\w.\-/]){re.escape(key)}{separator}\"?(?P<v>{NUMBER}){unit}{end}"
    return NumericField(key, unit_of(found["u"]), ((key, pattern),))


def _word_before(reversed_message: str, start: int) -> str | None:
    """The word that spaces part from the number at `start` (from its first letter or `_`), or None: read back
    from the number in the reversed message, in time linear in that word's length (a regex searched forward over
    the text before each number was quadratic in a long word)."""
    back = _BEFORE.match(reversed_message, len(reversed_message) - start)
    if back is None:
        return None
    word = back["key"][::-1]
    first = _KEY_START.search(word)
    return word[first.start():] if first else None


def _united(found: re.Match[str], reversed_message: str) -> NumericField | None:
    unit, after = found["u"], (found["next"] or "").lower()
    value = rf"(?P<v>{NUMBER})[ \t]?(?P<u>{UNIT})"
    prior = _word_before(reversed_message, found.start())
    if unit.lower() in ("bytes", "byte") and (after in SIZE_NAMING_WORDS or after.endswith("ed")):
        pattern = rf"(?i)(?:^|[^\w.:/<>-]){value}(?:[ \t]*\([^()]{{0,30}}\))?[ \t]+{re.escape(after)}\b"
        return NumericField(f"bytes {after}", "bytes", ((after, pattern),))
    if prior and prior.lower() not in FIELD_NAME_STOPS:
        key = prior
        return NumericField(key, unit_of(unit), ((key, rf"(?i)(?:^|[^\w.\-]){re.escape(key)}[ \t]+{value}(?:$|[^\w/%])"),))
    return None


def _named(found: re.Match[str], kind: str) -> NumericField | None:
    key = found["key"]
    if key.lower() in FIELD_NAME_STOPS or key[0].isdigit():
        return None
    if kind == "clock":
        return NumericField(key, "s", ((key, rf"(?:^|[^\w.:<-]){re.escape(key)}[ \t]+{_CLOCK_VALUE}(?:$|[^\w.:])"),))
    return NumericField(key, "bytes", ((key, rf"(?i)\b{re.escape(key)}[ \t]+(?P<v>\d+)(?:$|[^\w.:])"),))


class _Taken:
    """Where in one message a number already read (or restated in parentheses) stands."""

    def __init__(self, message: str) -> None:
        self.marks = bytearray(len(message))

    def free(self, found: re.Match[str]) -> bool:
        start, end = found.span("v")
        return not any(self.marks[start:end])

    def take(self, span: tuple[int, int]) -> None:
        self.marks[span[0]:span[1]] = b"\x01" * (span[1] - span[0])


def fields_in(message: str) -> list[NumericField]:
    """The numeric fields one message holds, each once, in order of discovery."""
    taken = _Taken(message)
    pairs = _pairs(message, taken)
    united = _united_fields(message, taken)
    return pairs + united + _named_fields(message, taken)


def _pairs(message: str, taken: _Taken) -> list[NumericField]:
    """The `key=value` fields, but for ids and ports."""
    out = []
    for found in _PAIR.finditer(message):
        if taken.free(found) and not fold(found["key"]).endswith(("id", "pid", "port")):
            taken.take(found.span("v"))
            out.append(_pair(found))
    return out


def pair_named(name: str, messages: Iterable[str]) -> NumericField | None:
    """The `key=value` or `key: value` number named `name` (any case) that `messages` write, ids and ports too
    (which `discover` leaves out: a question naming one asks for it), else the number they write right after the
    name (`key:value`, `slot 10`, `TID 3`, `port 40984`: the log's word for it), or None when none writes it."""
    key = fold(name)
    if not key:
        return None
    first = key.split()[0]
    holding = [m for m in messages if first in m.lower()]  # a cheap test that spares the regex most messages
    for pattern, separator, end in ((_PAIR, _PAIRED, _END), (_NAMED_PAIR, _WRITTEN, _STOPPED)):
        found = next((p for m in holding for p in pattern.finditer(m) if fold(p["key"]) == key), None)
        if found is not None:
            return _pair(found, separator, end)
    return None


def _united_fields(message: str, taken: _Taken) -> list[NumericField]:
    """The numbers written with a unit, named by the word around them."""
    out = []
    reversed_message = message[::-1]
    for found in _UNITED.finditer(message):
        if taken.free(found):
            taken.take(found.span("v"))
            if found.start("paren") >= 0:
                taken.take(found.span("paren"))  # "(1.15 KB)" restates the number before it
            united = _united(found, reversed_message)
            out.extend([united] if united else [])
    return out


def _named_fields(message: str, taken: _Taken) -> list[NumericField]:
    """The clock times and sizes written after their name."""
    out = []
    for pattern, kind in ((_CLOCK, "clock"), (_SIZE, "size")):
        for found in pattern.finditer(message):
            if taken.free(found) and (named := _named(found, kind)) is not None:
                taken.take(found.span("v"))
                out.append(named)
    return out


def discover(messages: Iterable[str]) -> tuple[NumericField, ...]:
    """The fields the sampled `messages` carry, most sampled rows first; a name found in several templates holds
    each template's pattern (the first unit found wins). Messages of one template (the same `masked` text) carry
    the same fields, so each template is read in its first `_EXAMPLES` messages and its rows counted together."""
    counts = pd.Series(list(messages), dtype=object).value_counts(sort=False)
    templates = masked(pa.array(counts.index.astype(str), pa.large_string())).to_pylist()
    rows = pd.Series(counts.to_numpy(), index=templates).groupby(level=0, sort=False).sum()
    examples = pd.Series(counts.index, index=templates).groupby(level=0, sort=False).head(_EXAMPLES)
    found: dict[str, NumericField] = {}
    counted: set[tuple[str, str]] = set()  # (template, field): a template's rows count once per field
    for template, message in examples.items():
        for field in fields_in(str(message)):
            key = fold(field.name)
            field = NumericField(field.name, field.unit, field.patterns,
                                 0 if (template, key) in counted else int(rows[template]))
            counted.add((template, key))
            found[key] = found[key].merged(field) if key in found else field
    return tuple(sorted(found.values(), key=lambda f: -f.sampled))


def fold(name: str) -> str:
    """A field name compared without case, and with `_`, `-`, `.` and spaces alike."""
    return re.sub(r"[\s_.\-]+", " ", name.strip().lower())


def read(messages: pd.Series, field: NumericField) -> pd.Series:
    """The field's value in each message (in bytes or seconds when it has a unit), NaN where it is absent.

    The messages are read READ_ROWS at a time, the parts in threads (Arrow's kernels release the GIL), so that a
    field costs a fraction of its CPU in wall time and each part's copy of the rows holding its words is small."""
    text = arrow_strings(messages)
    parts = in_order(lambda at: _values(text.slice(at, READ_ROWS), field), list(range(0, len(text), READ_ROWS)))
    values = np.concatenate(parts) if parts else np.full(0, np.nan)
    return pd.Series(values, index=messages.index, name=field.name)


def read_text(messages: pd.Series, field: NumericField) -> pd.Series:
    """The field's value in each message as written (None where it is absent), each message read by the first of
    the field's patterns that matches it, as `read` reads it."""
    text = arrow_strings(messages)
    out = np.full(len(text), None, dtype=object)
    holding: dict[str, np.ndarray] = {}
    for word, pattern in field.patterns:
        if word not in holding:
            holding[word] = pc.fill_null(pc.match_substring(text, word, ignore_case=True),
                                         False).to_numpy(zero_copy_only=False)
        rows = pd.isna(out) & holding[word]
        if rows.any():
            found = pc.struct_field(pc.extract_regex(pc.filter(text, pa.array(rows)), pattern), "v")
            out[np.flatnonzero(rows)] = found.to_numpy(zero_copy_only=False)
    return pd.Series(out, index=messages.index, name=field.name)


def _values(text: pa.Array | pa.ChunkedArray, field: NumericField) -> np.ndarray:
    """`read` of some messages as Arrow strings."""
    out = np.full(len(text), np.nan)
    holding: dict[str, np.ndarray] = {}  # the rows holding each word, found once per word
    for word, pattern in field.patterns:
        if word not in holding:
            holding[word] = pc.fill_null(pc.match_substring(text, word, ignore_case=True),
                                         False).to_numpy(zero_copy_only=False)
        rows = np.isnan(out) & holding[word]
        if rows.any():  # a boolean filter costs a fraction of a take by positions
            out[rows] = _numbers(pc.extract_regex(pc.filter(text, pa.array(rows)), pattern))
    return out


def _numbers(groups: pa.StructArray | pa.ChunkedArray) -> np.ndarray:
    """The numbers of one pattern's matches, scaled to bytes or seconds by their unit (in Arrow: the patterns
    capture only digits, so every capture casts)."""
    names = _names(groups)
    if "a" in names:  # a clock: mm:ss or hh:mm:ss
        a, b, c = (_floats(groups, name) for name in "abc")
        with np.errstate(over="ignore", invalid="ignore"):
            return np.where(np.isnan(c), a * 60 + b, a * 3600 + b * 60 + c)
    number = _floats(groups, "v")  # inf where the digits overflow a float: `tools.numeric.readable` leaves it out
    if "u" in names:
        written = pc.utf8_lower(pc.struct_field(groups, "u"))
        if isinstance(written, pa.ChunkedArray):
            written = written.combine_chunks()
        units = pc.dictionary_encode(written)
        scales = np.array([SIZE_UNITS.get(u) or TIME_UNITS.get(u) or 1.0 for u in units.dictionary.to_pylist()] + [1.0])
        codes = units.indices.fill_null(len(scales) - 1).to_numpy(zero_copy_only=False)
        with np.errstate(over="ignore", invalid="ignore"):  # 1e308 TB is inf, left out as unreadable
            number = number * scales[codes]
    return number


def _floats(groups: pa.StructArray | pa.ChunkedArray, name: str) -> np.ndarray:
    """One capture group as floats, NaN where the row did not match or the group captured nothing."""
    text = pc.struct_field(groups, name)
    text = pc.if_else(pc.equal(text, ""), pa.scalar(None, text.type), text)
    return np.asarray(pc.cast(text, pa.float64()).to_numpy(zero_copy_only=False), dtype=float)


def _names(groups: pa.StructArray | pa.ChunkedArray) -> list[str]:
    kind = groups.type
    return [kind.field(i).name for i in range(kind.num_fields)]


def written_units(messages: pd.Series, field: NumericField) -> frozenset[str]:
    """The units the messages holding the field write its value in, as written ("MB"; "" where a pattern reads it
    with none), each message read by the first of the field's patterns that matches it, as `read` reads it; a field
    no pattern reads with a unit (`of size 67108864`) is written in none, and its messages are not read again."""
    if not any("(?P<u>" in pattern for _, pattern in field.patterns):
        return frozenset({""}) if len(messages) else frozenset()
    text = arrow_strings(messages)
    left = np.ones(len(text), dtype=bool)
    found: set[str] = set()
    for word, pattern in field.patterns:
        rows = left & pc.fill_null(pc.match_substring(text, word, ignore_case=True), False).to_numpy(
            zero_copy_only=False)
        if not rows.any():
            continue
        groups = pc.extract_regex(pc.filter(text, pa.array(rows)), pattern)
        if isinstance(groups, pa.ChunkedArray):
            groups = groups.combine_chunks()
        matched = groups.is_valid().to_numpy(zero_copy_only=False)
        units = pc.struct_field(groups, "u").to_pylist() if "u" in _names(groups) else [""] * len(groups)
        found.update(u or "" for u, held in zip(units, matched, strict=True) if held)
        left[np.flatnonzero(rows)[matched]] = False
    return frozenset(found)
