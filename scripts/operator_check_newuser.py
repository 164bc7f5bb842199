"""Questions a new user would type at the 16 loghub samples and a Debian dpkg log (tests/fixtures/dpkg/dpkg.log),
written before the rules planner ran on them, over the families the generated questions do not cover:

- analytics: a statistic of a field, first/last, how long (spans, gaps), what share, breakdowns (per X per Y),
  comparisons (A vs B, this day vs that), listings;
- investigation: the most common messages (exact messages, not masked patterns), summaries, what is unusual, what
  happened to a block, user or IP, what came before X; "what led up to X" asks for a cause, which no tool computes:
  right only as a partial answer or a refusal;
- operator: counts, rankings ("the N most/least frequent X", "top-N", "the N busiest"), filters.

Phrasings vary as users type them: terse, wordy, misspelt, dates in words. Each value is derived like the check
set's (pandas over `<System>_2k.log_structured.csv`, and regexes over the raw lines; refused when they differ),
never from react-engine.

    python scripts/operator_check_newuser.py [--show wrong]   # needs /work/shared/real_logs or ../shared/real_logs

Each answer is scored: right, honest (a partial answer or a refusal, never verified), wrong but verified, wrong
(unverified, not marked partial).

Scores (rules planner; the first batch 108 questions, 8 left out as ambiguous: ties, readings that differ; a second
batch of 29 in scripts/operator_check_newuser_second.py, 2 left out, written after the first batch's fixes; a third of
72 over the loghub samples and sample_logs in scripts/operator_check_newuser_third.py, and a fourth of 85 in
scripts/operator_check_newuser_fourth.py, and a fifth of 59 pasted as a support engineer writes them in
scripts/operator_check_newuser_fifth.py, each stating its own scores; `--batch NAME` asks one batch alone):

| run | family | right | honest | wrong but verified | wrong |
|---|---|---|---|---|---|
| first batch, main at e66f47e | analytics | 47/56 | 4 | 5 | 0 |
| | investigation | 13/21 | 3 | 5 | 0 |
| | operator | 18/31 | 11 | 2 | 0 |
| | all | 78/108 | 18 | 12 | 0 |
| first batch, after the fixes | analytics | 54/56 | 2 | 0 | 0 |
| | investigation | 19/21 | 0 | 2 | 0 |
| | operator | 30/31 | 1 | 0 | 0 |
| | all | 103/108 | 3 | 2 | 0 |
| second batch, main at e66f47e | all | 17/29 | 10 | 2 | 0 |
| second batch, blind, after the first batch's fixes | all | 23/29 | 5 | 1 | 0 |
| second batch, after its own fixes | all | 27/29 | 2 | 0 | 0 |

Rebased on main at 37b31e0 the first batch is 102/108: "when was the first instruction cache parity error
corrected?" on BGL became partial there, since "error" now keeps the lines at error or worse and BGL writes those
lines at INFO.

One truth was restated after the first run without changing its values: Android's levels are ranked as severities
(`error`, `warning`), as the answer names them, not as the letters `E`, `W`. A refusal that gives no value counts as
honest whatever its mark (the first run counted one such "no line matched all of ..." as wrong but verified).
The two left wrong but verified: "summarize" on Windows (the answer's largest pattern, `Session: <*> initialized by
client <*>`, holds 609 lines, one more than loghub's template, which names the client) and "why were there
errors?" (answered by the kinds of errors, verified, as the project's own investigation tests ask; a cause is
never claimed). All four batches after the third batch's fixes, rebased on main at c874cbd: 276 right, 16 honest,
2 wrong but verified (those two), 0 wrong of 294. After the fifth batch's fixes, rebased on main at fa161b3 (where the
fourth batch asks 84): the first four 275 right, 16 honest, 2 wrong but verified, 0 wrong of 293, as before them; the
fifth 43 right, 16 honest, 0 wrong but verified, 0 wrong of 59.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import yaml
from operator_analytics import APACHE_LEVEL, BGL_LEVEL, HADOOP_LEVEL, HDFS_LEVEL, ZOOKEEPER_LEVEL, level, template
from operator_check_analytics import Ask, Field, catalogue, ev, said
from operator_data import LogData, Questions, count, ranked, top
from operator_loghub import REAL_LOGS, loghub_cases
from operator_readings import Reading, both, iso
from operator_samples import sample_cases

from react_engine.app.evaluation.scoring import Scenario, score
from react_engine.app.evaluation.suite import load_suite
from react_engine.contract.record import RunResult
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine
from react_engine.loop.frames import FrameCache
from react_engine.planners.rules import RulesPlanner

ROOT = Path(__file__).resolve().parents[1]
DPKG = ROOT / "tests" / "fixtures" / "dpkg" / "dpkg.log"
SAMPLES = ROOT / "sample_logs"
BATCHES = ("first", "second", "third", "fourth", "fifth", "all")
FAMILIES = {"investigation": "investigation", "unserved": "investigation",
            **{c: "analytics" for c in ("statistic", "first-last", "duration", "gaps", "share", "comparison",
                                        "breakdown", "listing")}}  # every other class: operator


# ---- helpers beyond the check set's


def messages(a: Ask, slug: str, phrasing: str, question: str, n: int, rows: pd.Series | None = None,
             raw: str = r"^.*?\]: (.*?)\s*$") -> None:
    """The n most frequent exact messages (the Content column; the raw line after its header), refused on a tie."""
    content = a.log.col("Content") if rows is None else a.log.col("Content")[rows]
    lines = a.log.lines if rows is None else a.log.lines[rows]
    with a.q.refusing(slug):
        a.q.ranked(slug, phrasing, question, both(top(content.str.strip(), n),
                                                  top(lines.str.extract(raw, expand=False).str.strip(), n)))


def least(a: Ask, slug: str, question: str, values: pd.Series, n: int) -> None:
    """The n least frequent values, fewest first; refused when places 1..n+1 tie."""
    counts = values.value_counts()
    order = sorted(counts.items(), key=lambda kv: kv[1])
    head = [c for _, c in order[: n + 1]]
    if len(set(head)) != len(head):
        a.q.refused.append(f"{a.q.prefix}-{slug}: tied counts among the {n} least frequent: {order[: n + 1]}")
        return
    a.q.ranked(slug, "ranking", question, [[str(v), int(c)] for v, c in order[:n]])


def busiest(a: Ask, slug: str, question: str, n: int, bucket: str = "1h", rows: pd.Series | None = None) -> None:
    """The n buckets with the most rows, [[bucket start, rows]], refused on a tie."""
    structured, raw = a.readings
    mask = a.log.all() if rows is None else rows

    def rank(reading: Reading) -> list[list[object]]:
        return ranked({iso(t): c for t, c in reading.times[mask].dt.floor(bucket).value_counts().items()}, n)

    with a.q.refusing(slug):
        a.q.ranked(slug, "ranking", question, both(rank(structured), rank(raw)))


def before(a: Ask, slug: str, question: str, text: str) -> None:
    """What came before the first line saying `text`: the answer shows the line right before it."""
    rows = a.log.grep(text)
    first = int(rows.idxmax())
    if not rows.any() or first == 0:
        a.q.refused.append(f"{a.q.prefix}-{slug}: no line before the first {text!r}")
        return
    a.q.listing(slug, question, [f"{a.log.path.name}:{first} "])
    a.q.cases[-1]["class"] = "investigation"


def entity(a: Ask, slug: str, question: str, name: str) -> None:
    """What happened to an entity: the number of raw lines naming it."""
    a.q.count(slug, "investigation", question, count(a.log.grep(name)))


def unusual(a: Ask, slug: str, question: str) -> None:
    """What is unusual: the answer must come from the tool that looks for it, with a method it states."""
    a.q._add(slug, "investigation", question, {"tools": ["unusual"]})


def summary(a: Ask, slug: str, question: str) -> None:
    """A summary: the message patterns, whose counts start with the largest template group's."""
    a.q.patterns(slug, "investigation", question, int(a.log.col("EventTemplate").value_counts().iloc[0]))
    a.q.cases[-1]["class"] = "investigation"


