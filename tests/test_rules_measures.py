"""The rules planner answers statistics, shares, comparisons and breakdowns with numbers the tools computed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner
from react_engine.tools.numeric import plain
from tests.real_logs import real_log

ROOT = Path(__file__).resolve().parents[1]


def _ask(question: str, path: Path) -> tuple[str, object, bool]:
    result = Engine(RulesPlanner()).ask(question, [str(path)])
    return result.answer, result.value, result.verified


def test_average_response_time_on_openstack() -> None:
    path = real_log("OpenStack")
    times = [float(t) for t in re.findall(r"\btime: ([\d.]+)", path.read_text(errors="replace"))]
    answer, value, verified = _ask("What is the average response time?", path)
    assert verified and value == pytest.approx(sum(times) / len(times), abs=1e-6)
    assert f"over {len(times):,} lines" in answer and " s " in answer


def test_total_bytes_sent_on_proxifier() -> None:
    path = real_log("Proxifier")
    truth = sum(int(n) for n in re.findall(r"(\d+) bytes (?:\([^)]*\) )?sent", path.read_text(errors="replace")))
    answer, value, verified = _ask("How many bytes were sent in total?", path)
    assert verified and value == truth and f"{truth:,} bytes" in answer


def test_share_of_warnings_on_hdfs() -> None:
    path = real_log("HDFS")
    lines = path.read_text(errors="replace").splitlines()
    warned = sum(" WARN " in line for line in lines)
    answer, value, verified = _ask("what percentage of lines are warnings", path)
    assert verified and value == pytest.approx(100 * warned / len(lines), abs=1e-4)
    assert f"{warned:,} of {len(lines):,}" in answer


def test_errors_today_against_yesterday() -> None:
    rows = [json.loads(line) for line in (ROOT / "sample_logs/app/app.jsonl").read_text().splitlines()]
    last_day = max(r["ts"] for r in rows)[:10]
    days = sorted({r["ts"][:10] for r in rows})
    before = days[days.index(last_day) - 1]
    errors = [sum(r["level"] == "ERROR" and r["ts"].startswith(d) for r in rows) for d in (last_day, before)]
    answer, value, verified = _ask("errors today vs yesterday", ROOT / "sample_logs/app")
    assert verified and value == errors
    assert f"{errors[0]:,} against yesterday: {errors[1]:,}" in answer


def test_a_statistic_of_a_missing_field_names_the_fields_there_are() -> None:
    result = Engine(RulesPlanner()).ask("average cpu", [str(ROOT / "sample_logs/app")])
    assert not result.verified and "latency_ms (ms)" in result.answer


@pytest.mark.parametrize(("system", "question", "pattern", "func"), [
    ("Hadoop", "median progress of task attempts?", r"Progress of TaskAttempt \S+ is : ([\d.]+)", "median"),
    ("Zookeeper", "what's the mean negotiated timeout?", r"negotiated timeout (\d+)", "mean"),
    ("Android", "max brightness target", r"brightness: target=(\d+)", "max"),
])
def test_a_statistic_of_a_number_the_log_writes_beside_the_asked_words(system: str, question: str, pattern: str,
                                                                       func: str) -> None:
    numbers = pd.Series([float(n) for n in re.findall(pattern, real_log(system).read_text(errors="replace"))])
    answer, value, verified = _ask(question, real_log(system))
    assert verified and value == pytest.approx(getattr(numbers, func)(), rel=1e-6), answer


def test_a_statistic_per_logger_is_one_value_per_logger_and_per_hour_one_per_hour() -> None:
    rows = [json.loads(line) for line in (ROOT / "sample_logs/app/app.jsonl").read_text().splitlines()]
    frame = pd.DataFrame(rows).dropna(subset=["latency_ms"])
    truth = frame.groupby("logger")["latency_ms"].mean()
    answer, value, verified = _ask("average latency_ms per logger", ROOT / "sample_logs/app")
    assert verified and isinstance(value, dict) and set(value) == set(truth.index)
    assert all(value[k] == pytest.approx(truth[k], rel=1e-5) for k in truth.index)
    top = truth.idxmax()
    assert answer.index(top) < answer.index(truth.idxmin()) if len(truth) <= 5 else top in answer
    hourly = frame.assign(hour=pd.to_datetime(frame["ts"], utc=True).dt.floor("1h")).groupby("hour")["latency_ms"].max()
    answer, value, verified = _ask("max latency_ms for each hour", ROOT / "sample_logs/app")
    assert verified and len(value) == len(hourly) and f"all {len(hourly)} groups" in answer
    assert sorted(value.values()) == sorted(hourly.tolist())


def test_a_ratio_per_key_is_a_partial_answer_not_a_share() -> None:
    for question in ("ratio of errors to warnings per logger", "which logger has the highest error to warning ratio"):
        result = Engine(RulesPlanner()).ask(question, [str(ROOT / "sample_logs/app")])
        assert result.partial and not result.verified, question
        assert "cannot compute a ratio" in result.answer, result.answer


def test_a_breakdown_of_more_values_than_the_table_shows_states_every_cell() -> None:
    path = real_log("HPC")
    keys = pd.Series(path.read_text(errors="replace").splitlines()).str.extract(r"^\d+ \S+ (\S+) (\S+) ")
    truth = {a: {b: int(n) for b, n in row.items() if n} for a, row in pd.crosstab(keys[0], keys[1]).iterrows()}
    assert max(keys[0].nunique(), keys[1].nunique()) > 12  # more than the table shows on a side
    _, value, verified = _ask("lines by component and state", path)
    assert verified and value == truth


def test_the_busiest_hour_leads_the_answer() -> None:
    path = real_log("Apache")
    hours = pd.Series(re.findall(r"^\[\w{3} (\w{3} \d\d \d\d):", path.read_text(errors="replace"), re.M)).value_counts()
    answer, value, verified = _ask("busiest hour?", path)
    assert verified and isinstance(value, list) and value[0][1] == hours.iloc[0] > hours.iloc[1]
    assert pd.Timestamp(value[0][0]).strftime("%b %d %H") == hours.index[0] and "busiest" in answer


def _hours(path: Path) -> pd.Series:
    """Apache's error lines per hour, every hour from the first line's to the last's (empty ones 0), by time."""
    text = path.read_text(errors="replace")
    every = pd.to_datetime(re.findall(r"^\[(\w{3} \w{3} \d\d \d\d:\d\d:\d\d \d{4})\]", text, re.M),
                           format="%a %b %d %H:%M:%S %Y").floor("h")
    errors = pd.to_datetime(re.findall(r"^\[(\w{3} \w{3} \d\d \d\d:\d\d:\d\d \d{4})\] \[error\]", text, re.M),
                            format="%a %b %d %H:%M:%S %Y").floor("h")
    span = pd.date_range(every.min(), every.max(), freq="h")
    return pd.Series(errors).value_counts().reindex(span, fill_value=0)


