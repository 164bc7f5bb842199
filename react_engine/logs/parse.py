"""Apply a `Format` to an array of lines: one vectorised pass per pattern, then assemble columns."""

from __future__ import annotations

import os
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
    combined,
    concat,
    fits_views,
    lit,
    null_strings,
    release_memory,
    tails,
)
from react_engine.logs.formats.base import LEVEL_GROUPS, TIME_GROUP, Columns, Format
from react_engine.logs.levels import severity_columns
from react_engine.logs.lines import drop_heads
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


def _head_pattern(pattern: str) -> str | None:
    """For a pattern ending in `(?P<message>.*)$`: the same pattern capturing only the part before the
    message (as `_head`). RE2 extracts short captures much faster; the message is then sliced off."""
    if not (pattern.endswith(_TAIL) and pattern.startswith("^")):
        return None
    return f"^(?P<{_HEAD}>{pattern[1 : -len(_TAIL)]})"


def _extract(pattern: str, lines: pa.Array, messages: bool = True) -> tuple[Columns, np.ndarray]:
    """Named groups of `pattern` for each line (blank where unmatched) and the mask of matching lines.

    Large inputs are cut into chunks matched in threads (Arrow releases the GIL), so each chunk's
    temporaries are small; the short groups stay chunked (no extra copy), while the message is sliced
    off all lines at once, so that the largest column is one array that later row filters need not join.
    With `messages=False` a pattern ending in its message gives `_head` and no `message` (see `_messages`).
    """
    head = _head_pattern(pattern) if fits_views(lines) else None
    chunks = [lines.slice(i, CHUNK_LINES) for i in range(0, len(lines), CHUNK_LINES)] or [lines]
    if len(chunks) == 1:
        results = [_extract_chunk(head or pattern, lines)]
    else:
        with ThreadPoolExecutor(min(os.cpu_count() or 1, len(chunks))) as pool:
            results = list(pool.map(lambda chunk: _extract_chunk(head or pattern, chunk), chunks))
    columns: Columns = {
        name: results[0][0][name] if len(results) == 1 else pa.chunked_array([fields[name] for fields, _ in results])
        for name in results[0][0]
    }
    if head is not None and messages:
        columns["message"] = tails(lines, _head_bytes(columns[_HEAD]))
    return columns, np.concatenate([valid for _, valid in results])


def _head_bytes(head: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The length in bytes of each line's head (0 where none was captured)."""
    lengths = pc.fill_null(pc.cast(pc.binary_length(head), pa.int64()), 0)
    return lengths.to_numpy()


def _extract_chunk(pattern: str, lines: pa.Array) -> tuple[Columns, np.ndarray]:
    parts = pc.extract_regex(lines, pattern)
    fields = {parts.type.field(i).name: blank_to_null(parts.field(i)) for i in range(parts.type.num_fields)}
    return fields, parts.is_valid().to_numpy(zero_copy_only=False)


def _group_names(pattern: str) -> list[str]:
    fields = pc.extract_regex(pa.array([], STRING), pattern).type
    return [fields.field(i).name for i in range(fields.num_fields)]


def match_patterns(patterns: tuple[str, ...], lines: pa.Array, messages: bool = True) -> tuple[Columns, np.ndarray]:
    """Columns from the first pattern matching each line, and the mask of lines any pattern matched.

    Every named group of every pattern tried gets a column (all null where its pattern never matched);
    patterns after the one that completed the match are not tried. `_head` holds the text before the
    message, when every pattern that matched captured it so. `messages=False` (for patterns that all end in
    their message) leaves the message to be cut from the lines by `_head`.
    """
    columns: Columns = {}
    matched = np.zeros(len(lines), dtype=bool)
    tried: list[str] = []
    headless = False
    for pattern in patterns:
        if matched.all() and tried:
            break
        tried.append(pattern)
        parts, valid = _extract(pattern, lines, messages)
        hit = valid & ~matched
        if not hit.any():
            continue
        headless |= _HEAD not in parts
        mask = pa.array(hit)
        for name, values in parts.items():
            if hit.all():
                columns[name] = values
                continue
            previous = columns.get(name, null_strings(len(lines)))
            columns[name] = pc.if_else(mask, values, previous)
        matched |= hit
    for pattern in tried:
        for name in _group_names(pattern):
            columns.setdefault(name, null_strings(len(lines)))
    if headless:
        columns.pop(_HEAD, None)
    release_memory()
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


def _headed(fmt: Format, lines: pa.Array) -> bool:
    """Whether every pattern of `fmt` ends in its message, so that each message is its line after `_head`."""
    return fmt.reader is None and fits_views(lines) and all(_head_pattern(p) for p in fmt.patterns)


def _rows(fmt: Format, lines: pa.Array) -> tuple[Columns, pa.Array | None, np.ndarray]:
    """Parsed columns (one row per entry), the raw entries, and each entry's first-line index.

    The raw entries are None when the lines' own buffer was edited into the messages (see `lines.drop_heads`):
    each entry is then `_head + message`.
    """
    headed = _headed(fmt, lines)
    if fmt.reader is not None:
        columns, matched_array = fmt.reader(lines)
        matched = matched_array.to_numpy(zero_copy_only=False)
    else:
        columns, matched = match_patterns(fmt.patterns, lines, messages=not headed)
    raw: pa.Array | None
    skip = _head_bytes(columns.get(_HEAD, null_strings(len(lines)))) if headed else None  # none when nothing matched
    if fmt.multiline and not matched[1:].all():  # some line continues the entry above it
        if skip is not None:
            columns["message"] = tails(lines, skip)
        columns, raw, starts = _join_entries(columns, lines, matched)
    else:
        starts = np.arange(len(lines))
        if skip is not None:
            head = columns.get(_HEAD, null_strings(len(lines)))
            columns[_HEAD] = pc.fill_null(head, "") if head.null_count else head
            edited = drop_heads(lines, skip)
            raw, columns["message"] = (None, edited) if edited is not None else (lines, tails(lines, skip))
        else:
            raw, columns["message"] = lines, _message(columns, lines, matched)
    if fmt.finish is not None:
        message = columns["message"]
        fmt.finish(columns)
        if columns["message"] is not message:  # no longer the tail of each entry
            head = columns.pop(_HEAD, None)
            raw = concat(head, message) if raw is None else raw
    return columns, raw, starts


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

    `held` is a list holding the lines array, emptied here. The lines are consumed: lines made by `split` are
    edited in place into the messages, and otherwise, when the caller keeps no other reference, freed as soon as
    the entries are held as `raw_head` and `message`, before the other columns are built.
    """
    columns, raw, starts = _rows(fmt, held.pop())
    rows = len(starts)
    written = columns.pop("message")
    message, truncated = _truncate(written)
    head = columns.pop(_HEAD, None)
    if raw is None and truncated:  # the lines became the messages: the entries as written are rebuilt
        raw = concat(head, written)
    del written
    if raw is not None:
        head = _raw_head(head, message, raw) if not truncated else None
    entries = {RAW_COLUMN: raw} if head is None else {RAW_HEAD: head}
    del raw, head
    release_memory()  # the lines, when the entries are held as raw_head and message
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
    for name in data:  # one chunk per column: pandas concatenates chunks on every row filter
        values = data[name]
        if isinstance(values, pa.ChunkedArray):
            kind, chunks = values.type, values.chunks
            data[name] = None
            del values  # each chunk is then freed once copied
            data[name] = combined(chunks) if kind == STRING else pa.chunked_array(chunks, kind).combine_chunks()
    table = pa.table(data)
    release_memory()
    return Parsed(table, warnings if truncated else [])
