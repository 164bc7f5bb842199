"""Lean frames: each entry held as `raw_head + message`, never as a second copy of the text, and read the same.

A lean frame must give every consumer the entry exactly as written (`entry_text`), and a search over it the
same rows as over `raw`, whatever the format, the line endings and the chunking.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from real_logs import HOW_TO_RUN, REAL_LOGS

from react_engine.logs import LoadOptions, load, mapped, parse
from react_engine.logs import lines as lines_module
from react_engine.logs.arrow import concat
from react_engine.logs.detect import detect
from react_engine.logs.formats import BY_NAME, Format
from react_engine.logs.lines import split
from react_engine.logs.loader import load_tables
from react_engine.logs.parse import parse_lines
from react_engine.logs.schema import ENCODED_COLUMNS, RAW_COLUMN, RAW_HEAD
from react_engine.logs.text import entry_text
from react_engine.tools.regex import matches, text_matches

SYSTEMS = sorted(p.name for p in REAL_LOGS.iterdir() if p.is_dir()) if REAL_LOGS.is_dir() else []
UNCACHED = LoadOptions(use_cache=False)
WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30)


def _both(path: Path, options: LoadOptions = UNCACHED) -> tuple:
    return load(path, options), load(path, options, raw=False)


def _as_str(frame: pd.DataFrame) -> pd.DataFrame:
    """A lean frame's categorical name columns as `str`, as a full load holds them."""
    return frame.astype({column: "str" for column in ENCODED_COLUMNS if column in frame})


@pytest.mark.parametrize("system", SYSTEMS or [pytest.param("none", marks=pytest.mark.skip(HOW_TO_RUN))])
def test_real_logs_read_back_the_same_lean(system: str) -> None:
    full, lean = _both(REAL_LOGS / system / f"{system}_2k.log")
    assert entry_text(lean).tolist() == full[RAW_COLUMN].tolist()
    assert all(isinstance(lean[c].dtype, pd.CategoricalDtype) for c in ENCODED_COLUMNS if c in lean)
    assert _as_str(lean).drop(columns=[RAW_HEAD], errors="ignore").drop(columns=[RAW_COLUMN], errors="ignore").equals(
        full.drop(columns=[RAW_COLUMN]))
    for pattern in ("error", r"\d{3,}", "^[A-Z]", r"\s$"):
        assert (text_matches(lean, pattern, ignore_case=True) == matches(full[RAW_COLUMN], pattern,
                                                                          ignore_case=True)).all()


def test_a_syslog_file_is_held_once(tmp_path: Path) -> None:
    path = tmp_path / "auth.log"
    path.write_text("".join(f"Dec 10 06:55:{i % 60:02d} LabSZ sshd[{i}]: Failed password for u{i}\n"
                            for i in range(3000)) + "a line no pattern reads\n")
    full, lean = _both(path)
    assert RAW_COLUMN not in lean and RAW_HEAD in lean
    assert lean[RAW_HEAD].iloc[0] == "Dec 10 06:55:00 LabSZ sshd[0]: "
    assert lean[RAW_HEAD].iloc[-1] == ""  # the message is the whole unmatched line
    assert entry_text(lean).tolist() == full[RAW_COLUMN].tolist()


@pytest.mark.parametrize(("name", "content", "why"), [
    ("long.log", "Dec 10 06:55:00 h sshd[1]: " + "x" * 9000 + "\n", "a message cut short"),
    ("java.log", "Nov 20, 2026 10:00:01 AM com.example.Foo run\nSEVERE: broken\n", "a message rewritten"),
    ("app.jsonl", '{"ts": "2026-11-20T10:00:00Z", "level": "info", "msg": "hi"}\n', "a message taken from JSON"),
])
def test_raw_is_kept_where_the_message_is_not_the_end_of_the_entry(tmp_path: Path, name: str, content: str,
                                                                   why: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    full, lean = _both(path)
    assert RAW_HEAD not in lean, why
    assert lean[RAW_COLUMN].tolist() == full[RAW_COLUMN].tolist()
    assert "\n".join(lean[RAW_COLUMN]) == content.rstrip("\n")


def test_a_lean_and_a_full_file_load_together_with_raw(tmp_path: Path) -> None:
    syslog, jsonl = tmp_path / "a.log", tmp_path / "b.jsonl"
    syslog.write_text("Dec 10 06:55:00 LabSZ sshd[1]: Failed password for root\n")
    jsonl.write_text('{"ts": "2026-11-20T10:00:00Z", "level": "info", "msg": "Failed password"}\n')
    frame = load([syslog, jsonl], UNCACHED, raw=False)
    assert RAW_HEAD not in frame
    assert frame[RAW_COLUMN].tolist() == [syslog.read_text().strip(), jsonl.read_text().strip()]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.booleans(), WORDS), min_size=1, max_size=40), st.sampled_from(["\n", "\r\n"]),
       st.integers(1, 7))
