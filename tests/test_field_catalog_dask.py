"""Pattern fields on a Dask cluster: the same catalogue (as a load's vocabulary finds it), and the same answers of
every tool that takes a field, as in-process."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from real_logs import real_log

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

from dask_cluster import dask_cluster  # noqa: E402

from react_engine.logs.options import LoadOptions  # noqa: E402
from react_engine.loop.frames import load_logs  # noqa: E402
from react_engine.question.vocabulary import Vocabulary  # noqa: E402
from react_engine.rows.rowops import is_lazy  # noqa: E402
from react_engine.tools import REGISTRY, ToolContext  # noqa: E402
from react_engine.tools.catalogued import catalog  # noqa: E402

pytestmark = pytest.mark.dask

CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("top_values", {"field": "from", "n": 5}),
    ("count_entities", {"type": "rhost"}),
    ("ordered_values", {"field": "port", "n": 3, "order": "newest"}),
    ("field_stats", {"field": "port", "func": "max"}),
    ("field_stats", {"field": "port", "func": "mean", "by": ["host"]}),
    ("filter_by_field", {"field": "port", "op": "gt", "value": 60000}),
    ("filter_by_field", {"field": "from", "op": "eq", "value": "183.62.140.253"}),
    ("top_values", {"field": "user", "n": 3, "distinct": "from"}),
)


def _answers(frame: pd.DataFrame) -> tuple[list[str], list[Any]]:
    ctx = ToolContext(frame=frame, rows=frame, now=pd.Timestamp.now(tz="UTC"),
                      catalog=lambda: Vocabulary.build(frame).catalog)
    found = []
    for name, params in CALLS:
        tool = REGISTRY[name]
        found.append(tool.run(tool.params(**params), ctx).value.recorded())
    return catalog(ctx).names(), found


def test_pattern_fields_on_the_cluster_match_in_process() -> None:
    path = str(real_log("OpenSSH"))
    names, local = _answers(load_logs([path], LoadOptions(use_cache=False)))
    assert {"from", "port", "rhost"} <= set(names)
    assert local[3]["max"] > 60000 and local[5] > 0  # the tools read the fields (a maximum port, rows above 60000)
    with dask_cluster(1) as cluster, distributed.Client(cluster.address) as client:
        frame = load_logs([path], LoadOptions(use_cache=False), client)
        assert is_lazy(frame)
        remote_names, remote = _answers(frame)
    assert remote_names == names
    assert remote == local
