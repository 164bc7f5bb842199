"""A comparison -> one `compare` call: the question's filters that name neither side are applied first, and the
two sides are two time windows (today against yesterday, one named day against another), two levels, two values
of one column, or two searched texts, in the order the question names them."""

from __future__ import annotations

import re

import pandas as pd

from react_engine.compile.calls import Call, Cannot, call
from react_engine.compile.measuring import UNRANKED, field_named, func_of, unranked
from react_engine.compile.narrowing import compile_filter
from react_engine.lexicon.time_units import MONTH_ABBREVIATIONS
from react_engine.question.measures import Comparison
from react_engine.question.query import FieldFilter, Filter, LevelFilter, Query, TextFilter, TimeFilter
from react_engine.tools.filters import ResetFiltersParams
from react_engine.tools.regex import literal
from react_engine.tools.shares import CompareParams

_DAY = re.compile(r"\b(" + "|".join(MONTH_ABBREVIATIONS) + r")[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b", re.I)
Sides = tuple[str, str, str, list[Filter]]  # by, a, b, the filters left to apply first


def compile_comparison(query: Query, measure: Comparison) -> list[Call] | Cannot:
    """The filters common to both sides, then `compare`; `Cannot` when the sides are not two of one kind."""
    sides = _yesterday(query, measure) or _days(query, measure) or _values(query, measure)
    stat = measure.statistic
    if unranked(stat):
        return UNRANKED
    measured = {"field": field_named(query, stat), "func": func_of(stat)} if stat is not None else {}
    if sides is not None:
        by, a, b, common = sides
        compared = CompareParams(a=a, b=b, by=by, **measured), common
    elif (named := _named_sides(query, measured)) is not None:
        compared = named
    else:
        return Cannot(measure.asked())
    params, common = compared
    return [call(ResetFiltersParams(), "all lines: each side of the comparison is taken from them"),
            *[compile_filter(f) for f in common],
            call(params, f"the matching lines {measure.left} against {measure.right}")]


def _named_sides(query: Query, measured: dict[str, str]) -> tuple[CompareParams, list[Filter]] | None:
    """`compare` of the query's two sides, each as `_taken` takes it, after all of its filters; None when a side
    cannot be taken."""
    if query.sides is None:
        return None
    taken = [_taken(f) for f in query.sides]
    if not taken or None in taken:
        return None
    (by, a), (by_b, b) = taken  # type: ignore[misc]
    return CompareParams(a=a, b=b, by=by, by_b=by_b if by_b != by else None, **measured), list(query.filters)


def _taken(side: Filter) -> tuple[str, str] | None:
    """How `compare` takes one side's filter (by, value): a window, a searched text, a level or a column's value."""
    if side.exclude:
        return None
    match side:
        case TimeFilter():
            return "time", f"{side.start}..{side.end}"
        case TextFilter() if side.case_sensitive:
            return "regex", f"(?-i:{side.value if side.regex else literal(side.value)})"
        case TextFilter():
            return ("regex" if side.regex else "text"), side.value
        case LevelFilter() if len(side.levels) == 1 and not side.min_level:
            return "severity", side.levels[0]
        case FieldFilter() if side.op == "eq":
            return side.field, str(side.value)
    return None


def _window(query: Query) -> TimeFilter | None:
    return next((f for f in query.filters if isinstance(f, TimeFilter) and not f.exclude), None)


def _others(query: Query, *taken: Filter) -> list[Filter]:
    return [f for f in query.filters if all(f is not t for t in taken)]


def _yesterday(query: Query, measure: Comparison) -> Sides | None:
    """Today (the query's day window) against the day before."""
    window = _window(query)
    if window is None or "yesterday" not in measure.right.lower() or measure.key:
        return None
    start = pd.Timestamp(window.start)
    before = f"{(start - pd.Timedelta(days=1)).isoformat()}..{(start - pd.Timedelta(microseconds=1)).isoformat()}"
    return "time", f"{window.start}..{window.end}", before, _others(query, window)


