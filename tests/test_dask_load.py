"""Loading on Dask workers gives the in-process loader's frame: rows, columns, labels, line numbers, sources."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from react_engine.errors import InputError
from react_engine.logs import load
from react_engine.logs.options import LoadOptions

distributed = pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")
from react_engine.dask.cluster import connect  # noqa: E402
from react_engine.dask.load import load as load_on_cluster  # noqa: E402

pytestmark = pytest.mark.dask
ROOT = Path(__file__).resolve().parents[1]

JAVA = (
    "2026-11-20 10:00:00,{ms:03d} [main] ERROR com.example.Service - failed to start {i}\n"
    "java.lang.IllegalStateException: nope {i}\n"
    "\tat com.example.Service.start(Service.java:10)\n"
    "\tat com.example.Main.main(Main.java:3)\n"
    "2026-11-20 10:00:01,{ms:03d} [main] WARN  com.example.Other - retrying {i}\n"
)


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    """An in-process cluster (threads): the loader's logic is the same, and `memory://` files are visible."""
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0") as c:
        yield c


def _same(paths: list[str], client: distributed.Client, blocksize: int, year: int | None = None) -> pd.DataFrame:
    options = LoadOptions(use_cache=False, year=year)
    expected = load(paths, options)
    frame = load_on_cluster(client, paths, options, blocksize=blocksize)
    got = frame.compute()
    pd.testing.assert_frame_equal(got, expected)
    assert list(frame.divisions) == [*frame.divisions[:-1], len(expected) - 1]
    return got


def test_sample_logs_cut_in_small_blocks_load_identically(client: distributed.Client) -> None:
    got = _same([str(ROOT / "sample_logs")], client, blocksize=60_000)  # every file over 60 KB in 2 to 14 blocks
    assert got["source"].nunique() == len(list((ROOT / "sample_logs").rglob("*.log"))) + 4  # every file is there
    small = ROOT / "sample_logs/syslog/rfc5424.log"
    assert small.stat().st_size < 60_000
    _same([str(small)], client, blocksize=6_000)  # and the one smaller log, in 5 blocks


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(blocksize=st.integers(60, 900), entries=st.integers(1, 8))
def test_stack_traces_split_across_blocks_join_their_entry(client: distributed.Client, tmp_path_factory,
                                                           blocksize: int, entries: int) -> None:
    path = tmp_path_factory.mktemp("java") / "app.log"
    path.write_text("".join(JAVA.format(ms=i % 1000, i=i) for i in range(entries)))
    got = _same([str(path)], client, blocksize=blocksize)
    assert got["line"].tolist()[:2] == [1, 5]
    assert got["raw"].str.count("\n").tolist()[::2] == [3] * entries  # each error keeps its three extra lines


def test_gzip_file_is_one_partition(client: distributed.Client, tmp_path: Path) -> None:
    text = "".join(JAVA.format(ms=i, i=i) for i in range(200))
    (tmp_path / "app.log.1").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "app.log").write_text(text)
    frame = load_on_cluster(client, [str(tmp_path)], blocksize=1000)
    assert frame.npartitions > 2  # the plain file is cut in blocks, the compressed one is not
    pd.testing.assert_frame_equal(frame.compute(), load([tmp_path], LoadOptions(use_cache=False)))
    assert frame.partitions[frame.npartitions - 1].compute()["source"].unique().tolist() == [str(tmp_path / "app.log.1")]


def test_year_comes_from_each_files_mtime(client: distributed.Client, tmp_path: Path) -> None:
    for name, year in (("old", 2019), ("new", 2027)):
        path = tmp_path / name
        path.write_text("".join(f"Dec 31 23:{m:02d}:00 h sshd[1]: line {m}\n" for m in range(40)))
        stamp = datetime(year, 1, 1, 0, 5, tzinfo=UTC).timestamp()
        os.utime(path, (stamp, stamp))
    got = _same([str(tmp_path)], client, blocksize=300)
    assert sorted(got["timestamp"].dt.year.unique().tolist()) == [2018, 2026]


