"""The time anchor: the newest log time, with lines dated far beyond the rest left out (and said), and shown in the
answer when relative time is used."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from tool_frames import context, frame, run

from react_engine import Engine
from react_engine.logs.options import LoadOptions
from react_engine.loop.anchor import anchor
from react_engine.planners.rules import RulesPlanner

FAST = settings(max_examples=60, deadline=None)
ACCESS = Path(__file__).resolve().parents[1] / "sample_logs" / "nginx" / "access.log"
START = pd.Timestamp("2026-11-20T00:00Z")


def _stamps(minutes: list[int]) -> pd.DataFrame:
    return pd.DataFrame({"timestamp": pd.Series([START + pd.Timedelta(minutes=m) for m in minutes],
                                                dtype="datetime64[ns, UTC]")})


@given(minutes=st.lists(st.integers(0, 60 * 24 * 90), min_size=100, max_size=300),
       planted=st.lists(st.integers(2100, 2250), min_size=1, max_size=2))
@FAST
def test_lines_dated_far_beyond_the_rest_do_not_move_the_anchor(minutes: list[int], planted: list[int]) -> None:
    frame_ = _stamps(minutes)
    future = pd.Series([pd.Timestamp(f"{year}-01-01T00:00Z") for year in planted], dtype="datetime64[ns, UTC]")
    frame_ = pd.concat([frame_, pd.DataFrame({"timestamp": future})], ignore_index=True)
    found = anchor(frame_, None)
    assert found.now == START + pd.Timedelta(minutes=max(minutes))
    assert found.left_out is not None
    assert f"{len(planted)} line{'s' if len(planted) > 1 else ''} dated after" in found.left_out
    assert max(future).isoformat() in found.left_out


@given(minutes=st.lists(st.integers(0, 60 * 24 * 360), min_size=1, max_size=300))  # within OUTLIER_MARGIN
@FAST
def test_without_outliers_the_anchor_is_the_newest_time(minutes: list[int]) -> None:
    found = anchor(_stamps(minutes), None)
    assert found.now == START + pd.Timedelta(minutes=max(minutes)) and found.left_out is None
    assert found.basis == "the newest log time"


def test_now_given_is_the_anchor() -> None:
    found = anchor(_stamps([0, 5]), "2026-11-21T00:00Z")
    assert found.now == pd.Timestamp("2026-11-21T00:00Z") and "--now" in found.basis


def test_a_relative_time_filter_notes_the_anchor() -> None:
    df = frame([{"message": str(i)} for i in range(5)])
    ctx = context(df, now_basis="the newest log time")
    result = run("filter_by_time", ctx, start="now-1h")
    assert result.note == f"now is {ctx.now.isoformat()}, the newest log time"
    assert run("filter_by_time", ctx, start="2026-11-20T10:00Z", end="2026-11-20T11:00Z").note is None


def test_a_planted_line_in_2200_does_not_empty_the_last_hour(tmp_path: Path) -> None:
    lines = ACCESS.read_text().splitlines()
    honest = Engine(RulesPlanner()).ask("how many requests in the last hour?", [str(ACCESS)],
                                        load_options=LoadOptions(use_cache=False))
    planted = tmp_path / "access.log"
    planted.write_text("\n".join([*lines, lines[10].replace("/Nov/2026:", "/Jan/2200:")]) + "\n")
    result = Engine(RulesPlanner()).ask("how many requests in the last hour?", [str(planted)],
                                        load_options=LoadOptions(use_cache=False))
    assert result.value == honest.value and result.verified and result.now == honest.now
    assert any("1 line dated after" in w and "2200-" in w for w in result.warnings)
    assert result.now is not None and result.now.replace("+00:00", "") in result.answer.replace("Z", "")
