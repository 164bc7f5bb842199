"""Sources a question names that the log does not have as written: a misspelt name ("Step_ExtSMD") is read as
the one value it is close to, and a name found nowhere ("how many lines came from nginx?" on a log with no nginx)
is an honest 0, counted by a filter on the column such a name would be in."""

from __future__ import annotations

import re

from react_engine.lexicon.entity_words import HOST_KINDS, SOURCE_KINDS
from react_engine.lexicon.known_words import lexicon_words
from react_engine.question import Correction, Vocabulary
from react_engine.question.reading.question import Question
from react_engine.question.spelling import CUTOFF, similar

_KIND = "(" + "|".join(SOURCE_KINDS) + ")"
# "came from X", "logged by X", "lines from X", "messages did X log": a source, then the end of the question
SOURCE = (r"\b(?:(?:came|come|comes|coming)\s+from|(?:logged|written|produced|emitted|reported)\s+by|"
          r"(?:lines?|messages?|entries|events?|records?)\s+(?:from|by))\s+(?:the\s+)?(?:" + _KIND + r"\s+)?"
          r"([A-Za-z][\w.-]*\w)(?:\s+" + _KIND + r")?(?=\s*[?.!]*\s*$)")


def named_source(q: Question, columns: list[str], vocabulary: Vocabulary
                 ) -> tuple[str, str, Correction | None] | None:
    """`(column, value, correction)` for a source the question names that no sampled row holds as written (not
    in a name column, not in a message, not a word the rules know): the host or component value it is a typo of,
    else the name itself in the column such a name would be in (a host for a name with a digit or after
    "host"/"node", else a component). The name's span becomes consumed."""
    found = q.take(SOURCE, accept=lambda m: _absent(m.group(2), vocabulary))
    if not found:
        return None
    m = found[0]
    if (close := _misspelt(m.group(2), vocabulary)) is not None:
        column, value = close
        return column, value, Correction(written=m.group(2), read_as=value)
    held = next((c for c in _columns_for(m) if c in columns), None)
    if held is None:
        q.consume(m.start(), m.end(), used=False)
        return None
    return held, m.group(2), None


def _columns_for(m: re.Match[str]) -> tuple[str, str]:
    """The columns a source's name would be in, likeliest first: a host for a name with a digit or after
    "host"/"node", else a component."""
    kind = (m.group(1) or m.group(3) or "").lower()
    hosty = kind in HOST_KINDS or (not kind and bool(re.search(r"\d", m.group(2))))
    return ("host", "component") if hosty else ("component", "host")


def _misspelt(name: str, vocabulary: Vocabulary) -> tuple[str, str] | None:
    """`(column, value)` of the one host or component value `name` is a typo of (the same digits, one edit per
    five letters at most)."""
    digits = re.sub(r"\D", "", name)
    pool = {(c, v): v.lower() for c in ("component", "host") for v in vocabulary.values.get(c, {})
            if re.sub(r"\D", "", v) == digits}
    found = similar(name.lower(), pool, CUTOFF, limit=2)
    if len(found) == 1 or (len(found) == 2 and found[0][1] > found[1][1]):
        return found[0][2]
    return None


def _absent(name: str, vocabulary: Vocabulary) -> bool:
    """Whether no sampled row holds `name` as written (or it is a typo of one host or component value)."""
    key = name.lower()
    if not vocabulary.sampled or key in lexicon_words()[0] or vocabulary.token_rows(key) or vocabulary.holders(name):
        return False
    if _misspelt(name, vocabulary) is not None:
        return True
    if any(key in v.lower() for values in vocabulary.values.values() for v in values):
        return False
    return vocabulary.together([re.escape(key)])[0] == 0