def test_file_and_memory_urls(client: distributed.Client, tmp_path: Path) -> None:
    import fsspec

    text = (ROOT / "sample_logs/syslog/messages").read_bytes()
    (tmp_path / "messages").write_bytes(text)
    local = load([tmp_path / "messages"], LoadOptions(use_cache=False))
    from_file = load_on_cluster(client, [f"file://{tmp_path}/messages"], blocksize=50_000).compute()
    assert from_file["source"].iloc[0] == f"file://{tmp_path}/messages"
    pd.testing.assert_frame_equal(from_file.drop(columns="source"), local.drop(columns="source"))
    with fsspec.open("memory://logs/messages", "wb") as out:
        out.write(text)
    from_memory = load_on_cluster(client, ["memory://logs/"], LoadOptions(year=2026), blocksize=50_000).compute()
    assert from_memory["source"].unique().tolist() == ["memory:///logs/messages"]
    pd.testing.assert_frame_equal(from_memory.drop(columns="source"),
                                  load([tmp_path / "messages"], LoadOptions(year=2026, use_cache=False)).drop(columns="source"))


def test_binary_only_and_missing_inputs_are_one_line_errors(client: distributed.Client) -> None:
    with pytest.raises(InputError, match="only binary content"):
        load_on_cluster(client, [str(ROOT / "evals/fixtures/binary.log")])
    with pytest.raises(InputError, match="no such file"):
        load_on_cluster(client, ["memory://nowhere/at-all.log"])
    with pytest.raises(InputError, match="standard input"):
        load_on_cluster(client, ["-"])


def test_unreachable_scheduler_and_bad_address_say_what_to_do() -> None:
    with pytest.raises(InputError, match="cannot reach the Dask scheduler.*dask scheduler"):
        connect("tcp://127.0.0.1:9")
    with pytest.raises(InputError, match="local:N"):
        connect("nonsense")


def test_without_the_extra_the_error_says_how_to_install_it() -> None:
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from react_engine.dask.cluster import connect\n"
            "try:\n    connect('local')\nexcept Exception as exc:\n    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == '--dask needs the dask extra: pip install -e ".[dask]"'


@pytest.fixture
def spilling(monkeypatch: pytest.MonkeyPatch) -> None:
    """No log set fits the workers' memory now: every load is spilled to Parquet files."""
    import react_engine.dask.load as dask_load

    monkeypatch.setattr(dask_load, "BYTES_PER_INPUT_BYTE", 1e9)


def test_logs_bigger_than_the_workers_memory_are_spilled_and_load_the_same(
        client: distributed.Client, spilling: None, tmp_path: Path) -> None:
    from react_engine.dask import spill
    from react_engine.rows.rowops import count

    frame = _same([str(ROOT / "sample_logs/cmts")], client, blocksize=100_000)
    options = LoadOptions(use_cache=False, dask_spill=str(tmp_path))
    lazy = load_on_cluster(client, [str(ROOT / "sample_logs/cmts")], options, blocksize=100_000)
    assert not distributed.futures_of(lazy)  # nothing held in memory: each pass reads the spilled files
    [folder] = list(tmp_path.iterdir())
    files = sorted(folder.glob("*.parquet"))
    assert len(files) == lazy.npartitions
    files[0].unlink()  # a lost file is parsed from the logs again
    pd.testing.assert_frame_equal(lazy.compute(), frame)
    assert count(lazy) == len(frame)
    assert lazy[["line"]].compute()["line"].tolist() == frame["line"].tolist()  # one column read back alone
    spill.remove_all()
    assert not folder.exists()


def test_a_spill_folder_that_cannot_be_written_is_a_one_line_error(client: distributed.Client, spilling: None,
                                                                   tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    with pytest.raises(InputError, match=r"cannot keep parsed rows there.*--dask-spill DIR"):
        load_on_cluster(client, [str(ROOT / "sample_logs/cmts")], LoadOptions(use_cache=False, dask_spill=str(blocked)))
