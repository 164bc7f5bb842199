"""Parsed partitions kept as Parquet files, for logs bigger than the workers' memory.

Each piece of the logs is parsed once on a worker and written to a spill folder; every later pass reads the
Parquet files back instead of parsing the logs again. A file that cannot be read back (a worker's local folder
on another machine, a file lost with its disk) is parsed from the logs again, so a missing file costs time,
never an answer. A load's folder is removed when the process exits, here and on every worker; one left behind by a
process that was killed on this machine is removed by the next load that spills to the same place.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import tempfile
import uuid
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pandas as pd
import pyarrow as pa

from react_engine.dask.parts import Block, Finish, Piece, finish_block, parse_piece
from react_engine.errors import InputError

if TYPE_CHECKING:
    import dask.dataframe as dd
    from distributed import Client

_folders: list[tuple[Client, str]] = []
_PREFIX = "react-engine-spill-"


def _owner() -> str:
    """This process, as spill folder names give it: the machine and the process id."""
    return f"{socket.gethostname()}-{os.getpid()}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, under another user
        return True
    return True


def remove_stale(root: str) -> None:
    """Remove the spill folders under `root` left by processes of this machine that are gone (killed before
    their exit hook ran)."""
    host = f"{_PREFIX}{socket.gethostname()}-"
    with suppress(OSError):
        for entry in os.scandir(root):
            pid = entry.name[len(host):].split("-", 1)[0]
            if entry.name.startswith(host) and pid.isdigit() and not _alive(int(pid)) and entry.is_dir():
                shutil.rmtree(entry.path, ignore_errors=True)


def folder(client: Client, root: str | None) -> str:
    """A new spill folder for one load, under `root` (default: the temporary folder), removed at exit."""
    if not _folders:
        atexit.register(remove_all)  # after distributed's own exit hook is registered, so it runs first
    root = root or tempfile.gettempdir()
    remove_stale(root)
    path = os.path.join(root, f"{_PREFIX}{_owner()}-{uuid.uuid4().hex[:12]}")
    _folders.append((client, path))
    return path


def path(folder: str, index: int) -> str:
    """Where piece `index` of a load is kept."""
    return os.path.join(folder, f"part-{index:06d}.parquet")


def spill_piece(piece: Piece, path: str) -> Block:
    """Parse `piece` and keep its rows at `path` (runs on a worker); its report comes back."""
    frame, block = parse_piece(piece)
    if block.kept <= 0:
        return block
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        partial = f"{path}.{uuid.uuid4().hex[:8]}.tmp"
        frame.to_parquet(partial, index=False)
        os.replace(partial, path)
    except OSError as exc:
        raise InputError(f"{os.path.dirname(path)}: cannot keep parsed rows there ({exc.strerror or exc}); pass "
                         "--dask-spill DIR with a folder every worker can write") from None
    return block


@dataclass(frozen=True)
class Stored:
    """One spilled partition: the piece it was parsed from, where its rows are kept (with these columns), and
    how they are finished."""

    piece: Piece
    path: str
    columns: tuple[str, ...]
    finish: Finish


def restore(part: Stored, template: pd.DataFrame, columns: list[str] | None = None) -> pd.DataFrame:
    """A spilled partition read back with the `columns` a pass needs (all of `template`'s by default; Dask
    passes the projection); when its file cannot be read, its piece is parsed from the logs again."""
    meta = template if columns is None else template[columns]
    wanted = [c for c in meta.columns if c in part.columns]
    try:
        frame = pd.read_parquet(part.path, columns=wanted)
    except (OSError, pa.ArrowException):
        frame = parse_piece(part.piece)[0][wanted]
    return finish_block(frame, part.finish, meta)


def frame(parts: list[Stored], meta: pd.DataFrame, divisions: tuple[int, ...]) -> dd.DataFrame:
    """The spilled partitions as one lazy frame, typed as `meta` (text stays the loader's `str`)."""
    import dask
    import dask.dataframe as dd

    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_map(restore, parts, template=meta, meta=meta, divisions=divisions, label="restore")


def remove_all() -> None:
    """Remove every spill folder made by this process, on the workers and here."""
    for client, path in _folders:
        if client.status == "running":
            with suppress(Exception):
                client.run(shutil.rmtree, path, True)
        shutil.rmtree(path, ignore_errors=True)
    _folders.clear()
