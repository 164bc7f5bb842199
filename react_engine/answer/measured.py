"""Wording the answer to a statistic, a breakdown, a share or a comparison from what the measuring tools computed:
every number in it is one a tool returned, with its unit and the rows it covers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

from react_engine.contract.planner import HistoryItem
from react_engine.lexicon.measure_units import SIZE_SCALES
from react_engine.question.measures import BUCKET_WORDS, Comparison, Measure, Pivot, Rate, Share, Statistic
from react_engine.tools import figures
from react_engine.tools.registry import ToolValue
from react_engine.tools.results import Scalar
from react_engine.tools.statistics import left_words

Row = list[Scalar]
Tabled = figures.Grouped | figures.Pivot  # the tables a measure by group is answered with
_SHOWN = 5  # groups a statistic's answer names (the table lists them all)


def _unit(unit: str | None) -> str:
    return f" {unit}" if unit else ""


def _amount(number: Any, unit: str | None) -> str:
    """A computed number with its unit; a number of bytes also at a readable scale ("1,234,567,890 bytes (1.15
    GiB)"), which the check grounds in the number."""
    shown = f"{number:,}{_unit(unit)}"
    if unit != "bytes" or not isinstance(number, (int, float)):
        return shown
    scale = next(((name, factor) for name, factor in SIZE_SCALES if abs(number) >= factor), None)
    if scale is None:
        return shown
    scaled = number / scale[1]
    digits = 2 if abs(scaled) < 10 else 1 if abs(scaled) < 100 else 0
    written = f"{scaled:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{scaled:.0f}"
    return f"{shown} ({written} {scale[0]})"


def measure_answer(measure: Statistic | Rate | Pivot | Share | Comparison, history: list[HistoryItem], where: str,
                   first: int | None = None) -> tuple[str, Any] | None:
    """The sentence and value for a measure of numbers, or None when the last step computed no such measure
    (`first`: the groups a ranking by the measure asks for, "which service has the lowest average")."""
    if not history:
        return None
    params, result = history[-1].params, history[-1].result
    if isinstance(measure, Statistic) and measure.spread and isinstance(result, figures.Statistic):
        return _spread(measure, history, where)
    match measure, result:
        case Share(), figures.ShareOf(percent=percent, rows=rows, of=of) if percent is not None:
            return f"{percent:g}% of the lines{where}: {rows:,} of {of:,}.", percent
        case Share(), figures.Grouped() as table if "percent" in table.columns:
            return _shares(table, where, _bucket(params)), _grouped(table, "percent")
        case Comparison(), figures.Compared() as compared:
            return _compared(measure, compared)  # the scope would state the window the comparison replaced
        case (Statistic() | Rate() | Pivot()), _:
            return _numbers(measure, result, params, where, first)
    return None


def _spread(measure: Statistic, history: list[HistoryItem], where: str) -> tuple[str, Any] | None:
    """The lowest and the highest value, from the minimum and the maximum `field_stats` computed last."""
    found = {h.params.get("func"): h.result for h in history if isinstance(h.result, figures.Statistic)}
    low, high = found.get("min"), found.get("max")
    if low is None or high is None:
        return None
    field = measure.field or "value"
    return (f"The {field} runs from {_amount(low.value, low.unit)} to {_amount(high.value, high.unit)} over "
            f"{high.rows:,} lines{where}.",
            {"min": low.value, "max": high.value})


def _numbers(measure: Statistic | Rate | Pivot, result: ToolValue | None, params: dict[str, Any], where: str,
             first: int | None) -> tuple[str, Any] | None:
    """A statistic's, a rate's or a breakdown's sentence and value, from what `field_stats` returned."""
    match measure, result:
        case _, figures.Unmeasured():
            what = "a time" if isinstance(measure, Rate) else params.get("field") or "a value"
            return f"No line{where} carries {what}, so there is no {measure.asked()}.", None
        case _, (figures.Grouped() | figures.Pivot()) as table:
            return _table_answer(measure, table, params, where, first)
        case Rate(), figures.Rate() as rate:
            return _rate(measure, rate, where), rate.value
        case (Statistic() | Pivot()), figures.Statistic(value=number, unit=unit, rows=rows):
            return f"{measure.asked().capitalize()} is {_amount(number, unit)} over {rows:,} lines{where}.", number
    return None


