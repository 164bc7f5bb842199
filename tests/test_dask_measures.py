"""The measuring tools give the same values on a Dask cluster (two worker processes on loopback) as in-process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.loop.frames import FrameCache
from react_engine.planners.rules import RulesPlanner
from react_engine.rows.rowops import is_lazy

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")

pytestmark = pytest.mark.dask
ROOT = Path(__file__).resolve().parents[1]
OPTIONS = LoadOptions(year=2026)
ASKED = [("median latency_ms", "app"), ("errors today vs yesterday", "app"),
         ("how many lines by host and severity?", "cmts"), ("what is the p95 of code?", "cmts"),
         ("what percentage of lines are warnings", "cmts"), ("errors vs warnings?", "app"),
         ("T3 timeouts vs T4 timeouts", "cmts"), ("lines per level per logger", "app"),
         ("median latncy_ms", "app"), ("average bad timing offset?", "cmts"),
         ("critical lines versus 'Bad timing offset' lines", "cmts"), ("error rate by logger", "app"),
         ("percentage of errors per hour", "app"), ("which 3 hours had the most errors", "app"),
         ("average latency for alice vs bob", "app"), ("which user had the highest latency", "app"),
         ("which cmts had the most t3 timeouts per hour", "cmts"), ("how many distinct severities per host", "cmts"),
         ("which logger has the most distinct users", "app"), ("which host has the most distinct ports?", "syslog"),
         ("how many distinct ports per hour", "syslog"), ("which user ran sudo the most?", "syslog")]


@pytest.fixture(scope="module")
def client(dask_scheduler: str) -> Iterator[distributed.Client]:
    with distributed.Client(dask_scheduler, timeout="60s") as c:
        yield c


@pytest.mark.parametrize(("question", "logs"), ASKED, ids=[q for q, _ in ASKED])
def test_same_measure_on_the_cluster(question: str, logs: str, client: distributed.Client) -> None:
    paths = [str(ROOT / "sample_logs" / logs)]
    local = Engine(RulesPlanner()).ask(question, paths, load_options=OPTIONS)
    frame = FrameCache(OPTIONS, dask=client).get(paths)
    assert frame is not None and is_lazy(frame)
    remote = Engine(RulesPlanner(), dask=client).ask(question, paths, frame=frame, load_options=OPTIONS)
    assert local.verified and remote.value == local.value and remote.answer == local.answer
    assert [s.value for s in remote.steps] == [s.value for s in local.steps]


def test_numbers_too_large_to_read_are_counted_on_the_cluster(tmp_path: Path, client: distributed.Client) -> None:
    log = tmp_path / "huge.log"
    huge = "1" + "0" * 400
    log.write_text("".join(f"2026-11-20T10:00:{i:02d} host{i % 2} app: INFO stored size={huge if i % 5 == 0 else i} TB\n"
                           for i in range(40)))
    paths = [str(log)]
    local = Engine(RulesPlanner()).ask("average size", paths, load_options=OPTIONS)
    frame = FrameCache(OPTIONS, dask=client).get(paths)
    remote = Engine(RulesPlanner(), dask=client).ask("average size", paths, frame=frame, load_options=OPTIONS)
    assert "8 size values were too large to read, left out" in local.answer
    assert remote.answer == local.answer and remote.value == local.value


@pytest.mark.parametrize("units", [("MB", "MB"), ("MB", "GB")], ids=["one unit", "two units"])
def test_a_size_is_stated_in_the_same_unit_on_the_cluster(tmp_path: Path, units: tuple[str, str],
                                                          client: distributed.Client) -> None:
    paths = []  # a file (a partition) per unit: each writes one, and their union decides
    for at, unit in enumerate(units):
        log = tmp_path / f"mem{at}.log"
        log.write_text("".join(f"2026-11-20T1{at}:00:{i:02d} host{i % 2} app: INFO pool free: {i + 1}.00 {unit}\n"
                               for i in range(20)))
        paths.append(str(log))
    for question in ("sum of free", "max free by host"):
        local = Engine(RulesPlanner()).ask(question, paths, load_options=OPTIONS)
        frame = FrameCache(OPTIONS, dask=client).get(paths)
        assert frame is not None and is_lazy(frame) and frame.npartitions == 2
        remote = Engine(RulesPlanner(), dask=client).ask(question, paths, frame=frame, load_options=OPTIONS)
        assert local.verified and remote.answer == local.answer and remote.value == local.value
        assert (" MB" in local.answer) == (units[0] == units[1]) and ("bytes (" in local.answer) != (
            units[0] == units[1]), local.answer