@pytest.mark.parametrize(("question", "n", "busiest"), [("which 3 hours had the most errors?", 3, True),
                                                        ("top 2 hours by error count", 2, True),
                                                        ("which hour had the fewest errors", 1, False)])
def test_the_busiest_or_quietest_hours_are_named_ties_after_them(question: str, n: int, busiest: bool) -> None:
    path = real_log("Apache")
    hours = _hours(path)
    ranked = hours.sort_values(ascending=not busiest, kind="stable")
    cut = ranked.iloc[n - 1]
    answer, value, verified = _ask(question, path)
    named = [pd.Timestamp(t).tz_localize(None) for t, _ in value] if isinstance(value, list) else []
    assert verified and ("busiest" if busiest else "quietest") in answer
    if n > 1:
        assert named == list(ranked.index[:n]) + [t for t in ranked.index[n:] if ranked[t] == cut]
        assert all(f"({c:,})" in answer for c in ranked.iloc[:n])
    else:
        assert named[0] == ranked.index[0] and f"with {cut:,} line" in answer


def test_buckets_sorted_by_count_are_listed_busiest_first() -> None:
    path = real_log("Apache")
    hours = _hours(path)
    _, value, verified = _ask("errors per hour sorted by count", path)
    assert verified and [c for _, c in value] == sorted(hours.tolist(), reverse=True)


