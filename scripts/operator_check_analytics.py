"""The check set's analytics questions over the 16 loghub samples: written apart from the operator suite's (other
events, fields and wordings: "when did X stop", "what fraction", "p99 of", "avg X by Y", "busiest hour", "last 5",
dates in words), each value derived twice like the operator suite's (pandas over the structured CSV, regexes over the
raw lines) and refused when the two differ. Never from react-engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd
from operator_analytics import (
    APACHE_LEVEL,
    BGL_LEVEL,
    HADOOP_LEVEL,
    HDFS_LEVEL,
    OPENSTACK_LEVEL,
    ZOOKEEPER_LEVEL,
    Event,
    Rows,
    column,
    level,
    nested,
    sessions,
    template,
)
from operator_data import Ambiguous, LogData, Mask, Questions, ranked
from operator_readings import Reading, both, iso, loghub_readings, statistic

EVERYTHING = ("1900-01-01", "2100-01-01")


def ev(words: str, rows: tuple[Rows, str]) -> Event:
    """An event named by `words`, picked by (structured rows, raw regex)."""
    return Event(words, words, *rows)


def said(text: str, raw: str | None = None) -> tuple[Rows, str]:
    """Rows whose template holds `text`, and the raw regex (`text`, escaped, unless given)."""
    return template(text), raw if raw is not None else re.escape(text)


@dataclass(frozen=True)
class Field:
    """Numbers in the rows of `rows`: `content` captures one in their Content column, `raw` in the raw lines
    (times `scale`)."""

    rows: Rows
    content: str
    raw: str
    scale: float = 1.0


class Ask:
    """One log's analytics questions, each derived by both readings."""

    def __init__(self, log: LogData, q: Questions, system: str) -> None:
        self.log, self.q = log, q
        self.readings: tuple[Reading, Reading] = loghub_readings(log, system)

    def _both(self, measure: Callable[[Reading, Mask], object], event: Event | None) -> Any:
        structured, raw = self.readings
        s = event.rows(self.log) if event else self.log.all()
        r = self.log.regex(event.raw) if event else self.log.all()
        return both(measure(structured, s), measure(raw, r))

    def place(self, slug: str, question: str, event: Event, which: str) -> None:
        with self.q.refusing(slug):
            self.q.measured(slug, "first-last", question, self._both(lambda rd, m: rd.place(m, which), event))

    def span(self, slug: str, question: str, event: Event | None = None) -> None:
        with self.q.refusing(slug):
            self.q.measured(slug, "duration", question, self._both(Reading.span, event))

    def silence(self, slug: str, question: str, event: Event | None = None) -> None:
        with self.q.refusing(slug):
            self.q.measured(slug, "gaps", question, self._both(Reading.silence, event))

    def share(self, slug: str, question: str, event: Event) -> None:
        total = len(self.log.lines)
        with self.q.refusing(slug):
            self.q.measured(slug, "share", question, both(100 * int(event.rows(self.log).sum()) / total,
                                                          100 * int(self.log.regex(event.raw).sum()) / total))

    def listing(self, slug: str, question: str, event: Event, n: int, first: bool = False) -> None:
        with self.q.refusing(slug):
            lines = self._both(lambda rd, m: oldest(rd, m, n) if first else rd.newest(m, n), event)
            self.q.listing(slug, question, [f"{self.log.path.name}:{line} " for line in lines])

    def versus(self, slug: str, question: str, a: Event, b: Event,
               windows: tuple[tuple[str, str], tuple[str, str]] = (EVERYTHING, EVERYTHING)) -> None:
        structured, raw = self.readings
        with self.q.refusing(slug):
            self.q.measured(slug, "comparison", question, both(
                [structured.on(e.rows(self.log), *w) for e, w in zip((a, b), windows)],
                [raw.on(self.log.regex(e.raw), *w) for e, w in zip((a, b), windows)]))

    def stat(self, slug: str, question: str, spec: Field, func: str,
             by: tuple[Callable[[LogData], pd.Series], str] | None = None) -> None:
        """`func` of the field; with `by` (a structured key per row, a raw regex for it) as {group: value}."""
        rows = spec.rows(self.log)
        csv = self.log.col("Content")[rows].str.extract(spec.content, expand=False).astype(float) * spec.scale
        raw = self.log.lines.str.extract(spec.raw, expand=False).astype(float) * spec.scale
        with self.q.refusing(slug):
            if by is None:
                value = both(statistic(csv.dropna(), func), statistic(raw.dropna(), func))
            else:
                value = both(grouped(csv, by[0](self.log), func), grouped(raw, self.log.lines.str.extract(
                    by[1], expand=False), func))
            self.q.measured(slug, "statistic", question, value)

    def busiest(self, slug: str, question: str, event: Event | None = None, bucket: str = "1h") -> None:
        """The bucket with the most rows, as a ranking [[bucket start, rows]] (refused on a tie)."""
        with self.q.refusing(slug):
            self.q.ranked(slug, "statistic", question, self._both(lambda rd, m: ranked(
                {iso(t): n for t, n in rd.times[m].dt.floor(bucket).value_counts().items()}), event))

    def pivot(self, slug: str, question: str, a: str, b: str, raw: str) -> None:
        keys = self.log.lines.str.extract(raw)
        with self.q.refusing(slug):
            self.q.measured(slug, "breakdown", question, both(nested(self.log.col(a), self.log.col(b)),
                                                              nested(keys[0], keys[1])))

    def sessions(self, slug: str, question: str, start: str, end: str, key: str) -> None:
        structured, raw = self.readings
        with self.q.refusing(slug):
            self.q.measured(slug, "duration", question, both(
                sessions(self.log, structured, template(start)(self.log), template(end)(self.log), key),
                sessions(self.log, raw, self.log.grep(start), self.log.grep(end), key)))


