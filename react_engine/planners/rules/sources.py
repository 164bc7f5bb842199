"""Sources a question names that the log does not have: "how many lines came from nginx?" on a log with no
nginx is an honest 0, counted by a filter on the column such a name would be in."""

from __future__ import annotations

import re

from react_engine.planners.rules.question import Question
from react_engine.planners.rules.vocabulary import lexicon_words
from react_engine.understanding import Vocabulary

_HOST_KINDS = ("host", "node", "server", "machine")
_KIND = r"(host|node|server|machine|program|process|daemon|service|component|app)"
# "came from X", "logged by X", "lines from X", "messages did X log": a source, then the end of the question
SOURCE = (r"\b(?:(?:came|come|comes|coming)\s+from|(?:logged|written|produced|emitted|reported)\s+by|"
          r"(?:lines?|messages?|entries|events?|records?)\s+(?:from|by))\s+(?:the\s+)?(?:" + _KIND + r"\s+)?"
          r"([A-Za-z][\w.-]*\w)(?:\s+" + _KIND + r")?(?=\s*[?.!]*\s*$)")


def absent_source(q: Question, columns: list[str], vocabulary: Vocabulary) -> tuple[str, str] | None:
    """`(column, name)` for a source the question names that no sampled row holds anywhere (not in a name
    column, not in a message, not a word the rules know), in the column such a name would be in: a host for a
    name with a digit or after "host"/"node", else a component. The name's span becomes consumed."""
    found = q.take(SOURCE, accept=lambda m: _absent(m.group(2), vocabulary))
    if not found:
        return None
    m = found[0]
    kind = (m.group(1) or m.group(3) or "").lower()
    hosty = kind in _HOST_KINDS or (not kind and bool(re.search(r"\d", m.group(2))))
    order = ("host", "component") if hosty else ("component", "host")
    column = next((c for c in order if c in columns), None)
    if column is None:
        q.consume(m.start(), m.end(), used=False)
        return None
    return column, m.group(2)


def _absent(name: str, vocabulary: Vocabulary) -> bool:
    key = name.lower()
    if not vocabulary.sampled or key in lexicon_words()[0] or vocabulary.token_rows(key) or vocabulary.holders(name):
        return False
    if any(key in v.lower() for values in vocabulary.values.values() for v in values):
        return False
    return vocabulary.together([re.escape(key)])[0] == 0
