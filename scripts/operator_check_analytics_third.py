"""A third batch of the check set's analytics questions (ids `...-third-...`), written before the planner ran on them:
other events, fields and wordings again, as operators type them at a terminal ("how long did X take on average",
"p90 of X for Y", "stddev of X", "X this hour vs the last", "ratio of A to B", "busiest minute for X", "what kinds
of errors", "anything new since", "per X per Y", misspelt words and dates in words). Values derived like the first
two batches' (the structured CSV or parsed records, and regexes over the raw lines; refused when they differ), never
from react-engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from operator_analytics import APACHE_LEVEL, HADOOP_LEVEL, HDFS_LEVEL, ZOOKEEPER_LEVEL, Event, level, template
from operator_check_analytics import Ask, Field, catalogue, ev, said
from operator_check_analytics_samples import Sample, app_log, nginx_log
from operator_data import REL_TOLERANCE, Ambiguous, Questions
from operator_readings import Reading, both
from operator_samples import Truth

HOUR = pd.Timedelta("1h")


def this_hour_vs_last(a: Ask, slug: str, question: str, event: Event, clock: bool = True) -> None:
    """[rows in the last hour, rows in the hour before]: the hour up to the newest line and, for "this hour"
    (`clock`), the clock hour of the newest line too, refused when those two readings of the question differ (and
    when the two readings of the log do)."""
    structured, raw = a.readings

    def counts(reading: Reading, rows: pd.Series) -> list[int]:
        newest = reading.times.max()
        end = newest + pd.Timedelta("2s")
        rolling = [reading.on(rows, str(end - HOUR), str(end)), reading.on(rows, str(end - 2 * HOUR), str(end - HOUR))]
        if not clock:
            return rolling
        start = newest.floor("h")
        return both([reading.on(rows, str(start), str(start + HOUR)), reading.on(rows, str(start - HOUR), str(start))],
                    rolling)

    with a.q.refusing(slug):
        a.q.measured(slug, "comparison", question, both(counts(structured, event.rows(a.log)),
                                                        counts(raw, a.log.regex(event.raw))))


def ratio(a: Ask, slug: str, question: str, first: Event, second: Event) -> None:
    """The first event's rows divided by the second's."""
    with a.q.refusing(slug):
        a.q.measured(slug, "comparison", question, both(
            int(first.rows(a.log).sum()) / int(second.rows(a.log).sum()),
            int(a.log.regex(first.raw).sum()) / int(a.log.regex(second.raw).sum())))


def since(a: Ask, slug: str, question: str, event: Event, start: str) -> None:
    """A listing of every matching line from `start` on (at most five; none within a second of `start`)."""
    structured, raw = a.readings

    def lines(reading: Reading, rows: pd.Series) -> list[int]:
        times = reading.times[rows]
        if ((times - pd.Timestamp(start)).abs() < pd.Timedelta("1s")).any():
            raise Ambiguous(f"a row sits on {start}")
        after = reading.timeline(rows & (reading.times >= pd.Timestamp(start)))
        if not 0 < len(after) <= 5:
            raise Ambiguous(f"{len(after)} rows since {start}")
        return [int(x) for x in after.line]

    with a.q.refusing(slug):
        found = both(lines(structured, event.rows(a.log)), lines(raw, a.log.regex(event.raw)))
        a.q.listing(slug, question, [f"{a.log.path.name}:{line} " for line in found])


def kinds(a: Ask, slug: str, question: str, event: Event) -> None:
    """The message patterns of the event's lines: the largest template group's size, counted from the CSV and by the
    template (as a regex) over the raw lines."""
    templates = a.log.col("EventTemplate")[event.rows(a.log)].value_counts()
    if len(templates) > 1 and templates.iloc[0] == templates.iloc[1]:
        a.q.refused.append(f"{a.q.prefix}-{slug}: two templates tie")
        return
    pattern = ".*?".join(map(re.escape, str(templates.index[0]).split("<*>")))
    with a.q.refusing(slug):
        a.q.patterns(slug, "ranking", question, both(int(templates.iloc[0]), int(
            a.log.lines[a.log.regex(event.raw)].str.contains(pattern, regex=True).sum())))


def android(a: Ask) -> None:
    a.stat("third-mean-hbm-in", "mean HBM brightnessIn?", Field(template("HBM brightnessIn ="), r"brightnessIn =(\d+)$",
                                                                r"HBM brightnessIn =(\d+)$"), "mean")
    a.place("third-last-release", "when was 'Releasing suspend blocker' last logged?",
            ev("release", said("Releasing suspend blocker")), "last")
    a.busiest("third-busiest-minute", "busiest minute on android?", None, "1min")


def apache(a: Ask) -> None:
    a.span("third-cant-find-span", "how long did the 'Can't find child' errors go on for?",
           ev("cant", said("Can't find child")))
    this_hour_vs_last(a, "third-errors-last-hour", "errors in the last hour vs the hour before that",
                      ev("error", level("error", APACHE_LEVEL)), clock=False)
    ratio(a, "third-found-init-ratio", "ratio of 'Found child' to 'workerEnv.init() ok' lines",
             ev("found", said("Found child")), ev("init", said("workerEnv.init() ok")))


def bgl(a: Ask) -> None:
    a.stat("third-avg-fp-alignment", "avrage number of floating point alignment exceptions reported?", Field(
        template("floating point alignment exceptions"), r"^(\d+) floating",
        r"RAS KERNEL INFO (\d+) floating point alignment exceptions$"), "mean")
    a.span("third-lustre-span", "how long did the Lustre mount failures last?", ev("lustre", said("Lustre mount FAILED")))
    a.share("third-ciod-loading-share", "what share of lines are 'ciod: Error loading'?",
            ev("ciod", said("ciod: Error loading")))


def hdfs(a: Ask) -> None:
    a.span("third-exception-span", "how long did the 'Got exception while serving' errors last, first to last?",
           ev("exception", said("Got exception while serving")))
    a.listing("third-last-3-allocate", "last 3 allocateBlock lines",
              ev("allocate", said("NameSystem.allocateBlock", r"NameSystem\.allocateBlock: ")), 3)
    this_hour_vs_last(a, "third-warn-this-hour", "WARN this hour vs the hour before?",
                      ev("warn", level("WARN", HDFS_LEVEL)))
    a.stat("third-mean-stored-size", "avg size in the addStoredBlock lines", Field(
        template("addStoredBlock: blockMap updated"), r" size (\d+)$", r"addStoredBlock: blockMap updated: .* size (\d+)$"),
        "mean")


def hpc(a: Ask) -> None:
    a.place("third-link-errors-stop", "when did 'link errors remain current' stop?",
            ev("link", said("link errors remain current")), "last")
    a.silence("third-gap-not-responding", "longest gap between 'not responding' lines",
              ev("not responding", said("not responding")))
    a.share("third-fan-share", "what share of the log is Fan speeds lines?", ev("fan", said("Fan speeds")))


def hadoop(a: Ask) -> None:
    a.stat("third-max-tried", "what's the highest 'Already tried' count?", Field(
        template("Already tried"), r"Already tried (\d+) time", r"Retrying connect to server: \S+ Already tried (\d+) time"),
        "max")
    a.busiest("third-busiest-hour-address", "which hour had the most 'Address change detected' lines?",
              ev("address", said("Address change detected")))
    a.span("third-retry-span", "how long did the 'Retrying connect to server' lines go on?",
           ev("retry", said("Retrying connect to server")))
    ratio(a, "third-error-fatal-ratio", "ERROR:FATAL ratio?", ev("ERROR", level("ERROR", HADOOP_LEVEL)),
             ev("FATAL", level("FATAL", HADOOP_LEVEL)))


def healthapp(a: Ask) -> None:
    a.place("third-screen-off-stop", "when did the SCREEN_OFF events stop?", ev("off", said("SCREEN_OFF")), "last")
    a.stat("third-p90-stand-step", "p90 of onStandStepChanged", Field(
        template("onStandStepChanged <*>"), r"^onStandStepChanged (\d+)$", r"\|onStandStepChanged (\d+)$"), "p90")


def linux(a: Ask) -> None:
    opened, closed = ev("opened", said("session opened for user")), ev("closed", said("session closed for user"))
    a.listing("third-last-3-alert", "last 3 'ALERT exited abnormally' lines",
              ev("alert", said("ALERT exited abnormally")), 3)
    ratio(a, "third-opened-closed-ratio", "ratio of sessions opened to sessions closed?", opened, closed)
    a.place("third-first-cupsd-startup", "when did cupsd first start up? (cupsd startup succeeded)",
            ev("cupsd", said("cupsd startup succeeded")), "first")
    a.share("third-no-soa-share", "what share of the log is 'notify question section contains no SOA'?",
            ev("soa", said("notify question section contains no SOA")))
    a.versus("third-opened-days", "session opened on the 20th of June compared with the 21st of June", opened, opened,
             (("2026-06-20", "2026-06-21"), ("2026-06-21", "2026-06-22")))


def mac(a: Ask) -> None:
    a.stat("third-longest-early-wake", "longest earlyWake time?", Field(
        template("earlyWake - complete - took"), r"took (\d+) milliseconds",
        r"earlyWake - complete - took (\d+) milliseconds", 0.001), "max")
    a.listing("third-last-3-channel", "show the last 3 'en0: channel changed' lines",
              ev("channel", said("en0: channel changed")), 3)
    a.busiest("third-busiest-hour", "busiest hour on the mac?")


def openssh(a: Ask) -> None:
    a.span("third-closed-span", "how long did the 'Connection closed by' lines go on?",
           ev("closed", said("Connection closed by")))
    a.busiest("third-busiest-hour-failed", "busiest hour for failed passwords",
              ev("failed", (template("Failed password"), r"\]: Failed password ")))
    a.share("third-invalid-failed-share", "what share of lines are 'Failed password for invalid user'?",
            ev("invalid", said("Failed password for invalid user")))


def openstack(a: Ask) -> None:
    a.stat("third-spawn-mean", "how long did spawning an instance take on average?", Field(
        template("seconds to spawn the instance"), r"Took ([\d.]+) seconds to spawn",
        r"\] Took ([\d.]+) seconds to spawn the instance"), "mean")
    a.stat("third-p90-delete-time", "p90 of time for DELETE requests", Field(
        template('"DELETE <*>"'), r"time: ([\d.]+)$", r'"DELETE \S+ HTTP/1\.1" status: \d+ len: \d+ time: ([\d.]+)$'),
        "p90")
    a.stat("third-longest-build", "longest time to build an instance?", Field(
        template("seconds to build instance"), r"Took ([\d.]+) seconds to build", r"\] Took ([\d.]+) seconds to build "
        r"instance"), "max")
    a.share("third-delete-share", "what share of lines are DELETE requests?",
            ev("delete", (template('"DELETE <*>"'), r'"DELETE \S+ HTTP/1\.1" status')))


def proxifier(a: Ask) -> None:
    a.place("third-canceled-stop", "when did the 'connection request was canceled' errors stop?",
            ev("canceled", said("connection request was canceled")), "last")
    a.stat("third-sent-by-program", "avg bytes sent by program", Field(
        template("bytes<*>sent"), r"close, (\d+) bytes", r" close, (\d+) bytes(?: \([^)]*\))? sent,"), "mean",
        (lambda log: log.col("Program"), r"^\[[^]]+\] (.+?) - .* sent,"))
    a.share("third-through-proxy-percent", "what percnt of lines are 'Could not connect through proxy'?",
            ev("through", said("Could not connect through proxy")))


def spark(a: Ask) -> None:
    times = template("Times: total =")
    a.stat("third-p90-times-total", "p90 Times total?", Field(times, r"total = (-?\d+),", r"Times: total = (-?\d+), boot"),
           "p90")
    a.stat("third-avg-boot", "avg boot in the 'Times: total' lines", Field(times, r"boot = (-?\d+),",
                                                                          r"Times: total = \d+, boot = (-?\d+),"), "mean")
    ratio(a, "third-found-computing-ratio", "ratio of 'Found block' to 'not found, computing it'",
             ev("found", said("Found block")), ev("computing", said("not found, computing it")))


def thunderbird(a: Ask) -> None:
    a.span("third-resolve-span", "how long did the 'failed to resolve data source name' warnings go on?",
           ev("resolve", said("failed to resolve data source name")))
    a.busiest("third-busiest-hour-no-answer", "what hour had the most 'got not answer from any' messages?",
              ev("no answer", said("got not answer from any")))
    a.versus("third-discover-request", "DHCPDISCOVER vs DHCPREQUEST", ev("discover", said("DHCPDISCOVER")),
             ev("request", said("DHCPREQUEST")))


def windows(a: Ask) -> None:
    a.span("third-invalid-package-span", "CBS_E_INVALID_PACKAGE failures - how long did they take, start to end?",
           ev("invalid", said("CBS_E_INVALID_PACKAGE")))
    a.busiest("third-busiest-minute-sessions", "busiest minute for WindowsUpdateAgent sessions?",
              ev("sessions", said("initialized by client WindowsUpdateAgent")), "1min")
    a.listing("third-first-3-loading-hive", "frist 3 'Loading offline registry hive' lines",
              ev("hive", said("Loading offline registry hive")), 3, first=True)


def zookeeper(a: Ask) -> None:
    error = ev("ERROR", level("ERROR", ZOOKEEPER_LEVEL))
    kinds(a, "third-error-kinds", "what kinds of ERRORs show up, and how many of each?", error)
    a.place("third-end-of-stream-stop", "when did 'caught end of stream exception' stop?",
            ev("eos", said("caught end of stream exception")), "last")
    a.stat("third-p90-negotiated", "p90 negotiated timeout", Field(
        template("negotiated timeout <*>"), r"negotiated timeout (\d+) ", r"with negotiated timeout (\d+) for"), "p90")
    this_hour_vs_last(a, "third-warn-this-hour", "WARN lines this hour vs the last?", ev("WARN", level("WARN", ZOOKEEPER_LEVEL)))
    since(a, "third-errors-since", "any ERRORs since 7:21 pm on the 29th of July 2015? show them", error,
          "2015-07-29 19:21")


CHECK_ANALYTICS_THIRD = catalogue(globals())


def stddev(s: Sample, slug: str, question: str, values: tuple[pd.Series, pd.Series]) -> None:
    """The standard deviation, asked only where the population and the sample one agree within the tolerance."""
    with s.q.refusing(slug):
        population = both(*(float(v.dropna().std(ddof=0)) for v in values))
        s.q.measured(slug, "statistic", question, both(population, float(values[0].dropna().std(ddof=1)),
                                                       REL_TOLERANCE))


def span_of(s: Sample, slug: str, question: str, rows: tuple[pd.Series, pd.Series]) -> None:
    """From the first to the last matching line."""
    with s.q.refusing(slug):
        s.q.measured(slug, "duration", question, both(*(reading.span(m) for reading, m in zip(s.readings, rows))))


def app_third(t: Truth, q: Questions, logs: Path) -> None:
    s, records, latency = app_log(logs, q)
    log = s.log
    payments = (records.logger == "api.payments", log.regex(r'"logger":"api\.payments"'))
    s.stat("third-p90-payments-latency", "p90 latency for api.payments?",
           (latency[0][payments[0]], latency[1][payments[1]]), "p90")
    s.share("third-carol-share", "what share of lines are from user carol?",
            s.rows(records.user == "carol", r'"user":"carol"'))
    s.pivot("third-user-level", "count per user per level", (records.user, records.level),
            r'"level":"(?=\w+".*"user":"([^"]+)")(\w+)')
    s.silence("third-gap-payment-errors", "longest gap between api.payments errors?", s.rows(
        payments[0] & (records.level == "ERROR"), r'"level":"ERROR","logger":"api\.payments"'))
    s.busiest("third-busiest-hour", "wich hour was busiest in app.jsonl?")
    s.listing("third-last-3-users-warn", "last 3 WARN lines from api.users", s.rows(
        (records.level == "WARN") & (records.logger == "api.users"), r'"level":"WARN","logger":"api\.users"'), 3)
    s.stat("third-avg-latency-by-level", "avg latency_ms by level", latency, "mean",
           (records.level, log.lines.str.extract(r'"level":"(\w+)"', expand=False)))


def nginx_third(t: Truth, q: Questions, logs: Path) -> None:
    s, requests, sizes = nginx_log(logs, q)
    log = s.log
    get = (requests.method == "GET", log.regex(r'\] "GET '))
    stddev(s, "third-stddev-bytes", "stddev of response size?", sizes)
    s.stat("third-p99-get-bytes", "p99 bytes for GET requests", (sizes[0][get[0]], sizes[1][get[1]]), "p99")
    s.place("third-503-stop", "when did the 503s stop?", s.rows(requests.status == "503", r'" 503 \d+ "'), "last")
    s.share("third-ip-share", "what share of requests came from 10.0.4.15?",
            s.rows(requests.ip == "10.0.4.15", r"^10\.0\.4\.15 "))
    span_of(s, "third-502-span", "how long did the 502s go on, first to last?",
            s.rows(requests.status == "502", r'" 502 \d+ "'))
    s.listing("third-first-3-post", "first 3 POSTs", s.rows(requests.method == "POST", r'\] "POST '), 3, first=True)
    s.pivot("third-method-status", "requests per method per status", (requests.method, requests.status),
            r'^\S+ \S+ \S+ \[[^]]+\] "(\S+) [^"]*" (\d{3}) ')


CHECK_ANALYTIC_SETS_THIRD: dict[str, Callable[[Truth, Questions, Path], None]] = {"app": app_third,
                                                                                   "nginx": nginx_third}
