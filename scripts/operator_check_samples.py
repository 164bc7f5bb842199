"""The check set's questions over sample_logs/: written apart from the operator suite's (other events, entities
and wordings), with expected values from the generator's ground truth (by key path) or the raw lines, never from
react-engine.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
from operator_data import LogData, Questions, agree, count, ranked, top, unique
from operator_readings import both, statistic
from operator_samples import IP, Truth, app_records, nginx_requests, rfc5424_fields, syslog_times

CMTS_HOSTS = ("MAWED07T01", "MAWED07T02", "NYBRK03T01", "NYBRK03T02")


def _utc(stamps: pd.Series, form: str = "ISO8601") -> pd.Series:
    """Timestamps with an offset, as naive UTC (the suite compares with naive bounds)."""
    return pd.to_datetime(stamps, format=form, utc=True).dt.tz_convert(None)


def cmts(t: Truth, q: Questions, logs: Path) -> None:
    logs_by_host = {host: LogData.raw(logs / "cmts" / f"{host}.log") for host in CMTS_HOSTS}

    def grep_all(text: str) -> int:
        return sum(count(log.grep(text)) for log in logs_by_host.values())

    q.count("sync-loss", "terse", "sync loss count?", agree(t.get("sets.cmts.by_kind.sync_loss"),
                                                          grep_all("Loss of Sync")))
    t.value(q, "unauth-sid", "terse", "unauthorized SID timeouts?", "sets.cmts.by_mnemonic.UNAUTHSIDTIMEOUT")
    t.value(q, "auth-fail-modems-nybrk03t01", "wordy", "The NYBRK03T01 headend has been flapping all night. Could you "
            "tell me how many distinct cable modems failed authorization there?",
            "sets.cmts.hosts.NYBRK03T01.unique_modems.auth_fail")
    q.count("power-changes", "typo", "how many power level chnages?",
            agree(t.get("sets.cmts.by_mnemonic.USIPLCHG"), grep_all("power level changed")))
    t.value(q, "bad-docsis", "typo", "how many invalid DOCSIS mesages?", "sets.cmts.by_mnemonic.BADMNCSMSG")
    t4 = {host: t.get(f"sets.cmts.hosts.{host}.by_kind").get("t4_timeout", 0) for host in CMTS_HOSTS}
    q.ranked("top-t4-host", "ranking", "which host had the most T4 timeouts?", ranked(t4))
    t.value(q, "mawed07t02", "came-from", "how many lines came from MAWED07T02?", "sets.cmts.by_host.MAWED07T02")
    q.count("sync-loss-mawed07t02", "honest-zero", "how many sync losses on MAWED07T02?",
            agree(t.get("sets.cmts.hosts.MAWED07T02.by_kind").get("sync_loss", 0),
                  count(logs_by_host["MAWED07T02"].grep("Loss of Sync"))))
    t.value(q, "event-82000500", "plain", "How many lines have event id 82000500?", "sets.cmts.by_event_id.82000500")
    t.value(q, "t4-modems", "plain", "How many distinct cable modems had a T4 timeout?",
            "sets.cmts.unique_modems.t4_timeout")


def modem(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "modem" / "eventlog.txt", lambda lines: pd.to_datetime(lines.str[:19], errors="coerce"))
    q.count("dhcp-renew", "terse", "DHCP renew warnings?", count(log.grep("DHCP RENEW WARNING")))
    q.count("registration", "typo", "how many registraton complete events?", count(log.grep("REGISTRATION COMPLETE")))
    q.count("critical-nov20", "dates-in-words", "critical events on Nov 20th?",
            count(log.grep("Critical (3)") & log.day("2026-11-20")))
    q.ranked("top-channel", "ranking", "which channel id shows up most in CM-STATUS events?",
             top(log.extract(r"Chan ID: (\d+);")))
    q.count("dhcp-failed", "honest-zero", "how many DHCP failures?", count(log.grep("DHCP FAILED")))
    q.count("not-notice", "plain", "How many events are there other than notices?", count(~log.grep("Notice (6)")))


def syslog(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "syslog" / "messages", syslog_times)
    fields = log.lines.str.extract(r"^\w+ +\d+ \S+ (\S+) ([^:\[]+)")
    fields.columns = ["host", "program"]
    failed, ufw = log.grep("Failed password"), log.grep("UFW BLOCK")
    sudo = log.regex(r"sudo:\s+\S+ : ")
    q.count("carol-sessions", "terse", "sessions started for carol?", count(log.grep("Started Session")
                                                                          & log.grep("of user carol.")))
    q.count("backup-cron", "wordy", "We run backups from cron. Could you count how many times cron ran backup.sh as "
            "the backup user?", count(log.grep("(backup) CMD (/usr/local/bin/backup.sh")))
    q.count("accepted-bob", "typo", "how many acepted password logins for bob?",
            count(log.grep("Accepted password for bob ")))
    q.count("ufw-telnet", "typo", "how many ufw bloks to port 23?", count(ufw & log.grep(" DPT=23 ")))
    q.count("failed-01-02", "dates-in-words", "how many failed passwords between 1 and 2 am on Nov 20?",
            count(failed & log.between("2026-11-20 01:00", "2026-11-20 02:00", "1s")))
    q.count("sudo-nov19", "dates-in-words", "sudo commands on November 19th?", count(sudo & log.day("2026-11-19")))
    q.ranked("top-failed-host", "ranking", "which host had the most failed password attempts?", top(fields.host[failed]))
    q.ranked("top-3-blocked-ips", "ranking", "top 3 source IPs blocked by the firewall",
             top(log.extract(r"SRC=" + IP, ufw), 3))
    q.count("web01", "came-from", "how many lines came from web01?", count(fields.host == "web01"))
    q.count("systemd", "came-from", "how many lines did systemd log?", count(fields.program == "systemd"))
    q.count("failed-alice", "honest-zero", "how many failed passwords for alice?",
            count(log.grep("Failed password for alice ")))
    q.count("session-users", "plain", "How many distinct users had sessions started?",
            unique(log.extract(r"Started Session \d+ of user (\S+)\.")))
    q.count("sshd-not-failed", "plain", "How many sshd lines are there other than failed passwords?",
            count((fields.program == "sshd") & ~failed))


def app(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "app" / "app.jsonl", lambda lines: _utc(lines.str.extract(r'"ts":"([^"]+)"')[0]))
    records = app_records(log)
    errors = records.level == "ERROR"
    q.count("smtp-refused", "terse", "SMTP connection refused count", count(records.msg == "SMTP connection refused"))
    q.count("cache-misses", "typo", "how many cache mises?", count(records.msg == "cache miss"))
    q.count("missing-sku", "wordy", "Customers say their orders fail validation. How many 'missing sku' errors did the "
            "app log?", count(records.msg.str.contains("missing sku") & errors))
    q.count("errors-09-10", "dates-in-words", "how many errors between 9 and 10 am on November 20th?",
            count(errors & log.between("2026-11-20 09:00", "2026-11-20 10:00", "1s")))
    q.ranked("top-logger", "ranking", "which logger logged the most lines?", top(records.logger))
    q.ranked("top-timeout-user", "ranking", "which user hit the most timeouts?",
             top(records.user[records.msg.str.contains("timeout")]))
    q.count("api-users", "came-from", "how many lines came from api.users?", count(records.logger == "api.users"))
    q.count("mallory", "honest-zero", "how many lines did user mallory log?", count(records.user == "mallory"))
    q.count("error-users", "plain", "How many distinct users hit errors?", unique(records.user[errors]))
    q.count("not-info", "plain", "How many lines are there other than INFO?", count(records.level != "INFO"))


def nginx(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "nginx" / "access.log",
                      lambda lines: _utc(lines.str.extract(r"\[([^\]]+)\]")[0], "%d/%b/%Y:%H:%M:%S %z"))
    request = nginx_requests(log)
    q.count("env-probes", "terse", "/.env probes?", count(request.path == "/.env"))
    q.count("403", "typo", "how many forbiden (403) responses?", count(request.status == "403"))
    q.count("login-401", "wordy", "Someone may be guessing passwords on our site. Could you count how many requests "
            "to /login came back with a 401?", count((request.path == "/login") & (request.status == "401")))
    q.count("5xx-14-15", "dates-in-words", "how many 5xx responses between 2 and 3 pm on November 20th?",
            count(request.status.str.startswith("5") & log.between("2026-11-20 14:00", "2026-11-20 15:00", "1s")))
    q.ranked("top-3-ips", "ranking", "top 3 client IPs by number of requests", top(request.ip, 3))
    q.ranked("top-403-path", "ranking", "which URL path was forbidden (403) most often?", top(request.path[request.status == "403"]))
    q.count("from-198", "came-from", "how many requests came from 198.51.100.23?", count(request.ip == "198.51.100.23"))
    q.count("localhost", "honest-zero", "how many requests from 127.0.0.1?", count(request.ip == "127.0.0.1"))
    q.count("401-ips", "plain", "How many distinct client IPs got a 401?", unique(request.ip[request.status == "401"]))
    sizes = (pd.to_numeric(log.lines.str.split('" ', n=2).str[1].str.split().str[1]),  # served now: a statistic
             log.lines.str.extract(r'" \d{3} (\d+) "', expand=False).astype(float))
    q.measured("median-size", "statistic", "median response size?", both(*(statistic(v, "median") for v in sizes)))


def rfc5424(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "syslog" / "rfc5424.log")
    fields = rfc5424_fields(log)
    q.count("upstream-timeouts", "terse", "upstream timeouts?", count(log.grep("upstream timed out")))
    q.count("postgres-db01", "came-from", "how many messages did postgres log on db01?",
            count((fields.app == "postgres") & (fields.host == "db01")))
    q.ranked("top-error-host", "ranking", "which host logged the most errors?", top(fields.host[fields.severity == 3]))
    q.count("redis", "honest-zero", "how many lines from redis?", count(log.grep("redis")))


CHECK_SETS: dict[str, Callable[[Truth, Questions, Path], None]] = {
    "cmts": cmts, "modem": modem, "syslog": syslog, "app": app, "nginx": nginx, "rfc5424": rfc5424,
}
