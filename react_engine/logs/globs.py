"""Glob patterns as compiled regexes over `/`-separated relative paths (`*`, `?`, `[...]`, `**`).

`*` and `?` never cross a `/` and, as in the shell, do not match a leading `.`; `**` as a whole segment
matches any number of folders (none included).
"""

from __future__ import annotations

import fnmatch
import functools
import re

MAGIC = frozenset("*?[")


def has_magic(text: str) -> bool:
    """True when `text` holds a glob wildcard."""
    return any(ch in MAGIC for ch in text)


def _segment(segment: str) -> str:
    out = [] if segment.startswith(".") or not segment else [r"(?!\.)"]
    i = 0
    while i < len(segment):
        ch = segment[i]
        i += 1
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[" and (end := segment.find("]", i + 1 if segment[i : i + 1] in ("!", "]") else i)) != -1:
            out.append(fnmatch.translate(segment[i - 1 : end + 1])[len("(?s:") : -len(r")\Z")])  # fnmatch's rules
            i = end + 1
        else:
            out.append(re.escape(ch))
    return "".join(out)


@functools.lru_cache(maxsize=256)
def compile_glob(pattern: str) -> re.Pattern[str]:
    """A regex matching the relative paths that `pattern` matches."""
    segments = pattern.strip("/").split("/")
    parts = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            parts.append(r"(?:(?!\.)[^/]+(?:/|$))*" if last else r"(?:(?!\.)[^/]+/)*")
        else:
            parts.append(_segment(segment) + ("" if last else "/"))
    return re.compile("".join(parts))


def matches(pattern: str, relative: str) -> bool:
    """Whether a `--glob`/`--exclude` pattern matches a file: the file name alone when the pattern has
    no `/` (as rg and .gitignore do), else the path relative to the folder searched."""
    if "/" not in pattern.strip("/"):
        return compile_glob(pattern).fullmatch(relative.rsplit("/", 1)[-1]) is not None
    return compile_glob(pattern).fullmatch(relative) is not None


def depth(pattern: str) -> int | None:
    """How many folder levels a pattern can reach below its base (None: any, it has `**`)."""
    segments = pattern.strip("/").split("/")
    return None if "**" in segments else len(segments)
