"""The fields of the loaded rows' message patterns (see `logs.field_catalog`), as the tools that take a field read
them: a field's values in the current rows, as text, where their lines write it."""

from __future__ import annotations

from typing import Any

import pandas as pd

from react_engine.logs.field_catalog import FieldCatalog
from react_engine.logs.fields import SAMPLE_ROWS, NumericField, read_text
from react_engine.logs.kept import Kept
from react_engine.rows.rowops import count, every, partitionwise
from react_engine.tools.registry import ToolContext

_CATALOGS: Kept[FieldCatalog] = Kept(1)  # each live frame's catalogue, forgotten with the frame


def messages_sample(rows: Any) -> pd.Series:
    """The messages of an even sample of `rows` (about SAMPLE_ROWS of them), as text."""
    return every(rows["message"], max(1, count(rows) // SAMPLE_ROWS)).dropna().astype(str)


def catalog(ctx: ToolContext) -> FieldCatalog:
    """The run's catalogue, else the one of an even sample of the frame's messages (built once per frame)."""
    if ctx.catalog is not None:
        return ctx.catalog()
    if "message" not in ctx.frame.columns:
        return FieldCatalog()
    found = _CATALOGS.get((ctx.frame,), "catalog")
    if found is None:
        found = FieldCatalog.build(messages_sample(ctx.frame).tolist())
        _CATALOGS.put((ctx.frame,), "catalog", found)
    return found


def catalogued(ctx: ToolContext, name: str) -> NumericField | None:
    """The pattern field `name` names (any case), or None when no pattern writes one."""
    return catalog(ctx).field(name) if "message" in ctx.frame.columns else None


def _written(part: pd.DataFrame, field: NumericField) -> pd.Series:
    return read_text(part["message"], field).dropna().astype(str)


def field_text(rows: Any, field: NumericField) -> Any:
    """The field's value in each of `rows` that writes it, as written, indexed by row label (per partition on a
    Dask frame)."""
    return partitionwise(_written, rows, field, meta=pd.Series(dtype="str", name=field.name))
