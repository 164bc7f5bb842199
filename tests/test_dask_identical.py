"""Every case of the sample suite gives the same value, stop reason and evidence on a Dask cluster as in-process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from react_engine.app.evaluation.suite import Case, load_suite
from react_engine.contract.record import RunResult
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.loop.frames import FrameCache
from react_engine.planners.rules import RulesPlanner
from react_engine.rows.rowops import is_lazy
from react_engine.settings import Settings

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

pytestmark = pytest.mark.dask
SUITE = load_suite(Path(__file__).resolve().parents[1] / "evals" / "sample_suite.yaml")
OPTIONS = LoadOptions(year=SUITE.year)


@pytest.fixture(scope="module")
def client(dask_scheduler: str) -> Iterator[distributed.Client]:
    """A client of the session's two worker processes on loopback, shared by every case."""
    with distributed.Client(dask_scheduler, timeout="60s") as c:
        yield c


@pytest.fixture(scope="module")
def frames(client: distributed.Client, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, FrameCache]]:
    """In-process frames through the parse cache (filled once, then read back), and frames loaded on the cluster."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        for case in SUITE.cases:
            FrameCache(OPTIONS).get(case.logs)  # fills the cache
        yield {"local": FrameCache(OPTIONS), "dask": FrameCache(OPTIONS, dask=client)}


def _ask(case: Case, frames: FrameCache, dask: distributed.Client | None) -> RunResult:
    engine = Engine(RulesPlanner(), dask=dask)
    return engine.ask(case.question, case.logs, frame=frames.get(case.logs), now=case.now, load_options=OPTIONS)


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


def test_on_the_cluster_only_the_run_limit_bounds_a_tool(client: distributed.Client,
                                                         frames: dict[str, FrameCache]) -> None:
    case, local = next((c, r) for c in SUITE.cases if c.expect.value is not None
                       for r in [_ask(c, frames["local"], None)] if "search_logs" in [s.action for s in r.steps])
    hurried = Engine(RulesPlanner(), Settings(tool_timeout_seconds=0.001), dask=client)
    remote = hurried.ask(case.question, case.logs, frame=frames["dask"].get(case.logs), now=case.now,
                         load_options=OPTIONS)
    assert remote.stop_reason == local.stop_reason == "stop"  # a search on the cluster takes more than 10 ms
    assert remote.value == local.value


NEGATED = [("app", "How many lines are there other than INFO?"),
           ("syslog", "How many sshd lines are there other than failed passwords?"),
           ("cmts", "How many lines came from hosts other than MAWED07T01?")]


@pytest.mark.parametrize(("set_name", "question"), NEGATED)
def test_exclusions_keep_the_same_rows_on_the_cluster(set_name: str, question: str, client: distributed.Client,
                                                      frames: dict[str, FrameCache]) -> None:
    case = next(c for c in SUITE.cases if c.id.startswith(set_name)).model_copy(update={"question": question})
    local, remote = _ask(case, frames["local"], None), _ask(case, frames["dask"], client)
    assert any(s.params.get("exclude") for s in local.steps)
    assert local.value is not None and remote.value == local.value
    assert [(e.source, e.line) for e in remote.evidence] == [(e.source, e.line) for e in local.evidence]
