"""The files react-engine keeps for the user: run traces (listing, retention) and the parsed-frame cache."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

from pydantic import BaseModel

from react_engine.errors import InputError, ReactEngineError

DAY = 86400.0


class TraceEntry(BaseModel):
    """One recorded run, for `trace list`."""

    path: str
    started: str
    question: str
    stop_reason: str
    answer: str
    readable: bool = True


def trace_files(directory: Path) -> list[Path]:
    """Trace files in `directory`, newest first (by when they were written, then by name)."""
    if not directory.is_dir():
        return []
    return sorted(directory.glob("*.json"), key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)


def find_trace(name: str, directory: Path) -> Path:
    """The trace `name` names: a path, else the file in `directory` with that name, stem, start time (the first
    column of `trace list`) or trace id (or the start of one); none or several is a one-line `InputError`."""
    if Path(name).is_file():
        return Path(name)
    key = name.strip().lower()
    found = [p for p in trace_files(directory)
             if key in (p.name.lower(), p.stem.lower(), p.stem.partition("-")[0].lower()) or _same_id(key, p)]
    if not found:
        raise InputError(f"{name}: no such file, and no trace in {directory} has that name or id: "
                         "see `react-engine trace list`")
    if len(found) > 1:
        raise InputError(f"{name}: {len(found)} traces in {directory} match ({', '.join(p.name for p in found[:3])}"
                         f"{', ...' if len(found) > 3 else ''}): give more of the id")
    return found[0]


def _same_id(key: str, path: Path) -> bool:
    """True when `key` is the trace id in `path`'s name (`20261120T120000Z-<id>.json`, the id's first 16 digits),
    the whole id, or the start of it."""
    named = path.stem.partition("-")[2].lower()
    return bool(key and named) and (named.startswith(key) or key.startswith(named))


def recent_traces(directory: Path, limit: int) -> list[TraceEntry]:
    """The newest `limit` runs with their question, stop reason and answer; unreadable files are marked."""
    from react_engine.tracing import read_trace
    from react_engine.tracing.trace_timeline import timeline

    entries = []
    for path in trace_files(directory)[:limit]:
        started = path.name.split("-", 1)[0]
        try:
            view = timeline(read_trace(path))
        except (ReactEngineError, OSError, ValueError, KeyError):
            entries.append(TraceEntry(path=str(path), started=started, question="?", stop_reason="?", answer="",
                                      readable=False))
            continue
        entries.append(TraceEntry(path=str(path), started=started, question=view.question,
                                  stop_reason=view.stop_reason or "-", answer=view.answer or ""))
    return entries


def prune_traces(directory: Path, keep: int | None = None, max_age_days: float | None = None,
                 now: float | None = None) -> list[Path]:
    """Delete traces beyond the newest `keep` and those older than `max_age_days`; returns what was deleted."""
    now = time.time() if now is None else now
    doomed = []
    for rank, path in enumerate(trace_files(directory)):
        too_many = keep is not None and rank >= keep
        too_old = max_age_days is not None and now - path.stat().st_mtime > max_age_days * DAY
        if too_many or too_old:
            path.unlink(missing_ok=True)
            doomed.append(path)
    return doomed


class CacheUsage(BaseModel):
    """What the parsed-frame cache holds."""

    path: str
    entries: int
    bytes: int
    limit_bytes: int
    temp_files: int = 0  # left by writes that were killed (deleted by the next load that writes), or in progress
    temp_bytes: int = 0


def cache_usage() -> CacheUsage:
    """Entries and bytes in the parsed-frame cache (with the field values stored beside entries), and its
    temporary files."""
    from react_engine.logs.frame_cache import MAX_CACHE_BYTES, TEMP_SUFFIX, VALUES_SUFFIX, cache_dir

    folder = cache_dir()
    files, values, temps = (_cache_files(folder, pattern) for pattern in ("*.arrow", f"*{VALUES_SUFFIX}",
                                                                           f"*{TEMP_SUFFIX}"))
    return CacheUsage(path=str(folder), entries=len(files), bytes=sum(_size(f) for f in files + values),
                      limit_bytes=MAX_CACHE_BYTES, temp_files=len(temps), temp_bytes=sum(_size(f) for f in temps))


def _cache_files(folder: Path, pattern: str) -> list[Path]:
    """The regular files in `folder` matching `pattern`: the cache writes nothing else, so a folder or link there
    with such a name is someone else's, never counted nor deleted."""
    try:
        return [path for path in folder.glob(pattern) if path.is_file() and not path.is_symlink()]
    except OSError:  # the cache folder is not a folder, or cannot be read
        return []


def _size(path: Path) -> int:
    """A file's size; 0 once it is gone (another process may delete or replace it meanwhile)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def clear_cache() -> CacheUsage:
    """Delete every cache entry, the field values stored beside them and any temporary file left by an interrupted
    write; returns what was freed."""
    from react_engine.logs.frame_cache import TEMP_SUFFIX, VALUES_SUFFIX, cache_dir

    freed = cache_usage()
    folder = cache_dir()
    for pattern in ("*.arrow", f"*{VALUES_SUFFIX}", f"*{TEMP_SUFFIX}"):
        for path in _cache_files(folder, pattern):
            with contextlib.suppress(OSError):  # gone meanwhile, or not ours to delete
                path.unlink(missing_ok=True)
    return freed
