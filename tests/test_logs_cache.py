"""The parsed-frame cache: hits, misses on change, XDG_CACHE_HOME, and --no-frame_cache."""

from __future__ import annotations

import os
import tempfile
import zlib
from pathlib import Path
from unittest import mock

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_logs import real_log

from react_engine.logs import LoadOptions, cache_dir, frame_cache, load
from react_engine.logs import loader as load_module

TEXT = "Nov 20 10:00:01 h1 sshd[1]: Accepted password for alice\nNov 20 10:00:02 h1 cron[2]: job\n"


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    original = load_module.parse_lines

    def counting(*args, **kwargs):
        calls.append(kwargs["source"])
        return original(*args, **kwargs)

    monkeypatch.setattr(load_module, "parse_lines", counting)
    return calls


def test_cache_dir_honours_xdg(cache_home: Path) -> None:
    assert cache_dir().is_relative_to(cache_home / "react-engine")


def test_second_load_is_served_from_cache_and_equal(
    tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.log"
    path.write_text(TEXT)
    calls = _count_parses(monkeypatch)
    first = load(path)
    second = load(path)
    assert len(calls) == 1
    pd.testing.assert_frame_equal(first, second)
    assert second.attrs["files"] == first.attrs["files"]
    assert any(cache_dir().iterdir())


def test_a_hit_under_another_name_carries_the_name_it_was_asked_by(
    tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.log"
    path.write_text(TEXT + "Nov 20 10:00:03 h1 kernel: " + "x" * 9000 + "\n")  # a very long entry: a warning
    calls = _count_parses(monkeypatch)
    first = load(path)
    monkeypatch.chdir(tmp_path)
    again = load("a.log")
    assert len(calls) == 1  # served from the cache
    assert again["source"].unique().tolist() == ["a.log"]
    assert [f["path"] for f in again.attrs["files"]] == ["a.log"]
    assert again.attrs["warnings"] == [w.replace(str(path), "a.log") for w in first.attrs["warnings"]]
    assert again.attrs["warnings"] and again.attrs["warnings"][0].startswith("a.log: ")
    pd.testing.assert_frame_equal(again.drop(columns="source"), first.drop(columns="source"))


def test_change_in_file_or_options_misses(tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.log"
    path.write_text(TEXT)
    calls = _count_parses(monkeypatch)
    load(path)
    load(path, LoadOptions(year=2001))
    assert load(path, LoadOptions(year=2001))["timestamp"].dt.year.tolist() == [2001, 2001]
    path.write_text(TEXT + "Nov 20 10:00:03 h1 cron[2]: more\n")
    os.utime(path, (1, 1))
    assert len(load(path)) == 3
    assert len(calls) == 3
    assert len(list(cache_dir().glob("*.arrow"))) == 1  # one entry per path: older ones are replaced


def test_no_cache_neither_reads_nor_writes(tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.log"
    path.write_text(TEXT)
    calls = _count_parses(monkeypatch)
    load(path, LoadOptions(use_cache=False))
    load(path, LoadOptions(use_cache=False))
    assert len(calls) == 2
    assert not cache_home.exists()


def test_unwritable_cache_does_not_fail_a_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    path = tmp_path / "a.log"
    path.write_text(TEXT)
    assert len(load(path)) == 2


def test_corrupt_cache_entry_is_ignored(tmp_path: Path, cache_home: Path) -> None:
    path = tmp_path / "a.log"
    path.write_text(TEXT)
    load(path)
    for entry in cache_dir().glob("*.arrow"):
        entry.write_bytes(b"not arrow")
    assert load(path)["message"].tolist() == ["Accepted password for alice", "job"]


def test_least_recently_used_entries_are_evicted(
    tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    paths = []
    for name in ("a", "b", "c"):
        path = tmp_path / f"{name}.log"
        path.write_text(TEXT * 20)
        paths.append(path)
        load(path)
    sizes = [entry.stat().st_size for entry in cache_dir().glob("*.arrow")]
    monkeypatch.setattr(frame_cache, "MAX_CACHE_BYTES", sum(sizes) - 1)
    load(paths[0])  # a cache hit marks a.log as recently used
    paths[1].write_text(TEXT * 21)  # b.log changes: its new entry is written, c.log is now the oldest
    load(paths[1])
    assert len(list(cache_dir().glob("*.arrow"))) == 2
    calls = _count_parses(monkeypatch)
    load(paths[0])
    load(paths[2])
    assert calls == [str(paths[2])]  # a.log still cached, c.log evicted


def _sshd_log(path: Path, lines: int) -> int:
    """Write `lines` sshd lines, every fourth a failed password; returns how many are."""
    rows = [
        f"Dec 10 06:{i // 60 % 60:02d}:{i % 60:02d} LabSZ sshd[{24200 + i}]: "
        + (f"Failed password for root from 10.0.{i % 250}.{i % 7} port {4000 + i} ssh2" if i % 4 == 0
           else f"Connection closed by 10.1.{i % 250}.{i % 9} [preauth] session {i}")
        for i in range(lines)
    ]
    path.write_text("\n".join(rows) + "\n")
    return sum(1 for row in rows if "Failed password" in row)


def _failed(path: Path) -> int:
    return int(load(path)["message"].str.contains("Failed password", regex=False).sum())


def test_damaged_entry_is_dropped_not_trusted(tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "auth.log"
    expected = _sshd_log(path, 20_000)
    assert _failed(path) == expected
    (entry,) = cache_dir().glob("*.arrow")
    data = bytearray(entry.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4096] = bytes(b ^ 0xFF for b in data[middle : middle + 4096])
    entry.write_bytes(bytes(data).replace(b"Failed password", b"Failed passw0rd"))  # readable text too
    calls = _count_parses(monkeypatch)
    assert _failed(path) == expected
    assert calls == [str(path)]  # parsed again, and the entry replaced
    assert _failed(path) == expected and calls == [str(path)]


CORRUPT_AND_LOAD = """
import random, sys
from pathlib import Path
from react_engine.logs import cache_dir, load
path, expected = Path(sys.argv[1]), int(sys.argv[2])
(entry,) = cache_dir().glob("*.arrow")
original = entry.read_bytes()
rng = random.Random(7)
for start in range(0, len(original) - 64, max(1, len(original) // 40)):
    damaged = bytearray(original)
    damaged[start : start + 64] = rng.randbytes(64)
    for stale in cache_dir().glob("*.arrow"):
        stale.unlink()
    entry.write_bytes(bytes(damaged))
    found = int(load(path)["message"].str.contains("Failed password", regex=False).sum())
    assert found == expected, (start, found, expected)
print("ok")
"""


def test_entries_damaged_anywhere_never_crash(tmp_path: Path, cache_home: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "auth.log"
    expected = _sshd_log(path, 3_000)
    load(path)
    done = subprocess.run([sys.executable, "-c", CORRUPT_AND_LOAD, str(path), str(expected)],
                          capture_output=True, text=True, timeout=600, env=os.environ)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_in_place_edit_with_restored_mtime_misses(tmp_path: Path, cache_home: Path) -> None:
    path = tmp_path / "a.log"
    path.write_text(TEXT)
    stat = path.stat()
    assert load(path)["message"].tolist() == ["Accepted password for alice", "job"]
    path.write_text(TEXT.replace("alice", "mallo"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    assert load(path)["message"].tolist() == ["Accepted password for mallo", "job"]


def test_edit_inside_a_large_file_misses(tmp_path: Path, cache_home: Path) -> None:
    path = tmp_path / "auth.log"
    expected = _sshd_log(path, 20_000)
    stat = path.stat()
    assert _failed(path) == expected
    data = path.read_bytes()
    path.write_bytes(data.replace(b"Failed password", b"Failed passw0rd", 1))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert _failed(path) == expected - 1


def test_edit_between_the_sampled_blocks_with_restored_mtime_misses(tmp_path: Path, cache_home: Path) -> None:
    path = tmp_path / "auth.log"
    expected = _sshd_log(path, 20_000)
    assert path.stat().st_size > 2**20
    stat = path.stat()
    assert _failed(path) == expected
    data = path.read_bytes()
    at = data.index(b"Failed password", 90_000)  # past the first fingerprint block, before the second
    assert frame_cache.FINGERPRINT_BLOCK < at < (len(data) - frame_cache.FINGERPRINT_BLOCK) // (frame_cache.FINGERPRINT_SAMPLES + 1)
    path.write_bytes(data[:at] + b"Failed passw0rd" + data[at + 15 :])
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns
    assert _failed(path) == expected - 1


KILLED_WRITE = """
import sys, time
from react_engine.logs import frame_cache, load

def stalled(self, data):
    done = written(self, data)
    print("writing", flush=True)
    time.sleep(600)
    return done

written, frame_cache._Summed.write = frame_cache._Summed.write, stalled
load(sys.argv[1])
"""


def test_temp_file_of_a_killed_cache_write_is_counted_then_removed(tmp_path: Path, cache_home: Path) -> None:
    import json
    import signal
    import subprocess
    import sys

    path = tmp_path / "auth.log"
    expected = _sshd_log(path, 3_000)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    writer = subprocess.Popen([sys.executable, "-c", KILLED_WRITE, str(path)], stdout=subprocess.PIPE, text=True,
                              env=env)
    assert writer.stdout is not None and writer.stdout.readline().strip() == "writing"
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(30)
    (left,) = cache_dir().glob("*.tmp")
    info = subprocess.run([sys.executable, "-m", "react_engine", "cache", "info", "--json"], capture_output=True,
                          text=True, env=env, timeout=120, check=True)
    usage = json.loads(info.stdout)
    assert usage["entries"] == 0 and usage["temp_files"] == 1 and usage["temp_bytes"] == left.stat().st_size > 0
    assert _failed(path) == expected
    assert not left.exists() and len(list(cache_dir().glob("*.arrow"))) == 1


def test_temp_file_of_a_write_still_running_is_kept(tmp_path: Path, cache_home: Path) -> None:
    folder = cache_dir()
    folder.mkdir(parents=True)
    mine = folder / f"{frame_cache.temp_prefix()}abc.tmp"  # this process is alive: its write may still be going on
    mine.write_bytes(b"x")
    path = tmp_path / "a.log"
    path.write_text(TEXT)
    load(path)
    assert mine.exists()


SYSTEMS = ("Android", "Apache", "BGL", "HDFS", "HPC", "Hadoop", "HealthApp", "Linux", "Mac", "OpenSSH",
           "OpenStack", "Proxifier", "Spark", "Thunderbird", "Windows", "Zookeeper")


@pytest.mark.parametrize("system", SYSTEMS)
def test_cached_real_log_is_the_parsed_one(system: str, cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = real_log(system)
    parsed = load(path, LoadOptions(use_cache=False))
    load(path)
    calls = _count_parses(monkeypatch)
    pd.testing.assert_frame_equal(load(path), parsed)
    assert calls == []


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=300), st.integers(1, 64), st.integers(0, 320))
def test_entry_crc_is_the_crc_of_the_first_bytes_at_any_block_size(data: bytes, block: int, cut: int) -> None:
    length = min(cut, len(data))
    with tempfile.TemporaryDirectory() as folder, mock.patch.object(frame_cache, "_CRC_BLOCK", block):
        path = Path(folder) / "entry"
        path.write_bytes(data)
        assert frame_cache._file_crc(path, len(data)) == zlib.crc32(data)
        assert frame_cache._file_crc(path, length) == zlib.crc32(data[:length])


def test_entry_ends_with_its_digest_and_the_crc_of_all_before(tmp_path: Path, cache_home: Path) -> None:
    path = tmp_path / "a.log"
    path.write_text(TEXT)
    load(path)
    (entry,) = cache_dir().glob("*.arrow")
    data = entry.read_bytes()
    assert data[-8:] == f"{zlib.crc32(data[:-8]):08x}".encode()
    assert pa.ipc.open_file(pa.py_buffer(data[:-40])).read_all().num_rows == 2
    assert not list(cache_dir().glob("*.tmp"))


def test_a_large_parse_is_held_as_read_back_from_its_entry(tmp_path: Path, cache_home: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.log"
    path.write_text(TEXT * 50)
    monkeypatch.setattr(load_module, "REREAD_BYTES", 0)
    reads: list[bool] = []
    original = frame_cache.get

    def reading(*args, **kwargs):
        hit = original(*args, **kwargs)
        reads.append(hit is not None)
        return hit

    monkeypatch.setattr(frame_cache, "get", reading)
    calls = _count_parses(monkeypatch)
    first = load(path, raw=False)
    assert reads == [False, True] and len(calls) == 1  # a miss, then the entry just written
    pd.testing.assert_frame_equal(first, load(path, LoadOptions(use_cache=False), raw=False))


def test_an_entry_that_cannot_be_read_back_is_parsed_again(tmp_path: Path, cache_home: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.log"
    path.write_text(TEXT * 50)
    monkeypatch.setattr(load_module, "REREAD_BYTES", 0)
    monkeypatch.setattr(frame_cache, "get", lambda *args, **kwargs: None)
    calls = _count_parses(monkeypatch)
    frame = load(path)
    assert len(calls) == 2
    pd.testing.assert_frame_equal(frame, load(path, LoadOptions(use_cache=False)))


def _rewritten(entry: Path, old: bytes, new: bytes) -> None:
    """`entry` with `old` text replaced and its CRC summed again: a rewrite no CRC can find."""
    data = entry.read_bytes().replace(old, new)
    body = data[:-8]
    entry.write_bytes(body + f"{zlib.crc32(body):08x}".encode())


@pytest.mark.parametrize("how", ["others may write it", "another user owns it"])
def test_an_entry_another_user_could_have_rewritten_is_never_read(tmp_path: Path, cache_home: Path,
                                                                   monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    path = tmp_path / "auth.log"
    expected = _sshd_log(path, 2_000)
    assert _failed(path) == expected
    (entry,) = cache_dir().glob("*.arrow")
    if how == "others may write it":
        entry.chmod(0o666)
    elif os.getuid() != 0:
        pytest.skip("only root can give a file to another user")
    else:
        os.chown(entry, 12345, 12345)
    _rewritten(entry, b"Failed password", b"Failed passw0rd")
    calls = _count_parses(monkeypatch)
    assert _failed(path) == expected and calls == [str(path)]  # parsed again, and the entry replaced
    (entry,) = cache_dir().glob("*.arrow")
    assert frame_cache.owned(entry)