def _rate(measure: Rate, rate: figures.Rate, where: str) -> str:
    """A rate, with the buckets it is over, the time they span and the lines counted ("... is 6.5 (with severity
    error), over 24 hours from ... to ...: 156 errors in all"); a maximum or minimum names its first bucket."""
    word, n = BUCKET_WORDS.get(measure.per), rate.buckets
    buckets = f"{n:,} {word}{'s' if n != 1 else ''}" if word else f"{n:,} buckets of {measure.per}"
    at = f"; the first {word or 'bucket'} with it starts at {rate.at}" if rate.at is not None else ""
    asked = measure.asked()  # as written: the noun may be a level in capitals ("FATAL events")
    return (f"{asked[:1].upper()}{asked[1:]} is {rate.value:,}{where}, over {buckets} from {rate.start} to "
            f"{rate.end}: {rate.counted:,} {measure.noun} in all{at}.")


def _table_answer(measure: Measure, table: Tabled, params: dict[str, Any], where: str,
                  first: int | None) -> tuple[str, Any]:
    """A grouped statistic's groups (the `first` of them when a ranking asks for them), or a two-way table's."""
    func = str(params.get("func", "mean"))
    if (grouped := _grouped(table, func)) is None:
        return _see_table(measure, table, where)
    if first is not None and params.get("order"):
        return _leading(measure, table, func, where, first, params["order"] == "asc", _bucket(params))
    return _by_group(measure, table, func, where), grouped


def _see_table(measure: Measure, table: Tabled, where: str) -> tuple[str, Any]:
    """A two-way table's answer: the table below, what it leaves out, and every cell as the value."""
    cells = _cells(table)
    left = table.left_out if isinstance(table, figures.Pivot) and table.left_out else {}
    said = [f"its most frequent values only, {left_words(left)} values left out"] if left else []
    said += ["the whole table is too large to state"] if _complete(table) and cells is None else []
    only = f" ({': '.join(said)})" if said else ""
    return f"{measure.asked().capitalize()}{where}: see the table below{only}.", cells


def _complete(table: Tabled) -> TypeGuard[figures.Pivot]:
    """The table leaves values out, so its value states every cell (or, None, that there are too many)."""
    return isinstance(table, figures.Pivot) and table.left_out is not None


def _cells(table: Tabled) -> dict[str, Any] | None:
    """A two-way table (its last column the rows' totals) as {row value: {column value: cell}}, empty cells left
    out, every cell of it when the table shown leaves values out (None when there are too many to state); None for
    a table of another shape."""
    columns = table.columns
    if len(columns) < 3 or columns[-1] != "total":
        return None
    if _complete(table):
        return table.cells
    return {str(row[0]): {str(c): cell for c, cell in zip(columns[1:-1], row[1:-1]) if cell is not None}
            for row in table.rows}


def _grouped(table: Tabled, func: str) -> dict[str, Any] | None:
    """A statistic by one key or bucket as {group: value}, by a key and a bucket as {key: {bucket: value}}; None
    for a table of another shape."""
    at = table.column(func)
    if at == 1:
        return {str(row[0]): row[1] for row in table.rows}
    if at == 2:
        out: dict[str, dict[str, Any]] = {}
        for row in table.rows:
            out.setdefault(str(row[0]), {})[str(row[1])] = row[2]
        return out
    return None


def _groups(table: Tabled) -> int:
    """How many groups the table is of (it lists MAX_GROUPS of them at most)."""
    return table.groups if isinstance(table, figures.Grouped) else len(table.rows)


def _by_group(measure: Measure, table: Tabled, func: str, where: str) -> str:
    """The statistic of the first groups the table lists, with how many there are."""
    at = table.column(func)
    shown = _first_groups(table, at, lambda row: _amount(row[at], table.unit))
    return f"{measure.asked().capitalize()}{where}, by {_group_names(table, at, 'time')}: {shown}."


