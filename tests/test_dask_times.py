"""The time tools and `never_seen` give the same values and evidence on a Dask cluster as in-process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from tool_frames import run

from react_engine.logs.options import LoadOptions
from react_engine.loop.frames import FrameCache
from react_engine.rows.rowops import is_lazy
from react_engine.tools import ToolContext

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

pytestmark = pytest.mark.dask
CMTS = [str(Path(__file__).resolve().parents[1] / "sample_logs" / "cmts")]
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("time_span", {}), ("gaps", {"n": 3}), ("gaps", {"n": 2, "key": "host"}),
    ("durations", {"start": "T3 time-out", "end": "T4 time out", "key": "cm_mac"}),
    ("show_logs", {"n": 4, "order": "newest"}), ("show_logs", {"n": 3, "order": "2026-11-20T06:00:00Z"}),
    ("ordered_values", {"field": "host", "n": 2}), ("ordered_values", {"field": "host", "n": 3, "order": "newest"})]
NEVER: list[dict[str, Any]] = [{"field": "cm_mac", "never": "T4 time out"},
                               {"field": "host", "never": "T4 time out", "n": 2},
                               {"field": "modem", "never": "", "never_level": "error"},
                               {"field": "mac", "never": "online", "pattern": r"(?i)cm-mac=(\S+)"}]


@pytest.fixture(scope="module")
def frames(dask_scheduler: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[pd.DataFrame, Any]]:
    """The sample CMTS logs in-process and on the session's scheduler (two worker processes on loopback)."""
    with distributed.Client(dask_scheduler, timeout="60s") as client, pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        local = FrameCache(LoadOptions()).get(CMTS)
        remote = FrameCache(LoadOptions(), dask=client).get(CMTS)
        assert local is not None and is_lazy(remote)
        yield local, remote


@pytest.mark.parametrize(("name", "params"), CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CALLS)])
@pytest.mark.parametrize("narrowed", [False, True])
def test_same_values_on_the_cluster(frames: tuple[pd.DataFrame, Any], name: str, params: dict[str, Any],
                                    narrowed: bool) -> None:
    results = []
    for frame in frames:
        now = pd.Timestamp("2026-11-20T16:00:00Z")
        ctx = ToolContext(frame=frame, rows=frame, now=now)
        if narrowed:
            ctx.rows = run("search_logs", ctx, value="MAWED07T0").rows
        results.append(run(name, ctx, **params))
    local, remote = results
    assert remote.value.recorded() == local.value.recorded() and remote.summary == local.summary
    assert list(remote.evidence) == list(local.evidence)


@pytest.mark.parametrize("params", NEVER, ids=[str(i) for i in range(len(NEVER))])
def test_never_seen_gives_the_same_values_on_the_cluster(frames: tuple[pd.DataFrame, Any], params: dict[str, Any]
                                                         ) -> None:
    results = []
    for frame in frames:
        ctx = ToolContext(frame=frame, rows=frame, now=pd.Timestamp("2026-11-20T16:00:00Z"))
        ctx.rows = run("search_logs", ctx, value="T3 time-out").rows
        results.append(run("never_seen", ctx, **params))
    local, remote = results
    assert remote.value.recorded() == local.value.recorded() and remote.summary == local.summary
    assert list(remote.evidence) == list(local.evidence)
    assert local.value.recorded()["seen"] > 0
