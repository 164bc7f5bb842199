"""Will a load fit in memory? Checked from file sizes before reading, and again as bytes come in."""

from __future__ import annotations

from pathlib import Path

from react_engine.errors import InputError
from react_engine.logs.options import format_size

BYTES_PER_INPUT_BYTE = 5.0
"""Peak memory of a load per byte of (decompressed) log text, measured with `ru_maxrss` around an uncached load:
3.8-4.2 on the loghub OpenSSH, HDFS, Android and Windows samples repeated to 70-113 MB (430-580 bytes per row),
5.1 on 95 MB of short log4j lines (`scripts/bench_hostile_inputs.py`); 2.3-2.7 of it is the finished frame, and
the interpreter with pandas and pyarrow adds about 130 MB."""


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


def available_memory() -> int | None:
    """Bytes of memory this process can still use, or None when the system does not say."""
    known = [n for n in (_meminfo_available(), _cgroup_available()) if n is not None]
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
            f"{format_size(self.available)} is available; narrow the paths (a sub-folder, --glob, --exclude) "
            "or load them with --dask"
        )

    def plan(self, sizes: int) -> None:
        """Refuse a load whose files (`sizes` bytes on disk) will not fit, before reading any of them."""
        self._check(sizes, "these logs")

    def take(self, size: int) -> None:
        """Count `size` more bytes read (decompressed); refuse once the total will not fit."""
        self.read += size
        self._check(self.read, "the logs read so far")
