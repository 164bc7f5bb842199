#!/usr/bin/env python3
"""Ingestion benchmark: 1M real-looking lines, engine load+count vs grep -c and lnav.

Builds the OpenSSH loghub sample repeated N times (default 500: 1M lines, 111 MB) in a temp dir, then
times, each in a fresh process: the engine without cache, the engine's first run (parses and writes the
parsed-frame cache), the engine's warm run (cache hit), `grep -c` and `lnav -n -c 'SELECT count(*) ...'`.
Prints seconds, rows/s, ratios to lnav and peak RSS (also as a multiple of the file size).

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
import sys
from react_engine.logs import load
frame = load(sys.argv[1], use_cache=sys.argv[2] == "cache")
count = int(frame["message"].str.contains(sys.argv[3], regex=False).sum())
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
            results["lnav"] = run([lnav, "-n", "-c", query, str(path)], {**env, "HOME": str(directory)})
        else:
            print("lnav not installed (apt-get install lnav); lnav ratios skipped")
        reference = results.get("lnav", (0.0, 0, ""))[0]
        print(f"{'run':36} {'seconds':>8} {'rows/s':>12} {'x lnav':>7} {'peak RSS':>10} {'x file':>7}  output")
        for name, (seconds, rss, output) in results.items():
            ratio = f"{seconds / reference:.2f}" if reference else "-"
            print(
                f"{name:36} {seconds:8.2f} {lines / seconds:12,.0f} {ratio:>7} {rss / 1e6:8.0f}MB "
                f"{rss / size:7.2f}  {output.splitlines()[-1] if output else ''}"
            )
        if reference:
            print(
                f"goals: cold <= 1.5x lnav: {results['engine, no cache'][0] / reference:.2f}x; "
                f"warm <= 0.5x lnav: {results['engine, warm (cache hit)'][0] / reference:.2f}x; "
                f"peak RSS <= 3x file: {results['engine, no cache'][1] / size:.2f}x"
            )


if __name__ == "__main__":
    main()
