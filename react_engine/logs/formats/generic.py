"""The fallback: every line is a row, the message is the line, and a time or level word is found anywhere."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from react_engine.logs.arrow import group
from react_engine.logs.formats.logformat import Columns, Format
from react_engine.logs.timestamps import DEFAULT_SHAPES

LEVEL_WORD = (
    r"(?:EMERG(?:ENCY)?|ALERT|CRIT(?:ICAL)?|FATAL|SEVERE|ERR(?:OR)?|WARN(?:ING)?|NOTICE|INFO|DEBUG|TRACE"
    r"|[Ee]rror|[Ww]arn(?:ing)?|[Ii]nfo|[Dd]ebug|[Ff]atal|[Cc]ritical|[Nn]otice)"
)
LEVEL_ANYWHERE = r"(?:^|[\s\[\](<|:])(?P<level>" + LEVEL_WORD + r")(?:$|[\s\])>|:,])"


def level_anywhere(columns: Columns) -> None:
    """A level word found anywhere in the message, where the format has no place for one."""
    columns["level"] = group(columns["message"], LEVEL_ANYWHERE, "level")


def _read(lines: pa.Array) -> tuple[Columns, pa.Array]:
    columns = {"ts": lines, "level": group(lines, LEVEL_ANYWHERE, "level"), "message": lines}
    return columns, pa.array(np.ones(len(lines), dtype=bool))


GENERIC = Format(
    name="generic",
    description="any text: one row per line; a time and a level word are taken from anywhere in the line",
    reader=_read,
    detect_share=0.0,
    search_time=True,
    shapes=(*DEFAULT_SHAPES, "compact_dot", "yday"),
)
