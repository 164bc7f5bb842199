"""Operator-style questions over the real loghub logs, scored against answers computed from loghub's own
structured CSVs (pandas over `*_2k.log_structured.csv`, independent of the engine).

    python scripts/operator_questions.py [--real-logs ../shared/real_logs] [--planner rules] [-v]

Prints, per question, `ok` / `refused` / `WRONG`, then the totals. A refusal is an answer with no value; a
wrong answer is a value that differs from the truth (for "which" questions: not among the tied leaders; for
"top N": counts that differ).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from react_engine import Engine, Settings
from react_engine.logs import LoadOptions, load
from react_engine.planners.rules import RulesPlanner

ROOT = Path(__file__).resolve().parents[1]
Truth = Callable[[pd.DataFrame], Any]


def has(text: str, case: bool = True) -> Callable[[pd.DataFrame], pd.Series]:
    return lambda d: d["Content"].str.contains(text, case=case, regex=False)


def count(mask: Callable[[pd.DataFrame], pd.Series]) -> Truth:
    return lambda d: int(mask(d).sum())


def equals(column: str, value: str) -> Truth:
    return lambda d: int((d[column].astype(str) == value).sum())


def leaders(series: pd.Series) -> set[str]:
    """The most common values (all of them when tied)."""
    counts = series.dropna().astype(str).value_counts()
    return set(counts[counts == counts.iloc[0]].index) if len(counts) else set()


def which(column: str, mask: Callable[[pd.DataFrame], pd.Series] | None = None) -> Truth:
    return lambda d: ("which", leaders(d[mask(d)][column] if mask else d[column]))


def which_in_text(pattern: str, mask: Callable[[pd.DataFrame], pd.Series] | None = None) -> Truth:
    def truth(d: pd.DataFrame) -> Any:
        rows = d[mask(d)] if mask else d
        return "which", leaders(rows["Content"].str.extractall(pattern)[0].groupby(level=0).first())
    return truth


def top_counts(pattern: str, n: int, mask: Callable[[pd.DataFrame], pd.Series] | None = None) -> Truth:
    def truth(d: pd.DataFrame) -> Any:
        rows = d[mask(d)] if mask else d
        values = rows["Content"].str.extractall(pattern)[0]
        return "top", list(values.value_counts().iloc[:n])
    return truth


def unique_in_text(pattern: str, mask: Callable[[pd.DataFrame], pd.Series] | None = None) -> Truth:
    def truth(d: pd.DataFrame) -> Any:
        rows = d[mask(d)] if mask else d
        return int(rows["Content"].str.extractall(pattern)[0].nunique())
    return truth


def times(d: pd.DataFrame) -> pd.Series:
    """Each row's time, parsed from the loaded log itself (the structured CSVs split it differently per system)."""
    return d["_ts"]


def window(start: str | None, end: str | None) -> Truth:
    def truth(d: pd.DataFrame) -> int:
        ts = times(d)
        keep = pd.Series(True, index=d.index)
        if start:
            keep &= ts >= pd.Timestamp(start, tz="UTC")
        if end:
            keep &= ts <= pd.Timestamp(end, tz="UTC")
        return int(keep.sum())
    return truth


def log_hour(first: bool) -> Truth:
    def truth(d: pd.DataFrame) -> int:
        ts = times(d)
        if first:
            return int((ts < ts.min() + pd.Timedelta(hours=1)).sum())
        return int((ts >= ts.max() - pd.Timedelta(hours=1)).sum())
    return truth


def day(month_day: str) -> Truth:
    """Rows on `MM-DD` of any year."""
    return lambda d: int((times(d).dt.strftime("%m-%d") == month_day).sum())


FAILED = has("Failed password")
AUTH_FAIL = has("authentication failure")
IP = r"(\d{1,3}(?:\.\d{1,3}){3})"

