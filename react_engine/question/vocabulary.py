"""What the loaded rows contain, built once per load: the names and words a question can be grounded in.

Built from `value_counts` of the name-like columns and the words of an evenly spread sample of messages, so it
costs the same whatever the log's size beyond the sample.
"""

from __future__ import annotations

import functools
import re
import weakref
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath

import pandas as pd

from react_engine.logs.field_catalog import FieldCatalog
from react_engine.logs.fields import SAMPLE_ROWS, NumericField, discover
from react_engine.logs.stored_catalog import stored_catalog
from react_engine.logs.wordforms import singular, stem
from react_engine.question.log_events import Events
from react_engine.rows.rowops import column_counts, count, distinct, every
from react_engine.rows.rowops import values as values_of

VALUE_COLUMNS = ("host", "component", "pid", "thread", "level_raw", "event_id", "status", "method", "user", "action",
                 "mnemonic")
NAME_COLUMNS = ("host", "component", "thread")  # columns whose values a question names
MAX_VALUES = 2000  # per column, the most frequent
SIGN_ROWS = 500  # of those, the ones searched for entity types
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# entity types a question may rank or count, and how a line shows them (checked on the sample)
ENTITY_SIGNS = {
    "ip": re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b"),
    "mac": re.compile(r"\b(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}\b|\b(?:[0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4}\b"),
    "user": re.compile(r"(?i)\buser(?:name)?[=:\s]\s*\w|\bfor (?:invalid user )?\w+ from\b"),
    "uuid": re.compile(r"\b[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}\b"),
    "url": re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]{1,15}://\S"),
    "email": re.compile(r"\b[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b"),
}


def _values(frame: pd.DataFrame, known: Mapping[str, pd.Series]) -> dict[str, dict[str, int]]:
    """The most frequent values of each name column (`known`: the `value_counts` already computed)."""
    columns = [c for c in VALUE_COLUMNS if c in frame.columns]
    found = column_counts(frame, [c for c in columns if c not in known])
    values = {}
    for column in columns:
        counts = known[column] if column in known else found[column]
        values[column] = {str(k): int(v) for k, v in counts.iloc[:MAX_VALUES].items() if str(k)}
    return values