def test_an_error_rate_is_the_errors_share_of_the_lines_in_its_scope_or_group() -> None:
    path = ROOT / "sample_logs" / "app" / "app.jsonl"
    rows = pd.read_json(path, lines=True)
    errors = rows["level"] == "ERROR"
    payments = rows["logger"] == "api.payments"
    answer, value, verified = _ask("what's the error rate for api.payments", path)
    part, whole = int((errors & payments).sum()), int(payments.sum())
    assert verified and value == pytest.approx(100 * part / whole, rel=1e-5) and f"{part:,} of {whole:,}" in answer
    answer, value, verified = _ask("error rate by logger", path)
    truth = (100 * errors.groupby(rows["logger"]).mean()).to_dict()
    assert verified and value == pytest.approx(truth, rel=1e-5)
    assert answer.index(max(truth, key=truth.__getitem__)) < answer.index(min(truth, key=truth.__getitem__))
    answer, value, verified = _ask("what percent of lines are errors from api.payments", path)
    assert verified and value == pytest.approx(100 * part / len(rows), rel=1e-5)  # of every line, as asked


@pytest.mark.parametrize(("question", "left", "right", "func"), [
    ("average latency for alice vs bob", "alice", "bob", "mean"),
    ("median latency_ms on api.payments vs api.orders", "api.payments", "api.orders", "median"),
    ("average latency of errors vs warnings", "ERROR", "WARN", "mean"),
])
def test_a_statistic_compared_between_two_values(question: str, left: str, right: str, func: str) -> None:
    path = ROOT / "sample_logs" / "app" / "app.jsonl"
    rows = pd.read_json(path, lines=True)
    column = {"alice": "user", "api.payments": "logger", "ERROR": "level"}[left]
    a, b = (getattr(rows.loc[rows[column] == v, "latency_ms"], func)() for v in (left, right))
    answer, value, verified = _ask(question, path)
    assert verified and value == [pytest.approx(a, rel=1e-5), pytest.approx(b, rel=1e-5)], answer
    assert answer.index(f"{plain(a):,}") < answer.index(f"{plain(b):,}")


@pytest.mark.parametrize(("question", "func", "highest"), [("which user had the highest latency", "max", True),
                                                         ("which user had the slowest average latency", "mean", True),
                                                         ("which logger has the lowest latency_ms", "min", False)])
def test_values_ranked_by_a_field_the_superlative_names(question: str, func: str, highest: bool) -> None:
    path = ROOT / "sample_logs" / "app" / "app.jsonl"
    rows = pd.read_json(path, lines=True)
    key = "user" if "user" in question else "logger"
    per = getattr(rows.groupby(key)["latency_ms"], func)()
    best = per.max() if highest else per.min()
    answer, value, verified = _ask(question, path)
    leaders = [k for k in per.index if per[k] == best]
    assert verified and (value == leaders[0] if len(leaders) == 1 else sorted(value) == sorted(leaders))
    assert f"{plain(best):,} ms" in answer


@pytest.mark.parametrize(("question", "func", "n"), [("top 3 client ips by bytes", "sum", 3),
                                                    ("top 5 paths by average bytes", "mean", 5),
                                                    ("which ip sent the most bytes", "sum", 1)])
def test_values_ranked_by_the_total_or_statistic_of_a_field(question: str, func: str, n: int) -> None:
    path = ROOT / "sample_logs" / "nginx" / "access.log"
    found = pd.Series(path.read_text().splitlines()).str.extract(r'^(\S+) .*?"\w+ (\S+) [^"]*" \d{3} (\d+)')
    key = found[1] if "path" in question else found[0]
    truth = getattr(found[2].astype(float).groupby(key), func)().sort_values(ascending=False, kind="stable")
    answer, value, verified = _ask(question, path)
    assert verified, answer
    if n == 1:
        assert value == truth.index[0] and f"{plain(truth.iloc[0]):,}" in answer
    else:
        assert value == {k: pytest.approx(plain(v), rel=1e-5) for k, v in truth.head(n).items()}


def test_an_entitys_values_ranked_by_a_field_are_a_partial_answer() -> None:
    result = Engine(RulesPlanner()).ask("which request had the highest latency", [str(ROOT / "sample_logs/app")])
    assert result.partial and not result.verified and 'did not read "latency"' in result.answer


