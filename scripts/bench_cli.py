"""What a person at the terminal waits for: start-up, one `ask`, a `chat` of N questions vs N `ask`s, Ctrl-C.

    python scripts/bench_cli.py [--questions 5] [--repeat 3]

Runs the installed `react-engine` as a user would (rules planner, the bundled CMTS sample, a private cache), and
prints the median wall time of each. `chat` loads the logs once, so its gain over separate `ask`s grows with
the number of questions.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "sample_logs" / "cmts"
QUESTIONS = ["how many T3 timeouts?", "how many of those are on MAWED07T01?", "top 3 hosts",
             "how many lines are there?", "how many errors?"]


def _command() -> str:
    return shutil.which("react-engine") or str(Path(sys.executable).parent / "react-engine")


def _timed(args: list[str], env: dict[str, str], stdin: str | None = None) -> float:
    began = time.perf_counter()
    subprocess.run([_command(), *args], env=env, input=stdin, capture_output=True, text=True, check=False)
    return time.perf_counter() - began


def _interrupt_latency(env: dict[str, str], after: float) -> tuple[float, int]:
    """Seconds from Ctrl-C (sent `after` seconds into a chat waiting on stdin) to exit, and the exit code."""
    process = subprocess.Popen([_command(), "chat", str(LOGS), "--planner", "rules", "--no-trace", "-q"], env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(after)
    began = time.perf_counter()
    process.send_signal(signal.SIGINT)
    code = process.wait(timeout=60)
    return time.perf_counter() - began, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=5, help="questions per chat / separate asks (max 5)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the median is shown")
    args = parser.parse_args()
    questions = QUESTIONS[: max(1, min(args.questions, len(QUESTIONS)))]
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "XDG_CACHE_HOME": f"{home}/cache", "XDG_CONFIG_HOME": f"{home}/config",
               "XDG_DATA_HOME": f"{home}/data", "XDG_STATE_HOME": f"{home}/state"}
        ask = ["--planner", "rules", "--no-trace", "-q"]
        _timed(["ask", questions[0], str(LOGS), *ask], env)  # warm the parsed-frame cache
        rows = {
            "react-engine --version": lambda: _timed(["--version"], env),
            "react-engine --help": lambda: _timed(["--help"], env),
            "ask, one question (warm cache)": lambda: _timed(["ask", questions[0], str(LOGS), *ask], env),
            f"{len(questions)} separate asks": lambda: sum(_timed(["ask", q, str(LOGS), *ask], env) for q in questions),
            f"chat, {len(questions)} questions piped": lambda: _timed(["chat", str(LOGS), *ask], env,
                                                                      "\n".join(questions) + "\n"),
        }
        print(f"{'what':<34} {'median s':>9}   ({args.repeat} rounds, {LOGS.relative_to(ROOT)})")
        for name, run in rows.items():
            print(f"{name:<34} {statistics.median(run() for _ in range(args.repeat)):>9.3f}")
        latencies = [_interrupt_latency(env, after) for after in (0.2, 1.5, 3.0)]
        print(f"{'Ctrl-C to exit (at 0.2/1.5/3.0 s)':<34} "
              + " ".join(f"{s:.3f}s rc={code}" for s, code in latencies))


if __name__ == "__main__":
    main()
