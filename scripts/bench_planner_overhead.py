"""Measure what the Ollama planner adds per turn (client, HTTP, schema, parsing) against the stand-in server.

    python scripts/bench_planner_overhead.py [--requests 300]

Prints the mean, median and p95 milliseconds per `plan()` call; the stand-in answers at once, so this is the
planner's own overhead, to be compared with a real model's seconds per reply.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_ollama import FakeOllama, good

from react_engine.contract.planner import ContextView, PlanRequest
from react_engine.planners.ollama import OllamaPlanner

REPLY = {"reasoning": "count", "action": "get_log_count", "params": {}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    view = ContextView(question="q", iteration=1, max_iterations=10, now=None, total_rows=1, row_count=1, columns=[])
    request = PlanRequest(system="Reply in JSON.", prompt="x" * 3000, prompt_tokens=1000, view=view)
    with FakeOllama(default=good(json.dumps(REPLY))) as server:
        planner = OllamaPlanner(host=server.host, timeout=10)
        planner.plan(request)  # warm up: schema, connection
        times = []
        for _ in range(args.requests):
            began = time.perf_counter()
            planner.plan(request)
            times.append((time.perf_counter() - began) * 1000)
        planner.close()
    times.sort()
    print(f"requests {len(times)}")
    print(f"mean_ms {statistics.fmean(times):.2f}")
    print(f"median_ms {statistics.median(times):.2f}")
    print(f"p95_ms {times[int(len(times) * 0.95) - 1]:.2f}")


if __name__ == "__main__":
    main()
