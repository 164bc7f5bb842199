"""Which of several addresses or ports on a line a question means: the source, the destination or the client, as
the lines mark them (`SRC=`, `DPT=`, `from`, `to`, `client /...`), checked on the sampled lines the question's
searches keep; and which of the users a line names: who ran a command or whom it ran as, which the tools tell apart
on the rows."""

from __future__ import annotations

import re

from react_engine.lexicon.entity_words import ROLE_MARKS, ROLE_WORDS, USER_ROLE_VERBS, USER_ROLE_WORDS
from react_engine.lexicon.rank_words import COUNTING
from react_engine.question import Vocabulary
from react_engine.question.reading.question import Question
from react_engine.question.vocabulary import stem

# how a question names a role: before the address or port ("source addresses", "destination port", "client
# IPs"), as the thing itself ("sources", "clients") or by what it did ("which IP address sent ...")
_ROLE = re.compile(r"\b(source|src|destination|dest|dst|client)s?\s+(?:ip(?:v4)?s?|ip\s+address(?:es)?|address(?:es)?"
                   r"|ports?|hosts?)\b|\b(sources|destinations|clients?)\b|\b(?:ips?|address(?:es)?|hosts?)\s+"
                   r"(?:that\s+|which\s+)?(sent|made|opened|initiated)\b", re.I)
# "which IP served the most blocks": the address written before what it did
_DEED = re.compile(r"\b(?:which|what)\s+(?:ip(?:v[46])?s?|ip\s+address(?:es)?|address(?:es)?|hosts?|nodes?|servers?)\s+"
                   r"(?:that\s+|which\s+)?([a-z]{3,}ed)\b", re.I)
# "which server did ntpd synchronize to (most often)?": a preposition left at the end, after its verb; the value asked
# is the one the lines write after them
_STRANDED = re.compile(r"^\s*(?:which|what)\b.*\b([a-z]{2,})\s+(to|through|via|from|into|onto|with|at|on|for|by)"
                       r"(?:\s+(?:the\s+)?(?:most|more)(?:\s+(?:often|frequently|of\s+the\s+time))?)?\s*[?.!]*\s*$",
                       re.I)
# "which user wrote the most lines": the values ranked are asked as the writers of the lines
_WRITER = re.compile(r"^\s*(?:which|what|who)\b[^?]*?\b(wrote|writes?|logged|logs|emitted|emits|printed|prints|produced"
                     r"|produces|generated|generates)\s+(?:the\s+)?(?:" + "|".join((*COUNTING, "more", "fewer"))
                     + r")\s+(?:log\s+)?"
                     r"(?:lines?|messages?|entries|records?)\b", re.I)
# a value as lines write it after a verb and a preposition, maybe after a noun naming it ("through proxy p.net:80"):
# a name holding a digit or a dot, up to a space, a comma or a bracket
_WRITTEN_VALUE = r"(?:[A-Za-z]+[ \t]+)?([^\s,;()\[\]]*[\d.][^\s,;()\[\]]*\w)"
VALUES = {"ip": r"(\d{1,3}(?:\.\d{1,3}){3})", "port": r"(\d{1,5})\b"}
_COVERS = 0.5  # a mark must be on at least this share of the kept lines
_HEADERS = ("thread", "component")  # names written on a line besides its message


def role(q: Question) -> str | None:
    """The role the question gives the addresses or ports it counts or ranks, if any."""
    m = _ROLE.search(q.text)
    return ROLE_WORDS[next(g for g in m.groups() if g).lower()] if m else None


def user_role(q: Question) -> str | None:
    """The role the question gives the users it counts or ranks (who ran a command, or whom it ran as or was for),
    if any; the words saying it are read."""
    for name, pattern in USER_ROLE_WORDS:
        if (m := re.search(pattern, q.text, re.I)) is not None:
            for verb in re.finditer(USER_ROLE_VERBS, m.group(0), re.I):
                q.consume(m.start() + verb.start(), m.start() + verb.end())
            return name
    return None


