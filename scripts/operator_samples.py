"""Operator-style questions over sample_logs/, with expected values from the generator's ground truth (by key
path, so the suite follows scripts/generate_sample_logs.py) or from regexes over the raw lines, never from
react-engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
from operator_data import Ambiguous, LogData, Questions, agree, count, ranked, top, unique

IP = r"(\d{1,3}(?:\.\d{1,3}){3})"


class Truth:
    """The sample generator's ground truth, read by key path; checks what a question will expect."""

    def __init__(self, path: Path) -> None:
        self.data = json.loads(path.read_text(encoding="utf-8"))

    def get(self, key: str) -> Any:
        node: Any = self.data
        for part in key.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]
        return node

    def value(self, q: Questions, slug: str, phrasing: str, question: str, key: str) -> None:
        if not self.get(key):
            raise Ambiguous(f"{key} is empty: ask it as a counted honest zero")
        q.truth(slug, phrasing, question, key)

    def ranked(self, q: Questions, slug: str, phrasing: str, question: str, key: str, n: int = 1) -> None:
        found = self.get(key)
        ranked(found if isinstance(found, dict) else dict(found), n)
        q.truth(slug, phrasing, question, key, top_n=n)


def syslog_times(lines: pd.Series) -> pd.Series:
    return pd.to_datetime("2026 " + lines.str[:15], format="%Y %b %d %H:%M:%S")


def nginx_requests(log: LogData) -> pd.DataFrame:
    """Each access-log line's client ip, method, path and status."""
    request = log.lines.str.extract(r'^(\S+) .*?"(\S+) (\S+) [^"]*" (\d{3}) ')
    request.columns = ["ip", "method", "path", "status"]
    return request


def rfc5424_fields(log: LogData) -> pd.DataFrame:
    """Each RFC 5424 line's priority, host and app, and the severity (0-7) the priority holds."""
    fields = log.lines.str.extract(r"^<(\d+)>1 \S+ (\S+) (\S+) ")
    fields.columns = ["pri", "host", "app"]
    fields["severity"] = fields.pri.astype(int) % 8
    return fields


def app_records(log: LogData) -> pd.DataFrame:
    """The JSON-lines app log as a table (ts, level, logger, msg, user, ...)."""
    return pd.DataFrame([json.loads(line) for line in log.lines])


