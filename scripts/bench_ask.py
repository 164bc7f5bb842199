#!/usr/bin/env python3
"""CPU of one cached `react-engine ask`, split into python start, imports, load, planning, tools and output.

    python scripts/bench_ask.py [--input FILE] [--question TEXT] [--runs 3]

Builds the loghub OpenSSH sample repeated 500 times (as scripts/bench_ingest.py does: 1M lines), asks once to
write the cache, then runs the cached ask N times, each in a fresh process that times its own phases with
`time.process_time()` (all threads, user + system) and prints them; the median of each phase is shown. The
phases are: python start (the interpreter, before the first line), pandas (its import, which every ask
needs), imports (react-engine's own, for `ask`), cli (options, planner, config), load (the cache read),
planning (prompt, question analysis and the planner, every iteration), tools, engine (grounding, evidence,
the rest of the run) and output. The goal line is the CPU outside python start, pandas and the load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_ingest import QUESTION, SAMPLE, build, environment

GOAL = 0.3  # CPU seconds outside python start, pandas and the load

# Runs in the child: the phases are timed by wrapping the functions that do them.
CHILD = """
import time
start = time.process_time()
import json, sys
import react_engine.__main__
react_engine.__main__.environment_defaults()  # as the command does before its imports
import pandas
pandas_done = time.process_time()
import react_engine.app.cli, react_engine.app.cli.ask, react_engine.loop.engine, react_engine.loop.frames, react_engine.loop.run
imports_done = time.process_time()
spent = {"load": 0.0, "planning": 0.0, "tools": 0.0, "output": 0.0, "ask": 0.0}

def timed(owner, name, phase):
    original = getattr(owner, name)
    def wrapper(*args, **kwargs):
        began = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[phase] += time.process_time() - began
    setattr(owner, name, wrapper)

timed(react_engine.loop.frames, "load_logs", "load")
timed(react_engine.loop.run.Run, "_plan", "planning")
timed(react_engine.loop.run.Run, "_run_tool", "tools")
timed(react_engine.loop.engine.Engine, "ask", "ask")
timed(react_engine.app.cli.ask, "present", "output")
began = time.process_time()
try:
    react_engine.app.cli.main(["ask", *sys.argv[1:]], standalone_mode=False)
except SystemExit:
    pass
total = time.process_time() - began
phases = {"python start": start, "pandas": pandas_done - start, "imports": imports_done - pandas_done,
          "cli": total - spent["ask"] - spent["output"], "load": spent["load"], "planning": spent["planning"],
          "tools": spent["tools"],
          "engine": spent["ask"] - spent["load"] - spent["planning"] - spent["tools"], "output": spent["output"]}
print("PHASES " + json.dumps(phases), file=sys.stderr)
"""


def ask_phases(path: Path, env: dict[str, str], question: str = QUESTION) -> dict[str, float]:
    """The CPU seconds of each phase of one cached ask of `question`, in a fresh process."""
    command = [sys.executable, "-c", CHILD, question, str(path), "--planner", "rules", "--no-trace"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    line = next((x for x in done.stderr.splitlines() if x.startswith("PHASES ")), None)
    if line is None:
        raise SystemExit(f"the ask failed: {done.stderr.strip()[-500:]}")
    return json.loads(line.removeprefix("PHASES "))


def report(runs: list[dict[str, float]]) -> None:
    phases = {name: statistics.median(run[name] for run in runs) for name in runs[0]}
    total = sum(phases.values())
    print(f"{'phase':14}{'CPU s':>8}{'share':>8}")
    for name, value in phases.items():
        print(f"{name:14}{value:8.3f}{value / total:8.0%}")
    print(f"{'total':14}{total:8.3f}")
    rest = total - phases["python start"] - phases["pandas"] - phases["load"]
    print(f"goal CPU outside python start, pandas and load <= {GOAL}: {rest:.3f}  "
          f"{'met' if rest <= GOAL else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=Path, help="a log to ask about (default: the OpenSSH sample x500)")
    parser.add_argument("--question", default=QUESTION, help=f"the question asked (default: {QUESTION!r})")
    parser.add_argument("--runs", type=int, default=3, help="cached asks to run; the median of each phase is shown")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        path = args.input or (build(work, 500) if SAMPLE.is_file() else None)
        if path is None:
            print(f"skipped: {SAMPLE} not found (give --input, or put the loghub samples there)")
            return
        env = {**environment(work), "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
        ask_phases(path, env, args.question)  # writes the cache and the bytecode
        report([ask_phases(path, env, args.question) for _ in range(args.runs)])

if __name__ == "__main__":
    main()
