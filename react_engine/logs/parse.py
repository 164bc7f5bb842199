"""Apply a `Format` to an array of lines: one vectorised pass per pattern, then assemble columns."""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs import timestamps
from react_engine.logs.arrow import (
    STRING,
    blank_to_null,
    concat,
    fits_views,
    lit,
    null_strings,
    release_memory,
    tails,
)
from react_engine.logs.formats.base import LEVEL_GROUPS, TIME_GROUP, Columns, Format
from react_engine.logs.levels import severity_columns
from react_engine.logs.schema import CANONICAL_COLUMNS, RAW_COLUMN, RAW_HEAD

MAX_MESSAGE_CHARS = 8192
"""`message` is cut to this many characters (with a marker); `raw` always keeps the whole entry."""
TRUNCATION_MARK = " …[truncated]"
CHUNK_LINES = 200_000


@dataclass(frozen=True)
class Parsed:
    """One file's rows as an Arrow table, plus notes for the user."""

    table: pa.Table
    warnings: list[str]


_TAIL = "(?P<message>.*)$"
_HEAD = "_head"


_GROUP = re.compile(r"\(\?P<\w+>")


@dataclass(frozen=True)
class _Later:
    """Named groups still to be taken, with `pattern`, from the text before the message of the `rows` it matched."""

    pattern: str
    rows: np.ndarray


def _head_patterns(pattern: str) -> tuple[str, str] | None:
    """For a pattern ending in `(?P<message>.*)$`: one capturing only the part before the message (as `_head`),
    and one that takes the named groups from that part. RE2's cost grows with every group captured; capturing
    the groups from the heads, after the lines are freed, keeps them out of the parse's peak memory."""
    if not (pattern.endswith(_TAIL) and pattern.startswith("^")):
        return None
    inner = pattern[1 : -len(_TAIL)]
    return f"^(?P<{_HEAD}>{_GROUP.sub('(?:', inner)})", f"^{inner}"


def _extract_all(pattern: str, lines: pa.Array | pa.ChunkedArray) -> tuple[Columns, np.ndarray]:
    """Named groups of `pattern` for each string (blank where unmatched) and the mask of matching strings.

    Large inputs are cut into chunks matched in threads (Arrow releases the GIL), so each chunk's
    temporaries are small; the groups stay chunked (no extra copy)."""
    if isinstance(lines, pa.ChunkedArray):
        lines = lines.combine_chunks()
    chunks = [lines.slice(i, CHUNK_LINES) for i in range(0, len(lines), CHUNK_LINES)] or [lines]
    if len(chunks) == 1:
        results = [_extract_chunk(pattern, lines)]
    else:
        with ThreadPoolExecutor(min(os.cpu_count() or 1, len(chunks))) as pool:
            results = list(pool.map(lambda chunk: _extract_chunk(pattern, chunk), chunks))
    columns: Columns = {
        name: results[0][0][name] if len(results) == 1 else pa.chunked_array([fields[name] for fields, _ in results])
        for name in results[0][0]
    }
    return columns, np.concatenate([valid for _, valid in results])


def _extract(pattern: str, lines: pa.Array) -> tuple[Columns, np.ndarray, str | None]:
    """Like `_extract_all`; for a pattern ending in its message, only `_head` and the message (sliced off all
    lines at once, so that the largest column is one array that later row filters need not join), with the
    pattern that takes the other groups from `_head` later."""
    heads = _head_patterns(pattern) if fits_views(lines) else None
    if heads is None:
        return *_extract_all(pattern, lines), None
    columns, valid = _extract_all(heads[0], lines)
    skip = pc.binary_length(columns[_HEAD]).to_numpy(zero_copy_only=False)
    columns["message"] = tails(lines, np.nan_to_num(skip).astype(np.int64))
    return columns, valid, heads[1]


def _extract_chunk(pattern: str, lines: pa.Array) -> tuple[Columns, np.ndarray]:
    parts = pc.extract_regex(lines, pattern)
    fields = {parts.type.field(i).name: blank_to_null(parts.field(i)) for i in range(parts.type.num_fields)}
    return fields, parts.is_valid().to_numpy(zero_copy_only=False)


def _group_names(pattern: str) -> list[str]:
    fields = pc.extract_regex(pa.array([], STRING), pattern).type
    return [fields.field(i).name for i in range(fields.num_fields)]


