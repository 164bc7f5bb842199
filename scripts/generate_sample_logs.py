"""Generate the bundled sample logs and their ground truth, deterministically from a seed.

Usage: python scripts/generate_sample_logs.py [--seed 2026] [--out sample_logs/]

Every line is rendered from an event record; `ground_truth.json` is computed from those records (never by
parsing the text), so tests and the evaluation suite can take their expected values from it.

Samples (paths relative to `--out`), a "set" being the files one question is asked over:
  set "cmts":   cmts/MAWED07T01.log, cmts/NYBRK03T02.log (Casa `<PRI>YYYY-MM-DD,hh:mm:ss.d HOST CMTS[DOCSIS]:
                <EventId> text;CM-MAC=..;CMTS-VER=3.0;`), cmts/MAWED07T02.log (Cisco `Mmm dd hh:mm:ss HOST
                %UBR10000-S-MNEMONIC: ...`), cmts/NYBRK03T01.log (Cisco UBR7200, every line with a `<PRI>`).
                A modem appears in colon notation on Casa CMTSs and dotted notation on Cisco CMTSs of its site.
  set "modem":  modem/eventlog.txt, one modem's event log (`YYYY-MM-DD hh:mm:ss Critical (3) text;CM-MAC=..;
                CMTS-MAC=..;CM-QOS=1.1;CM-VER=3.0;`); a few lines carry 1970 times (no time-of-day yet).
  set "syslog": syslog/messages (RFC 3164 without PRI: sshd, CRON, kernel, systemd, sudo on three hosts).
  set "rfc5424": syslog/rfc5424.log (RFC 5424 with PRI).
  set "app":    app/app.jsonl (JSON lines: ts, level, logger, msg, request_id, user, latency_ms[, exc_info]).
  set "nginx":  nginx/access.log (nginx combined).

Lines without a year (Cisco and RFC 3164) are in 2026; the files get mtime = the end time, but a checkout
resets mtimes, so pass year=2026 to the loader (`generator.year`).

ground_truth.json keys:
  generator: {seed, year, end}           end = the fixed end of the generated span (ISO, UTC)
  time_semantics: how windows are counted
  files: {path: {set, lines, first, last, by_severity}}
  sets: {name: SET}, where every SET has
    paths, rows (= total lines), untimed (rows with an unusable time), first, now (newest timestamp = the
    engine's time anchor), by_host, by_component, by_severity (canonical names: emergency, alert, critical,
    error, warning, notice, info, debug), by_level_raw,
    windows: {last_15m, last_1h, last_6h, last_24h, today, between_08_12} -> {start, end, rows, by_severity,
             by_host}; hourly: {"YYYY-MM-DDThh:00:00Z": rows}
  plus, per set:
    cmts:  by_kind (t3_timeout, t4_timeout, partial_service, cm_status, ranging_exhausted, sync_loss,
           invalid_config, unregistered, unauthorized, bad_tx_offset, auth_fail, bad_docsis_msg,
           power_change), by_event_id, by_mnemonic, search (text -> rows containing it, case-insensitive),
           unique_modems {kind|any: n}, modems_in_both_notations, top_modems [[mac, rows]],
           top_interfaces [[iface, rows]], top_auth_fail_interfaces, cm_status_codes {code: rows},
           hosts: {host: {rows, vendor, by_severity, by_kind, unique_modems {kind|any: n}, top_modems,
                          last_1h: {rows, by_kind, unique_modems {kind|any: n}, top_modems},
                          last_15m: {rows, by_kind, unique_modems}}},
           last_1h: {rows, by_kind, unique_modems}
    modem: cm_mac, cmts_mac, by_event_id, by_kind, by_docsis_level, search
    syslog: failed_password {rows, unique_ips, top_ips, top_users, last_1h, by_host}, invalid_user {rows,
           top_users, unique_users}, accepted {rows, top_users, by_method}, sudo {rows, top_users}, cron {rows},
           ufw_block {rows, top_src_ips, top_dst_ports}, oom_kills, top_ips (every IPv4 in the lines),
           unique_ips, search
    rfc5424: by_app, errors_or_worse (error, critical, alert and emergency lines)
    app: by_logger, errors, warnings, exceptions, top_users, top_error_users, top_error_loggers,
           unique_users, unique_request_ids, latency_ms {min, max, mean, p50, p95}, slow_requests_over_1000ms,
           errors_last_1h, search
    nginx: by_status, by_status_class, top_statuses, top_paths, top_client_ips, top_user_agents, by_method,
           unique_client_ips, bytes_total, errors_5xx, errors_4xx, top_404_paths, top_5xx_paths,
           top_5xx_client_ips, last_1h {rows, by_status, errors_5xx}
"top_*" lists are [[value, count], ...] sorted by count desc, then value asc (10 entries).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SEED = 2026
END = datetime(2026, 11, 20, 16, 0, 0, tzinfo=UTC)
SPAN = timedelta(hours=24)
SEVERITIES = ("emergency", "alert", "critical", "error", "warning", "notice", "info", "debug")
WINDOWS = {"last_15m": timedelta(minutes=15), "last_1h": timedelta(hours=1), "last_6h": timedelta(hours=6),
           "last_24h": timedelta(hours=24)}
BETWEEN = (datetime(2026, 11, 20, 8, tzinfo=UTC), datetime(2026, 11, 20, 12, tzinfo=UTC))
TOP_N = 10


@dataclass
class Event:
    """One generated log entry: what it means (for the ground truth) and how it is written (`text`)."""

    ts: datetime
    set: str
    path: str
    host: str | None
    component: str | None
    severity: str | None
    level_raw: str | None
    kind: str
    attrs: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    timed: bool = True  # False when the written time is not the real one (a modem without time of day)


# ---------------------------------------------------------------------------------------------- helpers

def uniform_times(rng: random.Random, n: int, start: datetime, end: datetime, step: float) -> list[datetime]:
    """`n` sorted times in [start, end), quantised to `step` seconds."""
    span = (end - start).total_seconds() / step
    return sorted(start + timedelta(seconds=int(rng.random() * span) * step) for _ in range(n))


def zipf_pick(rng: random.Random, items: list[Any], skew: float = 1.1) -> Any:
    """Pick with weight 1/rank**skew, so a few items dominate (as noisy modems and attackers do)."""
    weights = [1 / (i + 1) ** skew for i in range(len(items))]
    return rng.choices(items, weights)[0]


def dotted(mac: str) -> str:
    h = mac.replace(":", "")
    return f"{h[0:4]}.{h[4:8]}.{h[8:12]}"


def syslog_time(ts: datetime) -> str:
    return f"{ts:%b} {ts.day:>2} {ts:%H:%M:%S}"


def iso(ts: datetime | None) -> str | None:
    if ts is None:
        return None
    text = ts.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return text.replace(".000Z", "Z")


def top(counter: Counter, n: int = TOP_N) -> list[list[Any]]:
    return [[k, v] for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:n]]


def count(events: Iterable[Event], key: Callable[[Event], Any]) -> dict[str, int]:
    c = Counter(key(e) for e in events)
    c.pop(None, None)
    return dict(sorted(c.items(), key=lambda kv: str(kv[0])))


def unique(events: Iterable[Event], key: str) -> int:
    return len({e.attrs[key] for e in events if e.attrs.get(key)})


# ---------------------------------------------------------------------------------------------- CMTS

CASA_EVENTS = {  # kind: (event id, syslog severity, text)
    "t3_timeout": [("82000200", 2, "No Ranging Response received - T3 time-out"),
                   ("82000500", 2, "Started Unicast Maintenance Ranging - No Response received - T3 time-out")],
    "t4_timeout": [("82000400", 2, "Received Response to Broadcast Maintenance Request, But no Unicast "
                                   "Maintenance opportunities received - T4 time out")],
    "ranging_exhausted": [("82000300", 2, "Ranging Request Retries exhausted")],
    "sync_loss": [("84000500", 2, "SYNC Timing Synchronization failure - Loss of Sync")],
    "partial_service": [("73055400", 4, "CM partial service"), ("84000700", 4, "RCS Partial Service")],
    "cm_status": [("74010100", 5, "CM-STATUS message sent. Event Type Code: {code}; Chan ID: {chan}; DSID: N/A; "
                                  "MAC Addr: N/A; OFDM/OFDMA Profile ID: {profile}.")],
    "invalid_config": [("73011700", 5, "Invalid Modem Capabilities configuration setting .")],
}
CASA_WEIGHTS = {"t3_timeout": 30, "t4_timeout": 8, "ranging_exhausted": 3, "sync_loss": 4, "partial_service": 15,
                "cm_status": 38, "invalid_config": 2}
CISCO_EVENTS = {  # kind: (mnemonic, IOS severity, text)
    "unregistered": ("UNREGSIDTIMEOUT", 5, "CMTS deleted unregistered Cable Modem {mac}"),
    "unauthorized": ("UNAUTHSIDTIMEOUT", 5, "CMTS deleted BPI unauthorized Cable Modem {mac}"),
    "bad_tx_offset": ("BADTXOFFSET", 4, "Bad timing offset {offset} detected for cable modem {mac}."),
    "auth_fail": ("AUTHFAIL", 5, "Authorization failed for Cable Modem {mac} on interface {iface}"),
    "bad_docsis_msg": ("BADMNCSMSG", 5, "Invalid DOCSIS Message received from a Cable Modem for interface {iface}"),
    "power_change": ("USIPLCHG", 5, "Interface {iface} U{port}, input power level changed to {dbmv} dBmV"),
    "invalid_config": ("INVALID_MODEM_CONFIGURATION_SETTING_FORMAT", 4,
                       "<133>CMTS[DOCSIS]:<73011700> Invalid Modem Capabilities configuration setting . "
                       "CM Mac Addr <{mac}>"),
}
CISCO_WEIGHTS = {"unregistered": 30, "unauthorized": 8, "bad_tx_offset": 25, "auth_fail": 12, "bad_docsis_msg": 5,
                 "power_change": 15, "invalid_config": 5}
CM_STATUS_CODES = [16, 24, 16, 24, 2, 5, 6, 7, 8, 1, 4]
CMTSS = {  # host: (vendor, site, facility, events, pri prefix on every line)
    "MAWED07T01": ("casa", "MAWED07", None, 2600, True),
    "MAWED07T02": ("cisco", "MAWED07", "UBR10000", 2300, False),
    "NYBRK03T01": ("cisco", "NYBRK03", "UBR7200", 2000, True),
    "NYBRK03T02": ("casa", "NYBRK03", None, 2400, True),
}
OUIS = ["14:cf:e2", "00:18:c0", "98:6b:3d", "00:1d:d3", "00:15:a4", "bc:64:4b", "e4:48:c7", "38:70:0c"]


def make_modems(rng: random.Random) -> dict[str, list[str]]:
    """Modem MACs (lower-case colon form) per site."""
    macs: set[str] = set()
    while len(macs) < 340:
        macs.add(f"{rng.choice(OUIS)}:{rng.randrange(256):02x}:{rng.randrange(256):02x}:{rng.randrange(256):02x}")
    ordered = sorted(macs)
    rng.shuffle(ordered)
    return {"MAWED07": ordered[:190], "NYBRK03": ordered[190:]}


def interface_of(mac: str, host: str) -> str:
    n = int(mac.replace(":", ""), 16) + sum(map(ord, host))
    return f"Cable{5 + n % 2}/0/{n // 2 % 4}"


def casa_event(rng: random.Random, ts: datetime, host: str, mac: str, kind: str) -> Event:
    event_id, sev, template = rng.choice(CASA_EVENTS[kind])
    attrs: dict[str, Any] = {"mac": mac, "event_id": event_id, "vendor": "casa"}
    if kind == "cm_status":
        attrs["cm_status_code"] = rng.choice(CM_STATUS_CODES)
        text = template.format(code=attrs["cm_status_code"], chan=rng.choice([1, 2, 3, 4, 33, 159, 193]),
                               profile=rng.choice([0, 1, 2]))
    else:
        text = template
    stamp = f"{ts:%Y-%m-%d,%H:%M:%S}.{ts.microsecond // 100000}"
    line = f"<{128 + sev}>{stamp} {host} CMTS[DOCSIS]: <{event_id}> {text};CM-MAC={mac};CMTS-VER=3.0;"
    if kind == "partial_service" and rng.random() < 0.5:
        line += f"(event count {rng.randint(2, 40)}, last time: {stamp})"
    return Event(ts, "cmts", f"cmts/{host}.log", host, "CMTS", SEVERITIES[sev], f"<{128 + sev}>", kind, attrs, line)


def cisco_event(rng: random.Random, ts: datetime, host: str, mac: str, kind: str, facility: str,
                pri: bool) -> Event:
    mnemonic, sev, template = CISCO_EVENTS[kind]
    iface = interface_of(mac, host)
    uses_mac = "{mac}" in template
    text = template.format(mac=dotted(mac), iface=iface, offset=rng.choice([1000, 2400, -12, -300, 5120]),
                           port=rng.randrange(4), dbmv=rng.choice([-1, 0, 1, 2, 3]))
    attrs: dict[str, Any] = {"mnemonic": mnemonic, "vendor": "cisco", "interface": iface if "{iface}" in template
                             else None, "mac": mac if uses_mac else None}
    prefix = f"<{184 + sev}>" if pri else ""
    line = f"{prefix}{syslog_time(ts)} {host} %{facility}-{sev}-{mnemonic}: {text}"
    return Event(ts, "cmts", f"cmts/{host}.log", host, facility, SEVERITIES[sev], str(sev), kind, attrs, line)


def cmts_events(rng: random.Random, modems: dict[str, list[str]]) -> list[Event]:
    start = END - SPAN
    events: list[Event] = []
    for host, (vendor, site, facility, n, pri) in CMTSS.items():
        pool = modems[site][:]
        rng.shuffle(pool)
        weights = CASA_WEIGHTS if vendor == "casa" else CISCO_WEIGHTS
        kinds = sorted(weights)
        step = 0.1 if vendor == "casa" else 1.0
        for ts in uniform_times(rng, n, start, END - timedelta(minutes=1), step):
            kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
            mac = zipf_pick(rng, pool, 0.8)
            events.append(casa_event(rng, ts, host, mac, kind) if vendor == "casa"
                          else cisco_event(rng, ts, host, mac, kind, facility, pri))
    events += outage(rng, "MAWED07T01", modems["MAWED07"][40:95], END - timedelta(minutes=48), 42)
    events += outage(rng, "NYBRK03T02", modems["NYBRK03"][10:40], END - timedelta(hours=13), 30)
    events.append(casa_event(rng, END - timedelta(seconds=2), "MAWED07T01", modems["MAWED07"][41], "t3_timeout"))
    return events


def outage(rng: random.Random, host: str, node: list[str], begin: datetime, minutes: int) -> list[Event]:
    """A return-path problem on one node: T3/T4 timeouts, partial service and CM-STATUS from its modems."""
    kinds = ["t3_timeout"] * 6 + ["t4_timeout"] * 2 + ["partial_service", "cm_status", "ranging_exhausted"]
    times = uniform_times(rng, 8 * len(node), begin, begin + timedelta(minutes=minutes), 0.1)
    return [casa_event(rng, ts, host, rng.choice(node), rng.choice(kinds)) for ts in times]


def modem_events(rng: random.Random, mac: str) -> list[Event]:
    """One modem's own event log (DOCSIS levels, CM-MAC/CMTS-MAC suffix)."""
    cmts_mac = "00:90:f0:2d:00:00"
    table = [("t3_timeout", "82000200", 3, "No Ranging Response received - T3 time-out", 20),
             ("t4_timeout", "82000400", 3, CASA_EVENTS["t4_timeout"][0][2], 6),
             ("sync_loss", "84000500", 3, "SYNC Timing Synchronization failure - Loss of Sync", 4),
             ("partial_service", "84000700", 5, "RCS Partial Service", 8),
             ("mdd_timeout", "84020200", 5, "Lost MDD Timeout", 4),
             ("cm_status", "74010100", 6, "CM-STATUS message sent. Event Type Code: {code}; Chan ID: {chan}; "
                                          "DSID: N/A; MAC Addr: N/A; OFDM/OFDMA Profile ID: 0.", 30),
             ("dhcp_warning", "", 5, "DHCP RENEW WARNING - Field invalid in response v4 option", 5),
             ("registration", "", 6, "REGISTRATION COMPLETE - Waiting for Operational status", 3),
             ("reboot", "", 6, "Cable Modem Reboot due to power reset", 1)]
    names = ["Emergency", "Alert", "Critical", "Error", "Warning", "Notice", "Informational", "Debug"]
    events = []
    times = uniform_times(rng, 396, END - SPAN, END - timedelta(minutes=3), 1.0)
    untimed = [datetime(1970, 1, 1, 0, 0, s, tzinfo=UTC) for s in (12, 14, 31, 58)]
    reboot_at = len(times) // 2
    for ts in times[:reboot_at] + untimed + times[reboot_at:]:
        kind, event_id, level, template, _ = rng.choices(table, [row[4] for row in table])[0]
        text = template.format(code=rng.choice(CM_STATUS_CODES), chan=rng.choice([1, 2, 33, 159]))
        qos = "1.0" if kind == "sync_loss" else "1.1"
        line = (f"{ts:%Y-%m-%d %H:%M:%S} {names[level - 1]} ({level}) {text};CM-MAC={mac};CMTS-MAC={cmts_mac};"
                f"CM-QOS={qos};CM-VER=3.0;")
        attrs = {"mac": mac, "cmts_mac": cmts_mac, "event_id": event_id or None, "docsis_level": level}
        events.append(Event(ts, "modem", "modem/eventlog.txt", None, None, SEVERITIES[level - 1],
                            f"{names[level - 1]} ({level})", kind, attrs, line, timed=ts.year > 1970))
    return events


