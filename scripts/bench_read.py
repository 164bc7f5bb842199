#!/usr/bin/env python3
"""Read, split and cache-write benchmark on 1M real OpenSSH lines (the file `bench_ingest.py` builds).

Each round runs in a fresh process: it imports the loader, then reads the file (`reading.read`), splits it
into lines (`lines.split`), parses it (not measured) and writes its cache entry (`frame_cache.put`; `packing.pack`, its first step, is also
timed alone). Prints the
CPU seconds of each measured stage, the process's peak RSS at the end of the split, and that peak less the
RSS after the imports, as a multiple of the file size (the goal is about 1.1x). The median round is shown.

    python scripts/bench_read.py [--repeat 500] [--input FILE] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from bench_ingest import input_options, measured_input


def _rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _current_rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def child(path: Path, cache_home: Path) -> dict[str, float]:
    """One round, in this process: CPU seconds per stage and RSS figures, in bytes."""
    import os

    os.environ["XDG_CACHE_HOME"] = str(cache_home)
    from react_engine.logs import frame_cache
    from react_engine.logs.arrow import prefer_jemalloc
    from react_engine.logs.detect import Detector
    from react_engine.logs.lines import split
    from react_engine.logs.loader import reference_time
    from react_engine.logs.options import LoadOptions
    from react_engine.logs.packing import pack
    from react_engine.logs.parse import parse_lines
    from react_engine.logs.reading import read
    from react_engine.logs.sources import SourceFile

    prefer_jemalloc()
    options = LoadOptions()
    stat = path.stat()
    source = SourceFile(name=path.name, path=path, size=stat.st_size, mtime=stat.st_mtime)
    imported = _current_rss()
    start = time.process_time()
    content = read(source, options)
    read_done = time.process_time()
    lines = split(content.data)
    del content
    split_done = time.process_time()
    peak = _rss()
    fmt, rows = Detector().detect(path.name, lines.text), len(lines.text)
    held = [lines.text]
    del lines
    parsed = parse_lines(fmt, held, source=path.name, year=None, reference=reference_time(stat.st_mtime))
    info = {"path": path.name, "format": fmt.name, "rows": parsed.table.num_rows, "warnings": []}
    pack_start = time.process_time()
    pack(parsed.table)
    put_start = time.process_time()
    frame_cache.put(source, options.parse_key(), parsed.table, info)
    put_done = time.process_time()
    entry = sum(p.stat().st_size for p in frame_cache.cache_dir().glob("*.arrow"))
    return {"read": read_done - start, "split": split_done - read_done, "put": put_done - put_start, "pack": put_start - pack_start,
            "imported": imported, "peak": peak, "rows": rows, "entry": entry}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    input_options(parser)
    parser.add_argument("--runs", type=int, default=3, help="rounds to run; the median is shown")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--cache-home", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.cache_home)))
        return
    with measured_input(args) as found:
        if found is None:
            return
        path, work, size = found
        rounds = []
        for index in range(args.runs):
            command = [sys.executable, __file__, "--child", str(path), "--cache-home", str(work / f"cache{index}")]
            rounds.append(json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout))
        result = sorted(rounds, key=lambda r: r["read"] + r["split"])[args.runs // 2]
    growth = result["peak"] - result["imported"]
    print(f"input: {path.name}, {result['rows']:,} lines, {size / 1e6:.1f} MB; median of {args.runs} rounds")
    print(f"read     {result['read']:6.2f} CPU s")
    print(f"split    {result['split']:6.2f} CPU s")
    print(f"put      {result['put']:6.2f} CPU s  (entry {result['entry'] / 1e6:.0f} MB, {result['entry'] / size:.2f}x)")
    print(f"  of which packing.pack {result['pack']:.2f} CPU s (timed alone)")
    print(f"RSS after imports {result['imported'] / 1e6:.0f} MB; peak by the end of split {result['peak'] / 1e6:.0f} MB")
    print(f"read + split peak growth {growth / 1e6:.0f} MB = {growth / size:.2f}x the file (goal about 1.1x)")


if __name__ == "__main__":
    main()
