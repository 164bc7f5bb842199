"""Message patterns on a Dask cluster: the same templates, counts and times as in-process."""

from __future__ import annotations

import pandas as pd
import pytest
from real_logs import real_log

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

from dask_cluster import dask_cluster  # noqa: E402

from react_engine.logs.options import LoadOptions  # noqa: E402
from react_engine.loop.frames import load_logs  # noqa: E402
from react_engine.rows.rowops import is_lazy  # noqa: E402
from react_engine.tools import REGISTRY, ToolContext  # noqa: E402

pytestmark = pytest.mark.dask


def _patterns(frame: pd.DataFrame) -> dict:
    tool = REGISTRY["message_patterns"]
    return tool.run(tool.params(n=50), ToolContext(frame=frame, rows=frame, now=pd.Timestamp.now(tz="UTC"))).value.recorded()


def test_patterns_on_the_cluster_match_in_process() -> None:
    path = str(real_log("HDFS"))
    local = _patterns(load_logs([path], LoadOptions(use_cache=False)))
    with dask_cluster(1) as cluster, distributed.Client(cluster.address) as client:
        frame = load_logs([path], LoadOptions(use_cache=False), client)
        assert is_lazy(frame)
        remote = _patterns(frame)
    assert remote == local
    assert sum(r[0] for r in remote["rows"]) == remote["rows_counted"] == 2000
