"""Opening inputs: files, folders, globs, stdin, compression by magic bytes, and every bad-input path."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import sys
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.errors import InputError
from react_engine.logs import LoadOptions, load, reading
from react_engine.logs.lines import split
from react_engine.logs.parse import MAX_MESSAGE_CHARS, TRUNCATION_MARK, _truncate

SYSLOG_LINES = [
    "Nov 20 10:00:01 host1 sshd[10]: Accepted password for alice",
    "Nov 20 10:00:02 host1 cron[11]: job started",
    "Nov 20 10:00:03 host2 kernel: oops",
]
TEXT = "\n".join(SYSLOG_LINES) + "\n"


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress])
def test_compressed_files_are_detected_by_magic_not_name(tmp_path: Path, compress) -> None:
    path = _write(tmp_path / "plain-name.log", compress(TEXT.encode()))
    frame = load(path, LoadOptions(use_cache=False))
    assert frame["message"].tolist() == ["Accepted password for alice", "job started", "oops"]
    assert frame.attrs["files"][0]["format"] == "syslog"


@pytest.mark.parametrize("suffix,magic", [(".gz", b"\x1f\x8b"), (".bz2", b"BZh"), (".xz", b"\xfd7zXZ\x00")])
def test_corrupt_archive_is_one_line_error_naming_path(tmp_path: Path, suffix: str, magic: bytes) -> None:
    path = _write(tmp_path / f"broken{suffix}", magic + b"\x00garbage-not-a-stream" * 3)
    with pytest.raises(InputError) as caught:
        load(path, LoadOptions(use_cache=False))
    message = str(caught.value)
    assert str(path) in message and "\n" not in message and "corrupt" in message


def test_missing_path_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load(tmp_path / "nope.log", LoadOptions(use_cache=False))


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_permission_denied_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "secret.log", TEXT.encode())
    path.chmod(0)
    with pytest.raises(InputError, match="permission denied"):
        load(path, LoadOptions(use_cache=False))


def test_permission_error_is_reported_as_input_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path / "secret.log", TEXT.encode())
    real_open = os.open

    def deny(name: str | os.PathLike[str], *args: int) -> int:
        if Path(name) == path:
            raise PermissionError(13, "Permission denied")
        return real_open(name, *args)

    monkeypatch.setattr(reading.os, "open", deny)
    with pytest.raises(InputError, match=r"secret\.log: permission denied"):
        load(path, LoadOptions(use_cache=False))


def test_glob_matching_nothing_and_empty_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="matches no files"):
        load(str(tmp_path / "*.nothing"), LoadOptions(use_cache=False))
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="has no files"):
        load(tmp_path / "empty", LoadOptions(use_cache=False))


def test_directory_is_recursive_and_sorted_and_glob_works(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "sub" / "b.log", (SYSLOG_LINES[1] + "\n").encode())
    _write(tmp_path / "a.log", (SYSLOG_LINES[0] + "\n").encode())
    frame = load(tmp_path, LoadOptions(use_cache=False))
    assert [Path(s).name for s in frame["source"]] == ["a.log", "b.log"]
    assert list(frame.index) == [0, 1]
    globbed = load(str(tmp_path / "**" / "*.log"), LoadOptions(use_cache=False))
    assert len(globbed) == 2


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode())))
    frame = load("-", LoadOptions(use_cache=False))
    assert len(frame) == 3 and set(frame["source"]) == {"-"}


def test_binary_file_is_skipped_with_warning_but_alone_is_an_error(tmp_path: Path) -> None:
    binary = _write(tmp_path / "core.bin", bytes(range(256)) * 10)
    text = _write(tmp_path / "ok.log", TEXT.encode())
    frame = load([binary, text], LoadOptions(use_cache=False))
    assert len(frame) == 3
    assert any("core.bin" in w and "binary" in w for w in frame.attrs["warnings"])
    with pytest.raises(InputError, match="only binary"):
        load(binary, LoadOptions(use_cache=False))


def test_undecodable_bytes_are_replaced_and_counted(tmp_path: Path) -> None:
    path = _write(tmp_path / "latin1.log", "Nov 20 10:00:01 h p: caf\xe9 \xff\n".encode("latin-1"))
    frame = load(path, LoadOptions(use_cache=False))
    assert frame["message"][0] == "caf\ufffd \ufffd"
    assert any("2 undecodable bytes" in w for w in frame.attrs["warnings"])


def test_empty_file_gives_zero_rows_and_says_so(tmp_path: Path) -> None:
    frame = load(_write(tmp_path / "empty.log", b""), LoadOptions(use_cache=False))
    assert len(frame) == 0
    assert list(frame.columns[:9]) == ["timestamp", "severity", "level_raw", "host", "component", "pid", "message",
                                        "source", "line"]  # the same columns as a file with lines
    assert any("empty" in w for w in frame.attrs["warnings"])


def test_unknown_format_lists_valid_names(tmp_path: Path) -> None:
    path = _write(tmp_path / "x.log", TEXT.encode())
    with pytest.raises(InputError, match="use one of: .*syslog"):
        load(path, LoadOptions(format="nope", use_cache=False))


@pytest.mark.parametrize("ending", [b"\r\n", b"\r", b"\n"])
def test_line_endings_and_no_final_newline(tmp_path: Path, ending: bytes) -> None:
    data = ending.join(line.encode() for line in SYSLOG_LINES)  # no terminator after the last line
    frame = load(_write(tmp_path / "eol.log", data), LoadOptions(use_cache=False))
    assert frame["line"].tolist() == [1, 2, 3]
    assert frame["raw"].tolist() == SYSLOG_LINES


@settings(max_examples=40)
@given(st.lists(st.one_of(st.none(), st.integers(MAX_MESSAGE_CHARS // 4 - 2, MAX_MESSAGE_CHARS + 2).flatmap(
    lambda n: st.sampled_from(["a", "é", "€", "😀"]).map(lambda c: c * n))), max_size=6))
def test_messages_over_the_limit_in_characters_are_cut_whatever_their_bytes(messages: list[str | None]) -> None:
    cut, count = _truncate(pa.array(messages, pa.large_string()))
    long = [m is not None and len(m) > MAX_MESSAGE_CHARS for m in messages]
    assert count == sum(long)
    assert cut.to_pylist() == [m[:MAX_MESSAGE_CHARS] + TRUNCATION_MARK if over else m
                               for m, over in zip(messages, long, strict=True)]


def test_huge_line_is_kept_but_message_truncated(tmp_path: Path) -> None:
    huge = "Nov 20 10:00:01 h p: " + "x" * 3_000_000
    frame = load(_write(tmp_path / "huge.log", (huge + "\n" + SYSLOG_LINES[0]).encode()), LoadOptions(use_cache=False))
    assert len(frame) == 2
    assert frame["raw"][0] == huge
    assert len(frame["message"][0]) < 10_000 and frame["message"][0].endswith("[truncated]")
    assert frame["message"][1] == "Accepted password for alice"
    assert any("cut to" in w for w in frame.attrs["warnings"])


@pytest.mark.parametrize("encoding,bom", [("utf-16", b""), ("utf-8", b"\xef\xbb\xbf")])
def test_byte_order_marks_and_utf16(tmp_path: Path, encoding: str, bom: bytes) -> None:
    path = _write(tmp_path / "bom.log", bom + TEXT.encode(encoding))
    frame = load(path, LoadOptions(use_cache=False))
    assert frame.attrs["files"][0]["format"] == "syslog"
    assert frame["raw"].tolist() == SYSLOG_LINES
    assert not frame.attrs["warnings"]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=30),
             min_size=1, max_size=30),
    st.lists(st.sampled_from(["\n", "\r\n"]), min_size=30, max_size=30),
    st.booleans(),
)
def test_split_mixed_lf_and_crlf(lines: list[str], endings: list[str], final: bool) -> None:
    text = "".join(line + ending for line, ending in zip(lines, endings))
    if not final:
        text = text[: -len(endings[len(lines) - 1])]
    # without a final terminator, an empty last line is indistinguishable from a terminated one before it
    expected = lines[:-1] if not final and lines[-1] == "" else lines
    split_lines = split(text.encode())
    assert split_lines.text.to_pylist() == [line.replace("\0", "") for line in expected]  # NULs are dropped
    assert split_lines.nul_lines == sum("\0" in line for line in expected)


def test_directories_leave_out_hidden_files_and_folders(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    _write(tmp_path / ".git" / "HEAD", b"ref: refs/heads/main\n")
    _write(tmp_path / ".hidden.log", TEXT.encode())
    _write(tmp_path / "visible.log", TEXT.encode())
    frame = load(tmp_path, LoadOptions(use_cache=False))
    assert {Path(s).name for s in frame["source"]} == {"visible.log"}