def test_a_percentile_named_after_its_field() -> None:
    path = ROOT / "sample_logs" / "app" / "app.jsonl"
    rows = pd.read_json(path, lines=True)
    _, value, verified = _ask("latency p99 by hour", path)
    hours = pd.to_datetime(rows["ts"], utc=True).dt.floor("h")
    truth = rows.groupby(hours)["latency_ms"].quantile(0.99)
    assert verified and isinstance(value, dict) and len(value) == len(truth)
    assert list(value.values()) == pytest.approx([plain(v) for v in truth], rel=1e-5)


def test_this_hour_against_the_hour_before_on_the_app_log() -> None:
    path = ROOT / "sample_logs" / "app" / "app.jsonl"
    rows = pd.read_json(path, lines=True)
    stamps = pd.to_datetime(rows["ts"], utc=True)[rows["level"] == "ERROR"]
    start = pd.to_datetime(rows["ts"], utc=True).max().floor("h")  # now is the last line's time
    this, before = int((stamps >= start).sum()), int(((stamps >= start - pd.Timedelta(hours=1)) & (stamps < start)).sum())
    answer, _, verified = _ask("errors this hour vs last hour", path)
    assert verified and f": {this:,} against last hour: {before:,}" in answer and this != before


def test_a_statistic_grouped_by_a_key_the_rows_lack_is_partial_and_by_a_column_one_value_per_group() -> None:
    path = real_log("Proxifier")
    lines = pd.Series(path.read_text(errors="replace").splitlines())
    found = lines.str.extract(r"^\[[^]]+\] (.+?) - .* sent, (\d+) bytes(?: \([^)]*\))? received,").dropna()
    truth = found[1].astype(float).groupby(found[0]).mean()
    _, value, verified = _ask("avg bytes received per program", path)
    assert verified and isinstance(value, dict) and value.keys() == set(truth.index)
    assert all(value[k] == pytest.approx(v, rel=1e-4) for k, v in truth.items())
    answer, value, verified = _ask("avg ambient by node", real_log("HPC"))
    assert not verified and '"by node"' in answer


def test_a_verb_the_log_writes_with_its_noun_stays_in_the_search() -> None:
    path = real_log("Zookeeper")
    text = path.read_text(errors="replace")
    broken, connection = text.count("Connection broken"), len(re.findall("connection", text, re.I))
    assert broken < connection
    _, value, verified = _ask("how many Connection broken lines?", path)
    assert verified and value == broken


def test_a_statistic_by_a_number_the_messages_carry_and_a_size_named_in_other_words() -> None:
    path = real_log("OpenStack")
    found = pd.Series(path.read_text(errors="replace").splitlines()).str.extract(
        r"status: (\d+) len: \d+ time: ([\d.]+)$").dropna()
    truth = found[1].astype(float).groupby(found[0]).mean()
    _, value, verified = _ask("avg response time by status", path)
    assert verified and isinstance(value, dict) and value.keys() == set(truth.index)
    assert all(value[k] == pytest.approx(v, rel=1e-4) for k, v in truth.items())
    sizes = [int(n) for n in re.findall(r'" \d{3} (\d+) "', (ROOT / "sample_logs/nginx/access.log").read_text())]
    _, value, verified = _ask("smallest response size", ROOT / "sample_logs/nginx")
    assert verified and value == min(sizes)


@pytest.mark.parametrize("question", ["notices on the 4th of December compared with the 5th?",
                                      "notices on the 4th of December vs the 5th of December",
                                      "notices on the 4th of December compared with notices on the 5th of December"])
def test_two_days_compared_count_each_day(question: str) -> None:
    path = real_log("Apache")
    text = path.read_text(errors="replace")
    days = [len(re.findall(rf"^\[\w{{3}} Dec 0{d} [^]]+\] \[notice\]", text, re.M)) for d in (4, 5)]
    assert days[0] != days[1]
    _, value, verified = _ask(question, path)
    assert verified and value == days


@pytest.mark.parametrize("question", ["average time from session opened to session closed per pid",
                                      "mean duration between 'session opened' and 'session closed' by pid"])
