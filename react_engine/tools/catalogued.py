"""The fields of the loaded rows' message patterns (see `logs.field_catalog`), as the tools that take a field read
them: a field's values in the current rows, as text, where their lines write it."""

from __future__ import annotations

import weakref
from typing import Any

import pandas as pd

from react_engine.logs.field_catalog import FieldCatalog
from react_engine.logs.fields import SAMPLE_ROWS, NumericField, read_text
from react_engine.rows.rowops import count, every, partitionwise
from react_engine.tools.registry import ToolContext

_built: list[tuple[weakref.ref[Any], FieldCatalog]] = []  # the last frame catalogued here, its catalogue


def catalog(ctx: ToolContext) -> FieldCatalog:
    """The run's catalogue, else the one of an even sample of the frame's messages (built once per frame)."""
    if ctx.catalog is not None:
        return ctx.catalog()
    if not _built or _built[0][0]() is not ctx.frame:
        if "message" not in ctx.frame.columns:
            return FieldCatalog()
        step = max(1, count(ctx.frame) // SAMPLE_ROWS)
        sample = every(ctx.frame["message"], step).dropna().astype(str).tolist()
        _built[:] = [(weakref.ref(ctx.frame), FieldCatalog.build(sample))]
    return _built[0][1]


def catalogued(ctx: ToolContext, name: str) -> NumericField | None:
    """The pattern field `name` names (any case), or None when no pattern writes one."""
    return catalog(ctx).field(name) if "message" in ctx.frame.columns else None


def _written(part: pd.DataFrame, field: NumericField) -> pd.Series:
    return read_text(part["message"], field).dropna().astype(str)


def field_text(rows: Any, field: NumericField) -> Any:
    """The field's value in each of `rows` that writes it, as written, indexed by row label (per partition on a
    Dask frame)."""
    return partitionwise(_written, rows, field, meta=pd.Series(dtype="str", name=field.name))