def _merge(columns: Columns, parts: Columns, rows: np.ndarray) -> None:
    """Put `parts` (full-length columns) into `columns` on `rows`."""
    mask = pa.array(rows) if not rows.all() else None
    for name, values in parts.items():
        if mask is None:
            columns[name] = values
        else:
            columns[name] = pc.if_else(mask, values, columns.get(name, null_strings(len(rows))))


def _match(patterns: tuple[str, ...], lines: pa.Array) -> tuple[Columns, np.ndarray, list[_Later]]:
    """`match_patterns`, with the groups of patterns ending in their message left to `_fields`."""
    columns: Columns = {}
    matched = np.zeros(len(lines), dtype=bool)
    tried: list[str] = []
    later: list[_Later] = []
    for pattern in patterns:
        if matched.all() and tried:
            break
        tried.append(pattern)
        parts, valid, fields = _extract(pattern, lines)
        hit = valid & ~matched
        if not hit.any():
            continue
        _merge(columns, parts, hit)
        if fields is not None:
            later.append(_Later(fields, hit))
        matched |= hit
    for pattern in tried:
        for name in _group_names(pattern):
            columns.setdefault(name, null_strings(len(lines)))
    release_memory()
    return columns, matched, later


def _fields(columns: Columns, later: list[_Later]) -> None:
    """Take the groups left for later from the text before each message (`_head`), on the rows of each pattern."""
    if not later:
        return
    heads = columns[_HEAD]
    for item in later:
        if item.rows.all():
            parts, _ = _extract_all(item.pattern, heads)
        else:
            picked, _ = _extract_all(item.pattern, pc.filter(heads, pa.array(item.rows)))
            where = np.maximum(np.cumsum(item.rows) - 1, 0)  # each row's place among the picked ones
            parts = {name: pc.take(values, where) for name, values in picked.items()}
        _merge(columns, parts, item.rows)
    release_memory()


def match_patterns(patterns: tuple[str, ...], lines: pa.Array) -> tuple[Columns, np.ndarray]:
    """Columns from the first pattern matching each line, and the mask of lines any pattern matched.

    Every named group of every pattern tried gets a column (all null where its pattern never matched);
    patterns after the one that completed the match are not tried. `_head` holds the text before the
    message where the pattern that matched ends in its message.
    """
    columns, matched, later = _match(patterns, lines)
    _fields(columns, later)
    return columns, matched


def _message(columns: Columns, lines: pa.Array, matched: np.ndarray) -> pa.Array:
    """The parsed message where a pattern matched, the whole line elsewhere."""
    message = columns.get("message", lines)
    if matched.all():
        return pc.fill_null(message, "") if message.null_count else message
    return pc.if_else(pa.array(matched), pc.fill_null(message, ""), lines)


def _join_entries(columns: Columns, lines: pa.Array, matched: np.ndarray) -> tuple[Columns, pa.Array, np.ndarray]:
    """Fold lines no pattern matched into the entry above; returns columns, raw text and first-line index."""
    starts = np.flatnonzero(matched | (np.arange(len(lines)) == 0))
    offsets = pa.array(np.append(starts, len(lines)), pa.int64())
    separator = lit("\n")
    raw = pc.binary_join(pa.LargeListArray.from_arrays(offsets, lines), separator)
    message_lines = _message(columns, lines, matched)
    if isinstance(message_lines, pa.ChunkedArray):
        message_lines = message_lines.combine_chunks()
    joined = {name: pc.take(values, starts) for name, values in columns.items()}
    joined["message"] = pc.binary_join(pa.LargeListArray.from_arrays(offsets, message_lines), separator)
    return joined, raw, starts


def _truncate(message: pa.Array) -> tuple[pa.Array, int]:
    long = pc.greater(pc.utf8_length(message), MAX_MESSAGE_CHARS)
    count = pc.sum(long).as_py() or 0
    if not count:
        return message, 0
    cut = concat(pc.utf8_slice_codeunits(message, 0, MAX_MESSAGE_CHARS), TRUNCATION_MARK)
    return pc.if_else(long, cut, message), count


