#!/usr/bin/env python3
"""Ingestion benchmark: `react-engine ask` on 1M real OpenSSH lines against lnav's headless SQL count and grep.

Builds the loghub OpenSSH sample repeated N times (default 500: 1M lines, 111 MB) in a temp dir (or uses
--input), then runs, each as a fresh process: lnav `SELECT count(*) ... LIKE`, `grep -c`, the first
`react-engine ask` (parses, writes the cache), the second (cache hit), `react-engine --version` and
`--help`, `python -c "import click"` and `python -c "import pandas"` (the floor of any ask). Prints CPU seconds (user + system, the fair measure on a busy
machine), wall seconds and peak RSS of each, the ratios the performance goals are stated in, and the
cache entry's size. Python writes its bytecode as it does for a user (PYTHONDONTWRITEBYTECODE is dropped)
and one ask on a small file runs first, so no measured run pays for compiling the package. With --runs N everything is run N times (each round with an empty cache) and the run
with the median CPU time of each kind is shown.

    python scripts/bench_ingest.py [--repeat 500] [--input FILE] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REAL_LOGS = Path(os.environ.get("LOGHUB_SAMPLES") or Path(__file__).resolve().parents[2] / "shared" / "real_logs")
SAMPLE = REAL_LOGS / "OpenSSH" / "OpenSSH_2k.log"
NEEDLE = "Failed password"
QUESTION = f'How many lines contain "{NEEDLE}"?'


@dataclass
class Run:
    cpu: float
    wall: float
    rss: int
    output: str


def build(directory: Path, repeat: int) -> Path:
    data = SAMPLE.read_bytes()
    if not data.endswith(b"\n"):
        data += b"\r\n"
    path = directory / f"openssh_x{repeat}.log"
    with path.open("wb") as handle:
        for _ in range(repeat):
            handle.write(data)
    return path


def run(command: list[str], env: dict[str, str]) -> Run:
    """CPU seconds (user + system), wall seconds, peak RSS (bytes) and stdout of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    output = child.stdout.read().decode() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        error = child.stderr.read().decode() if child.stderr else ""
        raise SystemExit(f"{' '.join(command[:2])} failed: {error.strip()[-500:]}")
    return Run(usage.ru_utime + usage.ru_stime, elapsed, usage.ru_maxrss * 1024, output.strip())


def engine_command() -> list[str]:
    script = Path(sys.executable).parent / "react-engine"
    return [str(script)] if script.is_file() else [sys.executable, "-c", "from react_engine.app.cli import main; main()"]


