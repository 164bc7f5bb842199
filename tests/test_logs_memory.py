"""Loads under a real address-space limit (`ulimit -v`), in a child process: refused before reading when they
will not fit, and a clear error, not a traceback, when memory runs out anyway."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CHILD = """
import resource, sys
from pathlib import Path
from react_engine.errors import InputError
from react_engine.logs import LoadOptions, load
from react_engine.logs.memory import MemoryBudget
from react_engine.logs.reading import read
from react_engine.logs.sources import SourceFile

path, room, budgeted = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "budget"
with open("/proc/self/statm") as statm:
    size = int(statm.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (size + room, resource.getrlimit(resource.RLIMIT_AS)[1]))
try:
    if budgeted:
        load(path, LoadOptions(use_cache=False))
    else:  # no budget: the limit is met while reading
        read(SourceFile(path, Path(path), Path(path).stat().st_size), budget=MemoryBudget(available=1 << 50))
    print("loaded")
except InputError as exc:
    print(exc)
"""


def _under_limit(path: Path, room: int, mode: str) -> str:
    if not Path("/proc/self/statm").is_file():
        pytest.skip("needs /proc/self/statm (Linux)")
    done = subprocess.run([sys.executable, "-c", CHILD, str(path), str(room), mode],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def _log(path: Path, megabytes: int) -> Path:
    line = b"Nov 20 10:00:01 h1 sshd[1]: Accepted password for alice from 10.0.0.1 port 22 ssh2\n"
    path.write_bytes(line * (megabytes * (1 << 20) // len(line)))
    return path


def test_a_load_over_the_address_space_limit_is_refused_before_reading(tmp_path: Path) -> None:
    message = _under_limit(_log(tmp_path / "auth.log", 8), 64 << 20, "budget")
    assert message.startswith("these logs (8.0 MiB of log text) would need about 40.0 MiB of memory")
    assert message.endswith("narrow the paths (a sub-folder, --glob, --exclude) or load them with --dask")


def test_running_out_of_memory_while_reading_is_a_clear_error(tmp_path: Path) -> None:
    path = _log(tmp_path / "auth.log", 48)
    message = _under_limit(path, 24 << 20, "unbudgeted")
    assert message == (f"{path}: ran out of memory while loading it (see `ulimit -v` and `ulimit -d`); "
                       "narrow the paths (a sub-folder, --glob, --exclude) or load them with --dask")


def test_a_load_within_the_limit_completes(tmp_path: Path) -> None:
    assert _under_limit(_log(tmp_path / "auth.log", 1), 1 << 30, "budget") == "loaded"