def deed(q: Question) -> str | None:
    """The verb the question says the addresses it ranks did ("which IP served the most blocks"), if any."""
    m = _DEED.search(q.text)
    return m.group(1).lower() if m else None


def stranded(q: Question) -> tuple[str, str] | None:
    """The verb and the preposition a "which ... V P?" question leaves at its end ("synchronize", "to"), if any."""
    m = _STRANDED.search(q.text)
    return (m.group(1).lower(), m.group(2).lower()) if m else None


def writer(q: Question) -> str | None:
    """The verb a question asks the values it ranks as the writers of the lines with ("wrote"), if any."""
    m = _WRITER.search(q.text)
    return m.group(1).lower() if m else None


def done_to(verb: str, preposition: str, searches: list[str], vocabulary: Vocabulary) -> str | None:
    """An extraction pattern for the value the sampled lines matching `searches` write right after `verb` (in any
    form) and `preposition` ("synchronized to 10.100.20.250", "open through proxy p.net:80"), on most of them, or
    None."""
    kept = vocabulary.together(searches)[0] if searches else vocabulary.sampled
    pattern = rf"\b{re.escape(stem(verb))}\w*[ \t]+{re.escape(preposition)}[ \t]+{_WRITTEN_VALUE}"
    return "(?i)" + pattern if kept and vocabulary.together([*searches, pattern])[0] >= _COVERS * kept else None


def done_by(verb: str, searches: list[str], vocabulary: Vocabulary) -> str | None:
    """An extraction pattern for the address the sampled lines matching `searches` write right before `verb`
    ("10.251.39.192:50010 Served block"), on most of them, or None."""
    kept = vocabulary.together(searches)[0] if searches else vocabulary.sampled
    pattern = rf"{VALUES['ip']}(?::\d{{1,5}})?:?[ \t]+{re.escape(verb)}\b"
    return "(?i)" + pattern if kept and vocabulary.together([*searches, pattern])[0] >= _COVERS * kept else None


def marked(kind: str, name: str, searches: list[str], vocabulary: Vocabulary) -> str | None:
    """An extraction pattern for the `kind` values (ip, port) marked as `name` (source, destination, client) on
    most sampled lines that match `searches`, or None when no mark is."""
    kept = vocabulary.together(searches)[0] if searches else vocabulary.sampled
    for mark in ROLE_MARKS[(name, kind)]:
        pattern = _marked_value(mark, kind)
        if kept and vocabulary.together([*searches, pattern])[0] >= _COVERS * kept:
            return "(?i)" + pattern
    return None


def marks_written(kind: str, name: str, vocabulary: Vocabulary) -> bool:
    """Whether some sampled line writes a `kind` value marked as `name` (`DPT=23` for a destination port)."""
    return any(vocabulary.together([_marked_value(mark, kind)])[0] for mark in ROLE_MARKS.get((name, kind), ()))


def _marked_value(mark: str, kind: str) -> str:
    """The pattern of a `kind` value written after `mark` (its group is the value)."""
    written = r"\s+".join(re.escape(w) for w in mark.split())
    return rf"\b{written}(?:[ \t]*[=:][ \t]*|[ \t]+)/?{VALUES[kind]}"


def several_ips(searches: list[str], vocabulary: Vocabulary, anywhere: bool) -> bool:
    """Whether the thread or component names of the lines hold IP addresses of their own (a listener's
    `0.0.0.0:2181`, which an extraction over the whole line finds too), or, when `anywhere`, a sampled message
    that matches `searches` holds two."""
    value = re.compile(VALUES["ip"])
    if any(value.search(name) for column in _HEADERS for name in vocabulary.values.get(column, {})):
        return True
    kept = [re.compile(s, re.I) for s in searches]
    return anywhere and any(len(set(value.findall(line))) > 1 for line in vocabulary.sample
                            if all(k.search(line) for k in kept))