def environment(work: Path) -> dict[str, str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache"), "XDG_DATA_HOME": str(work / "data")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def ask_command(path: Path) -> list[str]:
    return [*engine_command(), "ask", QUESTION, str(path), "--planner", "rules", "--no-trace"]


def warm_up(work: Path) -> None:
    """One ask on the sample itself, so that the package's bytecode is written before anything is measured."""
    work.mkdir()
    run(ask_command(SAMPLE), environment(work))


def measure(path: Path, work: Path) -> dict[str, Run]:
    work.mkdir()
    env = environment(work)
    engine = engine_command()
    ask = ask_command(path)
    results: dict[str, Run] = {}
    lnav = shutil.which("lnav")
    if lnav:
        query = f";SELECT count(*) AS n FROM syslog_log WHERE log_body LIKE '%{NEEDLE}%'"
        # a fresh HOME, so lnav starts without state from earlier runs
        results["lnav (SQL count)"] = run([lnav, "-n", "-c", query, str(path)], {**env, "HOME": str(work)})
    else:
        print("lnav not installed (apt-get install lnav); lnav ratios skipped")
    results["grep -c"] = run(["grep", "-c", NEEDLE, str(path)], env)
    results["ask, first (parse + cache)"] = run(ask, env)
    results["ask, second (cached)"] = run(ask, env)
    results["react-engine --version"] = run([*engine, "--version"], env)
    results["react-engine --help"] = run([*engine, "--help"], env)
    results["python -c 'import click'"] = run([sys.executable, "-c", "import click"], env)
    # what every ask pays before reading a byte: the interpreter and the pandas/pyarrow import
    # (with the settings the command makes before its imports)
    floor = "import react_engine.__main__ as m; m.environment_defaults(); import pandas"
    results["python -c 'import pandas'"] = run([sys.executable, "-c", floor], env)
    return results


def report(results: dict[str, Run], size: int, lines: int, cache_bytes: int) -> None:
    lnav = results.get("lnav (SQL count)")
    print(f"{'run':30} {'CPU s':>7} {'wall s':>7} {'x lnav':>7} {'peak RSS':>9} {'x file':>6}  output")
    for name, result in results.items():
        ratio = f"{result.cpu / lnav.cpu:.2f}" if lnav else "-"
        answer = result.output.splitlines()[0][:60] if result.output else ""
        print(f"{name:30} {result.cpu:7.2f} {result.wall:7.2f} {ratio:>7} {result.rss / 1e6:7.0f}MB "
              f"{result.rss / size:6.2f}  {answer}")
    print(f"cache entry: {cache_bytes / 1e6:.1f} MB = {cache_bytes / size:.3f}x the file")
    first, second = results["ask, first (parse + cache)"], results["ask, second (cached)"]
    click = results["python -c 'import click'"].cpu
    goals = [
        ("--version <= 2x import click", results["react-engine --version"].cpu / click, 2.0),
        ("--help <= 2x import click", results["react-engine --help"].cpu / click, 2.0),
        ("peak RSS first <= 3x file", first.rss / size, 3.0),
        ("peak RSS second <= 3x file", second.rss / size, 3.0),
        ("cache entry <= 1.5x file", cache_bytes / size, 1.5),
    ]
    if lnav:
        goals[:0] = [("first ask <= 1.0x lnav CPU", first.cpu / lnav.cpu, 1.0),
                     ("second ask <= 0.4x lnav CPU", second.cpu / lnav.cpu, 0.4)]
    print(f"input: {lines:,} lines, {size / 1e6:.1f} MB; first ask {lines / first.cpu:,.0f} lines per CPU second")
    for name, value, goal in goals:
        print(f"goal {name:32} {value:6.2f}  {'met' if value <= goal else 'NOT met'}")


def input_options(parser: argparse.ArgumentParser) -> None:
    """`--repeat` and `--input`, which choose the log `measured_input` gives."""
    parser.add_argument("--repeat", type=int, default=500, help="copies of the 2000-line OpenSSH sample")
    parser.add_argument("--input", type=Path, help="an existing log to measure instead of building one")


@contextmanager
def measured_input(args: argparse.Namespace) -> Iterator[tuple[Path, Path, int] | None]:
    """The log to measure (`--input`, or the sample repeated `--repeat` times in a temporary folder), that folder
    and the log's size; None, said, when the sample is missing."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.input is None and not SAMPLE.is_file():
            print(f"skipped: {SAMPLE} not found (the loghub samples are needed to build the input)")
            yield None
            return
        path = args.input or build(work, args.repeat)
        yield path, work, path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    input_options(parser)
    parser.add_argument("--runs", type=int, default=1, help="rounds to run; the median of each is shown")
    args = parser.parse_args()
    with measured_input(args) as found:
        if found is None:
            return
        path, work, size = found
        with path.open("rb") as handle:
            lines = sum(block.count(b"\n") for block in iter(lambda: handle.read(1 << 20), b""))
        print(f"input: {path} ({lines:,} lines, {size / 1e6:.1f} MB)", flush=True)
        if SAMPLE.is_file():
            warm_up(work / "warm-up")
        rounds = [measure(path, work / f"round{i}") for i in range(args.runs)]
        results = {name: sorted((r[name] for r in rounds), key=lambda run: run.cpu)[args.runs // 2]
                   for name in rounds[0]}
        cache_bytes = sum(p.stat().st_size for p in (work / "round0" / "cache").rglob("*.arrow"))
        report(results, size, lines, cache_bytes)


if __name__ == "__main__":
    main()
