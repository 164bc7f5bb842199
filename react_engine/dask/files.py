"""The inputs of a Dask load: local paths (shared with the workers) or fsspec URLs, with size and mtime."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from react_engine.errors import InputError
from react_engine.logs.loader import PathsArg
from react_engine.logs.options import LoadOptions
from react_engine.logs.sources import STDIN, expand

HEAD_BYTES = 8192


@dataclass(frozen=True)
class RemoteFile:
    """One input as the workers read it: `name` is its `source` column, `url` what fsspec opens."""

    name: str
    url: str
    size: int
    mtime: float | None


def _is_url(item: str) -> bool:
    return "://" in item


def _mtime(info: dict[str, Any]) -> float | None:
    for key in ("mtime", "LastModified", "last_modified", "updated", "created"):
        value = info.get(key)
        if isinstance(value, datetime):
            return value.timestamp()
        if isinstance(value, (int, float)):
            return float(value)
    return None


def _expand_url(item: str) -> list[RemoteFile]:
    import fsspec

    try:
        fs, _, found = fsspec.get_fs_token_paths(item)
        infos = [(p, fs.info(p)) for p in _listed(fs, found)]
    except FileNotFoundError:
        raise InputError(f"{item}: no such file or directory; check the URL") from None
    except (OSError, ValueError, ImportError) as exc:
        raise InputError(f"{item}: cannot list it ({' '.join(str(exc).split())}); check the URL and credentials") \
            from None
    if not infos:
        raise InputError(f"{item}: no such file or directory; check the URL")
    return [RemoteFile(fs.unstrip_protocol(p), fs.unstrip_protocol(p), int(info.get("size") or 0), _mtime(info))
            for p, info in infos]


def _listed(fs: Any, found: list[str]) -> list[str]:
    """The paths found, a folder standing for the files under it; hidden files (`.name`) are left out."""
    files: list[str] = []
    for path in found:
        inside = sorted(fs.find(path)) if fs.isdir(path) else [path]
        files.extend(p for p in inside if not p.split("/")[-1].startswith("."))
    return files


def expand_inputs(paths: PathsArg, options: LoadOptions) -> list[RemoteFile]:
    """Files, directories, globs and URLs as sorted, de-duplicated inputs (local ones as the loader names them)."""
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if STDIN in [os.fspath(item) for item in items]:
        raise InputError("--dask cannot read standard input; save it to a file the workers can read")
    found = {f.name: f for f in _local_files([item for item in items if not _is_url(os.fspath(item))], options)}
    found.update((f.name, f) for f in _url_files(items))
    if not found:
        raise InputError("no input given; pass a log file, a folder, a glob or a URL")
    return [found[name] for name in sorted(found)]


def _url_files(items: list[str | os.PathLike[str]]) -> list[RemoteFile]:
    """The files the URLs among the inputs name."""
    return [f for item in items if _is_url(os.fspath(item)) for f in _expand_url(os.fspath(item))]


def _local_files(local: list[str | os.PathLike[str]], options: LoadOptions) -> list[RemoteFile]:
    """The local inputs as the loader expands them."""
    if not local:
        return []
    return [RemoteFile(f.name, f.name, f.size, f.mtime) for f in expand(local, options).files]


def read_range(url: str, start: int, length: int) -> bytes:
    """`length` bytes of `url` from `start` (fewer at the end of the file)."""
    import fsspec

    try:
        with fsspec.open(url, "rb") as handle:
            handle.seek(start)
            return handle.read(length)
    except OSError as exc:
        raise InputError(f"{url}: cannot read it ({exc.strerror or exc}); check the path and permissions") from None


def read_block(url: str, offset: int = 0, length: int | None = None) -> bytes:
    """The lines of `url` from the first line start at or after `offset` through the first line end at or after
    `offset + length` (`dask.bytes.read_bytes` cuts a file so); the whole file by default."""
    import fsspec
    from fsspec.utils import read_block as cut

    try:
        with fsspec.open(url, "rb") as handle:
            return cut(handle, offset, length, delimiter=b"\n")
    except OSError as exc:
        raise InputError(f"{url}: the workers cannot read it ({exc.strerror or exc}); use a path or URL every "
                         "worker can reach") from None
