"""PostgreSQL's stderr log with the default prefixes: `%m [%p] ` and Debian's `%m [%p] %q%u@%d `.

`2024-01-15 10:23:45.123 UTC [1234] app@shop ERROR:  relation "x" does not exist`; the DETAIL, HINT, STATEMENT,
CONTEXT and QUERY lines that follow an entry, and indented continuation lines, join it. LOG is info and DEBUG1-5
debug (`level_raw` keeps the word).
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.formats.logformat import Columns, Format

PREFIX = (
    r"^(?P<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?(?: ?[A-Za-z]{2,5}|[+-]\d{2}(?::?\d{2})?)?) "
    r"\[(?P<pid>\d+)\](?:-\d+)? (?:(?P<user>[^@\s\[\]]*)@(?P<database>[^\s\[\]]*) )?"
)
LINE = PREFIX + r"(?P<level>LOG|ERROR|FATAL|PANIC|WARNING|NOTICE|INFO|DEBUG[1-5]?):  ?(?P<message>.*)$"
FOLLOWING = PREFIX + r"(?:DETAIL|HINT|STATEMENT|CONTEXT|QUERY|LOCATION):  ?.*$"
_SYSLOG_LEVEL = {"LOG": "6", "DEBUG": "7", **{f"DEBUG{i}": "7" for i in range(1, 6)}}


def _finish(columns: Columns) -> None:
    """Words PostgreSQL has beyond the usual ones, as syslog numbers (a written level word wins over them)."""
    level = columns["level"]
    keys = pa.array(list(_SYSLOG_LEVEL), pa.large_string())
    found = pc.index_in(pc.cast(level, pa.large_string()), value_set=keys)
    columns["sev"] = pc.take(pa.array(list(_SYSLOG_LEVEL.values()), pa.large_string()), found)
    for name in ("user", "database"):
        values = columns[name]
        columns[name] = pc.if_else(pc.equal(values, ""), pa.scalar(None, values.type), values)


POSTGRES = Format(
    name="postgres",
    description="PostgreSQL stderr log (`%m [%p] ` or `%m [%p] user@db ` prefix): pid, user and database columns; "
    "DETAIL/HINT/STATEMENT lines join their entry",
    patterns=(LINE,),
    detect_only=(FOLLOWING,),
    shapes=("iso",),
    multiline=True,
    detect_share=0.05,  # STATEMENT text and indented lines may fill most of the sample; the prefix is distinctive
    finish=_finish,
    extras=("user", "database"),
)
