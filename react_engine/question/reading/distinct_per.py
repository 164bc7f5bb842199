"""Distinct values of one field per value of another (Splunk's `stats dc(port) by user`): "how many distinct ports
per user", "which user has the most distinct ports", "how many different IPs did each user use", "top 5 users by
number of distinct IPs", "how many users per host". Each side is an entity word ("ports", "IP addresses"), a column ("host", "component") or a
word the messages write before values ("size", "src"); a side linked to none of them is refused by name."""

from __future__ import annotations

import re

from react_engine.lexicon.entity_words import COUNTABLE, ROLE_WORDS, TARGETS
from react_engine.lexicon.number_words import AMOUNT
from react_engine.lexicon.rank_words import COUNTING, DISTINCT_WORDS, EACH_VERBS, FEWEST, HOLDING_VERBS
from react_engine.lexicon.stop_words import PHRASE_ENDS
from react_engine.lexicon.time_units import TIME_KEYS
from react_engine.question.asking import singular
from react_engine.question.reading.draft import DistinctPer, Draft, Side
from react_engine.question.reading.nouns import field_subject, writes_kind
from react_engine.question.reading.question import Question, amount
from react_engine.question.reading.roles import VALUES, marks_written
from react_engine.question.reading.shape import GROUP_BY, SEVERAL
from react_engine.question.vocabulary import Vocabulary

_DISTINCT = r"(?:" + "|".join(DISTINCT_WORDS) + r")"
_PHRASE = r"[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}"
_EACH = r"(?:" + GROUP_BY + r"|\b(?:" + "|".join(EACH_VERBS) + r")\s+each|\bacross)\s+(?:the\s+|each\s+|every\s+)?"
# the counted values before the values they are counted for: "distinct ports per user", "different IPs did each user"
_X_PER_Y = re.compile(r"\b" + _DISTINCT + r"\s+(?P<x>" + _PHRASE + r"?)\s+" + _EACH + r"(?P<y>" + _PHRASE + ")", re.I)
# "how many users per host": the kinds "how many" counts distinctly (COUNTABLE), per value of another
_HOW_MANY_PER = re.compile(r"\b(?:how\s+many|number\s+of)\s+(?P<x>" + _PHRASE + r"?)\s+" + _EACH + r"(?P<y>" + _PHRASE
                           + ")", re.I)
_MOST = r"(?P<most>" + "|".join(COUNTING) + r")"
# the values ranked before the values counted: "which user has the most distinct ports", "top 5 users by number of
# distinct IPs", "the 3 IPs with the fewest different users"
_Y_BY_X = re.compile(
    r"^\W*(?:(?:show|list|give)\s+(?:me\s+)?)?(?:(?P<which>which|what)(?:\s+(?P<several>" + SEVERAL + r"))?|(?:the\s+)?top"
    r"(?:[\s-]*(?P<top>" + AMOUNT + r"))?|the\s+(?P<the>" + SEVERAL + r"))\s+(?P<y>" + _PHRASE + r"?)\s+(?:(?:"
    + "|".join(HOLDING_VERBS) + r")\s+)?(?:the\s+)?(?:" + _MOST + r"\s+(?:number\s+of\s+)?|by\s+(?:the\s+)?"
    r"(?:number\s+of\s+)?)" + _DISTINCT + r"\s+(?P<x>" + _PHRASE + ")", re.I)


def read_distinct_per(q: Question, draft: Draft, columns: list[str], vocabulary: Vocabulary) -> None:
    """Read distinct values of one side per value of the other into `draft.per_distinct` (their words consumed);
    a side linked to nothing sets the problem, naming its words. Nothing when the question asks no such thing."""
    m = _Y_BY_X.search(q.text) or _X_PER_Y.search(q.text) or _HOW_MANY_PER.search(q.text)
    if m is None or any(q.used[m.start("x"):m.end("x")]) or (m.re is _HOW_MANY_PER and not _counted_whole(
            m.group("x"), m.group("y"), columns, vocabulary)):
        return
    if singular(_head(m.group("y")).lower()) in TIME_KEYS:  # "distinct users per day": a histogram's buckets
        _per_bucket(q, draft, m, columns, vocabulary)
        return
    counted, per = _side(m.group("x"), columns, vocabulary), _side(m.group("y"), columns, vocabulary)
    if counted is None or per is None:
        words = m.group("x") if counted is None else m.group("y")
        draft.problem = f'counting distinct {_head(m.group("x"))} for each {_head(m.group("y"))} is not ' \
                        f'supported: I found no "{_head(words)}" in these logs'
        return
    draft.per_distinct = _ranked(m, per, counted) if m.re is _Y_BY_X else DistinctPer(per=per, counted=counted)
    for group, side in (("x", counted), ("y", per)):
        q.consume(m.start(group), m.start(group) + _read(m.group(group), side))
    q.consume(m.start(), m.start("x"))


