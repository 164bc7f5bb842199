"""Statistics asked in an operator's words: groups named as the log writes them, misspelt and superlative
statistic words, durations the lines write."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from question_frames import ask, frame

from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from tests.real_logs import real_log

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "sample_logs" / "app" / "app.jsonl"


def test_a_statistic_by_level_names_the_levels_as_the_log_writes_them() -> None:
    rows = [json.loads(line) for line in APP.read_text().splitlines()]
    by_level: dict[str, list[int]] = {}
    for row in rows:
        by_level.setdefault(row["level"], []).append(row["latency_ms"])
    result = Engine(RulesPlanner()).ask("avg latency_ms by level", [str(APP)])
    assert result.verified and isinstance(result.value, dict)
    assert set(result.value) == set(by_level)
    for level, values in by_level.items():
        assert result.value[level] == pytest.approx(sum(values) / len(values), rel=1e-5)
    assert "by level:" in result.answer


@pytest.mark.parametrize(("question", "func"), [("avrage latency_ms", "mean"), ("meadian latency_ms", "median"),
                                                ("maximim latency_ms", "max")])
def test_a_misspelt_statistic_word_is_read_as_the_statistic(question: str, func: str) -> None:
    latencies = sorted(json.loads(line)["latency_ms"] for line in APP.read_text().splitlines())
    n = len(latencies)
    truth = {"mean": sum(latencies) / n, "max": latencies[-1],
             "median": (latencies[(n - 1) // 2] + latencies[n // 2]) / 2}[func]
    result = Engine(RulesPlanner()).ask(question, [str(APP)])
    assert result.verified and not result.partial and result.value == pytest.approx(truth, rel=1e-5)


@pytest.mark.parametrize(("system", "question", "pattern", "scale", "func"), [
    ("Mac", "longest earlyWake time?", r"earlyWake - complete - took (\d+) milliseconds", 0.001, max),
    ("OpenStack", "longest time to build an instance?", r"Took ([\d.]+) seconds to build instance", 1, max),
    ("OpenStack", "shortest time to build an instance", r"Took ([\d.]+) seconds to build instance", 1, min)])
def test_the_longest_or_shortest_time_of_something_is_the_extreme_of_the_time_its_lines_write(
        system: str, question: str, pattern: str, scale: float, func: object) -> None:
    path = real_log(system)
    times = [float(n) * scale for n in re.findall(pattern, path.read_text(errors="replace"))]
    result = Engine(RulesPlanner()).ask(question, [str(path)])
    assert result.verified and result.value == pytest.approx(func(times), rel=1e-5)  # type: ignore[operator]


def test_the_longest_time_between_lines_is_still_a_silence() -> None:
    result = Engine(RulesPlanner()).ask("longest time between two lines?", [str(APP)])
    assert result.verified and isinstance(result.value, dict) and "seconds" in result.value


def _app_times(level: str) -> tuple[list[pd.Timestamp], pd.Timestamp]:
    rows = [json.loads(line) for line in APP.read_text().splitlines()]
    times = [pd.Timestamp(r["ts"]) for r in rows]
    return [t for t, r in zip(times, rows, strict=True) if r["level"] == level], max(times)


@pytest.mark.parametrize("question", ["errors this hour vs the last", "ERROR lines this hour vs the hour before?"])
def test_this_hour_against_the_last_compares_the_clock_hour_with_the_one_before(question: str) -> None:
    errors, newest = _app_times("ERROR")
    start = newest.floor("1h")
    truth = [sum(start <= t <= newest for t in errors), sum(start - pd.Timedelta(hours=1) <= t < start for t in errors)]
    result = Engine(RulesPlanner()).ask(question, [str(APP)])
    assert result.verified and result.value == truth


def test_the_last_hour_against_the_hour_before_that_compares_two_hours_back_from_the_newest_line() -> None:
    errors, newest = _app_times("ERROR")
    hour = pd.Timedelta(hours=1)
    truth = [sum(newest - hour <= t <= newest for t in errors), sum(newest - 2 * hour <= t < newest - hour for t in errors)]
    result = Engine(RulesPlanner()).ask("errors in the last hour vs the hour before that", [str(APP)])
    assert result.verified and result.value == truth


def test_show_them_after_a_question_lists_the_lines_instead_of_counting_them() -> None:
    rows = [json.loads(line) for line in APP.read_text().splitlines()]
    since = pd.Timestamp("2026-11-20T15:30:00Z")
    wanted = [n for n, r in enumerate(rows, 1) if r["level"] == "ERROR" and pd.Timestamp(r["ts"]) >= since]
    assert 0 < len(wanted) <= 5
    result = Engine(RulesPlanner()).ask("any ERROR lines since 15:30 on Nov 20? show them", [str(APP)])
    assert result.verified and all(f"app.jsonl:{n} " in result.answer for n in wanted)


@pytest.mark.parametrize(("question", "user", "share"), [("how many lines from alice", "alice", False),
                                                         ("how many lines are from user carol?", "carol", False),
                                                         ("how many lines with user=dave", "dave", False),
                                                         ("what share of lines are from user carol?", "carol", True)])
def test_a_user_the_rows_hold_in_a_user_column_filters_on_it(question: str, user: str, share: bool) -> None:
    rows = [json.loads(line) for line in APP.read_text().splitlines()]
    theirs = sum(r["user"] == user for r in rows)
    result = Engine(RulesPlanner()).ask(question, [str(APP)])
    assert result.verified and result.value == pytest.approx(100 * theirs / len(rows) if share else theirs)


@pytest.mark.parametrize(("question", "first", "second"), [("DHCPDISCOVER vs DHCPREQUEST", "DHCPDISCOVER", "DHCPREQUEST"),
                                                           ("compare DHCPOFFER with DHCPDISCOVER", "DHCPOFFER",
                                                            "DHCPDISCOVER")])
def test_two_words_compared_need_not_meet_on_one_line(question: str, first: str, second: str) -> None:
    path = real_log("Thunderbird")
    lines = path.read_text(errors="replace").splitlines()
    truth = [sum(first in line for line in lines), sum(second in line for line in lines)]
    result = Engine(RulesPlanner()).ask(question, [str(path)])
    assert result.verified and result.value == truth


@pytest.mark.parametrize(("system", "question", "pattern"), [
    ("Spark", "how many blocks were stored as values in memory?", r"Block \S+ stored as values in memory"),
    ("HPC", "ClusterFileSystem no server lines?", r"ClusterFileSystem: There is no server for"),
    ("Thunderbird", "how many usb hid lines?", r"(?i)usb hid"),  # not "usbcore: ... driver hiddev"
    ("Mac", "how many network changed lines?", r"(?i)network changed")])  # not "networkd[195]: ... changed"
def test_words_the_log_writes_as_one_phrase_are_searched_as_it(system: str, question: str, pattern: str) -> None:
    path = real_log(system)
    truth = len(re.findall(pattern, path.read_text(errors="replace")))
    result = Engine(RulesPlanner()).ask(question, [str(path)])
    assert result.verified and result.value == truth


def test_a_field_asked_for_is_not_part_of_a_phrase_searched() -> None:
    path = real_log("Proxifier")
    truth = sum(int(n) for n in re.findall(r"(\d+) bytes (?:\([^)]*\) )?received", path.read_text(errors="replace")))
    result = Engine(RulesPlanner()).ask("total bytes received?", [str(path)])
    assert result.verified and result.value == truth


@pytest.mark.parametrize(("question", "func"), [("what is the smallest block size received?", min),
                                                ("what was the largest block size received?", max)])
def test_what_is_the_superlative_of_a_field_the_kind_names_is_its_statistic(question: str, func: Any) -> None:
    """"the smallest block size": the size of blocks, not the block ranked first by its lines."""
    sizes = [67108864, 3538321, 9000000]
    lines = [f"Received block blk_{i} of size {s} from /10.0.0.{i}" for i, s in enumerate(sizes)]
    lines += ["PacketResponder 1 for block blk_0 terminating"]
    result = ask(question, frame(lines))
    assert result.value == func(sizes) and result.verified, result.answer


@pytest.mark.parametrize(("question", "func"), [("what is the minimum port for root when failed password?", min),
                                                ("what is the maximum port for root when failed password?", max),
                                                ("what is the minimum port for admin?", min)])
def test_what_is_the_minimum_of_a_kind_is_the_statistic_of_its_numbers(question: str, func: Any) -> None:
    """"The minimum port": the smallest port number, not the port with the fewest lines (nor, after "when", the
    time of the first line)."""
    ports = {"root": [5000, 41000, 2222], "admin": [6000, 3000]}
    lines = [f"Failed password for {user} from 10.0.0.{i} port {p} ssh2" for user, ps in ports.items()
             for i, p in enumerate(ps)] + ["Accepted password for root from 10.0.0.9 port 1000 ssh2"]
    user = "admin" if "admin" in question else "root"
    result = ask(question, frame(lines))
    assert result.value == func(ports[user]) and result.verified, result.answer
