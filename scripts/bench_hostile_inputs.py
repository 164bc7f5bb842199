#!/usr/bin/env python3
"""Hostile inputs: peak memory and time until each is refused (or loaded), each in a fresh process.

Cases: a gzip bomb of zeros (1 GiB from about 1 MB), a gzip bomb of text lines (refused by ratio), the
same with the ratio limit lifted (refused by --max-input-size 256M), /dev/zero, and as a reference one
100 MB plain log. Prints the outcome, seconds and peak RSS of each.

    python scripts/bench_hostile_inputs.py
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import sys
from react_engine.errors import InputError
from react_engine.logs import LoadOptions, load
try:
    frame = load(sys.argv[1], LoadOptions(use_cache=False, **dict(a.split("=") for a in sys.argv[2:])))
    print(f"loaded {len(frame)} rows")
except InputError as error:
    print(f"refused: {str(error)[:110]}")
"""
LINE = b"2025-11-20 10:00:01,000 INFO [main] app: request served in 12 ms\n"


def _bomb(payload: bytes, total: int) -> bytes:
    return gzip.compress(payload) * (total // len(payload))


def run(path: str, *options: str) -> tuple[str, float, int]:
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", CHILD, path, *options], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    out = child.stdout.read() if child.stdout else ""
    err = child.stderr.read() if child.stderr else ""
    _, _, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    return (out.strip() or err.strip().splitlines()[-1]), elapsed, usage.ru_maxrss * 1024


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = {
            "gzip bomb, zeros (1 GiB)": (folder / "zeros.gz", _bomb(bytes(8 << 20), 1 << 30), ()),
            "gzip bomb, text (1 GiB)": (folder / "text.gz", _bomb(b"a\n" * (512 << 10), 1 << 30), ()),
            "gzip bomb, text, ratio lifted": (folder / "text2.gz", _bomb(b"a\n" * (512 << 10), 1 << 30),
                                              ("max_ratio=1e9", "max_input_size=256M")),
            "plain log, 100 MB": (folder / "plain.log", LINE * (100_000_000 // len(LINE)), ()),
        }
        rows = []
        for name, (path, data, options) in cases.items():
            path.write_bytes(data)
            rows.append((name, len(data), *run(str(path), *options)))
            path.unlink()
        rows.append(("/dev/zero", 0, *run("/dev/zero")))
    for name, size, outcome, seconds, rss in rows:
        print(f"{name:<32} file {size / 2**20:7.1f} MiB  {seconds:6.2f} s  peak RSS {rss / 2**20:7.1f} MiB  {outcome}")


if __name__ == "__main__":
    main()