QUESTIONS: dict[str, list[tuple[str, Truth]]] = {
    "OpenSSH": [
        ("failed password lines for root?", count(has("Failed password for root"))),
        ("How many failed logins?", count(FAILED)),
        ("how many pasword failures for invalid users?", count(has("Failed password for invalid user"))),
        ("which 5 IP addresses had the most failed logins", top_counts(IP, 5, FAILED)),
        ("how many diffrent adresses had failed passwords?", unique_in_text(IP, FAILED)),
        ("successful root logins?", count(has("Accepted password for root"))),
        ("How many invalid user attempts?", count(has("Invalid user"))),
        ("Which user name was tried most in invalid user lines?", which_in_text(r"Invalid user (\S+)",
                                                                                 has("Invalid user"))),
        ("entries in the last hour?", log_hour(False)),
        ("entries in the first hour of the log?", log_hour(True)),
        ("How many POSSIBLE BREAK-IN ATTEMPT lines?", count(has("POSSIBLE BREAK-IN ATTEMPT"))),
        ("how many lines between 08:00 and 09:00?", window("2025-12-10T08:00:00", "2025-12-10T09:00:00")),
        ("anything logged around 09:30?", window("2025-12-10T09:25:00", "2025-12-10T09:35:00")),
        ("How many lines on Dec 10?", day("12-10")),
        ("how many authentication failures?", count(AUTH_FAIL)),
    ],
    "Linux": [
        ("How many authentication failures?", count(AUTH_FAIL)),
        ("which remote host had the most authentication failures", which_in_text(r"rhost=(\S+)", AUTH_FAIL)),
        ("which account name shows up most often in authentication failures",
         which_in_text(r"user=(\S+)", AUTH_FAIL)),
        ("How many lines come from the kernel?", equals("Component", "kernel")),
        ("how many ftpd entries?", equals("Component", "ftpd")),
        ("Which program logged the most lines?", which("Component")),
        ("anything logged on July 27?", day("07-27")),
        ("how many lines on June 14th?", day("06-14")),
        ("How many connections from distinct IPs did ftpd log?", unique_in_text(IP, lambda d: d["Component"] ==
                                                                               "ftpd")),
        ("how many sessions were opened for root?", count(has("session opened for user root"))),
    ],
    "Apache": [
        ("how many erors?", equals("Level", "error")),
        ("notice entries?", equals("Level", "notice")),
        ("How many lines mention mod_jk?", count(has("mod_jk"))),
        ("how many entries on December 4th 2005?", count(lambda d: d["Time"].str.startswith("Sun Dec 04"))),
        ("errors on Dec 5 2005?", count(lambda d: d["Time"].str.startswith("Mon Dec 05") & (d["Level"] == "error"))),
        ("which client IP appears most often?", which_in_text(r"\[client " + IP + r"\]")),
        ("How many unique client IPs?", unique_in_text(r"\[client " + IP + r"\]")),
        ("entries in 2005?", lambda d: len(d)),
        ("How many errors in the last hour of the log?", lambda d: int(((times(d) >= times(d).max()
                                                                         - pd.Timedelta(hours=1))
                                                                        & (d["Level"] == "error")).sum())),
    ],
    "BGL": [
        ("SEVERE entries?", equals("Level", "SEVERE")),
        ("How many FATAL lines?", equals("Level", "FATAL")),
        ("how many KERNEL lines?", equals("Component", "KERNEL")),
        ("which node had the most FATAL messages?", which("Node", lambda d: d["Level"] == "FATAL")),
        ("How many messages from the APP component?", equals("Component", "APP")),
        ("entries in 2005?", count(lambda d: times(d).dt.year == 2005)),
        ("how many lines in July 2005?", count(lambda d: times(d).dt.strftime("%Y-%m") == "2005-07")),
        ("which component logged the most lines?", which("Component")),
    ],
    "HDFS": [
        ("How many unique blocks were deleted?", unique_in_text(r"(blk_-?\d+)", has("Deleting block"))),
        ("How many WARN lines?", equals("Level", "WARN")),
        ("which component logged the most lines?", which("Component")),
        ("entries on Nov 10 2008?", equals("Date", "081110")),
        ("How many lines on Nov 11?", equals("Date", "081111")),
        ("which block appears in the most lines?", which_in_text(r"(blk_-?\d+)")),
        ("How many distinct blocks?", unique_in_text(r"(blk_-?\d+)")),
    ],
    "HPC": [
        ("which node logged the most lines?", which("Node")),
        ("how many unavailable state events?", count(has("unavailable state"))),
        ("how many lines from gige7?", equals("Node", "gige7")),
        ("which component logged the most lines?", which("Component")),
    ],
    "Hadoop": [
        ("which thread produced the most WARN messages", which("Process", lambda d: d["Level"] == "WARN")),
        ("How many ERROR lines?", equals("Level", "ERROR")),
        ("fatal entries?", equals("Level", "FATAL")),
        ("how many lines were logged by RMContainerAllocator?", count(
            lambda d: d["Component"].str.endswith(".RMContainerAllocator"))),
        ("How many warnings?", equals("Level", "WARN")),
    ],
    "Spark": [
        ("How many lines are in the Spark log?", lambda d: len(d)),
        ("which component logged the most lines?", which("Component")),
        ("How many lines came from executor.Executor?", equals("Component", "executor.Executor")),
        ("how many Spark errors?", equals("Level", "ERROR")),
    ],
    "Zookeeper": [
        ("which thread produced the most WARN messages", lambda d: ("which", leaders(
            d[d["Level"] == "WARN"]["_raw"].str.extract(r"\[(.+):[\w$]+@\d+\] - ")[0]))),
        ("How many lines between 2015-07-29 19:00 and 21:00?", window("2015-07-29T19:00:00",
                                                                      "2015-07-29T21:00:00")),
        ("ERROR count?", equals("Level", "ERROR")),
        ("how many lines on July 30?", equals("Date", "2015-07-30")),
        ("how many entries in August 2015?", count(lambda d: d["Date"].str.startswith("2015-08"))),
    ],
    "Thunderbird": [
        ("How many lines were logged by ntpd?", count(lambda d: d["Component"].str.startswith("ntpd"))),
        ("How many lines came from dhcpd?", equals("Component", "dhcpd")),
        ("which host logged the most lines?", which("User")),
        ("how many DHCPDISCOVER lines?", count(has("DHCPDISCOVER"))),
    ],
    "Windows": [
        ("entries on Sept 29 2016?", equals("Date", "2016-09-29")),
        ("How many CSI lines?", equals("Component", "CSI")),
        ("how many lines on September 28?", equals("Date", "2016-09-28")),
    ],
    "Android": [
        ("How many lines were written by pid 2227?", equals("Pid", "2227")),
        ("how many errors?", equals("Level", "E")),
        ("which component has the most warnings?", which("Component", lambda d: d["Level"] == "W")),
        ("which pid logged the most lines?", which("Pid")),
        ("How many lines from PowerManagerService?", equals("Component", "PowerManagerService")),
    ],
    "Proxifier": [
        ("proxifier error count?", count(has("error", case=False))),
        ("which program hit the most proxy errors", which("Program", has("error", case=False))),
        ("how many chrome.exe lines?", equals("Program", "chrome.exe")),
        ("how many lines on Oct 30?", count(lambda d: d["Time"].str.startswith("10.30"))),
    ],
    "OpenStack": [
        ("which instance ID appears in the most lines", which_in_text(r"\[instance: ([0-9a-f-]{36})\]")),
        ("how many requests came back with a 404?", count(has("status: 404"))),
        ("How many 200 responses?", count(has("status: 200"))),
        ("How many WARNING lines?", equals("Level", "WARNING")),
        ("which component logged the most lines?", which("Component")),
        ("How many unique instances?", unique_in_text(r"\[instance: ([0-9a-f-]{36})\]")),
    ],
    "HealthApp": [
        ("how many Step_LSC lines?", equals("Component", "Step_LSC")),
        ("which component logged the most lines?", which("Component")),
        ("entries in the first hour of the log?", log_hour(True)),
    ],
    "Mac": [
        ("lines that came from the kernel?", equals("Component", "kernel")),
        ("which host logged the most lines?", which("User")),
        ("how many lines on July 3?", count(lambda d: (d["Month"] == "Jul") & (d["Date"].astype(str) == "3"))),
    ],
}


