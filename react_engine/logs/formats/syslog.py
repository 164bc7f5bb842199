"""RFC 3164 (BSD) and RFC 5424 syslog, with or without `<PRI>`."""

from __future__ import annotations

from react_engine.logs.arrow import nil_to_null
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
# A host name holds no `]` (`25376]INFO:module:msg` after a time is no syslog line).
RFC3164_UNTAGGED = r"^" + PRI + r"(?P<ts>" + BSD_TIME + r"|" + ISO_TIME + r") (?P<host>[^\s\]]+) (?P<message>.*)$"


def _nil_to_null(columns: Columns) -> None:
    """RFC 5424 writes `-` for an absent field."""
    for name in ("host", "component", "pid", "msgid", "sd"):
        values = columns.get(name)
        if values is not None:
            columns[name] = nil_to_null(values)


SYSLOG = Format(
    name="syslog",
    description="RFC 3164 / RFC 5424 syslog (`Mmm dd hh:mm:ss host prog[pid]: msg`), optional <PRI>",
    patterns=(RFC3164_COMMON, RFC3164, RFC5424, RFC3164_SPACED, RFC3164_UNTAGGED),
    shapes=("bsd", "iso"),
    finish=_nil_to_null,
    yields_to=("timed_level", "vmware", "mysql_error"),
)