def cmts(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "cmts" / "MAWED07T02.log")
    t.value(q, "t3", "terse", "t3 timeouts?", "sets.cmts.search.T3 time-out")
    t.value(q, "critical-mawed07t01", "terse", "critical count MAWED07T01",
            "sets.cmts.hosts.MAWED07T01.by_severity.critical")
    t.value(q, "unregsid", "terse", "UNREGSIDTIMEOUT lines?", "sets.cmts.by_mnemonic.UNREGSIDTIMEOUT")
    t.value(q, "t3-modems-mawed07t01", "wordy", "I'm on call for the MAWED07T01 headend and customers are complaining. "
            "Could you tell me how many distinct cable modems had a T3 timeout there?",
            "sets.cmts.hosts.MAWED07T01.unique_modems.t3_timeout")
    t.value(q, "bad-timing", "wordy", "Can you count for me how many times a CMTS logged a bad timing offset for a "
            "cable modem, across all the CMTS logs?", "sets.cmts.search.Bad timing offset")
    t.value(q, "nybrk03t02-last-hour", "wordy", "We had an outage alarm on NYBRK03T02. Looking at the last hour only, "
            "how many events did it log?", "sets.cmts.windows.last_1h.by_host.NYBRK03T02")
    t.value(q, "t4-nybrk03t02", "typo", "how many T4 timout events on NYBRK03T02?",
            "sets.cmts.hosts.NYBRK03T02.by_kind.t4_timeout")
    t.value(q, "partial", "typo", "how many partial serivce events?", "sets.cmts.search.partial service")
    t.value(q, "ranging", "typo", "how many ranging request retries exhaused?",
            "sets.cmts.search.Ranging Request Retries exhausted")
    t.value(q, "08-12", "dates-in-words", "how many events between 8am and noon on November 20th?",
            "sets.cmts.windows.between_08_12.rows")
    t.value(q, "critical-today", "dates-in-words", "critical events today?",
            "sets.cmts.windows.today.by_severity.critical")
    t.value(q, "mawed07t01-15m", "dates-in-words", "how many lines did MAWED07T01 log in the last 15 min?",
            "sets.cmts.windows.last_15m.by_host.MAWED07T01")
    t.ranked(q, "top-modem", "ranking", "which cable modem shows up the most?", "sets.cmts.top_modems")
    t.ranked(q, "top-auth-fail-interfaces", "ranking", "top 3 interfaces with authorization failures",
             "sets.cmts.top_auth_fail_interfaces", 3)
    critical = {host: t.get(f"sets.cmts.hosts.{host}.by_severity").get("critical", 0)
                for host in t.get("sets.cmts.by_host")}
    q.ranked("top-critical-host", "ranking", "which CMTS logged the most critical events?", ranked(critical))
    t.value(q, "nybrk03t01", "came-from", "how many lines came from NYBRK03T01?", "sets.cmts.by_host.NYBRK03T01")
    t.value(q, "ubr7200", "came-from", "how many events were logged by the UBR7200?", "sets.cmts.by_component.UBR7200")
    t.value(q, "t3-from-mawed07t01-hour", "came-from", "T3 timeouts coming from MAWED07T01 in the last hour?",
            "sets.cmts.hosts.MAWED07T01.last_1h.by_kind.t3_timeout")
    q.count("t3-mawed07t02", "honest-zero", "T3 timeouts on MAWED07T02?", count(log.grep("T3 time-out")))
    q.count("emergency", "honest-zero", "how many emergency events?",
            t.get("sets.cmts.by_severity").get("emergency", 0))
    t.value(q, "partial-modems", "plain", "How many distinct cable modems had partial service?",
            "sets.cmts.unique_modems.partial_service")
    t.value(q, "event-73055400", "plain", "How many lines have event id 73055400?", "sets.cmts.by_event_id.73055400")
    t.value(q, "bad-timing-nybrk03t01", "plain", 'How many lines contain "Bad timing offset" on NYBRK03T01?',
            "sets.cmts.hosts.NYBRK03T01.by_kind.bad_tx_offset")
    q.count("partial-nybrk03t01", "honest-zero", "partial service events on NYBRK03T01?",
            count(LogData.raw(logs / "cmts" / "NYBRK03T01.log").grep("partial service")))


def modem(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "modem" / "eventlog.txt", lambda lines: pd.to_datetime(lines.str[:19], errors="coerce"))
    t.value(q, "t3", "terse", "modem t3 timeouts?", "sets.modem.search.T3 time-out")
    t.value(q, "critical", "terse", "critical events?", "sets.modem.by_severity.critical")
    q.count("sync-loss", "wordy", "My cable modem keeps dropping off. Could you look at its event log and tell me "
            "how many times it lost sync?", agree(t.get("sets.modem.by_kind.sync_loss"),
                                                   count(log.grep("Loss of Sync"))))
    t.value(q, "t4", "typo", "how many T4 timout events?", "sets.modem.search.T4 time out")
    t.value(q, "partial", "typo", "how many partial servce events?", "sets.modem.search.Partial Service")
    t.value(q, "last-hour", "dates-in-words", "events in the last hour?", "sets.modem.windows.last_1h.rows")
    q.count("nov19", "dates-in-words", "how many events on November 19th?", count(log.regex(r"^2026-11-19 ")))
    q.ranked("top-status-code", "ranking", "which CM-STATUS event type code shows up most?",
             top(log.extract(r"Event Type Code: (\d+);")))
    q.count("cmts-mac", "came-from", "how many events came from the CMTS with MAC 00:90:f0:2d:00:00?",
            count(log.grep("CMTS-MAC=00:90:f0:2d:00:00")))
    q.count("reboots-hour", "honest-zero", "how many reboots in the last hour?",
            count(log.grep("Reboot") & log.last("1h")))
    t.value(q, "cm-status", "plain", "How many CM-STATUS events are there?", "sets.modem.search.CM-STATUS")
    q.count("mdd-timeout", "plain", 'How many "Lost MDD Timeout" events are there?',
            count(log.grep("Lost MDD Timeout")))


