"""Loading logs on the workers: files read in blocks and parsed by the same parser as the in-process loader.

Each uncompressed file bigger than a block is cut at line ends (as `dask.bytes.read_bytes` cuts); compressed
files, UTF-16 files and files of at most one block are one partition each. A block's lines are parsed with the
file's format (detected on the client from a sample of the start and middle), then each partition gets its
file's line numbers and global row labels `0..N-1`, as in-process (see `parts`). Parsed rows are persisted in
the workers' memory when they fit, else written to Parquet files once (see `spill`).
"""

from __future__ import annotations

import codecs
import sys
import time
from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import pandas as pd

from react_engine.dask import spill
from react_engine.dask.files import HEAD_BYTES, RemoteFile, expand_inputs, read_range
from react_engine.dask.ops import remember
from react_engine.dask.overview import seed
from react_engine.dask.parts import Block, Finish, Piece, finish_block, parse_piece
from react_engine.errors import InputError
from react_engine.logs.detect import by_name, detect
from react_engine.logs.lines import split
from react_engine.logs.loader import PathsArg
from react_engine.logs.memory import BYTES_PER_INPUT_BYTE
from react_engine.logs.options import LoadOptions
from react_engine.logs.reading import compression, is_binary
from react_engine.rows.bounded import Overdue, within

if TYPE_CHECKING:
    import dask.dataframe as dd
    from distributed import Client

BLOCKSIZE = 32 * 2**20
MIN_WORKER_MEMORY = "1 GB"  # what parsing one block needs, with room to spare
DETECT_BYTES = 2**20  # bytes from the start and from the middle of a big file that its format is detected on
STALL_SECONDS = 20.0
"""How long a load waits while no worker can run its tasks (all paused at their memory limit, or none connected)
before it gives up with advice: Dask itself would wait for ever."""
POLL_SECONDS = 1.0