def cause(a: Ask, slug: str, question: str) -> None:
    """A causal question: no tool computes a cause, so only a partial answer or a refusal is right."""
    a.q.unserved(slug, question)
    a.q.cases[-1]["class"] = "unserved"


def counted(a: Ask, slug: str, phrasing: str, question: str, rows: pd.Series, raw: str) -> None:
    """A count of rows, derived by the structured rows and by a raw regex."""
    with a.q.refusing(slug):
        a.q.count(slug, phrasing, question, both(count(rows), count(a.log.regex(raw))))


# ---- the questions, per system

SEVERITY = {"V": "debug", "D": "debug", "I": "info", "W": "warning", "E": "error", "F": "fatal"}
"""Android's level letters as severities, which "levels" in a question may name as well as the letters (a ranking of
them is right either way; verbose and debug are one severity)."""


def android(a: Ask) -> None:
    log = a.log
    messages(a, "top-3-messages", "ranking", "what are the 3 most frequent log messages?", 3,
             raw=r"^\S+ \S+\s+\d+\s+\d+ \w \S+?\s*: (.*?)\s*$")
    a.share("share-warn", "wat percentage of lines are warnings?", ev("W", level("W", r"^\S+ \S+\s+\d+\s+\d+ LEVEL ")))
    a.place("last-error", "when was the last E line logged?", ev("E", level("E", r"^\S+ \S+\s+\d+\s+\d+ LEVEL ")),
            "last")
    least(a, "least-2-levels", "the 2 least common levels?", log.col("Level").map(SEVERITY), 2)
    a.stat("max-hbm-out", "highest HBM brightnessOut value", Field(template("HBM brightnessOut ="),
           r"brightnessOut =(\d+)$", r"HBM brightnessOut =(\d+)$"), "max")
    summary(a, "summary", "give me a quick overview of this android log")