def test_any_lines_search_the_same_lean_in_any_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      rows: list[tuple[bool, str]], ending: str,
                                                      chunk: int) -> None:
    monkeypatch.setattr(mapped, "CHUNK_ROWS", chunk)
    lines = [f"Dec 10 06:55:0{i % 10} host{i} app[{i}]: {body}" if tagged else body
             for i, (tagged, body) in enumerate(rows)]
    path = tmp_path / "any.log"
    path.write_bytes(ending.join(lines).encode() + ending.encode())
    full, lean = _both(path)
    assert entry_text(lean).tolist() == full[RAW_COLUMN].tolist()
    for pattern in ("app", r"\[\d+\]: \S", "^$", "é"):
        assert np.array_equal(text_matches(lean, pattern), matches(full[RAW_COLUMN], pattern))


def test_a_cached_lean_table_reads_back_equal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path = tmp_path / "auth.log"
    path.write_text("".join(f"Dec 10 06:55:{i % 60:02d} LabSZ sshd[{i}]: Accepted key for u{i % 7}\n"
                            for i in range(5000)))
    (fresh,) = load_tables(path).tables
    (cached,) = load_tables(path).tables
    assert RAW_HEAD in fresh.column_names and RAW_COLUMN not in fresh.column_names  # the text is stored once
    assert cached.equals(fresh)


def _read_only(lines: pa.Array) -> pa.Array:
    """A copy of `lines` over read-only memory, which parsing must leave as it is."""
    validity, offsets, data = pa.array(lines.to_pylist(), pa.large_string()).buffers()
    return pa.Array.from_buffers(lines.type, len(lines), [validity, offsets, pa.py_buffer(data.to_pybytes())])


def _parsed_both_ways(data: bytes, fmt: Format | None = None, segment: int = 0) -> tuple[pa.Table, pa.Table]:
    """A file's table parsed at once from a read-only copy of its lines, and from `split`'s own buffer (edited in
    place), `segment` lines at a time when given."""
    lines = split(bytearray(data)).text
    fmt = fmt or detect(lines)
    copied = _read_only(lines)
    before = copied.to_pylist()
    reference = datetime(2026, 11, 22, tzinfo=UTC)
    with mock.patch.object(parse, "SEGMENT_LINES", max(len(before), 1)):
        whole = parse_lines(fmt, [copied], source="x.log", reference=reference).table
    with mock.patch.object(parse, "SEGMENT_LINES", segment or parse.SEGMENT_LINES):
        edited = parse_lines(fmt, [lines], source="x.log", reference=reference).table
    assert copied.to_pylist() == before
    return whole, edited


@pytest.mark.parametrize("system", SYSTEMS or [pytest.param("none", marks=pytest.mark.skip(HOW_TO_RUN))])
@pytest.mark.parametrize("segment", [0, 7, 500])
def test_real_logs_parse_the_same_in_place_and_in_segments(system: str, segment: int) -> None:
    data = (REAL_LOGS / system / f"{system}_2k.log").read_bytes()
    if segment and segment < 100:  # tiny segments cost a parse each: 50 of them show every kind of cut
        data = b"".join(data.splitlines(keepends=True)[:50 * segment])
    whole, edited = _parsed_both_ways(data, segment=segment)
    assert edited.schema == whole.schema
    assert edited.equals(whole)


def test_syslog_messages_are_made_in_the_lines_own_buffer() -> None:
    data = b"".join(b"Dec 10 06:55:%02d LabSZ sshd[%d]: Failed password for u%d\n" % (i % 60, i, i) for i in range(100))
    lines = split(bytearray(data)).text
    address = lines.buffers()[2].address
    table = parse_lines(detect(lines), [lines], source="auth.log").table
    assert table["message"].chunk(0).buffers()[2].address == address
    assert table["message"][0].as_py() == "Failed password for u0"


@pytest.mark.parametrize(("continued", "in_place"), [(None, True), (5, False), (150, False)])
def test_multiline_messages_are_made_in_the_lines_own_buffer_while_each_line_is_an_entry(
        continued: int | None, in_place: bool) -> None:
    """A file of a format whose entries may span lines, parsed in several spans: while every line is an entry the
    messages are cut in place into one array over the lines' buffer; a line that continues an entry, in the first
    span or a later one, leaves the messages to be joined from each span's own, with the same values."""
    rows = [f"2026-11-20 10:00:{i % 60:02d},001 [main] INFO com.example.Service - started {i}" for i in range(200)]
    if continued is not None:
        rows.insert(continued, "\tat com.example.Service.start(Service.java:10)")
    lines = split(bytearray("\n".join(rows).encode() + b"\n")).text
    address = lines.buffers()[2].address
    with mock.patch.object(parse, "SEGMENT_LINES", 64):
        table = parse_lines(BY_NAME["log4j"], [lines], source="app.log").table
    message = table["message"].chunk(0)
    assert (message.buffers()[2].address == address) == in_place
    assert message.to_pylist()[:2] == ["started 0", "started 1"] and table.num_rows == 200


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["tagged", "plain", "long"]), WORDS), min_size=1, max_size=30),
       st.sampled_from(["\n", "\r\n"]), st.integers(1, 5), st.integers(0, 1), st.integers(0, 6))