# written after the rules above were tuned, to see how they carry over to new phrasings
FRESH: dict[str, list[tuple[str, Truth]]] = {
    "OpenSSH": [
        ("disconnects?", count(has("disconnect", case=False))),
        ("How many times did someone fail to log in as root?", count(has("Failed password for root"))),
        ("count of invalid user entires", count(has("Invalid user"))),
        ("which ip address shows up most in failed password lines?", which_in_text(IP, FAILED)),
        ("How many 'Bye Bye' lines?", count(has("Bye Bye"))),
        ("top 3 ports in failed password lines", top_counts(r"port (\d+)", 3, FAILED)),
        ("how many unique users were tried in failed logins?", unique_in_text(
            r"Failed password for (?:invalid user\s+)?(\S+) from", FAILED)),
    ],
    "Linux": [
        ("How many sessions were closed?", count(has("session closed"))),
        ("how many lines did su log?", count(lambda d: d["Component"].str.startswith("su"))),
        ("which user had the most sessions opened?", which_in_text(r"session opened for user (\S+)",
                                                                   has("session opened"))),
        ("number of check pass; user unknown lines", count(has("check pass; user unknown"))),
        ("How many logrotate entries?", equals("Component", "logrotate")),
    ],
    "Mac": [
        ("How many lines did QQ log?", equals("Component", "QQ")),
        ("how many Cocoa scripting errors?", count(has("Cocoa scripting error"))),
        ("which process logged the most lines?", which("Component")),
    ],
    "Thunderbird": [
        ("how many synchronized to lines from ntpd?", count(has("synchronized to"))),
        ("How many NEW SWEEP lines?", count(has("NEW SWEEP"))),
        ("which component logged the most?", which("Component")),
    ],
    "Proxifier": [
        ("How many connections were closed?", count(has("close,"))),
        ("which program made the most connections through the proxy?", which("Program", has("open through proxy"))),
        ("how many errors did chrome.exe get?", count(lambda d: (d["Program"] == "chrome.exe")
                                                      & d["Content"].str.contains("error"))),
    ],
    "HPC": [
        ("How many Linkerror lines?", count(has("Linkerror"))),
        ("How many lines on node-246?", equals("Node", "node-246")),
    ],
    "BGL": [
        ("how many alignment exceptions?", count(has("alignment exceptions"))),
        ("How many ERROR entries in the KERNEL component?", count(lambda d: (d["Level"] == "ERROR")
                                                                   & (d["Component"] == "KERNEL"))),
        ("entries on 2005-06-03?", count(lambda d: times(d).dt.strftime("%Y-%m-%d") == "2005-06-03")),
    ],
    "Android": [
        ("How many WindowManager lines?", equals("Component", "WindowManager")),
        ("warnings from PowerManagerService?", count(lambda d: (d["Component"] == "PowerManagerService")
                                                     & (d["Level"] == "W"))),
        ("which thread id logged the most lines?", which("Tid")),
    ],
    "OpenStack": [
        ("how many POST requests?", count(has('"POST'))),
        ("How many GET requests returned 200?", count(lambda d: has('"GET')(d) & has("status: 200")(d))),
        ("how many VMs were resumed?", count(has("VM Resumed"))),
    ],
    "Hadoop": [
        ("how many lines mention RM?", count(lambda d: d["Content"].str.contains(r"\bRM\b"))),
        ("which component logged the most errors?", which("Component", lambda d: d["Level"] == "ERROR")),
        ("how many lease renewal failures?", count(has("Failed to renew lease"))),
    ],
    "Spark": [
        ("how many tasks finished?", count(has("Finished task"))),
        ("How many Running task lines?", count(has("Running task"))),
        ("which component wrote the most lines?", which("Component")),
    ],
    "HealthApp": [
        ("How many lines came from Step_SPUtils?", equals("Component", "Step_SPUtils")),
        ("How many lines between 22:30 and 23:00?", window("2017-12-23T22:30:00", "2017-12-23T23:00:00")),
    ],
    "Windows": [
        ("How many CBS lines?", equals("Component", "CBS")),
        ("how many 'Failed to internally open package' lines?", count(has("Failed to internally open package"))),
    ],
    "Zookeeper": [
        ("How many WARN lines on July 29?", count(lambda d: (d["Level"] == "WARN") & (d["Date"] == "2015-07-29"))),
        ("how many sessions expired?", count(has("Expiring session"))),
    ],
    "Apache": [
        ("How many lines mention jk2_init?", count(has("jk2_init"))),
        ("How many errors on Dec 4?", count(lambda d: d["Time"].str.startswith("Sun Dec 04")
                                             & (d["Level"] == "error"))),
    ],
    "HDFS": [
        ("How many blocks were received?", count(has("Received block"))),
        ("How many lines came from dfs.DataNode$PacketResponder?", equals("Component",
                                                                         "dfs.DataNode$PacketResponder")),
    ],
}