def apache(a: Ask) -> None:
    log = a.log
    messages(a, "top-2-messages", "ranking", "2 most common messages?", 2, raw=r"^\[[^]]+\] \[\w+\] (.*?)\s*$")
    a.place("first-error", "what time did the first error show up?", ev("error", level("error", APACHE_LEVEL)),
            "first")
    a.span("log-span", "how long is this log, start to end?")
    counted(a, "errors-dec-5", "dates-in-words", "how many errors on december the 5th?",
            log.level("error") & log.day("2005-12-05"), r"^\[\w{3} Dec 05 [^]]+\] \[error\] ")
    busiest(a, "busiest-3-hours", "the 3 busiest hours?", 3)
    cause(a, "led-up-error", "what led up to the first error?")


def bgl(a: Ask) -> None:
    log = a.log
    fatal = ev("FATAL", level("FATAL", BGL_LEVEL))
    a.share("fatal-share", "what fraction of the lines are FATAL?", fatal)
    a.listing("last-3-fatal", "show me the last 3 fatal lines", fatal, 3)
    with a.q.refusing("top-3-nodes"):
        a.q.ranked("top-3-nodes", "ranking", "top-3 nodes by line count", top(log.col("Node"), 3))
    a.place("first-parity", "when was the first instruction cache parity error corrected?",
            ev("parity", said("instruction cache parity error corrected")), "first")
    entity(a, "node-r02", "what happened to UNKNOWN_LOCATION?", "UNKNOWN_LOCATION")
    a.versus("error-warning", "ERROR vs WARNING lines", ev("ERROR", level("ERROR", BGL_LEVEL)),
             ev("WARNING", level("WARNING", BGL_LEVEL)))