def test_durations_between_two_named_events_pair_each_start_with_its_end(question: str) -> None:
    path = real_log("Linux")
    lines = pd.Series(path.read_text(errors="replace").splitlines())
    found = lines.str.extract(r"^(\w{3} +\d+ \d\d:\d\d:\d\d) .*\[(\d+)\]: session (opened|closed)").dropna()
    found["time"] = pd.to_datetime("2026 " + found[0], format="%Y %b %d %H:%M:%S")
    table = found.sort_values([1, "time"], kind="stable")
    pairs = (table[2].values[:-1] == "opened") & (table[2].values[1:] == "closed") & (
        table[1].values[:-1] == table[1].values[1:])
    lasted = (table.time.values[1:] - table.time.values[:-1])[pairs] / pd.Timedelta("1s")
    _, value, verified = _ask(question, path)
    assert verified and isinstance(value, dict) and value["count"] == len(lasted) > 100
    assert value["mean_seconds"] == pytest.approx(lasted.mean(), rel=1e-4) and value["max_seconds"] == lasted.max()


def test_the_first_minutes_of_a_log_are_a_window_and_a_window_is_not_compared_with_an_event() -> None:
    path = real_log("OpenStack")
    table = pd.read_csv(path.with_name(path.name + "_structured.csv"), dtype=str)
    times, warned = pd.to_datetime(table.Date + " " + table.Time), table.Level == "WARNING"
    first = int((warned & (times < times.min() + pd.Timedelta("5min"))).sum())
    last = int((warned & (times >= times.max() - pd.Timedelta("5min"))).sum())
    assert 0 < first < int(warned.sum())
    _, value, verified = _ask("warnings in the first 5 minutes vs the last 5 minutes", path)
    assert verified and value == [first, last]
    _, _, verified = _ask("warnings vs the last 5 minutes", path)
    assert not verified
    _, value, verified = _ask("what percent of warnings are 'Unknown base file'?", path)
    unknown = int((warned & table.Content.str.contains("Unknown base file", regex=False)).sum())
    assert verified and value == pytest.approx(100 * unknown / int(warned.sum()), abs=1e-4)  # of the warnings
    assert unknown < int(warned.sum())  # not of all lines, nor all of them


def _app_frame() -> pd.DataFrame:
    rows = [json.loads(line) for line in (ROOT / "sample_logs/app/app.jsonl").read_text().splitlines()]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("question", "func", "low", "first"), [
    ("which logger has the lowest avg latency_ms", "mean", True, 1),
    ("which service has the highest average latency_ms?", "mean", False, 1),
    ("which 3 components have the lowest p95 latency_ms", "p95", True, 3),
    ("top 2 users by average latency_ms", "mean", False, 2),
])
def test_groups_ranked_by_a_statistic_name_the_first_asked(question: str, func: str, low: bool, first: int) -> None:
    frame = _app_frame().dropna(subset=["latency_ms"])
    key = "user" if "user" in question else "logger"
    grouped = frame.groupby(key)["latency_ms"]
    truth = (grouped.quantile(0.95) if func == "p95" else grouped.mean()).sort_values(ascending=low)
    answer, value, verified = _ask(question, ROOT / "sample_logs/app")
    assert verified, answer
    if first == 1:
        assert value == truth.index[0] and answer.startswith(truth.index[0])
        assert ("lowest" if low else "highest") in answer
    else:
        assert list(value) == list(truth.index[:first])
        assert all(value[k] == pytest.approx(truth[k], rel=1e-5) for k in truth.index[:first])


def test_the_hour_with_the_highest_median_and_groups_sorted_ascending() -> None:
    frame = _app_frame().dropna(subset=["latency_ms"])
    hourly = frame.groupby(pd.to_datetime(frame["ts"], utc=True).dt.floor("1h"))["latency_ms"].median()
    answer, value, verified = _ask("what hour had the highest median latency_ms?", ROOT / "sample_logs/app")
    assert verified and pd.Timestamp(value) == hourly.idxmax(), answer
    means = frame.groupby(pd.to_datetime(frame["ts"], utc=True).dt.floor("1h"))["latency_ms"].mean()
    answer, value, verified = _ask("which hour had the lowest avg latency_ms", ROOT / "sample_logs/app")
    assert verified and pd.Timestamp(value) == means.idxmin() and "lowest" in answer, answer
    answer, value, verified = _ask("average latency_ms per service, sorted ascending", ROOT / "sample_logs/app")
    means = frame.groupby("logger")["latency_ms"].mean().sort_values()
    assert verified and list(value) == list(means.index)
    assert [answer.index(k) for k in means.index] == sorted(answer.index(k) for k in means.index)


