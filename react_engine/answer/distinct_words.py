"""The answer to distinct values of one key per value of another ("which user has the most distinct ports"): the
leader, or those tied with it, or the values ranked with those tied at the cut, every number the tool's."""

from __future__ import annotations

from typing import Any

from react_engine.contract.planner import HistoryItem
from react_engine.question.asking import singular
from react_engine.question.measures import Key, Top
from react_engine.tools.results import DistinctRanking, Scalar


def by_distinct(key: Key, distinct: Key, found: tuple[HistoryItem, DistinctRanking] | None, where: str,
                measure: Top) -> tuple[str, Any] | None:
    """The sentence and value of a ranking by distinct values; None when no step computed one."""
    if found is None:
        return None
    ranked, most = found[1], "fewest" if measure.least else "most"
    counted = f"distinct {distinct.shown()}"
    if not ranked.pairs:
        return f"No {key.shown()}{where} hold any {distinct.shown()}.", []
    if measure.single:
        return _leader(ranked, f"the {most} {counted}", where)
    shown = ", ".join(f"{_named(ranked.field, v)} ({c:,})" for v, c in ranked.pairs)
    label = key.shown()
    head = f"{label[0].upper()}{label[1:]} with the {most} {counted}{where}, of {ranked.values:,} holding any"
    return f"{head}: {shown}{_tied(ranked)}.", [[v, c] for v, c in ranked.pairs]


def _leader(ranked: DistinctRanking, what: str, where: str) -> tuple[str, Any]:
    """The value with the most (fewest) distinct values, or the values tied with it."""
    value, number = ranked.pairs[0]
    if not ranked.tied:
        return f"{_named(ranked.field, value)} has {what}{where}: {number:,}.", value
    tied = [value, *ranked.tied]
    names = " and ".join(", ".join(_named(ranked.field, v) for v in tied).rsplit(", ", 1))
    named = f" ({ranked.tied_count:,} tie with {_named(ranked.field, value)}, the first in text order named)" \
        if ranked.tied_count > len(ranked.tied) else ""
    return f"{names} tie with {what}{where}, {number:,} each{named}.", tied


def _tied(ranked: DistinctRanking) -> str:
    """"; tied with the last at 7: a, b" (the values the tool names), or "" when none is."""
    if not ranked.tied:
        return ""
    names = ", ".join(_named(ranked.field, v) for v in ranked.tied)
    return f"; tied with the last at {ranked.pairs[-1][1]:,}: {names}{_more(ranked)}"


def _more(ranked: DistinctRanking) -> str:
    """How many tie at the cut, when the tool named only some of them."""
    return f" ({ranked.tied_count:,} tie at the cut, the first in text order named)" \
        if ranked.tied_count > len(ranked.tied) else ""


def _named(field: str, value: Scalar) -> str:
    """A value as the answer names it: after its field's singular name when it is a number ("port 22")."""
    return f"{singular(field)} {value}" if str(value).isdigit() else str(value)
