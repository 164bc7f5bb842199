"""Analytics questions over sample_logs/: statistics of the app log's `latency_ms` and the access log's response
sizes, errors and requests per time bucket (rates: times from the parsed records or the split line, and from a regex
over the raw lines), and two-key breakdowns. Each value is derived twice (the parsed records, or the sample
generator's ground truth where it holds the value, and a regex pass over the raw lines); a question whose
derivations differ is refused. Never from react-engine.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
from operator_analytics import nested
from operator_data import REL_TOLERANCE, LogData, Questions
from operator_readings import Reading, both, statistic
from operator_samples import Truth, app_records, nginx_requests

LATENCY = (("mean", "mean", "what is the average latency_ms?"), ("median", "p50", "median latency_ms?"),
           ("p95", "p95", "p95 latency_ms"), ("max", "max", "max latency_ms?"), ("min", "min", "minimum latncy_ms?"))
SIZES = (("mean", "average bytes?"), ("median", "median response size in bytes?"), ("max", "largest bytes value"),
         ("p95", "95th percentile of bytes"))


def app(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "app" / "app.jsonl")
    records = app_records(log)
    raw = log.extract(r'"latency_ms":(\d+)').astype(float)
    for func, key, question in LATENCY:
        truth = float(t.get(f"sets.app.latency_ms.{key}"))
        with q.refusing(f"{func}-latency"):
            q.measured(f"{func}-latency", "statistic", question, both(
                both(statistic(records.latency_ms.dropna(), func), statistic(raw, func)), truth, REL_TOLERANCE))
    structured = Reading(pd.to_datetime(records.ts, utc=True), records.index.to_series())
    raw_times = Reading(pd.to_datetime(log.extract(r'^\{"ts":"([^"]+)"'), utc=True), log.lines.index.to_series())
    for func, per, question in (("mean", "1h", "what is the average number of errors per hour?"),
                                ("max", "1min", "most errors in one minute?")):
        with q.refusing(f"rate-{func}-errors"):
            q.measured(f"rate-{func}-errors", "statistic", question,
                       both(structured.rate(records.level == "ERROR", per, func),
                            raw_times.rate(log.grep('"level":"ERROR"'), per, func)))
    keys = log.lines.str.extract(r'"level":"(\w+)","logger":"([^"]+)"')
    with q.refusing("by-level-logger"):
        q.measured("by-level-logger", "breakdown", "lines per level per logger",
                   both(nested(records.level, records.logger), nested(keys[0], keys[1])))


def nginx(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "nginx" / "access.log")
    split = pd.to_numeric(log.lines.str.split('" ', n=2).str[1].str.split().str[1])
    raw = log.extract(r'" \d{3} (\d+) "').astype(float)
    with q.refusing("sum-bytes"):
        q.measured("sum-bytes", "statistic", "how many bytes were served in total?",
                   both(both(statistic(split, "sum"), statistic(raw, "sum")), float(t.get("sets.nginx.bytes_total"))))
    for func, question in SIZES:
        with q.refusing(f"{func}-bytes"):
            q.measured(f"{func}-bytes", "statistic", question, both(statistic(split, func), statistic(raw, func)))
    requests = nginx_requests(log)
    words = log.lines.str.split()
    stamps = (pd.to_datetime(words.str[3].str[1:] + words.str[4].str[:-1], format="%d/%b/%Y:%H:%M:%S%z"),
              pd.to_datetime(log.extract(r"\[([^\]]+)\]"), format="%d/%b/%Y:%H:%M:%S %z"))
    spaced, bracketed = (Reading(times, log.lines.index.to_series()) for times in stamps)
    every = log.all()
    for func, per, question in (("mean", "1s", "how many requests per second on average?"),
                                ("max", "1min", "peak requests per minute")):
        with q.refusing(f"rate-{func}-requests"):
            q.measured(f"rate-{func}-requests", "statistic", question,
                       both(spaced.rate(every, per, func), bracketed.rate(every, per, func)))
    with q.refusing("by-method-status"):
        q.measured("by-method-status", "breakdown", "requests by method and status?",
                   both(nested(requests.method, requests.status), nested(words.str[5].str[1:], words.str[8])))


ANALYTIC_SETS: dict[str, Callable[[Truth, Questions, Path], None]] = {"app": app, "nginx": nginx}