def _per_bucket(q: Question, draft: Draft, m: re.Match[str], columns: list[str], vocabulary: Vocabulary) -> None:
    """Distinct values per time bucket ("distinct users per day", "which hour had the most distinct IPs"): the
    values counted are read here (their words and "distinct" consumed), the buckets as a histogram's."""
    counted = _side(m.group("x"), columns, vocabulary)
    if counted is None:
        draft.problem = f'counting distinct {_head(m.group("x"))} per {_head(m.group("y"))} is not supported: I ' \
                        f'found no "{_head(m.group("x"))}" in these logs'
        return
    draft.per_distinct = DistinctPer(per=None, counted=counted)
    q.consume(m.start("x"), m.start("x") + _read(m.group("x"), counted))
    if (word := re.search(_DISTINCT + r"\s+$", q.text[:m.start("x")], re.I)) is not None:
        q.consume(word.start(), word.end())


def _counted_whole(counted: str, per: str, columns: list[str], vocabulary: Vocabulary) -> bool:
    """Whether "how many <counted> per <per>" counts distinct values: its whole noun phrase is an entity word "how
    many" counts distinctly ("users", not "user logins", which are lines) and the other side names values."""
    side = _side(counted, columns, vocabulary)
    return side is not None and side.kind in COUNTABLE and side.words == _head(counted) and _side(
        per, columns, vocabulary) is not None


def _ranked(m: re.Match[str], per: Side, counted: Side) -> DistinctPer:
    """A ranking asked with the values ranked first: how many ("top 5", "which 3"), one ("which"), which way."""
    several = next((m.group(g) for g in ("several", "top", "the") if m.group(g)), None)
    return DistinctPer(per=per, counted=counted, n=amount(several) if several else None,
                       single=several is None and m.group("which") is not None,
                       least=(m.group("most") or "").lower() in FEWEST)


def _read(phrase: str, side: Side) -> int:
    """How much of `phrase` its side was read from, with a verb of holding after it ("each user use")."""
    rest = re.match(r"\s+(" + "|".join(HOLDING_VERBS) + r")\b", phrase[len(side.words):], re.I)
    return len(side.words) + (rest.end() if rest else 0)


def _head(phrase: str) -> str:
    """The words of a phrase up to the first that ends a noun phrase ("ports when failed" -> "ports")."""
    words = []
    for word in phrase.split():
        if word.lower() in PHRASE_ENDS:
            break
        words.append(word)
    return " ".join(words) or phrase


def _side(phrase: str, columns: list[str], vocabulary: Vocabulary) -> Side | None:
    """What the longest run of the phrase's first words names: an entity word (of a kind the log writes), a column
    or a word the messages write before values; None when no run names one, or only one that leaves out an entity
    word ("dest" of "dest ports" is another field)."""
    words = _head(phrase).split()
    for n in range(len(words), 0, -1):
        if any(_entity(w) for w in words[n:]):
            return None
        said = " ".join(words[:n])
        kind, role = _entity(said), ROLE_WORDS.get(words[0].lower()) if n > 1 else None
        if kind is not None and (writes_kind(kind, vocabulary) or (
                role is not None and kind in VALUES and marks_written(kind, role, vocabulary))):
            return Side(said, kind=kind, role=role)  # a role's values found by its marks (`DPT=`)
        if (subject := field_subject(words[:n], columns, vocabulary)) is not None:
            return Side(said, subject=subject)
    return None


def _entity(words: str) -> str | None:
    """The kind of entity the words name whole ("dest ports": port), or None."""
    return next((k for k, p in TARGETS if k != "message" and re.fullmatch(p, words, re.I)), None)
