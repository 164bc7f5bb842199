"""Reading a question as one of the log's own events: which words an event may explain, and whether the
question's own searches would find nothing."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from react_engine.logs.severity import normalize
from react_engine.understanding import Vocabulary
from react_engine.understanding.events import alike
from react_engine.understanding.reading.question import Question
from react_engine.understanding.words import split_words, stem

_FAILURE = re.compile(r"(?<![a-z])(?:fail[a-z]*|errors?|cannot|can't|could not|unable|denied|refused|invalid|"
                      r"exceptions?|abort[a-z]*|time[ds]? ?out)(?![a-z])", re.I)

if TYPE_CHECKING:
    from react_engine.planners.rules.plan import Call, Plan


def said_words(q: Question, lead_in: int, vocabulary: Vocabulary) -> list[str]:
    """The content words no quote, name or time explained, past the lead-in and other than the log's name."""
    words = [m.group(0).strip("'.:-") for m in q.leftover() if m.start() >= lead_in]
    return [w for w in words if w and not w.isdigit() and not vocabulary.names_log(w)]


def searched(call: Call) -> str:
    """The regex a `search_logs` call looks for."""
    value = str(call.params["value"])
    return value if call.params.get("regex") else re.escape(value)


def levels(calls: list[Call]) -> frozenset[str] | None:
    """The severities a plain `filter_by_severity` call keeps (None without one, or when it is not plain)."""
    for call in calls:
        if call.action == "filter_by_severity":
            named = [normalize(str(v)) for v in call.params.get("levels", [])]
            if "min_level" in call.params or not named or None in named:
                return None
            return frozenset(v for v in named if v)
    return None


def level_names_lines(calls: list[Call], vocabulary: Vocabulary) -> bool:
    """Whether a severity word after quoted text or a name names those lines rather than their level: the text
    tells of a failure ("'Failed to open package' errors", "CBS_E_INVALID_PACKAGE errors"), sampled lines hold
    it, and none of them is at that level."""
    texts = [c for c in calls if c.action == "search_logs" and not c.params.get("regex")]
    kept, searches, events = levels(calls), [searched(c) for c in texts], vocabulary.events
    return bool(kept and searches and any(_FAILURE.search(str(c.params["value"])) for c in texts)
                and events.meet(searches)) and events.meet(searches, kept) == 0


def unmet(plan: Plan, vocabulary: Vocabulary) -> bool:
    """Whether no sampled line matches all of the plan's searches (at its severities): its words never meet."""
    searches = [searched(c) for c in plan.calls if c.action == "search_logs"]
    events = vocabulary.events
    return bool(searches and events.sample) and events.meet(searches, levels(plan.calls)) == 0


def quote_covers(word: str, quoted: list[str], vocabulary: Vocabulary) -> bool | None:
    """Whether quoted text makes `word` no extra search: True when a quoted word is a form of it ("generated" and
    'generating core'), False when it never meets the quoted text on a sampled line (it only describes those
    lines), None when it may narrow them."""
    stems = [stem(w) for phrase in quoted for w in split_words(phrase)]
    if any(alike(stem(part), s) for part in split_words(word) for s in stems):
        return True
    lines = vocabulary.events.meet([re.escape(phrase) for phrase in quoted])
    if lines and not vocabulary.events.meet([re.escape(phrase) for phrase in quoted] + [r"\b" + re.escape(word)]):
        return False
    return None
