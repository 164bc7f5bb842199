#!/usr/bin/env python3
"""Ingestion benchmark: 1M real-looking lines, engine load+count vs grep -c and lnav.

Builds the OpenSSH loghub sample repeated N times (default 500: 1M lines, 111 MB) in a temp dir, then
times, each in a fresh process: the engine without cache, the engine's first run (parses and writes the
parsed-frame cache), the engine's warm run (cache hit), `grep -c` and `lnav -n -c 'SELECT count(*) ...'`.
Prints wall seconds end to end (process start to exit), for the engine also the seconds of load+count
inside the process (without interpreter start and imports, as for a second question in a session),
rows/s, ratios to lnav and peak RSS (also as a multiple of the file size).

    python scripts/bench_ingest.py [--repeat 500]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REAL_LOGS = Path(__file__).resolve().parents[2] / "shared" / "real_logs"
SAMPLE = REAL_LOGS / "OpenSSH" / "OpenSSH_2k.log"
NEEDLE = "Failed password"
ENGINE = """
import sys, time
from react_engine.logs import load
from react_engine.logs.options import LoadOptions
start = time.perf_counter()
frame = load(sys.argv[1], LoadOptions(use_cache=sys.argv[2] == "cache"))
count = int(frame["message"].str.contains(sys.argv[3], regex=False).sum())
print(f"{time.perf_counter() - start:.3f}")
print(len(frame), count)
"""


def build(directory: Path, repeat: int) -> Path:
    data = SAMPLE.read_bytes()
    if not data.endswith(b"\n"):
        data += b"\r\n"
    path = directory / f"openssh_x{repeat}.log"
    with path.open("wb") as handle:
        for _ in range(repeat):
            handle.write(data)
    return path


def run(command: list[str], env: dict[str, str]) -> tuple[float, int, str]:
    """Wall seconds, peak RSS (bytes) and stdout of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    output = child.stdout.read().decode() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        error = child.stderr.read().decode() if child.stderr else ""
        raise SystemExit(f"{command[0]} failed: {error.strip()[-500:]}")
    return elapsed, usage.ru_maxrss * 1024, output.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=500, help="copies of the 2000-line OpenSSH sample")
    args = parser.parse_args()
    if not SAMPLE.is_file():
        print(f"skipped: {SAMPLE} not found (the loghub samples are needed to build the input)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        path = build(directory, args.repeat)
        size = path.stat().st_size
        lines = 2000 * args.repeat
        env = {**os.environ, "XDG_CACHE_HOME": str(directory / "cache")}
        print(f"input: {lines:,} lines, {size / 1e6:.1f} MB ({path.name})")
        python = [sys.executable, "-c", ENGINE, str(path)]
        results: dict[str, tuple[float, int, str]] = {
            "engine, no cache": run([*python, "nocache", NEEDLE], env),
            "engine, first run (writes cache)": run([*python, "cache", NEEDLE], env),
            "engine, warm (cache hit)": run([*python, "cache", NEEDLE], env),
            "grep -c": run(["grep", "-c", NEEDLE, str(path)], env),
        }
        lnav = shutil.which("lnav")
        if lnav:
            query = f";SELECT count(*) AS n FROM syslog_log WHERE log_body LIKE '%{NEEDLE}%'"
            # a fresh HOME, so lnav starts without state from earlier runs, like the engine without cache
            results["lnav"] = run([lnav, "-n", "-c", query, str(path)], {**env, "HOME": str(directory)})
        else:
            print("lnav not installed (apt-get install lnav); lnav ratios skipped")
        reference = results.get("lnav", (0.0, 0, ""))[0]
        print(f"{'run':34} {'wall s':>7} {'in-proc s':>9} {'rows/s':>11} {'x lnav':>7} {'peak RSS':>9} {'x file':>6}")
        for name, (seconds, rss, output) in results.items():
            inner = float(output.splitlines()[0]) if name.startswith("engine") else None
            ratio = f"{seconds / reference:.2f}" if reference else "-"
            inner_text = f"{inner:9.2f}" if inner is not None else f"{'-':>9}"
            print(
                f"{name:34} {seconds:7.2f} {inner_text} {lines / seconds:11,.0f} {ratio:>7} {rss / 1e6:7.0f}MB "
                f"{rss / size:6.2f}  -> {output.splitlines()[-1]}"
            )
        if reference:
            cold, warm = results["engine, no cache"], results["engine, warm (cache hit)"]
            print(
                f"goals: cold <= 1.5x lnav: {cold[0] / reference:.2f}x; warm <= 0.5x lnav: {warm[0] / reference:.2f}x "
                f"end to end, {float(warm[2].splitlines()[0]) / reference:.2f}x in-process; "
                f"peak RSS <= 3x file: {cold[1] / size:.2f}x"
            )

if __name__ == "__main__":
    main()