# wordy, misspelt and dated phrasings, written last
WORDY: dict[str, list[tuple[str, Truth]]] = {
    "OpenSSH": [
        ("Looking at the sshd logs, how many failed password attempts came from 183.62.140.253?",
         count(lambda d: FAILED(d) & d["Content"].str.contains("183.62.140.253", regex=False))),
        ("I'm investigating a brute force attack: which IP shows up most often in invalid user lines?",
         which_in_text(r"Invalid user \S+ from " + IP, has("Invalid user"))),
        ("how many recieved disconnect messages are there", count(has("Received disconnect"))),
        ("number of failed pasword attempts for invalid users betwen 07:00 and 08:00",
         lambda d: int((has("Failed password for invalid user")(d) & (times(d) >= pd.Timestamp("2025-12-10T07:00", tz="UTC"))
                        & (times(d) <= pd.Timestamp("2025-12-10T08:00", tz="UTC"))).sum())),
    ],
    "Linux": [
        ("hey, quick one: how many authentication failures were logged for root?",
         count(lambda d: AUTH_FAIL(d) & d["Content"].str.contains("user=root", regex=False))),
        ("how many lines were logged on the 15th of June?", day("06-15")),
        ("which remote host appears in the most authentication failure lines?",
         which_in_text(r"rhost=(\S+)", AUTH_FAIL)),
    ],
    "HDFS": [
        ("In the HDFS logs, how many WARN entries were written on November 9th 2008?",
         count(lambda d: (d["Level"] == "WARN") & (d["Date"] == "081109"))),
        ("how many distinct blocks were served?", unique_in_text(r"(blk_-?\d+)", has("Served block"))),
        ("what component logged the most warnings?", which("Component", lambda d: d["Level"] == "WARN")),
    ],
    "BGL": [
        ("how many FATAL messages were there in the last 24h?", lambda d: int(
            ((times(d) >= times(d).max() - pd.Timedelta(hours=24)) & (d["Level"] == "FATAL")).sum())),
        ("How many entries were logged in June 2005?", count(lambda d: times(d).dt.strftime("%Y-%m") == "2005-06")),
        ("which node has the most entries", which("Node")),
    ],
    "Zookeeper": [
        ("Between 2015-07-30 and 2015-07-31, how many ERROR lines?", count(
            lambda d: (d["Level"] == "ERROR") & (times(d) >= pd.Timestamp("2015-07-30", tz="UTC"))
            & (times(d) <= pd.Timestamp("2015-07-31", tz="UTC")))),
        ("how many warnings did zookeeper log on July 30th?", count(
            lambda d: (d["Level"] == "WARN") & (d["Date"] == "2015-07-30"))),
    ],
    "Thunderbird": [
        ("which hosts logged the most dhcpd lines?", which("User", lambda d: d["Component"] == "dhcpd")),
        ("How many lines did crond log?", count(lambda d: d["Component"].str.startswith("crond"))),
    ],
    "OpenStack": [
        ("how many requests returned a 404 status?", count(has("status: 404"))),
        ("which status code appears most?", which_in_text(r"status: (\d{3})")),
        ("How many lines from nova.compute.manager?", equals("Component", "nova.compute.manager")),
    ],
    "Spark": [
        ("How many blocks were stored in memory?", count(lambda d: d["Content"].str.contains("stored as")
                                                         & d["Content"].str.contains("in memory"))),
        ("in the spark job, how many tasks were running?", count(has("Running task"))),
    ],
    "Apache": [
        ("which clients triggered the most errors?", which_in_text(r"\[client " + IP + r"\]",
                                                                   lambda d: d["Level"] == "error")),
        ("errors in the first hour of the log?", lambda d: int(((times(d) < times(d).min() + pd.Timedelta(hours=1))
                                                                & (d["Level"] == "error")).sum())),
    ],
    "Android": [
        ("how many lines did pid 1702 write?", equals("Pid", "1702")),
        ("how many eror lines from the WindowManager?", count(lambda d: (d["Component"] == "WindowManager")
                                                                 & (d["Level"] == "E"))),
    ],
}


