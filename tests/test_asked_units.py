"""A statistic asked in a unit ("in milliseconds", "in minutes", "in MB") is given in it, its number the one the
tool computed and the check verifies; a unit of another kind than the field's is refused saying so. Truths are
computed with pandas and regexes over the same lines, converted by hand-written factors."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from question_frames import ask, frame
from real_logs import real_log
from tool_frames import context, run
from tool_frames import frame as tool_frame

from react_engine.errors import ToolError
from react_engine.logs import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner

TIMES = {"ms": 1e-3, "s": 1.0, "minutes": 60.0, "hours": 3600.0}  # seconds in each
SIZES = {"bytes": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}  # bytes in each
ASKED = {"ms": ["ms", "milliseconds", "millisecond"], "s": ["seconds", "secs"], "minutes": ["minutes", "mins"],
         "hours": ["hours", "hrs"], "bytes": ["bytes"], "KB": ["KB", "kilobytes"], "MB": ["MB", "megabytes"],
         "GB": ["GB", "gigabytes"]}


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-5 * abs(b) + 1e-12


@settings(max_examples=60, deadline=None)
@given(ms=st.lists(st.integers(0, 10**7), min_size=1, max_size=20), unit=st.sampled_from(sorted(TIMES)),
       func=st.sampled_from(["mean", "max", "min", "median"]))
def test_a_duration_is_converted_into_the_unit_asked(ms: list[int], unit: str, func: str) -> None:
    ctx = context(tool_frame([{"message": f"request done latency: {n} ms"} for n in ms]))
    result = run("field_stats", ctx, field="latency", func=func, unit=unit)
    truth = getattr(pd.Series(ms, dtype=float) / 1000, func)() / TIMES[unit]
    assert result.value.unit == unit and _close(result.value.value, truth)


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(0, 10**12), min_size=1, max_size=20), unit=st.sampled_from(sorted(SIZES)))
def test_a_size_is_converted_into_the_unit_asked(sizes: list[int], unit: str) -> None:
    ctx = context(tool_frame([{"message": f"transfer done, {n} bytes sent"} for n in sizes]))
    result = run("field_stats", ctx, field="bytes sent", func="sum", unit=unit)
    assert result.value.unit == unit and _close(result.value.value, sum(sizes) / SIZES[unit])


@pytest.mark.parametrize(("message", "field", "unit"), [("latency: 5 ms", "latency", "MB"),
                                                        ("12 bytes sent", "bytes sent", "minutes")])
def test_a_unit_of_another_kind_is_refused_saying_what_the_field_is(message: str, field: str, unit: str) -> None:
    ctx = context(tool_frame([{"message": message}] * 3))
    with pytest.raises(ToolError, match=f"cannot be given in {unit}"):
        run("field_stats", ctx, field=field, func="mean", unit=unit)


@settings(max_examples=25, deadline=None)
@given(ms=st.lists(st.integers(1, 10**6), min_size=2, max_size=12), unit=st.sampled_from(sorted(TIMES)),
       data=st.data())
def test_the_answer_states_the_value_in_the_unit_asked_and_is_verified(ms: list[int], unit: str,
                                                                       data: st.DataObject) -> None:
    word = data.draw(st.sampled_from(ASKED[unit]))
    result = ask(f"average latency in {word}?", frame([f"request done latency: {n} ms" for n in ms]))
    truth = sum(ms) / len(ms) / 1000 / TIMES[unit]
    assert result.verified and not result.partial
    assert _close(float(result.value), truth)
    assert re.search(rf"\b{re.escape(unit)}\b", result.answer)


@pytest.mark.parametrize("unit", ["MB", "gigabytes"])
def test_a_duration_asked_in_a_size_is_not_answered(unit: str) -> None:
    result = ask(f"average latency in {unit}?", frame([f"request done latency: {n} ms" for n in (5, 7, 9)]))
    assert not result.verified and result.value is None and "duration" in result.answer


def test_earlywake_on_the_mac_log_is_given_in_the_milliseconds_asked() -> None:
    path = real_log("Mac")
    taken = [int(m.group(1)) for line in path.read_text(errors="replace").splitlines()
             if (m := re.search(r"earlyWake - complete - took (\d+) milliseconds", line))]
    result = Engine(RulesPlanner()).ask("average earlyWake time in milliseconds?", [str(path)],
                                        load_options=LoadOptions(use_cache=False, year=2026))
    assert result.verified and _close(float(result.value), sum(taken) / len(taken))
    assert " ms " in result.answer
