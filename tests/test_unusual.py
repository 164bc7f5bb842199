"""The unusual tool (time buckets beyond median +/- 3 MAD, a field's values that rose) and the lines before an event,
on frames with a planted spike, a planted rise and a planted precursor."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.tools import REGISTRY, ToolContext
from react_engine.tools.timeline import PrecedingParams
from tests.tool_frames import context, frame

START = pd.Timestamp("2026-01-01", tz="UTC")


def _frame(rows: list[tuple[int, str, str]]) -> pd.DataFrame:
    """(minute, host, message) rows, in time order, as a loaded frame has them."""
    rows = sorted(rows)
    frame = pd.DataFrame({"timestamp": [START + pd.Timedelta(minutes=m) for m, _, _ in rows],
                          "host": [h for _, h, _ in rows], "message": [x for _, _, x in rows],
                          "source": "x.log", "line": range(1, len(rows) + 1)})
    return frame


def _run(name: str, frame: pd.DataFrame, **params: object) -> dict:
    tool = REGISTRY[name]
    return tool.run(tool.params(**params), ToolContext(frame=frame, rows=frame, now=START)).value.recorded()


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(20, 60), st.integers(0, 59))
def test_a_planted_spike_is_the_unusual_bucket(base: int, spike: int, at: int) -> None:
    rows = [(hour * 60 + i, "a", f"tick {i}") for hour in range(60) for i in range(base)]
    rows += [(at * 60 + 1, "a", f"burst {i}") for i in range(spike)]
    value = _run("unusual", _frame(rows))
    assert value["median"] == base and value["mad"] == 0
    assert value["rows"] == [[(START + pd.Timedelta(hours=at)).isoformat(), base + spike, float(spike)]]
    assert "median" in value["method"] and "MAD" in value["method"]


def test_a_host_whose_lines_rose_after_the_split_leads() -> None:
    rows = [(m, "steady", "ok 1") for m in range(0, 100, 2)]
    rows += [(m, "rising", "error 7") for m in range(60, 100)] + [(10, "rising", "error 7")]
    value = _run("unusual", _frame(rows), field="host")
    assert value["columns"] == ["host", "before", "after", "change"]
    assert value["rows"][0] == ["rising", 1, 40, 39]


def test_the_lines_before_an_event_on_its_host_are_grouped_by_pattern() -> None:
    rows = [(m, "h1", f"heartbeat {m}") for m in range(0, 40)]
    rows += [(m, "h2", f"disk {m} nearly full") for m in (50, 51, 52)] + [(53, "h2", "disk failure on sda")]
    rows += [(54, "h1", "disk failure on sdb")]
    value = _run("preceding", _frame(rows), value="disk failure", each=True)
    assert value["occurrences"] == 2
    counts = {r[3]: r[0] for r in value["rows"]}
    assert counts == {"disk <*> nearly full": 3, "heartbeat <*>": 5}
    assert "context, not a diagnosis" in value["method"]


def test_lines_of_no_template_before_a_value_are_counted_but_show_no_pattern() -> None:
    df = frame([{"message": None, "level": ("ERROR", "error")}, {"message": "timeout", "level": ("ERROR", "error")}])
    result = REGISTRY["preceding"].run(PrecedingParams(value="timeout"), context(df))
    assert result.value.recorded()["lines_before"] == 1 and result.value.recorded()["rows"] == []  # no message: no template
