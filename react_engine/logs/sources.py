"""Turn user-given paths (files, folders, globs, `-`) into the list of inputs to read.

- A file named explicitly is always read (a device, pipe or socket is refused: reading it may never end).
- Files found in folders or by a glob pass `--glob`/`--exclude`; from folders, only log files are taken
  unless `--glob` says which (see `folders.is_log_name`); what is left out is reported in one note.
- Each file is read once however it is reached: inputs are keyed by (device, inode), so relative and
  absolute spellings, symlinks and folder loops do not multiply rows.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from react_engine.errors import InputError
from react_engine.logs import globs
from react_engine.logs.folders import Found, is_log_name, special, walk
from react_engine.logs.options import LoadOptions

STDIN = "-"
EXAMPLES = 5


@dataclass(frozen=True)
class SourceFile:
    """One input: its display name and, for real files, size, modification time and status-change time."""

    name: str
    path: Path | None  # None for stdin
    size: int = 0
    mtime: float | None = None
    ctime_ns: int | None = None  # changes with any write, and with restoring the mtime after one


@dataclass
class Inputs:
    """The inputs to read, and the files found in folders that were left out as not logs."""

    files: list[SourceFile]
    skipped: list[str] = field(default_factory=list)
    escapes: list[str] = field(default_factory=list)  # symlinks in folders that lead out of them (`a -> /b`)

    def notes(self) -> list[str]:
        """One line on the files left out, and one on the symlinks not followed out of a folder."""
        notes = [note] if (note := self.note()) else []
        if self.escapes:
            shown = ", ".join(self.escapes[:EXAMPLES]) + (", ..." if len(self.escapes) > EXAMPLES else "")
            notes.append(f"did not follow {len(self.escapes)} symlinks that lead out of the folder ({shown}); "
                         "name a file directly to read it (nothing under /proc, /sys or /dev is read)")
        return notes

    def note(self) -> str | None:
        """One line on the files left out, by kind (`3 *.csv, README.md`), or None."""
        if not self.skipped:
            return None
        kinds: dict[str, list[str]] = {}
        for name in (PurePath(path).name for path in self.skipped):
            kinds.setdefault(f"*{PurePath(name).suffix}" if PurePath(name).suffix else name, []).append(name)
        ranked = sorted(kinds.items(), key=lambda item: -len(item[1]))
        shown = [f"{len(names)} {kind}" if len(names) > 1 else names[0] for kind, names in ranked[:EXAMPLES]]
        more = ", ..." if len(kinds) > EXAMPLES else ""
        return (f"skipped {len(self.skipped)} files in folders that are not logs ({', '.join(shown)}{more}); "
                "name a file to read it anyway, or choose files with --glob")


def _kind(mode: int) -> str:
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_regular(name: str, mode: int) -> InputError:
    """The error for a path that is not a regular file (reading it could block or never end)."""
    return InputError(f"{name}: {_kind(mode)}, not a log file; pass log files or folders "
                      "(or - to read standard input)")


class _Expansion:
    """Collects the inputs of one `expand` call."""

    def __init__(self, options: LoadOptions) -> None:
        self.options = options
        self.found: dict[tuple[int, int] | str, SourceFile] = {}
        self.skipped: list[str] = []
        self.escapes: list[str] = []

    def _wanted(self, found: Found, from_folder: bool) -> bool:
        options = self.options
        if any(globs.matches(pattern, found.relative) for pattern in options.exclude):
            return False
        if options.glob:
            return any(globs.matches(pattern, found.relative) for pattern in options.glob)
        if from_folder and not is_log_name(found.path.name):
            self.skipped.append(str(found.path))
            return False
        return True

    def add(self, path: Path, explicit: bool) -> None:
        try:
            info = path.stat()
        except OSError as exc:
            if not explicit:  # e.g. a dangling symlink in a folder
                self.skipped.append(str(path))
                return
            raise InputError(f"{path}: cannot read it ({exc.strerror}); check the path and permissions") from None
        if not stat.S_ISREG(info.st_mode):
            if explicit:
                raise not_regular(str(path), info.st_mode)
            self.skipped.append(str(path))
            return
        if special(path):
            if explicit:
                raise _special(path)
            self.escapes.append(f"{path} -> {os.path.realpath(path)}")
            return
        source = SourceFile(str(path), path, info.st_size, info.st_mtime, info.st_ctime_ns)
        self.found.setdefault((info.st_dev, info.st_ino), source)

    def folder(self, directory: Path, prefix: str = "") -> None:
        for found, is_dir in walk(directory, escapes=self.escapes):
            if not is_dir and self._wanted(Found(found.path, prefix + found.relative), from_folder=True):
                self.add(found.path, explicit=False)

    def pattern(self, item: str) -> int:
        """Add what the glob `item` matches; returns how many entries matched."""
        parts = Path(item).expanduser().parts
        split = next(i for i, part in enumerate(parts) if globs.has_magic(part))
        base, rest = Path(*parts[:split]) if split else Path("."), "/".join(parts[split:])
        regex, matched = globs.compile_glob(rest), 0
        for found, is_dir in walk(base, globs.depth(rest), self.escapes):
            if regex.fullmatch(found.relative) is None:
                continue
            matched += 1
            if is_dir:
                self.folder(found.path, found.relative + "/")
            elif self._wanted(found, from_folder=False):
                self.add(found.path, explicit=False)
        return matched

    def item(self, item: str) -> None:
        if item == STDIN:
            self.found[STDIN] = SourceFile(STDIN, None)
            return
        if globs.has_magic(item) and not os.path.lexists(item):
            if not self.pattern(item):
                raise InputError(f"{item}: the pattern matches no files; check the spelling or quote it differently")
            return
        path = Path(item).expanduser()
        if not path.exists():
            raise InputError(f"{item}: no such file or directory; check the path")
        if path.is_dir():
            self.named_folder(item, path)
        else:
            self.add(path, explicit=True)

    def named_folder(self, item: str, path: Path) -> None:
        """Add the files of a folder named as `item`, refused when it holds none or is a kernel folder."""
        if special(path):
            raise _special(path)
        escapes: list[str] = []
        if not any(not is_dir for _, is_dir in walk(path, escapes=escapes)):
            held = f" but {len(escapes)} symlinks that lead out of it" if escapes else ""
            raise InputError(f"{item}: directory has no files{held}; point at a log file or a folder that holds logs")
        self.folder(path)


def _special(path: Path) -> InputError:
    return InputError(f"{path}: under /proc, /sys or /dev, which hold kernel and device files, not logs (and may "
                      "hold secrets); pass log files or folders (or - to read standard input)")


def _items(paths: Sequence[str | os.PathLike[str]] | str | os.PathLike[str]) -> Iterator[str]:
    for item in [paths] if isinstance(paths, (str, os.PathLike)) else paths:
        yield os.fspath(item)


def expand(paths: Sequence[str | os.PathLike[str]] | str | os.PathLike[str],
           options: LoadOptions | None = None) -> Inputs:
    """Resolve files, folders (recursive), globs and `-` into sorted inputs, each file once."""
    items = list(_items(paths))
    if not items:
        raise InputError("no input given; pass a log file, a folder, a glob or - for standard input")
    expansion = _Expansion(options or LoadOptions())
    for item in items:
        expansion.item(item)
    inputs = Inputs(sorted(expansion.found.values(), key=lambda s: s.name), expansion.skipped, expansion.escapes)
    if not inputs.files:
        reason = "; ".join(inputs.notes()) or "no files found"
        raise InputError(f"{', '.join(items)}: no log files to read: {reason}")
    return inputs
