"""RFC 3164 (BSD) and RFC 5424 syslog, with or without `<PRI>`.

A line whose `<PRI>` gives no severity gets one inferred from its words, as lnav reads syslog (`keyword_rule`):
an error where the message says error, failed or failure, a warning where it says warn; `severity_rule` says so.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import STRING, nil_to_null
from react_engine.logs.formats.logformat import Columns, Format, OnePass

PRI = r"(?:<(?P<pri>\d{1,3})>)?"
BSD_TIME = r"(?:(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)) +\d{1,2} \d{2}:\d{2}:\d{2}(?:\.\d+)?(?: \d{4}\b)?"
ISO_TIME = r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
PROGRAM = r"(?P<component>[^\s\[\]:]+(?:\([^)\s]*\))?)(?:\[(?P<pid>[^\]\s]*)\])?"
# Program names with spaces (`Microsoft Word[14463]:`) are accepted only when a numeric [pid] follows.
SPACED_PROGRAM = r"(?P<component>[^\s\[\]:]+(?: [^\s\[\]:]+)+)\[(?P<pid>\d+)\]"
CONTEXT = r"(?: \((?P<context>[^()\s]+)\))?"  # macOS: `prog[pid] (responsible job or [pid]): msg`

RFC5424 = (
    r"^<(?P<pri>\d{1,3})>\d{1,2} (?P<ts>" + ISO_TIME + r"|-) (?P<host>\S+) (?P<component>\S+) (?P<pid>\S+) "
    r"(?P<msgid>\S+) (?P<sd>-|(?:\[[^\]]*\])+) ?(?P<message>.*)$"
)
RFC3164 = (
    r"^" + PRI + r"(?P<ts>" + BSD_TIME + r"|" + ISO_TIME + r") (?P<host>\S+) " + PROGRAM + CONTEXT
    + r": ?(?P<message>.*)$"
)
# The most common shape, tried first because RE2 captures it several times faster than RFC3164 (it is
# one-pass: see `OnePass`). Its host is never exactly four digits, so that a year after the time still goes to
# the full pattern; the host's alternatives say so one digit at a time, to stay one-pass.
RFC3164_COMMON = OnePass(
    r"^(?P<ts>[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}) "
    r"(?P<host>[^\s\d]\S*|\d(?:[^\s\d]\S*|\d(?:[^\s\d]\S*|\d(?:[^\s\d]\S*|\d\S+)?)?)?) "
    r"(?P<component>[^\s\[\]:(]+)(?:\[(?P<pid>\d+)\])?: (?P<message>.*)$"
)
RFC3164_SPACED = (
    r"^" + PRI + r"(?P<ts>" + BSD_TIME + r"|" + ISO_TIME + r") (?P<host>\S+) " + SPACED_PROGRAM + CONTEXT
    + r": ?(?P<message>.*)$"
)
# Lines without a program tag (`Nov 20 10:00:01 host free text`), as some devices write them.
RFC3164_UNTAGGED = r"^" + PRI + r"(?P<ts>" + BSD_TIME + r"|" + ISO_TIME + r") (?P<host>\S+) (?P<message>.*)$"


# lnav's rule for syslog lines that write no level: the words that say something failed or warns.
ERROR_WORDS = r"(?:^|[^a-zA-Z])(?i:errors?)(?:[^a-zA-Z]|$)|failed|failure"
WARNING_WORDS = r"(?i:warn)|not responding|init: cannot execute"
KEYWORD_RULE = "syslog: no level written; error when the message says error/failed/failure, warning when warn"


def keyword_rule(columns: Columns) -> None:
    """Severities inferred from the message's words where a line writes none (see `INFERRED_GROUP`)."""
    message = columns["message"]
    error = pc.match_substring_regex(message, ERROR_WORDS)
    warning = pc.match_substring_regex(message, WARNING_WORDS)
    none = pa.scalar(None, STRING)
    inferred = pc.if_else(error, pa.scalar("error", STRING), pc.if_else(warning, pa.scalar("warning", STRING), none))
    columns["inferred"] = inferred
    columns["severity_rule"] = pc.if_else(pc.is_valid(inferred), pa.scalar(KEYWORD_RULE, STRING), none)


def _finish(columns: Columns) -> None:
    """RFC 5424 writes `-` for an absent field; severities by `keyword_rule` where nothing was written."""
    for name in ("host", "component", "pid", "msgid", "sd"):
        values = columns.get(name)
        if values is not None:
            columns[name] = nil_to_null(values)
    keyword_rule(columns)


SYSLOG = Format(
    name="syslog",
    description="RFC 3164 / RFC 5424 syslog (`Mmm dd hh:mm:ss host prog[pid]: msg`), optional <PRI>",
    patterns=(RFC3164_COMMON, RFC3164, RFC5424, RFC3164_SPACED, RFC3164_UNTAGGED),
    shapes=("bsd", "iso"),
    finish=_finish,
    yields_to=("timed_level", "vmware", "mysql_error"),
)
