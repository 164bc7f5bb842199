"""Measures of the values the matching lines hold: how many distinct ones, which have the most lines, and those
of the first or last lines."""

from __future__ import annotations

from react_engine.compile.calls import Call, call
from react_engine.question.measures import Distinct, Key, Never, Ordered, Top
from react_engine.question.query import Query
from react_engine.tools.entities import CountEntitiesParams, ExtractEntitiesParams
from react_engine.tools.never_seen import NeverSeenParams
from react_engine.tools.stats import MAX_TOP, TopValuesParams
from react_engine.tools.times import OrderedValuesParams


def extraction(key: Key) -> list[Call]:
    """The call that finds the values of `key` first, when they must be extracted (none otherwise)."""
    label = key.shown()
    if key.pattern is not None:
        return [call(ExtractEntitiesParams(types=[], pattern=key.pattern, name=key.name), f"find the {label}")]
    return [call(ExtractEntitiesParams(types=[key.name]), f"find the {label}")] if key.extract else []


def distinct(key: Key) -> Call:
    return call(CountEntitiesParams(type=key.name, unique=True), f"count the distinct {key.shown()}")


def ranked(key: Key, n: int, least: bool = False, distinct: Key | None = None) -> Call:
    """The call ranking the values of `key` by their lines, or by the distinct values of `distinct` they hold."""
    params = TopValuesParams(field=key.name, n=min(n, MAX_TOP), **({"order": "asc"} if least else {}),
                             **({"distinct": distinct.name} if distinct is not None else {}))
    by = f"the distinct {distinct.shown()} on their lines" if distinct is not None else "their number of lines"
    return call(params, f"rank the {key.shown()} by {by}{', fewest first' if least else ''}")


def compile_distinct(query: Query, measure: Distinct) -> list[Call]:
    return [distinct(measure.key)]


def compile_top(query: Query, measure: Top) -> list[Call]:
    return [ranked(measure.key, measure.n, measure.least, measure.distinct)]


def compile_ordered(query: Query, measure: Ordered) -> list[Call]:
    which = "first" if measure.which == "oldest" else "last"
    return [call(OrderedValuesParams(field=measure.key.name, n=measure.n, order=measure.which),
                 f"the {measure.key.shown()} of the {which} matching lines")]


def compile_never(query: Query, measure: Never) -> list[Call]:
    params = NeverSeenParams(field=measure.key.name, never=measure.never, never_regex=measure.regex,
                             never_level=measure.level, pattern=measure.key.pattern)
    return [call(params, f"the {measure.key.shown()} that never {measure.words}")]


def listed_values(key: Key, limit: int) -> list[Call]:
    """How many distinct values, and the `limit` with the most lines."""
    return [distinct(key), ranked(key, limit)]
