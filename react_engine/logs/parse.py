"""Apply a `Format` to an array of lines: match its patterns (`matching`), then assemble the columns of a file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs import timestamps, years
from react_engine.logs.ahead import ahead, workers
from react_engine.logs.arrow import (
    STRING,
    concat,
    fits_views,
    lit,
    null_strings,
    release_memory,
    tails,
)
from react_engine.logs.assembly import Piece, Starts, assemble
from react_engine.logs.formats.logformat import LEVEL_GROUPS, RULE_COLUMN, TIME_GROUP, Columns, Format
from react_engine.logs.levels import severity_columns
from react_engine.logs.lines import MessageCutter, drop_heads
from react_engine.logs.matching import (
    HEAD_GROUP,
    Tried,
    head_bytes,
    head_pattern,
    match_lines,
)
from react_engine.logs.schema import ENCODED_COLUMNS

MAX_MESSAGE_CHARS = 8192
"""`message` is cut to this many characters (with a marker); `raw` always keeps the whole entry."""
TRUNCATION_MARK = " …[truncated]"


@dataclass(frozen=True)
class Parsed:
    """One file's rows as an Arrow table, plus notes for the user."""

    table: pa.Table
    warnings: list[str]
    year_assumed: int | bool | None = None
    """The year given to dates written without one (see `years.roll`): True when several, None when none was."""


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
    """The messages cut to MAX_MESSAGE_CHARS characters (with a marker), and how many were cut. Characters are
    counted only when some message has more bytes than that (a character is a byte or more): lengths in bytes are
    read from the offsets, a count of characters reads every byte."""
    if not pc.any(pc.greater(pc.binary_length(message), MAX_MESSAGE_CHARS)).as_py():
        return message, 0
    long = pc.greater(pc.utf8_length(message), MAX_MESSAGE_CHARS)
    count = pc.sum(long).as_py() or 0
    if not count:
        return message, 0
    cut = concat(pc.utf8_slice_codeunits(message, 0, MAX_MESSAGE_CHARS), TRUNCATION_MARK)
    return pc.if_else(long, cut, message), count


def _headed(fmt: Format, lines: pa.Array) -> bool:
    """Whether every pattern of `fmt` ends in its message, so that each message is its line after `_head`."""
    return fmt.reader is None and fits_views(lines) and all(head_pattern(p) for p in fmt.patterns)


def _rows(fmt: Format, lines: pa.Array, cutter: MessageCutter | None = None,
          first: int = 0) -> tuple[Columns, pa.Array | None, Starts, Tried]:
    """Parsed columns (one row per entry), the raw entries, each entry's first-line index, and the patterns tried.

    The raw entries are None when the lines' own buffer was edited into the messages (see `lines.drop_heads`):
    each entry is then `_head + message`. With a `cutter` of the whole file's lines, of which these are those from
    line `first` on, the messages are cut by it (see `MessageCutter.cut`), after those of the lines before.
    """
    headed = _headed(fmt, lines)
    seen = Tried()
    if fmt.reader is not None:
        columns, matched_array = fmt.reader(lines)
        matched = matched_array.to_numpy(zero_copy_only=False)
    else:
        columns, matched, seen = match_lines(fmt.patterns, lines, messages=not headed)
    raw: pa.Array | None
    starts: Starts
    if fmt.multiline and not matched[1:].all():  # some line continues the entry above it
        if headed:  # a blank head where no pattern matched, as in any other segment of the file
            columns["message"] = tails(lines, _blank_heads(columns, len(lines)))
        columns, raw, starts = _join_entries(columns, lines, matched)
    else:
        starts = range(len(lines))
        if headed:
            skip = _blank_heads(columns, len(lines))
            edited = cutter.cut(first, skip) if cutter is not None else drop_heads(lines, skip)
            raw, columns["message"] = (None, edited) if edited is not None else (lines, tails(lines, skip))
        else:
            raw, columns["message"] = lines, _message(columns, lines, matched)
    return columns, _finished(fmt, columns, raw), starts, seen


