"""The HTTP status rule: a severity inferred from a response's status where the log writes no level."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import STRING
from react_engine.logs.formats.logformat import RULE_COLUMN, Columns

STATUS_RULE = "HTTP status: >= 500 error, >= 400 warning"


def status_rule(columns: Columns, name: str = "status") -> None:
    """HTTP status >= 500 is an error, >= 400 a warning: the rule an access log's severity is inferred by."""
    written = columns[name]
    digits = pc.match_substring_regex(pc.cast(written, STRING), r"^\d{3}$")
    status = pc.cast(pc.if_else(digits, pc.cast(written, STRING), pa.scalar(None, STRING)), pa.int64())
    inferred = pc.if_else(pc.greater_equal(status, 500), pa.scalar("error", STRING),
                          pc.if_else(pc.greater_equal(status, 400), pa.scalar("warning", STRING),
                                     pa.scalar(None, STRING)))
    columns["inferred"] = inferred
    columns[RULE_COLUMN] = pc.if_else(pc.is_valid(inferred), pa.scalar(STATUS_RULE, STRING),
                                      pa.scalar(None, STRING))
