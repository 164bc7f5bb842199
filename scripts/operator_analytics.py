"""Analytics questions over the 16 loghub samples: statistics of numeric fields, rates (a statistic of an event's
lines per time bucket), first and last times, spans and durations, silences, shares, comparisons, two-key breakdowns
and listings. Each value is derived twice, with pandas over loghub's structured CSV (rows picked by `EventTemplate`,
`Level` or another column; times from the date and time columns; `LineId`) and with regexes over the raw lines (times
parsed from the line text; line numbers counted in the file); a question whose two derivations differ is refused.
Never from react-engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd
from operator_data import LogData, Mask, Questions
from operator_readings import Reading, both, loghub_readings, seconds, statistic

Rows = Callable[[LogData], Mask]


def level(word: str, written: str) -> tuple[Rows, str]:
    """Rows whose level is `word`, and the raw regex `written` with the word in place of LEVEL."""
    return (lambda log: log.level(word)), written.replace("LEVEL", word)


def template(text: str) -> Rows:
    return lambda log: log.col("EventTemplate").str.contains(text, regex=False)


def column(name: str, value: str) -> Rows:
    return lambda log: log.col(name) == value


@dataclass(frozen=True)
class Event:
    """Lines a question names (`words`), picked from the structured columns (`rows`) and by a regex (`raw`)."""

    slug: str
    words: str
    rows: Rows
    raw: str


@dataclass(frozen=True)
class Numbers:
    """A numeric field: the rows of `template`, the number `content` captures in their Content column (times
    `scale`), and the same number captured by `raw` over the raw lines; asked as (slug, func, question)."""

    template: str
    content: str
    raw: str
    asks: tuple[tuple[str, str, str], ...]
    scale: float = 1.0
    parse: Callable[[pd.Series], pd.Series] = field(default=lambda text: text.astype(float))


@dataclass(frozen=True)
class Versus:
    """Two row sets whose counts a question compares, each over a time window when `windows` gives them."""

    slug: str
    question: str
    a: Event
    b: Event
    windows: tuple[tuple[str, str], tuple[str, str]] | None = None


def versus(slug: str, question: str, a: tuple[Rows, str], b: tuple[Rows, str],
           windows: tuple[tuple[str, str], tuple[str, str]] | None = None) -> Versus:
    """A comparison of (structured rows, raw regex) `a` with `b`."""
    return Versus(slug, question, Event(slug, "", *a), Event(slug, "", *b), windows)


@dataclass(frozen=True)
class Analytics:
    """One system's analytics catalogue."""

    events: tuple[Event, ...] = ()
    numbers: tuple[Numbers, ...] = ()
    pivots: tuple[tuple[str, str, str, str, str], ...] = ()  # (slug, question, column a, column b, raw regex)
    days: tuple[str, str] | None = None  # two calendar days the log covers, compared for the first event
    sessions: tuple[tuple[str, str, str, str, str], ...] = ()  # (slug, question, start, end, key regex)
    versus: tuple[Versus, ...] = ()
    rates: tuple[tuple[str, str, str], ...] = ()  # (func, bucket as a pandas frequency, question) of the first event


FIRST = ("when was the first {w}?", "first {w} - when?", "when did {w} start?", "whens the frist {w}?",
         "I need the time of the earliest {w} in this log, please.")
LAST = ("when was the last {w}?", "latest {w}?", "when did the last {w} happen", "time of the most recent {w}?",
        "lst {w} - what time?")
SHARE = ("what percentage of lines are {w}?", "what % of the log is {w}?", "share of {w}?",
         "percentge of lines that are {w}?", "How much of this log, in percent, is {w}?")
LISTING = ("show the last 3 {w}", "last 3 {w}, newest first", "list the 3 most recent {w}", "show me the lastest 3 {w}")
SPAN = ("how long did {w} go on, from the first to the last?", "time between the first and last {w}?")
SILENCE = ("What was the longest silence between two lines?", "longest gap in the log?",
           "whats the longest time with no log lines?", "longest pause between log lines?")
WHOLE_SPAN = ("how long does the log span?", "time span of the log?", "how much time does this log cover?",
              "how long is the log, first line to last?")