@pytest.mark.parametrize("question", ["which logger has the least errors", "what are the 2 rarest users?"])
def test_the_fewest_lines_are_ranked_from_the_fewest(question: str) -> None:
    frame = _app_frame()
    if "errors" in question:
        counts = frame[frame["level"] == "ERROR"]["logger"].value_counts()
    else:
        counts = frame["user"].value_counts()
    counts = counts.sort_values(kind="stable")
    answer, value, verified = _ask(question, ROOT / "sample_logs/app")
    assert verified, answer
    if "2" in question:
        assert [v for v, _ in value] == counts.index[:2].tolist() and answer.startswith("Rarest")
    else:
        assert value == counts.index[0] and "fewest" in answer and f"{counts.iloc[0]} lines" in answer


@pytest.mark.parametrize("question", ["ratio of errors to warnings", "what's the error to warning ratio?",
                                      "error:warning ratio"])
def test_a_ratio_of_two_kinds_of_lines_divides_their_counts(question: str) -> None:
    levels = _app_frame()["level"].value_counts()
    answer, value, verified = _ask(question, ROOT / "sample_logs/app")
    assert verified and value == pytest.approx(levels["ERROR"] / levels["WARN"], rel=1e-5), answer
    assert f"{levels['ERROR']:,}" in answer and f"{levels['WARN']:,}" in answer


@pytest.mark.parametrize(("question", "sign"), [("how many more errors than warnings?", 1),
                                              ("How many fewer warnings than errors", 1),
                                              ("how many more warnings than errors?", -1)])
def test_how_many_more_of_one_kind_of_lines_than_another_is_their_difference(question: str, sign: int) -> None:
    levels = _app_frame()["level"].value_counts()
    answer, value, verified = _ask(question, ROOT / "sample_logs/app")
    assert verified and value == sign * (levels["ERROR"] - levels["WARN"]), answer
    assert f"{levels['ERROR']:,}" in answer and f"{levels['WARN']:,}" in answer


def test_a_ratio_per_key_is_still_a_partial_answer() -> None:
    result = Engine(RulesPlanner()).ask("ratio of errors to warnings per logger", [str(ROOT / "sample_logs/app")])
    assert result.partial and not result.verified


@pytest.mark.parametrize("question", ["which component has the highest ratio of errors to warnings?",
                                      "which user has the second most lines?"])
def test_a_ranking_by_a_ratio_or_a_place_past_the_first_is_partial_not_verified(question: str) -> None:
    result = Engine(RulesPlanner()).ask(question, [str(ROOT / "sample_logs/app")])
    assert result.partial and not result.verified, result.answer


def test_how_long_a_state_lasted_is_partial_when_the_state_is_no_word_of_the_lines() -> None:
    result = Engine(RulesPlanner()).ask("how long was modem 00:15:a4:cb:04:5b offline", [str(ROOT / "sample_logs/cmts")])
    assert result.partial and not result.verified and 'did not read "offline"' in result.answer
    spanned = Engine(RulesPlanner()).ask("how long did modem 00:15:a4:cb:04:5b log for", [str(ROOT / "sample_logs/cmts")])
    assert spanned.verified and not spanned.partial


def test_which_value_had_the_most_lines_in_one_bucket() -> None:
    from react_engine.logs import load

    frame = load([str(ROOT / "sample_logs/cmts")])
    t3 = frame[frame["message"].str.contains(r"T3 time[- ]?out", case=False, regex=True)]
    counts = t3.groupby([t3["host"], t3["timestamp"].dt.floor("h")]).size()
    answer, _, verified = _ask("which cmts had the most t3 timeouts per hour", ROOT / "sample_logs/cmts")
    (host, hour), most = counts.idxmax(), counts.max()
    assert verified and (counts == most).sum() == 1
    assert answer.startswith(f"{host} the hour from {hour.isoformat()}") and f": {most:,} " in answer


def test_a_threshold_in_a_unit_no_tool_knows_is_a_partial_answer() -> None:
    result = Engine(RulesPlanner()).ask("how many requests took longer than 5 parsecs", [str(ROOT / "sample_logs/app")])
    assert result.partial and not result.verified and 'did not read "parsecs"' in result.answer
    plain_number = Engine(RulesPlanner()).ask("how many requests took longer than 500", [str(ROOT / "sample_logs/app")])
    assert plain_number.verified and not plain_number.partial