# ---------------------------------------------------------------------------------------------- syslog

HOSTS = ["bastion01", "web01", "db01"]
ATTACKERS = ["203.0.113.45", "198.51.100.23", "192.0.2.77", "203.0.113.9", "198.51.100.190", "45.227.254.8",
             "185.220.101.34", "92.118.39.61", "61.177.172.13", "218.92.0.112", "141.98.11.29", "193.32.162.70"]
BAD_USERS = ["admin", "test", "oracle", "ubuntu", "postgres", "git", "support", "user", "pi", "ftpuser"]
STAFF = [("alice", "10.0.4.12"), ("bob", "10.0.4.15"), ("carol", "10.0.5.3"), ("deploy", "10.0.9.20"),
         ("backup", "10.0.9.21")]
CRON_CMDS = ["/usr/lib/sysstat/sa1 1 1", "test -x /usr/sbin/anacron || ( cd / && run-parts --report /etc/cron.daily )",
             "/usr/local/bin/backup.sh >/dev/null 2>&1", "command -v debian-sa1 > /dev/null && debian-sa1 1 1"]


def uptime(ts: datetime) -> float:
    """Seconds since boot as the kernel prints them (the hosts booted 12 days before the span)."""
    return (ts - (END - SPAN)).total_seconds() + 86400 * 12


