"""`never_seen`: the values of a field on one event's lines that never come up on another's, checked against plain
Python sets over generated frames and against pandas over a real sshd log."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_logs import real_log
from tool_frames import WORDS, context, frame, frames, run

from react_engine.errors import ToolError
from react_engine.logs.options import LoadOptions
from react_engine.loop.frames import FrameCache

FAST = settings(max_examples=60, deadline=None)
TEXTS = st.sampled_from([w for w in WORDS if "\n" not in w] + [""])


def _on(df: pd.DataFrame, text: str, field: str) -> list[tuple[int, str]]:
    """(label, value) of `field` on the rows whose line holds `text` in any case, in line order."""
    hit = [label for label, line in zip(df.index, df["raw"]) if text.lower() in line.lower()]
    return [(label, df.at[label, field]) for label in hit if not pd.isna(df.at[label, field])]


@FAST
@given(df=frames(), seen=TEXTS, never=TEXTS.filter(bool), field=st.sampled_from(["host", "component", "pid"]),
       n=st.integers(1, 5))
def test_the_values_never_on_the_other_lines_by_their_first_line(df: pd.DataFrame, seen: str, never: str,
                                                                   field: str, n: int) -> None:
    on, off = _on(df, seen, field), {v for _, v in _on(df, never, field)}  # the other event on every line
    first: dict[str, int] = {}
    for label, v in on:
        first.setdefault(v, label)
    left = [(v, label) for v, label in first.items() if v not in off]
    rows = df.loc[[label for label, line in zip(df.index, df["raw"]) if seen.lower() in line.lower()]]
    result = run("never_seen", context(df, rows), field=field, never=never, n=n)
    recorded = result.value.recorded()
    assert recorded["count"] == len(left) and recorded["seen"] == len(first)
    assert recorded["values"] == [v for v, _ in left[:n]]
    assert result.evidence is not None and list(result.evidence) == [label for _, label in left[:n]]


def test_addresses_that_failed_but_were_never_accepted_in_a_real_sshd_log() -> None:
    path = real_log("OpenSSH")
    structured = pd.read_csv(real_log("OpenSSH", ".log_structured.csv"))
    text = structured["Content"]
    failed = set(text.str.extract(r"^Failed password for .* from ([\d.]+) port", expand=False).dropna())
    accepted = set(text.str.extract(r"^Accepted password for .* from ([\d.]+) port", expand=False).dropna())
    df = FrameCache(LoadOptions(use_cache=False, year=2026)).get([str(path)])
    assert df is not None
    ctx = context(df)
    ctx.rows = run("search_logs", ctx, value="Failed password").rows
    result = run("never_seen", ctx, field="ip", never="Accepted password")
    assert result.value.recorded()["count"] == len(failed - accepted) > 0
    assert set(result.value.recorded()["values"]) <= failed - accepted


BLOCKS = st.lists(st.tuples(st.sampled_from(["Received block", "Deleting block", "Verified block"]),
                            st.integers(-3, 6)), min_size=1, max_size=20)


@FAST
@given(events=BLOCKS)
def test_a_pattern_reads_the_values_on_the_other_lines_too(events: list[tuple[str, int]]) -> None:
    df = frame([{"message": f"{what} blk_{n} of 64 MB"} for what, n in events])
    ctx = context(df)
    ctx.rows = run("search_logs", ctx, value="Received block").rows
    found = run("extract_entities", ctx, types=[], pattern=r"\b(blk_-?\d+)", name="block")
    ctx.entities = found.entities or {}
    deleted = {f"blk_{n}" for what, n in events if what.startswith("Deleting")}
    received = list(dict.fromkeys(f"blk_{n}" for what, n in events if what.startswith("Received")))
    result = run("never_seen", ctx, field="block", never="deleting block", pattern=r"\b(blk_-?\d+)", n=100)
    assert result.value.recorded()["values"] == [b for b in received if b not in deleted]


def test_the_other_lines_may_be_named_by_their_level_alone() -> None:
    df = frame([{"message": "up", "host": "a"}, {"message": "up", "host": "b"},
                {"message": "core dump", "host": "b", "level": ("FATAL", "critical")},
                {"message": "fatal word but INFO", "host": "a", "level": ("INFO", "info")},
                {"message": "up", "host": "c"}])
    result = run("never_seen", context(df), field="host", never_level="FATAL")
    assert result.value.recorded() == {"field": "host", "count": 2, "seen": 3, "values": ["a", "c"]}
    assert list(result.evidence) == [100, 104]
    with pytest.raises(ToolError):
        run("never_seen", context(df), field="host")
