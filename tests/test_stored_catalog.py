"""The field catalogue of a cached file, stored beside its entry: a later load reads it back without finding the
fields again, and a damaged store or a frame that is not one cached file's rows finds them from the messages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
from real_logs import real_log

from react_engine.logs import cache_dir, load
from react_engine.logs.field_catalog import FieldCatalog
from react_engine.logs.frame_cache import VALUES_SUFFIX
from react_engine.logs.stored_catalog import CATALOG_NAME
from react_engine.question.vocabulary import Vocabulary


def _stored(frame: pd.DataFrame) -> list[Path]:
    """The catalogues stored beside the entry of the file `frame` loaded."""
    entry = frame.attrs["files"][0]["entry"]
    return sorted(cache_dir().glob(f"{entry}.{CATALOG_NAME}{VALUES_SUFFIX}"))


def _no_build(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(cls: type[FieldCatalog], messages: list[str]) -> FieldCatalog:
        raise AssertionError("the catalogue was found again")

    monkeypatch.setattr(FieldCatalog, "build", classmethod(refuse))


def test_a_cached_file_reads_its_catalogue_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "OpenSSH.log"
    shutil.copy(real_log("OpenSSH"), path)
    frame = load([str(path)])
    found = Vocabulary.build(frame).catalog
    assert "port" in found.names() and len(_stored(frame)) == 1
    _no_build(monkeypatch)
    again = load([str(path)])
    assert Vocabulary.build(again).catalog == found


def test_a_damaged_catalogue_is_found_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "OpenSSH.log"
    shutil.copy(real_log("OpenSSH"), path)
    frame = load([str(path)])
    found = Vocabulary.build(frame).catalog
    stored = _stored(frame)[0]
    stored.write_bytes(stored.read_bytes()[:-3] + b"xyz")
    builds: list[int] = []
    build = FieldCatalog.build.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(FieldCatalog, "build", classmethod(lambda cls, m: builds.append(1) or build(cls, m)))
    again = load([str(path)])
    assert Vocabulary.build(again).catalog == found and builds == [1]
    assert stored.exists()  # stored again


def test_rows_that_are_not_one_cached_file_find_their_catalogue(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "OpenSSH.log"
    shutil.copy(real_log("OpenSSH"), path)
    frame = load([str(path)])
    Vocabulary.build(frame).catalog  # noqa: B018  (stored)
    _no_build(monkeypatch)
    with pytest.raises(AssertionError, match="found again"):
        Vocabulary.build(frame.iloc[:1000]).catalog  # noqa: B018