def syslog_events(rng: random.Random) -> list[Event]:
    events: list[Event] = []
    pid = 20000
    for ts in uniform_times(rng, 4200, END - SPAN, END - timedelta(seconds=20), 1.0):
        host = zipf_pick(rng, HOSTS, 1.5)
        pid += rng.randint(1, 9)
        kind = rng.choices(["failed", "invalid", "accepted", "closed", "cron", "ufw", "systemd", "sudo", "oom"],
                           [34, 12, 6, 10, 20, 10, 6, 2, 0.2])[0]
        comp, attrs, msg, p = "sshd", {}, "", str(pid)
        if kind in ("failed", "invalid", "closed"):
            ip = zipf_pick(rng, ATTACKERS, 1.2)
            port = rng.randint(30000, 65000)
            if kind == "failed":
                user = rng.choice(["root"] * 3 + BAD_USERS)
                invalid = user != "root"
                msg = f"Failed password for {'invalid user ' if invalid else ''}{user} from {ip} port {port} ssh2"
                attrs = {"ip": ip, "user": user, "invalid": invalid}
            elif kind == "invalid":
                user = rng.choice(BAD_USERS)
                msg = f"Invalid user {user} from {ip} port {port}"
                attrs = {"ip": ip, "user": user}
            else:
                msg = f"Connection closed by authenticating user root {ip} port {port} [preauth]"
                attrs = {"ip": ip, "user": "root"}
        elif kind == "accepted":
            user, ip = rng.choice(STAFF)
            method = "publickey" if user in ("deploy", "backup") else "password"
            suffix = ": ED25519 SHA256:4kZb0Qx9yVtH2mI1cJp3Ew7Rf6Lq8sNaOdUuTgYhBvK" if method == "publickey" else ""
            msg = f"Accepted {method} for {user} from {ip} port {rng.randint(40000, 60000)} ssh2{suffix}"
            attrs = {"ip": ip, "user": user, "method": method}
        elif kind == "cron":
            comp, user = "CRON", rng.choice(["root", "root", "backup"])
            msg = f"({user}) CMD ({rng.choice(CRON_CMDS)})"
            attrs = {"user": user}
        elif kind == "ufw":
            comp, p = "kernel", ""
            src, dport = zipf_pick(rng, ATTACKERS, 1.0), rng.choice([22, 23, 3389, 445, 8080, 5900])
            msg = (f"[{uptime(ts):.6f}] [UFW BLOCK] IN=eth0 OUT= MAC=52:54:00:12:34:56:fe:54:00:ab:cd:ef:08:00 "
                   f"SRC={src} "
                   f"DST=10.0.0.{HOSTS.index(host) + 10} LEN=44 TOS=0x00 PREC=0x00 TTL=241 ID=54321 PROTO=TCP "
                   f"SPT={rng.randint(1024, 65000)} DPT={dport} WINDOW=1024 RES=0x00 SYN URGP=0")
            attrs = {"ip": src, "dst": f"10.0.0.{HOSTS.index(host) + 10}", "dport": dport}
        elif kind == "systemd":
            comp, p = "systemd", "1"
            user = rng.choice(STAFF)[0]
            msg = f"Started Session {pid % 9000} of user {user}."
            attrs = {"user": user}
        elif kind == "sudo":
            comp, p = "sudo", ""
            user = rng.choice(["alice", "bob", "deploy"])
            msg = (f"   {user} : TTY=pts/{rng.randrange(4)} ; PWD=/home/{user} ; USER=root ; "
                   f"COMMAND=/usr/bin/systemctl restart {rng.choice(['nginx', 'postgresql', 'app'])}")
            attrs = {"user": user}
        else:
            comp, p = "kernel", ""
            msg = (f"[{uptime(ts):.6f}] Out of memory: Killed process {pid} (java) total-vm:8123456kB, "
                   f"anon-rss:3912344kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:8200kB oom_score_adj:0")
        tag = f"{comp}[{p}]" if p else comp
        events.append(Event(ts, "syslog", "syslog/messages", host, comp, None, None, kind, attrs,
                            f"{syslog_time(ts)} {host} {tag}: {msg}"))
    return events