def _rows(fmt: Format, lines: pa.Array) -> tuple[Columns, pa.Array, np.ndarray, list[_Later]]:
    """Parsed columns (one row per entry), the raw entries, each entry's first-line index, and the groups left
    for `_fields` (the format's `finish` has not run yet)."""
    later: list[_Later] = []
    if fmt.reader is not None:
        columns, matched_array = fmt.reader(lines)
        matched = matched_array.to_numpy(zero_copy_only=False)
    else:
        columns, matched, later = _match(fmt.patterns, lines)
    if fmt.multiline and not matched[1:].all():  # some line continues the entry above it
        columns, raw, starts = _join_entries(columns, lines, matched)
        later = [_Later(item.pattern, item.rows[starts]) for item in later]
    else:
        raw, starts = lines, np.arange(len(lines))
        columns["message"] = _message(columns, lines, matched)
    return columns, raw, starts, later


def _raw_head(head: pa.Array | pa.ChunkedArray | None, message: pa.Array,
              raw: pa.Array) -> pa.Array | pa.ChunkedArray | None:
    """The text before each message (empty on lines no pattern matched), when `head + message` is every
    entry as written; else None."""
    if head is None:
        return None
    if head.null_count:
        head = pc.fill_null(head, "")
    whole = pc.add(pc.binary_length(head), pc.binary_length(message))
    return head if pc.all(pc.equal(whole, pc.binary_length(raw))).as_py() is not False else None


def parse_lines(
    fmt: Format,
    held: list[pa.Array],
    *,
    source: str,
    year: int | None = None,
    reference: datetime | None = None,
) -> Parsed:
    """Parse the lines of one file with `fmt` into the canonical columns, the format's extras and the entries as
    written: `raw_head` (the text before each message) where `raw_head + message` gives every entry, else `raw`.

    `held` is a list holding the lines array, emptied here: when the caller keeps no other reference, the lines
    are freed as soon as the entries are held as `raw_head` and `message`, before the other columns are built.
    """
    columns, raw, starts, later = _rows(fmt, held.pop())
    rows = len(starts)
    tail = columns["message"]
    head = _raw_head(columns.get(_HEAD), tail, raw)
    written = raw if head is None else None  # the entries as written, where they are not raw_head + message
    del raw
    release_memory()  # the lines, when the entries are held as raw_head and message
    _fields(columns, later)
    columns.pop(_HEAD, None)
    if fmt.finish is not None:
        fmt.finish(columns)
    message, truncated = _truncate(columns.pop("message"))
    if head is not None and (truncated or message is not tail):  # the message no longer ends each entry
        written, head = concat(head, tail), None
    entries = {RAW_COLUMN: written} if head is None else {RAW_HEAD: head}
    del written, head, tail
    ts_text = columns.pop(TIME_GROUP, None)
    stamp = (
        pa.nulls(rows, timestamps.TIMESTAMP_TYPE)
        if ts_text is None
        else timestamps.parse(ts_text, fmt.shapes, year=year, reference=reference, anchored=not fmt.search_time)
    )
    severity, level_raw = severity_columns(columns, rows)
    warnings = [f"{source}: {truncated} very long entries; message cut to {MAX_MESSAGE_CHARS} chars (raw kept)"]
    data = {
        "timestamp": stamp,
        "severity": severity,
        "level_raw": level_raw,
        "host": columns.pop("host", None),
        "component": columns.pop("component", None),
        "pid": columns.pop("pid", None),
        "message": message,
        "source": pc.take(pa.array([source], STRING), pa.array(np.zeros(rows, np.int32))),
        "line": pa.array(starts + 1, pa.int64()),
        **entries,
    }
    for group in LEVEL_GROUPS:
        columns.pop(group, None)
    # Undeclared groups that never matched (e.g. RFC 5424 fields in a BSD syslog file) add nothing.
    data.update({name: values for name, values in columns.items() if values.null_count < rows or not rows})
    for name in (*CANONICAL_COLUMNS, *fmt.extras):
        if data.get(name) is None:
            data[name] = null_strings(rows)
    columns.clear()
    del ts_text, stamp, severity, level_raw, message, entries  # so that each chunked column is freed once combined
    for name, values in data.items():  # one chunk per column: pandas concatenates chunks on every row filter
        if isinstance(values, pa.ChunkedArray):
            data[name] = values.combine_chunks()
    table = pa.table(data)
    release_memory()
    return Parsed(table, warnings if truncated else [])