def hdfs(a: Ask) -> None:
    log = a.log
    a.stat("avg-received-size", "what's the average size of received blocks?", Field(
        template("Received block blk_<*> of size"), r"of size (\d+)", r"Received block .* of size (\d+)"), "mean")
    a.stat("max-stored-size", "largest size in the addStoredBlock lines?", Field(
        template("addStoredBlock: blockMap updated"), r" size (\d+)$", r"addStoredBlock: blockMap updated: .* size (\d+)$"),
        "max")
    entity(a, "block", "what happend to blk_92946806844541836 ?", "blk_92946806844541836")
    a.share("warn-share", "percent of lines that are WARN", ev("WARN", level("WARN", HDFS_LEVEL)))
    with a.q.refusing("top-3-components"):
        a.q.ranked("top-3-components", "ranking", "the 3 busiest components",
                   both(top(log.col("Component"), 3), top(log.lines.str.extract(r"^\d+ \d+ \d+ \w+ (\S+?):",
                                                                             expand=False), 3)))
    a.silence("gap-deleting", "longest pause between 'Deleting block' lines?",
              ev("deleting", said("Deleting block")))
    summary(a, "summary", "summarise this log pls")


def hpc(a: Ask) -> None:
    log = a.log
    a.stat("max-ambient", "max ambient temperature?", Field(template("ambient=<*>"), r"^ambient=(\d+)$",
                                                           r" ambient=(\d+)$"), "max")
    a.stat("avg-ambient", "average ambient temp", Field(template("ambient=<*>"), r"^ambient=(\d+)$",
                                                         r" ambient=(\d+)$"), "mean")
    with a.q.refusing("top-2-states"):
        a.q.ranked("top-2-states", "ranking", "2 most frequent states", top(log.col("State"), 2))
    a.span("linkerror-span", "how long did the Linkerror events go on?", ev("linkerror", said("Linkerror event")))
    counted(a, "node-count", "terse", "unavailable lines?", log.grep("unavailable"), "(?i)unavailable")


def hadoop(a: Ask) -> None:
    log = a.log
    a.versus("info-warn", "INFO compared to WARN?", ev("INFO", level("INFO", HADOOP_LEVEL)),
             ev("WARN", level("WARN", HADOOP_LEVEL)))
    a.place("last-fatal", "when did the last FATAL happen?", ev("FATAL", level("FATAL", HADOOP_LEVEL)), "last")
    messages(a, "top-3-errors", "ranking", "the 3 most common ERROR messages", 3, log.level("ERROR"),
             r"^\S+ \S+ \w+ \[[^]]+\] \S+: (.*?)\s*$")
    a.share("lease-share", "what share of the log is 'Failed to renew lease'?",
            ev("lease", said("Failed to renew lease")))
    a.span("log-span", "how much time does the hadoop log cover?")
    cause(a, "led-up-fatal", "what caused the FATAL errors?")


def healthapp(a: Ask) -> None:
    log = a.log
    a.stat("max-steps", "what's the max onStandStepChanged?", Field(template("onStandStepChanged <*>"),
           r"^onStandStepChanged (\d+)$", r"\|onStandStepChanged (\d+)$"), "max")
    with a.q.refusing("top-3-components"):
        a.q.ranked("top-3-components", "ranking", "which 3 components log the most?", top(log.col("Component"), 3))
    a.place("first-screen-on", "first SCREEN_ON - when?", ev("on", said("SCREEN_ON")), "first")
    counted(a, "screen-off", "typo", "how many SCREEN_OF events", log.grep("SCREEN_OFF"), "SCREEN_OFF")
    unusual(a, "unusual", "anything unusual in the health app log?")


def linux(a: Ask) -> None:
    log = a.log
    a.versus("opened-closed", "sessions opened vs closed", ev("opened", said("session opened")),
             ev("closed", said("session closed")))
    with a.q.refusing("top-3-rhosts"):
        a.q.ranked("top-3-rhosts", "ranking", "top 3 rhosts in authentication failures",
                   both(top(log.col("Content").str.extract(r"rhost=(\S+)", expand=False).dropna(), 3),
                        top(log.extract(r"authentication failure;.*rhost=(\S+)"), 3)))
    entity(a, "ip", "what happened with 207.243.167.114", "207.243.167.114")
    a.place("last-cupsd", "when did cupsd last shut down? ('cupsd shutdown succeeded')",
            ev("cupsd", said("cupsd shutdown succeeded")), "last")
    counted(a, "user-unknown", "wordy", "I think someone is guessing user names on this box. How many 'check pass; "
            "user unknown' lines are there?", log.grep("check pass; user unknown"), "check pass; user unknown")
    before(a, "before-first-alert", "what came before the first 'ALERT exited abnormally'?", "ALERT exited abnormally")