def rfc5424_events(rng: random.Random) -> list[Event]:
    apps = [("nginx", 4, "upstream timed out (110: Connection timed out) while reading response header"),
            ("nginx", 6, "signal process started"), ("postgres", 3, "could not receive data from client"),
            ("postgres", 6, "checkpoint complete: wrote 1183 buffers (7.2%)"), ("app", 3, "payment gateway "
            "returned 502"), ("app", 6, "cache warmed in 412 ms"), ("app", 7, "pool stats active=3 idle=7"),
            ("app", 2, "disk /var/lib/app is 97% full")]
    events = []
    for i, ts in enumerate(uniform_times(rng, 300, END - SPAN, END - timedelta(minutes=2), 0.001)):
        app, sev, msg = rng.choices(apps, [8, 10, 4, 10, 5, 10, 6, 1])[0]
        host = rng.choice(HOSTS[1:])
        pri = 16 * 8 + sev if app != "postgres" else 3 * 8 + sev
        line = (f"<{pri}>1 {ts.isoformat(timespec='milliseconds').replace('+00:00', 'Z')} {host} {app} "
                f"{3000 + i % 40} - - {msg}")
        events.append(Event(ts, "rfc5424", "syslog/rfc5424.log", host, app, SEVERITIES[sev], str(pri), app,
                            {}, line))
    return events


