"""A question put in the order the readers read it: a condition or a value written before the question proper moves
after it ("When failed password, which user has the most?" -> "which user has the most when failed password?"),
"give me the" asks as "what is the" does, "where port is 22" as "with port 22", "which port did X have" as "what is
the port of X", and a bare "the first X when ..." is asked with "what is"."""

from __future__ import annotations

import re

from react_engine.lexicon.question_order import (
    CONDITION_LEADS,
    EQUALS_VERBS,
    FIELD_CONDITIONS,
    HAVING_VERBS,
    LOGGING_PARTICIPLES,
    POINTING_WORDS,
    QUESTION_STARTS,
    VALUE_LEADS,
    VALUE_REQUESTS,
)
from react_engine.lexicon.rank_words import IN_TIME_ORDER


def _words(words: tuple[str, ...]) -> str:
    return r"(?:" + "|".join(w.replace(" ", r"\s+") for w in words) + r")\b"


_PROPER = r"(?P<asked>" + _words(QUESTION_STARTS) + r"[^?]*?)(?P<mark>\?*)\s*$"  # the question proper, after a comma
_CONDITION_FIRST = re.compile(r"^\s*(?P<put>" + _words(CONDITION_LEADS) + r"[^,?]+?),\s*" + _PROPER, re.I)
# a value (one token, or a field's name and its value) and the clause of its lines, never words pointing at the logs
_VALUE_FIRST = re.compile(r"^\s*(?P<put>" + _words(VALUE_LEADS) + r"\s+(?!" + _words(POINTING_WORDS)
                          + r")(?:[A-Za-z][\w-]*\s+)?[^\s,?]+(?:\s+that\s+[^,?]+)?),\s*" + _PROPER, re.I)
_REQUEST = re.compile(r"^(\s*)" + _words(VALUE_REQUESTS) + r"(?=\s+the\s)", re.I)
_ORDERED = r"\bthe\s+" + IN_TIME_ORDER + r"\s+[A-Za-z][\w-]*"  # "the first port", "the most recent user"
_PARTICIPLE = re.compile(r"(" + _ORDERED + r")\s+" + _words(LOGGING_PARTICIPLES) + r"(?=\s+" + _words(CONDITION_LEADS)
                         + r")", re.I)
# "where port is 22": a field and its value, as "with port 22" writes them (never "where the ...": no field's name)
_FIELD_IS = re.compile(r"\b" + _words(FIELD_CONDITIONS) + r"\s+(?!" + _words(POINTING_WORDS) + r")([A-Za-z][\w-]*)\s+"
                       + _words(EQUALS_VERBS) + r"\s+(?=[^\s?])", re.I)
# "which port did 10.0.0.1 have when ...": the value of a field on the lines of a value, "what is the port of ..."
_WHICH_HAD = re.compile(r"^(\s*)(?:which|what)\s+([A-Za-z][\w-]*)\s+did\s+([^\s?]+)\s+" + _words(HAVING_VERBS)
                        + r"(?=\s+" + _words(("that", *CONDITION_LEADS)) + r")", re.I)
_BARE = re.compile(r"^(\s*)(?=" + _ORDERED.removeprefix(r"\b") + r"\s+" + _words(CONDITION_LEADS) + r")", re.I)


def in_order(question: str) -> str:
    """`question` with a leading condition or value moved after the question proper, "give me the" as "what is
    the", "where X is V" as "with X V", "which X did V have" as "what is the X of V", a participle of logging after
    a field in time order dropped, and a bare "the first X when" asked with "what is"; any other question as it
    is."""
    for pattern in (_CONDITION_FIRST, _VALUE_FIRST):
        if (m := pattern.match(question)) is not None:
            question = f"{m['asked'].rstrip()} {m['put'][0].lower()}{m['put'][1:]}{m['mark']}"
    question = _PARTICIPLE.sub(r"\1", _REQUEST.sub(r"\1what is", question, count=1))
    question = _WHICH_HAD.sub(r"\1what is the \2 of \3", _FIELD_IS.sub(r"with \1 ", question), count=1)
    return _BARE.sub(r"\1what is ", question, count=1)
