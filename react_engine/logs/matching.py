"""Match a format's patterns against lines: one vectorised RE2 pass per pattern, over chunks in threads."""

from __future__ import annotations

import functools
import os
import re
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from re import _parser  # type: ignore[attr-defined]  # Python's own parser; typeshed has no stub for it
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import STRING, blank_to_null, fits_views, null_strings, release_memory, tails
from react_engine.logs.formats.logformat import Columns, OnePass

CHUNK_LINES = 200_000
"""Lines matched at a time, each chunk in a thread."""
_TAIL = "(?P<message>.*)$"
_GROUP_OPENING = re.compile(r"\(\?P<(\w+)>")
HEAD_GROUP = "_head"
ONE_PASS_GROUPS = 4
"""The most groups RE2 captures in a one-pass run."""


def _head_body(pattern: str) -> str | None:
    """The part of a pattern `^...(?P<message>.*)$` before its message."""
    if not (pattern.endswith(_TAIL) and pattern.startswith("^")):
        return None
    return pattern[1 : -len(_TAIL)]


def _captured_head(body: str) -> str:
    return f"^(?P<{HEAD_GROUP}>{body})"


def head_pattern(pattern: str) -> str | None:
    """For a pattern ending in `(?P<message>.*)$`: the same pattern capturing only the part before the
    message (as `_head`). RE2 extracts short captures much faster; the message is then sliced off."""
    body = _head_body(pattern)
    return None if body is None else _captured_head(body)


class Runs(NamedTuple):
    """How a pattern's groups are read: the RE2 runs that capture them (see `_runs`), the groups then sliced from
    each head at their fixed place in it (name, first and end character), and every group's name in its order."""

    patterns: tuple[str, ...]
    sliced: tuple[tuple[str, int, int], ...] = ()
    names: tuple[str, ...] = ()


def _runs(pattern: str, head: bool) -> Runs:
    """The RE2 runs that capture `pattern`'s groups (with `_head` in place of the message when `head`). A
    `OnePass` pattern of more groups than one run captures is read in several: its groups at a fixed place in
    the head (see `_fixed_places`) are sliced from it, the first run captures `_head` and the first other groups,
    each later run the next groups from the first's heads, as many as one-pass RE2 captures in a run."""
    body = _head_body(pattern) if head else None
    if body is None:
        return Runs((pattern,))
    groups = _GROUP_OPENING.findall(body)
    if not isinstance(pattern, OnePass) or len(groups) < ONE_PASS_GROUPS:
        return Runs((_captured_head(body),))
    places = _fixed_places(body)
    captured = [name for name in groups if name not in places]
    first = ONE_PASS_GROUPS - 1  # beside `_head`
    later = range(first, len(captured), ONE_PASS_GROUPS)
    runs = (_captured_head(_capturing(body, captured[:first])),
            *(f"^{_capturing(body, captured[at : at + ONE_PASS_GROUPS])}" for at in later))
    return Runs(runs, tuple((name, *places[name]) for name in groups if name in places), (HEAD_GROUP, *groups))