def syslog(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "syslog" / "messages", syslog_times)
    failed = log.grep("Failed password")
    ufw = log.grep("UFW BLOCK")
    q.count("root-failures", "terse", "failed passwords for root?", count(log.grep("Failed password for root ")))
    t.value(q, "ufw", "terse", "ufw blocks?", "sets.syslog.ufw_block.rows")
    t.value(q, "sudo", "terse", "sudo commands?", "sets.syslog.sudo.rows")
    t.value(q, "bastion-failures", "wordy", "I'm worried about brute force on bastion01. How many failed password "
            "attempts did it see?", "sets.syslog.failed_password.by_host.bastion01")
    t.value(q, "failed-ips-hour", "wordy", "Could you please tell me how many distinct IPs tried a password and "
            "failed in the last hour?", "sets.syslog.failed_password.last_1h.unique_ips")
    t.value(q, "oom", "wordy", "We got an OOM alert on one of the boxes. How many times was something killed for "
            "being out of memory?", "sets.syslog.oom_kills")
    t.value(q, "invalid-failures", "typo", "how many faild pasword attempts for invalid users?",
            "sets.syslog.failed_password.invalid_user_rows")
    t.value(q, "publickey", "typo", "how many acepted publickey logins?", "sets.syslog.search.Accepted publickey")
    q.count("ufw-sources", "typo", "how many diffrent source adresses did ufw block?",
            unique(log.extract(r"SRC=" + IP, ufw)))
    q.count("nov19", "dates-in-words", "how many lines on Nov 19?", count(log.regex(r"^Nov 19 ")))
    t.value(q, "failed-hour", "dates-in-words", "failed passwords in the last hour",
            "sets.syslog.failed_password.last_1h.rows")
    q.count("accepted-08-12", "dates-in-words", "accepted ssh logins between 8 and 12 on Nov 20?",
            count(log.grep("Accepted ") & log.between("2026-11-20 08:00", "2026-11-20 12:00", "1s")))
    t.ranked(q, "top-failed-ip", "ranking", "which IP had the most failed passwords?",
             "sets.syslog.failed_password.top_ips")
    t.ranked(q, "top-invalid-users", "ranking", "top 3 usernames in invalid user attempts",
             "sets.syslog.invalid_user.top_users", 3)
    t.ranked(q, "top-blocked-port", "ranking", "which destination port did the firewall block most?",
             "sets.syslog.ufw_block.top_dst_ports")
    t.value(q, "cron", "came-from", "how many lines came from CRON?", "sets.syslog.by_component.CRON")
    t.value(q, "db01", "came-from", "how many lines were logged by db01?", "sets.syslog.by_host.db01")
    q.count("failed-from-203", "came-from", "failed password attempts coming from 203.0.113.45?",
            count(failed & log.grep("from 203.0.113.45 ")))
    q.count("accepted-root", "honest-zero", "accepted logins for root?", count(log.regex(r"Accepted \S+ for root ")))
    q.count("failed-deploy", "honest-zero", "how many failed passwords for deploy?",
            count(log.grep("Failed password for deploy ")))
    q.count("failed-users", "plain", "How many unique users had failed password attempts?",
            unique(log.extract(r"Failed password for (?:invalid user )?(\S+) from", failed)))
    q.count("sudo-alice", "plain", "How many sudo commands did alice run?",
            count(log.regex(r"sudo:\s+alice : ")))
    q.count("restart-app", "wordy", "Something restarts the app a lot. Can you count how many sudo commands ran "
            "'systemctl restart app'?", count(log.grep("sudo:") & log.grep("systemctl restart app")))


