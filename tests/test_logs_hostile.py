"""Hostile inputs: devices, FIFOs, decompression bombs, inputs too big for memory, binary content, NUL bytes."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from react_engine import Engine
from react_engine.app.cli import main
from react_engine.errors import InputError
from react_engine.logs import LoadOptions, load
from react_engine.logs.memory import BYTES_PER_INPUT_BYTE, MemoryBudget, available_memory
from react_engine.logs.reading import CHUNK, RATIO_GRACE, is_binary, read
from react_engine.logs.sources import SourceFile
from react_engine.planners.rules import RulesPlanner

NO_CACHE = LoadOptions(use_cache=False)
LINE = b"2025-11-20 10:00:01,000 INFO [main] app: started\n"
COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {"gzip": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}


def _text(size: int) -> bytes:
    """Exactly `size` bytes of log lines."""
    return LINE * (size // len(LINE)) + b"\n" * (size % len(LINE))


def _source(path: Path) -> SourceFile:
    return SourceFile(str(path), path, path.stat().st_size, path.stat().st_mtime)


def _cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """`react-engine ...` in a child process, for inputs that could block or exhaust it; the timeout only keeps a
    regression from hanging the suite."""
    code = "from react_engine.app.cli import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, input=stdin, timeout=120)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_before_reading(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"{device} does not exist here")
    with pytest.raises(InputError, match="a device, not a log file") as caught:
        load(device, NO_CACHE)
    assert "\n" not in str(caught.value)


def test_a_device_in_a_run_ends_it_with_an_error_not_a_read() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("/dev/zero does not exist here")
    result = Engine(RulesPlanner()).ask("How many lines?", ["/dev/zero"], load_options=NO_CACHE)  # as a replay would
    assert result.stop_reason == "error" and "a device, not a log file" in result.answer


def test_a_fifo_given_as_a_path_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    done = _cli("inspect", "--no-cache", str(fifo))
    assert done.returncode == 1
    assert b"a pipe (FIFO), not a log file" in done.stderr and b"Traceback" not in done.stderr


def test_a_fifo_swapped_in_after_listing_is_still_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="pipe"):
        read(SourceFile(str(fifo), fifo), NO_CACHE)  # as if it had been a regular file when listed


def _bomb(kind: str, payload: bytes, total: int) -> bytes:
    """Many compressed members of `payload` (a valid multi-member stream), `total` bytes once decompressed."""
    return COMPRESSORS[kind](payload) * (total // len(payload))


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_a_bomb_of_zeros_stops_at_the_first_chunk(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "zeros.log"
    path.write_bytes(_bomb(kind, bytes(8 << 20), 1 << 30))
    content = read(_source(path), NO_CACHE)
    assert content.binary_at == 0 and not content.data
    with pytest.raises(InputError, match="only binary content"):
        load(path, NO_CACHE)


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_a_text_bomb_is_refused_by_its_ratio(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "lines.log"
    path.write_bytes(_bomb(kind, b"a\n" * (512 << 10), 1 << 30))
    with pytest.raises(InputError, match=r"expands more than 200 times.*--max-ratio") as caught:
        load(path, NO_CACHE)
    assert "\n" not in str(caught.value)


def test_a_bomb_piped_to_stdin_is_refused_by_its_ratio() -> None:
    done = _cli("inspect", "-", stdin=_bomb("gzip", b"a\n" * (512 << 10), 1 << 30))
    assert done.returncode == 1 and b"expands more than 200 times" in done.stderr


def test_a_raised_ratio_still_meets_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "lines.log.gz"
    path.write_bytes(_bomb("gzip", b"a\n" * (512 << 10), 1 << 30))
    options = LoadOptions(use_cache=False, max_ratio=1e9, max_input_size="40M")
    with pytest.raises(InputError, match=r"larger than the input size limit \(40.0 MiB.*--max-input-size"):
        load(path, options)


def test_small_files_that_compress_very_well_still_load(tmp_path: Path) -> None:
    path = tmp_path / "same.log.gz"
    path.write_bytes(gzip.compress(LINE * 20_000))  # ratio far above 200, size far below the grace
    assert len(path.read_bytes()) * 200 < len(LINE) * 20_000 < RATIO_GRACE
    assert len(load(path, NO_CACHE)) == 20_000


def test_a_plain_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.log"
    with path.open("wb") as handle:
        handle.truncate(3 << 20)  # sparse: nothing to read if the limit is checked first
    with pytest.raises(InputError, match=r"larger than the input size limit \(2.0 MiB"):
        load(path, LoadOptions(use_cache=False, max_input_size="2M"))


def test_a_load_that_cannot_fit_in_memory_is_refused_before_it_starts(tmp_path: Path) -> None:
    available = available_memory()
    if available is None:
        pytest.skip("this system does not report available memory")
    path = tmp_path / "huge.log"
    with path.open("wb") as handle:
        handle.truncate(int(available / BYTES_PER_INPUT_BYTE) + (1 << 30))  # sparse: refused unread or never
    with pytest.raises(InputError, match=r"would need about .* GiB of memory.*narrow the paths.*--dask"):
        load(path, LoadOptions(use_cache=False, max_input_size=1 << 50))


def test_memory_is_counted_while_reading(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    path.write_bytes(_text(4 * CHUNK))
    budget = MemoryBudget(available=int(2 * CHUNK * BYTES_PER_INPUT_BYTE))
    with pytest.raises(InputError, match="the logs read so far"):
        read(_source(path), NO_CACHE, budget)
    assert budget.read == 3 * CHUNK  # refused at the third chunk, not after the whole file


def test_binary_content_after_text_is_found_while_streaming(tmp_path: Path) -> None:
    path = tmp_path / "mixed.log"
    path.write_bytes(_text(2 * CHUNK) + bytes(4 * CHUNK))
    content = read(_source(path), NO_CACHE)
    assert content.binary_at is None and content.binary == ((2 * CHUNK, 6 * CHUNK),)
    assert bytes(content.data).rstrip(b"\n") == _text(2 * CHUNK).rstrip(b"\n")


@given(before=st.integers(1, 300), hole=st.integers(16, 3 * CHUNK), after=st.integers(1, 300))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_run_of_nul_bytes_is_left_out_and_the_lines_around_it_are_read(tmp_path: Path, before: int, hole: int,
                                                                          after: int) -> None:
    path = tmp_path / "app.log"
    path.write_bytes(LINE * before + bytes(hole) + LINE * after)  # a crash's hole, the next line written right after
    frame = load(path, NO_CACHE)
    assert len(frame) == before + after and set(frame["message"]) == {"started"}
    start = len(LINE) * before
    assert f"{path}: binary content left out at bytes {start:,}-{start + hole - 1:,}" in " ".join(
        frame.attrs["warnings"])
    assert frame["line"].iloc[-1] == before + after  # the hole holds no line end: the numbering goes on


def test_a_utf16_section_after_utf8_lines_is_read(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    utf16 = LINE.decode().replace("started", "restarted").encode("utf-16-le") * 50
    path.write_bytes(LINE * 3 + utf16 + LINE * 2)
    frame = load(path, NO_CACHE)
    assert frame["message"].tolist() == ["started"] * 3 + ["restarted"] * 50 + ["started"] * 2


def test_random_bytes_between_text_are_reported_as_a_range(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    junk = bytes(range(256)).replace(b"\n", b"") * 40
    path.write_bytes(LINE * 10 + junk + b"\n" + LINE * 10)
    frame = load(path, NO_CACHE)
    assert len(frame) == 20 and {message.strip() for message in frame["message"]} == {"started"}
    start = len(LINE) * 10
    assert any(f"binary content left out at bytes {start:,}-{start + len(junk) - 1:,}" in w
               for w in frame.attrs["warnings"])


def test_a_file_skipped_in_a_folder_is_said_with_the_answer(tmp_path: Path) -> None:
    (tmp_path / "app.log").write_bytes(LINE * 5)
    (tmp_path / "core.log").write_bytes(os.urandom(4096))
    done = CliRunner().invoke(main, ["ask", "How many lines?", str(tmp_path), "--planner", "rules", "--no-cache"])
    out = done.stdout
    assert done.exit_code == 0 and "5" in out
    verdict = next(line for line in out.splitlines() if "verified" in line)
    assert "core.log" in verdict and "skipped" in verdict


def test_one_nul_byte_does_not_reject_a_text_file(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    path.write_bytes(LINE.replace(b"started", b"sta\x00rted") + LINE * 99)
    frame = load(path, NO_CACHE)
    assert len(frame) == 100 and frame["message"].iloc[0] == "started"
    assert any("1 lines held NUL bytes" in w for w in frame.attrs["warnings"])


def test_what_is_binary() -> None:
    assert is_binary(bytes(8192))
    assert is_binary(os.urandom(8192))
    assert not is_binary(LINE.replace(b"started", b"\x00") * 100)
    assert not is_binary(b"8=FIX.4.2\x019=12\x0135=A\x0110=100\x01\n" * 100)  # SOH-separated FIX logs are text
    assert not is_binary("temp\u00e9rature \u2103\n".encode() * 100)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(COMPRESSORS)), st.binary(max_size=400), st.integers(0, 400), st.binary(max_size=8))
def test_damaged_compressed_data_reads_or_fails_cleanly(tmp_path: Path, kind: str, text: bytes, cut: int,
                                                          junk: bytes) -> None:
    data = COMPRESSORS[kind](text)
    damaged = data[:cut] + junk + data[cut + len(junk):]
    path = tmp_path / "damaged.log"
    path.write_bytes(damaged)
    try:
        content = read(_source(path), NO_CACHE)
    except InputError as error:
        assert str(path) in str(error) and "\n" not in str(error)
        assert damaged != data  # an intact stream always reads
        return
    if damaged == data:
        assert content.data == text or content.binary_at == 0


@given(st.integers(1, 10**6), st.sampled_from(["", "K", "M", "G", "KiB", "mb", "g"]))
def test_sizes_are_read_with_binary_units(number: int, unit: str) -> None:
    factor = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}[unit[:1].upper()]
    assert LoadOptions(max_input_size=f"{number}{unit}").max_input_size == number * factor


def test_a_bad_size_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "app.log").write_bytes(LINE)
    done = CliRunner().invoke(main, ["inspect", "--max-input-size", "lots", str(tmp_path)])
    assert done.exit_code == 2 and "'lots' is not a size" in done.stderr