@functools.cache
def _fixed_places(body: str) -> dict[str, tuple[int, int]]:
    """The named groups of the pattern `body` that begin at a fixed character of every text it matches and match
    a fixed number of characters, as their first and end characters: those after which, from the start, every
    part of `body` has one width (`Mmm dd hh:mm:ss` at the start of syslog's common line). Widths are read with
    Python's parser of regular expressions, whose syntax RE2's patterns here share; none when it cannot read one,
    or when it holds a POSIX class (`[[:digit:]]`, which Python reads as other characters)."""
    if "[:" in body:
        return {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Python's hints on sets it may read otherwise one day
            parsed = _parser.parse(body)
    except (re.error, ValueError, TypeError):
        return {}
    names = {index: name for name, index in parsed.state.groupdict.items()}
    places: dict[str, tuple[int, int]] = {}
    at = 0
    for item in parsed.data:
        low, high = _parser.SubPattern(parsed.state, [item]).getwidth()
        if low != high:
            break
        kind, value = item
        if kind is _parser.SUBPATTERN and value[0] in names:
            places[names[value[0]]] = (at, at + low)
        at += low
    return places


def _capturing(body: str, names: list[str]) -> str:
    """`body` with only the groups `names` capturing (the others are kept as plain groups)."""
    return _GROUP_OPENING.sub(lambda group: group[0] if group[1] in names else "(?:", body)


def _extract(pattern: str, lines: pa.Array, messages: bool = True) -> tuple[Columns, np.ndarray]:
    """Named groups of `pattern` for each line (blank where unmatched) and the mask of matching lines.

    Large inputs are cut into chunks matched in threads (Arrow releases the GIL), so each chunk's
    temporaries are small; the short groups stay chunked (no extra copy), while the message is sliced
    off all lines at once, so that the largest column is one array that later row filters need not join.
    With `messages=False` a pattern ending in its message gives `_head` and no `message` (cut by `parse`).
    """
    results = _extract_chunks(_runs(pattern, fits_views(lines)), lines)
    columns: Columns = {
        name: results[0][0][name] if len(results) == 1 else pa.chunked_array([fields[name] for fields, _ in results])
        for name in results[0][0]
    }
    if HEAD_GROUP in columns and messages:
        columns["message"] = tails(lines, head_bytes(columns[HEAD_GROUP]))
    return columns, np.concatenate([valid for _, valid in results])


def _extract_chunks(runs: Runs, lines: pa.Array) -> list[tuple[Columns, np.ndarray]]:
    """The groups and match mask of each chunk of `lines`, several chunks matched in threads."""
    chunks = [lines.slice(i, CHUNK_LINES) for i in range(0, len(lines), CHUNK_LINES)] or [lines]
    if len(chunks) == 1:
        return [_extract_chunk(runs, lines)]
    with ThreadPoolExecutor(min(os.cpu_count() or 1, len(chunks))) as pool:
        return list(pool.map(lambda chunk: _extract_chunk(runs, chunk), chunks))


def head_bytes(head: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The length in bytes of each line's head (0 where none was captured)."""
    lengths = pc.fill_null(pc.cast(pc.binary_length(head), pa.int64()), 0)
    return lengths.to_numpy()


def _extract_chunk(runs: Runs, lines: pa.Array) -> tuple[Columns, np.ndarray]:
    parts = pc.extract_regex(lines, runs.patterns[0])
    fields = _fields(parts)
    for groups in runs.patterns[1:]:
        fields.update(_fields(pc.extract_regex(fields[HEAD_GROUP], groups)))
    for name, start, stop in runs.sliced:
        fields[name] = blank_to_null(pc.utf8_slice_codeunits(fields[HEAD_GROUP], start, stop))
    if runs.names:
        fields = {name: fields[name] for name in runs.names}
    return fields, parts.is_valid().to_numpy(zero_copy_only=False)


def _fields(parts: pa.StructArray) -> Columns:
    return {parts.type.field(i).name: blank_to_null(parts.field(i)) for i in range(parts.type.num_fields)}


@functools.cache
def _group_names(pattern: str) -> tuple[str, ...]:
    """The named groups of `pattern`, in order (asked of RE2 once per pattern: each segment and file asks again)."""
    fields = pc.extract_regex(pa.array([], STRING), pattern).type
    return tuple(fields.field(i).name for i in range(fields.num_fields))


def match_patterns(patterns: tuple[str, ...], lines: pa.Array, messages: bool = True) -> tuple[Columns, np.ndarray]:
    """Columns from the first pattern matching each line, and the mask of lines any pattern matched.

    Every named group of every pattern tried gets a column (all null where its pattern never matched);
    patterns after the one that completed the match are not tried. `_head` holds the text before the
    message, when every pattern that matched captured it so. `messages=False` (for patterns that all end in
    their message) leaves the message to be cut from the lines by `_head`.
    """
    columns, matched, _ = match_lines(patterns, lines, messages)
    return columns, matched


@dataclass
class Tried:
    """Which patterns were tried on some lines, and which of them read some line first."""

    tried: set[int] = field(default_factory=set)
    hit: set[int] = field(default_factory=set)

    def add(self, other: Tried) -> None:
        self.tried |= other.tried
        self.hit |= other.hit

    def order(self, patterns: tuple[str, ...]) -> list[str]:
        """The columns' order had all those lines been matched at once (see `match_lines`)."""
        names = [name for i in sorted(self.hit) for name in _group_names(head_pattern(patterns[i]) or patterns[i])]
        names += [name for i in sorted(self.tried) for name in _group_names(patterns[i])]
        return list(dict.fromkeys(names))


def match_lines(patterns: tuple[str, ...], lines: pa.Array, messages: bool) -> tuple[Columns, np.ndarray, Tried]:
    """`match_patterns`, and which patterns were tried and read lines."""
    columns: Columns = {}
    matched = np.zeros(len(lines), dtype=bool)
    tried: list[str] = []
    seen = Tried()
    headless = False
    for index, pattern in enumerate(patterns):
        if matched.all() and tried:
            break
        tried.append(pattern)
        seen.tried.add(index)
        parts, valid = _extract(pattern, lines, messages)
        hit = valid & ~matched
        if not hit.any():
            continue
        seen.hit.add(index)
        headless |= HEAD_GROUP not in parts
        mask = pa.array(hit)
        for name, values in parts.items():
            if hit.all():
                columns[name] = values
                continue
            previous = columns.get(name, null_strings(len(lines)))
            columns[name] = pc.if_else(mask, values, previous)
        matched |= hit
    for pattern in tried:
        for name in _group_names(pattern):
            columns.setdefault(name, null_strings(len(lines)))
    if headless:
        columns.pop(HEAD_GROUP, None)
    release_memory()
    return columns, matched, seen
