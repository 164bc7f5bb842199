"""Measures of numbers and shares: a statistic of a numeric field (grouped by the query's keys and bucket), a
rate (a statistic of the lines per time bucket), a two-way breakdown and a share of all lines."""

from __future__ import annotations

import re
from typing import Any

from react_engine.compile.calls import Call, Cannot, call
from react_engine.compile.narrowing import compile_filter
from react_engine.lexicon.time_units import TIME_KEYS
from react_engine.question.measures import Pivot, Rate, Share, Statistic
from react_engine.question.query import FieldFilter, Filter, LevelFilter, Query, TextFilter, TimeFilter
from react_engine.question.reading.threshold_words import is_threshold
from react_engine.tools.shares import ShareParams
from react_engine.tools.statistics import FieldStatsParams

_WORD = re.compile(r"\\b(\w+)")


UNRANKED = Cannot("a percentile without its rank (ask for one by number: p95, the 99th percentile)")


def unranked(measure: Statistic | Rate | None) -> bool:
    """Whether `measure` is a percentile whose rank the question does not give ("the percentile of latency")."""
    return measure is not None and measure.func == "percentile" and measure.q is None


def func_of(measure: Statistic | Rate) -> str:
    return f"p{measure.q:g}" if measure.func == "percentile" and measure.q is not None else measure.func


def field_named(query: Query, measure: Statistic) -> str:
    """The field as the question names it, with a word a search kept beside it ("bytes" + "sent": `bytes sent`);
    unnamed, the words of the searches ("the average of 'bytes result sent to driver'")."""
    words = _kept_words(query)
    if not measure.field and not words:
        words = _searched_words(query)
    return " ".join([measure.field, *words])


def _kept_words(query: Query) -> list[str]:
    """The words the query's searches keep as whole words (`\\bsent`)."""
    return [m.group(1) for f in query.filters if isinstance(f, TextFilter) and f.regex
            and (m := _WORD.fullmatch(f.value))]


def _searched_words(query: Query) -> list[str]:
    """The texts the query's plain searches look for."""
    return [f.value for f in query.filters if isinstance(f, TextFilter) and not f.regex and not f.exclude]


def _grouped(query: Query, by: list[str]) -> dict[str, Any]:
    """The `by` and `order` parameters of a measure grouped by `by` (neither when it is not grouped)."""
    order = {"least": "asc", "most": "desc"}.get(query.order or "")
    return ({"by": by} if by else {}) | ({"order": order} if order and by else {})


def compile_statistic(query: Query, measure: Statistic) -> list[Call] | Cannot:
    if unranked(measure):
        return UNRANKED
    if measure.spread and query.grouping.by():
        return Cannot(f"{measure.asked()} per {' and '.join(query.grouping.by())}")
    params = FieldStatsParams(field=field_named(query, measure), func=func_of(measure),
                              **_grouped(query, query.grouping.by()), **({"unit": measure.unit} if measure.unit else {}))
    if measure.spread:
        return [call(params, f"the lowest {measure.field or 'value'} of the matching lines"),
                call(params.model_copy(update={"func": "max"}), f"the highest {measure.field or 'value'} of the "
                                                                  "matching lines")]
    return [call(params, f"the {measure.asked()} of the matching lines")]


def compile_rate(query: Query, measure: Rate) -> list[Call] | Cannot:
    if unranked(measure):
        return UNRANKED
    params = FieldStatsParams(func=func_of(measure), per=measure.per, **_grouped(query, list(query.grouping.keys)))
    return [call(params, f"{measure.asked()}, every {measure.per} of the lines' span counted")]


def compile_pivot(query: Query, measure: Pivot) -> list[Call]:
    by = [TIME_KEYS.get(k.lower(), k) for k in (measure.rows, measure.columns)]
    return [call(FieldStatsParams(func="count", by=by), f"lines per {measure.rows} and {measure.columns}")]


def compile_share(query: Query, measure: Share) -> list[Call] | Cannot:
    """The filters, the lines counted last, then their share of the lines the others keep ("the error rate of
    api.payments today": the errors among api.payments' lines of today), per group when the query has them."""
    groups = query.grouping.by()
    if (refused := _unshared(measure, groups)) is not None:
        return refused
    counted, scope = (list(query.filters), []) if measure.of_all else _based(query.filters, measure.base) \
        if measure.base else _counted(query.filters)
    if measure.base and not (counted and scope):
        return Cannot(f"a percentage of the lines {' '.join(measure.base)}")
    if len(counted) > 1 and scope:
        return Cannot(f"a percentage of the lines {', '.join(f.words for f in scope)}")
    base = "previous" if scope else "all"
    per = f" per {' and '.join(groups)}" if groups else ""
    share = call(ShareParams(base=base, by=groups), f"the matching lines as a share of the {base} lines{per}")
    return [compile_filter(f) for f in [*scope, *query.left_out, *counted]] + [share]


def _unshared(measure: Share, groups: list[str]) -> Cannot | None:
    """Why a share cannot be compiled: a ratio, or a percentage of lines the question names apart."""
    if measure.ratio:
        return Cannot("a ratio" + (f" per {' and '.join(groups)}" if groups else ""))
    return None


def _based(filters: tuple[Filter, ...], base: tuple[str, ...]) -> tuple[list[Filter], list[Filter]]:
    """The filters that pick the lines a share counts, and those the share's base words name ("what share of
    failed password came from 10.0.0.1": the lines from 10.0.0.1 among those containing "failed password")."""
    named = " ".join(base).lower()
    scope = [f for f in filters if not isinstance(f, TimeFilter) and _names(named, f)]
    return [f for f in filters if f not in scope and not isinstance(f, TimeFilter)], \
        [f for f in filters if f in scope or isinstance(f, TimeFilter)]


def _names(words: str, f: Filter) -> bool:
    """Whether `words` name the filter: each word of its value (a level: its name) begins a word of them."""
    value = " ".join(f.levels or [f.min_level or ""]) if isinstance(f, LevelFilter) else str(getattr(f, "value", ""))
    named = re.findall(r"[a-z]{2,}", value.lower().replace("\\b", " "))
    return bool(named) and all(re.search(r"\b" + re.escape(w[:4]), words) for w in named)


def _counted(filters: tuple[Filter, ...]) -> tuple[list[Filter], list[Filter]]:
    """The filters that pick the lines a share counts, and those that pick the lines it is a share of: a threshold
    is counted within the other filters ("what percent of errors took over 500 ms"); levels and searches within the
    time and field filters; without either, field filters within the time; else the time filters themselves, of
    all lines."""
    for counts in (is_threshold, lambda f: isinstance(f, (LevelFilter, TextFilter)),
                   lambda f: isinstance(f, FieldFilter), lambda f: isinstance(f, TimeFilter)):
        counted = [f for f in filters if counts(f)]
        if counted:
            return counted, [f for f in filters if f not in counted]
    return [], []
