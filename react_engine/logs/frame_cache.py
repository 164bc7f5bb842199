"""Parsed-frame cache: one Arrow IPC file per input, in the user's cache directory.

Entries are keyed on the file's absolute path, size, mtime, ctime (the status-change time, which any write and
restoring an mtime both set), a content fingerprint (see `fingerprint`), the parser version (a digest of this
package's source) and the load options, so any change to the file or to the parser misses. One entry is kept per path, named for it, so a lookup reads one file.

An entry is uncompressed and laid out by `packing` (the log's text once, as `raw_head` and `message` where
they make up each entry, repeating columns as dictionaries), so it is read through a memory map without a copy
of the text: about 1.15-1.6x the log.
(Measured at 1M OpenSSH lines: the former zstd entries were 0.07x the log but cost 0.6 s of CPU to
decompress, 40% of a cached ask, and held a second copy of the frame while they did.) Its CRC-32 is
stored at its end and checked before the entry is decoded, so a damaged entry is dropped and the file
parsed again, never trusted (unless it is known whole since the machine started: see `whole`); an entry another user owns, or that others may write, is never read (a CRC finds
damage, not a rewrite: anyone who can write an entry can sum its CRC again).
Beside an entry may lie the values of numeric fields read from its messages (see `stored`), deleted with it,
ending in a keyed digest under the folder's secret (`cache_key`).
The folder is kept under MAX_CACHE_BYTES by evicting the least recently used entries and values, and the temporary
file of a write that was killed is deleted then. Cache problems never fail a load.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import secrets
import tempfile
import time
import zlib
from collections.abc import Mapping
from pathlib import Path
from stat import S_ISREG
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs import whole
from react_engine.logs.mapped import map_file
from react_engine.logs.packing import pack, unpack
from react_engine.logs.sources import SourceFile

MAX_CACHE_BYTES = 4 * 2**30
_META_KEY = b"react_engine.file_info"
FINGERPRINT_BLOCK = 64 * 1024
FINGERPRINT_SAMPLES = 8
"""Blocks hashed for the fingerprint: the first and last FINGERPRINT_BLOCK bytes and this many spread between."""
_DIGEST_BYTES = 32
_CRC_BYTES = 8
_TRAILER_BYTES = _DIGEST_BYTES + _CRC_BYTES
"""An entry is an Arrow IPC file followed by its key's digest and the CRC-32 of all that precedes the CRC."""
_CRC_BLOCK = 1 << 20
KEY_BYTES = 32
TAG_BYTES = 32
"""What is stored beside the cache ends in a keyed BLAKE2b digest, in hex, under the cache folder's secret key."""
_keys: dict[Path, bytes] = {}  # the secret of each cache folder this process used
TEMP_SUFFIX = ".tmp"
VALUES_SUFFIX = ".values"
STALE_TEMP_SECONDS = 3600.0
"""A temporary file is stale when the process that named it is gone, or (another host's) past this age."""


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


def key_path() -> Path:
    """Where the cache folder's secret lies: `frames.key` beside the folder (so clearing the folder keeps it)."""
    folder = cache_dir()
    return folder.with_name(f"{folder.name}.key")


def cache_key() -> bytes | None:
    """The cache folder's secret (KEY_BYTES random bytes), made on first use, readable and writable by its owner
    alone; None when it cannot be made or cannot be trusted (a link, another user's file, one others may read or
    write): then nothing is stored beside the cache, and nothing stored there is read."""
    path = key_path()
    if path in _keys:
        return _keys[path]
    key = _read_key(path)
    if key is None and not os.path.lexists(path):
        key = _made_key(path)
    if key is not None:
        _keys[path] = key
    return key


def _read_key(path: Path) -> bytes | None:
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        status = os.fstat(handle.fileno())
        foreign = hasattr(os, "getuid") and status.st_uid != os.getuid()
        if not S_ISREG(status.st_mode) or status.st_mode & 0o077 or foreign:
            return None
        key = handle.read(KEY_BYTES + 1)
    return key if len(key) == KEY_BYTES else None


def _made_key(path: Path) -> bytes | None:
    """A new secret written to `path` whole (linked into place: a process that made one first wins), or None."""
    tmp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=temp_prefix(), suffix=TEMP_SUFFIX)  # mode 0600
        tmp = Path(name)
        with os.fdopen(descriptor, "wb") as sink:
            sink.write(secrets.token_bytes(KEY_BYTES))
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)
    except OSError:
        return None
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
    return _read_key(path)


def owned(path: Path) -> bool:
    """Whether `path` is a file this user wrote and no other may write: a CRC only finds damage, so an entry
    another user could have made or rewritten (its CRC and all) is never read."""
    try:
        status = os.lstat(path)
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or status.st_uid == os.getuid()
    return S_ISREG(status.st_mode) and mine and not status.st_mode & 0o022


