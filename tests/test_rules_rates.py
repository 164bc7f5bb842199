"""Rates: "average number of errors per hour", "peak requests per minute", "max failed logins in any hour" are the
statistic of the matching lines counted per time bucket, over every bucket of their span (the empty ones 0), stated
with the buckets and the lines counted; the expected values are computed with pandas over the raw lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from react_engine.contract.record import RunResult
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from tests.real_logs import real_log

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "sample_logs" / "app"


def _ask(question: str, path: Path) -> RunResult:
    return Engine(RulesPlanner()).ask(question, [str(path)])


def _per_bucket(stamps: pd.Series, freq: str) -> pd.Series:
    """Rows per bucket over every bucket from the first row's to the last's."""
    buckets = stamps.dt.floor(freq)
    return buckets.value_counts().reindex(pd.date_range(buckets.min(), buckets.max(), freq=freq), fill_value=0)


def _app_errors() -> pd.Series:
    records = [json.loads(line) for line in (APP / "app.jsonl").read_text().splitlines() if line.strip()]
    return pd.to_datetime(pd.Series([r["ts"] for r in records if r["level"] == "ERROR"]), utc=True)


def _failed_passwords() -> pd.Series:
    """The times of OpenSSH's "Failed password" lines (the log has no year: the engine's, the newest's, is 2025)."""
    lines = real_log("OpenSSH").read_text(errors="replace").splitlines()
    stamps = [line[:15] for line in lines if "Failed password" in line]
    return pd.to_datetime(pd.Series(stamps).radd("2025 "), format="%Y %b %d %H:%M:%S", utc=True)


@pytest.mark.parametrize(("question", "func"), [("what is the average number of errors per hour?", "mean"),
                                                ("avrage nubmer of erors per hour", "mean"),
                                                ("median errors per hour", "median"),
                                                ("what's the max number of errors in any hour?", "max")])
def test_errors_per_hour_on_the_app_log(question: str, func: str) -> None:
    hourly = _per_bucket(_app_errors(), "1h")
    result = _ask(question, APP)
    assert result.verified and not result.partial, result.answer
    assert result.value == pytest.approx(getattr(hourly, func)(), rel=1e-5)
    assert f"over {len(hourly)} hours" in result.answer and f"{hourly.sum()} errors in all" in result.answer


def test_the_busiest_minute_of_a_peak_is_named() -> None:
    minutes = _per_bucket(_app_errors(), "1min")
    result = _ask("peak errors per minute", APP)
    assert result.verified and result.value == minutes.max()
    assert minutes.idxmax().isoformat() in result.answer


def test_a_rate_per_key_gives_each_group_over_the_same_hours() -> None:
    records = pd.DataFrame([json.loads(line) for line in (APP / "app.jsonl").read_text().splitlines()])
    errors = records[records.level == "ERROR"].assign(ts=lambda d: pd.to_datetime(d.ts, utc=True))
    hours = len(_per_bucket(errors.ts, "1h"))
    expected = (errors.groupby("logger").size() / hours).to_dict()
    result = _ask("average errors per hour per logger", APP)
    assert result.verified and result.value.keys() == expected.keys()
    assert all(result.value[k] == pytest.approx(v, rel=1e-5) for k, v in expected.items())


def test_failed_passwords_per_hour_on_openssh_are_a_rate_not_a_number_the_lines_carry() -> None:
    """Only the "message repeated 5 times: [ Failed password ...]" lines carry a number near those words: the rate
    counts the lines instead."""
    hourly = _per_bucket(_failed_passwords(), "1h")
    for question in ("average failed passwords per hour", "average number of failed logins per hour?"):
        result = _ask(question, real_log("OpenSSH"))
        assert result.verified and result.value == pytest.approx(hourly.mean(), rel=1e-5), result.answer
        assert f"over {len(hourly)} hours" in result.answer
    result = _ask("what's the max number of failed logins in any hour", real_log("OpenSSH"))
    assert result.verified and result.value == hourly.max() and hourly.idxmax().strftime("%m-%dT%H:00") in result.answer


def test_requests_per_second_on_the_access_log() -> None:
    text = (ROOT / "sample_logs" / "nginx" / "access.log").read_text()
    stamps = pd.to_datetime(pd.Series(re.findall(r"\[([^\]]+)\]", text)), format="%d/%b/%Y:%H:%M:%S %z", utc=True)
    seconds = _per_bucket(stamps, "1s")
    result = _ask("how many requests per second on average", ROOT / "sample_logs" / "nginx")
    assert result.verified and result.value == pytest.approx(seconds.mean(), rel=1e-5), result.answer
    assert f"over {len(seconds):,} seconds" in result.answer