def _sample(file: RemoteFile, head: bytes) -> bytes:
    """Whole lines from the start and the middle of a big file, for format detection."""
    middle = read_range(file.url, file.size // 2, DETECT_BYTES)
    start = head[: head.rfind(b"\n") + 1]
    return start + middle[middle.find(b"\n") + 1 : middle.rfind(b"\n") + 1]


def _plan(file: RemoteFile, options: LoadOptions, blocksize: int) -> tuple[list[Piece], list[str]]:
    """The pieces `file` is read in, and warnings (a binary file is skipped)."""
    head = read_range(file.url, 0, max(HEAD_BYTES, DETECT_BYTES if file.size > blocksize else 0))
    small = file.size <= blocksize or compression(head) is not None
    if small or head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return [Piece(file, options)], []
    if is_binary(head):
        return [], [f"{file.name}: binary content (NUL or control bytes), skipped"]
    fmt = options.format or detect(split(_sample(file, head)).text).name
    return [Piece(file, options, fmt, offset, blocksize) for offset in range(0, file.size, blocksize)], []


def _progress(client: Client, futures: list[Any], what: str, held: list[Any]) -> None:
    """Wait for `futures`, with a progress bar on a terminal; InputError (these futures and the `held` ones they
    depend on cancelled) once no worker has been able to run them for STALL_SECONDS."""
    from distributed import wait
    from tqdm import tqdm

    pending, stalled_since = set(futures), None
    with tqdm(total=len(futures), desc=what, unit="part", disable=not sys.stderr.isatty(), leave=False) as bar:
        while pending:
            try:
                finished = wait(list(pending), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                finished = set()
            pending -= finished
            bar.update(len(finished))
            reason = None if finished else _stuck(client)
            if reason is None:
                stalled_since = None
                continue
            stalled_since = stalled_since or time.monotonic()
            if time.monotonic() - stalled_since >= STALL_SECONDS:
                client.cancel([*futures, *held])
                raise InputError(f"{reason}, so the logs cannot be parsed; {_STUCK_ADVICE}")


_STUCK_ADVICE = (f"give each worker at least {MIN_WORKER_MEMORY} (dask worker --memory-limit), start more workers "
                 "(dask worker SCHEDULER-ADDRESS), or use --dask local")


def _stuck(client: Client) -> str | None:
    """Why no worker of the cluster can run a task now, or None when one can."""
    workers = client.scheduler_info(n_workers=-1)["workers"].values()
    if any(worker.get("status") == "running" for worker in workers):
        return None
    if not workers:
        return f"no Dask worker is connected to the scheduler {client.scheduler.address}"
    return f"every Dask worker ({len(workers)}) is paused at its memory limit"


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
    otherwise each piece is parsed once and kept as a Parquet file in a spill folder (`options.dask_spill`, by
    default a temporary folder), which later passes read back, so logs bigger than the cluster's memory are
    answered too (the rows a filter keeps are persisted either way, spilled to disk by Dask when needed)."""
    from distributed import KilledWorker

    options = options or LoadOptions()
    if options.format is not None:
        by_name(options.format)
    pieces, warnings = [], []
    for file in expand_inputs(paths, options):
        planned, skipped = _plan(file, options, blocksize)
        pieces.extend(planned)
        warnings.extend(skipped)
    try:
        if _fits(client, sum({p.file.name: p.file.size for p in pieces}.values())):
            return _persisted(client, pieces, warnings)
        return _spilled(client, pieces, warnings, options.dask_spill)
    except OSError as exc:
        raise InputError(f"the Dask workers cannot read the logs ({exc}); use paths or URLs every worker can reach") \
            from None
    except KilledWorker:
        raise InputError(f"Dask workers died parsing the logs (out of memory?); {_STUCK_ADVICE}") from None


def load_by(client: Client, paths: PathsArg, options: LoadOptions, deadline: float | None) -> dd.DataFrame:
    """`load`, given up with an InputError when `deadline` (a `time.monotonic()` value) passes first."""
    if deadline is None:
        return load(client, paths, options)
    try:
        return within(lambda: load(client, paths, options), deadline - time.monotonic(), "dask-load")
    except Overdue:
        raise InputError(f"the Dask cluster {client.scheduler.address} did not finish loading the logs within the "
                         "run's time limit: raise it (--timeout), or check the scheduler and its workers") from None


def _persisted(client: Client, pieces: list[Piece], warnings: list[str]) -> dd.DataFrame:
    """The parsed pieces kept in the workers' memory."""
    import dask.dataframe as dd
    from dask import delayed

    parsed = client.persist([delayed(parse_piece, pure=True)(piece) for piece in pieces])
    blocks = _gathered(client, [client.compute(delayed(itemgetter(1))(p)) for p in parsed], held=parsed)
    meta, finishes = _assemble(blocks, pieces, warnings)
    parts = [delayed(finish_block, pure=True)(delayed(itemgetter(0))(parsed[i]), finish, meta)
             for i, finish in finishes]
    frame = _build(meta, finishes, blocks,
                   lambda divisions: dd.from_delayed(parts, meta=meta, divisions=divisions, verify_meta=False))
    return _seeded(client.persist(frame), blocks)


def _spilled(client: Client, pieces: list[Piece], warnings: list[str], root: str | None) -> dd.DataFrame:
    """The parsed pieces kept as Parquet files, which each pass reads back (only the columns it needs)."""
    from dask import delayed

    folder = spill.folder(client, root)
    stored = [spill.path(folder, i) for i in range(len(pieces))]
    blocks = _gathered(client, client.compute([delayed(spill.spill_piece)(p, path) for p, path in zip(pieces, stored)]))
    meta, finishes = _assemble(blocks, pieces, warnings)
    parts = [spill.Stored(pieces[i], stored[i], tuple(blocks[i].dtypes), finish) for i, finish in finishes]
    return _seeded(_build(meta, finishes, blocks, lambda divisions: spill.frame(parts, meta, divisions)), blocks)


def _gathered(client: Client, reports: list[Any], held: list[Any] | None = None) -> list[Block]:
    """The pieces' reports, with a progress bar while they come in (see `_progress`)."""
    _progress(client, reports, "loading", held or [])
    return client.gather(reports)


def _build(meta: pd.DataFrame, finishes: list[tuple[int, Finish]], blocks: list[Block],
           make: Callable[[tuple[int, ...]], dd.DataFrame]) -> dd.DataFrame:
    """`make(divisions)` for the partitions `finishes`; an empty frame when there are none."""
    import dask.dataframe as dd

    if not finishes:
        return dd.from_pandas(meta, npartitions=1)
    last, finish = finishes[-1]
    return make((*(f.start for _, f in finishes), finish.start + blocks[last].kept - 1))


def _seeded(frame: dd.DataFrame, blocks: list[Block]) -> dd.DataFrame:
    """`frame`, with its row count and summary facts remembered from the blocks' reports."""
    remember("count", frame, sum(b.kept for b in blocks))
    seed(frame, [b.facts for b in blocks if b.facts is not None and b.kept > 0])
    return frame


def _fits(client: Client, size: int) -> bool:
    """Whether `size` bytes of logs, once parsed, fit in half the memory the workers may use."""
    limits = [w.get("memory_limit") or 0 for w in client.scheduler_info(n_workers=-1)["workers"].values()]
    return size * BYTES_PER_INPUT_BYTE <= sum(limits) / 2


def _assemble(blocks: list[Block], pieces: list[Piece], warnings: list[str]) -> tuple[pd.DataFrame,
                                                                                       list[tuple[int, Finish]]]:
    """The load's empty frame (columns, types, `attrs`), and how each piece that keeps rows is finished."""
    files: dict[str, dict[str, Any]] = {}
    for block, piece in zip(blocks, pieces):
        info = files.setdefault(piece.file.name, {"path": piece.file.name, "format": block.format, "rows": 0,
                                                  "lines": 0, "warnings": []})
        info["rows"] += block.kept
        info["lines"] += block.lines
        info["warnings"].extend(block.warnings)
    if not any(info["format"] for info in files.values()):
        names = ", ".join([*files, *(w.split(": ", 1)[0] for w in warnings)])
        raise InputError(f"{names}: only binary content found; point at text log files (decompressed or .gz/.bz2/.xz)")
    meta = _union([b for b in blocks if b.format])
    meta.attrs.update(warnings=warnings + [w for info in files.values() for w in info["warnings"]],
                      files=list(files.values()))
    return meta, _finishes(blocks, pieces)


def _finishes(blocks: list[Block], pieces: list[Piece]) -> list[tuple[int, Finish]]:
    """How each block that keeps rows is finished: the leading continuation lines handed to it by the next
    blocks, its first line's number in its file, and its first row's number in the load."""
    leads: list[list[tuple[str, str]]] = [[] for _ in blocks]
    kept: list[int] = []  # blocks with rows left once their leading continuation lines are handed back
    for i, block in enumerate(blocks):
        if block.lead is not None:
            leads[kept[-1]].append(block.lead)  # a file's first block is never a lead
        if block.kept > 0:
            kept.append(i)
    finishes, start, line_offset, current = [], 0, 0, None
    for i, block in enumerate(blocks):
        if pieces[i].file is not current:
            current, line_offset = pieces[i].file, 0
        if block.kept > 0:
            finishes.append((i, Finish(block.lead is not None, tuple(leads[i]), line_offset, start)))
            start += block.kept
        line_offset += block.lines
    return finishes
