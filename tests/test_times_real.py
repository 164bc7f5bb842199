"""The time tools and the rules planner's time answers on the loghub samples, each truth computed with pandas from
the sample's structured CSV; and the grounding of the times and durations they state."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from real_logs import real_log
from tool_frames import context, run

from react_engine.answer.check import verify
from react_engine.logs import load
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.tools.clock import spoken

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def _apache() -> tuple[pd.DataFrame, pd.Series]:
    csv = pd.read_csv(real_log("Apache", ".log_structured.csv"))
    return csv, pd.to_datetime(csv["Time"], format="%a %b %d %H:%M:%S %Y", utc=True)


def test_the_longest_silence_in_apache() -> None:
    csv, stamps = _apache()
    ordered = stamps.sort_values(kind="stable")
    gaps = ordered.diff()
    after = gaps.idxmax()
    before = ordered.index[ordered.index.get_loc(after) - 1]
    result = run("gaps", context(load([real_log("Apache")])), n=1)
    assert result.value.recorded()["gaps"][0]["seconds"] == gaps.max().total_seconds()
    assert result.value.recorded()["gaps"][0]["from"] == stamps[before].isoformat()
    lines = sorted(int(csv["LineId"][i]) for i in (before, after))
    assert [int(line) for line in load([real_log("Apache")]).loc[result.evidence, "line"]] == lines


def test_rules_answer_the_time_questions_on_apache() -> None:
    csv, stamps = _apache()
    errors = csv["Level"] == "error"
    last = csv[errors].assign(t=stamps[errors]).sort_values("t", kind="stable").iloc[-1]
    frame = load([real_log("Apache")])
    engine = Engine(RulesPlanner())
    result = engine.ask("show the last error", [str(real_log("Apache"))], frame=frame)
    assert [e.line for e in result.evidence] == [int(last["LineId"])] and result.verified
    result = engine.ask("What was the longest silence between two lines?", [str(real_log("Apache"))], frame=frame)
    longest = stamps.sort_values().diff().max().total_seconds()
    assert spoken(longest) in result.answer and result.verified and result.value["seconds"] == longest
    first = stamps[errors].min()
    result = engine.ask("When did errors start?", [str(real_log("Apache"))], frame=frame)
    assert result.value["time"] == first.isoformat() and result.verified


def test_the_last_failed_password_and_the_ssh_session_in_openssh() -> None:
    csv = pd.read_csv(real_log("OpenSSH", ".log_structured.csv"))
    frame = load([real_log("OpenSSH")])
    failed = csv[csv["Content"].str.contains("Failed password")]
    result = Engine(RulesPlanner()).ask("When was the last failed password?", [str(real_log("OpenSSH"))], frame=frame)
    assert result.value["line"] == int(failed["LineId"].iloc[-1]) and result.verified
    assert result.value["time"].endswith(f"T{failed['Time'].iloc[-1]}+00:00")
    opened = csv[csv["Content"].str.contains("session opened")]
    closed = csv[csv["Content"].str.contains("session closed")]
    pairs = opened.merge(closed, on="Pid", suffixes=("_open", "_close"))
    expected = (pd.to_timedelta(pairs["Time_close"]) - pd.to_timedelta(pairs["Time_open"])).dt.total_seconds()
    result = run("durations", context(frame), start="session opened", end="session closed", key="pid")
    assert result.value.recorded()["count"] == len(pairs) and result.value.recorded()["mean_seconds"] == expected.mean()
    asked = Engine(RulesPlanner()).ask("how long were SSH sessions", [str(real_log("OpenSSH"))], frame=frame)
    assert asked.value["count"] == len(pairs) and asked.value["mean_seconds"] == expected.mean() and asked.verified
    assert spoken(expected.max()) in asked.answer and f"pid {pairs['Pid'].iloc[0]}" in asked.answer


def test_when_a_host_stopped_logging() -> None:
    frame = load([SAMPLES / "cmts"])
    result = Engine(RulesPlanner()).ask("when did host NYBRK03T01 stop logging", [str(SAMPLES / "cmts")], frame=frame)
    own = frame.loc[frame["host"] == "NYBRK03T01", "timestamp"]
    assert result.value["time"] == own.max().isoformat() and result.verified
    assert spoken((frame["timestamp"].max() - own.max()).total_seconds()) in result.answer


@pytest.mark.parametrize(("answer", "verified"), [
    ("The longest silence is 4 h 17 min 14 s, from 2005-12-04T20:47:17 to 2005-12-05T01:04:31.", True),
    ("The longest silence is 15,434 seconds.", True),
    ("The longest silence is 4 h 18 min.", False),
    ("The longest silence ended at 2005-12-05T02:04:31.", False),
])
def test_stated_times_and_durations_are_those_computed(answer: str, verified: bool) -> None:
    computed = {"rows": 2000, "gaps": [{"seconds": 15434, "from": "2005-12-04T20:47:17+00:00",
                                        "to": "2005-12-05T01:04:31+00:00"}]}
    assert verify(answer, None, [computed], "What was the longest silence?").verified is verified
