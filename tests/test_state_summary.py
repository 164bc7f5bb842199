"""Row summaries: the whole-frame shortcut gives what the general path gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from real_logs import real_log

from react_engine.logs import load
from react_engine.logs.options import LoadOptions
from react_engine.rows.rowstats import FrameStats

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
    from react_engine.loop.state import RunState

    frame = load(SAMPLES / "cmts", LoadOptions(year=2026, use_cache=False))
    frame.loc[frame.index[:3], "host"] = None
    known = RunState("q", frame, None).known_values()
    assert known == {col: sorted(frame[col].dropna().astype(str).unique()) for col in ("host", "component")}
    assert known["host"]


@given(st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "c", "d", "node-1", ""])), max_size=60))
def test_codes_count_values_as_value_counts_does(values: list[str | None]) -> None:
    from react_engine.rows.rowstats import Codes

    series = pd.Series(values, dtype="str")
    counted, expected = Codes(series).value_counts(), series.value_counts()
    assert list(counted.index) == list(expected.index)  # ties in the same order
    assert counted.tolist() == expected.tolist()


@pytest.mark.parametrize("system", ["BGL", "Thunderbird", "HDFS"])
def test_the_run_vocabulary_is_the_one_built_from_the_frame(system: str) -> None:
    from react_engine.loop.state import RunState
    from react_engine.question import Vocabulary

    frame = load(real_log(system), LoadOptions(year=2026, use_cache=False))
    built, reused = Vocabulary.build(frame).values, RunState("q", frame, None).vocabulary().values
    assert list(built) == list(reused)
    assert all(list(built[column].items()) == list(reused[column].items()) for column in built)
    assert any(len(names) > 1 for names in built.values())


@given(st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "c"])), min_size=1, max_size=40), st.data())
def test_the_mix_of_any_rows_counts_each_value_and_the_missing_ones(values: list[str | None], data: st.DataObject
                                                                     ) -> None:
    from react_engine.rows.rowstats import Codes

    series = pd.Series(values, dtype="str")
    picked = sorted(data.draw(st.sets(st.integers(0, len(values) - 1))))
    codes = Codes(series)
    for positions in (slice(None), np.array(picked, dtype=np.int64), slice(None)):  # the whole column twice
        rows = series.iloc[positions]
        expected = {str(k): int(v) for k, v in rows.value_counts().items()}
        missing = int(rows.isna().sum())
        assert codes.mix(positions) == expected | ({"missing": missing} if missing else {})


def test_questions_over_one_frame_share_what_is_worked_out_about_it_and_other_frames_do_not() -> None:
    from react_engine.loop.state import RunState

    frame = load(SAMPLES / "cmts", LoadOptions(year=2026, use_cache=False))
    first, second = RunState("q", frame, None), RunState("another q", frame, None)
    assert second.stats is first.stats and second.vocabulary() is first.vocabulary()
    assert first.vocabulary().rows == len(frame)
    for other in (frame.iloc[:10], frame.copy(), frame[frame["severity"] == "critical"]):  # derived frames
        own = RunState("q", other, None)
        assert own.stats is not first.stats and own.vocabulary() is not first.vocabulary()
        assert own.vocabulary().rows == len(other)
