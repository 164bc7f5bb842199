"""Spill folders left by a process that was killed are removed by the next load that spills to the same place."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the dask extra is not installed (pip install -e '.[dask]')")

from react_engine.dask import spill


def _gone_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_only_folders_of_gone_processes_on_this_machine_are_removed(tmp_path: Path) -> None:
    host, gone = socket.gethostname(), _gone_pid()
    stale = tmp_path / f"react-engine-spill-{host}-{gone}-0123456789ab"
    mine = tmp_path / f"react-engine-spill-{host}-{os.getpid()}-0123456789ab"
    elsewhere = tmp_path / f"react-engine-spill-not-{host}-{gone}-0123456789ab"
    other = tmp_path / "react-engine-spill-notes"
    for folder in (stale, mine, elsewhere, other):
        folder.mkdir()
        (folder / "part-000000.parquet").write_bytes(b"x")
    spill.remove_stale(str(tmp_path))
    assert not stale.exists()
    assert mine.exists() and elsewhere.exists() and other.exists()


def test_a_missing_root_is_no_error(tmp_path: Path) -> None:
    spill.remove_stale(str(tmp_path / "absent"))
