"""A cluster whose workers cannot run tasks (all paused at their memory limit, or none connected): a load gives up
with advice instead of waiting for ever, as Dask would."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from react_engine.errors import InputError

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

from dask_cluster import dask_cluster  # noqa: E402

from react_engine.dask import load as dask_load  # noqa: E402

pytestmark = pytest.mark.dask
LOGS = [str(Path(__file__).resolve().parents[1] / "sample_logs/cmts")]


def _failed_load(address: str) -> tuple[BaseException | None, float]:
    """What loading the sample logs on the cluster raised, and after how long (a hang fails the test)."""
    outcome: list[BaseException | None] = []
    with distributed.Client(address, timeout="30s") as client:
        def attempt() -> None:
            try:
                dask_load.load(client, LOGS)
                outcome.append(None)
            except BaseException as exc:  # handed to the test's thread
                outcome.append(exc)

        started = time.monotonic()
        worker = threading.Thread(target=attempt, daemon=True)
        worker.start()
        worker.join(90)
        assert outcome, "the load was still waiting after 90 s"
        elapsed = time.monotonic() - started
        deadline = time.monotonic() + 30
        while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
            assert time.monotonic() < deadline, "the load's tasks were left on the scheduler"
            time.sleep(0.1)
    return outcome[0], elapsed


def test_workers_paused_at_their_memory_limit_end_the_load_with_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dask_load, "STALL_SECONDS", 2.0)
    with dask_cluster(1, "--memory-limit", "60MB") as cluster:  # under a worker's own size: paused at once
        error, elapsed = _failed_load(cluster.address)
    assert isinstance(error, InputError), error
    assert "every Dask worker (1) is paused at its memory limit" in str(error)
    assert "--memory-limit" in str(error) and "dask worker SCHEDULER-ADDRESS" in str(error)
    assert elapsed >= 2.0


def test_a_scheduler_without_workers_ends_the_load_with_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dask_load, "STALL_SECONDS", 1.0)
    with dask_cluster(0) as cluster:
        error, _ = _failed_load(cluster.address)
    assert isinstance(error, InputError), error
    assert f"no Dask worker is connected to the scheduler {cluster.address}" in str(error)
