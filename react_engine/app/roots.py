"""Log paths read only under allowed folders (the server's roots, a batch file's folders): each path, and each file
it stands for, resolved (symlinks followed) and checked before anything reads it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from react_engine.errors import InputError
from react_engine.logs import globs
from react_engine.logs.sources import STDIN, SourceFile, expand


class OutsideRoots(InputError):
    """A path that is, or leads, outside the server's roots (403)."""


def under(path: Path, roots: Sequence[Path]) -> bool:
    """Whether `path`, once resolved, is one of `roots` (resolved) or inside one."""
    real = path.resolve()
    return any(real == root or real.is_relative_to(root) for root in roots)


def _outside_file(files: Sequence[SourceFile], roots: Sequence[Path]) -> str | None:
    """The name of the first of `files` that lies outside every root once links are followed; None when none does."""
    return next((f.name for f in files if f.path is not None and not under(Path(str(f.path)), roots)), None)


def glob_base(item: str) -> str:
    """The part of a path before its first wildcard (the folder a glob walks)."""
    parts = Path(item).parts
    split = next((i for i, part in enumerate(parts) if globs.has_magic(part)), len(parts))
    return str(Path(*parts[:split])) if split else "."


def outside(paths: Sequence[str], roots: Sequence[Path]) -> str | None:
    """The first of `paths` (files, folders, globs, relative to the current folder; `-` is stdin) that is, or reads
    a file, outside every folder of `roots` once links are followed; None when all stay inside."""
    real_roots = [root.resolve() for root in roots]
    for item in paths:
        if item != STDIN and not under(Path(glob_base(item)), real_roots):
            return item
    try:
        files = expand(list(paths)).files
    except InputError:  # missing or unreadable: the run says so itself
        return None
    return _outside_file(files, real_roots)


def inside(name: str, roots: Sequence[Path]) -> Path:
    """`name` (relative to the first root, or absolute) resolved; OutsideRoots when it is not under a root."""
    path = (roots[0] / Path(name).expanduser()).resolve()
    if not under(path, roots):
        raise OutsideRoots(f"{name}: outside the folders this server reads ({', '.join(map(str, roots))}); "
                           "name a log under them, or restart the server with --root")
    return path


def log_files(names: Sequence[str], roots: Sequence[Path]) -> tuple[Path, ...]:
    """The log files `names` (files, folders, globs under the roots) stand for, each resolved and under a root,
    sorted; InputError when there are none or a name is unusable, OutsideRoots when one leads outside."""
    if not names:
        raise InputError('"logs" is empty: name at least one log file or folder under the served roots')
    wanted = []
    for name in names:
        if not isinstance(name, str) or not name.strip() or name == STDIN:
            raise InputError(f"{name!r}: name a log file or folder under the served roots")
        wanted.append(str(inside(name, roots)) if not globs.has_magic(name) else str(roots[0] / name))
    files = expand(wanted).files
    if (away := _outside_file(files, roots)) is not None:
        raise OutsideRoots(f"{away}: leads outside the folders this server reads; name a log under them")
    return tuple(sorted({Path(str(source.path)).resolve() for source in files}))
