"""Severity names, their order, and the spellings that map onto them."""

from __future__ import annotations

SEVERITIES: tuple[str, ...] = ("emergency", "alert", "critical", "error", "warning", "notice", "info", "debug")
RANK: dict[str, int] = {name: i for i, name in enumerate(SEVERITIES)}

_SYNONYMS: dict[str, str] = {
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
}
_DOCSIS_WORDS: dict[str, str] = {"critico": "critical", "aviso": "notice"}


def normalize(word: object) -> str | None:
    """Map a written level (`ERR`, `W`, `notc`, `Critical (3)`, ...) to a canonical name, or None."""
    if not isinstance(word, str):
        return None
    key = word.strip().lower()
    if not key:
        return None
    if key in _SYNONYMS:
        return _SYNONYMS[key]
    head = key.split("(")[0].strip().split()[0] if key.split("(")[0].strip() else ""
    return _SYNONYMS.get(head) or _DOCSIS_WORDS.get(head)


def from_syslog(number: int) -> str | None:
    """Syslog / Cisco IOS severity 0-7 (also the low 3 bits of a PRI)."""
    return SEVERITIES[number] if 0 <= number <= 7 else None


def from_pri(pri: int) -> str | None:
    """A syslog `<PRI>` value: facility * 8 + severity."""
    return from_syslog(pri % 8) if 0 <= pri <= 191 else None


def from_bunyan(level: int) -> str | None:
    """bunyan and pino's numeric levels: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal."""
    return {10: "debug", 20: "debug", 30: "info", 40: "warning", 50: "error", 60: "critical"}.get(level)


def from_docsis(level: int) -> str | None:
    """DOCSIS docsDevEvLevel 1-8: the same names as syslog, numbered one higher."""
    return SEVERITIES[level - 1] if 1 <= level <= 8 else None


def at_least(level: str) -> tuple[str, ...]:
    """Canonical names at least as severe as `level` (which must be canonical)."""
    return SEVERITIES[: RANK[level] + 1]
