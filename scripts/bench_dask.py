#!/usr/bin/env python3
"""Dask benchmark: one question in-process and with `--dask`, on logs of growing size.

Builds the loghub OpenSSH sample repeated to N lines in a temp dir, then asks `react-engine ask` the same
question (rules planner, no cache, no trace) as a fresh process: in-process, and with `--dask local:2` (two
worker processes started by the command). Prints wall and CPU seconds (user + system, summed over every
process of the run), the answer, and the peak RSS of the command and of each worker, sampled every 0.1 s.

`--big` instead starts a `dask scheduler` and W `dask worker --memory-limit M` processes on loopback and asks
over logs bigger than the workers' memory (default 4 workers x 1 GB on 3 GB of logs), to show that it
completes; the generated logs are deleted afterwards.

    python scripts/bench_dask.py [--lines 1000000 10000000]
    python scripts/bench_dask.py --big [--big-bytes 3G] [--workers 4] [--memory-limit 1GB]
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

REAL_LOGS = Path(__file__).resolve().parents[2] / "shared" / "real_logs"
SAMPLE = REAL_LOGS / "OpenSSH" / "OpenSSH_2k.log"
QUESTION = 'How many lines contain "Failed password"?'
BIN = Path(sys.executable).parent


@dataclass
class Measured:
    wall: float
    cpu: float  # user + system seconds of every process of the run (last sample of those that ended with it)
    value: object
    peaks: dict[str, int] = field(default_factory=dict)  # process label -> peak RSS bytes


def build(directory: Path, lines: int) -> Path:
    data = SAMPLE.read_bytes()
    data = data if data.endswith(b"\n") else data + b"\n"
    per_copy = data.count(b"\n")
    path = directory / f"openssh_{lines}.log"
    with path.open("wb") as out:
        for _ in range(max(1, lines // per_copy)):
            out.write(data)
    return path


def ask(path: Path, *extra: str, watch: list[psutil.Process] | None = None) -> Measured:
    """Run the question as a child process; sample the RSS of it, its descendants and the `watch` processes."""
    started = time.perf_counter()
    child = subprocess.Popen([str(BIN / "react-engine"), "ask", QUESTION, str(path), "--planner", "rules", "--json",
                              "--no-trace", "--no-cache", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    root = psutil.Process(child.pid)
    peaks: dict[int, tuple[str, int]] = {}
    cpu: dict[int, float] = {}
    while child.poll() is None:
        try:
            family = [root, *root.children(recursive=True), *(watch or [])]
            for process in family:
                times = process.cpu_times()
                cpu[process.pid] = times.user + times.system
                rss = process.memory_info().rss
                label = "command" if process.pid == child.pid else "worker"  # or its nanny
                peaks[process.pid] = (label, max(rss, peaks.get(process.pid, ("", 0))[1]))
        except psutil.Error:
            pass
        time.sleep(0.1)
    out, err = child.communicate()
    if child.returncode not in (0, 1):
        raise SystemExit(f"react-engine failed ({child.returncode}): {err.decode()[-2000:]}")
    result = json.loads(out)
    labelled: dict[str, int] = {}
    for pid, (label, peak) in sorted(peaks.items()):
        labelled[f"{label} {pid}"] = peak
    value = result.get("value")
    if value is None or result.get("stop_reason") != "stop":
        value = f"{result.get('stop_reason')}: {result.get('message') or result.get('answer')}"
    return Measured(time.perf_counter() - started, sum(cpu.values()), value, labelled)


def _mb(size: int) -> str:
    return f"{size / 2**20:,.0f} MB"


def grep_count(path: Path) -> int:
    """What `grep -c` finds for the question's text: the answer to check against."""
    done = subprocess.run(["grep", "-c", QUESTION.split('"')[1], str(path)], capture_output=True, text=True)
    return int(done.stdout.strip() or 0)


HEADER = ("| lines | size | run | wall | CPU | command peak RSS | worker peak RSS | value | grep -c |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")


def report(name: str, path: Path, lines: int, measured: Measured) -> None:
    command = max((v for k, v in measured.peaks.items() if k.startswith("command")), default=0)
    workers = [v for k, v in measured.peaks.items() if not k.startswith("command")]
    worker_text = f"{len(workers)} x max {_mb(max(workers))}" if workers else "-"
    print(f"| {lines:,} | {_mb(path.stat().st_size)} | {name} | {measured.wall:,.1f} s | {measured.cpu:,.1f} s | "
          f"{_mb(command)} | {worker_text} | {measured.value} | {grep_count(path):,} |", flush=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def big(directory: Path, size: int, workers: int, memory_limit: str) -> None:
    lines = int(size / (SAMPLE.stat().st_size / 2000))
    path = build(directory, lines)
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    processes = [subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                   "--no-dashboard"], **quiet)]
    try:
        time.sleep(3)
        for _ in range(workers):
            processes.append(subprocess.Popen([str(BIN / "dask"), "worker", address, "--host", "127.0.0.1",
                                               "--nthreads", "1", "--memory-limit", memory_limit,
                                               "--no-dashboard"], **quiet))
        time.sleep(8)
        watch = [p for process in processes[1:] for p in psutil.Process(process.pid).children(recursive=True)]
        measured = ask(path, "--dask", address, watch=watch)
        print(f"{workers} workers x {memory_limit} on {_mb(path.stat().st_size)} ({lines:,} lines):")
        print(HEADER)
        report(f"--dask (scheduler + {workers} workers x {memory_limit})", path, lines, measured)
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            process.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--big", action="store_true", help="logs bigger than the workers' memory")
    parser.add_argument("--big-bytes", type=float, default=3 * 2**30)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--memory-limit", default="1GB")
    args = parser.parse_args()
    if not SAMPLE.exists():
        raise SystemExit(f"{SAMPLE} is missing: the benchmark needs the loghub OpenSSH sample in ../shared/real_logs")
    with tempfile.TemporaryDirectory(prefix="bench_dask_") as tmp:
        if args.big:
            big(Path(tmp), int(args.big_bytes), args.workers, args.memory_limit)
            return
        print(HEADER)
        for lines in args.lines:
            path = build(Path(tmp), lines)
            report("in-process", path, lines, ask(path))
            report("--dask local:2", path, lines, ask(path, "--dask", "local:2"))
            path.unlink()


if __name__ == "__main__":
    main()
