"""Investigation questions: reading "summarize", "what is unusual", "what happened to X" ("what did X do"), "why did
X fail" into a measure. A question of what went wrong asks about the problems only."""

from __future__ import annotations

from react_engine.question.measures import Patterns, Preceding, Timeline, Unusual
from react_engine.question.reading.question import Question

_KINDS = "user|host|ip|mac|pid|request|session|block|job|task"
_ENTITY = (rf"(?:(?:{_KINDS})\s+([\w.:@/$-]+)"  # a named kind of thing
           r"|(?:\w+\s+)?([\w.:@/$-]*\d[\w.:@/$-]*|[\w.-]+@[\w.-]+|[\w-]+(?:\.[\w-]+){2,}"  # an id, address
           r"|[A-Za-z]\w*_[\w.-]*\w|[A-Z][A-Z0-9]{3,}\b))")  # a name written with an underscore or in capitals

Investigation = Patterns | Unusual | Timeline | Preceding

WRONG = "went wrong"
"""Asks about the problems only: the lines at warning or above."""


def read_investigation(q: Question) -> Investigation | None:
    """The investigation measure `q` asks for, its asking words consumed; None for other questions. A
    question of what went wrong asks for the patterns of the problems (see `WRONG`)."""
    if m := q.take(rf"\b(?:what (?:happened|went on|occurred) (?:to|with)|(?:timeline|history|story) (?:of|for)"
                   rf"|what (?:did|does|has)(?=\s+(?:(?:{_KINDS})\s+)?\S*\d\S*\s+(?:do|done)\W*$))"
                   rf"\s+(?:the\s+)?{_ENTITY}"):
        return Timeline(value=m[0].group(1) or m[0].group(2))
    if q.take(r"\bwhat (?:happened|came|was logged) (?:just |right |immediately |directly )?(?:before|prior to)\b"
              r"|\bwhat led (?:up )?to\b|^\s*why did\b(?=.*\d)|\bwhat (?:was|is|were) the (?:root )?(?:cause|reason)s?"
              r" (?:of|for)\b|\bwhat preceded\b"):
        return Preceding(lines=5)
    if q.take(r"\b(?:unusual|weird|strange|odd|anomal\w*|abnormal|suspicious|out of the ordinary)\b"
              r"|\banything (?:new|different)\b|\bwhat(?:'s| is) new\b"):
        return Unusual()
    if q.take(r"\bsummar(?:y|ize|ise)\b|\boverview\b|\bwhat (?:kinds?|types?|sorts?) of\b|\bwhat went wrong\b"
              r"|^\s*why (?:were|was|are|is) there\b|\b(?:message|log) (?:patterns|templates|kinds|types)\b"
              r"|\bgroup(?:ed)? by message\b"):
        return Patterns()
    return None
