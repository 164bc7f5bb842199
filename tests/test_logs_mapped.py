"""Cached text read a chunk at a time: the same rows pandas gives, and the cache entry's pages out of the RSS."""

from __future__ import annotations

import mmap
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from react_engine.logs import LoadOptions, cache_dir, load, mapped
from react_engine.rows import rowops
from react_engine.tools.regex import text_matches

LINUX = pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="reads /proc/self/smaps (Linux)")
WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30)


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def _resident_kib(inside: Callable[[str], bool]) -> int:
    """Resident KiB of this process's mappings whose path `inside` accepts."""
    total, counted = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if re.match(r"[0-9a-f]+-[0-9a-f]+ ", line):
            counted = len(fields) >= 6 and inside(" ".join(fields[5:]))
        elif counted and fields[0] == "Rss:":
            total += int(fields[1])
    return total


def _entry_kib() -> int:
    folder = str(cache_dir().resolve())
    return _resident_kib(lambda path: path.startswith(folder))


def _cached(path: Path, rows: int) -> pd.DataFrame:
    """A lean frame of `rows` syslog lines, read back from its cache entry (so its text is mapped)."""
    path.write_text("".join(f"Dec 10 06:55:{i % 60:02d} LabSZ sshd[{i}]: Failed password for user{i} from "
                            f"10.0.{i % 256}.{i % 7} port {i}\n" for i in range(rows)))
    load(path, raw=False)
    return load(path, raw=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.none(), WORDS), min_size=1, max_size=40), st.data(), st.integers(1, 9))
def test_rows_taken_a_chunk_at_a_time_equal_pandas_take(monkeypatch: pytest.MonkeyPatch, texts: list[str | None],
                                                        data: st.DataObject, chunk: int) -> None:
    monkeypatch.setattr(mapped, "CHUNK_ROWS", chunk)
    frame = pd.DataFrame({"line": np.arange(len(texts)), "message": pd.array(texts, dtype="str"),
                          "host": pd.Categorical([f"h{i % 3}" for i in range(len(texts))]),
                          "raw_head": pd.array([t and t[:3] for t in texts], dtype="str")},
                         index=pd.RangeIndex(len(texts)) * 2 + 5)
    frame.attrs["warnings"] = ["kept"]
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=len(texts), max_size=len(texts))))
    taken = rowops.select(frame, keep)
    pd.testing.assert_frame_equal(taken, frame[keep])
    assert taken.attrs == frame.attrs
    step = data.draw(st.integers(1, 5))
    pd.testing.assert_series_equal(rowops.every(frame["message"], step), frame["message"].iloc[::step])


@LINUX
def test_dropped_pages_leave_the_rss_and_read_back_the_same(tmp_path: Path, cache_home: Path) -> None:
    frame = _cached(tmp_path / "auth.log", 40_000)
    expected = [f"Failed password for user{i} from 10.0.{i % 256}.{i % 7} port {i}" for i in range(40_000)]
    assert frame["message"].tolist() == expected  # every page of the message text read
    assert _entry_kib() > 1024
    mapped.drop_pages()
    assert _entry_kib() == 0
    assert frame["message"].tolist() == expected  # read again from the OS page cache


@LINUX
def test_a_search_and_a_subset_hold_one_chunk_of_the_entry(tmp_path: Path, cache_home: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    frame = _cached(tmp_path / "auth.log", 200_000)
    assert frame["message"].str.len().sum() and frame["raw_head"].str.len().sum()
    whole = _entry_kib()
    monkeypatch.setattr(mapped, "CHUNK_ROWS", 10_000)
    held: list[int] = []
    drop = mapped.drop_pages

    def measured(*text: pa.Array) -> None:
        held.append(_entry_kib())
        drop(*text)

    monkeypatch.setattr(mapped, "drop_pages", measured)
    mapped.drop_pages()
    hits = text_matches(frame, r"user\d*7 ")
    kept = rowops.select(frame, hits)
    assert len(held) >= 1 + 3 * 20  # the search's chunks, then each text column's
    assert kept["message"].tolist() == [m for m in frame["message"] if re.search(r"user\d*7 ", m)]
    assert whole > 1024 and max(held[1:]) * 2 < whole  # a chunk at a time, never the whole entry
    mapped.settle()  # as after each engine step
    assert _entry_kib() == 0


@LINUX
def test_only_the_entries_mappings_are_dropped(tmp_path: Path, cache_home: Path) -> None:
    frame = _cached(tmp_path / "auth.log", 2_000)
    scratch = tmp_path / "scratch.bin"
    scratch.write_bytes(bytes(mmap.PAGESIZE * 4))
    with scratch.open("r+b") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY) as private:
        private[:5] = b"hello"  # a private copy: dropping its pages would lose the write
        anonymous = np.full(1 << 20, 7, np.uint8)
        assert frame["message"].str.len().sum() and _entry_kib() > 0
        mapped.drop_pages()
        assert _entry_kib() == 0
        assert private[:5] == b"hello"
        assert int(anonymous.sum()) == 7 << 20


def test_a_folder_of_cached_files_is_searched_and_subset_the_same(tmp_path: Path, cache_home: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for index in range(40):
        (folder / f"host-{index:02d}.log").write_text("".join(
            f"Dec 10 06:55:{i:02d} h{index} sshd[{i}]: {'Failed' if (i + index) % 3 else 'Accepted'} password\n"
            for i in range(30)))
    expected = load(folder, LoadOptions(use_cache=False), raw=False)
    load(folder, raw=False)
    frame = load(folder, raw=False)  # each file's text mapped from its own entry
    monkeypatch.setattr(mapped, "CHUNK_ROWS", 100)
    for rows in (frame, expected):
        hits = text_matches(rows, "failed", ignore_case=True)
        kept = rowops.select(rows, hits)
        assert len(kept) == 800 and kept["message"].str.startswith("Failed").all()
    pd.testing.assert_frame_equal(rowops.select(frame, hits), rowops.select(expected, hits))
    if Path("/proc/self/smaps").exists():
        mapped.settle()
        assert _entry_kib() == 0


def test_frames_taken_from_a_load_share_its_notes(tmp_path: Path, cache_home: Path) -> None:
    path = tmp_path / "auth.log"
    frame = _cached(path, 2_000)
    kept = rowops.select(frame, (frame["line"] % 2 == 0).to_numpy())
    assert kept.attrs["files"] is frame.attrs["files"] and kept.attrs["warnings"] is frame.attrs["warnings"]
    assert kept.attrs["files"][0]["path"] == str(path)
