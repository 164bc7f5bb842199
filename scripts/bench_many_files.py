#!/usr/bin/env python3
"""Many small files: the time to load a folder of N small logs (default 10,000 files of 20 lines).

The files come in a few families, as rotated or per-host logs do (`app-0001.log`, `host-0002.log`, ...),
each family in its own format. Prints the wall and CPU time of `load()` (without the cache, or a first load with `--cache`), per file and
per row (on a shared machine the CPU time is the one to compare); `--profile` also prints the functions where the time went.

    python scripts/bench_many_files.py [--files 10000] [--lines 20] [--cache] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import tempfile
import time
from pathlib import Path

from react_engine.logs import LoadOptions, load

FAMILIES = {
    "syslog-{:05d}.log": "Nov 20 10:{m:02d}:{s:02d} host{n} sshd[{n}]: Failed password for root from 10.0.0.{n} port 22",
    "app-{:05d}.log": "2025-11-20 10:{m:02d}:{s:02d},123 INFO [main] com.example.App: request {n} served",
    "events-{:05d}.jsonl": '{{"time": "2025-11-20T10:{m:02d}:{s:02d}Z", "level": "warn", "msg": "slow request {n}"}}',
    "access-{:05d}.log": '10.0.0.{n} - - [20/Nov/2025:10:{m:02d}:{s:02d} +0000] "GET /x/{n} HTTP/1.1" 200 512 "-" "curl"',
}


def build(folder: Path, files: int, lines: int) -> int:
    """Write `files` small logs into `folder`; returns the number of lines written."""
    families = list(FAMILIES.items())
    for index in range(files):
        name, line = families[index % len(families)]
        text = "\n".join(line.format(m=i // 60 % 60, s=i % 60, n=index % 250) for i in range(lines)) + "\n"
        (folder / name.format(index)).write_text(text)
    return files * lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--lines", type=int, default=20)
    parser.add_argument("--cache", action="store_true", help="with the parsed-frame cache (in a temporary folder)")
    parser.add_argument("--profile", action="store_true", help="print the 15 functions with most cumulative time")
    args = parser.parse_args()
    options = LoadOptions(use_cache=args.cache)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "logs"
        folder.mkdir()
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        rows = build(folder, args.files, args.lines)
        start, cpu = time.perf_counter(), time.process_time()
        frame = load(folder, options)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        if args.profile:
            cProfile.runctx("load(folder, options)", globals(), locals(), str(Path(tmp) / "prof"))
            pstats.Stats(str(Path(tmp) / "prof")).sort_stats("cumulative").print_stats(15)
    if len(frame) != rows:
        raise SystemExit(f"loaded {len(frame)} rows, wrote {rows}")
    formats = sorted({f["format"] for f in frame.attrs["files"]})
    print(f"{args.files} files x {args.lines} lines ({rows} rows{', cache' if args.cache else ''}): {elapsed:.2f} s, "
          f"{elapsed / args.files * 1000:.2f} ms per file, {rows / elapsed:,.0f} rows/s; "
          f"CPU {cpu:.2f} s, {cpu / args.files * 1000:.2f} ms per file; formats {formats}")


if __name__ == "__main__":
    main()
