"""Cache entries known whole for this boot: read without summing their CRC, summed again once anything changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from react_engine.logs import LoadOptions, cache_dir, frame_cache, load, whole

TEXT = "".join(f"Nov 20 10:00:{i % 60:02d} h1 sshd[{i}]: Failed password for u{i % 7} from 10.0.0.{i % 9}\n"
               for i in range(3000))


@pytest.fixture
def sums(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The entries whose CRC is summed from here on (the cache under `tmp_path`)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if whole.boot_id() is None:
        pytest.skip("no boot id on this system: every read sums the CRC")
    probe = tmp_path / "probe"
    probe.touch()
    try:
        os.setxattr(probe, "user.probe", b"1")
    except OSError:
        pytest.skip("no extended attributes on this file system: nothing is marked")
    calls: list[Path] = []
    original = frame_cache._file_crc

    def summing(path: Path, length: int) -> int:
        calls.append(path)
        return original(path, length)

    monkeypatch.setattr(frame_cache, "_file_crc", summing)
    return calls


def _entry(tmp_path: Path) -> tuple[Path, Path]:
    path = tmp_path / "auth.log"
    path.write_text(TEXT)
    load(path)
    (entry,) = cache_dir().glob("*.arrow")
    assert whole.known(entry)  # marked by its writer
    return path, entry


def test_an_entry_written_is_read_without_summing_and_as_parsed(tmp_path: Path, sums: list[Path]) -> None:
    path, entry = _entry(tmp_path)
    assert sums == []
    assert load(path).equals(load(path, LoadOptions(use_cache=False)))
    assert sums == [] and whole.known(entry)  # still marked after each use moved its time


def test_an_entry_of_another_boot_is_summed_then_marked(tmp_path: Path, sums: list[Path],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path, entry = _entry(tmp_path)
    monkeypatch.setattr(whole, "boot_id", lambda: b"another boot")
    assert not whole.known(entry)
    load(path)
    assert sums == [entry] and whole.known(entry)
    load(path)
    assert sums == [entry]


def test_a_write_to_a_marked_entry_voids_the_mark(tmp_path: Path, sums: list[Path]) -> None:
    path, entry = _entry(tmp_path)
    data = bytearray(entry.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 512] = bytes(b ^ 0xFF for b in data[middle : middle + 512])
    with entry.open("r+b") as handle:  # in place: the same file, its attributes kept
        handle.write(data)
    assert os.getxattr(entry, whole.ATTRIBUTE) and not whole.known(entry)
    assert load(path)["message"].tolist() == load(path, LoadOptions(use_cache=False))["message"].tolist()
    assert sums == [entry]  # summed, found damaged, and parsed again


def test_a_mark_of_another_size_or_time_is_not_known(tmp_path: Path, sums: list[Path]) -> None:
    _, entry = _entry(tmp_path)
    status = entry.stat()
    os.utime(entry, ns=(status.st_atime_ns, status.st_mtime_ns + 1))
    assert not whole.known(entry)
    whole.mark(entry)
    assert whole.known(entry)
    with entry.open("ab") as handle:
        handle.write(b"\0")
    os.utime(entry, ns=(status.st_atime_ns, status.st_mtime_ns + 1))
    assert not whole.known(entry)
