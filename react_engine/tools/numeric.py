"""The numeric fields of the loaded rows and their values over the current rows, for the measuring tools.

A numeric field is a numeric column (a JSON number, an access log's `bytes`) or a number found in messages (see
`react_engine.logs.fields`), read from the current rows only when a tool asks for it. Values are gathered
as a narrow frame (the group keys, the time bucket, `value`) per partition, so a Dask frame sends back only that.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from react_engine.errors import ToolError
from react_engine.lexicon.entity_words import KEY_ALIASES
from react_engine.lexicon.measure_units import (
    DURATION_NAMES,
    DURATION_WORDS,
    NAME_SUFFIX_UNITS,
    SIZE_UNITS,
    SIZE_WORDS,
)
from react_engine.logs.fields import NumericField, discover, fold, pair_named, read, written_units
from react_engine.logs.kept import Kept
from react_engine.logs.schema import INTERNAL_COLUMNS
from react_engine.logs.stored import field_values
from react_engine.rows.rowops import Rows, is_lazy
from react_engine.tools.catalogued import catalog, catalogued, field_text, messages_sample
from react_engine.tools.located import holds_everywhere, located
from react_engine.tools.registry import ToolContext

_NOT_MEASURES = ("line",)
_OF_LINES = re.compile(r"\s+(?:of|for|across|over)\s+(?:the\s+|all\s+)?(?:requests?|responses?|calls?|lines?|entries"
                       r"|rows?|events?|messages?)\s*$", re.I)  # the lines a field is asked of, not its name
UNREADABLE = "unreadable"  # a gathered frame's attrs: how many values were too large to read (left out)
WRITTEN = "written"  # ... and the units the lines it read a size of the messages from write it in (see `as_written`)
_FIELDS: Kept[tuple[NumericField, ...]] = Kept(1)  # the fields each live frame's sampled messages carry


@dataclass(frozen=True)
class Numeric:
    """A numeric field as the tools read it: a column, or a `NumericField` of the messages."""

    name: str
    unit: str
    column: str | None = None
    field: NumericField | None = None
    text: bool = False  # a group key of the messages' values as written (a pattern field: `from`, `user`)

    def values(self, part: pd.DataFrame, frame: pd.DataFrame | None = None) -> pd.Series:
        """Its values in `part` as read (NaN where a row has none, inf where a number is too large for a float:
        see `readable`); a message field's taken from those stored for a large cached file when `part` is a subset
        of `frame`, the rows as loaded (see `logs.stored`)."""
        if self.column is not None:
            return pd.to_numeric(part[self.column], errors="coerce").astype(float)
        assert self.field is not None
        if self.text:
            return field_text(part, self.field)
        return read(part["message"], self.field) if frame is None else field_values(frame, part, self.field)


def readable(values: pd.Series) -> tuple[pd.Series, int]:
    """`values` with the numbers too large to read (`1` and 400 zeros overflows a float to inf) made NaN, as if
    the rows held none, and how many there were: a statistic over them would be inf or NaN."""
    finite = np.isfinite(values.to_numpy(dtype=float, na_value=np.nan))
    unreadable = int(len(values) - finite.sum() - values.isna().sum())
    return (values.where(finite) if unreadable else values), unreadable


def unreadable_note(unreadable: int, name: str) -> str | None:
    """The caveat an answer carries when values were left out as unreadable, or None when none were."""
    if not unreadable:
        return None
    values = "value was" if unreadable == 1 else "values were"
    return f"{unreadable:,} {name} {values} too large to read, left out"


def _unit_named(name: str) -> str:
    """The unit a name ends in (`latency_ms` -> ms), seconds for a bare time's name (`time`, `elapsed`), or ""."""
    lower = name.lower()
    if lower in DURATION_NAMES:
        return "s"
    return next((unit for suffix, unit in NAME_SUFFIX_UNITS if lower.endswith(suffix)), "")


def message_fields(ctx: ToolContext) -> tuple[NumericField, ...]:
    """The fields the messages carry: the run's, else found once in a sample of the frame's messages."""
    if ctx.fields is not None:
        return ctx.fields()
    found = _FIELDS.get((ctx.frame,), "fields")
    if found is None:
        found = discover(messages_sample(ctx.frame))
        _FIELDS.put((ctx.frame,), "fields", found)
    return found


def numeric_fields(ctx: ToolContext) -> list[Numeric]:
    """Every numeric field: the numeric columns, then the messages' fields (a column's name wins)."""
    columns = [str(c) for c, kind in ctx.frame.dtypes.items() if _measurable(c, kind)]
    found = [Numeric(c, _unit_named(c), column=c) for c in columns]
    taken = {fold(c) for c in columns}
    found += [Numeric(f.name, f.unit or _unit_named(f.name), field=f) for f in message_fields(ctx)
              if fold(f.name) not in taken]
    return found


