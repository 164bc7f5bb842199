"""Threshold questions (class `threshold`): lines whose number passes a threshold ("took longer than 1 second",
"status >= 500", "bigger than 40 KB", "more than 1000 bytes sent"), counted, as a share, as a statistic and ranked,
on sample_logs/app (`latency_ms`), sample_logs/nginx (status, bytes), loghub OpenStack (`status: 200 len: 1893 time:
0.24`) and Proxifier (`1184 bytes sent`, `lifetime 00:02`). Each value is derived twice, with pandas over the parsed
JSON records, the access log's fields or loghub's structured CSV, and with a regex pass over the raw lines; a
question whose two derivations differ is refused. Never from react-engine.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from operator_data import REL_TOLERANCE, LogData, Mask, Questions, top
from operator_readings import both, statistic
from operator_samples import Truth, app_records, nginx_requests

OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}
KB, MB = 1024, 1024**2


@dataclass(frozen=True)
class Numbers:
    """One number of each line read twice, NaN where a line has none: `parsed` from the records or the CSV, `raw`
    by a regex over the lines."""

    parsed: pd.Series
    raw: pd.Series

    def past(self, op: str, value: float) -> tuple[Mask, Mask]:
        """The lines past the threshold, in each reading (a line without the number never passes)."""
        return tuple(OPS[op](numbers, value).fillna(False).astype(bool) for numbers in (self.parsed, self.raw))


@dataclass
class Asking:
    """The threshold questions of one log, over its number readings."""

    q: Questions
    log: LogData

    def __post_init__(self) -> None:
        self.q = Questions(prefix=f"{self.q.prefix}-threshold", logs=self.q.logs, set=self.q.set,
                           requires=self.q.requires, cases=self.q.cases, refused=self.q.refused)

    def count(self, slug: str, question: str, rows: tuple[Mask, Mask]) -> None:
        with self.q.refusing(slug):
            self.q.measured(slug, "threshold", question, both(int(rows[0].sum()), int(rows[1].sum())))

    def share(self, slug: str, question: str, rows: tuple[Mask, Mask], of: tuple[Mask, Mask] | None = None) -> None:
        """The lines past the threshold as a percentage of `of` (all lines when None)."""
        bases = of or (self.log.all(), self.log.all())
        with self.q.refusing(slug):
            self.q.measured(slug, "threshold", question, both(
                *(100 * int((r & b).sum()) / int(b.sum()) for r, b in zip(rows, bases))))

    def statistic(self, slug: str, question: str, rows: tuple[Mask, Mask], numbers: Numbers, func: str) -> None:
        with self.q.refusing(slug):
            self.q.measured(slug, "threshold", question, both(
                statistic(numbers.parsed[rows[0]].dropna(), func), statistic(numbers.raw[rows[1]].dropna(), func),
                REL_TOLERANCE))

    def ranking(self, slug: str, question: str, rows: tuple[Mask, Mask], keys: tuple[pd.Series, pd.Series]) -> None:
        with self.q.refusing(slug):
            self.q.ranked(slug, "threshold", question, both(top(keys[0][rows[0]]), top(keys[1][rows[1]])))


def app(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "app" / "app.jsonl")
    records = app_records(log)
    latency = Numbers(records.latency_ms.astype(float), log.lines.str.extract(r'"latency_ms":(\d+)')[0].astype(float))
    users = (records.user, log.lines.str.extract(r'"user":"([^"]+)"')[0])
    errors = (records.level == "ERROR", log.regex(r'"level":"ERROR"'))
    nov19 = (pd.to_datetime(records.ts, utc=True).dt.strftime("%Y-%m-%d") == "2026-11-19",
             log.regex(r'"ts":"2026-11-19T'))
    a = Asking(q, log)
    a.count("slower-1s", "how many requests took longer than 1 second?", latency.past(">", 1000))
    a.count("latency-500ms", "requests with latency over 500 ms?", latency.past(">", 500))
    a.count("latency-ms-500", "how many lines with latency_ms > 500", latency.past(">", 500))
    a.count("faster-100ms", "how many requests were faster than 100ms?", latency.past("<", 100))
    a.count("under-50ms", "requests under 50 ms", latency.past("<", 50))
    a.count("at-least-1s", "how many requests took at least 1 s?", latency.past(">=", 1000))
    a.count("or-more-500ms", "how many requests took 500 ms or more?", latency.past(">=", 500))
    a.count("no-more-than-40ms", "count of requests that took no more than 40 ms", latency.past("<=", 40))
    a.count("typo-longer", "how many requests takes longr than 1 second?", latency.past(">", 1000))
    a.count("typo-latency", "requests with latncy above 800 ms?", latency.past(">", 800))
    over = latency.past(">", 500)
    a.count("day-500ms", "how many requests over 500 ms on November 19th?", (over[0] & nov19[0], over[1] & nov19[1]))
    slow = latency.past(">", 1000)
    a.count("errors-1s", "how many ERROR lines took longer than 1 second?", (slow[0] & errors[0], slow[1] & errors[1]))
    a.share("share-500ms", "what percent of requests took over 500 ms?", over)
    a.share("share-errors-500ms", "what percent of errors took over 500 ms?", over, errors)
    a.statistic("mean-over-500ms", "average latency of requests over 500ms", over, latency, "mean")
    a.statistic("max-faster-100ms", "max latency_ms of requests faster than 100 ms", latency.past("<", 100), latency,
                "max")
    a.ranking("user-slower-1s", "which user has the most requests slower than 1s?", slow, users)


def nginx(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "nginx" / "access.log")
    requests = nginx_requests(log)
    fields = log.lines.str.split('" ', n=2).str[1].str.split()
    status = Numbers(requests.status.astype(float), log.lines.str.extract(r'" (\d{3}) \d+ "')[0].astype(float))
    size = Numbers(pd.to_numeric(fields.str[1]).astype(float),
                   log.lines.str.extract(r'" \d{3} (\d+) "')[0].astype(float))
    ips = (requests.ip, log.lines.str.extract(r"^(\S+) ")[0])
    a = Asking(q, log)
    a.count("status-500", "how many requests with status >= 500?", status.past(">=", 500))
    a.count("status-over-399", "requests with a status above 399", status.past(">", 399))
    a.count("bigger-40kb", "how many responses bigger than 40 KB?", size.past(">", 40 * KB))
    a.count("smaller-1kb", "responses smaller than 1 KB?", size.past("<", KB))
    a.count("bytes-over-005mb", "how many responses with bytes over 0.05 MB?", size.past(">", 0.05 * MB))
    a.share("share-30kb", "what percent of responses were bigger than 30KB?", size.past(">", 30 * KB))
    a.statistic("mean-status-400", "average bytes of requests with status >= 400", status.past(">=", 400), size,
                "mean")
    a.ranking("ip-40kb", "which ip has the most responses over 40 KB?", size.past(">", 40 * KB), ips)


def openstack(log: LogData, q: Questions) -> None:
    content = log.col("Content")
    time = Numbers(content.str.extract(r"\btime: (\d+\.\d+)")[0].astype(float),
                   log.lines.str.extract(r" time: (\d+\.\d+)$")[0].astype(float))
    status = Numbers(content.str.extract(r"\bstatus: (\d{3})\b")[0].astype(float),
                     log.lines.str.extract(r'HTTP/1\.1" status: (\d{3}) ')[0].astype(float))
    length = Numbers(content.str.extract(r"\blen: (\d+)\b")[0].astype(float),
                     log.lines.str.extract(r" len: (\d+) time: ")[0].astype(float))
    a = Asking(q, log)
    a.count("time-500ms", "how many requests with time over 0.5 s?", time.past(">", 0.5))
    a.count("response-time-250ms", "how many requests had a response time above 250 ms?", time.past(">", 0.25))
    a.count("status-400", "requests with status >= 400?", status.past(">=", 400))
    a.share("share-time-300ms", "what percent of lines have time under 300 ms?", time.past("<", 0.3))
    a.statistic("mean-len-time", "average len of requests with time over 0.3 s", time.past(">", 0.3), length,
                "mean")


def _lifetime(text: pd.Series) -> pd.Series:
    """`00:02` or `01:02:03` as seconds (NaN for `<1 sec` and lines without one)."""
    parts = text.str.split(":", expand=True).astype(float)
    seconds = parts[0] * 60 + parts[1]
    return seconds if parts.shape[1] < 3 else seconds.where(parts[2].isna(), parts[0] * 3600 + parts[1] * 60 + parts[2])


def proxifier(log: LogData, q: Questions) -> None:
    content = log.col("Content")
    sent = Numbers(content.str.extract(r"\b(\d+) bytes(?: \([^)]*\))? sent")[0].astype(float),
                   log.lines.str.extract(r", (\d+) bytes(?: \([^)]*\))? sent,")[0].astype(float))
    lifetime = Numbers(_lifetime(content.str.extract(r"lifetime (\d+:\d+(?::\d+)?)$")[0]),
                       _lifetime(log.lines.str.extract(r", lifetime (\d\d:\d\d(?::\d\d)?)")[0]))
    programs = (log.col("Program"), log.lines.str.extract(r"^\[[^]]+\] (.+?) - ")[0])
    a = Asking(q, log)
    a.count("sent-1000", "how many lines with more than 1000 bytes sent?", sent.past(">", 1000))
    a.count("sent-10kb", "entries with bytes sent over 10 KB?", sent.past(">", 10 * KB))
    a.count("lasted-1min", "how many lines show a lifetime longer than 1 minute?", lifetime.past(">", 60))
    a.ranking("program-lifetime", "which program has the most lines with lifetime over 2 min?",
              lifetime.past(">", 120), programs)


THRESHOLD_SETS: dict[str, Callable[[Truth, Questions, Path], None]] = {"app": app, "nginx": nginx}
THRESHOLD_SYSTEMS: dict[str, Callable[[LogData, Questions], None]] = {"OpenStack": openstack, "Proxifier": proxifier}