def oldest(reading: Reading, rows: Mask, n: int) -> list[int]:
    """The line numbers of the n oldest rows, oldest first; refused when the nth ties with the next."""
    table = reading.timeline(rows)
    if len(table) <= n or table.time.iloc[n - 1] == table.time.iloc[n]:
        raise Ambiguous(f"the {n} oldest rows are not set apart by time")
    return [int(x) for x in table.line.iloc[:n]]


def grouped(values: pd.Series, keys: pd.Series, func: str) -> dict[str, float]:
    table = pd.DataFrame({"value": values, "key": keys}).dropna()
    return {str(k): statistic(v.value, func) for k, v in table.groupby("key")}


def content(pattern: str) -> Callable[[LogData], pd.Series]:
    """A group key read from the Content column."""
    return lambda log: log.col("Content").str.extract(pattern, expand=False)


GET = template('"GET <*>"')
TIME = Field(template("status: <*> len: <*> time:"), r"time: ([\d.]+)$", r"status: \d+ len: \d+ time: ([\d.]+)$")
GET_TIME = Field(GET, r"time: ([\d.]+)$", r'"GET \S+ HTTP/1\.1" status: \d+ len: \d+ time: ([\d.]+)$')
RECEIVED = Field(template("bytes<*>sent"), r"sent, (\d+) bytes", r" sent, (\d+) bytes(?: \([^)]*\))? received,")
RESULT = Field(template("bytes result sent to driver"), r"\. (\d+) bytes result", r"\)\. (\d+) bytes result sent")
BROADCAST = Field(template("Reading broadcast variable"), r"took (\d+) ms",
                  r"Reading broadcast variable \d+ took (\d+) ms", 0.001)


def apache(a: Ask) -> None:
    notices = ev("notices", level("notice", APACHE_LEVEL))
    a.place("first-child-init", "what time was the first mod_jk child init?", ev("child init", said("mod_jk child init")),
            "first")
    a.silence("gap-forbidden", "biggest gap between 'Directory index forbidden' errors?",
              ev("forbidden", said("Directory index forbidden")))
    a.share("fraction-notices", "what fraction of lines are notices?", notices)
    a.versus("notices-days", "notices on the 4th of December compared with the 5th?", notices, notices,
             (("2005-12-04", "2005-12-05"), ("2005-12-05", "2005-12-06")))
    a.listing("last-5-notices", "last 5 notices", notices, 5)
    a.busiest("busiest-hour", "busiest hour in the apache log?")
    a.span("seconds-covered", "how many seconds does the log cover?")