def _measurable(column: object, kind: object) -> bool:
    """A column of numbers to measure: no bookkeeping column, no line number, no flag."""
    return column not in INTERNAL_COLUMNS and column not in _NOT_MEASURES and pd.api.types.is_numeric_dtype(kind) \
        and not pd.api.types.is_bool_dtype(kind)


def listing(fields: list[Numeric]) -> str:
    return ", ".join(f"{f.name} ({f.unit})" if f.unit else f.name for f in fields) or "none"


def resolve(ctx: ToolContext, asked: str) -> Numeric:
    """The numeric field `asked` names: by a `key=value` pair its first words name (`pid=2227` for "pid acquire
    lock": ids and ports are no field until a question names one), else by name (any case, `_` or space alike), by
    the name its words start with (the question's field before the words of its searches: `free` for "free memory
    limit"), by the name's words when the other words hold on every current row (a field named `time` for
    "response time"), by the words beside a number in the current rows (`located`: "brightness target" in
    `brightness: target=38`), by a name it starts (`latency` for `latency_ms`), or by its unit (the one field in
    bytes, or named `bytes`, for "bytes" or "size"; in seconds for "duration"); ToolError naming the fields there
    are otherwise; last, a field of the messages' patterns of that name whose values are numbers (see
    `logs.field_catalog`)."""
    fields = numeric_fields(ctx)
    asked = _OF_LINES.sub("", asked) or asked  # "latency of requests": the latency
    key = fold(asked)
    words = set(key.split())
    messages = _sampled_messages(ctx)
    named = _named(asked, key, words, fields)
    pair = _pair_leading(key, messages)
    if pair is not None and (named is None or not (key + " ").startswith(fold(named.name) + " ")):
        return pair  # "pid acquire lock": the `pid=2227` the lines write, not their `lock=` field
    if named is not None and _carried(named, messages) and holds_everywhere(asked, named.name, messages):
        return named
    if (near := located(asked, messages)) is not None:
        return Numeric(near.name, near.unit, field=near)
    found = _by_name(asked, key, words, fields) or _misspelt(key, fields) or _pattern_number(ctx, asked)
    if found is not None:
        return found
    raise ToolError(f"no numeric field {asked!r} in these logs; numeric fields: {listing(fields)}")


def _pattern_number(ctx: ToolContext, asked: str) -> Numeric | None:
    """The field of the messages' patterns named `asked` when its values are numbers, or None."""
    field = catalog(ctx).numeric_field(asked) if "message" in ctx.frame.columns else None
    return None if field is None else Numeric(field.name, field.unit or _unit_named(field.name), field=field)


def _named(asked: str, key: str, words: set[str], fields: list[Numeric]) -> Numeric | None:
    """The field named `key` (folded), else the longest one its words start with, else the longest one named by
    some of its words; None when none is."""
    return _first(asked, fields, ((lambda f: fold(f.name) == key, True),
                                  (lambda f: key.startswith(fold(f.name) + " "), False),
                                  (lambda f: set(fold(f.name).split()) <= words, False)))


def _pair_leading(key: str, messages: list[str]) -> Numeric | None:
    """The `key=value` number the messages write under the longest run of `key`'s first words, or None."""
    words = key.split()
    holding = [m for m in messages if words and words[0] in m.lower()]  # each run starts with the first word
    for n in range(len(words), 0, -1):
        if (pair := pair_named(" ".join(words[:n]), holding)) is not None:
            return Numeric(pair.name, pair.unit or _unit_named(pair.name), field=pair)
    return None


def _by_name(asked: str, key: str, words: set[str], fields: list[Numeric]) -> Numeric | None:
    """The field named `key` (folded), else the one named by all its words, else the one whose name it starts,
    else the one in the unit it names; None when none is."""
    unit = _unit_asked(words)
    return _first(asked, fields, ((lambda f: fold(f.name) == key, True),
                                  (lambda f: set(fold(f.name).split()) <= words, True),
                                  (lambda f: fold(f.name).startswith(key) or fold(f.name).replace(" ", "").startswith(
                                      key), True),
                                  (lambda f: f.unit == unit or fold(f.name) == unit, True)))


def _first(asked: str, fields: list[Numeric], rules: tuple[tuple[Callable[[Numeric], bool], bool], ...]
           ) -> Numeric | None:
    """The field the first rule that finds one finds (see `_one`; `strict` with each rule), or None."""
    for match, strict in rules:
        found = _one(asked, [f for f in fields if match(f)], strict)
        if found is not None:
            return found
    return None


