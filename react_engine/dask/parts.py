"""One partition of a Dask load: a piece of one file, parsed on a worker by the in-process parser, then finished.

A piece is a whole file (compressed, UTF-16 or small) or a block of a big file cut at line ends. Parsing it
gives the rows and a `Block` report for the client; finishing it (once every block's report is known) gives the
file's line numbers, global row labels, the load's columns, and the continuation lines of the next blocks.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from react_engine.dask.files import RemoteFile, read_block
from react_engine.dask.overview import Facts, facts
from react_engine.logs.detect import by_name
from react_engine.logs.formats.logformat import Format
from react_engine.logs.lines import split
from react_engine.logs.loader import parse_content, reference_time, to_frame
from react_engine.logs.matching import match_patterns
from react_engine.logs.options import LoadOptions
from react_engine.logs.parse import MAX_MESSAGE_CHARS, TRUNCATION_MARK, parse_lines
from react_engine.logs.reading import read_stream
from react_engine.logs.schema import RAW_COLUMN


@dataclass
class Block:
    """What one parsed piece reports back to the client (its rows stay on the worker)."""

    lines: int
    rows: int
    lead: tuple[str, str] | None  # `raw` and `message` of leading lines continuing the entry of the block before
    dtypes: dict[str, str]
    warnings: list[str] = field(default_factory=list)
    format: str | None = None
    facts: Facts | None = None  # of the rows the block keeps

    @property
    def kept(self) -> int:
        """The rows this block keeps (a lead belongs to the block before)."""
        return self.rows - (self.lead is not None)


@dataclass(frozen=True)
class Piece:
    """A whole file (`length` None), or the block of it from `offset` to the first line end after
    `offset + length`; `fmt` is the format detected for a file read in blocks."""

    file: RemoteFile
    options: LoadOptions
    fmt: str | None = None
    offset: int = 0
    length: int | None = None


def parse_piece(piece: Piece) -> tuple[pd.DataFrame, Block]:
    """The rows of `piece` and its report (runs on a worker)."""
    file = piece.file
    if piece.length is None or piece.fmt is None:
        return parse_file(file.url, file.name, piece.options, file.mtime)
    data = read_block(file.url, piece.offset, piece.length)
    return parse_block(data, file.name, piece.fmt, piece.options.year, file.mtime, piece.offset == 0)


def _dtypes(frame: pd.DataFrame) -> dict[str, str]:
    return {str(name): str(dtype) for name, dtype in frame.dtypes.items()}


def _starts_entry(fmt: Format, line: Any) -> bool:
    if fmt.reader is not None:
        return bool(fmt.reader(line)[1].to_numpy(zero_copy_only=False)[0])
    return bool(match_patterns(fmt.patterns, line)[1][0])


def parse_block(data: bytes, name: str, fmt_name: str, year: int | None, mtime: float | None,
                first: bool) -> tuple[pd.DataFrame, Block]:
    """One block of a file (cut at a line end) parsed like a whole file; `first` for the file's first block."""
    fmt = by_name(fmt_name)
    lines = split(data)
    del data
    continues = not first and fmt.multiline and len(lines.text) > 0 and not _starts_entry(fmt, lines.text.slice(0, 1))
    count = len(lines.text)
    parsed = parse_lines(fmt, [lines.text], source=name, year=year, reference=reference_time(mtime))
    frame = to_frame([parsed.table])
    lead = (str(frame[RAW_COLUMN].iloc[0]), str(frame["message"].iloc[0])) if continues else None
    warnings = parsed.warnings + ([f"{name}: {lines.replaced} undecodable bytes replaced with U+FFFD"]
                                  if lines.replaced else [])
    return frame, Block(count, len(frame), lead, _dtypes(frame), warnings, fmt.name,
                        facts(frame.iloc[1:] if continues else frame))


def parse_file(url: str, name: str, options: LoadOptions, mtime: float | None) -> tuple[pd.DataFrame, Block]:
    """A whole file (compressed, UTF-16 or small) parsed exactly as the in-process loader parses it."""
    content = read_stream(io.BytesIO(read_block(url)), name, options)
    table, info = parse_content(content, name, mtime, options)
    if table is None:
        return pd.DataFrame(), Block(0, 0, None, {}, info["warnings"], None)
    frame = to_frame([table])
    return frame, Block(info["lines"], len(frame), None, _dtypes(frame), info["warnings"], info["format"],
                        facts(frame))


def _joined(text: str, more: str) -> str:
    joined = f"{text}\n{more}"
    return joined if len(joined) <= MAX_MESSAGE_CHARS else joined[:MAX_MESSAGE_CHARS] + TRUNCATION_MARK


@dataclass(frozen=True)
class Finish:
    """How a parsed piece becomes a partition: drop its `lead` row, join the `leads` of the blocks after it to
    its last entry, number its lines from `line_offset`, label its rows from `start`."""

    lead: bool
    leads: tuple[tuple[str, str], ...]
    line_offset: int
    start: int


def finish_block(frame: pd.DataFrame, finish: Finish, meta: pd.DataFrame) -> pd.DataFrame:
    """A parsed piece as a partition (see `Finish`) with the meta's columns: all of the load's, or those a pass
    reads."""
    frame = frame.iloc[1:] if finish.lead else frame
    if finish.leads and len(frame):
        _join_leads(frame, finish.leads)
    if "line" in frame:
        frame["line"] = frame["line"] + finish.line_offset
    frame = _as_meta(frame, meta)
    frame.index = pd.RangeIndex(finish.start, finish.start + len(frame))
    return frame


def _join_leads(frame: pd.DataFrame, leads: tuple[tuple[str, str], ...]) -> None:
    """Join the lines of the next blocks' first entry to the frame's last entry."""
    last = frame.index[-1]
    for raw, message in leads:
        if RAW_COLUMN in frame:
            frame.loc[last, RAW_COLUMN] = f"{frame.loc[last, RAW_COLUMN]}\n{raw}"
        if "message" in frame:
            frame.loc[last, "message"] = _joined(frame.loc[last, "message"], message)


def _as_meta(frame: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """The frame with the meta's columns, in its order and of its types (empty where the frame lacks one)."""
    for column, dtype in meta.dtypes.items():
        if column not in frame:
            frame[column] = pd.Series(pd.NA, index=frame.index, dtype=dtype)
        elif frame[column].dtype != dtype:
            frame[column] = frame[column].astype(dtype)
    return frame[list(meta.columns)]