def mac(a: Ask) -> None:
    log = a.log
    with a.q.refusing("top-3-components"):
        a.q.ranked("top-3-components", "ranking", "top 3 components", top(log.col("Component"), 3))
    a.place("last-wake", "when did the mac last wake up? (the 'Wake reason' lines)", ev("wake", said("Wake reason")),
            "last")
    a.span("log-span", "how long does this log span?")
    a.busiest("busiest-hour", "the busiest hour?")
    counted(a, "cocoa", "typo", "how many coca scripting errors?", log.grep("Cocoa scripting error"),
            "Cocoa scripting error")
    summary(a, "summary", "what kind of stuff is in this log?")


def openssh(a: Ask) -> None:
    log = a.log
    failed = ev("failed", said("Failed password"))
    users = log.col("Content").str.extract(r"^Failed password for (?:invalid user )?(\S+) from", expand=False)
    messages(a, "top-3-messages", "ranking", "What are the 3 most frequent log messages?", 3)
    messages(a, "most-common-messages", "investigation", "what are the most common messages?", 3)
    messages(a, "top-5-messages", "ranking", "top 5 messages", 5)
    with a.q.refusing("top-5-failed-ips"):
        a.q.ranked("top-5-failed-ips", "ranking", "top 5 IPs with failed passwords", both(
            top(log.col("Content")[failed.rows(log)].str.extract(r"from (\S+) port", expand=False), 5),
            top(log.extract(r"Failed password for .* from (\S+) port"), 5)))
    with a.q.refusing("top-3-users"):
        a.q.ranked("top-3-users", "ranking", "the 3 most targeted users in failed passwords", top(users.dropna(), 3))
    counted(a, "root-failed", "terse", "failed passwords for root?", log.grep("Failed password for root"),
            "Failed password for root ")
    counted(a, "invalid-users", "typo", "how many invaild user lines", log.grep("Invalid user"), "Invalid user ")
    before(a, "before-first-failed", "what happened before the first failed password", "Failed password")
    cause(a, "led-up-error", "what led up to the first error?")
    entity(a, "ip", "what happened to 5.188.10.180?", "5.188.10.180")
    a.span("attack-span", "how long did the attack from 187.141.143.180 last?",
           ev("ip", (lambda lg: lg.col("Content").str.contains("187.141.143.180", regex=False),
                     re.escape("187.141.143.180"))))
    a.place("first-accepted", "when did someone first log in successfully (Accepted password)?",
            ev("accepted", said("Accepted password")), "first")
    a.versus("failed-invalid", "failed password vs invalid user", failed, ev("invalid", said("Invalid user")))
    a.share("disconnect-share", "what % of lines are Received disconnect", ev("disconnect", said("Received disconnect")))
    a.stat("max-port", "highest port in the failed password lines", Field(template("Failed password"),
           r"port (\d+) ssh2", r"Failed password .* port (\d+) ssh2"), "max")
    busiest(a, "busiest-2-hours-failed", "the 2 busiest hours for failed passwords", 2, rows=log.grep("Failed password"))
    unusual(a, "unusual", "what is unusual here?")