def _one(asked: str, found: list[Numeric], strict: bool = True) -> Numeric | None:
    """The one field of `found`, or the one with the longest name; None when there is none, and when several
    share the longest name a ToolError (None when not `strict`)."""
    if not found:
        return None
    longest = max(len(fold(f.name)) for f in found)
    best = [f for f in found if len(fold(f.name)) == longest]
    if len(best) == 1:
        return best[0]
    if strict:
        raise ToolError(f"{asked!r} may be any of {listing(found)}: name one")
    return None


def _sampled_messages(ctx: ToolContext) -> list[str]:
    """The distinct messages of an even sample of the current rows."""
    if "message" not in ctx.rows.columns:
        return []
    return list(pd.unique(messages_sample(ctx.rows).to_numpy()))


def _carried(numeric: Numeric, messages: list[str]) -> bool:
    """Whether a sampled current row carries the field (a column always does)."""
    return numeric.field is None or bool(read(pd.Series(messages, dtype=object), numeric.field).notna().any())


def _misspelt(key: str, fields: list[Numeric]) -> Numeric | None:
    """The one field whose name `key` misspells ("tiem" for `time`, "latncy_ms" for `latency_ms`), or None."""
    names = {fold(f.name): f for f in fields}
    close = difflib.get_close_matches(key, list(names), n=2, cutoff=0.74)
    if len(close) == 1 or (len(close) == 2 and difflib.SequenceMatcher(None, key, close[0]).ratio()
                           > difflib.SequenceMatcher(None, key, close[1]).ratio()):
        return names[close[0]]
    return None


def _unit_asked(words: set[str]) -> str:
    if words & SIZE_WORDS:
        return "bytes"
    if words & DURATION_WORDS:
        return "s"
    return "-"  # no unit


Key = str | Numeric  # a group key: a column, or a number the messages carry ("status: 404")


def key_column(ctx: ToolContext, name: str) -> Key:
    """The column a group key names (any case, or a name in KEY_ALIASES), else the one number of that name the
    messages carry (OpenStack's `status: 404`), else the field of the messages' patterns of that name (its values
    as written); ToolError listing the columns otherwise."""
    folded = {str(c).lower(): str(c) for c in ctx.frame.columns if c not in INTERNAL_COLUMNS}
    wanted = name.strip().lower()
    found = folded.get(wanted) or folded.get(KEY_ALIASES.get(wanted, wanted))
    if found is not None:
        return found
    carried = [f for f in numeric_fields(ctx) if f.field is not None and fold(f.name) in (
        fold(wanted), fold(KEY_ALIASES.get(wanted, wanted)))]
    if len(carried) != 1 and (pattern_field := catalogued(ctx, wanted)) is not None:
        return Numeric(pattern_field.name, "", field=pattern_field, text=True)
    if len(carried) != 1:
        raise ToolError(f"no column {name!r} to group by; columns are: {', '.join(folded.values())}")
    return carried[0]


def key_name(key: Key) -> str:
    return key if isinstance(key, str) else key.name


