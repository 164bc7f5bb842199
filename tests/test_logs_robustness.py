"""Bad input never crashes: arbitrary bytes and lines load, and single-line formats keep one row per line."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from react_engine.errors import InputError
from react_engine.logs import LoadOptions, load
from react_engine.logs.formats import REGISTRY
from react_engine.logs.formats.headed import W3C, ZEEK

# Zeek and W3C read their `#` header lines (and W3C its blank lines) as the file's metadata, not rows.
SINGLE_LINE = [fmt.name for fmt in REGISTRY if not fmt.multiline and fmt not in (ZEEK, W3C)]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# Text lines: any printable character, tabs and the odd escape (raw control bytes are covered by the bytes test).
LINE = st.text(
    st.one_of(st.characters(blacklist_categories=("Cs", "Cc")), st.sampled_from("\t\x1b")), max_size=120
)
SYSLOGISH = st.builds(
    lambda day, host, prog, msg: f"Nov {day:2d} 10:00:0{day % 10} {host} {prog}: {msg}",
    st.integers(1, 31), st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True), st.from_regex(r"[a-z]{1,6}", fullmatch=True),
    LINE,
)


def _expected_lines(lines: list[str]) -> list[str]:
    """What `"\\n".join(lines)` reads back as: a final terminator does not start another line."""
    content = "\n".join(lines)
    parts = content.split("\n")
    return parts[:-1] if parts[-1] == "" else parts


def _write(data: bytes) -> Path:
    with tempfile.NamedTemporaryFile(suffix=".log", delete=False) as handle:
        handle.write(data)
    return Path(handle.name)


@SETTINGS
@given(st.binary(max_size=2000))
def test_any_bytes_load_or_fail_cleanly(data: bytes) -> None:
    path = _write(data)
    try:
        frame = load(path, LoadOptions(use_cache=False))
    except InputError as error:  # only for binary-looking or compressed-looking content
        assert str(path) in str(error)
        return
    finally:
        path.unlink()
    assert frame["line"].is_monotonic_increasing
    assert frame["raw"].notna().all()


@SETTINGS
@example([""], "dpkg")  # no line matched, so no column of the format's groups exists
@given(st.lists(LINE, min_size=1, max_size=40), st.sampled_from(SINGLE_LINE))
def test_single_line_formats_keep_one_row_per_line(lines: list[str], format_name: str) -> None:
    path = _write("\n".join(lines).encode("utf-8"))
    try:
        frame = load(path, LoadOptions(format=format_name, use_cache=False))
    finally:
        path.unlink()
    expected = _expected_lines(lines)
    assert len(frame) == len(expected)
    assert frame["line"].tolist() == list(range(1, len(expected) + 1))
    assert frame["raw"].tolist() == expected


@SETTINGS
@given(st.lists(st.one_of(SYSLOGISH, LINE), min_size=1, max_size=40))
def test_detected_format_keeps_every_line(lines: list[str]) -> None:
    path = _write("\n".join(lines).encode("utf-8"))
    try:
        frame = load(path, LoadOptions(use_cache=False))
    finally:
        path.unlink()
    expected = _expected_lines(lines)
    if frame.attrs["files"][0]["format"] not in SINGLE_LINE and "\n".join(frame["raw"]) != "\n".join(expected):
        expected = expected[next(i for i, line in enumerate(expected) if line.strip()):]  # blank lines before the
        # first entry are the only lines a multi-line format drops
    assert "\n".join(frame["raw"]) == "\n".join(expected)  # multi-line formats join lines, never drop any
    assert frame["line"].tolist()[:1] == ([len(_expected_lines(lines)) - len(expected) + 1] if expected else [])
