"""Wording the answer to a statistic, a breakdown, a share or a comparison from what the measuring tools computed:
every number in it is one a tool returned, with its unit and the rows it covers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from react_engine.contract.planner import HistoryItem
from react_engine.question.measures import BUCKET_WORDS, Comparison, Measure, Pivot, Rate, Share, Statistic
from react_engine.tools.statistics import left_words

MEASURING_TOOLS = ("field_stats", "share", "compare")


def _unit(value: dict[str, Any]) -> str:
    return f" {value['unit']}" if value.get("unit") else ""


def measure_answer(measure: Measure, history: list[HistoryItem], where: str,
                   first: int | None = None) -> tuple[str, Any] | None:
    """The sentence and value for a measure of numbers, or None when the last step is no measuring tool's
    (`first`: the groups a ranking by the measure asks for, "which service has the lowest average")."""
    if not history or history[-1].action not in MEASURING_TOOLS or not isinstance(history[-1].value, dict):
        return None
    last, params = history[-1].value, history[-1].params
    if isinstance(measure, Share) and "percent" in last:
        return (f"{last['percent']:g}% of the lines{where}: {last['rows']:,} of {last['of']:,}.", last["percent"])
    if isinstance(measure, Share) and "percent" in last.get("columns", []):
        return _shares(last, where, _bucket(params)), _grouped(last, "percent")
    if isinstance(measure, Comparison) and "a" in last:
        return _compared(measure, last)  # the scope would state the window the comparison replaced
    if not isinstance(measure, (Statistic, Pivot, Rate)):
        return None
    return _numbers(measure, history[-1], where, first)


def _numbers(measure: Statistic | Pivot | Rate, step: HistoryItem, where: str,
             first: int | None) -> tuple[str, Any]:
    """A statistic's, a rate's or a breakdown's sentence and value, from field_stats' `step`."""
    last, params = step.value, step.params
    if last.get("rows") == 0:
        what = "a time" if isinstance(measure, Rate) else params.get("field") or "a value"
        return f"No line{where} carries {what}, so there is no {measure.asked()}.", None
    if isinstance(last.get("columns"), list):
        return _table_answer(measure, step, where, first)
    number = last.get(str(params.get("func", "mean")))
    if isinstance(measure, Rate):
        return _rate(measure, last, number, where), number
    return (f"{measure.asked().capitalize()} is {number:,}{_unit(last)} over {last['rows']:,} lines{where}.", number)


def _rate(measure: Rate, value: dict[str, Any], number: Any, where: str) -> str:
    """A rate, with the buckets it is over, the time they span and the lines counted ("... is 6.5 (with severity
    error), over 24 hours from ... to ...: 156 errors in all"); a maximum or minimum names its first bucket."""
    word, n = BUCKET_WORDS.get(measure.per), value["buckets"]
    buckets = f"{n:,} {word}{'s' if n != 1 else ''}" if word else f"{n:,} buckets of {measure.per}"
    at = f"; the first {word or 'bucket'} with it starts at {value['at']}" if "at" in value else ""
    asked = measure.asked()  # as written: the noun may be a level in capitals ("FATAL events")
    return (f"{asked[:1].upper()}{asked[1:]} is {number:,}{where}, over {buckets} from {value['from']} to "
            f"{value['to']}: {value['counted']:,} {measure.noun} in all{at}.")


def _table_answer(measure: Measure, step: HistoryItem, where: str, first: int | None) -> tuple[str, Any]:
    """A grouped statistic's groups (the `first` of them when a ranking asks for them), or a two-way table's."""
    table, params = step.value, step.params
    func = str(params.get("func", "mean"))
    if (grouped := _grouped(table, func)) is None:
        cells = _cells(table)
        left = table.get("left_out") or {}
        said = [f"its most frequent values only, {left_words(left)} values left out"] if left else []
        said += ["the whole table is too large to state"] if "cells" in table and cells is None else []
        only = f" ({': '.join(said)})" if said else ""
        return f"{measure.asked().capitalize()}{where}: see the table below{only}.", cells
    if first is not None and params.get("order"):
        return _leading(measure, table, func, where, first, params["order"] == "asc", _bucket(params))
    return _by_group(measure, table, func, where), grouped