def keyed_tag(key: bytes, name: str, data: Any) -> bytes:
    """The keyed digest (TAG_BYTES of hex) of `data` stored as `name`: only a holder of the cache's key makes it,
    and it names what it is of, so no other content, and no content stored under another name, passes for it."""
    digest = hashlib.blake2b(key=key, digest_size=TAG_BYTES // 2, person=b"react-engine")
    digest.update(name.encode() + b"\0")
    digest.update(data)
    return digest.hexdigest().encode()


def fingerprint(path: Path, size: int) -> str:
    """A cheap content hash: the first and last blocks and a few spread between (all of a small file).

    It catches an edit that keeps size and mtime (an in-place rewrite with the mtime restored) unless
    the edit falls wholly between the sampled blocks.
    """
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        if size <= FINGERPRINT_BLOCK * (FINGERPRINT_SAMPLES + 2):
            digest.update(handle.read())
        else:
            step = (size - FINGERPRINT_BLOCK) // (FINGERPRINT_SAMPLES + 1)
            for offset in range(0, size - FINGERPRINT_BLOCK + 1, step):
                handle.seek(offset)
                digest.update(handle.read(FINGERPRINT_BLOCK))
            handle.seek(size - FINGERPRINT_BLOCK)
            digest.update(handle.read(FINGERPRINT_BLOCK))
    return digest.hexdigest()[:32]


class _Key(NamedTuple):
    """An entry's file name (from the input's path) and the digest of what it was parsed from and how."""

    name: str
    digest: bytes


def _key(source: SourceFile, options: Mapping[str, object]) -> _Key | None:
    """None when the input is not cacheable."""
    if source.path is None:
        return None
    try:
        content = fingerprint(source.path, source.size)
    except OSError:
        return None
    path = str(source.path.resolve())
    key = json.dumps([source.size, source.mtime, source.ctime_ns, content, PARSER_VERSION, options], sort_keys=True,
                     default=str)
    return _Key(hashlib.sha256(path.encode()).hexdigest()[:32] + ".arrow",
                hashlib.sha256(key.encode()).hexdigest()[:_DIGEST_BYTES].encode())


def _entry_id(key: _Key) -> str:
    """What names the values stored for an entry (see `stored`): the entry's name and its version's digest."""
    return f"{key.name.removesuffix('.arrow')}.{key.digest[:16].decode()}"


def _crc_text(crc: int) -> bytes:
    return f"{crc:08x}".encode()


def _read(entry: Path, digest: bytes, checked: bool) -> tuple[pa.Table, dict] | None:
    """The entry's table and file info; None when it was parsed from another version of the file or with
    other options or is not `owned`, and None (with the entry deleted) when it is `checked`, not known `whole` for
    this boot, and its checksum does not match."""
    if not owned(entry):
        return None
    data = map_file(entry)
    body = data.size - _TRAILER_BYTES
    if body <= 0 or data[body : body + _DIGEST_BYTES].to_pybytes() != digest:
        return None
    if checked and not whole.known(entry) and \
            _crc_text(_file_crc(entry, data.size - _CRC_BYTES)) != data[-_CRC_BYTES:].to_pybytes():
        entry.unlink(missing_ok=True)
        return None
    table = pa.ipc.open_file(data.slice(0, body)).read_all()
    table.validate()
    info = json.loads((table.schema.metadata or {})[_META_KEY])
    return unpack(table.replace_schema_metadata(None)), info


def get(source: SourceFile, options: Mapping[str, object], *, checked: bool = True
        ) -> tuple[pa.Table, dict] | None:
    """The cached table and file info (its `entry`: see `_entry_id`) for this input, or None. `checked=False` skips
    the checksum, for an entry this process has just written (`put` sums it as it writes; an entry is only ever
    replaced whole)."""
    key = _key(source, options)
    if key is None:
        return None
    entry = cache_dir() / key.name
    try:
        hit = _read(entry, key.digest, checked)
        if hit is not None:
            touch(entry)
            whole.mark(entry)  # summed, or written by this process
            table, info = _renamed(*hit, source.name)
            return table, info | {"entry": _entry_id(key)}
        return None
    except OSError:  # absent or unreadable
        return None
    except (KeyError, ValueError, pa.ArrowException):
        with contextlib.suppress(OSError):
            entry.unlink(missing_ok=True)
        return None


def _renamed(table: pa.Table, info: dict, name: str) -> tuple[pa.Table, dict]:
    """An entry cached under another name for the same file (`logs/a.log`, then `./logs/a.log` or from another
    folder), with `name` in its `source` column, its info and its warnings, as a fresh parse would give."""
    cached = info["path"]
    if cached == name:
        return table, info
    index = table.schema.get_field_index("source")
    names = pc.take(pa.array([name], table.schema.field(index).type), pa.array(np.zeros(table.num_rows, np.int32)))
    warnings = [f"{name}{w[len(cached):]}" if w.startswith(f"{cached}: ") else w for w in info["warnings"]]
    return table.set_column(index, table.schema.field(index), names), info | {"path": name, "warnings": warnings}


def touch(entry: Path) -> None:
    """Mark an entry (or stored values) as just used (a precise clock: file system clocks can tie within milliseconds)."""
    now = time.time_ns()
    os.utime(entry, ns=(now, now))


def temp_prefix() -> str:
    """How this process's temporary files are named: for the process id, so a later load knows when it is gone."""
    return f"{os.getpid()}-"


def _stale(temp: Path) -> bool:
    """Whether `temp` is left by a write that can no longer finish (see STALE_TEMP_SECONDS)."""
    try:
        if time.time() - temp.stat().st_mtime > STALE_TEMP_SECONDS:
            return True
        os.kill(int(temp.name.split("-", 1)[0]), 0)
    except ProcessLookupError:
        return True
    except (OSError, ValueError):  # gone already, or another user's process, or not named for a process
        return False
    return False


def evict() -> None:
    """Delete stale temporary files, and the least recently used entries (never the newest) until the folder is
    under MAX_CACHE_BYTES.

    Called once per load, after its `put`s: it looks at every entry. Values whose entry is gone are deleted."""
    try:
        _delete_leftovers()
        entries = [(entry, entry.stat()) for pattern in ("*.arrow", f"*{VALUES_SUFFIX}")
                   for entry in cache_dir().glob(pattern) if entry.is_file()]
    except OSError:
        return
    total = 0
    newest_first = sorted(entries, key=lambda item: item[1].st_mtime_ns, reverse=True)
    for index, (entry, stat) in enumerate(newest_first):
        total += stat.st_size
        if total > MAX_CACHE_BYTES and index:
            entry.unlink(missing_ok=True)


def _delete_leftovers() -> None:
    """Delete the stale temporary files, and the values whose entry is gone."""
    for temp in cache_dir().glob(f"*{TEMP_SUFFIX}"):
        if _stale(temp):
            temp.unlink(missing_ok=True)
    for values in cache_dir().glob(f"*{VALUES_SUFFIX}"):
        if not (values.parent / f"{values.name.split('.', 1)[0]}.arrow").exists():
            values.unlink(missing_ok=True)


def _file_crc(path: Path, length: int) -> int:
    """The CRC-32 of a file's first `length` bytes, read in blocks: through a memory map every page would join the
    process's RSS, though a cached ask reads little of `raw_head` and nothing of some columns."""
    crc, block = 0, bytearray(_CRC_BLOCK)
    view = memoryview(block)
    with path.open("rb", buffering=0) as handle:
        while length > 0 and (count := handle.readinto(view[: min(length, _CRC_BLOCK)])):
            crc = zlib.crc32(view[:count], crc)
            length -= count
    return crc


class _Summed(io.FileIO):
    """A file being written that keeps the CRC-32 of everything written to it."""

    crc = 0

    def write(self, data: Any, /) -> int:
        """Write all of `data` (a raw write may take part of it)."""
        view = memoryview(data).cast("B")
        self.crc = zlib.crc32(view, self.crc)
        done = 0
        while done < len(view):
            done += super().write(view[done:]) or 0
        return done


def put(source: SourceFile, options: Mapping[str, object], table: pa.Table, info: dict) -> str | None:
    """Store a parsed table in place of any older entry for the same path, and of the values stored beside it
    (call `evict` after a load's puts); the entry's id (see `_entry_id`) when it was stored, else None (errors are
    not raised)."""
    key = _key(source, options)
    if key is None:
        return None
    folder = cache_dir()
    tmp: Path | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        stored = pack(table.replace_schema_metadata({_META_KEY: json.dumps(info).encode()}))
        descriptor, name = tempfile.mkstemp(dir=folder, prefix=temp_prefix(), suffix=TEMP_SUFFIX)
        tmp = Path(name)
        with _Summed(descriptor, "wb") as sink, pa.PythonFile(sink, mode="w") as stream:
            with pa.ipc.new_file(stream, stored.schema) as writer:
                writer.write_table(stored)
            stream.write(key.digest)
            stream.write(_crc_text(sink.crc))
        entry = folder / key.name
        for values in folder.glob(f"{entry.stem}.*{VALUES_SUFFIX}"):
            values.unlink(missing_ok=True)
        os.replace(tmp, entry)
        touch(entry)
        whole.mark(entry)  # as written: its CRC was summed from the bytes written
        return _entry_id(key)
    except (OSError, pa.ArrowException):
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        return None
