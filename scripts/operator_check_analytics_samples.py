"""The check set's analytics questions over sample_logs/ (the app's JSON lines and the nginx access log), written
apart from the operator suite's: each value derived twice (the parsed records and a regex pass over the raw lines)
and refused when the two differ. Never from react-engine.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
from operator_analytics import nested
from operator_check_analytics import grouped, oldest
from operator_data import LogData, Mask, Questions, ranked
from operator_readings import Reading, both, iso, statistic
from operator_samples import Truth, app_records, nginx_requests

STAMP = "%d/%b/%Y:%H:%M:%S %z"


def utc(text: pd.Series, form: str = "ISO8601") -> pd.Series:
    return pd.to_datetime(text, format=form, utc=True).dt.tz_convert(None)


class Sample:
    """One sample log read twice: `parsed` (records: times, keys) and `raw` (regexes over the lines)."""

    def __init__(self, log: LogData, q: Questions, parsed_times: pd.Series, raw_times: pd.Series) -> None:
        self.log, self.q = log, q
        lines = pd.Series(log.lines.index + 1, index=log.lines.index)
        self.readings = (Reading(parsed_times, lines), Reading(raw_times, lines))

    def _both(self, measure: Callable[[Reading, Mask], object], parsed: Mask, raw: Mask) -> object:
        return both(measure(self.readings[0], parsed), measure(self.readings[1], raw))

    def rows(self, parsed: Mask, raw_regex: str) -> tuple[Mask, Mask]:
        return parsed, self.log.regex(raw_regex)

    def place(self, slug: str, question: str, rows: tuple[Mask, Mask], which: str) -> None:
        with self.q.refusing(slug):
            self.q.measured(slug, "first-last", question, self._both(lambda rd, m: rd.place(m, which), *rows))

    def span(self, slug: str, question: str) -> None:
        every = self.log.all()
        with self.q.refusing(slug):
            self.q.measured(slug, "duration", question, self._both(Reading.span, every, every))

    def silence(self, slug: str, question: str, rows: tuple[Mask, Mask]) -> None:
        with self.q.refusing(slug):
            self.q.measured(slug, "gaps", question, self._both(Reading.silence, *rows))

    def share(self, slug: str, question: str, rows: tuple[Mask, Mask]) -> None:
        total = len(self.log.lines)
        with self.q.refusing(slug):
            self.q.measured(slug, "share", question, both(*(100 * int(m.sum()) / total for m in rows)))

    def versus(self, slug: str, question: str, a: tuple[Mask, Mask], b: tuple[Mask, Mask]) -> None:
        with self.q.refusing(slug):
            self.q.measured(slug, "comparison", question, both([int(a[0].sum()), int(b[0].sum())],
                                                               [int(a[1].sum()), int(b[1].sum())]))

    def listing(self, slug: str, question: str, rows: tuple[Mask, Mask], n: int, first: bool = False) -> None:
        with self.q.refusing(slug):
            lines = self._both(lambda rd, m: oldest(rd, m, n) if first else rd.newest(m, n), *rows)
            self.q.listing(slug, question, [f"{self.log.path.name}:{line} " for line in lines])  # type: ignore[attr-defined]

    def busiest(self, slug: str, question: str) -> None:
        every = self.log.all()
        with self.q.refusing(slug):
            self.q.ranked(slug, "statistic", question, self._both(lambda rd, m: ranked(
                {iso(t): n for t, n in rd.times[m].dt.floor("1h").value_counts().items()}), every, every))

    def stat(self, slug: str, question: str, values: tuple[pd.Series, pd.Series], func: str,
             by: tuple[pd.Series, pd.Series] | None = None) -> None:
        with self.q.refusing(slug):
            if by is None:
                value = both(*(statistic(v.dropna(), func) for v in values))
            else:
                value = both(*(grouped(v, k, func) for v, k in zip(values, by)))
            self.q.measured(slug, "statistic", question, value)

    def pivot(self, slug: str, question: str, parsed: tuple[pd.Series, pd.Series], raw: str) -> None:
        keys = self.log.lines.str.extract(raw)
        with self.q.refusing(slug):
            self.q.measured(slug, "breakdown", question, both(nested(*parsed), nested(keys[0], keys[1])))


Pair = tuple[pd.Series, pd.Series]  # one value per line, by the parsed records and by a regex over the raw lines


def app_log(logs: Path, q: Questions) -> tuple[Sample, pd.DataFrame, Pair]:
    """The app log read twice, its records, and each line's latency_ms by both readings."""
    log = LogData.raw(logs / "app" / "app.jsonl")
    records = app_records(log)
    s = Sample(log, q, utc(records.ts), utc(log.extract(r'"ts":"([^"]+)"')))
    return s, records, (records.latency_ms.astype(float),
                        log.lines.str.extract(r'"latency_ms":(\d+)', expand=False).astype(float))