# ---------------------------------------------------------------------------------------------- app (JSON)

LOGGERS = {"api.orders": ("GET /api/orders", "POST /api/orders"), "api.users": ("GET /api/users/me",),
           "api.payments": ("POST /api/payments",), "worker.email": ("send welcome email",),
           "db.pool": ("connection acquired",)}
APP_USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
ERRORS = {"api.payments": "payment gateway returned 502", "api.orders": "order validation failed: missing sku",
          "worker.email": "SMTP connection refused", "db.pool": "connection pool exhausted (size=20)",
          "api.users": "user profile not found"}
TRACE = ("Traceback (most recent call last):\n  File \"/srv/app/payments.py\", line 88, in charge\n    resp = "
         "client.post(url, json=body, timeout=5)\n  File \"/srv/app/http.py\", line 41, in post\n    raise "
         "GatewayError(resp.status_code)\napp.http.GatewayError: 502")


def app_events(rng: random.Random) -> list[Event]:
    events = []
    loggers = sorted(LOGGERS)
    for ts in uniform_times(rng, 3200, END - SPAN, END - timedelta(seconds=5), 0.001):
        logger = rng.choice(loggers)
        user = zipf_pick(rng, APP_USERS, 0.9)
        level = rng.choices(["DEBUG", "INFO", "WARN", "ERROR"], [8, 78, 9, 5])[0]
        latency = int(rng.lognormvariate(4.3, 0.8)) + (900 if level == "ERROR" and rng.random() < 0.5 else 0)
        msg = {"ERROR": ERRORS[logger], "WARN": f"slow request: {latency} ms" if latency > 300 else
               "retrying after timeout (attempt 2/3)", "DEBUG": "cache miss"}.get(level, rng.choice(LOGGERS[logger]))
        record: dict[str, Any] = {"ts": ts.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                                  "level": level, "logger": logger, "msg": msg,
                                  "request_id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                                  "user": user, "latency_ms": latency}
        exception = level == "ERROR" and logger == "api.payments" and rng.random() < 0.4
        if exception:
            record["exc_info"] = TRACE
        severity = {"DEBUG": "debug", "INFO": "info", "WARN": "warning", "ERROR": "error"}[level]
        attrs = {"user": user, "latency_ms": latency, "request_id": record["request_id"], "exception": exception}
        events.append(Event(ts, "app", "app/app.jsonl", None, logger, severity, level, level, attrs,
                            json.dumps(record, separators=(",", ":"))))
    return events


# ---------------------------------------------------------------------------------------------- nginx

PATHS = ["/", "/index.html", "/api/orders", "/api/users/me", "/api/payments", "/static/app.js", "/static/app.css",
         "/login", "/healthz", "/favicon.ico", "/wp-login.php", "/.env", "/admin"]
AGENTS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
          "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 "
          "Safari/605.1.15", "curl/8.5.0", "kube-probe/1.30", "python-requests/2.32.3",
          "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"]