def _blank_heads(columns: Columns, count: int) -> np.ndarray:
    """Make `_head` empty (not null) on the `count` lines no pattern matched (it is absent when none matched), so
    that `_head + message` is each line; returns the heads' lengths in bytes."""
    head = columns.get(HEAD_GROUP, null_strings(count))
    head = columns[HEAD_GROUP] = pc.fill_null(head, "") if head.null_count else head
    return head_bytes(head)


def _finished(fmt: Format, columns: Columns, raw: pa.Array | None) -> pa.Array | None:
    """Apply the format's `finish` to the columns; returns the raw entries, rebuilt from `_head` and the message
    when the lines became the messages (`raw` None) and `finish` rewrote the message."""
    if fmt.finish is None:
        return raw
    message = columns["message"]
    fmt.finish(columns)
    if columns["message"] is message:
        return raw
    head = columns.pop(HEAD_GROUP, None)  # the message is no longer the tail of each entry
    return concat(head, message) if raw is None else raw


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


SEGMENT_LINES = 1 << 16
"""Lines parsed at a time where each line is an entry and every pattern ends in the message (a few segments'
captures are held at once, each turned into its final columns before more are read), and about as many, cut where
an entry starts, in a file whose entries span lines."""
BOUNDARY_LINES = 256
"""Lines looked at, at a time, for the start of an entry where a segment of a multiline file may end."""


def _piece(fmt: Format, columns: Columns, raw: pa.Array | None, starts: Starts, *, year: int | None,
           reference: datetime | None) -> Piece:
    """The final columns of some entries from their parsed columns. `raw` None: every entry is `_head + message`."""
    rows = len(starts)
    message, truncated, head, raw = _entries_text(columns, raw)
    release_memory()  # the lines, when the entries are held as head and message
    stamp, yearless = _stamps(fmt, columns, rows, year=year, reference=reference)
    severity, level_raw = _levels(columns, rows)
    named = {"timestamp": stamp, "severity": severity, "level_raw": level_raw,
             **{name: columns.pop(name, None) for name in ("host", "component", "pid")}, "message": message}
    _encode(named)
    return Piece({**named, **columns}, head, raw, starts, truncated, yearless)


def _entries_text(columns: Columns, raw: pa.Array | None) -> tuple[pa.Array, int, pa.Array | pa.ChunkedArray | None,
                                                                   pa.Array | None]:
    """The (cut) messages popped from `columns`, how many were cut, and the entries as written: as `head`
    before each message when that rebuilds them, else as `raw`."""
    written = columns.pop("message")
    message, truncated = _truncate(written)
    head = columns.pop(HEAD_GROUP, None)
    if raw is None and truncated:  # the lines became the messages: the entries as written are rebuilt
        raw = concat(head, written)
    del written
    if raw is not None:
        head = _raw_head(head, message, raw) if not truncated else None
    return message, truncated, head, (raw if head is None else None)


def _stamps(fmt: Format, columns: Columns, rows: int, *, year: int | None,
            reference: datetime | None) -> tuple[pa.Array, np.ndarray]:
    """The timestamps read from the popped time column, and which of them were written without a year."""
    ts_text = columns.pop(TIME_GROUP, None)
    if ts_text is None:
        return pa.nulls(rows, timestamps.TIMESTAMP_TYPE), np.zeros(rows, np.int8)
    return timestamps.parse_dated(ts_text, fmt.shapes, year=years.default_year(year, reference),
                                  reference=reference, anchored=not fmt.search_time)


def _levels(columns: Columns, rows: int) -> tuple[pa.Array, pa.Array]:
    """The severity and level as written, with the level groups popped from `columns`."""
    severity, level_raw = severity_columns(columns, rows)
    for group in LEVEL_GROUPS:
        columns.pop(group, None)
    _written_wins(columns, level_raw)
    return severity, level_raw


def _encode(named: dict[str, pa.Array | None]) -> None:
    """Hold the named columns of a few values over many rows as dictionaries from here on."""
    for name in ENCODED_COLUMNS:
        if (values := named.get(name)) is not None and values.type == STRING:
            named[name] = pc.dictionary_encode(values)