def _number(value: Any) -> float | None:
    try:
        return float(str(value).replace(",", ""))
    except (TypeError, ValueError):
        return None


def judge(truth: Any, value: Any, verified: bool) -> str:
    """`ok`, `refused` or `WRONG`."""
    if value is None or value == []:
        return "refused"
    if isinstance(truth, tuple) and truth[0] == "which":
        names = value if isinstance(value, list) else [value]
        return "ok" if verified and names and all(str(v) in truth[1] for v in names) else "WRONG"
    if isinstance(truth, tuple) and truth[0] == "top":
        counts = [c for _, c in value] if all(isinstance(v, list) and len(v) == 2 for v in value) else None
        return "ok" if verified and counts == truth[1] else "WRONG"
    return "ok" if verified and _number(value) == float(truth) else "WRONG"


def frames(base: Path, system: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The loaded log of `system` and its structured CSV (with each row's parsed time and raw line added)."""
    log = base / system / f"{system}_2k.log"
    frame = load([str(log)], LoadOptions(use_cache=False))
    truth_rows = pd.read_csv(base / system / f"{system}_2k.log_structured.csv", dtype=str, keep_default_na=False)
    truth_rows["_ts"] = frame["timestamp"].to_numpy()
    truth_rows["_raw"] = log.read_text(encoding="utf-8", errors="replace").splitlines()[:len(truth_rows)]
    return frame, truth_rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real-logs", default=str(ROOT.parent / "shared" / "real_logs"))
    parser.add_argument("--only", default=None, help="one system, e.g. OpenSSH")
    parser.add_argument("--set", choices=["tuned", "fresh", "wordy"], default="tuned",
                        help="tuned: the questions the rules were tuned on; fresh, wordy: written after tuning")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    base = Path(args.real_logs)
    if not base.is_dir():
        sys.exit(f"no real logs at {base}: pass --real-logs DIR")
    tally = {"ok": 0, "refused": 0, "WRONG": 0}
    for system, questions in {"tuned": QUESTIONS, "fresh": FRESH, "wordy": WORDY}[args.set].items():
        if args.only and system != args.only:
            continue
        frame, truth_rows = frames(base, system)
        for question, truth in questions:
            result = Engine(RulesPlanner(), Settings(max_iterations=12)).ask(question, frame=frame)
            expected = truth(truth_rows)
            verdict = judge(expected, result.value, result.verified)
            tally[verdict] += 1
            if args.verbose or verdict != "ok":
                shown = expected if not isinstance(expected, tuple) else expected[1]
                answer = re.sub(r"\s+", " ", result.answer)[:200]
                print(f"{verdict:7} {system}: {question}\n        -> {answer}\n        truth {str(shown)[:120]}")
    total = sum(tally.values())
    print(f"\n{total} questions: {tally['ok']} correct, {tally['refused']} refused, {tally['WRONG']} wrong")


if __name__ == "__main__":
    main()
