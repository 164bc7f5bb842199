"""`--dask tcp://…` against a real `dask scheduler` and two `dask worker` processes on loopback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

pytestmark = pytest.mark.dask
ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ["How many critical events are there?", "How many unique cable modems had T3 timeouts?"]


def _work(scheduler: str) -> dict[str, float]:
    """Seconds of compute per task kind so far, kept by the scheduler."""
    with distributed.Client(scheduler, timeout="30s") as client:
        assert len(client.scheduler_info()["workers"]) == 2
        return client.run_on_scheduler(lambda dask_scheduler: {
            name: prefix.all_durations.get("compute", 0.0) for name, prefix in dask_scheduler.task_prefixes.items()})


def _ask(question: str, *extra: str) -> dict:
    done = subprocess.run([str(Path(sys.executable).with_name("react-engine")), "ask", question, "sample_logs/cmts",
                           "--planner", "rules", "--json", "--no-trace", "--no-cache", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("question", QUESTIONS)
def test_answers_match_and_the_workers_did_the_work(dask_scheduler: str, question: str) -> None:
    local = _ask(question)
    before = _work(dask_scheduler)
    remote = _ask(question, "--dask", dask_scheduler)
    assert remote["value"] == local["value"]
    assert remote["stop_reason"] == local["stop_reason"] == "stop"
    assert [(e["source"], e["line"]) for e in remote["evidence"]] == [(e["source"], e["line"]) for e in local["evidence"]]
    work = _work(dask_scheduler)
    assert work.get("parse_piece", 0.0) > before.get("parse_piece", 0.0)  # the logs were parsed on the workers
    assert work.get("part_summary", 0.0) > before.get("part_summary", 0.0), sorted(work)  # and the summaries too
