"""A second batch of the check set's analytics questions (ids `...-again-...`), written after the planner was changed
on the first batch and before it ran on these: a fresh measure of how well those changes generalise. Other events,
fields and wordings again ("avg X per minute", "p90 of X by Y", "median X for Y requests", "when did Y start",
"the 4 earliest X"); values derived like the first batch's, never from react-engine.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from operator_analytics import HADOOP_LEVEL, ZOOKEEPER_LEVEL, Event, column, level, template
from operator_check_analytics import Ask, Field, catalogue, content, ev, grouped, said
from operator_check_analytics_samples import app_log, nginx_log
from operator_data import Questions
from operator_readings import both, iso
from operator_samples import Truth

POST = template('"POST <*>"')
TIMES = Field(template("status: <*> len: <*> time:"), r"time: ([\d.]+)$", r"status: \d+ len: \d+ time: ([\d.]+)$")


def per_bucket(a: Ask, slug: str, question: str, spec: Field, func: str, bucket: str) -> None:
    """`func` of the field per time bucket, as {bucket start (ISO 8601 UTC): value}."""
    rows = spec.rows(a.log)
    csv = a.log.col("Content")[rows].str.extract(spec.content, expand=False).astype(float) * spec.scale
    raw = a.log.lines.str.extract(spec.raw, expand=False).astype(float) * spec.scale
    structured, lines = a.readings
    with a.q.refusing(slug):
        a.q.measured(slug, "statistic", question, both(
            grouped(csv, structured.times.dt.floor(bucket).map(iso), func),
            grouped(raw, lines.times.dt.floor(bucket).map(iso), func)))


def android(a: Ask) -> None:
    a.place("again-real-get-tasks", "when was REAL_GET_TASKS first logged?", ev("tasks", said("REAL_GET_TASKS")), "first")
    a.share("again-lights-on", "How much of the log is setLightsOn(true), in %?", ev("lights", said("setLightsOn(true)")))
    a.silence("again-gap-ui-visibility", "longest gap between two setSystemUiVisibility calls",
              ev("ui", said("setSystemUiVisibility")))


def apache(a: Ask) -> None:
    a.versus("again-init-ok-error-state", "workerEnv.init() ok compared to 'workerEnv in error state'",
             ev("ok", said("workerEnv.init() ok")), ev("state", said("workerEnv in error state")))
    a.listing("again-earliest-4-forbidden", "the 4 earliest 'Directory index forbidden' errors",
              ev("forbidden", said("Directory index forbidden")), 4, first=True)


def bgl(a: Ask) -> None:
    a.place("again-last-parity", "when was the last instruction cache parity error corrected?",
            ev("parity", said("instruction cache parity error corrected")), "last")
    a.share("again-kernel-share", "what percent of lines are from the KERNEL component?",
            ev("kernel", (column("Component", "KERNEL"), r"^(?:\S+ ){7}KERNEL ")))


def hdfs(a: Ask) -> None:
    a.stat("again-p90-added-size", "p90 of size in addStoredBlock lines", Field(
        template("addStoredBlock: blockMap updated"), r" size (\d+)$", r"addStoredBlock: blockMap updated: .* size (\d+)$"),
        "p90")
    a.versus("again-served-exception", "Served block vs Got exception while serving",
             ev("served", said("Served block")), ev("exception", said("Got exception while serving")))
    a.silence("again-gap-deletions", "longest time between block deletions?",
              ev("deleting", (template("Deleting block"), r"Deleting block blk_")))


def hpc(a: Ask) -> None:
    a.share("again-linkerror", "what fraction of the log is 'Linkerror event interval expired'?",
            ev("linkerror", said("Linkerror event interval expired")))
    a.stat("again-ambient-by-node", "avg ambient by node", Field(template("ambient=<*>"), r"^ambient=(\d+)$",
                                                          r" ambient=(\d+)$"), "mean",
           (lambda log: log.col("Node"), r"^\d+ (\S+) \S+ \S+ \d+ \d+ ambient="))


def hadoop(a: Ask) -> None:
    lease = ev("lease", said("Failed to renew lease"))
    a.silence("again-gap-lease", "longest time between two 'Failed to renew lease' warnings", lease)
    per_bucket(a, "again-progress-per-minute", "avg progress per minute", Field(
        template("Progress of TaskAttempt"), r"is : ([\d.]+)$", r"Progress of TaskAttempt \S+ is : ([\d.]+)$"),
        "mean", "1min")
    a.listing("again-last-4-lease", "last 4 'Failed to renew lease' lines", lease, 4)
    a.versus("again-info-warn", "INFO lines compared with WARN lines", ev("INFO", level("INFO", HADOOP_LEVEL)),
             ev("WARN", level("WARN", HADOOP_LEVEL)))


def healthapp(a: Ask) -> None:
    a.stat("again-max-altitude", "highest totalAltitude?", Field(template("totalAltitude="), r"totalAltitude=(\d+)",
                                                          r"\|calculateAltitudeWithCache totalAltitude=(\d+)"), "max")
    a.place("again-first-screen-on", "when was the first SCREEN_ON?", ev("on", said("SCREEN_ON")), "first")
    a.versus("again-screen-on-off", "SCREEN_ON vs SCREEN_OFF", ev("on", said("SCREEN_ON")), ev("off", said("SCREEN_OFF")))


def linux(a: Ask) -> None:
    a.span("again-kerberos-span", "how long did the Kerberos authentication failures go on?",
           ev("kerberos", said("Kerberos authentication failed")))
    a.versus("again-kerberos-vs-auth-failed", "'Kerberos authentication failed' vs 'Authentication failed from'",
             ev("kerberos", said("Kerberos authentication failed")), ev("auth", said("Authentication failed from")))


def mac(a: Ask) -> None:
    a.listing("again-latest-4-wake", "latest 4 AppleCamIn::systemWakeCall lines", ev("wake", said("AppleCamIn::systemWakeCall")),
              4)
    a.silence("again-gap-hpd", "longest gap between 'Thunderbolt HPD packet' lines", ev("hpd", said("Thunderbolt HPD packet")))
    a.place("again-last-ping", "when did the last send_datagram_available_ping happen?",
            ev("ping", said("send_datagram_available_ping")), "last")


def openssh(a: Ask) -> None:
    a.place("again-break-in-start", "When did the break-in attempts start?",
            ev("break-in", said("POSSIBLE BREAK-IN ATTEMPT")), "first")
    a.silence("again-gap-disconnect", "longest pause between 'Received disconnect' lines?",
              ev("disconnect", said("Received disconnect from")))
    a.listing("again-recent-5-reverse", "show the 5 most recent 'reverse mapping checking' lines",
              ev("reverse", said("reverse mapping checking")), 5)


def openstack(a: Ask) -> None:
    a.stat("again-median-post-len", "median len for POST requests?", Field(POST, r"len: (\d+) time:",
                                                                    r'"POST \S+ HTTP/1\.1" status: \d+ len: (\d+) '), "median")
    a.stat("again-p90-time-by-status", "p90 of time by status", TIMES, "p90",
           (content(r"status: (\d+) "), r"status: (\d+) len: \d+ time: "))
    a.place("again-first-resumed", "when did the first VM Resumed happen?", ev("resumed", said("VM Resumed")), "first")
    a.share("again-share-404", "share of 404 responses?", ev("404", (lambda log: log.col("Content").str.contains("status: 404 len"), r"status: 404 len")))
    per_bucket(a, "again-time-per-minute", "average time per minute", TIMES, "mean", "1min")


def proxifier(a: Ask) -> None:
    a.stat("again-received-by-program", "avg bytes received per program", Field(
        template("bytes<*>sent"), r"sent, (\d+) bytes", r" sent, (\d+) bytes(?: \([^)]*\))? received,"), "mean",
        (lambda log: log.col("Program"), r"^\[[^]]+\] (.+?) - .* received,"))
    a.place("again-first-could-not-connect", "when was the first 'Could not connect to proxy' error?",
            ev("connect", said("Could not connect to proxy")), "first")


def spark(a: Ask) -> None:
    a.stat("again-p90-result", "p90 of the bytes result sent to driver", Field(
        template("bytes result sent to driver"), r"\. (\d+) bytes result", r"\)\. (\d+) bytes result sent"), "p90")
    a.place("again-first-computing", "first 'not found, computing it' line?", ev("computing", said("not found, computing it")),
            "first")
    a.silence("again-gap-finished", "longest pause between 'Finished task' lines?", ev("finished", said("Finished task")))


def thunderbird(a: Ask) -> None:
    a.share("again-ntpd-percent", "percentage of lines from ntpd",
            ev("ntpd", (column("Component", "ntpd"), r" ntpd\[\d+\]: ")))
    a.listing("again-last-3-sweep", "last 3 'NEW SWEEP' lines", ev("sweep", said("NEW SWEEP")), 3)


def windows(a: Ask) -> None:
    a.place("again-last-unrecognized", "when did the last 'Unrecognized packageExtended attribute' warning appear?",
            ev("unrecognized", said("Unrecognized packageExtended attribute")), "last")
    a.versus("again-expecting-failed", "'Expecting attribute name' vs 'Failed to get next element'",
             ev("expecting", said("Expecting attribute name")), ev("failed", said("Failed to get next element")))


def zookeeper(a: Ask) -> None:
    a.stat("again-p90-notification", "p90 Notification time out", Field(
        template("Notification time out: <*>"), r"time out: (\d+)$", r"Notification time out: (\d+)$"), "p90")
    a.place("again-channel-stop", "when did the 'Cannot open channel' errors stop?", ev("channel", said("Cannot open channel")),
            "last")
    a.versus("again-broken-interrupting", "Connection broken vs Interrupting SendWorker",
             ev("broken", said("Connection broken for id")), ev("interrupting", said("Interrupting SendWorker")))
    a.share("again-error-fraction", "what fraction of lines are ERROR?", Event("e", "e", *level("ERROR", ZOOKEEPER_LEVEL)))


CHECK_ANALYTICS_AGAIN = catalogue(globals())


def app_again(t: Truth, q: Questions, logs: Path) -> None:
    s, records, latency = app_log(logs, q)
    log = s.log
    orders = records.logger == "api.orders"
    s.stat("again-orders-latency", "avg latency_ms for api.orders", (latency[0][orders], latency[1][
        log.regex(r'"logger":"api\.orders"')]), "mean")
    s.stat("again-max-latency-by-user", "max latency_ms by user", latency, "max",
           (records.user, log.lines.str.extract(r'"user":"([^"]+)"', expand=False)))
    s.place("again-first-warn", "when was the first WARN?", s.rows(records.level == "WARN", r'"level":"WARN"'), "first")
    s.share("again-debug-fraction", "fraction of DEBUG lines?", s.rows(records.level == "DEBUG", r'"level":"DEBUG"'))
    s.versus("again-orders-users", "compare api.orders with api.users", s.rows(orders, r'"logger":"api\.orders"'),
             s.rows(records.logger == "api.users", r'"logger":"api\.users"'))


def nginx_again(t: Truth, q: Questions, logs: Path) -> None:
    s, requests, sizes = nginx_log(logs, q)
    log = s.log
    s.stat("again-p90-bytes", "p90 bytes", sizes, "p90")
    s.stat("again-bytes-by-method", "avg bytes per method", sizes, "mean",
           (requests.method, log.lines.str.extract(r'^\S+ \S+ \S+ \[[^]]+\] "(\S+) ', expand=False)))
    s.listing("again-last-4-404", "last 4 404s", s.rows(requests.status == "404", r'" 404 \d+ "'), 4)
    s.silence("again-gap-post", "longest gap between POST requests", s.rows(requests.method == "POST", r'\] "POST '))


CHECK_ANALYTIC_SETS_AGAIN: dict[str, Callable[[Truth, Questions, Path], None]] = {"app": app_again,
                                                                                   "nginx": nginx_again}