def _cells(table: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """A two-way table (its last column the rows' totals) as {row value: {column value: cell}}, empty cells left
    out, every cell of it when the table shown leaves values out (None when there are too many to state); None for
    a table of another shape."""
    columns, rows = table["columns"], table.get("rows") or []
    if len(columns) < 3 or columns[-1] != "total":
        return None
    if "cells" in table:
        return table["cells"]
    return {str(row[0]): {str(c): cell for c, cell in zip(columns[1:-1], row[1:-1]) if cell is not None}
            for row in rows}


_SHOWN = 5  # groups a statistic's answer names (the table lists them all)


def _grouped(table: dict[str, Any], func: str) -> dict[str, Any] | None:
    """A statistic by one key or bucket as {group: value}, by a key and a bucket as {key: {bucket: value}}; None
    for a table of another shape."""
    columns, rows = table["columns"], table.get("rows") or []
    at = columns.index(func) if func in columns else 0
    if at == 1:
        return {str(row[0]): row[1] for row in rows}
    if at == 2:
        out: dict[str, dict[str, Any]] = {}
        for row in rows:
            out.setdefault(str(row[0]), {})[str(row[1])] = row[2]
        return out
    return None


def _by_group(measure: Measure, table: dict[str, Any], func: str, where: str) -> str:
    """The statistic of the first groups the table lists, with how many there are."""
    at = table["columns"].index(func)
    shown = _first_groups(table, at, lambda row: f"{row[at]:,}{_unit(table)}")
    return f"{measure.asked().capitalize()}{where}, by {_group_names(table, at, 'time')}: {shown}."


def _first_groups(table: dict[str, Any], at: int, said: Callable[[list[Any]], str]) -> str:
    """The first groups a table lists, each named by its keys (the columns before `at`) and its numbers as `said`
    words them, and how many groups there are when it lists more."""
    rows = table.get("rows") or []
    shown = "; ".join(f"{_key(row, at)}: {said(row)}" for row in rows[:_SHOWN])
    groups = table.get("groups", len(rows))
    return shown + (f" (the table lists all {groups:,} groups)" if groups > _SHOWN else "")


def _group_names(table: dict[str, Any], at: int, bucket: str) -> str:
    """What a table's groups are of ("component and hour"): its key columns, the time bucket and level in words."""
    return " and ".join({"bucket": bucket, "level_raw": "level"}.get(c, c) for c in table["columns"][:at])


def _bucket(params: dict[str, Any]) -> str:
    """The time bucket a grouped measure's `by` names, in words ("hour"), or "bucket"."""
    return next((BUCKET_WORDS.get(b, "bucket") for b in params.get("by") or [] if b[:1].isdigit()), "bucket")


def _shares(table: dict[str, Any], where: str, bucket: str) -> str:
    """The share of the lines in each of the first groups, with both counts, and how many groups there are."""
    at = table["columns"].index("percent")
    shown = _first_groups(table, at, lambda row: f"{row[at]:g}% ({row[at + 1]:,} of {row[at + 2]:,})")
    return f"The share of the lines{where} in each {_group_names(table, at, bucket)}: {shown}."


def _key(row: list[Any], at: int) -> str:
    return " ".join(str(v) for v in row[:at])


def _said(columns: list[str], row: list[Any], at: int, bucket: str) -> str:
    """A group as the answer names it ("api.users", "the hour from 2026-11-20T00:00:00+00:00")."""
    return " ".join(f"the {bucket} from {v}" if c == "bucket" else str(v) for c, v in zip(columns[:at], row[:at],
                                                                                            strict=True))


def _leading(measure: Measure, table: dict[str, Any], func: str, where: str, first: int, low: bool,
             bucket: str) -> tuple[str, Any]:
    """The group (or the `first` groups) with the highest or, `low`, the lowest statistic: its name and value,
    the groups tied with it named too; the value is the group, or {group: statistic} of the first ones."""
    columns, rows = table["columns"], table.get("rows") or []
    at = columns.index(func)
    extreme = f"the {'lowest' if low else 'highest'} {measure.asked().removeprefix('the ')}"
    groups = f" (of {table.get('groups', len(rows)):,} groups)"
    if first > 1:
        listed = "; ".join(f"{_said(columns, r, at, bucket)}: {r[at]:,}{_unit(table)}" for r in rows[:first])
        return f"The {len(rows[:first])} with {extreme}{where}: {listed}{groups}.", \
            {_key(r, at): r[at] for r in rows[:first]}
    best = [row for row in rows if row[at] == rows[0][at]]
    named = " and ".join(_said(columns, r, at, bucket) for r in best)
    verb = "tie with" if len(best) > 1 else "has"
    text = f"{'T' + named[1:] if named.startswith('the ') else named} {verb} {extreme}{where}: " \
           f"{rows[0][at]:,}{_unit(table)}{groups}."
    return text, _key(best[0], at) if len(best) == 1 else [_key(r, at) for r in best]


def _compared(measure: Comparison, value: dict[str, Any]) -> tuple[str, Any]:
    a, b = value["a"], value["b"]
    if measure.ratio and "ratio" in value:
        return (f"{measure.left}: {a:,}{_unit(value)} to {measure.right}: {b:,}{_unit(value)}, a ratio of "
                f"{value['ratio']:,}."), value["ratio"]
    change = f", {value['percent_change']:+g}%" if "percent_change" in value else ""
    shown = (f"{measure.left}: {a:,}{_unit(value)} against {measure.right}: {b:,}{_unit(value)}"
             if a is not None and b is not None else f"{measure.left}: {a} against {measure.right}: {b}")
    difference = f" (a difference of {value['difference']:+,}{change})" if "difference" in value else ""
    return f"{shown}{difference}.", [a, b]
