"""`load()`: paths in, one canonical DataFrame out."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.errors import InputError
from react_engine.logs import frame_cache
from react_engine.logs.arrow import concat, may_hold, prefer_jemalloc, release_memory
from react_engine.logs.detect import Detector, by_name
from react_engine.logs.lines import split
from react_engine.logs.memory import MemoryBudget, out_of_memory_refused
from react_engine.logs.options import LoadOptions
from react_engine.logs.packing import decode_names, encode_names
from react_engine.logs.parse import parse_lines
from react_engine.logs.progress import Progress
from react_engine.logs.reading import Content, binary_note, read
from react_engine.logs.schema import RAW_COLUMN, RAW_HEAD
from react_engine.logs.sources import SourceFile, expand
from react_engine.logs.stored import as_loaded

PathsArg = Sequence[str | os.PathLike[str]] | str | os.PathLike[str]
REREAD_BYTES = 32 << 20
"""A parsed table this large is read back from the cache entry just written: its text is then the entry's, mapped
from the file (pages the OS can share and take back), not a second copy in the process's own memory."""
ANSI_CODE = r"\x1b\[[0-9;?]*[A-Za-z]"
"""A terminal's colour or cursor code, as coloured program output writes it."""
_STR_DTYPE = pd.StringDtype("pyarrow", na_value=np.nan)


@dataclass(frozen=True)
class Loaded:
    """Per-file Arrow tables, per-file info and the notes on the whole load (e.g. files left out)."""

    tables: list[pa.Table]
    files: list[dict[str, Any]]
    notes: list[str]

    @property
    def warnings(self) -> list[str]:
        """The notes, then every file's warnings."""
        return self.notes + [w for info in self.files for w in info["warnings"]]


def _parse_file(source: SourceFile, options: LoadOptions, budget: MemoryBudget, detector: Detector,
                progress: Progress) -> tuple[pa.Table | None, dict]:
    """Parse one input; returns (None, info) when it is skipped as binary."""
    with out_of_memory_refused(source.name):
        return parse_content(read(source, options, budget), source.name, source.mtime, options, detector,
                             progress.done)


def parse_content(content: Content, name: str, mtime: float | None, options: LoadOptions,
                  detector: Detector | None = None,
                  done: Callable[[float], None] = lambda share: None) -> tuple[pa.Table | None, dict[str, Any]]:
    """Parse one input's (decompressed) content; returns (None, info) when it is skipped as binary.

    `detector` remembers the formats of earlier files (see `Detector`); without one the format is detected afresh.
    `done` hears the share of the lines parsed, as parsing goes (see `parse_lines`).
    """
    info: dict[str, Any] = {"path": name, "format": None, "rows": 0, "lines": 0, "warnings": []}
    if content.binary_at is not None:
        info["warnings"].append(f"{name}: binary content (control bytes) at byte {content.binary_at:,}, skipped")
        return None, info
    if content.binary:
        info["warnings"].append(binary_note(name, content.binary))
    lines = split(content.data)
    del content
    if lines.replaced:
        info["warnings"].append(f"{name}: {lines.replaced} undecodable bytes replaced with U+FFFD")
    if lines.nul_lines:
        info["warnings"].append(f"{name}: {lines.nul_lines} lines held NUL bytes; the NULs were removed, "
                                "the lines kept")
    if not len(lines.text):
        info["warnings"].append(f"{name}: empty file, 0 rows")
    text, coloured = without_colours(lines.text)
    if coloured:
        info["warnings"].append(f"{name}: {coloured} lines held terminal colour codes; they were removed")
    fmt = by_name(options.format) if options.format else (detector or Detector()).detect(name, text)
    info.update(format=fmt.name, lines=len(text), replaced_bytes=lines.replaced)
    held = [text]
    del text
    del lines  # parse_lines frees the lines once it no longer needs them
    parsed = parse_lines(fmt, held, source=name, year=options.year, reference=reference_time(mtime), done=done)
    info["rows"] = parsed.table.num_rows
    if parsed.year_assumed is not None:
        info["year_assumed"] = parsed.year_assumed
    info["warnings"].extend(parsed.warnings)
    return parsed.table, info


def without_colours(text: pa.Array) -> tuple[pa.Array, int]:
    """The lines with ANSI colour and cursor codes (`ESC[1;31m`) removed, and how many lines held one (none when
    their text holds no ESC byte, found without searching each line: 0.4 s of CPU on 1M lines)."""
    if not may_hold(text, 0x1B):
        return text, 0
    marked = pc.match_substring(text, "\x1b[")
    count = pc.sum(marked).as_py() or 0
    if not count:
        return text, 0
    return pc.replace_substring_regex(text, ANSI_CODE, ""), count


def reference_time(mtime: float | None) -> datetime | None:
    """The time a file's year-less dates are read against: its modification time."""
    return datetime.fromtimestamp(mtime, UTC) if mtime is not None else None


def load_tables(paths: PathsArg, options: LoadOptions | None = None) -> Loaded:
    """Per-file Arrow tables and file info (binary inputs are skipped, with a warning in their info).

    The name columns are dictionaries (see `packing.encode_names`), in a fresh parse as in a cache hit.

    A load that will not fit in memory is refused before any file is read.
    """
    options = options or LoadOptions()
    if options.format is not None:
        by_name(options.format)
    prefer_jemalloc()
    inputs = expand(paths, options)
    budget, detector = MemoryBudget(), Detector()
    budget.plan(sum(source.size for source in inputs.files))
    key = options.parse_key()
    tables: list[pa.Table] = []
    infos: list[dict[str, Any]] = []
    stored = False
    with Progress(len(inputs.files)) as progress:
        for index, source in enumerate(inputs.files):
            parse = functools.partial(_parse_file, source, options, budget, detector, progress)
            table, info, written = _table(index, source, key, parse, progress, cached=options.use_cache)
            stored |= written
            infos.append(info)
            if table is not None:
                tables.append(table)
    if stored:
        frame_cache.evict()
    release_memory(heap=True)  # what parsing freed
    if not tables:
        names = ", ".join(i["path"] for i in infos)
        raise InputError(f"{names}: only binary content found; point at text log files (decompressed or .gz/.bz2/.xz)")
    return Loaded(tables, infos, inputs.notes())