def bgl(a: Ask) -> None:
    tlb = ev("data TLB error interrupts", said("data TLB error interrupt"))
    fatal = ev("FATAL", level("FATAL", BGL_LEVEL))
    a.place("tlb-stop", "when did the data TLB error interrupts stop?", tlb, "last")
    a.silence("gap-tlb", "longest time between two data TLB error interrupts?", tlb)
    a.share("proportion-tlb", "proportion of lines that are data TLB error interrupts?", tlb)
    a.listing("latest-5-tlb", "show the 5 latest data TLB error interrupts", tlb, 5)
    a.versus("fatal-june-july", "compare FATAL events in June 2005 with July 2005", fatal, fatal,
             (("2005-06-01", "2005-07-01"), ("2005-07-01", "2005-08-01")))
    a.span("core-span", "how long did the generating core lines last, start to finish?",
           ev("generating core", said("generating core", r"generating core\.\d+")))


def hdfs(a: Ask) -> None:
    responder = ev("PacketResponder terminating", said("PacketResponder <*> for block blk_<*> terminating",
                                                       r"PacketResponder \d+ for block blk_-?\d+ terminating"))
    info = ev("INFO", level("INFO", HDFS_LEVEL))
    a.place("responder-last", "PacketResponder terminating - when was it last seen?", responder, "last")
    a.span("verification-span", "elapsed time between the first and last 'Verification succeeded'?",
           ev("verification", said("Verification succeeded")))
    a.share("info-percent", "INFO lines as a percentage of everything?", info)
    a.versus("info-nov10-11", "were there more INFO lines on November 10 or November 11?", info, info,
             (("2008-11-10", "2008-11-11"), ("2008-11-11", "2008-11-12")))
    a.listing("recent-5-responder", "most recent five PacketResponder terminating lines", responder, 5)
    a.stat("median-received", "p50 block size received?", Field(template("Received block blk_<*> of size"),
           r"of size (\d+)", r"Received block .* of size (\d+)"), "p50")
    a.pivot("component-level", "component and level breakdown", "Component", "Level", r"^\d+ \d+ \d+ (?=\S+ ([^:]+): )(\S+) ")


def hpc(a: Ask) -> None:
    a.stat("min-ambient", "lowest ambient temperature?", Field(template("ambient=<*>"), r"^ambient=(\d+)$",
                                                               r" ambient=(\d+)$"), "min")
    a.silence("silence", "max time between two lines?")
    a.listing("first-4-not-responding", "first 4 'not responding' lines", ev("not responding",
              said("not responding")), 4, first=True)
    a.pivot("component-state", "lines by component and state", "Component", "State", r"^\d+ \S+ (\S+) (\S+) ")


def hadoop(a: Ask) -> None:
    rm = ev("ERROR IN CONTACTING RM", said("ERROR IN CONTACTING RM"))
    warn, error = ev("WARN", level("WARN", HADOOP_LEVEL)), ev("ERROR", level("ERROR", HADOOP_LEVEL))
    a.place("rm-stop", "when did 'ERROR IN CONTACTING RM' stop appearing?", rm, "last")
    a.share("rm-percent", "how much of the log, percentage-wise, is 'ERROR IN CONTACTING RM'?", rm)
    a.silence("silence", "longest silence in the Hadoop log?")
    a.versus("warn-error", "WARN vs ERROR", warn, error)
    a.listing("last-2-errors", "last 2 ERROR lines", error, 2)
    a.stat("max-progress", "what was the max progress reported by a TaskAttempt?", Field(
        template("Progress of TaskAttempt"), r"is : ([\d.]+)$", r"Progress of TaskAttempt \S+ is : ([\d.]+)$"), "max")
    a.pivot("level-component", "break down the lines by level and component", "Level", "Component",
            r"^\S+ \S+ (\w+) \[[^]]+\] (\S+): ")


def healthapp(a: Ask) -> None:
    a.stat("p95-calories", "p95 of totalCalories", Field(template("totalCalories="), r"totalCalories=(\d+)",
                                                        r"\|calculateCaloriesWithCache totalCalories=(\d+)"), "p95")
    a.silence("silence", "what's the longest stretch with no lines?")