COMPARE = ("{w} on {a} vs {b}?", "compare {w}: {a} against {b}", "were there more {w} on {a} or on {b}?")
VERSUS = ("{a} vs {b}?", "compare {a} and {b}", "how many {a} compared to {b}?", "{a} versus {b} counts")


def events_questions(log: LogData, q: Questions, readings: tuple[Reading, Reading], events: tuple[Event, ...],
                     turn: int) -> None:
    """First and last times, a share, a listing and a span of each event."""
    structured, raw = readings
    total = len(log.lines)
    for i, event in enumerate(events):
        s, r = event.rows(log), log.regex(event.raw)
        pick = turn + i
        for which, texts in (("first", FIRST), ("last", LAST)):
            with q.refusing(f"{which}-{event.slug}"):
                q.measured(f"{which}-{event.slug}", "first-last", texts[pick % len(texts)].format(w=event.words),
                           both(structured.place(s, which), raw.place(r, which)))
        with q.refusing(f"share-{event.slug}"):
            q.measured(f"share-{event.slug}", "share", SHARE[pick % len(SHARE)].format(w=event.words),
                       both(100 * int(s.sum()) / total, 100 * int(r.sum()) / total))
        with q.refusing(f"newest-{event.slug}"):
            newest = both(structured.newest(s, 3), raw.newest(r, 3))
            q.listing(f"newest-{event.slug}", LISTING[pick % len(LISTING)].format(w=event.words),
                      [f"{log.path.name}:{line} " for line in newest])
        if i == 0:
            with q.refusing(f"span-{event.slug}"):
                q.measured(f"span-{event.slug}", "duration", SPAN[pick % len(SPAN)].format(w=event.words),
                           both(structured.span(s), raw.span(r)))


def rate_questions(log: LogData, q: Questions, readings: tuple[Reading, Reading], spec: Analytics) -> None:
    """A statistic of the first event's lines counted per time bucket, over every bucket of their span."""
    structured, raw = readings
    for func, per, question in spec.rates:
        event = spec.events[0]
        slug = f"rate-{func}-{per.lower()}-{event.slug}"
        with q.refusing(slug):
            q.measured(slug, "statistic", question, both(structured.rate(event.rows(log), per, func),
                                                    raw.rate(log.regex(event.raw), per, func)))


def numbers_questions(log: LogData, q: Questions, numbers: tuple[Numbers, ...]) -> None:
    for spec in numbers:
        rows = log.col("EventTemplate").str.contains(spec.template, regex=False)
        from_csv = spec.parse(log.col("Content")[rows].str.extract(spec.content, expand=False).dropna()) * spec.scale
        from_raw = spec.parse(log.extract(spec.raw)) * spec.scale
        for slug, func, question in spec.asks:
            with q.refusing(f"{func}-{slug}"):
                q.measured(f"{func}-{slug}", "statistic", question,
                           both(statistic(from_csv.dropna(), func), statistic(from_raw.dropna(), func)))


def pivot_questions(log: LogData, q: Questions, pivots: tuple[tuple[str, str, str, str, str], ...]) -> None:
    """Two-key breakdowns, as {value of the first key: {value of the second: rows}}."""
    for slug, question, a, b, raw in pivots:
        keys = log.lines.str.extract(raw)
        with q.refusing(f"by-{slug}"):
            q.measured(f"by-{slug}", "breakdown", question,
                       both(nested(log.col(a), log.col(b)), nested(keys[0], keys[1])))


def nested(a: pd.Series, b: pd.Series) -> dict[str, dict[str, int]]:
    counts = pd.crosstab(a, b)
    return {str(x): {str(y): int(n) for y, n in row.items() if n} for x, row in counts.iterrows()}