def openstack(a: Ask) -> None:
    a.stat("avg-get-time", "average time of GET requests", Field(template('"GET <*>"'), r"time: ([\d.]+)$",
           r'"GET \S+ HTTP/1\.1" status: \d+ len: \d+ time: ([\d.]+)$'), "mean")
    a.stat("max-len", "max len in the GET lines", Field(template('"GET <*>"'), r"len: (\d+) ",
           r'"GET \S+ HTTP/1\.1" status: \d+ len: (\d+) time'), "max")
    a.listing("last-3-warnings", "last three WARNING lines", ev("WARNING", level("WARNING", r"^\S+ \S+ \S+ \d+ LEVEL ")),
              3)
    a.versus("get-post", "GET vs POST requests", ev("GET", (template('"GET <*>"'), r'"GET \S+ HTTP/1\.1" status')),
             ev("POST", (template('"POST <*>"'), r'"POST \S+ HTTP/1\.1" status')))
    entity(a, "instance", "what happened to instance d96a117b-0193-4549-bdcc-63b917273d1d?",
           "d96a117b-0193-4549-bdcc-63b917273d1d")
    a.place("first-spawned", "when was the first instance spawned successfully?",
            ev("spawned", said("Instance spawned successfully")), "first")


def proxifier(a: Ask) -> None:
    log = a.log
    with a.q.refusing("top-3-programs"):
        a.q.ranked("top-3-programs", "ranking", "top 3 programs", both(top(log.col("Program"), 3),
                                                                        top(log.extract(r"^\[[^]]+\] (.+?) - "), 3)))
    a.stat("total-sent", "total bytes sent?", Field(template("bytes<*>sent"), r"close, (\d+) bytes",
           r" close, (\d+) bytes(?: \([^)]*\))? sent,"), "sum")
    a.stat("max-received", "biggest number of bytes received", Field(template("bytes<*>sent"), r"sent, (\d+) bytes",
           r" sent, (\d+) bytes(?: \([^)]*\))? received,"), "max")
    a.share("error-share", "what share of lines are errors?", ev("error", said(" error : ", r" error : ")))
    counted(a, "chrome-errors", "honest-zero", "how many error lines came from chrome.exe?",
            (log.col("Program") == "chrome.exe") & log.grep(" error : "), r"^\[[^]]+\] chrome\.exe - .* error : ")


def spark(a: Ask) -> None:
    log = a.log
    a.stat("avg-times-total", "average 'Times: total'", Field(template("Times: total ="), r"total = (-?\d+),",
           r"Times: total = (-?\d+), boot"), "mean")
    a.versus("running-finished", "how many tasks started vs finished?", ev("running", said("Running task")),
             ev("finished", said("Finished task")))
    a.place("last-finished", "when did the last task finish?", ev("finished", said("Finished task")), "last")
    with a.q.refusing("top-3-components"):
        a.q.ranked("top-3-components", "ranking", "which 3 components logged the most?", top(log.col("Component"), 3))
    a.span("log-span", "how long did the spark job run?")
    entity(a, "broadcast", "what happened to broadcast_40?", "broadcast_40")


def thunderbird(a: Ask) -> None:
    log = a.log
    with a.q.refusing("top-2-components"):
        a.q.ranked("top-2-components", "ranking", "the 2 most frequent components", top(log.col("Component"), 2))
    a.share("no-answer-share", "what share of the log is 'got not answer from any'?",
            ev("no answer", said("got not answer from any")))
    a.place("first-sweep", "when was the first NEW SWEEP?", ev("sweep", said("NEW SWEEP")), "first")
    counted(a, "dhcp", "terse", "DHCPREQUEST count", log.grep("DHCPREQUEST"), "DHCPREQUEST")
    least(a, "least-3-users", "the 3 least active users?", log.col("User"), 3)


def windows(a: Ask) -> None:
    log = a.log
    a.share("warning-share", "what share of lines are 'Unrecognized packageExtended attribute' warnings?",
            ev("warning", said("Unrecognized packageExtended attribute")))
    a.place("last-invalid", "when was the last CBS_E_INVALID_PACKAGE?", ev("invalid", said("CBS_E_INVALID_PACKAGE")),
            "last")
    with a.q.refusing("top-2-components"):
        a.q.ranked("top-2-components", "ranking", "top two components", top(log.col("Component"), 2))
    a.span("log-span", "what period does the windows log cover?")
    summary(a, "summary", "summarize")


