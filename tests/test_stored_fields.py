"""A numeric field's values stored beside a cached file's entry: read back, they are the values read from the
messages, over any rows of one file or several; a changed file, damaged values or a frame not as loaded never
use them."""

from __future__ import annotations

import os
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine import Engine
from react_engine.app.housekeeping import cache_usage, clear_cache
from react_engine.logs import cache_dir, frame_cache, load, stored
from react_engine.logs.fields import NumericField, discover, read
from react_engine.logs.frame_cache import VALUES_SUFFIX
from react_engine.planners.rules import RulesPlanner
from react_engine.rows import row_patterns
from react_engine.rows.row_patterns import catalog

TEMPLATES = ("GET /a done code={n} in {s}ms", "job took {s} s, size {n}", "CODE: {n}; latency: {s} ms",
             "no numbers here", "code=x{n} not a number", "retry, lifetime 00:{s:02d}")
LINES = st.lists(st.tuples(st.sampled_from(TEMPLATES), st.integers(0, 999), st.integers(0, 59)), min_size=1,
                 max_size=40)


@pytest.fixture(autouse=True)
def every_file_stores(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file is large enough to store values."""
    monkeypatch.setattr(stored, "STORE_ROWS", 1)


@contextmanager
def _cache_home() -> Iterator[Path]:
    """A fresh cache folder and a folder for logs (per Hypothesis example, where a fixture would be shared)."""
    before = os.environ.get("XDG_CACHE_HOME")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "xdg")
        try:
            yield Path(tmp)
        finally:
            os.environ.pop("XDG_CACHE_HOME") if before is None else os.environ.update(XDG_CACHE_HOME=before)


def _write(path: Path, lines: list[tuple[str, int, int]]) -> str:
    path.write_text("".join(f"Nov 20 10:{i // 60 % 60:02d}:{i % 60:02d} h{i % 3} app[1]: {t.format(n=n, s=s)}\n"
                            for i, (t, n, s) in enumerate(lines)))
    return str(path)


def _fields(frame: pd.DataFrame) -> tuple[NumericField, ...]:
    return discover(frame["message"].dropna().astype(str))


def _values() -> list[Path]:
    return sorted(cache_dir().glob(f"*{VALUES_SUFFIX}"))


def _code_stored(path: Path, numbers: range) -> tuple[pd.DataFrame, NumericField]:
    """`path` written with a `code=` line per number, loaded, and its field's values stored."""
    frame = load(_write(path, [(TEMPLATES[0], n, 1) for n in numbers]), raw=False)
    (field,) = [f for f in _fields(frame) if f.name == "code"]
    stored.field_values(frame, frame, field)
    return frame, field


@settings(max_examples=40)
@given(st.lists(LINES, min_size=1, max_size=2), st.data())
def test_stored_values_are_the_values_read_from_the_messages(files: list[list[tuple[str, int, int]]],
                                                             data: st.DataObject) -> None:
    with _cache_home() as tmp:
        paths = [_write(tmp / f"{i}.log", lines) for i, lines in enumerate(files)]
        parsed = load(paths, raw=False)  # parsed, and cached
        keep = np.array(data.draw(st.lists(st.booleans(), min_size=len(parsed), max_size=len(parsed))), dtype=bool)
        for field in _fields(parsed):
            for frame in (parsed, load(paths, raw=False)):  # as parsed, then from the cache
                for rows in (frame[keep], frame, frame[keep]):  # a subset before and after the values are stored
                    pd.testing.assert_series_equal(stored.field_values(frame, rows, field),
                                                   read(rows["message"], field))
        assert len(_values()) == len(paths) * len(_fields(parsed))


def test_a_second_ask_reads_the_stored_values_and_answers_the_same(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [(TEMPLATES[i % 3], i * 7 % 1000, i % 60) for i in range(300)]
    with _cache_home():
        path = _write(tmp_path / "a.log", lines)
        first = Engine(RulesPlanner()).ask("what is the p95 of code?", [path])
        assert len(_values()) == 1
        reads: list[int] = []
        monkeypatch.setattr(stored, "read", lambda messages, field: reads.append(len(messages)) or read(messages, field))
        second = Engine(RulesPlanner()).ask("what is the p95 of code?", [path])
        assert reads == []  # the messages were not searched again
        codes = pd.Series([float(n) for i, (_, n, _) in enumerate(lines) if i % 3 != 1])  # "code=" and "CODE:"
        assert second.answer == first.answer and first.answered
        assert f"code is {codes.quantile(0.95):,}" in first.answer


@settings(max_examples=20)
@given(LINES)
def test_a_parse_stores_no_field_so_it_reads_no_message(lines: list[tuple[str, int, int]]) -> None:
    with _cache_home() as tmp, pytest.MonkeyPatch.context() as patch:
        patch.setattr(stored, "read", lambda *_: pytest.fail("the messages were searched"))
        frame = load(_write(tmp / "a.log", lines), raw=False)
        assert frame.attrs["files"][0]["entry"] and _values() == []


def test_values_of_a_changed_file_are_neither_read_nor_kept(tmp_path: Path) -> None:
    with _cache_home():
        _, field = _code_stored(tmp_path / "a.log", range(50))
        (old,) = _values()
        changed, _ = _code_stored(tmp_path / "a.log", range(500, 560))
        assert stored.field_values(changed, changed, field).tolist() == [float(n) for n in range(500, 560)]
        assert not old.exists() and len(_values()) == 1


def test_damaged_values_are_read_again_from_the_messages(tmp_path: Path) -> None:
    with _cache_home():
        frame, field = _code_stored(tmp_path / "a.log", range(50))
        (values,) = _values()
        data = bytearray(values.read_bytes())
        data[3] ^= 0x40
        values.write_bytes(bytes(data))
        assert stored.field_values(frame, frame, field).tolist() == [float(n) for n in range(50)]
        assert values.read_bytes() != bytes(data)  # stored again, whole


def test_a_frame_not_as_loaded_reads_the_messages(tmp_path: Path) -> None:
    with _cache_home():
        frame, field = _code_stored(tmp_path / "a.log", range(50))
        reordered = frame.iloc[::-1].reset_index(drop=True)
        assert stored.field_values(reordered, reordered, field).tolist() == [float(n) for n in range(49, -1, -1)]


def test_a_small_file_or_a_few_of_its_rows_store_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with _cache_home():
        monkeypatch.setattr(stored, "STORE_ROWS", 51)
        frame, field = _code_stored(tmp_path / "a.log", range(50))
        assert not _values()
        monkeypatch.setattr(stored, "STORE_ROWS", 1)
        assert stored.field_values(frame, frame.iloc[:24], field).tolist() == [float(n) for n in range(24)]
        assert not _values()


def test_eviction_deletes_values_whose_entry_is_gone(tmp_path: Path) -> None:
    with _cache_home():
        _code_stored(tmp_path / "a.log", range(50))
        (entry,) = cache_dir().glob("*.arrow")
        entry.unlink()
        frame_cache.evict()
        assert not _values()


def test_cache_info_counts_the_values_and_clear_deletes_them(tmp_path: Path) -> None:
    with _cache_home():
        _code_stored(tmp_path / "a.log", range(50))
        (entry,), (values,) = cache_dir().glob("*.arrow"), _values()
        assert cache_usage().bytes == entry.stat().st_size + values.stat().st_size
        clear_cache()
        assert not any(cache_dir().iterdir())


def _forged(values: Path, body: bytes) -> None:
    """`values` overwritten by someone who can write the cache folder: `body` and its CRC-32, as entries end."""
    values.write_bytes(body + f"{zlib.crc32(body):08x}".encode())


def test_values_written_without_the_cache_key_are_never_read(tmp_path: Path) -> None:
    lines = [(TEMPLATES[1], i, i % 60) for i in range(100)]  # "job took {s} s"
    with _cache_home():
        path = _write(tmp_path / "a.log", lines)
        first = Engine(RulesPlanner()).ask("what is the average took?", [path])
        (values,) = _values()
        true_mean = sum(i % 60 for i in range(100)) / 100
        assert first.value == pytest.approx(true_mean)
        forty_two = np.full(100, 42.0, dtype="<f8").tobytes()
        _forged(values, forty_two)  # a CRC made it a verified average of 42 s
        second = Engine(RulesPlanner()).ask("what is the average took?", [path])
        assert second.value == pytest.approx(true_mean) and second.verified
        tag = frame_cache.keyed_tag(b"\0" * frame_cache.KEY_BYTES, values.name, forty_two)  # another key's digest
        values.write_bytes(forty_two + tag)
        assert Engine(RulesPlanner()).ask("what is the average took?", [path]).value == pytest.approx(true_mean)


def test_values_stored_for_another_entry_are_not_read_as_these(tmp_path: Path) -> None:
    with _cache_home():
        _code_stored(tmp_path / "a.log", range(50))
        (theirs,) = _values()
        frame, field = _code_stored(tmp_path / "b.log", range(100, 150))
        (ours,) = [v for v in _values() if v != theirs]
        ours.write_bytes(theirs.read_bytes())  # a valid digest, but of a.log's values under a.log's name
        assert stored.field_values(frame, frame, field).tolist() == [float(n) for n in range(100, 150)]


def test_a_cache_key_others_may_read_or_that_is_a_link_is_not_trusted(tmp_path: Path) -> None:
    with _cache_home():
        frame_cache._keys.clear()
        frame, field = _code_stored(tmp_path / "a.log", range(50))
        key = frame_cache.key_path()
        assert len(_values()) == 1 and key.stat().st_mode & 0o777 == 0o600
        key.chmod(0o644)
        frame_cache._keys.clear()
        assert frame_cache.cache_key() is None
        assert stored.field_values(frame, frame, field).tolist() == [float(n) for n in range(50)]
        key.unlink()
        key.symlink_to(tmp_path / "elsewhere.key")
        (tmp_path / "elsewhere.key").write_bytes(b"k" * frame_cache.KEY_BYTES)
        (tmp_path / "elsewhere.key").chmod(0o600)
        assert frame_cache.cache_key() is None


@settings(max_examples=15)
@given(LINES)
def test_the_masks_of_a_whole_file_are_stored_and_read_back_as_computed(lines: list[tuple[str, int, int]]) -> None:
    with _cache_home() as tmp, pytest.MonkeyPatch.context() as patch:
        path = _write(tmp / "a.log", lines)
        fresh = load(path, raw=False)
        found = catalog(fresh)
        (stored_file,) = _values()
        assert stored_file.name.endswith(f".{stored.MASKS_NAME}{VALUES_SUFFIX}")
        patch.setattr(row_patterns, "masked", lambda *_: pytest.fail("the messages were masked"))
        cached = load(path, raw=False)
        again = catalog(cached)
        assert again.templates == found.templates and again.of_mask == found.of_mask
        assert again.rows is not None and found.rows is not None and again.rows.tolist() == found.rows.tolist()


def test_damaged_masks_are_computed_again(tmp_path: Path) -> None:
    with _cache_home():
        path = _write(tmp_path / "a.log", [(TEMPLATES[i % 3], i, i % 60) for i in range(40)])
        found = catalog(load(path, raw=False))
        (masks,) = _values()
        data = bytearray(masks.read_bytes())
        data[5] ^= 0x40
        masks.write_bytes(bytes(data))
        again = catalog(load(path, raw=False))
        assert again.templates == found.templates and again.rows is not None and found.rows is not None
        assert again.rows.tolist() == found.rows.tolist() and len(_values()) == 1