def time_questions(log: LogData, q: Questions, readings: tuple[Reading, Reading], spec: Analytics,
                   turn: int) -> None:
    """The span and longest silence of the whole log, and the first event on two days."""
    structured, raw = readings
    every = log.all()
    with q.refusing("span"):
        q.measured("span", "duration", WHOLE_SPAN[turn % len(WHOLE_SPAN)],
                   both(structured.span(every), raw.span(every)))
    with q.refusing("silence"):
        q.measured("silence", "gaps", SILENCE[turn % len(SILENCE)],
                   both(structured.silence(every), raw.silence(every)))
    for event in spec.events[:1]:
        s, r = event.rows(log), log.regex(event.raw)
        if len(spec.events) > 1:
            with q.refusing(f"silence-{event.slug}"):
                q.measured(f"silence-{event.slug}", "gaps", f"longest gap between {event.words}?",
                           both(structured.silence(s), raw.silence(r)))
        if spec.days:
            a, b = spec.days
            words = [pd.Timestamp(d).strftime("%b %-d") for d in (a, b)]
            with q.refusing(f"compare-{event.slug}-days"):
                q.measured(f"compare-{event.slug}-days", "comparison",
                           COMPARE[turn % len(COMPARE)].format(w=event.words, a=words[0], b=words[1]),
                           [both(structured.on(s, d, _next(d)), raw.on(r, d, _next(d))) for d in (a, b)])
    if len(spec.events) > 1:
        a, b = spec.events[:2]
        versus_questions(log, q, readings, (Versus(f"{a.slug}-{b.slug}", VERSUS[turn % len(VERSUS)].format(
            a=a.words, b=b.words), a, b),))
    for slug, question, start, end, key in spec.sessions:
        with q.refusing(f"sessions-{slug}"):
            q.measured(f"sessions-{slug}", "duration", question, both(
                sessions(log, structured, template(start)(log), template(end)(log), key),
                sessions(log, raw, log.grep(start), log.grep(end), key)))


def versus_questions(log: LogData, q: Questions, readings: tuple[Reading, Reading], pairs: tuple[Versus, ...]) -> None:
    """Counts of two row sets (or of one set in two windows), as [first named, second named]."""
    structured, raw = readings
    everything = ("1900-01-01", "2100-01-01")
    for pair in pairs:
        windows = pair.windows or (everything, everything)
        with q.refusing(f"compare-{pair.slug}"):
            q.measured(f"compare-{pair.slug}", "comparison", pair.question, both(
                [structured.on(rows, *window) for rows, window in zip((pair.a.rows(log), pair.b.rows(log)), windows)],
                [raw.on(log.regex(rx), *window) for rx, window in zip((pair.a.raw, pair.b.raw), windows)]))


def _next(day: str) -> str:
    return (pd.Timestamp(day) + pd.Timedelta(days=1)).strftime("%Y-%m-%d")


def sessions(log: LogData, reading: Reading, starts: Mask, ends: Mask, key: str) -> dict[str, object]:
    """Start -> end durations per key: by key, then time, a start line directly followed by an end line pairs."""
    rows = starts | ends
    table = pd.DataFrame({"key": log.extract(key, rows), "time": reading.times[rows], "line": reading.lines[rows],
                          "start": starts[rows]}).dropna().sort_values(["key", "time", "line"], kind="stable")
    pairs = table.start.values[:-1] & ~table.start.values[1:] & (table.key.values[:-1] == table.key.values[1:])
    lasted = (table.time.values[1:] - table.time.values[:-1])[pairs] / pd.Timedelta("1s")
    return {"count": len(lasted), "mean_seconds": seconds(lasted.mean()), "max_seconds": seconds(lasted.max())}


def analytics(system: str, spec: Analytics) -> Callable[[LogData, Questions], None]:
    """The analytics questions of one loghub system."""

    def questions(log: LogData, q: Questions) -> None:
        readings = loghub_readings(log, system)
        turn = sorted(ANALYTICS_SPECS).index(system)
        events_questions(log, q, readings, spec.events, turn)
        time_questions(log, q, readings, spec, turn)
        rate_questions(log, q, readings, spec)
        numbers_questions(log, q, spec.numbers)
        pivot_questions(log, q, spec.pivots)
        versus_questions(log, q, readings, spec.versus)

    return questions


def _clock(text: pd.Series) -> pd.Series:
    """`00:03` (minutes:seconds) or `02:02:11` as seconds; anything else (`<1 sec`) missing."""
    parts = text.str.extract(r"^(?:(\d+):)?(\d\d):(\d\d)$").astype(float)
    return parts[0].fillna(0) * 3600 + parts[1] * 60 + parts[2]


ANDROID_LEVEL = r"^\S+ \S+\s+\d+\s+\d+ LEVEL "
APACHE_LEVEL = r"^\[[^]]+\] \[LEVEL\] "
BGL_LEVEL = r"^\S+ \d+ \S+ \S+ \S+ \S+ \S+ \S+ LEVEL "
HADOOP_LEVEL = r"^\S+ \S+ LEVEL "
HDFS_LEVEL = r"^\d+ \d+ \d+ LEVEL "
OPENSTACK_LEVEL = r"^\S+ \S+ \S+ \d+ LEVEL "
ZOOKEEPER_LEVEL = r"^\S+ \S+ - LEVEL "

