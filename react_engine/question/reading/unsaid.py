"""Lines that write the question's words after a negation ("no session established for client", "Cannot assign
container"): they tell of the event not happening, so a question that names the event without negating it ("how
many sessions were established") leaves them out; and a negation the question searches for as a word, which the
lines must write before what it negates ("not found"), not anywhere on them."""

from __future__ import annotations

import re

from react_engine.lexicon.event_phrases import NEGATORS
from react_engine.lexicon.stop_words import NEGATIONS
from react_engine.logs.wordforms import stem
from react_engine.question.query import Filter, TextFilter
from react_engine.question.reading.draft import Draft
from react_engine.question.vocabulary import Vocabulary

_NEGATOR = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in NEGATORS)
_NEGATED = re.compile(rf"\b(?:{_NEGATOR}|fail\w*|without|\w+n't)\b", re.I)  # a question that negates itself


def unsaid(question: str, draft: Draft, vocabulary: Vocabulary) -> list[Filter]:
    """The search leaving out the lines that write a word searched for (the question's own words) right after a
    negation, or one word after it, when some but not all of the sampled lines the searches keep do ("not
    responding" is the event of every line that writes "responding"); none when the question negates."""
    guessed = [f.value for f in draft.filters if isinstance(f, TextFilter) and not f.exclude and f.regex
               and f.value in draft.grounding.guesses]
    if not guessed or not vocabulary.sampled or _NEGATED.search(question):
        return []
    pattern = rf"\b(?:{_NEGATOR})\W+(?:\w+\W+)?(?:{'|'.join(guessed)})"
    searches = draft.searches()
    if not 0 < vocabulary.events.meet([*searches, pattern]) < vocabulary.events.meet(searches):
        return []  # no line negates the words, or every line does: the log's event is written with its negation
    return [TextFilter(value=pattern, regex=True, exclude=True, words="not after a negation (\"no\", \"cannot\", ...)")]


def negation_apart(question: str, draft: Draft, vocabulary: Vocabulary) -> list[str]:
    """The negation searched as a word ("not" of "connections that were not closed") when the sampled lines the
    searches keep do not all write it right before the word it negates in the question (they write "Could not
    connect ... Proxy closed the connection"): the answer counts lines that say what the question denies. A negation
    before no word of the question negates nothing there: it is a value the lines write (sshd's method "none")."""
    searches = draft.searches()
    kept = vocabulary.events.meet(searches) if searches else 0
    for word in (g[2:] for g in draft.grounding.guesses if g[2:].lower() in NEGATIONS and g in searches):
        m = re.search(rf"\b{re.escape(word)}\s+([A-Za-z][\w-]*)", question, re.I)
        if m is None:
            continue  # it negates no word of the question ("when failed none?"): a value the lines write
        negated = rf"\b{re.escape(word)}\w*\W+(?:\w+\W+)?{re.escape(stem(m.group(1).lower()))}"
        if vocabulary.events.meet([*searches, negated]) < kept:
            return [word]
    return []