def nginx_log(logs: Path, q: Questions) -> tuple[Sample, pd.DataFrame, Pair]:
    """The access log read twice, its requests, and each line's response size by both readings."""
    log = LogData.raw(logs / "nginx" / "access.log")
    stamps = log.lines.str.split("[").str[1].str.split("]").str[0]
    s = Sample(log, q, utc(stamps, STAMP), utc(log.extract(r"\[(\d\d/\w+/\d{4}:[\d:]+ [+-]\d{4})\]"), STAMP))
    return s, nginx_requests(log), (pd.to_numeric(log.lines.str.split('" ', n=2).str[1].str.split().str[1]).astype(
        float), log.lines.str.extract(r'" \d{3} (\d+) "', expand=False).astype(float))


def app(t: Truth, q: Questions, logs: Path) -> None:
    s, records, latency = app_log(logs, q)
    log = s.log
    error = s.rows(records.level == "ERROR", r'"level":"ERROR"')
    warn = s.rows(records.level == "WARN", r'"level":"WARN"')
    s.stat("p99-latency", "p99 of latency_ms?", latency, "p99")
    s.stat("avg-latency-by-logger", "avg latency_ms by logger", latency,
           "mean", (records.logger, log.lines.str.extract(r'"logger":"([^"]+)"', expand=False)))
    s.place("last-error", "when was the last ERROR?", error, "last")
    s.span("span", "how long does app.jsonl span, first entry to last?")
    s.silence("gap-errors", "longest gap between ERROR lines", error)
    s.share("warn-percent", "percentage of WARN lines", warn)
    s.versus("error-warn", "compare ERROR with WARN lines", error, warn)
    s.listing("last-5-errors", "last 5 ERROR lines", error, 5)
    s.pivot("logger-level", "break down lines by logger and level", (records.logger, records.level),
            r'"level":"(?=\w+","logger":"([^"]+)")(\w+)')


def nginx(t: Truth, q: Questions, logs: Path) -> None:
    s, requests, sizes = nginx_log(logs, q)
    log = s.log
    statuses = (requests.status, log.lines.str.extract(r'" (\d{3}) \d+ "', expand=False))
    five = s.rows(requests.status == "500", r'" 500 \d+ "')
    s.stat("min-bytes", "smallest response size", sizes, "min")
    s.stat("avg-bytes-by-status", "average response bytes by status code", sizes, "mean", statuses)
    s.place("first-500", "when was the first 500?", five, "first")
    s.silence("gap-500", "longest time between two 500 responses?", five)
    s.share("fraction-404", "what fraction of requests were 404s?", s.rows(requests.status == "404", r'" 404 \d+ "'))
    s.versus("404-500", "compare 404s with 500s", s.rows(requests.status == "404", r'" 404 \d+ "'), five)
    s.listing("newest-3-500", "newest 3 500 responses", five, 3)
    s.pivot("status-method", "count requests by status and method", (requests.status, requests.method),
            r'^\S+ \S+ \S+ \[[^]]+\] "(?=\S+ [^"]*" (\d{3}) )(\S+)')
    s.busiest("busiest-hour", "busiest hour?")


CHECK_ANALYTIC_SETS: dict[str, Callable[[Truth, Questions, Path], None]] = {"app": app, "nginx": nginx}
