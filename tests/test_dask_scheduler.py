"""`--dask tcp://…` against a real `dask scheduler` and two `dask worker` processes on loopback."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

from dask_cluster import dask_cluster  # noqa: E402

pytestmark = pytest.mark.dask
ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ["How many critical events are there?", "How many unique cable modems had T3 timeouts?"]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A scheduler and two single-threaded workers, each its own process; all stopped afterwards."""
    with dask_cluster(2) as cluster:
        yield cluster.address


def _ask(question: str, *extra: str) -> dict:
    done = subprocess.run([str(Path(sys.executable).with_name("react-engine")), "ask", question, "sample_logs/cmts",
                           "--planner", "rules", "--json", "--no-trace", "--no-cache", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("question", QUESTIONS)
def test_answers_match_and_the_workers_did_the_work(scheduler: str, question: str) -> None:
    local = _ask(question)
    remote = _ask(question, "--dask", scheduler)
    assert remote["value"] == local["value"]
    assert remote["stop_reason"] == local["stop_reason"] == "stop"
    assert [(e["source"], e["line"]) for e in remote["evidence"]] == [(e["source"], e["line"]) for e in local["evidence"]]
    with distributed.Client(scheduler, timeout="30s") as client:
        work = client.run_on_scheduler(lambda dask_scheduler: {  # seconds of compute per task kind, kept by the scheduler
            name: prefix.all_durations.get("compute", 0.0) for name, prefix in dask_scheduler.task_prefixes.items()})
        assert work.get("parse_piece", 0.0) > 0  # the logs were parsed on the workers
        assert work.get("part_summary", 0.0) > 0, sorted(work)  # and the per-turn summaries computed there
        assert len(client.scheduler_info()["workers"]) == 2
