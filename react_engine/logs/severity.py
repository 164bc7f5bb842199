"""Severity names, their order, and reading a written level as one (its spellings are the lexicon's)."""

from __future__ import annotations

from react_engine.lexicon.level_spellings import DOCSIS_LEVEL_WORDS, LEVEL_SPELLINGS

SEVERITIES: tuple[str, ...] = ("emergency", "alert", "critical", "error", "warning", "notice", "info", "debug")
RANK: dict[str, int] = {name: i for i, name in enumerate(SEVERITIES)}



def normalize(word: object) -> str | None:
    """Map a written level (`ERR`, `W`, `notc`, `Critical (3)`, ...) to a canonical name, or None."""
    if not isinstance(word, str):
        return None
    key = word.strip().lower()
    if not key:
        return None
    if key in LEVEL_SPELLINGS:
        return LEVEL_SPELLINGS[key]
    head = key.split("(")[0].strip().split()[0] if key.split("(")[0].strip() else ""
    return LEVEL_SPELLINGS.get(head) or DOCSIS_LEVEL_WORDS.get(head)


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
