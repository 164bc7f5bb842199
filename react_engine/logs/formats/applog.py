"""Application logging styles: log4j/logback, Python `logging`, java.util.logging.

All are multi-line: a line that does not start a new entry (a stack trace, a wrapped message) joins the
entry above it.
"""

from __future__ import annotations

import pyarrow.compute as pc

from react_engine.logs.arrow import group
from react_engine.logs.formats.logformat import Columns, Format

TIME = r"(?P<ts>\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)"
LEVEL = r"(?P<level>TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|SEVERE|FATAL|CRITICAL)"
# `2015-10-18 18:01:47,978 INFO [main] org.Foo: msg`, `... INFO  org.Foo - msg`, `... - INFO [t:C@1] - msg`
LOG4J_LEVEL_FIRST = (
    r"^" + TIME + r"\s+(?:-\s+)?" + LEVEL + r"\s+(?:\[(?P<thread>.*?)\]:?\s+)?(?:(?P<component>[\w.$@:/-]+?)"
    r"(?::\d+)?\s*(?::|-)\s)?(?P<message>.*)$"
)
# `2024-01-01 10:00:00,123 [main] INFO  org.Foo - msg` (log4j/logback default layouts)
LOG4J_THREAD_FIRST = (
    r"^" + TIME + r"\s+\[(?P<thread>[^\]]*)\]\s+" + LEVEL + r"\s+(?:(?P<component>[\w.$]+)\s+-\s)?(?P<message>.*)$"
)
# Python logging: `2024-01-01 10:00:00,123 - name - LEVEL - msg`, `... LEVEL name: msg`, `LEVEL:name:msg`
PYTHON_DASHED = r"^" + TIME + r" - (?P<component>\S+) - " + LEVEL + r" - (?P<message>.*)$"
PYTHON_BASIC = r"^" + LEVEL + r":(?P<component>[\w.]+):(?P<message>.*)$"
# java.util.logging SimpleFormatter: `Nov 20, 2026 10:00:01 AM com.example.Foo method` + `SEVERE: msg`
JUL_HEADER = (
    r"^(?P<ts>[A-Z][a-z]{2} \d{1,2}, \d{4},? \d{1,2}:\d{2}:\d{2} (?:[AP]M)) (?P<component>\S+)(?: (?P<method>\S+))?$"
)
_JUL_LEVEL = r"^[^\n]*\n(?P<level>SEVERE|WARNING|INFO|CONFIG|FINE|FINER|FINEST): "


def _jul_finish(columns: Columns) -> None:
    """The level (and message) of a java.util.logging entry sit on its second line."""
    message = columns["message"]
    level = group(message, _JUL_LEVEL, "level")
    columns["level"] = pc.coalesce(columns.get("level", level), level)
    columns["message"] = pc.replace_substring_regex(message, r"^[^\n]*\n(?:[A-Z]+: )?", "", max_replacements=1)


def _application(name: str, description: str, *patterns: str) -> Format:
    """An application logging style: ISO-like times, entries that may span several lines."""
    return Format(
        name=name, description=description, patterns=patterns, shapes=("iso",), multiline=True, detect_share=0.3
    )


LOG4J = _application(
    "log4j",
    "log4j / logback / Hadoop / Spark style `time LEVEL [thread] logger: message`, multi-line",
    LOG4J_LEVEL_FIRST,
    LOG4J_THREAD_FIRST,
)
PYTHON = _application(
    "python",
    "Python logging (`time - name - LEVEL - msg` or `LEVEL:name:msg`), tracebacks joined",
    PYTHON_DASHED,
    PYTHON_BASIC,
)
JAVA = Format(
    name="java",
    description="java.util.logging SimpleFormatter (two-line entries: time class method / LEVEL: msg)",
    patterns=(JUL_HEADER,),
    shapes=("mdy",),
    multiline=True,
    finish=_jul_finish,
    detect_share=0.2,
)
