"""The values of one field ranked by how many distinct values of another their rows hold: Splunk's `stats
dc(port) by user`, KQL's `summarize dcount(port) by user` (what `top_values` computes when given `distinct`), and
per time bucket (`count_by_time` given `distinct`).

Both fields' values are read by row label (a line may hold several of an entity type: each is paired with each
of the other's), so a value counts the distinct values written on its own lines only; a value whose lines hold
none of the other field is not ranked (it has 0).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from react_engine.rows.ranked import brief, jsonable, top
from react_engine.rows.rowops import count, value
from react_engine.tools.entities import field_values
from react_engine.tools.registry import ToolContext, ToolResult
from react_engine.tools.results import DistinctRanking

TIED_NAMED = 20  # the most values tied at the cut a ranking names


def distinct_pairs(keys: pd.Series, counted: pd.Series) -> pd.DataFrame:
    """The distinct (key, value) pairs written on the same row, `keys` and `counted` indexed by row label, with
    the first row label of each pair (`label`), in row order."""
    left = pd.DataFrame({"label": keys.index, "key": keys.to_numpy(dtype=object)})
    right = pd.DataFrame({"label": counted.index, "value": counted.to_numpy(dtype=object)})
    both = left.merge(right, on="label", sort=False)
    return both.drop_duplicates(["key", "value"], keep="first")


def ranked_by_distinct(ctx: ToolContext, field: str, distinct: str, n: int, least: bool) -> ToolResult:
    """The `n` values of `field` whose rows hold the most (`least`: the fewest) distinct `distinct` values, the
    values tied with the last named, and as evidence the first line of each distinct value of the first."""
    keys, name, kept = field_values(ctx, field)
    counted, of, also = field_values(ctx, distinct)
    keys, counted = value(keys), value(counted)
    pairs = distinct_pairs(keys, counted)
    per = pairs.groupby("key", sort=False).size()
    leaders = top(per, n, least=least)
    tied = _tied(per, leaders)
    evidence = pd.Index(pairs.loc[pairs["key"].map(jsonable) == leaders[0][0], "label"]).unique() if leaders else None
    cut = leaders[-1][1] if leaders else 0
    shown = ", ".join(f"{brief(v, 40)} ({c:,})" for v, c in leaders[:3]) or "none"
    more = f"; {len(tied):,} more tied at {cut:,}" if tied else ""
    result = DistinctRanking(field=name, distinct=of, order="asc" if least else "desc",
                             pairs=[(v, c) for v, c in leaders], tied=tied[:TIED_NAMED], tied_count=len(tied),
                             values=len(per))
    return ToolResult(value=result, entities={**(kept or {}), **(also or {})} or None, evidence=evidence,
                      summary=f"{'fewest' if least else 'most'} distinct {brief(of)} per {brief(name)} -> {shown}{more}"
                              f" of {len(per):,} {brief(name)} values in {count(ctx.rows):,} rows")


def _tied(per: pd.Series, leaders: list[list[Any]]) -> list[Any]:
    """The values past the cut of `leaders` with the same number as its last, in text order."""
    if not leaders:
        return []
    named = {v for v, _ in leaders}
    return sorted((jsonable(v) for v, c in per.items() if c == leaders[-1][1] and jsonable(v) not in named), key=str)


def distinct_per_bucket(ctx: ToolContext, buckets: pd.Series, distinct: str) -> pd.Series:
    """How many distinct `distinct` values the rows of each time bucket hold (bucket start -> number, by time);
    `buckets` each row's bucket start, by row label."""
    counted = value(field_values(ctx, distinct)[0])
    per = distinct_pairs(buckets, counted).groupby("key", sort=True).size()
    return per.set_axis(pd.DatetimeIndex(per.index)).rename("count")
