"""Questions that ask to write rows to a file: "export errors to errors.csv", "save the lines mentioning timeout to
t.jsonl as jsonl", "write all lines to a.csv and b.jsonl". What is written is read as a question of its own (the
rows); each file becomes one `export_results` call, which needs the user's approval before it runs."""

from __future__ import annotations

import re
from dataclasses import dataclass

FORMATS = ("csv", "jsonl")
_VERB = r"^\s*(?:please\s+)?(?:export|save|write|dump)\b"
_FILE = r"[\w./-]*\w\.[A-Za-z]\w*"  # a file name with an extension: "write errors to disk" names no file
# the verb, the rows (maybe none), "to"/"into"/"as" and one or more files, an optional format, the end
EXPORT = re.compile(_VERB + r"(?P<rows>.*?)\s*\b(?:to|into)\s+(?:(?:the\s+)?file\s+)?"
                    r"(?P<files>(?:" + _FILE + r")(?:\s*(?:,|\band\b)\s*(?:" + _FILE + r"))*)"
                    r"(?:\s+(?:as|in)\s+(?P<format>csv|jsonl|json\s*lines|json)(?:\s+format)?)?\s*[.!?]*\s*$",
                    re.IGNORECASE)
_SEPARATOR = re.compile(r"\s*(?:,|\band\b)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Export:
    """What to write (`rows`: a question's words for them, "" for every line) and the files, each `(path,
    format)`."""

    rows: str
    files: tuple[tuple[str, str], ...]


def read_export(question: str) -> Export | None:
    """The export `question` asks for, or None when it asks for no file to be written."""
    m = EXPORT.match(question)
    if m is None:
        return None
    asked = _format(m.group("format"))
    names = [n for n in _SEPARATOR.split(m.group("files")) if n]
    files = tuple((name, asked or _format_of(name)) for name in names)
    rows = re.sub(r"^\s*(?:the\s+)?(?:results?|rows|them|it|these|those)\s*$", "", m.group("rows"), flags=re.I)
    return Export(rows=rows.strip(), files=files)


def _format(written: str | None) -> str | None:
    if written is None:
        return None
    return "csv" if written.lower() == "csv" else "jsonl"


def _format_of(name: str) -> str:
    """jsonl for a .jsonl/.json/.ndjson file, else csv."""
    return "jsonl" if name.lower().rsplit(".", 1)[-1] in ("jsonl", "json", "ndjson") else "csv"