def _table(index: int, source: SourceFile, key: dict[str, Any], parse: Callable[[], tuple[pa.Table | None, dict]],
           progress: Progress, *, cached: bool) -> tuple[pa.Table | None, dict[str, Any], bool]:
    """A file's table and info: read from its cache entry when `cached` and it has one, else parsed, and cached
    when `cached` (see `_cache`). The last item tells whether an entry was written."""
    progress.step(index, source.name, source.size, "reading cached")
    if cached and (hit := frame_cache.get(source, key)):
        return *hit, False
    progress.step(index, source.name, source.size, "parsing")
    table, info = parse()
    if not cached or table is None:
        return table, info, False
    progress.step(index, source.name, source.size, "caching")
    held, table = [table], None  # so that a re-read frees the parse first
    return _cache(source, key, held, info, parse)


def _cache(source: SourceFile, key: dict[str, Any], held: list[pa.Table], info: dict[str, Any],
           parse: Callable[[], tuple[pa.Table | None, dict]]) -> tuple[pa.Table | None, dict[str, Any], bool]:
    """Write a parsed file's cache entry; a large table is read back from its
    entry, as a cached ask holds it (`parse` again when it cannot be). `held` holds the parsed table, taken from it
    here. Returns the table, its info and whether an entry was written."""
    table = held.pop()
    entry = frame_cache.put(source, key, table, info)
    if entry and table.nbytes >= REREAD_BYTES:  # from here on held as a cached ask holds it
        del table  # freed first: a parse and its entry are never held at once
        table, info = frame_cache.get(source, key, checked=False) or parse()  # summed as it was written
    elif entry:
        info["entry"] = entry
    return table, info, entry is not None


def _types(arrow_type: pa.DataType) -> Any:
    if arrow_type in (pa.large_string(), pa.string()):
        return _STR_DTYPE
    if pa.types.is_integer(arrow_type):
        return pd.Int64Dtype()
    return None


def _with_raw(table: pa.Table) -> pa.Table:
    """`table` with each entry as written in `raw`, in place of `raw_head` (see `parse_lines`)."""
    index = table.schema.get_field_index(RAW_HEAD)
    if index < 0:
        return table
    raw = concat(table[RAW_HEAD], table["message"])
    return table.remove_column(index).append_column(RAW_COLUMN, raw)


def to_frame(tables: list[pa.Table], *, raw: bool = True) -> pd.DataFrame:
    """One DataFrame from per-file tables (columns unioned; missing values are null); string columns are `str`.

    `raw=False` loads lean, as the engine does. It keeps a file's entries as `raw_head` (the text before each
    message) beside `message` where it can, instead of a `raw` column that repeats every message
    (`logs.text.entry_text` joins them when needed). And it holds the name columns (`CATEGORICAL_COLUMNS`) as pandas
    categoricals whose categories are the values present, in order of appearance; a subset of the rows keeps
    all the categories, so code that counts or lists their values goes through `rowops`, which sees only the
    values in the rows at hand.
    """
    lean = not raw and all(RAW_HEAD in table.column_names for table in tables)
    tables = tables if lean else [_with_raw(table) for table in tables]
    tables = [decode_names(table) if raw else encode_names(table) for table in tables]
    table = pa.concat_tables(tables, promote_options="permissive") if len(tables) > 1 else tables[0]
    frame = table.to_pandas(types_mapper=_types, self_destruct=True, split_blocks=True)
    frame["line"] = frame["line"].astype("int64")
    return frame


class Notes(list):
    """The loader's notes in a frame's `attrs`, shared by every frame derived from it rather than copied: pandas
    deep-copies `attrs` on each operation, and for a folder of 10,000 files that copy cost more than the operation
    (a cached ask on 200,000 rows gave up after a minute). Nothing changes them once loaded."""

    def __copy__(self) -> Notes:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Notes:
        return self


def load(paths: PathsArg, options: LoadOptions | None = None, *, raw: bool = True) -> pd.DataFrame:
    """Load log files into one DataFrame with the canonical columns, `raw` and format extras.

    `paths`: files, directories (recursive), globs, `-` (stdin); gzip/bzip2/xz by magic bytes.
    `options`: see `LoadOptions` (`format` forces a format by name, see `format_names()`).
    `raw=False` loads lean: see `to_frame` (the text of the log is then held once, not twice, and the name
    columns are categoricals).
    `df.attrs["warnings"]` lists what the user should know; `df.attrs["files"]` describes each input.
    """
    loaded = load_tables(paths, options)
    frame = to_frame(loaded.tables, raw=raw)
    frame.attrs["warnings"] = Notes(loaded.warnings)
    frame.attrs["files"] = Notes(loaded.files)
    assumed = year_assumed(loaded.files)
    if assumed is not None:
        frame.attrs["year_assumed"] = assumed
    return as_loaded(frame)


def year_assumed(files: list[dict[str, Any]]) -> int | bool | None:
    """The year the files' yearless dates were given (see `years.roll`): an int when one, True when several, None
    when every date was written with its year."""
    found = {info["year_assumed"] for info in files if info.get("year_assumed") is not None}
    if not found:
        return None
    return found.pop() if len(found) == 1 else True
