"""A second batch of new-user questions (ids `...-second-...`), written after the first batch's fixes and before the
planner ran on them, to see whether those fixes hold for other wordings of the same families: rankings with their
size first or in words, "what came right before", causes, shares, spans and statistics in other words. Values are
derived like the first batch's (scripts/operator_check_newuser.py), never from react-engine.
"""

from __future__ import annotations

import pandas as pd
from operator_analytics import BGL_LEVEL, HADOOP_LEVEL, level, template
from operator_check_analytics import Ask, Field, catalogue, ev, said
from operator_check_newuser import before, busiest, cause, counted, entity, least, messages
from operator_data import LogData, Questions, count, top
from operator_readings import both, iso


def android(a: Ask) -> None:
    least(a, "second-least-2-tags", "2 least frequent tags?", a.log.col("Component"), 2)


def apache(a: Ask) -> None:
    messages(a, "second-four-messages", "ranking", "four most common messages", 4, raw=r"^\[[^]]+\] \[\w+\] (.*?)\s*$")
    a.share("second-notice-percent", "what % of lines are notices?", ev("notice", level("notice",
                                                                                         r"^\[[^]]+\] \[LEVEL\] ")))


def bgl(a: Ask) -> None:
    log = a.log
    with a.q.refusing("second-fatal-components"):
        a.q.ranked("second-fatal-components", "ranking", "which 2 components have the most FATAL lines?",
                   top(log.col("Component")[log.level("FATAL")], 2))
    a.share("second-kernel-fraction", "fraction of lines that are FATAL or ERROR?",
            ev("bad", (lambda lg: lg.level("FATAL") | lg.level("ERROR"), BGL_LEVEL.replace("LEVEL", "(?:FATAL|ERROR)"))))


def hdfs(a: Ask) -> None:
    busiest(a, "second-2-busiest-hours", "2 busiest hours?", 2)
    least(a, "second-least-3-components", "the 3 least common components", a.log.col("Component"), 3)


def hpc(a: Ask) -> None:
    a.stat("second-min-ambient", "what's the coolest ambient temperature?", Field(template("ambient=<*>"),
           r"^ambient=(\d+)$", r" ambient=(\d+)$"), "min")


def hadoop(a: Ask) -> None:
    log = a.log
    with a.q.refusing("second-warn-components"):
        a.q.ranked("second-warn-components", "ranking", "top-2 components for WARN lines",
                   top(log.col("Component")[log.level("WARN")], 2))
    cause(a, "second-root-cause", "what's the root cause of the ERROR IN CONTACTING RM lines?")
    a.place("second-first-error", "first ERROR - what time?", ev("ERROR", level("ERROR", HADOOP_LEVEL)), "first")


def healthapp(a: Ask) -> None:
    least(a, "second-least-2-components", "2 least frequent components", a.log.col("Component"), 2)


def linux(a: Ask) -> None:
    log = a.log
    users = log.col("Content").str.extract(r"^session opened for user (\S+) by", expand=False).dropna()
    with a.q.refusing("second-top-2-session-users"):
        a.q.ranked("second-top-2-session-users", "ranking", "2 most common users in 'session opened' lines",
                   top(users, 2))
    a.place("second-latest-closed", "whats the latest 'session closed'?", ev("closed", said("session closed")), "last")
    before(a, "second-before-first-connection", "what came right before the first ftpd connection?", "connection from")


def mac(a: Ask) -> None:
    with a.q.refusing("second-4-busiest-components"):
        a.q.ranked("second-4-busiest-components", "ranking", "the 4 busiest components", top(a.log.col("Component"), 4))


def openssh(a: Ask) -> None:
    log = a.log
    users = log.col("Content").str.extract(r"^Failed password for (?:invalid user )?(\S+) from", expand=False)
    with a.q.refusing("second-top-2-users"):
        a.q.ranked("second-top-2-users", "ranking", "top 2 users with failed passwords", top(users.dropna(), 2))
    counted(a, "second-failed-9-10", "dates-in-words", "how many failed passwords between 9 and 10 am?",
            log.grep("Failed password") & log.between("2026-12-10 09:00", "2026-12-10 10:00", "1s"),
            r"^Dec 10 09:\d\d:\d\d .*Failed password")
    before(a, "second-before-accepted", "what came right before the first 'Accepted password'?", "Accepted password")
    cause(a, "second-cause-failed", "what was the cause of the first failed password?")
    a.span("second-failed-span", "how long between the first and last failed password?",
           ev("failed", said("Failed password")))


def openstack(a: Ask) -> None:
    a.stat("second-median-get", "median GET time", Field(template('"GET <*>"'), r"time: ([\d.]+)$",
           r'"GET \S+ HTTP/1\.1" status: \d+ len: \d+ time: ([\d.]+)$'), "median")
    with a.q.refusing("second-top-status"):
        a.q.ranked("second-top-status", "ranking", "the 2 most frequent status codes", both(
            top(a.log.col("Content").str.extract(r" status: (\d{3}) ", expand=False).dropna(), 2),
            top(a.log.extract(r'HTTP/1\.1" status: (\d{3}) '), 2)))


def proxifier(a: Ask) -> None:
    a.stat("second-avg-received", "average bytes received", Field(template("bytes<*>sent"), r"sent, (\d+) bytes",
           r" sent, (\d+) bytes(?: \([^)]*\))? received,"), "mean")


def spark(a: Ask) -> None:
    with a.q.refusing("second-top-three-components"):
        a.q.ranked("second-top-three-components", "ranking", "top three components", top(a.log.col("Component"), 3))


def thunderbird(a: Ask) -> None:
    with a.q.refusing("second-2-components"):
        a.q.ranked("second-2-components", "ranking", "which 2 components log the most?", top(a.log.col("Component"), 2))


def windows(a: Ask) -> None:
    a.share("second-cbs-share", "what share of lines come from CBS?",
            ev("cbs", (lambda lg: lg.col("Component") == "CBS", r"^\S+ \S+, \w+\s+CBS ")))


def zookeeper(a: Ask) -> None:
    entity(a, "second-ip", "what happened with 10.10.34.13?", "10.10.34.13")


SECOND = catalogue(globals())


def dpkg_second(log: LogData, q: Questions) -> None:
    """The dpkg log's second batch (its actions are the third word of each line)."""
    action, package = log.lines.str.split(" ").str[2], log.lines.str.split(" ").str[3]
    q.count("second-configures", "terse", "configures?", count(action == "configure"))
    upgraded = (action == "upgrade") & package.str.startswith("openssl:")
    q.measured("second-openssl-upgraded", "first-last", "when was openssl last upgraded?", {
        "time": iso(pd.Timestamp(log.lines[upgraded].iloc[-1][:19])), "line": int(upgraded[upgraded].index[-1]) + 1})
    q.measured("second-upgrade-share", "share", "what percentage of lines are upgrades?",
               100 * count(action == "upgrade") / len(log.lines))