CLIENTS = ["10.0.4.12", "10.0.4.15", "172.16.8.21", "198.51.100.23", "203.0.113.45", "192.0.2.77",
           "172.16.8.40", "10.0.9.20", "100.64.3.7", "45.227.254.8"]


def nginx_events(rng: random.Random) -> list[Event]:
    events = []
    for ts in uniform_times(rng, 5200, END - SPAN, END - timedelta(seconds=1), 1.0):
        path = zipf_pick(rng, PATHS, 0.9)
        ip = zipf_pick(rng, CLIENTS, 1.0)
        method = "POST" if path in ("/api/orders", "/api/payments", "/login") and rng.random() < 0.5 else "GET"
        if path in ("/wp-login.php", "/.env", "/admin"):
            status = 404 if path != "/admin" else 403
        elif path == "/api/payments":
            status = rng.choices([200, 502, 503, 500], [80, 12, 4, 4])[0]
        elif path.startswith("/static"):
            status = rng.choice([200, 304])
        else:
            status = rng.choices([200, 301, 401, 404, 500], [88, 3, 4, 4, 1])[0]
        size = 0 if status == 304 else rng.randint(120, 48000)
        agent = "kube-probe/1.30" if path == "/healthz" else zipf_pick(rng, AGENTS, 0.7)
        line = (f'{ip} - - [{ts:%d/%b/%Y:%H:%M:%S} +0000] "{method} {path} HTTP/1.1" {status} {size} "-" '
                f'"{agent}"')
        attrs = {"ip": ip, "path": path, "status": status, "bytes": size, "agent": agent, "method": method}
        events.append(Event(ts, "nginx", "nginx/access.log", None, None, None, None, str(status), attrs, line))
    return events


# ---------------------------------------------------------------------------------------------- ground truth

def off_boundaries(events: list[Event]) -> list[Event]:
    """Drop entries that sit exactly on a window boundary, so inclusive and exclusive ends give one answer."""
    nows = {name: max(e.ts for e in events if e.set == name and e.timed) for name in {e.set for e in events}}

    def edges(now: datetime) -> set[datetime]:
        return {now - w for w in WINDOWS.values()} | set(BETWEEN) | {now.replace(hour=0, minute=0, second=0,
                                                                                  microsecond=0)}

    bounds = {name: edges(now) for name, now in nows.items()}
    return [e for e in events if e.ts not in bounds[e.set]]


def window(group: list[Event], start: datetime, end: datetime) -> list[Event]:
    return [e for e in group if e.timed and start <= e.ts <= end]


def base_summary(group: list[Event]) -> dict[str, Any]:
    timed = [e for e in group if e.timed]
    now = max(e.ts for e in timed)
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    spans = {name: (now - w, now) for name, w in WINDOWS.items()} | {"today": (today, now), "between_08_12": BETWEEN}
    windows = {}
    for name, (start, end) in spans.items():
        rows = window(group, start, end)
        windows[name] = {"start": iso(start), "end": iso(end), "rows": len(rows),
                         "by_severity": count(rows, lambda e: e.severity), "by_host": count(rows, lambda e: e.host)}
    return {
        "paths": sorted({e.path for e in group}), "rows": len(group), "untimed": len(group) - len(timed),
        "first": iso(min(e.ts for e in timed)), "now": iso(now),
        "by_host": count(group, lambda e: e.host), "by_component": count(group, lambda e: e.component),
        "by_severity": count(group, lambda e: e.severity), "by_level_raw": count(group, lambda e: e.level_raw),
        "windows": windows,
        "hourly": count(timed, lambda e: iso(e.ts.replace(minute=0, second=0, microsecond=0))),
    }


def searches(group: list[Event], needles: list[str]) -> dict[str, int]:
    return {n: sum(n.lower() in e.text.lower() for e in group) for n in needles}


def modem_stats(group: list[Event], kinds: list[str]) -> dict[str, Any]:
    with_mac = [e for e in group if e.attrs.get("mac")]
    stats = {k: unique([e for e in with_mac if e.kind == k], "mac") for k in kinds}
    stats["any"] = unique(with_mac, "mac")
    return stats


