"""Loading logs on the workers: files read in blocks and parsed by the same parser as the in-process loader.

Each uncompressed file bigger than a block is cut at line ends (`dask.bytes.read_bytes`); compressed files,
UTF-16 files and files of at most one block are one partition each. A block's lines are parsed with the file's
format (detected on the client from a sample of the start and middle), then each partition gets its file's line
numbers and global row labels `0..N-1`, as in-process. Lines at the start of a block that continue the entry
begun in the block before (a stack trace split by the cut) are joined to that entry.
"""

from __future__ import annotations

import codecs
import io
import sys
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import pandas as pd

from react_engine.dask.files import HEAD_BYTES, RemoteFile, expand_inputs, read_all, read_range
from react_engine.dask.ops import remember
from react_engine.dask.summary import Facts, facts, seed
from react_engine.errors import InputError
from react_engine.logs.detect import by_name, detect
from react_engine.logs.formats.base import Format
from react_engine.logs.lines import split
from react_engine.logs.loader import PathsArg, parse_content, reference_time, to_frame
from react_engine.logs.memory import BYTES_PER_INPUT_BYTE
from react_engine.logs.options import LoadOptions
from react_engine.logs.parse import MAX_MESSAGE_CHARS, TRUNCATION_MARK, match_patterns, parse_lines
from react_engine.logs.reading import compression, is_binary, read_stream
from react_engine.logs.schema import RAW_COLUMN

if TYPE_CHECKING:
    import dask.dataframe as dd
    from distributed import Client

BLOCKSIZE = 32 * 2**20
DETECT_BYTES = 2**20  # bytes from the start and from the middle of a big file that its format is detected on


@dataclass
class Block:
    """What one parsed block reports back to the client (its rows stay on the worker)."""

    lines: int
    rows: int
    lead: bool  # the block starts with lines continuing the entry of the block before
    dtypes: dict[str, str]
    warnings: list[str] = field(default_factory=list)
    format: str | None = None
    facts: Facts | None = None  # of the rows the block keeps


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
    parsed = parse_lines(fmt, lines.text, source=name, year=year, reference=reference_time(mtime))
    frame = to_frame([parsed.table])
    lead = not first and fmt.multiline and len(lines.text) > 0 and not _starts_entry(fmt, lines.text.slice(0, 1))
    warnings = parsed.warnings + ([f"{name}: {lines.replaced} undecodable bytes replaced with U+FFFD"]
                                  if lines.replaced else [])
    return frame, Block(len(lines.text), len(frame), lead, _dtypes(frame), warnings, fmt.name,
                        facts(frame.iloc[1:] if lead else frame))


def parse_file(url: str, name: str, options: LoadOptions, mtime: float | None) -> tuple[pd.DataFrame, Block]:
    """A whole file (compressed, UTF-16 or small) parsed exactly as the in-process loader parses it."""
    content = read_stream(io.BytesIO(read_all(url)), name, options)
    table, info = parse_content(content, name, mtime, options)
    if table is None:
        return pd.DataFrame(), Block(0, 0, False, {}, info["warnings"], None)
    frame = to_frame([table])
    return frame, Block(info["lines"], len(frame), False, _dtypes(frame), info["warnings"], info["format"],
                        facts(frame))


def _lead(part: tuple[pd.DataFrame, Block]) -> pd.DataFrame:
    return part[0].iloc[:1][[RAW_COLUMN, "message"]]


def _joined(text: str, more: str) -> str:
    joined = f"{text}\n{more}"
    return joined if len(joined) <= MAX_MESSAGE_CHARS else joined[:MAX_MESSAGE_CHARS] + TRUNCATION_MARK


def finish_block(part: tuple[pd.DataFrame, Block], leads: list[pd.DataFrame], line_offset: int, start: int,
                 meta: pd.DataFrame) -> pd.DataFrame:
    """A parsed block as a partition: its file's line numbers, global labels from `start`, the meta's columns,
    and the continuation lines of the following blocks (`leads`) joined to its last entry."""
    frame, block = part
    frame = frame.iloc[1:] if block.lead else frame
    if leads and len(frame):
        last = frame.index[-1]
        for lead in leads:
            frame.loc[last, RAW_COLUMN] = f"{frame.loc[last, RAW_COLUMN]}\n{lead[RAW_COLUMN].iloc[0]}"
            frame.loc[last, "message"] = _joined(frame.loc[last, "message"], lead["message"].iloc[0])
    frame["line"] = frame["line"] + line_offset
    for column, dtype in meta.dtypes.items():
        if column not in frame:
            frame[column] = pd.Series(pd.NA, index=frame.index, dtype=dtype)
        elif frame[column].dtype != dtype:
            frame[column] = frame[column].astype(dtype)
    frame = frame[list(meta.columns)]
    frame.index = pd.RangeIndex(start, start + len(frame))
    return frame


@dataclass
class _Input:
    """One file's plan: its format and whether it is read whole (one partition) or in blocks."""

    file: RemoteFile
    fmt: str | None
    whole: bool


