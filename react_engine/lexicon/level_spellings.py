"""How logs write severity levels (`ERR`, `W`, `notc`, `Critical (3)`): each spelling and the canonical level it
names (as `react_engine.logs.severity` orders them)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

LEVEL_SPELLINGS: Mapping[str, str] = MappingProxyType({
    "emerg": "emergency", "panic": "emergency", "emergency": "emergency",
    "alert": "alert", "alrt": "alert",
    "crit": "critical", "critical": "critical", "fatal": "critical", "severe": "critical", "crt": "critical",
    "f": "critical", "c": "critical",
    "err": "error", "error": "error", "e": "error", "eror": "error", "errr": "error",
    "warn": "warning", "warning": "warning", "w": "warning", "wrn": "warning", "warng": "warning",
    "notice": "notice", "notc": "notice", "note": "notice", "n": "notice",
    "info": "info", "informational": "info", "information": "info", "inf": "info", "i": "info",
    "debug": "debug", "debg": "debug", "dbg": "debug", "d": "debug", "trace": "debug", "verbose": "debug",
    "v": "debug", "fine": "debug", "finer": "debug", "finest": "debug", "config": "debug",
    **{f"debug{i}": "debug" for i in range(1, 10)},
})
"""A level as a log writes it, lower case -> the canonical level."""

DOCSIS_LEVEL_WORDS: Mapping[str, str] = MappingProxyType({"critico": "critical", "aviso": "notice"})
"""Levels some DOCSIS devices write in Spanish, read only as the first word of a longer level (`Critico (3)`)."""

SEVERE_SPELLINGS = ("fatal", "severe", "crit", "critical", "error", "err", "e", "warn", "warning", "w")
"""The common spellings of a level of warning or worse, lower case, which a rephrase hint's example names when the
log writes one ("how many ERROR lines"); rarer spellings (`crt`, `wrn`) and the levels above critical are left
out, as an example should read as a usual question."""
