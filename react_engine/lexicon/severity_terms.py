"""Severity words as questions say them ("errors", "warnings or worse", "at least critical")."""

from __future__ import annotations

SEVERITY_WORDS = (
    (r"\bemergenc(?:y|ies)\b|\bemerg\b|\bpanics?\b", "emergency"),
    (r"\bcritical(?:s)?\b|\bcrit\b", "critical"),
    (r"\bfatal(?:s)?\b", "FATAL"),
    (r"\bsevere\b", "SEVERE"),
    (r"\berrors?\b|\berr\b", "error"),
    (r"\bwarnings?\b|\bwarns?\b", "warning"),
    (r"\bnotices?\b", "notice"),
    (r"\binfo(?:rmational)?\b", "info"),
    (r"\bdebug\b", "debug"),
    (r"\bverbose\b", "verbose"),  # as the log writes it ("V" on Android), else debug
)
"""(how a question writes a severity, as a regex; the level it names), most severe first."""

STEMS = {"emergency": "emerg", "critical": "crit", "warning": "warn"}
"""A level -> the stem a search for it in logs without severities uses ("warn" finds "WARN" and "warning")."""

LEVEL_WORDS = "(?:" + "|".join(pattern for pattern, _ in SEVERITY_WORDS) + ")"
"""Any severity word (a regex)."""

AT_LEAST = (r"\b(?:at least|min(?:imum)?(?: level)?)\s+(?:{w})|(?:{w})\s+(?:or|and)\s+(?:worse|above|higher|"
            r"more severe|up)\b")
"""A minimum level ("at least warning", "errors or worse"), `{w}` the level's words."""