def zookeeper(a: Ask) -> None:
    log = a.log
    error = ev("ERROR", level("ERROR", ZOOKEEPER_LEVEL))
    a.place("first-error", "first ERROR at what time?", error, "first")
    a.listing("last-3-errors", "show the 3 latest errors", error, 3)
    messages(a, "top-3-warn", "ranking", "3 most common WARN messages?", 3, log.level("WARN"),
             r"^\S+ \S+ - \w+\s+\[[^]]+\] - (.*?)\s*$")
    a.versus("warn-info", "WARN vs INFO", ev("WARN", level("WARN", ZOOKEEPER_LEVEL)),
             ev("INFO", level("INFO", ZOOKEEPER_LEVEL)))
    entity(a, "session", "what happened to session 0x14f4a6318b8002f", "0x14f4a6318b8002f")
    a.stat("max-timeout", "max negotiated timeout?", Field(template("negotiated timeout <*>"),
           r"negotiated timeout (\d+) ", r"with negotiated timeout (\d+) for"), "max")
    cause(a, "why-errors", "why were there errors?")


NEWUSER = catalogue(globals())


# ---- the dpkg log (a fixture written in dpkg's own format; its values read by two regexes)

DPKG_TIME = r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) "


def dpkg_cases(path: Path = DPKG, extra: Callable[[LogData, Questions], None] | None = None) -> list[dict]:
    """The dpkg log's questions (and `extra`'s, asked of the same log)."""
    log = LogData.raw(path, lambda lines: pd.to_datetime(lines.str.extract(DPKG_TIME, expand=False)))
    q = Questions(prefix="dpkg", logs=[str(path)])
    words = log.lines.str.split(" ", expand=True)
    action, package = words[2], words[3]
    q.count("upgrades", "terse", "how many upgrades?", count(action == "upgrade"))
    q.count("installs-mar-12", "dates-in-words", "how many packages were installed on the 12th of March?",
            count((action == "install") & log.day("2024-03-12")))
    q.count("distinct-upgraded", "plain", "how many different packages were upgraded?",
            int(package[action == "upgrade"].nunique()))
    q.ranked("top-2-actions", "ranking", "top 2 actions?", top(action, 2))
    q.count("removed", "typo", "how many pakages were removed?", count(action == "remove"))
    q.count("purged-nginx", "honest-zero", "how many times was nginx purged?",
            count((action == "purge") & package.str.startswith("nginx")))
    stamps = log.stamps
    first_install = stamps[action == "install"].min()
    q.measured("first-install", "first-last", "when was the first package installed?", {
        "time": iso(first_install), "line": int((action == "install").idxmax()) + 1})
    last_remove = action == "remove"
    q.measured("last-remove", "first-last", "when was the last remove?", {
        "time": iso(stamps[last_remove].max()), "line": int(last_remove[last_remove].index.max()) + 1})
    q.measured("share-status", "share", "what share of lines are status lines?", 100 * count(action == "status")
               / len(log.lines))
    q.measured("install-vs-remove", "comparison", "installs vs removes", [count(action == "install"),
                                                                         count(action == "remove")])
    # the lines cited as file:line, closed by a space or a bracket (the log has fewer than 1,000 lines, so no
    # citation of another line begins with these)
    q.listing("last-2-upgrades", "show the last 2 upgrades", [f"{path.name}:{i + 1}" for i in
                                                             log.lines.index[action == "upgrade"][::-1][:2]])
    q.count("openssl-lines", "plain", "what happened to openssl:amd64?", count(log.grep("openssl:amd64")))
    q.cases[-1]["class"] = "investigation"
    if extra is not None:
        extra(log, q)
    return q.cases


# ---- running and scoring


