"""Row summaries: the whole-frame shortcut gives what the general path gives."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from react_engine.logs import load
from react_engine.logs.options import LoadOptions
from react_engine.state import FrameStats

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


@pytest.mark.parametrize("folder", ["cmts", "syslog"])
def test_whole_frame_summary_matches_the_general_path(folder: str) -> None:
    frame = load(SAMPLES / folder, LoadOptions(year=2026, use_cache=False))
    stats = FrameStats(frame)
    whole = stats.summary(frame, 3)
    assert whole == stats.summary(frame.iloc[: len(frame)], 3)  # same rows, another object
    shuffled = frame.sample(frac=1.0, random_state=1)
    assert whole.severity_mix == stats.summary(shuffled, 3).severity_mix
    assert sum(whole.severity_mix.values()) == len(frame)
    assert whole.time_range[0] == frame["timestamp"].min().strftime("%Y-%m-%dT%H:%M:%SZ")
    assert pd.notna(frame["timestamp"]).any()


def test_known_values_are_the_distinct_hosts_and_components() -> None:
    from react_engine.state import RunState

    frame = load(SAMPLES / "cmts", LoadOptions(year=2026, use_cache=False))
    frame.loc[frame.index[:3], "host"] = None
    known = RunState("q", frame, None).known_values()
    assert known == {col: sorted(frame[col].dropna().astype(str).unique()) for col in ("host", "component")}
    assert known["host"]