def app(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "app" / "app.jsonl")
    records = app_records(log)
    warn = records.level == "WARN"
    q.count("payments-errors", "terse", "errors in api.payments?",
            count((records.level == "ERROR") & (records.logger == "api.payments")))
    t.value(q, "pool", "terse", "pool exhausted count", "sets.app.search.connection pool exhausted")
    t.value(q, "gateway-502", "wordy", "Our payment provider had an incident. Can you find out how many times the "
            "payment gateway returned 502 according to the app log?", "sets.app.search.payment gateway returned 502")
    t.value(q, "slow", "wordy", "I'm triaging slow requests; how many lines say 'slow request'?",
            "sets.app.search.slow request")
    q.count("db-pool-warnings", "typo", "how many warnigns from db.pool?", count(warn & (records.logger == "db.pool")))
    t.value(q, "tracebacks", "typo", "how many tracebaks?", "sets.app.search.Traceback")
    t.value(q, "errors-hour", "dates-in-words", "errors during the last 60 minutes?", "sets.app.errors_last_1h")
    t.value(q, "warnings-08-12", "dates-in-words", "how many warnings between 8 and 12 on 20 Nov?",
            "sets.app.windows.between_08_12.by_severity.warning")
    q.count("yesterday", "dates-in-words", "how many lines yesterday?", count(records.ts.str.startswith("2026-11-19")))
    t.ranked(q, "top-error-user", "ranking", "which user hit the most errors?", "sets.app.top_error_users")
    q.ranked("top-warn-logger", "ranking", "which logger has the most warnings?", top(records.logger[warn]))
    t.ranked(q, "top-users", "ranking", "top 3 users by requests", "sets.app.top_users", 3)
    q.count("worker-email", "came-from", "how many lines were logged by worker.email?",
            count(records.logger == "worker.email"))
    q.count("db-pool-errors", "came-from", "errors coming from db.pool?",
            count((records.level == "ERROR") & (records.logger == "db.pool")))
    q.count("fatal", "honest-zero", "any FATAL entries?", count(records.level == "FATAL"))
    q.count("refunds", "honest-zero", "how many lines came from api.refunds?", count(records.logger == "api.refunds"))
    t.value(q, "request-ids", "plain", "How many distinct request IDs are there?", "sets.app.unique_request_ids")
    t.value(q, "gateway-error", "plain", "How many GatewayError exceptions are there?", "sets.app.search.GatewayError")
    q.count("zoe-errors", "honest-zero", "errors for user zoe?",
            count((records.level == "ERROR") & (records.user == "zoe")))