def _sources(frame: pd.DataFrame, rows: int) -> frozenset[str]:
    """The lower-case words of the loaded files' names ("hadoop", "proxifier")."""
    if "source" not in frame.columns or not rows:
        return frozenset()
    names = distinct(frame["source"])[:100]
    return frozenset(w.lower() for n in names for w in re.findall(r"[A-Za-z]{3,}", PurePath(n).name))


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """Names per column with their row counts, message words, entity types and the log's time range."""

    rows: int = 0
    values: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # column -> value as written -> rows
    tokens: Mapping[str, int] = field(default_factory=dict)  # lower-case message word -> occurrences in the sample
    sampled: int = 0  # rows the tokens come from (== rows: the counts are exact)
    sample: tuple[str, ...] = ()  # those rows' messages, in lower case (the events' sample)
    sources: frozenset[str] = frozenset()  # lower-case words of the loaded files' names ("hadoop", "proxifier")
    first: pd.Timestamp | None = None
    last: pd.Timestamp | None = None
    events: Events = field(default_factory=Events)  # the sampled messages' templates
    inferred_levels: bool = False  # some severities no line wrote: the format's rule inferred them (severity_rule)
    frame: Callable[[], object] = lambda: None  # the rows it was built from, while they are kept

    @classmethod
    def build(cls, frame: pd.DataFrame, counted: Mapping[str, pd.Series] | None = None) -> Vocabulary:
        """The vocabulary of `frame` (one `value_counts` per name column plus a sample of messages); `counted`:
        the `value_counts` of any columns already known."""
        rows = count(frame)
        step = max(1, rows // SAMPLE_ROWS)
        picked = every(frame["message"], step) if "message" in frame.columns else pd.Series([], dtype=str)
        sample = picked.dropna().astype(str)
        levels = every(frame["severity"], step)[picked.notna().to_numpy()].tolist() \
            if "severity" in frame.columns else []
        events = Events.build(sample.tolist(), levels)
        tokens = Counter(_WORD.findall("\n".join(events.sample)))
        first, last = values_of(frame["timestamp"].min(), frame["timestamp"].max()) if "timestamp" in frame.columns \
            else (None, None)
        return cls(rows=rows, values=_values(frame, counted or {}), tokens=dict(tokens), sampled=len(sample),
                   sample=events.sample, sources=_sources(frame, rows),
                   first=None if pd.isna(first) else first, last=None if pd.isna(last) else last,
                   events=events, inferred_levels="severity_rule" in frame.columns, frame=weakref.ref(frame))

    @classmethod
    def of_values(cls, known: Mapping[str, list[str]]) -> Vocabulary:
        """A vocabulary with names only (no counts or message words), for views built without rows."""
        return cls(values={c: dict.fromkeys(v, 0) for c, v in known.items()})

    @functools.cached_property
    def catalog(self) -> FieldCatalog:
        """The fields of the sampled messages' patterns (found when first asked for, or read back from beside a
        cached file's entry: see `logs.stored_catalog`)."""
        return stored_catalog(self.frame(), lambda: FieldCatalog.build(list(self.events.messages)))

    @functools.cached_property
    def fields(self) -> tuple[NumericField, ...]:
        """The numeric fields the sampled messages carry (found when first asked for)."""
        return discover(self.events.messages)

    @functools.cached_property
    def entity_types(self) -> tuple[str, ...]:
        """The entity types the sampled messages show (searched for in `SIGN_ROWS` of them when first asked)."""
        lines = self.events.messages
        signs = "\n".join(lines[:: max(1, len(lines) // SIGN_ROWS)])
        return tuple(k for k, sign in ENTITY_SIGNS.items() if sign.search(signs))

    def token_rows(self, word: str) -> int:
        """How often `word` (or its singular) occurs in the sampled messages."""
        key = word.lower()
        return self.tokens.get(key, 0) or self.tokens.get(singular(key), 0)

    def stem_rows(self, word: str) -> int:
        """How often words sharing `word`'s stem occur in the sampled messages (`expired` finds `Expiring`)."""
        return sum(self._by_stem.get(stem(word.lower()), {}).values())

    @functools.cached_property
    def _by_stem(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for token, n in self.tokens.items():
            out.setdefault(stem(token), {})[token] = n
        return out

    def together(self, patterns: list[str]) -> tuple[int, int]:
        """`(lines matching every pattern, fewest lines matching one of them)` in the sample (case-insensitive
        regexes as `search_logs` takes them)."""
        return self.events.meet(patterns), min((int(self.events.lines(p).sum()) for p in patterns), default=0)

    def names_log(self, word: str) -> bool:
        """Whether `word` is part of a loaded file's name (as in "the Spark log")."""
        return word.lower() in self.sources

    def holders(self, name: str, columns: tuple[str, ...] = ("host", "component", "pid", "thread")
                ) -> list[tuple[str, str, int]]:
        """`(column, value, rows)` of the values `name` names: exactly (any case), else by the name before a
        qualifier (`sshd` for `sshd(pam_unix)`) or by a dotted part that names one value only
        (`RMContainerAllocator` for `org.apache...rm.RMContainerAllocator`)."""
        key = name.lower()
        for match in (_exact, _qualified, _dotted):
            found = [(c, v, n) for c in columns for v, n in self.values.get(c, {}).items() if match(v, key)]
            if match is _dotted and len({v for _, v, _ in found}) > 1:
                return []  # "spark" in spark.SecurityManager and spark.CacheManager names neither
            if found:
                return found
        return []

    def holds(self, name: str) -> bool:
        """Whether the rows hold `name` (any case): as a value or a part of one, or in the sampled messages."""
        return bool(self.holders(name, NAME_COLUMNS)) or any(name.lower() in line for line in self.sample)

    def in_names(self, pattern: str) -> bool:
        """Whether the regex `pattern` (ignoring case) also finds a value of the name columns, which a search of
        the lines keeps though the sampled messages do not show it ("\\bboot" finds the component "boot_cmd");
        False for a pattern Python cannot read."""
        try:
            found = re.compile(pattern, re.I).search
        except re.error:
            return False
        return any(found(v) for column in NAME_COLUMNS for v in self.values.get(column, {}))

    def names(self) -> list[str]:
        """The names a misspelt name may be read as: values of the name columns as written, then message words."""
        values = [v for c in NAME_COLUMNS for v in self.values.get(c, {})]
        return list(dict.fromkeys(values + list(self.tokens)))

    def words(self) -> list[str]:
        """Every lower-case word the rows contain (names and message words), for spelling correction."""
        names = {w.lower() for vals in self.values.values() for v in vals for w in _WORD.findall(v)}
        return sorted(names | set(self.tokens))


def _exact(value: str, key: str) -> bool:
    return value.lower() == key


def _qualified(value: str, key: str) -> bool:
    return len(key) > 2 and re.split(r"[(\[@$:]", value.lower())[0] == key


def _dotted(value: str, key: str) -> bool:
    return len(key) > 3 and "." in value and key in value.lower().replace("$", ".").split(".")
