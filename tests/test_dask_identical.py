"""Every case of the sample suite gives the same value, stop reason and evidence on a Dask cluster as in-process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from react_engine.engine import Engine
from react_engine.evaluation.suite import Case, load_suite
from react_engine.frames import FrameCache
from react_engine.logs.options import LoadOptions
from react_engine.planners.rules import RulesPlanner
from react_engine.result import RunResult
from react_engine.rowops import is_lazy

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

pytestmark = pytest.mark.dask
SUITE = load_suite(Path(__file__).resolve().parents[1] / "evals" / "sample_suite.yaml")


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    """Two worker processes on loopback, shared by every case."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  host="127.0.0.1") as cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def frames(client: distributed.Client) -> dict[str, FrameCache]:
    options = LoadOptions(year=SUITE.year, use_cache=False)
    return {"local": FrameCache(options), "dask": FrameCache(options, dask=client)}


def _ask(case: Case, frames: FrameCache, dask: distributed.Client | None) -> RunResult:
    engine = Engine(RulesPlanner(), dask=dask)
    return engine.ask(case.question, case.logs, frame=frames.get(case.logs), now=case.now,
                      load_options=LoadOptions(year=SUITE.year, use_cache=False))


@pytest.mark.parametrize("case", SUITE.cases, ids=[c.id for c in SUITE.cases])
def test_same_answer_on_the_cluster(case: Case, client: distributed.Client, frames: dict[str, FrameCache]) -> None:
    local = _ask(case, frames["local"], None)
    remote = _ask(case, frames["dask"], client)
    frame = frames["dask"].get(case.logs)
    assert frame is None or is_lazy(frame)  # the cluster run really ran on a Dask frame
    assert remote.value == local.value
    assert remote.stop_reason == local.stop_reason
    assert [(e.source, e.line) for e in remote.evidence] == [(e.source, e.line) for e in local.evidence]
    assert [s.action for s in remote.steps] == [s.action for s in local.steps]
