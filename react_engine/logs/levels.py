"""Vectorised severity columns: map the distinct written levels once, then broadcast."""

from __future__ import annotations

from collections.abc import Callable

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs import severity
from react_engine.logs.arrow import STRING, concat, null_strings
from react_engine.logs.formats.logformat import INFERRED_GROUP, Columns


def _map_distinct(values: pa.Array | pa.ChunkedArray, convert: Callable[[str], str | None]) -> pa.Array:
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    encoded = pc.dictionary_encode(values)
    mapped = pa.array([convert(v) for v in encoded.dictionary.to_pylist()], STRING)
    return pc.take(mapped, encoded.indices)


def _number(convert: Callable[[int], str | None]) -> Callable[[str], str | None]:
    return lambda text: convert(int(text)) if text.isdigit() else None


_CONVERTERS: dict[str, Callable[[str], str | None]] = {
    "level": severity.normalize,
    "sev": _number(severity.from_syslog),
    "dlevel": _number(severity.from_docsis),
    "pri": _number(severity.from_pri),
    "blevel": _number(severity.from_bunyan),
    INFERRED_GROUP: severity.normalize,
}


def severity_columns(columns: Columns, length: int) -> tuple[pa.Array, pa.Array]:
    """(`severity`, `level_raw`) from the level groups present, most specific first.

    A written level word wins over a Cisco/syslog 0-7 digit, which wins over a DOCSIS 1-8 level,
    which wins over the `<PRI>` header, which wins over a bunyan/pino number, which wins over a severity the format
    inferred (see `INFERRED_GROUP`).
    `level_raw` is the first of those written, exactly as written (a PRI as `<134>`), even when it maps to no
    severity; never an inferred one.
    """
    result = null_strings(length)
    raw = null_strings(length)
    for group, convert in _CONVERTERS.items():
        written = columns.get(group)
        if written is None or written.null_count == len(written):
            continue
        mapped = _map_distinct(written, convert)
        take = pc.and_(pc.is_null(result), pc.is_valid(mapped))
        shown = concat("<", written, ">") if group == "pri" else written
        result = pc.if_else(take, mapped, result)
        if group != INFERRED_GROUP:
            raw = pc.if_else(pc.and_(pc.is_null(raw), pc.is_valid(written)), shown, raw)
    return result, raw
