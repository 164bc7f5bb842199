"""Log paths a client names, only under the server's roots: each file found resolved (symlinks followed) and
checked before anything reads it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from react_engine.errors import InputError
from react_engine.logs.sources import STDIN, expand


class OutsideRoots(InputError):
    """A path that is, or leads, outside the server's roots (403)."""


def under(path: Path, roots: Sequence[Path]) -> bool:
    """Whether the resolved `path` is one of `roots` or inside one."""
    return any(path == root or path.is_relative_to(root) for root in roots)


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
        wanted.append(str(inside(name, roots)) if not _glob(name) else str(roots[0] / name))
    files = []
    for source in expand(wanted).files:
        path = Path(str(source.path)).resolve()
        if not under(path, roots):
            raise OutsideRoots(f"{source.name}: leads outside the folders this server reads; name a log under them")
        files.append(path)
    return tuple(sorted(set(files)))


def _glob(name: str) -> bool:
    return any(ch in name for ch in "*?[")