def cmts_truth(group: list[Event], now: datetime) -> dict[str, Any]:
    kinds = sorted({e.kind for e in group})
    last_hour = window(group, now - WINDOWS["last_1h"], now)
    truth: dict[str, Any] = {
        "by_kind": count(group, lambda e: e.kind), "by_event_id": count(group, lambda e: e.attrs.get("event_id")),
        "by_mnemonic": count(group, lambda e: e.attrs.get("mnemonic")),
        "unique_modems": modem_stats(group, kinds),
        "top_modems": top(Counter(e.attrs["mac"] for e in group if e.attrs.get("mac"))),
        "top_interfaces": top(Counter(e.attrs["interface"] for e in group if e.attrs.get("interface"))),
        "top_auth_fail_interfaces": top(Counter(e.attrs["interface"] for e in group if e.kind == "auth_fail")),
        "cm_status_codes": count(group, lambda e: e.attrs.get("cm_status_code")),
        "last_1h": {"rows": len(last_hour), "by_kind": count(last_hour, lambda e: e.kind),
                    "unique_modems": modem_stats(last_hour, kinds)},
        "search": searches(group, ["T3 time-out", "T4 time out", "partial service", "CM-STATUS",
                                   "Event Type Code: 16", "unregistered Cable Modem", "Authorization failed",
                                   "Bad timing offset", "Ranging Request Retries exhausted", "Cable5/0/1"]),
    }
    notations = defaultdict(set)
    for e in group:
        if e.attrs.get("mac"):
            notations[e.attrs["mac"]].add(e.attrs["vendor"])
    truth["modems_in_both_notations"] = sum(len(v) == 2 for v in notations.values())
    hosts = {}
    for host in sorted({e.host for e in group}):
        rows = [e for e in group if e.host == host]
        per = {"rows": len(rows), "vendor": rows[0].attrs["vendor"], "by_severity": count(rows, lambda e: e.severity),
               "by_kind": count(rows, lambda e: e.kind), "unique_modems": modem_stats(rows, kinds),
               "top_modems": top(Counter(e.attrs["mac"] for e in rows if e.attrs.get("mac")))}
        for name in ("last_1h", "last_15m"):
            recent = window(rows, now - WINDOWS[name], now)
            per[name] = {"rows": len(recent), "by_kind": count(recent, lambda e: e.kind),
                         "unique_modems": modem_stats(recent, kinds),
                         "top_modems": top(Counter(e.attrs["mac"] for e in recent if e.attrs.get("mac")))}
        hosts[host] = per
    truth["hosts"] = hosts
    return truth


def modem_truth(group: list[Event], now: datetime) -> dict[str, Any]:
    return {"cm_mac": group[0].attrs["mac"], "cmts_mac": group[0].attrs["cmts_mac"],
            "by_event_id": count(group, lambda e: e.attrs.get("event_id")), "by_kind": count(group, lambda e: e.kind),
            "by_docsis_level": count(group, lambda e: e.attrs["docsis_level"]),
            "search": searches(group, ["T3 time-out", "T4 time out", "CM-STATUS", "Partial Service"])}


def syslog_truth(group: list[Event], now: datetime) -> dict[str, Any]:
    def of(kind: str) -> list[Event]:
        return [e for e in group if e.kind == kind]

    failed, invalid, accepted = of("failed"), of("invalid"), of("accepted")
    ufw = of("ufw")
    failed_recent = window(failed, now - WINDOWS["last_1h"], now)
    ips = Counter(e.attrs[k] for e in group for k in ("ip", "dst") if e.attrs.get(k))
    return {
        "failed_password": {"rows": len(failed), "unique_ips": unique(failed, "ip"),
                            "top_ips": top(Counter(e.attrs["ip"] for e in failed)),
                            "top_users": top(Counter(e.attrs["user"] for e in failed)),
                            "invalid_user_rows": sum(e.attrs["invalid"] for e in failed),
                            "by_host": count(failed, lambda e: e.host),
                            "last_1h": {"rows": len(failed_recent), "unique_ips": unique(failed_recent, "ip"),
                                        "top_ips": top(Counter(e.attrs["ip"] for e in failed_recent))}},
        "invalid_user": {"rows": len(invalid), "unique_users": unique(invalid, "user"),
                         "top_users": top(Counter(e.attrs["user"] for e in invalid))},
        "accepted": {"rows": len(accepted), "top_users": top(Counter(e.attrs["user"] for e in accepted)),
                     "by_method": count(accepted, lambda e: e.attrs["method"])},
        "sudo": {"rows": len(of("sudo")), "top_users": top(Counter(e.attrs["user"] for e in of("sudo")))},
        "cron": {"rows": len(of("cron"))},
        "ufw_block": {"rows": len(ufw), "top_src_ips": top(Counter(e.attrs["ip"] for e in ufw)),
                      "top_dst_ports": top(Counter(e.attrs["dport"] for e in ufw))},
        "oom_kills": len(of("oom")),
        "top_ips": top(ips), "unique_ips": len(ips),
        "search": searches(group, ["Failed password", "Invalid user", "Accepted password", "Accepted publickey",
                                   "UFW BLOCK", "Out of memory", "session", "CMD", "root"]),
    }


def rfc5424_truth(group: list[Event], now: datetime) -> dict[str, Any]:
    worse = ("emergency", "alert", "critical", "error")  # "errors" are error or worse
    return {"by_app": count(group, lambda e: e.component), "errors_or_worse": sum(e.severity in worse for e in group)}


def percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def app_truth(group: list[Event], now: datetime) -> dict[str, Any]:
    errors = [e for e in group if e.level_raw == "ERROR"]
    latencies = [e.attrs["latency_ms"] for e in group]
    return {
        "by_logger": count(group, lambda e: e.component), "errors": len(errors),
        "warnings": sum(e.level_raw == "WARN" for e in group),
        "exceptions": sum(e.attrs["exception"] for e in group),
        "top_users": top(Counter(e.attrs["user"] for e in group)),
        "top_error_users": top(Counter(e.attrs["user"] for e in errors)),
        "top_error_loggers": top(Counter(e.component for e in errors)),
        "unique_users": unique(group, "user"), "unique_request_ids": unique(group, "request_id"),
        "latency_ms": {"min": min(latencies), "max": max(latencies), "mean": round(sum(latencies) / len(latencies), 3),
                       "p50": percentile(latencies, 0.5), "p95": percentile(latencies, 0.95)},
        "slow_requests_over_1000ms": sum(v > 1000 for v in latencies),
        "errors_last_1h": len(window(errors, now - WINDOWS["last_1h"], now)),
        "search": searches(group, ["payment gateway returned 502", "Traceback", "slow request",
                                   "connection pool exhausted", "GatewayError"]),
    }


def nginx_truth(group: list[Event], now: datetime) -> dict[str, Any]:
    def attr(key: str, rows: list[Event] = group) -> Counter:
        return Counter(e.attrs[key] for e in rows)

    e5 = [e for e in group if e.attrs["status"] >= 500]
    e4 = [e for e in group if 400 <= e.attrs["status"] < 500]
    recent = window(group, now - WINDOWS["last_1h"], now)
    return {
        "by_status": count(group, lambda e: e.attrs["status"]),
        "by_status_class": count(group, lambda e: f"{e.attrs['status'] // 100}xx"),
        "top_statuses": top(attr("status")), "top_paths": top(attr("path")), "top_client_ips": top(attr("ip")),
        "top_user_agents": top(attr("agent")), "by_method": count(group, lambda e: e.attrs["method"]),
        "unique_client_ips": unique(group, "ip"), "bytes_total": sum(e.attrs["bytes"] for e in group),
        "errors_5xx": len(e5), "errors_4xx": len(e4),
        "top_404_paths": top(attr("path", [e for e in group if e.attrs["status"] == 404])),
        "top_5xx_paths": top(attr("path", e5)), "top_5xx_client_ips": top(attr("ip", e5)),
        "last_1h": {"rows": len(recent), "by_status": count(recent, lambda e: e.attrs["status"]),
                    "errors_5xx": sum(e.attrs["status"] >= 500 for e in recent)},
    }


EXTRAS: dict[str, Callable[[list[Event], datetime], dict[str, Any]]] = {
    "cmts": cmts_truth, "modem": modem_truth, "syslog": syslog_truth, "rfc5424": rfc5424_truth, "app": app_truth,
    "nginx": nginx_truth,
}


def ground_truth(events: list[Event], seed: int) -> dict[str, Any]:
    sets: dict[str, Any] = {}
    for name, extra in EXTRAS.items():
        group = [e for e in events if e.set == name]
        summary = base_summary(group)
        sets[name] = summary | extra(group, max(e.ts for e in group if e.timed))
    files = {}
    for path in sorted({e.path for e in events}):
        rows = [e for e in events if e.path == path]
        timed = [e.ts for e in rows if e.timed]
        files[path] = {"set": rows[0].set, "lines": len(rows), "first": iso(min(timed)), "last": iso(max(timed)),
                       "by_severity": count(rows, lambda e: e.severity)}
    semantics = ("windows are [now - span, now] inclusive with now = the newest timestamp in the set; no entry "
                 "sits on a window boundary; untimed rows (1970 modem times) are outside every window")
    return {"generator": {"seed": seed, "year": END.year, "end": iso(END)}, "time_semantics": semantics,
            "files": files, "sets": sets}


# ---------------------------------------------------------------------------------------------- main

def generate(seed: int) -> tuple[list[Event], dict[str, Any]]:
    """All events (in file order) and the ground truth computed from them."""
    rng = random.Random(seed)
    modems = make_modems(rng)
    events = (cmts_events(rng, modems) + modem_events(rng, modems["MAWED07"][0]) + syslog_events(rng)
              + rfc5424_events(rng) + app_events(rng) + nginx_events(rng))
    events = off_boundaries(events)
    return events, ground_truth(events, seed)


def write(events: list[Event], truth: dict[str, Any], out: Path) -> list[Path]:
    by_path: dict[str, list[Event]] = defaultdict(list)
    for e in events:
        by_path[e.path].append(e)
    stamp = END.timestamp()
    written = []
    for rel, rows in sorted(by_path.items()):
        if rows[0].set != "modem":  # a modem log keeps its reboot gap where it happened
            rows = sorted(rows, key=lambda e: e.ts)
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(e.text + "\n" for e in rows), encoding="utf-8")
        written.append(path)
    truth_path = out / "ground_truth.json"
    truth_path.write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for path in [*written, truth_path]:
        os.utime(path, (stamp, stamp))
    return [*written, truth_path]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED, help=f"random seed (default {SEED})")
    parser.add_argument("--out", type=Path, default=Path("sample_logs"), help="output folder (default sample_logs/)")
    args = parser.parse_args(argv)
    events, truth = generate(args.seed)
    for path in write(events, truth, args.out):
        print(path)


if __name__ == "__main__":
    main()
