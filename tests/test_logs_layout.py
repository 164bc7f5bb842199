"""Parsed and cached tables hold each column in one chunk (pandas joins chunks on every row filter)."""

from __future__ import annotations

from pathlib import Path

import pytest

from react_engine.logs import matching, parse
from react_engine.logs.loader import load_tables
from react_engine.logs.options import LoadOptions


def test_columns_are_single_chunks_fresh_and_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(matching, "CHUNK_LINES", 700)  # matched in many chunks
    monkeypatch.setattr(parse, "SEGMENT_LINES", 900)  # and parsed in many segments
    path = tmp_path / "auth.log"
    path.write_text("".join(f"Dec 10 06:55:{i % 60:02d} LabSZ sshd[{i}]: Failed password for u{i}\n"
                            for i in range(3000)))
    (fresh,) = load_tables(path).tables
    (cached,) = load_tables(path).tables
    for table in (fresh, cached):
        assert table.num_rows == 3000
        assert {name: table.column(name).num_chunks for name in table.column_names} == \
            dict.fromkeys(table.column_names, 1)
    assert cached.equals(fresh)
    (plain,) = load_tables(path, LoadOptions(use_cache=False)).tables
    assert plain.column("message")[5].as_py() == "Failed password for u5"