@example([("plain", "no pattern reads this"), ("plain", "nor this")], "\n", 1, 1, 0)
@example([("plain", "no pattern reads this")], "\n", 1, 0, 0)
@example([("tagged", "a"), ("plain", "b"), ("long", "c")], "\n", 1, 0, 1)
@example([("plain", ""), ("tagged", "a")], "\n", 1, 1, 0)  # a blank line before the first entry
def test_any_lines_parse_the_same_in_place_and_in_segments(rows: list[tuple[str, str]], ending: str, part: int,
                                                           multiline: int, segment: int) -> None:
    texts = [body if kind == "plain" else
             f"Dec 10 06:55:0{i % 10} host{i} app[{i}]: {body * (40 if kind == 'long' else 1)}"
             for i, (kind, body) in enumerate(rows)]
    fmt = BY_NAME["syslog"] if not multiline else replace(BY_NAME["syslog"], multiline=True)
    with mock.patch.object(lines_module, "DROP_LINES", part), mock.patch.object(parse, "MAX_MESSAGE_CHARS", 50):
        copied, edited = _parsed_both_ways(ending.join(texts).encode() + ending.encode(), fmt, segment)
    assert edited.schema == copied.schema
    assert edited.equals(copied)
    full = concat(edited[RAW_HEAD], edited["message"]) if RAW_HEAD in edited.column_names else edited[RAW_COLUMN]
    lead = next((i for i, t in enumerate(texts) if t.strip()), 0)
    if multiline and rows[lead][0] != "plain":
        texts = texts[lead:]  # blank lines before the first entry of a multi-line format are no entry
    assert "\n".join(full.to_pylist()) == "\n".join(texts)  # the entries as written, continuation lines joined


@pytest.mark.parametrize("segment", [1, 2, 100])
def test_groups_come_in_the_order_of_the_first_pattern_that_read_a_line(segment: int) -> None:
    fmt = Format(name="pair", description="two patterns naming their groups in opposite orders",
                 patterns=(r"^(?P<a>x)(?P<b>\d) (?P<message>.*)$", r"^(?P<b>\d)(?P<a>y) (?P<message>.*)$"))
    whole, edited = _parsed_both_ways(b"1y one\n2y two\n3y three\n", fmt, segment)
    assert edited.equals(whole)
    assert edited.column_names[-2:] == ["b", "a"]  # the first pattern read no line: the second's order holds
    assert edited["a"].to_pylist() == ["y"] * 3


_CONTINUATION = st.sampled_from(["java.lang.IllegalStateException: nope", "\tat com.example.Service.start(Service.java:10)",
                                 "Caused by: boom", "", "  ... 12 more", "2026 is not a time"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries=st.lists(st.tuples(st.sampled_from(["INFO", "WARN", "ERROR"]), WORDS,
                                  st.lists(_CONTINUATION, max_size=9)), min_size=1, max_size=40),
       leading=st.lists(_CONTINUATION, max_size=3), segment=st.integers(1, 12), window=st.integers(1, 4))
@example(entries=[("INFO", "", ["Caused by: boom"])], leading=[""], segment=1, window=1)  # a blank line first
def test_entries_spanning_lines_parse_the_same_whole_and_in_segments(
        entries: list[tuple[str, str, list[str]]], leading: list[str], segment: int, window: int) -> None:
    # a segment ends only where an entry starts: continuation lines stay with their entry whatever the cut
    text = "".join(f"{line}\n" for line in leading)
    for i, (level, words, more) in enumerate(entries):
        text += f"2026-11-20 10:00:{i % 60:02d},001 [main] {level} com.example.Service - {words}\n"
        text += "".join(f"{line}\n" for line in more)
    with mock.patch.object(parse, "BOUNDARY_LINES", window):
        whole, segmented = _parsed_both_ways(text.encode(), BY_NAME["log4j"], segment=segment)
    assert segmented.schema == whole.schema
    assert segmented.equals(whole)
    assert len(whole) == len(entries) + any(line.strip() for line in leading)  # blank lines alone: no entry