def nginx(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "nginx" / "access.log")
    request = nginx_requests(log)
    t.value(q, "404", "terse", "404s?", "sets.nginx.by_status.404")
    t.value(q, "5xx", "terse", "5xx count?", "sets.nginx.errors_5xx")
    q.count("wp-login", "wordy", "Someone is scanning us. Could you count how many requests went to /wp-login.php?",
            count(request.path == "/wp-login.php"))
    t.value(q, "502", "wordy", "Something broke after a deploy and I want to know how many requests came back with "
            "a 502 across the whole log.", "sets.nginx.by_status.502")
    t.value(q, "401", "typo", "how many unauthorised requets (401)?", "sets.nginx.by_status.401")
    t.value(q, "post", "typo", "how many POST requsts?", "sets.nginx.by_method.POST")
    t.value(q, "404-hour", "dates-in-words", "404s in the last hour?", "sets.nginx.last_1h.by_status.404")
    t.value(q, "08-12", "dates-in-words", "requests between 08:00 and 12:00 on November 20th",
            "sets.nginx.windows.between_08_12.rows")
    q.count("yesterday", "dates-in-words", "how many requests yesterday?", count(log.grep("[19/Nov/2026:")))
    t.ranked(q, "top-404-path", "ranking", "which path got the most 404s?", "sets.nginx.top_404_paths")
    t.ranked(q, "top-5xx-ip", "ranking", "which client IP got the most 5xx errors?", "sets.nginx.top_5xx_client_ips")
    t.ranked(q, "top-agent", "ranking", "which user agent shows up most?", "sets.nginx.top_user_agents")
    q.count("from-10-0-4-15", "came-from", "how many requests came from 10.0.4.15?", count(request.ip == "10.0.4.15"))
    q.count("404-from-203", "came-from", "how many 404s came from 203.0.113.45?",
            count((request.ip == "203.0.113.45") & (request.status == "404")))
    q.count("418", "honest-zero", "how many 418s?", count(request.status == "418"))
    q.count("delete", "honest-zero", "DELETE requests?", count(request.method == "DELETE"))
    t.value(q, "503", "plain", "How many requests returned status 503?", "sets.nginx.by_status.503")
    q.count("404-paths", "plain", "How many unique paths got a 404?", unique(request.path[request.status == "404"]))
    q.count("orders-404", "wordy", "Our mobile app hits /api/orders. Could you count how many requests to "
            "/api/orders came back with a 404?", count((request.path == "/api/orders") & (request.status == "404")))
    q.count("user-agents", "plain", "How many unique user agents are there?",
            unique(log.extract(r'"([^"]*)"$')))
    q.count("from-8-8-8-8", "honest-zero", "how many requests from 8.8.8.8?", count(request.ip == "8.8.8.8"))
    q.unserved("p95-request-time", "What is the 95th percentile of request time?")
    q.unserved("average-response-time", "what is the average response time?")


def rfc5424(t: Truth, q: Questions, logs: Path) -> None:
    log = LogData.raw(logs / "syslog" / "rfc5424.log")
    fields = rfc5424_fields(log)
    severity = fields.severity
    q.count("postgres-errors", "terse", "postgres errors?", count((fields.app == "postgres") & (severity == 3)))
    t.value(q, "critical", "terse", "critical?", "sets.rfc5424.by_severity.critical")
    q.count("nginx-web01", "wordy", "Looking at the RFC 5424 syslog, how many messages did nginx log on web01?",
            count((fields.app == "nginx") & (fields.host == "web01")))
    t.value(q, "errors", "typo", "how many eror messages?", "sets.rfc5424.errors_or_worse")
    t.value(q, "last-6h", "dates-in-words", "lines in the last 6 hours?", "sets.rfc5424.windows.last_6h.rows")
    t.ranked(q, "top-app", "ranking", "which app logged the most?", "sets.rfc5424.by_app")
    t.value(q, "db01", "came-from", "how many lines came from db01?", "sets.rfc5424.by_host.db01")
    q.count("emergency", "honest-zero", "emergency messages?", count(severity == 0))
    q.count("db01-warnings", "plain", "How many warnings are there on db01?",
            count((fields.host == "db01") & (severity == 4)))


SETS: dict[str, Callable[[Truth, Questions, Path], None]] = {
    "cmts": cmts, "modem": modem, "syslog": syslog, "app": app, "nginx": nginx, "rfc5424": rfc5424,
}


def sample_cases(logs: Path, sets: dict[str, Callable[[Truth, Questions, Path], None]] = SETS,
                 refused: list[str] | None = None) -> list[dict]:
    """Every sample set's cases (`sets`: a catalogue); `logs` is sample_logs/ (with ground_truth.json). Questions
    left out because their readings disagree are added to `refused`."""
    truth = Truth(logs / "ground_truth.json")
    cases: list[dict] = []
    for name, questions in sets.items():
        q = Questions(prefix=name, set=name)
        questions(truth, q, logs)
        cases += q.cases
        if refused is not None:
            refused += q.refused
    return cases
