"""All known formats, most specific first (the order breaks ties in auto-detection)."""

from __future__ import annotations

from react_engine.logs.formats.base import Format
from react_engine.logs.formats.generic import GENERIC
from react_engine.logs.formats.jsonl import JSONL
from react_engine.logs.formats.syslog import SYSLOG

REGISTRY: tuple[Format, ...] = (JSONL, SYSLOG, GENERIC)
BY_NAME: dict[str, Format] = {fmt.name: fmt for fmt in REGISTRY}

__all__ = ["BY_NAME", "REGISTRY", "Format"]
