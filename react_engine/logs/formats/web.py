"""Web server logs: Apache/nginx access logs (common and combined, led by `host:port` in Apache's vhost_combined),
Apache and nginx error logs.

Access logs write no level: their `severity` is inferred from the HTTP status (>= 500 error, >= 400 warning), and
`severity_rule` says so on those rows; `status` and `bytes` are integers.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import nil_to_null
from react_engine.logs.formats.logformat import Columns, Format
from react_engine.logs.formats.status import status_rule

ACCESS_LINE = (
    r'^(?:(?P<vhost>[^\s:]+:\d+) )?(?P<client_ip>\S+) (?P<ident>\S+) (?P<user>\S+) \[(?P<ts>[^\]]+)\] '
    r'"(?P<message>(?P<method>[A-Z]+) '
    r'(?P<path>\S+)(?: (?P<protocol>[^"\s]+))?|[^"]*)" (?P<status>\d{3}) (?P<bytes>\d+|-)'
    r'(?: "(?P<referer>[^"]*)" "(?P<user_agent>[^"]*)")?.*$'
)
APACHE_ERROR_LINE = (
    r"^\[(?P<ts>[^\]]+)\] \[(?:(?P<component>[^:\]\s]+):)?(?P<level>[a-z]+[0-9]?)\]"
    r"(?: \[pid (?P<pid>\d+)(?::tid (?P<tid>\d+))?\])?(?: \[client (?P<client_ip>[^\]]+?)(?::\d+)?\])?"
    r" ?(?P<message>.*)$"
)
NGINX_ERROR_LINE = (
    r"^(?P<ts>\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}) \[(?P<level>[a-z]+)\] (?P<pid>\d+)#(?P<tid>\d+): ?(?P<message>.*)$"
)


def _access_finish(columns: Columns) -> None:
    for name in ("status", "bytes"):
        values = columns[name]
        digits = pc.match_substring_regex(values, r"^\d+$")
        columns[name] = pc.cast(pc.if_else(digits, values, pa.scalar(None, values.type)), pa.int64())
    for name in ("ident", "user", "referer"):
        columns[name] = nil_to_null(columns[name])
    status_rule(columns)


ACCESS = Format(
    name="access",
    description="Apache/nginx access log (common or combined); client_ip, method, path, status, bytes columns",
    patterns=(ACCESS_LINE,),
    shapes=("clf", "iso"),
    finish=_access_finish,
    extras=("client_ip", "method", "path", "protocol", "status", "bytes", "referer", "user_agent"),
)
APACHE_ERROR = Format(
    name="apache_error",
    description="Apache httpd error log (`[Www Mmm dd hh:mm:ss yyyy] [level] message`, 2.2 and 2.4 styles)",
    patterns=(APACHE_ERROR_LINE,),
    shapes=("bsd", "iso"),
)
NGINX_ERROR = Format(
    name="nginx_error",
    description="nginx error log (`yyyy/mm/dd hh:mm:ss [level] pid#tid: message`)",
    patterns=(NGINX_ERROR_LINE,),
    shapes=("iso",),
)