def _first_groups(table: Tabled, at: int, said: Callable[[Row], str]) -> str:
    """The first groups a table lists, each named by its keys (the columns before `at`) and its numbers as `said`
    words them, and how many groups there are when it lists more."""
    shown = "; ".join(f"{_key(row, at)}: {said(row)}" for row in table.rows[:_SHOWN])
    groups = _groups(table)
    return shown + (f" (the table lists all {groups:,} groups)" if groups > _SHOWN else "")


def _group_names(table: Tabled, at: int, bucket: str) -> str:
    """What a table's groups are of ("component and hour"): its key columns, the time bucket and level in words."""
    return " and ".join({"bucket": bucket, "level_raw": "level"}.get(c, c) for c in table.columns[:at])


def _bucket(params: dict[str, Any]) -> str:
    """The time bucket a grouped measure's `by` names, in words ("hour"), or "bucket"."""
    return next((BUCKET_WORDS.get(b, "bucket") for b in params.get("by") or [] if b[:1].isdigit()), "bucket")


def _shares(table: figures.Grouped, where: str, bucket: str) -> str:
    """The share of the lines in each of the first groups, with both counts, and how many groups there are."""
    at = table.column("percent")
    shown = _first_groups(table, at, lambda row: f"{row[at]:g}% ({row[at + 1]:,} of {row[at + 2]:,})")
    return f"The share of the lines{where} in each {_group_names(table, at, bucket)}: {shown}."


def _key(row: Row, at: int) -> str:
    return " ".join(str(v) for v in row[:at])


def _said(columns: list[str], row: Row, at: int, bucket: str) -> str:
    """A group as the answer names it ("api.users", "the hour from 2026-11-20T00:00:00+00:00")."""
    return " ".join(f"the {bucket} from {v}" if c == "bucket" else str(v) for c, v in zip(columns[:at], row[:at],
                                                                                            strict=True))


def _leading(measure: Measure, table: Tabled, func: str, where: str, first: int, low: bool,
             bucket: str) -> tuple[str, Any]:
    """The group (or the `first` groups) with the highest or, `low`, the lowest statistic: its name and value,
    the groups tied with it named too; the value is the group, or {group: statistic} of the first ones."""
    columns, rows, at = table.columns, table.rows, table.column(func)
    extreme = f"the {'lowest' if low else 'highest'} {measure.asked().removeprefix('the ')}{where}"
    groups = f" (of {_groups(table):,} groups)"
    if first > 1:
        listed = "; ".join(f"{_said(columns, r, at, bucket)}: {_amount(r[at], table.unit)}" for r in rows[:first])
        return f"The {len(rows[:first])} with {extreme}: {listed}{groups}.", {_key(r, at): r[at] for r in rows[:first]}
    best = [row for row in rows if row[at] == rows[0][at]]
    return f"{_named(columns, best, at, bucket)} {extreme}: {_amount(rows[0][at], table.unit)}{groups}.", \
        _key(best[0], at) if len(best) == 1 else [_key(r, at) for r in best]


def _named(columns: list[str], best: list[Row], at: int, bucket: str) -> str:
    """The groups tied for the highest (or lowest) statistic, and the verb that says so, to open a sentence."""
    named = " and ".join(_said(columns, r, at, bucket) for r in best)
    return f"{'T' + named[1:] if named.startswith('the ') else named} {'tie with' if len(best) > 1 else 'has'}"


def _compared(measure: Comparison, value: figures.Compared) -> tuple[str, Any]:
    a, b, unit = value.a, value.b, value.unit
    if measure.ratio and value.ratio is not None:
        return (f"{measure.left}: {_amount(a, unit)} to {measure.right}: {_amount(b, unit)}, a ratio of "
                f"{value.ratio:,}.", value.ratio)
    change = f", {value.percent_change:+g}%" if value.percent_change is not None else ""
    shown = (f"{measure.left}: {_amount(a, unit)} against {measure.right}: {_amount(b, unit)}"
             if a is not None and b is not None else f"{measure.left}: {a} against {measure.right}: {b}")
    difference = f" (a difference of {value.difference:+,}{change})" if value.difference is not None else ""
    if measure.difference and value.difference is not None:  # "how many more A than B": A's count less B's
        said = f"{value.difference:,} more {measure.left} than {measure.right} ({shown}{change})"
        return f"{said if value.difference >= 0 else shown + difference}.", value.difference
    return f"{shown}{difference}.", [a, b]