ANALYTICS_SPECS: dict[str, Analytics] = {
    "Android": Analytics(
        rates=(("max", "1min", "maximum errors in a single minute?"),),
        events=(Event("errors", "errors", *level("E", ANDROID_LEVEL)),
                Event("warnings", "warnings", *level("W", ANDROID_LEVEL))),
        numbers=(Numbers("Animating brightness: target=", r"target=(\d+)", r"Animating brightness: target=(\d+),",
                         (("brightness-target", "mean", "average brightness target?"),
                          ("brightness-target", "max", "max brightness target"))),)),
    "Apache": Analytics(
        rates=(("mean", "1h", "average number of errors per hour"), ("median", "1h", "median errors per hour?")),
        versus=(versus("notice-error", "how do notice lines compare with error lines?",
                       level("notice", APACHE_LEVEL), level("error", APACHE_LEVEL)),
                versus("errors-before-after", "errors before vs after 12:00 on Dec 5?",
                       level("error", APACHE_LEVEL), level("error", APACHE_LEVEL),
                       (("2005-12-05", "2005-12-05 12:00"), ("2005-12-05 12:00", "2005-12-06")))),
        events=(Event("errors", "errors", *level("error", APACHE_LEVEL)),
                Event("cant-find-child", "'Can't find child' messages", template("Can't find child"),
                      r"Can't find child \d+ in scoreboard")),
        days=("2005-12-04", "2005-12-05")),
    "BGL": Analytics(
        rates=(("mean", "1D", "average number of FATAL events per day"),),
        events=(Event("fatal", "FATAL events", *level("FATAL", BGL_LEVEL)),
                Event("generating-core", "'generating core' lines", template("generating core"),
                      r"generating core\.\d+")),
        pivots=(("component-level", "lines by component and level?", "Component", "Level",
                 r"^\S+ \d+ \S+ \S+ \S+ \S+ \S+ (\S+) (\S+) "),),
        versus=(versus("kernel-app", "KERNEL vs APP lines?", (column("Component", "KERNEL"), r"^(?:\S+ ){7}KERNEL "),
                       (column("Component", "APP"), r"^(?:\S+ ){7}APP ")),)),
    "HDFS": Analytics(
        rates=(("mean", "1D", "average WARN lines per day"),),
        versus=(versus("info-warn", "INFO lines compared to WARN lines", level("INFO", HDFS_LEVEL),
                       level("WARN", HDFS_LEVEL)),),
        events=(Event("warn", "WARN lines", *level("WARN", HDFS_LEVEL)),
                Event("deleting", "block deletions", template("Deleting block"), r"Deleting block blk_")),
        numbers=(Numbers("Received block blk_<*>", r"of size (\d+)", r"Received block .* of size (\d+)",
                         (("received-size", "mean", "average size of received blocks?"),
                          ("received-size", "min", "smallest received block size?"),
                          ("received-size", "max", "max size of a received block"))),),
        pivots=(("level-component", "count lines per level per component", "Level", "Component",
                 r"^\d+ \d+ \d+ (\S+) ([^:]+): "),),
        days=("2008-11-09", "2008-11-10")),
    "HPC": Analytics(
        events=(Event("unavailable", "unavailable state changes", template("is in the unavailable state"),
                      r"is in the unavailable state"),),
        numbers=(Numbers("ambient=<*>", r"^ambient=(\d+)$", r" ambient=(\d+)$",
                         (("ambient", "mean", "average ambient temperature?"),
                          ("ambient", "max", "highest ambient reading?"),
                          ("ambient", "median", "median ambient"))),)),
    "Hadoop": Analytics(
        rates=(("mean", "1min", "avg ERROR lines per minute"),),
        events=(Event("errors", "ERROR lines", *level("ERROR", HADOOP_LEVEL)),
                Event("warn", "WARN lines", *level("WARN", HADOOP_LEVEL))),
        numbers=(Numbers("Progress of TaskAttempt", r"is : ([\d.]+)$", r"Progress of TaskAttempt \S+ is : ([\d.]+)$",
                         (("progress", "mean", "average task attempt progress?"),
                          ("progress", "median", "median progress of task attempts?"))),)),
    "HealthApp": Analytics(
        events=(Event("stand-steps", "onStandStepChanged lines", template("onStandStepChanged"),
                      r"\|onStandStepChanged \d+$"),),
        numbers=(Numbers("totalCalories=", r"totalCalories=(\d+)", r"\|calculateCaloriesWithCache totalCalories=(\d+)",
                         (("total-calories", "max", "max totalCalories?"),
                          ("total-calories", "mean", "average totalCalories"))),
                 Numbers("totalAltitude=", r"totalAltitude=(\d+)", r"\|calculateAltitudeWithCache totalAltitude=(\d+)",
                         (("total-altitude", "mean", "what is the mean totalAltitude?"),)),
                 Numbers("onStandStepChanged <*>", r"^onStandStepChanged (\d+)$", r"\|onStandStepChanged (\d+)$",
                         (("stand-steps", "max", "highest onStandStepChanged value?"),)))),
    "Linux": Analytics(
        rates=(("mean", "1h", "how many authentication failures per hour on average?"),),
        versus=(versus("ftpd-sshd", "ftpd vs sshd lines?", (column("Component", "ftpd"), r"^\w+ +\d+ \S+ \S+ ftpd\["),
                       (column("Component", "sshd(pam_unix)"), r"^\w+ +\d+ \S+ \S+ sshd\(pam_unix\)\[")),),
        events=(Event("auth-failures", "authentication failures", template("authentication failure;"),
                      r"authentication failure;"),
                Event("sessions-opened", "sessions opened", template("session opened for user"),
                      r"session opened for user ")),
        sessions=(("pid", "how long did sessions last on average?", "session opened", "session closed",
                   r"\[(\d+)\]: session (?:opened|closed)"),)),
    "Mac": Analytics(
        events=(Event("cocoa", "Cocoa scripting errors", template("Cocoa scripting error"), r"Cocoa scripting error"),
                Event("thermal", "thermal pressure lines", template("Thermal pressure state"),
                      r"Thermal pressure state")),
        numbers=(Numbers("earlyWake - complete - took", r"took (\d+) milliseconds", r"earlyWake - complete - took (\d+) "
                         r"milliseconds", (("early-wake", "mean", "average earlyWake time?"),), scale=0.001),)),
    "OpenSSH": Analytics(
        rates=(("mean", "1h", "average failed passwords per hour?"),
               ("max", "1min", "peak failed passwords per minute")),
        versus=(versus("invalid-accepted", "compare invalid user attempts and accepted passwords",
                       (template("Invalid user <*> from"), r"\]: Invalid user .* from "),
                       (template("Accepted password for"), r"\]: Accepted password for ")),),
        events=(Event("failed-password", "failed passwords", template("Failed password"), r"\]: Failed password "),
                Event("invalid-user", "invalid user attempts", template("Invalid user <*> from"),
                      r"\]: Invalid user .* from ")),
        days=("2026-12-10", "2026-12-09")),
    "OpenStack": Analytics(
        rates=(("p95", "1min", "p95 of warnings per minute"),),
        versus=(versus("get-post", "GET vs POST requests?", (template('"GET <*>"'), r'"GET \S+ HTTP/1\.1" status'),
                       (template('"POST <*>"'), r'"POST \S+ HTTP/1\.1" status')),),
        events=(Event("warnings", "warnings", *level("WARNING", OPENSTACK_LEVEL)),
                Event("post", "POST requests", template('"POST <*>"'), r'"POST \S+ HTTP/1\.1" status')),
        numbers=(Numbers("status: <*> len: <*> time:", r"time: ([\d.]+)$", r"status: \d+ len: \d+ time: ([\d.]+)$",
                         (("response-time", "mean", "What is the average response time?"),
                          ("response-time", "median", "median time?"),
                          ("response-time", "p95", "95th percentile of response time"),
                          ("response-time", "max", "max time?"),
                          ("response-time", "min", "minimum response time"),
                          ("response-time", "p99", "p99 tiem?"))),
                 Numbers("status: <*> len: <*> time:", r"len: (\d+) time:", r"status: \d+ len: (\d+) time: ",
                         (("len", "mean", "average len?"), ("len", "sum", "total len of all responses?"),
                          ("len", "max", "largest len"), ("len", "p95", "p95 of len")))),
        pivots=(("level-component", "lines by level and component?", "Level", "Component",
                 r"^\S+ \S+ \S+ \d+ (\S+) (\S+) "),)),
    "Proxifier": Analytics(
        versus=(versus("chrome-firefox", "chrome.exe vs firefox.exe lines?",
                       (column("Program", "chrome.exe"), r"^\[[^]]+\] chrome\.exe - "),
                       (column("Program", "firefox.exe"), r"^\[[^]]+\] firefox\.exe - ")),),
        events=(Event("errors", "connection errors", template("error :"), r" error : "),),
        numbers=(Numbers("bytes<*>sent", r"close, (\d+) bytes", r" close, (\d+) bytes(?: \([^)]*\))? sent,",
                         (("bytes-sent", "sum", "How many bytes were sent in total?"),
                          ("bytes-sent", "mean", "average bytes sent per connection?"),
                          ("bytes-sent", "max", "most bytes sent?"),
                          ("bytes-sent", "median", "median bytes sent"))),
                 Numbers("bytes<*>sent", r"sent, (\d+) bytes", r" sent, (\d+) bytes(?: \([^)]*\))? received,",
                         (("bytes-received", "sum", "total bytes recieved?"),
                          ("bytes-received", "mean", "avg bytes received"),
                          ("bytes-received", "p95", "p95 bytes received"))),
                 Numbers("lifetime <*>", r"lifetime (\S+)$", r", lifetime ([\d:]+)$",
                         (("lifetime", "max", "longest connection lifetime?"),), parse=_clock))),
    "Spark": Analytics(
        events=(Event("finished-task", "finished tasks", template("Finished task"), r" Finished task "),),
        numbers=(Numbers("bytes result sent to driver", r"\. (\d+) bytes result", r"\)\. (\d+) bytes result sent",
                         (("result-bytes", "mean", "average result size sent to driver, in bytes?"),
                          ("result-bytes", "max", "max bytes result sent to driver"),
                          ("result-bytes", "sum", "total bytes of results sent to the driver?"))),
                 Numbers("Reading broadcast variable", r"took (\d+) ms", r"Reading broadcast variable \d+ took (\d+) ms",
                         (("broadcast-read", "mean", "how long did reading a broadcast variable take on average?"),),
                         scale=0.001))),
    "Thunderbird": Analytics(
        rates=(("mean", "1h", "average number of ntpd synchronizations per hour?"),),
        events=(Event("synchronized", "ntpd synchronizations", template("synchronized to"), r"ntpd\[\d+\]: "
                      r"synchronized to "),)),
    "Windows": Analytics(
        events=(Event("csi", "CSI lines", column("Component", "CSI"), r", Info\s+CSI "),)),
    "Zookeeper": Analytics(
        rates=(("max", "1h", "what's the max number of ERROR lines in any hour?"),),
        versus=(versus("warn-windows", "warnings between 15:00 and 17:00 on Jul 30 vs between 17:00 and 19:00 that day?",
                       level("WARN", ZOOKEEPER_LEVEL), level("WARN", ZOOKEEPER_LEVEL),
                       (("2015-07-30 15:00", "2015-07-30 17:00"), ("2015-07-30 17:00", "2015-07-30 19:00"))),),
        events=(Event("errors", "ERROR lines", *level("ERROR", ZOOKEEPER_LEVEL)),
                Event("warn", "WARN lines", *level("WARN", ZOOKEEPER_LEVEL))),
        numbers=(Numbers("Notification time out: <*>", r"time out: (\d+)$", r"Notification time out: (\d+)$",
                         (("notification-timeout", "mean", "average notification time out?"),
                          ("notification-timeout", "max", "max Notification time out"))),
                 Numbers("negotiated timeout <*>", r"negotiated timeout (\d+) ", r"with negotiated timeout (\d+) for",
                         (("negotiated-timeout", "mean", "what's the mean negotiated timeout?"),))),
        days=("2015-07-29", "2015-07-30")),
}

ANALYTICS: dict[str, Callable[[LogData, Questions], None]] = {
    system: analytics(system, spec) for system, spec in ANALYTICS_SPECS.items()
}