def build(real: Path) -> tuple[list[dict], list[str]]:
    from operator_check_newuser_fifth import FIFTH, FIFTH_SETS
    from operator_check_newuser_fourth import FOURTH, FOURTH_SETS
    from operator_check_newuser_second import SECOND, dpkg_second
    from operator_check_newuser_third import THIRD, THIRD_SETS

    refused: list[str] = []
    cases = (loghub_cases(real, NEWUSER, refused) + dpkg_cases(extra=dpkg_second) + loghub_cases(real, SECOND, refused)
             + loghub_cases(real, THIRD, refused) + sample_cases(SAMPLES, THIRD_SETS, refused)
             + loghub_cases(real, FOURTH, refused) + sample_cases(SAMPLES, FOURTH_SETS, refused)
             + loghub_cases(real, FIFTH, refused) + sample_cases(SAMPLES, FIFTH_SETS, refused))
    for case in cases:  # absolute paths, so the suite can sit anywhere
        if "logs" in case:
            case["logs"] = [str(real / p[len(REAL_LOGS) + 1:]) if p.startswith(REAL_LOGS) else p for p in case["logs"]]
        case.pop("requires", None)
    return cases, refused


def verdict(passed: bool, result: RunResult) -> str:
    """right; honest (a partial answer or a refusal, unverified); wrong-verified; or wrong (an answer, unverified)."""
    if passed:
        return "right"
    if result.value is None or result.value in ("", [], {}):
        return "honest"  # no value given: a refusal, whatever its mark
    if result.verified:
        return "wrong-verified"
    return "wrong" if result.answered else "honest"


def run(cases: list[dict]) -> list[tuple[dict, Scenario, str]]:
    """Each case asked of the rules planner, scored, with its verdict."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "newuser.yaml"
        path.write_text(yaml.safe_dump({"name": "newuser", "year": 2026, "ground_truth": str(SAMPLES / "ground_truth.json"),
                                        "cases": cases}, sort_keys=False))
        suite = load_suite(path)
    engine, frames = Engine(RulesPlanner()), FrameCache(LoadOptions(year=2026))
    results = []
    for raw, case in zip(cases, suite.cases):
        result = engine.ask(case.question, case.logs, frame=frames.get(case.logs), load_options=frames.options)
        scenario = score(case, result)
        results.append((raw, scenario, verdict(scenario.passed, result)))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", default="wrong-verified,wrong", help="verdicts to list (comma-separated)")
    parser.add_argument("--batch", choices=BATCHES[:-1], help="ask only this batch's questions")
    args = parser.parse_args()
    real = next((p for p in (Path("/work/shared/real_logs"), ROOT.parent / "shared" / "real_logs") if p.is_dir()), None)
    if real is None:
        print("the loghub samples (shared/real_logs) are absent: put them beside the repository", file=sys.stderr)
        return 2
    cases, refused = build(real)
    if args.batch:
        cases = [c for c in cases if next((b for b in BATCHES[1:-1] if f"-{b}-" in c["id"]), "first") == args.batch]
        refused = [r for r in refused if args.batch == "first" or f"-{args.batch}-" in r]
    results = run(cases)
    for why in refused:
        print(f"left out {why[:150]}")
    show = set(args.show.split(","))
    for case, s, v in results:
        if v in show:
            print(f"[{v}] {case['id']}: {case['question']}\n    want {case['expect']}\n    got  "
                  f"{s.value!r} ({s.stop_reason}) {s.answer[:240]!r}")
    table: Counter[tuple[str, str, str]] = Counter()
    for case, _, v in results:
        batch = next((b for b in BATCHES[1:-1] if f"-{b}-" in case["id"]), "first")
        table[(batch, FAMILIES.get(case["class"], "operator"), v)] += 1
    print(f"{len(results)} questions, {len(refused)} left out")
    for batch in BATCHES:
        if not any(b == batch for b, _, _ in table) and batch != "all":
            continue
        for family in ("analytics", "investigation", "operator", "all"):
            row = {v: sum(n for (b, f, vv), n in table.items() if vv == v and batch in (b, "all")
                          and family in (f, "all")) for v in ("right", "honest", "wrong-verified", "wrong")}
            print(f"  {batch:6} {family:14} " + "  ".join(f"{k} {n}" for k, n in row.items())
                  + f"  of {sum(row.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