def _written_wins(columns: Columns, level_raw: pa.Array) -> None:
    """No rule is named on rows whose level was written (a written level wins over an inferred one)."""
    rule = columns.get(RULE_COLUMN)
    if rule is not None:
        columns[RULE_COLUMN] = pc.if_else(pc.is_valid(level_raw), pa.scalar(None, rule.type), rule)


def _segmented(fmt: Format, lines: pa.Array) -> bool:
    return len(lines) > 0 and not fmt.multiline and _headed(fmt, lines)


def _extracted(fmt: Format, lines: pa.Array, pool: ThreadPoolExecutor) -> Iterator[tuple[int, Columns, Tried]]:
    """Each segment's first line, groups and patterns, in order; segments are matched in threads, a few ahead."""

    def extract(first: int) -> tuple[int, Columns, Tried]:
        columns, _, seen = match_lines(fmt.patterns, lines.slice(first, SEGMENT_LINES), messages=False)
        return first, columns, seen

    return ahead(pool, extract, range(0, len(lines), SEGMENT_LINES))


def _segments(fmt: Format, lines: pa.Array, *, year: int | None, reference: datetime | None,
              done: Callable[[float], None]) -> tuple[list[Piece], list[str], pa.Array | None]:
    """The pieces of a file parsed segment by segment, the order of the format's groups, and every message when
    all are as cut from the lines in place; `done` hears the share of lines parsed. The lines are consumed."""
    cutter = MessageCutter(lines)
    pieces: list[Piece] = []
    seen = Tried()
    cut: list[pa.Array] = []
    with ThreadPoolExecutor(workers()) as pool:
        for first, columns, tried in _extracted(fmt, lines, pool):
            seen.add(tried)
            count = min(SEGMENT_LINES, len(lines) - first)
            skip = _blank_heads(columns, count)
            message = cutter.cut(first, skip) if cutter.editable else tails(lines.slice(first, count), skip)
            columns["message"] = message
            raw = _finished(fmt, columns, None)
            pieces.append(_piece(fmt, columns, raw, range(first, first + count), year=year, reference=reference))
            cut.append(message)
            done((first + count) / len(lines))
    return pieces, seen.order(fmt.patterns), _cut_whole(cutter, pieces, cut)


def _cut_whole(cutter: MessageCutter | None, pieces: list[Piece], cut: list[pa.Array]) -> pa.Array | None:
    """Every message of the file, when `cutter` cut each piece's in place, in order (`cut`), and it is the piece's
    message still (a format's finish or a cut of long messages makes others); else None."""
    if cutter is None or not cutter.editable or len(cut) != len(pieces):
        return None
    whole = all(piece.columns["message"] is message for piece, message in zip(pieces, cut, strict=True))
    return cutter.messages() if whole else None


def _blank_lead(fmt: Format, lines: pa.Array) -> int:
    """How many blank lines come before the first entry of a file whose entries span lines (apt starts each stanza
    with one): they are no entry of their own. 0 when the first line that is not blank starts no entry."""
    lead = 0
    while lead < len(lines) and not str(lines[lead].as_py() or "").strip():
        lead += 1
    if not lead or lead == len(lines) or fmt.reader is not None:
        return 0
    return lead if match_lines(fmt.patterns, lines.slice(lead, 1), messages=False)[1][0] else 0


def _entry_bounds(fmt: Format, lines: pa.Array, start: int) -> list[int]:
    """Where the segments of a file whose entries may span lines begin, then its line count: about every
    SEGMENT_LINES lines, moved on to the next line that starts an entry (one a pattern matches), so that no entry
    is split between segments."""
    bounds, at = [start], start + SEGMENT_LINES
    while at < len(lines):
        window = lines.slice(at, BOUNDARY_LINES)
        starts = np.flatnonzero(match_lines(fmt.patterns, window, messages=False)[1])
        at += int(starts[0]) if len(starts) else len(window)
        if len(starts):
            bounds.append(at)
            at += SEGMENT_LINES
    return [*bounds, len(lines)]


