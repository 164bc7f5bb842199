"""Will a load fit in memory? Checked from file sizes before reading, and again as bytes come in; a load
that runs out anyway ends with the same advice, not a traceback."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa

from react_engine.errors import InputError
from react_engine.logs.options import format_size

BYTES_PER_INPUT_BYTE = 5.0
"""Peak memory of a load per byte of (decompressed) log text, measured with `ru_maxrss` around an uncached load:
3.8-4.2 on the loghub OpenSSH, HDFS, Android and Windows samples repeated to 70-113 MB (430-580 bytes per row),
5.1 on 95 MB of short log4j lines (`scripts/bench_hostile_inputs.py`); 2.3-2.7 of it is the finished frame, and
the interpreter with pandas and pyarrow adds about 130 MB."""
ADDRESS_PER_RESIDENT = 2.0
"""Address space a load reserves per byte of memory it uses (allocators reserve ahead): at 1M OpenSSH lines the
peak address space grew by 890 MB while the peak RSS grew by 479 MB. Room under `ulimit -v` counts for half."""
ADVICE = "narrow the paths (a sub-folder, --glob, --exclude) or load them with --dask"


def _meminfo_available() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _cgroup_available() -> int | None:
    """Room left under a cgroup v2 memory limit (containers), or None when there is no limit."""
    folder = Path("/sys/fs/cgroup")
    try:
        limit = (folder / "memory.max").read_text().strip()
        if limit == "max":
            return None
        return int(limit) - int((folder / "memory.current").read_text())
    except (OSError, ValueError):
        return None


def _rlimit_available() -> int | None:
    """Memory a load may use under this process's address-space and data limits (`ulimit -v`, `ulimit -d`),
    see ADDRESS_PER_RESIDENT; None when there is no limit (or no `resource` module: Windows)."""
    try:
        import resource

        pages = [int(n) for n in Path("/proc/self/statm").read_text().split()]
    except (ImportError, OSError, ValueError):
        return None
    room = []
    for limit, used in ((resource.RLIMIT_AS, pages[0]), (resource.RLIMIT_DATA, pages[5])):  # size, data + stack
        soft = resource.getrlimit(limit)[0]
        if soft != resource.RLIM_INFINITY:
            room.append(soft - used * resource.getpagesize())
    return max(0, int(min(room) / ADDRESS_PER_RESIDENT)) if room else None


def available_memory() -> int | None:
    """Bytes of memory this process can still use, or None when the system does not say."""
    known = [n for n in (_meminfo_available(), _cgroup_available(), _rlimit_available()) if n is not None]
    return min(known) if known else None


class MemoryBudget:
    """Counts the bytes a load reads and stops it, with advice, before it outgrows the memory available."""

    def __init__(self, available: int | None = None) -> None:
        self.available = available_memory() if available is None else available
        self.read = 0

    def _check(self, total: int, what: str) -> None:
        if self.available is None or total * BYTES_PER_INPUT_BYTE <= self.available:
            return
        raise InputError(
            f"{what} ({format_size(total)} of log text) would need about "
            f"{format_size(total * BYTES_PER_INPUT_BYTE)} of memory once loaded, but only "
            f"{format_size(self.available)} is available; {ADVICE}"
        )

    def plan(self, sizes: int) -> None:
        """Refuse a load whose files (`sizes` bytes on disk) will not fit, before reading any of them."""
        self._check(sizes, "these logs")

    def take(self, size: int) -> None:
        """Count `size` more bytes read (decompressed); refuse once the total will not fit."""
        self.read += size
        self._check(self.read, "the logs read so far")


@contextlib.contextmanager
def out_of_memory_refused(name: str) -> Iterator[None]:
    """Turn running out of memory while loading `name` into an `InputError` with advice."""
    try:
        yield
    except (MemoryError, pa.ArrowMemoryError):
        limits = "" if _rlimit_available() is None else " (see `ulimit -v` and `ulimit -d`)"
        raise InputError(f"{name}: ran out of memory while loading it{limits}; {ADVICE}") from None