def _days(query: Query, measure: Comparison) -> Sides | None:
    """One named day (the query's window) against another the right side names ("Dec 4 vs Dec 5")."""
    window, left, right = _window(query), _DAY.search(measure.left), _DAY.search(measure.right)
    if window is None or left is None or right is None or window.end == "now":
        return None
    start, end = pd.Timestamp(window.start), pd.Timestamp(window.end)
    named = [pd.Timestamp(year=start.year, month=MONTH_ABBREVIATIONS.index(m.group(1).lower()[:3]) + 1, day=int(m.group(2)))
             for m in (left, right)]
    if named[0].normalize() != start.normalize():
        return None
    shift = named[1] - named[0]
    other = f"{(start + shift).isoformat()}..{(end + shift).isoformat()}"
    return "time", f"{window.start}..{window.end}", other, _others(query, window)


def _named(value: str, side: str) -> bool:
    """Whether a side's words name `value` (its first word, any case; a level by its first four letters)."""
    word = re.search(r"\w+", value)
    return word is not None and re.search(r"\b" + re.escape(word.group(0)[:4].lower()), side.lower()) is not None


def _ordered(measure: Comparison, values: list[str]) -> tuple[str, str] | None:
    """The two values in the order the question names them, or None when the sides do not tell them apart."""
    if len(values) != 2:
        return None
    first, second = values
    if _named(first, measure.left) and _named(second, measure.right):
        return first, second
    if _named(second, measure.left) and _named(first, measure.right):
        return second, first
    return None


def _words(value: str) -> str:
    """A searched value as words, for telling which side names it (`/T3 time[- ]?out/` -> `T3 time out`)."""
    return re.sub(r"\\[bsdw]|[\\^$()\[\]?*+|{}]", " ", value).strip()


def _alternatives(pattern: str) -> list[str]:
    """`^(?:a|b\\.c)$` -> ["a", "b.c"]; [] for any other regex."""
    m = re.fullmatch(r"\^\(\?:(.*)\)\$", pattern)
    return [re.sub(r"\\(.)", r"\1", part) for part in m.group(1).split("|")] if m else []


def _values(query: Query, measure: Comparison) -> Sides | None:
    """Two levels, two values of one column, or two searched texts, each named by one side."""
    for f in query.filters:
        if isinstance(f, LevelFilter) and not f.exclude and not f.min_level and (
                pair := _ordered(measure, list(f.levels))):
            return "severity", *pair, _others(query, f)
        if isinstance(f, FieldFilter) and f.op == "regex" and (pair := _ordered(measure, _alternatives(str(f.value)))):
            return f.field, *pair, _others(query, f)
    return _two_values(query, measure) or _two_texts(query, measure)


def _two_values(query: Query, measure: Comparison) -> Sides | None:
    """Two values of one column; or one value, the other side naming another value of its column."""
    fields = [f for f in query.filters if isinstance(f, FieldFilter) and f.op == "eq" and not f.exclude]
    if (pair := _same_column(query, measure, fields)) is not None:
        return pair
    return _one_value(query, measure, fields[0]) if len(fields) == 1 else None


def _same_column(query: Query, measure: Comparison, fields: list[FieldFilter]) -> Sides | None:
    """The values of the first filtered column, when there are two of them and each side names one."""
    same = [f for f in fields if f.field == fields[0].field]
    if len(same) == 2 and (pair := _ordered(measure, [str(f.value) for f in same])):
        return same[0].field, *pair, _others(query, *same)
    return None


def _one_value(query: Query, measure: Comparison, named: FieldFilter) -> Sides | None:
    """The value the left side names against the value the right side's first word names, in the same column."""
    word = re.match(r"\w[\w.-]*", measure.right)
    if not _named(str(named.value), measure.left) or word is None:
        return None
    return named.field, str(named.value), word.group(0), _others(query, named)


def _two_texts(query: Query, measure: Comparison) -> Sides | None:
    """Two searched texts (as regexes when either is one)."""
    texts = [f for f in query.filters if isinstance(f, TextFilter) and not f.exclude and not f.case_sensitive]
    if len(texts) != 2:
        return None
    regex = any(f.regex for f in texts)
    searched = _searched(texts, regex)
    pair = _ordered(measure, list(searched))
    if pair is None:
        return None
    return "regex" if regex else "text", searched[pair[0]], searched[pair[1]], _others(query, *texts)


def _searched(texts: list[TextFilter], regex: bool) -> dict[str, str]:
    """Each searched text by its words, as a regex when `regex` (escaped where it was a plain text)."""
    return {_words(f.value): f.value if f.regex or not regex else re.escape(f.value) for f in texts}
