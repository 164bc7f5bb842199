"""A worker lost in the middle of a question: Dask recomputes its partitions, and the answer does not change."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from react_engine.contract.planner import Planner, PlannerReply, PlanRequest
from react_engine.contract.record import RunResult
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

from dask_cluster import Cluster, dask_cluster  # noqa: E402

pytestmark = pytest.mark.dask
ROOT = Path(__file__).resolve().parents[1]
LOGS = [str(ROOT / "sample_logs/cmts")]
QUESTION = "How many unique cable modems had T3 timeouts?"


class KillingPlanner(Planner):
    """The rules planner, except that before its second reply (after the first tool ran on the cluster) it
    kills the worker holding the most data, and optionally deletes the spilled files too."""

    name = "rules"
    deterministic = True

    def __init__(self, cluster: Cluster, client: distributed.Client, spill: Path | None) -> None:
        self.rules, self.cluster, self.client, self.spill = RulesPlanner(), cluster, client, spill
        self.calls = 0
        self.killed: int | None = None

    def plan(self, request: PlanRequest) -> PlannerReply:
        self.calls += 1
        if self.calls == 2:
            self._kill()
        return self.rules.plan(request)

    def _kill(self) -> None:
        held = self.client.has_what()
        address = max(held, key=lambda worker: len(held[worker]))
        pid = self.client.run(os.getpid, workers=[address])[address]
        [victim] = [p for p in self.cluster.workers if p.pid == pid]
        victim.kill()
        victim.wait()
        self.killed = pid
        if self.spill is not None:
            shutil.rmtree(self.spill)  # the spilled files are lost with it: parsed from the logs again


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    with dask_cluster(2) as running:
        yield running


def _in_process() -> RunResult:
    return Engine(RulesPlanner()).ask(QUESTION, LOGS, load_options=LoadOptions(use_cache=False))


@pytest.mark.parametrize("spilled", [False, True], ids=["in-memory", "spilled"])
def test_a_worker_killed_between_steps_changes_nothing(cluster: Cluster, spilled: bool, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    if spilled:
        import react_engine.dask.load as dask_load

        monkeypatch.setattr(dask_load, "BYTES_PER_INPUT_BYTE", 1e9)  # nothing fits: the rows go to Parquet files
    expected = _in_process()
    with distributed.Client(cluster.address, timeout="60s") as client:
        planner = KillingPlanner(cluster, client, tmp_path if spilled else None)
        got = Engine(planner, dask=client).ask(QUESTION, LOGS, load_options=LoadOptions(
            use_cache=False, dask_spill=str(tmp_path) if spilled else None))
        assert planner.killed is not None  # the worker really died mid-question
        assert len(client.scheduler_info(n_workers=-1)["workers"]) == 1
        assert got.stop_reason == expected.stop_reason == "stop"
        assert got.value == expected.value
        assert [(e.source, e.line) for e in got.evidence] == [(e.source, e.line) for e in expected.evidence]
        assert [s.action for s in got.steps] == [s.action for s in expected.steps]