def _entry_segments(fmt: Format, lines: pa.Array, *, year: int | None, reference: datetime | None,
                    done: Callable[[float], None]) -> tuple[list[Piece], list[str], pa.Array | None]:
    """The pieces of a file parsed whole entries at a time (a segment of a file whose entries may span lines, or
    the whole file), the order of the format's groups, and every message when all are as cut from the lines in
    place, one after another (see `_pieces`); `done` hears the share of lines parsed."""
    segmented = fmt.multiline and fmt.reader is None
    lead = _blank_lead(fmt, lines) if fmt.multiline else 0
    bounds = _entry_bounds(fmt, lines, lead) if segmented else [lead, len(lines)]
    spans = list(pairwise(bounds))
    pieces, seen, message = _pieces(fmt, lines, spans, year=year, reference=reference, done=done)
    return pieces, seen.order(fmt.patterns) if len(spans) > 1 else [], message


def _pieces(fmt: Format, lines: pa.Array, spans: list[tuple[int, int]], *, year: int | None,
            reference: datetime | None, done: Callable[[float], None]) -> tuple[list[Piece], Tried, pa.Array | None]:
    """The pieces of the entries of each span of lines, and every message when all are as one `MessageCutter` cut
    them in place, span after span, into one array: so it goes while each line of the spans from the file's first
    line is an entry (a span that joins lines, and those after it, are cut within their own lines, and their
    messages joined into one array later). The spans' lines are matched here, one span after another: matching
    them in threads a few spans ahead cost 0.17 s more system time on a first ask over 500k OpenStack lines (memory
    faulted in by several threads at once) and gained no wall time on 2 shared cores."""
    pieces: list[Piece] = []
    seen = Tried()
    cutter = MessageCutter(lines) if spans and spans[0][0] == 0 and _headed(fmt, lines) else None
    cut: list[pa.Array] = []
    for first, end in spans:
        in_turn = cutter if cutter is not None and cutter.editable and len(cut) == len(pieces) else None
        columns, raw, starts, tried = _rows(fmt, lines.slice(first, end - first), in_turn, first)
        if in_turn is not None and raw is None:  # cut by it: the message is the piece's, as cut
            cut.append(columns["message"])
        seen.add(tried)
        starts = range(first + starts.start, first + starts.stop) if isinstance(starts, range) else starts + first
        pieces.append(_piece(fmt, columns, raw, starts, year=year, reference=reference))
        del columns, raw
        done(end / max(len(lines), 1))
    return pieces, seen, _cut_whole(cutter, pieces, cut)


def parse_lines(
    fmt: Format,
    held: list[pa.Array],
    *,
    source: str,
    year: int | None = None,
    reference: datetime | None = None,
    done: Callable[[float], None] = lambda share: None,
) -> Parsed:
    """Parse the lines of one file with `fmt` into the canonical columns, the format's extras and the entries as
    written: `raw_head` (the text before each message) where `raw_head + message` gives every entry, else `raw`.

    `held` is a list holding the lines array, emptied here. The lines are consumed: lines made by `split` are
    edited in place into the messages, and otherwise, when the caller keeps no other reference, freed as soon as
    the entries are held as `raw_head` and `message`, before the other columns are built. Where each line is an
    entry and its message ends it, the lines are parsed a segment at a time (`SEGMENT_LINES`), so that only a few
    segments' captures are held at once, and `done` hears the share of lines parsed after each.
    """
    lines = held.pop()
    if _segmented(fmt, lines):
        pieces, order, message = _segments(fmt, lines, year=year, reference=reference, done=done)
        del lines
    else:
        pieces, order, message = _entry_segments(fmt, lines, year=year, reference=reference, done=done)
        del lines
    truncated = sum(piece.truncated for piece in pieces)
    table, notes, year_assumed = assemble(pieces, message, order, fmt.extras, source=source, year=year,
                                          reference=reference)
    cut = [f"{source}: {truncated} very long entries; message cut to {MAX_MESSAGE_CHARS} chars (raw kept)"]
    return Parsed(table, notes + cut * bool(truncated), year_assumed)
