"""Numeric thresholds for `filter_by_field` (gt, ge, lt, le): a numeric field compared with a number that may carry
a unit ("500ms", "1 s", "2 min", "1MB", "1.5 KB"), converted to the field's unit first.

The field is a numeric column (`latency_ms`, `status`, `bytes`) or a number the messages carry (`time: 0.24`,
`1184 bytes sent`, see `react_engine.tools.numeric`); `duration` and `bytes`, when no field has that name, name
the one field in a unit of time or of size (a column before a message's number). A row without a value never
passes, whichever way the comparison runs.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

import numpy as np
import pandas as pd

from react_engine.errors import ToolError
from react_engine.lexicon.measure_units import SIZE_UNITS, TIME_UNITS
from react_engine.logs.fields import fold
from react_engine.rows.rowops import Mask, is_lazy, mask
from react_engine.tools.numeric import (
    Numeric,
    listing,
    numeric_fields,
    plain,
    readable,
    resolve,
    unit_text,
    unreadable_note,
)
from react_engine.tools.registry import ToolContext

THRESHOLDS: dict[str, tuple[str, Callable[[pd.Series, float], pd.Series]]] = {
    "gt": (">", operator.gt), "ge": (">=", operator.ge), "lt": ("<", operator.lt), "le": ("<=", operator.le)}
OPPOSITE = {"gt": "le", "ge": "lt", "lt": "ge", "le": "gt"}  # what `exclude` keeps, of the rows holding a value
_GENERIC = {"duration": "time", "bytes": "size"}
_VALUE = re.compile(r"\s*(-?\d+(?:\.\d+)?)\s*([A-Za-zµ]+)?\s*")


def parse_value(value: str | int | float) -> tuple[float, str]:
    """A threshold's number and its unit as written ("" when none): "1.5 KB" -> (1.5, "KB")."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value), ""
    found = _VALUE.fullmatch(str(value).replace(",", ""))
    if found is None:
        raise ToolError(f"give a number, maybe with a unit (500ms, 1 s, 1MB), not {value!r}")
    unit = found[2] or ""
    if unit and _kind(unit) is None:
        raise ToolError(f"unknown unit {unit!r}: use ms, s, min, h, bytes, KB, MB or GB")
    return float(found[1]), unit


def _kind(unit: str) -> str | None:
    key = unit.lower()
    return "time" if key in TIME_UNITS else "size" if key in SIZE_UNITS else None


def _scale(unit: str) -> float:
    key = unit.lower()
    return TIME_UNITS.get(key) or float(SIZE_UNITS.get(key, 1))


def field_unit(numeric: Numeric) -> str:
    """The field's unit: as named or read, else bytes for a field named for them (an access log's `bytes`)."""
    if numeric.unit:
        return numeric.unit
    return "bytes" if fold(numeric.name).split()[-1:] == ["bytes"] else ""


def _of_kind(ctx: ToolContext, kind: str, asked: str) -> Numeric:
    """The one field in a unit of `kind` (one column before message fields); ToolError naming them otherwise."""
    fields = [f for f in numeric_fields(ctx) if _kind(field_unit(f)) == kind]
    columns = [f for f in fields if f.column is not None]
    for found in (columns, fields):
        if len(found) == 1:
            return found[0]
    if not fields:
        raise ToolError(f"no numeric field in a unit of {kind} for {asked!r}; numeric fields: "
                        f"{listing(numeric_fields(ctx))}")
    raise ToolError(f"{asked!r} may be any of {listing(fields)}: name one")


def threshold_field(ctx: ToolContext, asked: str) -> Numeric:
    """The numeric field `asked` names: by its name, `duration`/`bytes` as the field in that unit, else as
    `field_stats` resolves it."""
    exact = [f for f in numeric_fields(ctx) if fold(f.name) == fold(asked)]
    if len(exact) == 1:
        return exact[0]
    if (kind := _GENERIC.get(fold(asked))) is not None:
        return _of_kind(ctx, kind, asked)
    return resolve(ctx, asked)


def converted(number: float, written: str, numeric: Numeric) -> float:
    """`number` in `written` units, in the field's unit; ToolError when a unit of time meets a size."""
    unit = field_unit(numeric)
    if not written:
        return number
    if _kind(unit) != _kind(written):
        held = f"in {unit}" if unit else "without a unit"
        raise ToolError(f"{numeric.name} is {held}, so {number:g} {written} cannot be compared with it")
    return number * _scale(written) / _scale(unit)


def threshold(ctx: ToolContext, field: str, op: str, value: str | int | float) -> tuple[Mask, str, str | None]:
    """The mask of the current rows whose `field` compares with `value` by `op` (gt, ge, lt, le), how a summary
    states it (the field, the comparison and the value in the field's unit), and the caveat on the values too
    large to read, which no comparison keeps (counted on pandas rows)."""
    number, written = parse_value(value)
    numeric = threshold_field(ctx, field)
    target = converted(number, written, numeric)
    symbol, compare = THRESHOLDS[op]
    frame = None if is_lazy(ctx.frame) else ctx.frame
    unreadable = [0]

    def holds(part: pd.DataFrame) -> np.ndarray:
        values, unreadable[0] = readable(numeric.values(part, frame if part is ctx.rows else None))
        return np.asarray(compare(values, target).to_numpy(dtype=bool, na_value=False), dtype=bool)

    unit = field_unit(numeric)
    as_asked = f" ({number:g} {written})" if written and written.lower() != unit.lower() else ""
    kept = mask(ctx.rows, holds)
    return kept, f"{numeric.name} {symbol} {plain(target)}{unit_text(unit)}{as_asked}", unreadable_note(
        unreadable[0], numeric.name)