def linux(a: Ask) -> None:
    connection = ev("ftpd connections", said("connection from <*> (<*>) at", r"ftpd\[\d+\]: connection from "))
    a.place("ftpd-begin", "When did the ftpd connections begin?", connection, "first")
    a.silence("gap-check-pass", "largest interval between two 'check pass; user unknown' lines?",
              ev("check pass", said("check pass; user unknown")))
    a.share("ftpd-percent", "what percent of lines came from ftpd?",
            ev("ftpd", (column("Component", "ftpd"), r"^\w+ +\d+ \S+ \S+ ftpd\[")))
    a.versus("check-pass-closed", "check pass; user unknown vs session closed",
             ev("check pass", said("check pass; user unknown")), ev("closed", said("session closed for user")))
    a.listing("newest-4-closed", "show the newest 4 'session closed' lines", ev("closed", said("session closed")), 4)


def mac(a: Ask) -> None:
    a.place("first-arpt", "first ARPT line, what time?", ev("ARPT", said("ARPT:", r"ARPT: ")), "first")
    a.span("thermal-duration", "what's the duration between the first and last thermal pressure lines",
           ev("thermal", said("Thermal pressure state")))
    a.share("kernel-percent", "what % of the lines did kernel write?",
            ev("kernel", (column("Component", "kernel"), r"^\w+ +\d+ \S+ \S+ kernel\[")))


def openssh(a: Ask) -> None:
    a.place("first-accepted", "time of the first Accepted password?", ev("accepted", said("Accepted password for")),
            "first")
    a.share("disconnect-portion", "what portion of the log is 'Received disconnect'?",
            ev("disconnect", said("Received disconnect from")))
    a.versus("closed-no-identification", "compare 'Connection closed' with 'Did not receive identification string'",
             ev("closed", said("Connection closed by")), ev("no identification", said("Did not receive identification")))
    a.listing("latest-4-no-identification", "latest 4 'Did not receive identification string' lines",
              ev("no identification", said("Did not receive identification string")), 4)


def openstack(a: Ask) -> None:
    paused = ev("VM Paused", said("VM Paused (Lifecycle Event)"))
    a.stat("p99-get-time", "what's the 99th percentile of time for GET requests", GET_TIME, "p99")
    a.stat("avg-time-by-status", "avg response time by status", TIME, "mean",
           (content(r"status: (\d+) "), r"status: (\d+) len: \d+ time: "))
    a.span("started-span", "how long did the VM Started events span?", ev("started", said("VM Started (Lifecycle Event)")))
    a.silence("gap-post", "longest pause between POST requests?", ev("POST", (template('"POST <*>"'),
                                                                           r'"POST \S+ HTTP/1\.1" status')))
    a.versus("info-warning", "how many INFO lines compared with WARNING lines?",
             ev("INFO", level("INFO", OPENSTACK_LEVEL)), ev("WARNING", level("WARNING", OPENSTACK_LEVEL)))
    a.listing("last-five-paused", "last five VM Paused events", paused, 5)
    a.pivot("component-level", "count lines per component and level", "Component", "Level",
            r"^\S+ \S+ \S+ \d+ (?=\S+ (\S+) )(\S+) ")
    a.busiest("busiest-minute", "which minute was busiest?", None, "1min")


def proxifier(a: Ask) -> None:
    a.stat("min-received", "smallest amount of bytes received?", RECEIVED, "min")
    a.share("chrome-percent", "percent of lines from chrome.exe?",
            ev("chrome", (column("Program", "chrome.exe"), r"^\[[^]]+\] chrome\.exe - ")))
    a.versus("dropbox-wechat", "Dropbox.exe compared with WeChat.exe",
             ev("dropbox", (column("Program", "Dropbox.exe"), r"^\[[^]]+\] Dropbox\.exe - ")),
             ev("wechat", (column("Program", "WeChat.exe"), r"^\[[^]]+\] WeChat\.exe - ")))


def spark(a: Ask) -> None:
    a.stat("median-result", "median result size sent to the driver", RESULT, "median")
    a.stat("slowest-broadcast", "slowest broadcast variable read?", BROADCAST, "max")
    a.place("first-assigned", "when was the first 'Got assigned task'?", ev("assigned", said("Got assigned task")),
            "first")
    a.span("runtime", "how long does the log run for?")
    a.versus("running-finished", "Running task vs Finished task counts",
             ev("running", said("Running task")), ev("finished", said("Finished task")))
    a.pivot("component-level", "component by level counts", "Component", "Level", r"^\S+ \S+ (?=\w+ ([^:]+): )(\w+) ")