def _sample(file: RemoteFile, head: bytes) -> bytes:
    """Whole lines from the start and the middle of a big file, for format detection."""
    middle = read_range(file.url, file.size // 2, DETECT_BYTES)
    start = head[: head.rfind(b"\n") + 1]
    return start + middle[middle.find(b"\n") + 1 : middle.rfind(b"\n") + 1]


def _plan(file: RemoteFile, fmt_name: str | None, blocksize: int) -> tuple[_Input | None, list[str]]:
    head = read_range(file.url, 0, max(HEAD_BYTES, DETECT_BYTES if file.size > blocksize else 0))
    small = file.size <= blocksize or compression(head) is not None
    if small or head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _Input(file, fmt_name, whole=True), []
    if is_binary(head):
        return None, [f"{file.name}: binary content (NUL or control bytes), skipped"]
    fmt = fmt_name or detect(split(_sample(file, head)).text).name
    return _Input(file, fmt, whole=False), []


def _progress(client: Client, futures: list[Any], what: str) -> None:
    """Wait for `futures`, with a progress bar on a terminal."""
    from distributed import as_completed
    from tqdm import tqdm

    with tqdm(total=len(futures), desc=what, unit="part", disable=not sys.stderr.isatty(), leave=False) as bar:
        for _ in as_completed(futures):
            bar.update(1)


def _union(blocks: list[Block]) -> pd.DataFrame:
    """An empty frame with every block's columns, in order of first appearance; conflicting types become text."""
    dtypes: dict[str, str] = {}
    for block in blocks:
        for name, dtype in block.dtypes.items():
            if dtypes.setdefault(name, dtype) != dtype:
                dtypes[name] = "str"
    return pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in dtypes.items()})


def load(client: Client, paths: PathsArg, options: LoadOptions | None = None, *,
         blocksize: int = BLOCKSIZE) -> dd.DataFrame:
    """The logs at `paths` as a Dask frame with the in-process loader's rows, columns, row labels and `attrs`
    (`warnings`, `files`). The frame is persisted on the cluster when it fits in half the workers' memory;
    otherwise each pass over it reads and parses the files again, block by block, so logs bigger than the
    cluster's memory are answered too (the rows a filter keeps are persisted either way)."""
    from dask import delayed
    from dask.bytes import read_bytes

    options = options or LoadOptions()
    format, year = options.format, options.year
    if format is not None:
        by_name(format)
    inputs, warnings = [], []
    for file in expand_inputs(paths, options):
        planned, skipped = _plan(file, format, blocksize)
        warnings.extend(skipped)
        if planned is not None:
            inputs.append(planned)
    tasks, owners = [], []
    for item in inputs:
        file = item.file
        if item.whole:
            tasks.append(delayed(parse_file, pure=True)(file.url, file.name, options, file.mtime))
            owners.append(item)
            continue
        _, chunks = read_bytes(file.url, delimiter=b"\n", blocksize=blocksize, sample=False)
        for i, data in enumerate(chunks[0]):
            tasks.append(delayed(parse_block, pure=True)(data, file.name, item.fmt, year, file.mtime, i == 0))
            owners.append(item)
    fits = _fits(client, sum(item.file.size for item in inputs))
    parsed = client.persist(tasks) if fits else tasks
    reports = [client.compute(delayed(itemgetter(1))(p)) for p in parsed]
    try:
        _progress(client, reports, "loading")
        reported: list[Block] = client.gather(reports)
    except (OSError, InputError) as exc:
        raise InputError(str(exc) if isinstance(exc, InputError) else
                         f"the Dask workers cannot read the logs ({exc}); use paths or URLs every worker can reach") \
            from None
    frame = _assemble(parsed, reported, owners, warnings)
    frame = client.persist(frame) if fits else frame
    remember("count", frame, sum(b.rows - b.lead for b in reported))
    seed(frame, [b.facts for b in reported if b.facts is not None and b.rows - b.lead > 0])
    return frame


def _fits(client: Client, size: int) -> bool:
    """Whether `size` bytes of logs, once parsed, fit in half the memory the workers may use."""
    limits = [w.get("memory_limit") or 0 for w in client.scheduler_info(n_workers=-1)["workers"].values()]
    return size * BYTES_PER_INPUT_BYTE <= sum(limits) / 2


def _assemble(parsed: list[Any], blocks: list[Block], owners: list[_Input], warnings: list[str]) -> dd.DataFrame:
    import dask.dataframe as dd
    from dask import delayed

    files: dict[str, dict[str, Any]] = {}
    for block, owner in zip(blocks, owners):
        info = files.setdefault(owner.file.name, {"path": owner.file.name, "format": block.format, "rows": 0,
                                                  "lines": 0, "warnings": []})
        info["rows"] += block.rows - block.lead
        info["lines"] += block.lines
        info["warnings"].extend(block.warnings)
    if not any(info["format"] for info in files.values()):
        names = ", ".join([*files, *(w.split(": ", 1)[0] for w in warnings)])
        raise InputError(f"{names}: only binary content found; point at text log files (decompressed or .gz/.bz2/.xz)")
    meta = _union([b for b in blocks if b.format])
    leads: list[list[Any]] = [[] for _ in blocks]
    kept: list[int] = []  # blocks with rows left once their leading continuation lines are handed back
    for i, block in enumerate(blocks):
        if block.lead:
            leads[kept[-1]].append(delayed(_lead)(parsed[i]))  # a file's first block is never a lead
        if block.rows - block.lead > 0:
            kept.append(i)
    kept_set = set(kept)
    parts, divisions, start, line_offset, current = [], [], 0, 0, None
    for i, block in enumerate(blocks):
        if owners[i].file is not current:
            current, line_offset = owners[i].file, 0
        if i in kept_set:
            parts.append(delayed(finish_block, pure=True)(parsed[i], leads[i], line_offset, start, meta))
            divisions.append(start)
            start += block.rows - block.lead
        line_offset += block.lines
    meta.attrs.update(warnings=warnings + [w for info in files.values() for w in info["warnings"]],
                      files=list(files.values()))
    if not parts:
        frame = dd.from_pandas(meta, npartitions=1)
    else:
        frame = dd.from_delayed(parts, meta=meta, divisions=(*divisions, start - 1), verify_meta=False)
    return frame
