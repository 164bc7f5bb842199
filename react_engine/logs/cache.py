"""Parsed-frame cache: one Arrow IPC file per input, in the user's cache directory.

Entries are keyed on the file's absolute path, size, mtime, the parser version (a digest of this
package's source) and the load options, so any change to the file or to the parser misses. One entry
is kept per path. Entries are uncompressed and memory-mapped when read: a warm load costs almost
nothing and only the columns a question touches are paged in; the price is disk space (about 2.7x the
log), kept under MAX_CACHE_BYTES by evicting the least recently used entries. Cache problems never
fail a load.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.feather as feather

from react_engine.logs.sources import SourceFile

MAX_CACHE_BYTES = 4 * 2**30
_META_KEY = b"react_engine.file_info"


def _parser_version() -> str:
    """A digest of the parser's own source, so that any change to parsing invalidates old entries."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


PARSER_VERSION = _parser_version()


def cache_dir() -> Path:
    """`$XDG_CACHE_HOME/react-engine/frames` (default `~/.cache/react-engine/frames`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "react-engine" / "frames"


def _entry(source: SourceFile, options: dict[str, object]) -> Path | None:
    if source.path is None:
        return None
    path = str(source.path.resolve())
    key = json.dumps([source.size, source.mtime, PARSER_VERSION, options], sort_keys=True, default=str)
    name = hashlib.sha256(path.encode()).hexdigest()[:20] + "-" + hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / f"{name}.arrow"


def get(source: SourceFile, options: dict[str, object]) -> tuple[pa.Table, dict] | None:
    """The cached table (memory-mapped) and file info for this input, or None."""
    entry = _entry(source, options)
    if entry is None or not entry.is_file():
        return None
    try:
        with pa.memory_map(str(entry)) as mapped:
            table = pa.ipc.open_file(mapped).read_all()
        info = json.loads((table.schema.metadata or {})[_META_KEY])
        _touch(entry)
    except (OSError, KeyError, ValueError, pa.ArrowException):
        return None
    return table.replace_schema_metadata(None), info


def _touch(entry: Path) -> None:
    """Mark an entry as just used (a precise clock: file system clocks can tie within milliseconds)."""
    now = time.time_ns()
    os.utime(entry, ns=(now, now))


def _evict(folder: Path, keep: Path) -> None:
    """Delete the least recently used entries until the folder is under MAX_CACHE_BYTES."""
    entries = sorted(folder.glob("*.arrow"), key=lambda p: p.stat().st_mtime, reverse=True)
    total = 0
    for entry in entries:
        total += entry.stat().st_size
        if total > MAX_CACHE_BYTES and entry != keep:
            entry.unlink(missing_ok=True)


def put(source: SourceFile, options: dict[str, object], table: pa.Table, info: dict) -> None:
    """Store a parsed table; replaces older entries for the same path. Errors are ignored."""
    entry = _entry(source, options)
    if entry is None:
        return
    tmp: Path | None = None
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        for stale in entry.parent.glob(entry.name.split("-")[0] + "-*.arrow"):
            stale.unlink(missing_ok=True)
        tagged = table.replace_schema_metadata({_META_KEY: json.dumps(info).encode()})
        with tempfile.NamedTemporaryFile(dir=entry.parent, suffix=".tmp", delete=False) as handle:
            tmp = Path(handle.name)
        feather.write_feather(tagged, tmp, compression="uncompressed")
        os.replace(tmp, entry)
        _touch(entry)
        _evict(entry.parent, entry)
    except (OSError, pa.ArrowException):
        if tmp is not None:
            tmp.unlink(missing_ok=True)