def _narrow(part: pd.DataFrame, numeric: Numeric | None, keys: list[Key], width: pd.Timedelta | None,
            frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """The keys (as text, or the categoricals they are, which group without hashing; a number as its text), the
    bucket and the value of each row of `part` that has them (see `Numeric.values` for `frame`)."""
    out, unreadable = pd.DataFrame(index=part.index), 0
    for key in keys:
        if isinstance(key, Numeric) and key.text:
            out[key.name] = key.values(part)
            continue
        if isinstance(key, Numeric):
            held, bad = readable(key.values(part, frame))
            out[key.name] = held.map(lambda v: None if pd.isna(v) else plain(v)).astype(object)
            unreadable += bad
            continue
        column = part[key]
        out[key] = column if _categorical(column) else column.astype("object").where(column.notna(), None)
    if width is not None:
        out["bucket"] = part["timestamp"].dt.floor(width)
    if numeric is not None:
        out["value"], bad = readable(numeric.values(part, frame))
        unreadable += bad
    else:
        out["value"] = 1.0
    held = out.notna().all(axis=1).to_numpy()
    out = out.dropna()
    if numeric is not None and numeric.field is not None and numeric.unit == "bytes":
        out.attrs[WRITTEN] = written_units(part["message"][held], numeric.field)
    for key in map(key_name, keys):  # a category no row holds is no group
        if _categorical(out[key]):
            out[key] = _used(out[key])
    out.attrs[UNREADABLE] = unreadable
    return out


def _categorical(column: pd.Series) -> bool:
    return isinstance(column.dtype, pd.CategoricalDtype)


def _used(column: pd.Series) -> pd.Series:
    """A categorical with only the categories its rows hold (counted, where pandas would hash every row)."""
    codes = column.cat.codes.to_numpy()
    present = np.bincount(codes + 1, minlength=len(column.cat.categories) + 1)[1:] > 0
    if present.all():
        return column
    renumber = np.append(np.cumsum(present) - 1, -1)  # code -1 (no value) stays -1
    kept = pd.Categorical.from_codes(renumber[codes], column.cat.categories[present])
    return pd.Series(kept, index=column.index, name=column.name)


def grouped_statistic(data: pd.DataFrame, keys: list[str], func: str) -> pd.Series:
    """`statistic` of `data["value"]` per group of `keys` (indexed by the keys' values); categorical keys are
    grouped by one integer made of their codes, several times faster than pandas groups categoricals."""
    columns = [data[k] for k in keys]
    if not all(_categorical(c) for c in columns):
        return statistic(data.groupby(keys, observed=True)["value"], func)
    ids = np.zeros(len(data), np.int64)
    for column in columns:
        ids = ids * len(column.cat.categories) + column.cat.codes.to_numpy()
    result = statistic(data["value"].groupby(ids), func)  # in the order of the codes, as pandas groups them
    labels: list[pd.Index] = []
    rest = result.index.to_numpy()
    for column in reversed(columns):
        size = len(column.cat.categories)
        labels.insert(0, column.cat.categories[rest % size])
        rest = rest // size
    result.index = pd.MultiIndex.from_arrays(labels, names=keys) if len(keys) > 1 else pd.Index(labels[0],
                                                                                               name=keys[0])
    return result


def gather(rows: Rows, numeric: Numeric | None, keys: list[Key], width: pd.Timedelta | None,
           frame: Rows | None = None) -> pd.DataFrame:
    """`_narrow` over every row (per partition on a Dask frame, brought back as one pandas frame); `frame`, every
    loaded row, lets a message field's values be read from those stored for a cached file. Its attrs[UNREADABLE]
    is how many values were left out as too large to read."""
    if not is_lazy(rows):
        return _narrow(rows, numeric, keys, width, None if frame is None or is_lazy(frame) else frame)
    from react_engine.dask import ops

    parts = ops.per_partition(lambda part: _narrow(part, numeric, keys, width), rows)
    if not parts:
        return _narrow(rows._meta, numeric, keys, width)
    out = pd.concat(parts)
    out.attrs[UNREADABLE] = sum(part.attrs.get(UNREADABLE, 0) for part in parts)
    if numeric is not None and all(part.attrs.get(WRITTEN) is not None for part in parts):
        out.attrs[WRITTEN] = frozenset().union(*(part.attrs[WRITTEN] for part in parts))
    return out


def as_written(data: pd.DataFrame, unit: str) -> tuple[pd.DataFrame, str]:
    """Gathered `data` with its values in the one size unit its lines write them in ("free: 95746.00 MB": MB, as
    the lexicon's factor reads it), and that unit; as gathered, in `unit`, when they write several units or bytes."""
    written = data.attrs.get(WRITTEN) or frozenset()
    factors = {SIZE_UNITS.get(w.lower(), 1) for w in written}  # "" is a size read without a unit: bytes
    if len(factors) != 1 or (factor := factors.pop()) == 1:
        return data, unit
    out = data.assign(value=data["value"] / factor)
    out.attrs = dict(data.attrs)
    return out, min(written)


def statistic(values: Any, func: str) -> Any:
    """`func` of `values` (a series or a grouping of one): count, sum, mean, median, min, max, stddev or `pN`, the
    Nth percentile (linear interpolation, as numpy's default)."""
    if func.startswith("p"):
        return values.quantile(float(func[1:]) / 100)
    if func == "stddev":
        return values.std(ddof=0)
    return getattr(values, func)()


PLAIN_DIGITS = 6
"""Significant digits a computed fraction keeps; a number with more digits before the point keeps them all and one
after it (an average of 63,655,148.4 bytes is that, not 63,655,100)."""


def plain(number: float) -> float | int:
    """A JSON number: integral values as int, others rounded to PLAIN_DIGITS significant digits, never fewer than
    the digits before the point and one after it."""
    if not np.isfinite(number):
        return number
    if float(number).is_integer() and abs(number) < 2**53:
        return int(number)
    if abs(number) >= 10 ** (PLAIN_DIGITS - 1):
        return round(float(number), 1)
    return float(f"{number:.{PLAIN_DIGITS}g}")


def unit_text(unit: str) -> str:
    return f" {unit}" if unit else ""

