"""Turn user-given paths (files, directories, globs, `-`) into decoded byte blobs.

Compression is detected by magic bytes, not by file name.
"""

from __future__ import annotations

import bz2
import codecs
import glob
import gzip
import lzma
import os
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from react_engine.errors import InputError

STDIN = "-"
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "xz"),
)
_BINARY_SAMPLE = 8192
_BINARY_CONTROL_SHARE = 0.30
_TEXT_CONTROLS = frozenset(b"\t\n\r\f\v\x1b")


@dataclass(frozen=True)
class SourceFile:
    """One input: its display name and, for real files, size and modification time."""

    name: str
    path: Path | None  # None for stdin
    size: int = 0
    mtime: float | None = None


def _has_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def _walk(directory: Path) -> list[Path]:
    """Files below `directory`, sorted; hidden files and folders (`.git`, `.DS_Store`) are left out."""
    files = sorted(
        p for p in directory.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(directory).parts)
    )
    if not files:
        raise InputError(f"{directory}: directory has no files; point at a log file or a folder that holds logs")
    return files


def _expand_one(item: str) -> list[Path]:
    if _has_glob(item) and not os.path.exists(item):
        matches = sorted(Path(m) for m in glob.glob(item, recursive=True))
        files = [f for m in matches for f in (_walk(m) if m.is_dir() else [m])]
        if not files:
            raise InputError(f"{item}: the pattern matches no files; check the spelling or quote it differently")
        return files
    path = Path(item).expanduser()
    if not path.exists():
        raise InputError(f"{item}: no such file or directory; check the path")
    return _walk(path) if path.is_dir() else [path]


def expand(paths: Sequence[str | os.PathLike[str]] | str | os.PathLike[str]) -> list[SourceFile]:
    """Resolve paths, directories (recursive), globs and `-` into sorted, de-duplicated inputs."""
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not items:
        raise InputError("no input given; pass a log file, a folder, a glob or - for standard input")
    found: dict[str, SourceFile] = {}
    for item in [os.fspath(i) for i in items]:
        if item == STDIN:
            found[STDIN] = SourceFile(STDIN, None)
            continue
        for path in _expand_one(item):
            try:
                stat = path.stat()
            except OSError as exc:
                raise InputError(f"{path}: cannot read it ({exc.strerror}); check the path and permissions") from None
            found[str(path)] = SourceFile(str(path), path, stat.st_size, stat.st_mtime)
    return [found[k] for k in sorted(found)]


def compression(head: bytes) -> str | None:
    """`gzip`, `bz2` or `xz` when `head` starts with that format's magic bytes, else None."""
    return next((kind for magic, kind in _MAGIC if head.startswith(magic)), None)


def decompress(name: str, data: bytes) -> bytes:
    """`data` decompressed when it starts with gzip, bzip2 or xz magic bytes; unchanged otherwise."""
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            try:
                if kind == "gzip":
                    return gzip.decompress(data)
                if kind == "bz2":
                    return bz2.decompress(data)
                return lzma.decompress(data)
            except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
                raise InputError(
                    f"{name}: corrupt or truncated {kind} data ({exc}); re-copy the file or decompress it by hand"
                ) from None
    return data


def read_bytes(source: SourceFile) -> bytes:
    """The file's content, decompressed when it starts with gzip, bzip2 or xz magic bytes."""
    if source.path is None:
        data = sys.stdin.buffer.read()
    else:
        try:
            data = source.path.read_bytes()
        except PermissionError:
            raise InputError(
                f"{source.name}: permission denied; make the file readable (chmod +r) or copy it"
            ) from None
        except OSError as exc:
            raise InputError(f"{source.name}: cannot read it ({exc.strerror}); check the path") from None
    return decompress(source.name, data)


def is_binary(data: bytes) -> bool:
    """True for content that is not text: NUL bytes, or mostly control characters, near the start.

    UTF-16 text with a byte-order mark is text (it is converted when split into lines).
    """
    head = data[:_BINARY_SAMPLE]
    if not head or head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    if b"\x00" in head:
        return True
    controls = sum(1 for byte in head if byte < 32 and byte not in _TEXT_CONTROLS)
    return controls / len(head) > _BINARY_CONTROL_SHARE