def thunderbird(a: Ask) -> None:
    opened = ev("opened", said("session opened for user root"))
    a.place("last-dhcpdiscover", "most recent DHCPDISCOVER at?", ev("DHCPDISCOVER", said("DHCPDISCOVER")), "last")
    a.silence("gap-synchronized", "longest wait between two 'synchronized to' lines?",
              ev("synchronized", said("synchronized to", r"ntpd\[\d+\]: synchronized to ")))
    a.share("no-answer-fraction", "what fraction of the log is 'got not answer from any' messages?",
            ev("no answer", said("got not answer from any")))
    a.versus("opened-closed", "compare session opened with session closed", opened,
             ev("closed", said("session closed for user root")))
    a.sessions("root-sessions", "how long does a root session take on average?", "session opened for user root",
               "session closed for user root", r"\[(\d+)\]: session (?:opened|closed)")


def windows(a: Ask) -> None:
    a.place("first-invalid-package", "earliest CBS_E_INVALID_PACKAGE failure?",
            ev("invalid package", said("CBS_E_INVALID_PACKAGE")), "first")
    a.silence("quiet", "longest time the log went quiet?")
    a.share("manifest-percent", "what percentage of lines are CBS_E_MANIFEST_INVALID_ITEM?",
            ev("manifest", said("CBS_E_MANIFEST_INVALID_ITEM")))
    a.pivot("component-level", "lines per component per level", "Component", "Level",
            r"^\S+ \S+, (?=\w+\s+(\S+) )(\w+)")


def zookeeper(a: Ask) -> None:
    expiring = ev("Expiring session", said("Expiring session"))
    a.place("first-expiring", "when did sessions start expiring?", expiring, "first")
    a.span("warn-duration", "how long did the WARN lines go on for?", ev("WARN", level("WARN", ZOOKEEPER_LEVEL)))
    a.silence("gap-expiring", "biggest time gap between consecutive 'Expiring session' messages", expiring)
    a.share("info-percent", "INFO lines as a % of all lines", ev("INFO", level("INFO", ZOOKEEPER_LEVEL)))
    a.listing("last-3-expiring", "the last three Expiring session lines", expiring, 3)
    a.stat("min-notification", "What's the lowest notification time out?", Field(
        template("Notification time out: <*>"), r"time out: (\d+)$", r"Notification time out: (\d+)$"), "min")
    a.busiest("busiest-hour-warn", "in which hour were the most WARN lines logged?",
              ev("WARN", level("WARN", ZOOKEEPER_LEVEL)))
    a.span("expiring-span", "elapsed time from the first Expiring session message to the last one?", expiring)


def android(a: Ask) -> None:
    a.versus("debug-info", "debug lines vs info lines", ev("D", level("D", r"^\S+ \S+\s+\d+\s+\d+ LEVEL ")),
             ev("I", level("I", r"^\S+ \S+\s+\d+\s+\d+ LEVEL ")))
    a.listing("last-5-debug", "last 5 debug lines", ev("D", level("D", r"^\S+ \S+\s+\d+\s+\d+ LEVEL ")), 5)
    a.pivot("level-pid", "lines by level and pid", "Level", "Pid", r"^\S+ \S+\s+(?=\d+\s+\d+ (\w) )(\d+)")


SYSTEM_NAMES = ("Android", "Apache", "BGL", "HDFS", "HPC", "Hadoop", "HealthApp", "Linux", "Mac", "OpenSSH",
                "OpenStack", "Proxifier", "Spark", "Thunderbird", "Windows", "Zookeeper")


def catalogue(names: dict[str, object]) -> dict[str, Callable[[LogData, Questions], None]]:
    """Each system's questions, asked by the function of `names` (a module's) named after it in lower case."""

    def asking(system: str) -> Callable[[LogData, Questions], None]:
        ask = names[system.lower()]
        return lambda log, q: ask(Ask(log, q, system))  # type: ignore[operator]

    return {system: asking(system) for system in SYSTEM_NAMES}


CHECK_ANALYTICS = catalogue(globals())
